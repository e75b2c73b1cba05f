"""Rational enclosures of transcendental numbers, proved by arb ball arithmetic.

An enclosure of a real number t is a pair of rationals lo <= t <= hi.  Each
function here evaluates t as an arb ball (python-flint, rigorous radius
propagation) at a working precision and returns the ball's exact endpoints as
``mpq``.  Nothing is decided by floats: arb endpoints are dyadic rationals
read exactly from (mantissa, exponent).

Thresholds λ₋ <= e^ε <= λ₊ are rounded outward to dyadics 2^-k with a guard
gap, so that a checker with a few more bits than k can confirm them.
"""

from contextlib import contextmanager

import flint
from flint import arb, fmpq, fmpz
from gmpy2 import mpq, mpz

from producer.errors import InputError, LimitError
from producer.rationals import describe_rational

GUARD_BITS = 16  # exponent thresholds keep at least 2^-(k+16) from e^ε


class Interval:
    """A closed rational interval [lo, hi] known to contain one real number."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo, hi):
        lo, hi = mpq(lo), mpq(hi)
        if lo > hi:
            raise ValueError(f"empty enclosure [{lo}, {hi}]")
        self.lo, self.hi = lo, hi

    @property
    def width(self):
        return self.hi - self.lo

    def __contains__(self, value):
        return self.lo <= mpq(value) <= self.hi

    def __repr__(self):
        return f"Interval({self.lo}, {self.hi})"


@contextmanager
def working_precision(bits):
    """Run arb arithmetic at ``bits`` bits (restores the previous precision)."""
    old = flint.ctx.prec
    flint.ctx.prec = int(bits)
    try:
        yield
    finally:
        flint.ctx.prec = old


def arf_to_mpq(x):
    """The exact value of an exact arb (an arf endpoint) as an mpq."""
    if not x.is_finite():
        raise ArithmeticError("arb endpoint is not finite")
    man, exp = x.man_exp()
    man, exp = mpz(int(man)), int(exp)
    return mpq(man * mpz(2) ** exp) if exp >= 0 else mpq(man, mpz(2) ** (-exp))


def to_arb(q):
    """An exact arb for the rational ``q`` (a point when q is dyadic, else a tight ball)."""
    q = mpq(q)
    return arb(fmpq(fmpz(int(q.numerator)), fmpz(int(q.denominator))))


def enclosure_of(ball):
    """The rational endpoints [lower, upper] of an arb ball."""
    if not ball.is_finite():
        raise ArithmeticError("arb ball is not finite; raise the precision")
    return Interval(arf_to_mpq(ball.lower()), arf_to_mpq(ball.upper()))


def exp_enclosure(x, bits=128):
    """Enclosure of e^x for rational x."""
    x = mpq(x)
    if x == 0:
        return Interval(1, 1)
    with working_precision(bits + _magnitude_bits(x)):
        return enclosure_of(to_arb(x).exp())


def log_enclosure(x, bits=128):
    """Enclosure of log x for rational x > 0."""
    x = mpq(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    if x == 1:
        return Interval(0, 0)
    with working_precision(bits + 16):
        return enclosure_of(to_arb(x).log())


def _magnitude_bits(x):
    """Extra bits so that e^x keeps ``bits`` relative bits after argument reduction."""
    return int(abs(mpq(x))).bit_length() + 8


def round_down(value, k):
    """The largest multiple of 2^-k that is <= value."""
    scale = mpz(2) ** k
    return mpq((mpq(value) * scale).numerator // (mpq(value) * scale).denominator, scale)


def round_up(value, k):
    """The smallest multiple of 2^-k that is >= value."""
    return -round_down(-mpq(value), k)


AUDITOR_THRESHOLD_BITS = 1 << 14
"""The auditor decides e^ε against the thresholds at their bits + 48, retried at 4x, up to this (UNCHECKED beyond)."""
LOG2_E_ABOVE = mpq(1443, 1000)   # > log2(e)


def log2_exp_bits(epsilon):
    """⌈ε·1.443⌉ >= log2(e^ε): the bits of e^ε's integer part, or more."""
    log2_exp = mpq(epsilon) * LOG2_E_ABOVE
    return int(-(-log2_exp.numerator // log2_exp.denominator))


def _count(n):
    """A count of bits in a message: exact up to 10^12, then 2.89e+308 or 10^k (ε = 1e308 asks for such)."""
    n = int(n)
    if n < 10 ** 12:
        return str(n)
    return f"{n:.3g}" if n.bit_length() < 1000 else f"10^{int(n.bit_length() * 0.30103)}"


def check_auditor_threshold(bits, what, advice="use a smaller ε"):
    """LimitError when thresholds of ``bits`` bits exceed what the auditor decides (their bits + 48, at 4x)."""
    if 4 * (bits + 48) > AUDITOR_THRESHOLD_BITS:
        raise LimitError(f"epsilon: {what} has about {_count(bits)} bits; the auditor decides it at "
                         f"{_count(4 * (bits + 48))} bits, "
                         f"above its limit {AUDITOR_THRESHOLD_BITS} ({advice})")


def threshold_bits(epsilon, max_gap):
    """An upper estimate of the bits of :func:`exp_threshold`'s ends: their fraction needs about log2(e^ε) +
    log2(1/max_gap) bits (its relative precision grows with e^ε), their integer part log2(e^ε) more."""
    return 2 * log2_exp_bits(epsilon) - floor_log2(mpq(max_gap)) + 2


def check_threshold_size(epsilon, max_gap):
    """LimitError, before any work, when the thresholds λ± around e^ε would be too long for the auditor (a large
    ε: its enclosure work grows with ε² and the auditor answers UNCHECKED)."""
    check_auditor_threshold(threshold_bits(epsilon, max_gap),
                            f"each threshold λ± around e^ε at ε = {describe_rational(mpq(epsilon))}")


def exp_threshold(epsilon, max_gap):
    """Dyadic rationals λ₋ <= e^ε <= λ₊ with λ₊ − λ₋ <= max_gap.

    λ₋ and λ₊ are multiples of 2^-k for the smallest k that meets the gap.
    Each keeps a guard distance of at least 2^-(k+GUARD_BITS) from e^ε, so an
    independent check at about k + GUARD_BITS + log2(e^ε) bits succeeds.
    For ε = 0 the enclosure is exact: λ₋ = λ₊ = 1.
    """
    epsilon, max_gap = mpq(epsilon), mpq(max_gap)
    if epsilon < 0:
        raise InputError(f"epsilon: must be >= 0, got {epsilon}")
    if max_gap <= 0:
        raise ValueError("max_gap must be positive")
    if epsilon == 0:
        return mpq(1), mpq(1)
    k = max(0, -floor_log2(max_gap)) + 2
    while True:
        enc = exp_enclosure(epsilon, bits=k + GUARD_BITS + 64)
        guard = mpq(1, mpz(2) ** (k + GUARD_BITS))
        lo = round_down(enc.lo - guard, k)
        hi = round_up(enc.hi + guard, k)
        if hi - lo <= max_gap:
            return lo, hi
        k += 1


def floor_log2(q):
    """floor(log2 q) for rational q > 0, exactly."""
    q = mpq(q)
    if q <= 0:
        raise ValueError("floor_log2 of a non-positive number")
    e = int(q.numerator).bit_length() - int(q.denominator).bit_length()
    # 2^(e-1) < q < 2^(e+1); settle the exact floor.
    while mpq(2) ** e > q:
        e -= 1
    while mpq(2) ** (e + 1) <= q:
        e += 1
    return e
