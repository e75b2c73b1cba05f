"""Two neighbouring grid points, the upper certified to meet the target and the lower to miss it.

``decide(n)`` returns +1 when the certificate at grid index n meets the
target (ε*_C(δ) <= ε: its upper end of δ_C(ε) is <= δ), −1 when it misses
(its lower end is > δ), and raises when the point cannot be decided.  Given
a miss at index a and a meet at index b > a, bisection on the indices keeps
one of each and ends at b = a + 1: whatever the values between, some pair of
neighbours changes from miss to meet, so the answer needs no monotonicity;
both ends are certified, which is all the certificate claims.  Where δ_C(ε)
falls with the noise (as every computed case here does; nothing relies on
it) the crossing is unique, so the answer does not depend on the order of
the probes.

The order is steered by floats only.  The search starts at a hint index and
walks away from it until the other side is found; ``guide(n)``, when given,
is a float g(n) ≈ log(δ_C(ε)/δ) at a decided point (None if unknown), and the
walk and the bisection aim at the secant's zero of g through the last two
points (safeguarded: the walk's step at most quadruples, a bisection probe
that does not halve the interval is followed by a midpoint).  Without a
guide the walk steps 1, 2, 4, ... and the bisection halves.  The caller says
what it means that no point of the range meets (or that the smallest one
already does).
"""

import math

from producer.errors import LimitError

MEETS, MISSES = +1, -1


class NoCrossing(LimitError):
    """The range holds no miss-to-meet pair: ``meets`` says whether its end point met (bottom) or missed (top)."""

    def __init__(self, message, index, meets):
        super().__init__(message)
        self.index, self.meets = index, meets


def _zero(guide, m, n):
    """The secant's zero of g through indices m and n, a float, or None."""
    if guide is None or m == n:
        return None
    gm, gn = guide(m), guide(n)
    if gm is None or gn is None or gm == gn or not (math.isfinite(gm) and math.isfinite(gn)):
        return None
    return n - gn * (n - m) / (gn - gm)


def bracket(decide, start, bottom, top, guide=None):
    """(a, b): decide(a) = MISSES, decide(b) = MEETS, bottom <= a < b <= top, starting the walk at ``start``."""
    n = min(max(start, bottom), top)
    side, previous, step = decide(n), None, 1
    direction = -1 if side == MEETS else +1   # a meet looks for a miss below, a miss for a meet above
    end = bottom if direction < 0 else top
    while True:
        if n == end:
            if side == MEETS:
                raise NoCrossing("the smallest noise of the range already meets the target", bottom, True)
            raise NoCrossing("the largest noise of the range does not meet the target", top, False)
        jump = step
        if previous is not None:
            zero = _zero(guide, previous, n)
            if zero is not None and (zero - n) * direction > 0:
                jump = min(max(1, math.floor(abs(zero - n)) + 1), 4 * step)  # just past the predicted crossing
        m = n + direction * jump
        m = max(m, bottom) if direction < 0 else min(m, top)
        if decide(m) != side:
            return (m, n) if direction < 0 else (n, m)
        previous, n, step = n, m, 2 * jump


def bisect(decide, a, b, guide=None):
    """Narrow a miss a and a meet b to neighbours (b = a + 1)."""
    halve = False
    while b - a > 1:
        zero = None if halve else _zero(guide, a, b)
        if zero is None or not a < zero < b:
            m = (a + b) // 2
        else:  # the predicted first meet, or the last miss if that is b itself
            m = min(max(math.ceil(zero), a + 1), b - 1)
        before = b - a
        if decide(m) == MEETS:
            b = m
        else:
            a = m
        halve = 2 * (b - a) > before and not halve
    return a, b


def crossing(decide, start, bottom, top, guide=None):
    """Neighbouring indices (a, a + 1): a misses, a + 1 meets (see the module docstring)."""
    a, b = bracket(decide, start, bottom, top, guide)
    return bisect(decide, a, b, guide)
