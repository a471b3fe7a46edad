"""Input and output: reading segments and human scores (errors name the file and line), writing results."""
