"""Reading inputs: segments, segment metadata and human scores from text, JSON, CSV and Parquet files (errors name
the file and line). Writing reports is :mod:`metrics.reports`."""
