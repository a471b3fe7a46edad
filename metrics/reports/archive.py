"""A document's CSV tables as ``<table>.csv`` files in one zip: the overview's and the Analysis page's downloads.

Entries carry a fixed timestamp, so the same document gives the same bytes, and the permissions of an ordinary
file (``rw-r--r--``): without them, unzip writes each table readable by its owner only."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterable

from metrics.reports.analysis import Analysis, analysis_tables
from metrics.reports.results import Results, Table, tables

UNIX = 3  # the "made on" system whose permission bits unzip honours
FILE_MODE = 0o100644  # a regular file, rw-r--r--


def tables_zip(document_tables: Iterable[Table]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for table in document_tables:
            entry = zipfile.ZipInfo(f"{table.name}.csv", date_time=(1980, 1, 1, 0, 0, 0))
            entry.create_system, entry.external_attr = UNIX, FILE_MODE << 16
            archive.writestr(entry, table.to_csv())
    return buffer.getvalue()


def csv_zip(results: Results) -> bytes:
    """Every CSV table of the results schema."""
    return tables_zip(tables(results))


def analysis_zip(analysis: Analysis) -> bytes:
    """Every CSV table of the analysis document."""
    return tables_zip(analysis_tables(analysis))
