"""Two neighbouring grid points, the upper certified to meet the target and the lower to miss it.

``decide(n)`` returns +1 when the certificate at grid index n meets the
target (ε*_C(δ) <= ε: its upper end of δ_C(ε) is <= δ), −1 when it misses
(its lower end is > δ), and raises when the point cannot be decided.  Given
a miss at index a and a meet at index b > a, bisection on the indices keeps
one of each and ends at b = a + 1: whatever the values between, some pair of
neighbours changes from miss to meet, so the answer needs no monotonicity;
both ends are certified, which is all the certificate claims.

The search starts at a hint index (a float estimate, which only steers) and
walks away from it in steps 1, 2, 4, ... until the other side is found or
the end of the range is reached; the caller says what it means that no
point of the range meets (or that the smallest one already does).
"""

from producer.errors import LimitError

MEETS, MISSES = +1, -1


class NoCrossing(LimitError):
    """The range holds no miss-to-meet pair: ``meets`` says whether its end point met (bottom) or missed (top)."""

    def __init__(self, message, index, meets):
        super().__init__(message)
        self.index, self.meets = index, meets


def bracket(decide, start, bottom, top):
    """(a, b): decide(a) = MISSES, decide(b) = MEETS, bottom <= a < b <= top, starting the walk at ``start``."""
    start = min(max(start, bottom), top)
    if decide(start) == MEETS:
        b, step = start, 1
        while True:
            if b == bottom:
                raise NoCrossing("the smallest noise of the range already meets the target", bottom, True)
            a = max(b - step, bottom)
            if decide(a) == MISSES:
                return a, b
            b, step = a, 2 * step
    a, step = start, 1
    while True:
        if a == top:
            raise NoCrossing("the largest noise of the range does not meet the target", top, False)
        b = min(a + step, top)
        if decide(b) == MEETS:
            return a, b
        a, step = b, 2 * step


def bisect(decide, a, b):
    """Narrow a miss a and a meet b to neighbours (b = a + 1)."""
    while b - a > 1:
        m = (a + b) // 2
        if decide(m) == MEETS:
            b = m
        else:
            a = m
    return a, b


def crossing(decide, start, bottom, top):
    """Neighbouring indices (a, a + 1): a misses, a + 1 meets (see the module docstring)."""
    a, b = bracket(decide, start, bottom, top)
    return bisect(decide, a, b)
