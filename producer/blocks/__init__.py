"""Block accounting for the hidden integer feedback mechanism: deadline curves and dominating-pair composition."""
