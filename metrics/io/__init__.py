"""Reading segments and human scores from files, with errors that name the file and line."""
