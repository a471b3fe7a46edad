"""``scorelens``: the command line of the metrics core."""
