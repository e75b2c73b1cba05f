"""Search for an enclosure of ε*_C(δ) = inf{ε >= 0 : Δ*_C(ε) <= δ}.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendix K.1.)

Δ*_C is non-increasing in ε (hockey-stick divergence is non-increasing in
λ = e^ε), so

- a certified interval at ε_lo whose lower end exceeds δ proves ε* >= ε_lo;
- a certified interval at ε_hi whose upper end is at most δ proves ε* <= ε_hi;
- a certified upper end <= δ at ε = 0 proves ε* = 0.

The search only chooses where to look; every decision it keeps is one of the
three certified facts above.  It starts from the bracket [0, E] with E the
moment-envelope bound, picks probes by a safeguarded secant step on
log Δ (float hints only), offset by ζ/3 towards the end of the bracket that
has not moved recently so that the bracket closes from both sides, and
refines the source (a narrower interval) whenever an interval straddles δ.
"""

import math

from gmpy2 import mpq, mpz

from producer.errors import LimitError
from producer.sources.enclosures import floor_log2, round_down

MAX_PROBES = 200
REFINE_FACTOR = 16


class EpsilonEnclosure:
    """The outcome: ε* = 0 (``lower_result`` None) or ε_lo <= ε* <= ε_hi."""

    __slots__ = ("eps_lo", "eps_hi", "lower_result", "upper_result", "probes")

    def __init__(self, eps_lo, eps_hi, lower_result, upper_result, probes):
        self.eps_lo, self.eps_hi = mpq(eps_lo), mpq(eps_hi)
        self.lower_result, self.upper_result = lower_result, upper_result
        self.probes = probes

    @property
    def is_zero(self):
        return self.lower_result is None


class _Search:
    """State of one search: the oracle, δ, ζ and the current source width."""

    def __init__(self, oracle, delta, zeta, source_width, width_floor, log):
        self.oracle, self.delta, self.zeta = oracle, mpq(delta), mpq(zeta)
        self.W, self.W_floor, self.log = mpq(source_width), mpq(width_floor), log
        self.probes = 0

    def decide(self, eps):
        """An interval at ``eps`` on one side of δ, refining the source if needed; None if impossible."""
        while True:
            if self.probes >= MAX_PROBES:
                raise LimitError(f"calibrate: no decision after {MAX_PROBES} finite-game queries")
            self.probes += 1
            result = self.oracle(eps, self.W)
            side = self.side(result)
            self.log(f"probe {self.probes}: eps = {float(eps):.10f}, width {float(self.W):.2e}: "
                     f"[{float(result.lower):.6e}, {float(result.upper):.6e}] -> {side or 'straddles delta'}")
            if side:
                return result
            if self.W / REFINE_FACTOR < self.W_floor:
                return None
            self.W /= REFINE_FACTOR

    def side(self, result):
        if result.lower > self.delta:
            return "above"
        if result.upper <= self.delta:
            return "below"
        return None


def _hint(result):
    """A float hint of Δ at a probe: the interval midpoint."""
    return float((result.lower + result.upper) / 2)


def _dyadic_grid(zeta):
    """k with 2^-k <= ζ/64: probes are multiples of 2^-k."""
    return max(0, -floor_log2(mpq(zeta) / 64))


def search(oracle, delta, zeta, envelope, log=lambda message: None, limit=None):
    """A :class:`EpsilonEnclosure` for ε*_C(δ).

    ``oracle(eps, W)`` returns a certified interval (``.lower``, ``.upper``)
    for Δ*_C(eps) narrower than W.  ``envelope`` is a rational E >= ε*.
    ``limit`` (optional) is the largest ε the oracle answers: an envelope
    above it is replaced by the limit, and a LimitError says so when ε* is
    not confirmed below it.
    """
    delta, zeta, envelope = mpq(delta), mpq(zeta), mpq(envelope)
    cut = limit is not None and envelope > limit
    if cut:
        envelope = mpq(limit)
    s = _Search(oracle, delta, zeta, source_width=delta / 4, width_floor=delta * zeta / mpz(2) ** 20, log=log)
    at_zero = s.decide(mpq(0))
    if at_zero is None:
        raise LimitError("calibrate: cannot separate Δ*(0) from δ; Δ*(0) is within rounding of δ")
    if s.side(at_zero) == "below":
        return EpsilonEnclosure(0, 0, None, at_zero, s.probes)
    lo, lo_res = mpq(0), at_zero
    hi, hi_res = envelope, s.decide(envelope)
    if cut and (hi_res is None or s.side(hi_res) != "below"):
        raise LimitError(f"delta: ε* is not below {limit}, the largest ε the exact game answers (its moment "
                         f"envelope is larger); ask for a larger delta or a smaller budget")
    if hi_res is None or s.side(hi_res) != "below":
        raise ArithmeticError("calibrate: the moment envelope was not confirmed; this is a bug")
    k = _dyadic_grid(zeta)
    moved = []  # which end moved at each probe
    while hi - lo >= zeta:
        p = _next_probe(lo, hi, lo_res, hi_res, delta, zeta, moved, k)
        res = s.decide(p)
        if res is None:
            # Δ*(p) is within the finest width of δ: p is practically ε*; probe beside it.
            offset = zeta / 3 if not moved or moved[-1] == "lo" else -zeta / 3
            p = _clamp_grid(p + offset, lo, hi, k)
            res = s.decide(p)
            if res is None:
                raise LimitError("calibrate: Δ*_C is too flat near δ to certify the requested width")
        if s.side(res) == "above":
            lo, lo_res = p, res
            moved.append("lo")
        else:
            hi, hi_res = p, res
            moved.append("hi")
    return EpsilonEnclosure(lo, hi, lo_res, hi_res, s.probes)


def _next_probe(lo, hi, lo_res, hi_res, delta, zeta, moved, k):
    """Safeguarded secant step on log Δ, offset by ζ/3 towards the stale end."""
    span = hi - lo
    estimate = None
    m_lo, m_hi = _hint(lo_res), _hint(hi_res)
    stalled = len(moved) >= 3 and moved[-1] == moved[-2] == moved[-3]
    if m_lo > 0 and m_hi > 0 and m_lo != m_hi and not stalled:
        t = (math.log(m_lo) - math.log(float(delta))) / (math.log(m_lo) - math.log(m_hi))
        if 0 < t < 1:
            estimate = lo + mpq(t) * span
    if estimate is None:
        estimate = lo + span / 2
    if span > 4 * zeta:
        # keep at least 1/16 of the bracket on each side while far from the end
        estimate = min(max(estimate, lo + span / 16), hi - span / 16)
    # aim beside the estimate, on the side whose end has not moved last
    offset = zeta / 3 if (moved and moved[-1] == "lo") else -zeta / 3
    return _clamp_grid(estimate + offset, lo, hi, k)


def _clamp_grid(p, lo, hi, k):
    """p rounded to the 2^-k grid, kept strictly inside (lo, hi)."""
    p = round_down(p, k)
    step = mpq(1, mpz(2) ** k)
    if p <= lo:
        p = lo + step if lo + step < hi else (lo + hi) / 2
    if p >= hi:
        p = hi - step if hi - step > lo else (lo + hi) / 2
    return p
