"""A sweep point's certificate: one round at an absolute width, or rounds towards a relative width.

A ``dg-interval/1`` certificate asks an absolute width w (upper − lower < w).
A sweep may ask instead the relative width R (upper − lower <= R·lower, as
``producer plain --rel-width``) with an absolute floor W.  The kind has no
relative width, so the sweep runs rounds, each a whole certificate at an
absolute width, and keeps the last one: every point's file is a valid
``dg-interval/1`` certificate of the width it asked.

* The first round asks w = max(W, R²): for R = 10^-3 the width 10^-6 that
  meets R for every δ above about 10^-3 at once.
* A round that misses R asks next for the largest power of ten at most R·e/8,
  where the estimate e is the lower end when it is positive, else the finite
  game's hockey-stick value v when it is positive (the interval is v less or
  plus the transfer and threshold terms, so v is the certificate's own
  estimate of δ even when its lower end is 0), else w² (nothing to aim at).
  With a positive lower end the next round meets R (its width is at most
  R·lower/8 while its lower end stays near δ >= lower).
* The rounds stop when R is met; when the next width would be below the
  floor W (after one round at W itself); when a round is refused by a limit
  (the auditor's work for the game grows with the source, so a narrower width
  can be beyond it: the previous round's certificate is kept); or after
  :data:`MAX_ROUNDS` rounds.
* A discrete-Laplace point at ε >= 2C/t has one round only: there Δ*_C(ε) = 0
  (the mechanism is (2C/t)-DP, docs/plain-composition.md §2.5), so no width
  gives a positive lower end and narrower rounds would only cost time.

A point whose lower end stays 0, or that does not meet R, is *upper-only*:
its certificate proves δ <= upper and nothing useful below.
"""

from gmpy2 import mpq, mpz

from producer.errors import LimitError
from producer.immutable import Immutable
from producer.sweep.grid import LAPLACE

MAX_ROUNDS = 8
TWO_SIDED, UPPER_ONLY = "two-sided", "upper-only"
# Why a point's rounds stopped: R met, an absolute width (one round), the floor
# W, a refused round, the round limit, a Laplace point where Δ* = 0 (pure DP).
MET, ABSOLUTE, FLOOR, LIMIT, ROUNDS, PURE = "met", "width", "floor", "limit", "rounds", "pure-dp"


class Refined(Immutable):
    """The kept certificate of one point, its number of rounds and why they stopped."""

    __slots__ = ("certificate", "rounds", "stop")

    def __init__(self, certificate, rounds, stop):
        self.certificate, self.rounds, self.stop = certificate, rounds, stop


def ends(kind, certificate):
    """(lower, upper) of a dg-interval (Δ*) or calibration (ε*) certificate, exact."""
    result = certificate.result
    if kind == "dg":
        return mpq(result["interval"]["lower"]), mpq(result["interval"]["upper"])
    return mpq(result["epsilon_lo"]), mpq(result["epsilon_hi"])


def meets(lower, upper, rel_width):
    """upper − lower <= R·lower (lower = upper = 0 meets it)."""
    return upper - lower <= rel_width * lower


def status_of(lower, upper, rel_width, stop):
    """two-sided: the lower end is positive (or the enclosure is the single value 0) and R, when asked, is met."""
    if lower == upper:
        return TWO_SIDED
    if lower == 0 or rel_width is not None and stop != MET:
        return UPPER_ONLY
    return TWO_SIDED


def pure_dp(point):
    """A discrete-Laplace point at ε >= 2C/t, where Δ*_C(ε) = 0 (docs/plain-composition.md §2.5)."""
    return point.law == LAPLACE and point.kind == "dg" and point.value * point.law_value >= 2 * point.budget


def power_of_ten_at_most(value):
    """The largest 10^e <= value (value > 0), exact."""
    q = mpq(value)
    e = len(str(q.numerator)) - len(str(q.denominator))  # within one of the answer
    while _ten_to(e) > q:
        e -= 1
    while _ten_to(e + 1) <= q:
        e += 1
    return _ten_to(e)


def _ten_to(e):
    return mpq(mpz(10) ** e) if e >= 0 else mpq(1, mpz(10) ** -e)


def next_width(width, lower, estimate, rel_width):
    """The next round's absolute width after a round at ``width`` missed R (see the module docstring)."""
    target = rel_width * (lower if lower > 0 else estimate) / 8 if lower > 0 or estimate > 0 else width * width
    return power_of_ten_at_most(min(target, width / 2))


def refine(point, certify):
    """The point's :class:`Refined`; ``certify(point, width)`` makes the certificate of one round.

    Without a relative width (or for a δ point) one round at the point's width.
    """
    rel_width, floor = point.rel_width, point.width
    if rel_width is None or point.kind != "dg":
        return Refined(certify(point, floor), 1, ABSOLUTE)
    width = max(floor, rel_width * rel_width)
    certificate, rounds = certify(point, width), 1
    while True:
        lower, upper = ends(point.kind, certificate)
        if meets(lower, upper, rel_width):
            return Refined(certificate, rounds, MET)
        if pure_dp(point):
            return Refined(certificate, rounds, PURE)
        if rounds == MAX_ROUNDS:
            return Refined(certificate, rounds, ROUNDS)
        if width <= floor:
            return Refined(certificate, rounds, FLOOR)
        estimate = mpq(certificate.result["finite"]["hockey_stick"])
        width = max(next_width(width, lower, estimate, rel_width), floor)
        try:
            certificate = certify(point, width)
        except LimitError:
            return Refined(certificate, rounds, LIMIT)
        rounds += 1
