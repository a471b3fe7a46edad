"""The view of an external metric's segment: the provided score and where it came from. ScoreLens did not compute it,
so there is no evidence beyond the file's line and the provenance the user declared."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from metrics.families.external import ExternalExplanation
from rendering.edits_html import counts_html
from rendering.parts import Part, note
from rendering.view import ViewOptions, evidence_view


@evidence_view.register(ExternalExplanation)
def _external(ex: ExternalExplanation, hyp: str, refs: Sequence[str], options: ViewOptions) -> list[Part]:
    del hyp, refs, options
    counted = ex.segment + 1 if ex.one_based else ex.segment
    items = [
        ("score", f"{ex.score:.6g}"),
        ("better", "higher" if ex.higher_is_better else "lower"),
        ("from", f"{Path(ex.source).name}, line {ex.line}"),
        ("segment in the file", f"{counted} ({'1' if ex.one_based else '0'}-based)"),
    ]
    provenance = ex.provenance or "not stated when the scores were loaded"
    return [
        Part("html", counts_html(items), f"{ex.name}: a score provided for {ex.system}"),
        note(f"Provenance: {provenance}. ScoreLens read this score from the file; it did not compute it."),
    ]
