"""Certificate writing: canonical JSON, digests, and one module per kind."""
