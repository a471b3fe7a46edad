"""The app's pages in navigation order (the first opens by default): file, title, icon."""

from __future__ import annotations

PAGES: tuple[tuple[str, str, str], ...] = (
    ("pages/1_Overview.py", "Overview", ":material/leaderboard:"),
    ("pages/0_Data.py", "Data", ":material/upload_file:"),
    ("pages/4_Analysis.py", "Analysis", ":material/insights:"),
    ("pages/2_Explorer.py", "Explorer", ":material/table_rows:"),
    ("pages/3_Segment.py", "Segment", ":material/compare:"),
    ("pages/5_Teach.py", "Teach", ":material/school:"),
)


def page_files() -> list[str]:
    return [path for path, _, _ in PAGES]
