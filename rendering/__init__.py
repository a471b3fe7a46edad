"""Pure rendering helpers between the metrics core and the pages: escaped HTML, tables, plotly figures."""
