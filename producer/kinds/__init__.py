"""One module per certificate kind."""
