"""A certified miss and a certified meet close enough to each other: a crossing with room, and undecided points.

:mod:`producer.noise_level.search` ends at neighbouring indices.  Here the
caller says how far apart the two may lie: ``up(n)`` is the largest index
close to n from above (at least n + 1) and ``down(m)`` the smallest close to
m from below (at most m − 1); for neighbours ``up(n) = n + 1``.  The answer
is a pair a < b with decide(a) = MISSES, decide(b) = MEETS and b <= up(a).
As there, both ends are certified and nothing relies on monotonicity: the
pair is a crossing, not a minimality claim.

Two things differ from the neighbours' search:

- The room is used.  Once a miss and a meet are bracketed, the probe is the
  low end of a pair (n, up(n)) centred on the guide's predicted crossing,
  then its partner: each of the two then lies half the room away from the
  crossing, where a cheaper enclosure separates it from the target.  A probe
  that does not halve the interval is followed by a midpoint, as in
  :func:`producer.noise_level.search.bisect`.
- A point may be undecided: ``decide`` raises :class:`Undecided` when no
  enclosure within reach separates it from the target.  The search then
  decides the point's two neighbours instead and goes on beside it; when
  those two are a miss below and a meet above that are close enough, they
  are the answer (the undecided point between them is not claimed either
  way).  When they are not close enough, or are undecided too, the search
  says so (:class:`Undecided` propagates).

Lines map the search's indices to the solved parameter: :class:`RatioLine`
runs over a :class:`~producer.noise_level.grid.RelativeGrid` (up or down the
grid; close means within the ratio 1 + R) and :class:`IntegerLine` over the
integers (down, for counts that must not grow: close means neighbours).
"""

import math

from gmpy2 import mpq

from producer.noise_level.search import MEETS, MISSES, _zero, bracket

__all__ = ["MEETS", "MISSES", "Undecided", "RatioLine", "IntegerLine", "pair"]


class Undecided(Exception):
    """No enclosure within reach separates the point at ``index`` from the target; ``reason`` says why."""

    def __init__(self, index, reason):
        super().__init__(reason)
        self.index, self.reason = index, reason


class RatioLine:
    """Search index i <-> the grid point of index sign·i of ``grid``: close means the larger value is at most
    (1 + R) times the smaller.  ``sign`` +1 when the target is met at larger values, −1 at smaller ones."""

    __slots__ = ("grid", "ratio", "sign")

    def __init__(self, grid, precision, sign=+1):
        self.grid, self.ratio, self.sign = grid, 1 + mpq(precision), sign

    def value(self, index):
        return self.grid.value(self.sign * index)

    def index_of(self, value, above=True):
        """The search index of the grid point nearest ``value`` on the side of larger search indices (above)."""
        grid_side = above if self.sign > 0 else not above
        n = self.grid.index_above(value) if grid_side else self.grid.index_below(value)
        return self.sign * n

    def up(self, index):
        if self.sign > 0:
            return self.grid.index_below(self.value(index) * self.ratio)
        return -self.grid.index_above(self.value(index) / self.ratio)

    def down(self, index):
        if self.sign > 0:
            return self.grid.index_above(self.value(index) / self.ratio)
        return -self.grid.index_below(self.value(index) * self.ratio)


class IntegerLine:
    """Search index i <-> the integer −i (a count met at smaller values): close means neighbours."""

    __slots__ = ()

    @staticmethod
    def value(index):
        return -index

    @staticmethod
    def up(index):
        return index + 1

    @staticmethod
    def down(index):
        return index - 1


def pair(decide, start, bottom, top, line, guide=None):
    """(a, b): decide(a) = MISSES, decide(b) = MEETS, bottom <= a < b <= min(top, line.up(a)).

    Raises :class:`producer.noise_level.search.NoCrossing` when the range holds no such pair at its ends,
    :class:`Undecided` when an undecided point cannot be stepped around.
    """
    a, b = _bracket(decide, start, bottom, top, guide)
    return _narrow(decide, a, b, line, guide)


def _bracket(decide, start, bottom, top, guide):
    """A miss a < a meet b, as :func:`~producer.noise_level.search.bracket`, stepping around undecided points."""
    while True:
        try:
            return bracket(decide, start, bottom, top, guide)
        except Undecided as error:
            u = error.index
            if not bottom < u < top:
                raise
            below, above = decide(u - 1), decide(u + 1)
            if below == MISSES and above == MEETS:
                return u - 1, u + 1
            if below == MEETS:        # a meet below the undecided point: look below it
                start, top = u - 1, u - 1
            else:                     # a miss above it: look above
                start, bottom = u + 1, u + 1


def _centred(line, z, a, b):
    """The low end n of a close pair (n, up(n)) whose middle is nearest the predicted crossing z, inside (a, b)."""
    base = min(max(math.floor(z), a + 1), b - 1)
    room = line.up(base) - base
    return min(max(round(z - room / 2), a + 1), b - 1)


def _narrow(decide, a, b, line, guide):
    halve = False
    while b > line.up(a):
        before = b - a
        z = None if halve else _zero(guide, a, b)
        if z is None or not a < z < b:
            z = (a + b) / 2
        n = _centred(line, z, a, b)
        try:
            a, b = _probe_pair(decide, n, a, b, line)
        except Undecided as error:
            a, b = _around(decide, error, a, b, line)
        halve = 2 * (b - a) > before and not halve
    return a, b


def _probe_pair(decide, n, a, b, line):
    """Decide n, then its partner on the side that may close the pair; the narrowed (a, b)."""
    if decide(n) == MISSES:
        a = n
        partner = line.up(a)
        if partner < b:
            if decide(partner) == MEETS:
                b = partner
            else:
                a = partner
    else:
        b = n
        partner = line.down(b)
        if partner > a:
            if decide(partner) == MISSES:
                a = partner
            else:
                b = partner
    return a, b


def _around(decide, error, a, b, line):
    """Step around the undecided point u inside (a, b): its neighbours narrow the interval, or close it
    beside u, or the search cannot go on (the error propagates)."""
    u = error.index
    below = MISSES if u - 1 == a else decide(u - 1)
    if below == MEETS:
        return a, u - 1
    above = MEETS if u + 1 == b else decide(u + 1)
    if above == MISSES:
        return u + 1, b
    if u + 1 <= line.up(u - 1):
        return u - 1, u + 1
    raise error
