"""Report documents, above the statistics and the analyses they report: the results schema and the analysis
document (JSON and CSV tables), segment-score files, CSV zips and LaTeX tables — what ``scorelens score`` and
``scorelens analyze`` print and what the app downloads."""
