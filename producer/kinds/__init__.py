"""Certificate kinds born in the target layout: one module per kind.

Each module holds ``KIND``, ``VERSION``, the kind's documented limits, an
immutable ``Request`` validated once in its constructor, ``build(request,
progress=None) -> dict`` (the sealed certificate) and ``claim(cert) -> str``
(the one-line answer).  The mathematics lives in a topic package.
"""
