"""ε(δ) from certified δ(ε): a bisection on a grid of ε, every step decided by an enclosure.

δ(ε) is non-increasing in ε.  At a grid point k·h an enclosure lower <= δ(kh) <= upper
decides one of

- ``+1``: lower > δ, so δ(ε) >= δ(kh) > δ for every ε <= kh, and ε*(δ) >= kh;
- ``-1``: upper <= δ, so ε*(δ) <= kh;
- ``0``: neither (δ lies inside the enclosure): nothing is learned but where ε* is.

:func:`bisect_grid` keeps lo (ε* >= lo·h: +1, or lo = 0, which always holds) and
hi (−1) and narrows them until hi − lo <= span.  A point that decides nothing
splits the search in two: the largest +1 below it and the smallest −1 above it
are then sought separately (``a`` is the smallest index known not to be +1,
``b`` the largest known not to be −1).  Soundness rests only on the decided
points; the order of the probes only steers the cost.
"""

from producer.errors import LimitError


def bisect_grid(side, span, first, limit, log=None, unit=1.0):
    """(lo, hi) grid indices with hi − lo <= span, side(hi) = −1 and side(lo) = +1 or lo = 0.

    ``side(k)`` classifies the grid point k (see the module docstring); the
    search starts at 0, then doubles from ``first`` up to ``limit``; (0, 0)
    when side(0) = −1.  ``unit`` (the grid step as a float) only labels the
    progress lines.
    """
    def probe(k):
        s = side(k)
        if log:
            log(f"eps = {k * unit:.12g}: {('undecided', 'delta(eps) > delta', 'delta(eps) <= delta')[s]}")
        return s

    s = probe(0)
    if s < 0:
        return 0, 0
    lo, a, b, k = 0, None, 0, first
    while True:
        s = probe(k)
        if s < 0:
            break
        if s > 0:
            lo = b = k
        else:
            a, b = k if a is None else a, k
        if k >= limit:
            raise LimitError(f"epsilon: δ(ε) is not certified <= δ up to the ε limit {limit * unit:g}")
        k = min(2 * k, limit)
    hi = k
    a = hi if a is None or a <= lo else a
    while hi - lo > span:
        left, right = a - lo, hi - b
        if left <= 1 and right <= 1:
            raise LimitError(f"width: the δ-enclosures cannot separate ε*(δ) closer than {(hi - lo) * unit:.3g} "
                             f"(δ lies inside the enclosures there)", "ask for a larger width")
        m = (lo + a) // 2 if left >= right else (b + hi) // 2
        s = probe(m)
        if s > 0:
            lo = m
        elif s < 0:
            hi = m
        if s <= 0:
            a = min(a, m)
        if s >= 0:
            b = max(b, m)
        a = hi if a <= lo else min(a, hi)
        b = lo if b >= hi else max(b, lo)
    return lo, hi
