"""Certified rational enclosures of transcendental numbers via ``arb``.

python-flint's ``arb`` is rigorous ball arithmetic: every operation returns a
ball containing the exact result.  We evaluate at ``WORKING_PRECISION`` bits
and round each ball *outward* to dyadic rationals with denominator 2^bits,
leaving a gap of at least one unit (2^-bits) between the exact value and each
end, so that an independent checker with a little more precision than
``bits`` can always confirm the enclosure.
"""

from contextlib import contextmanager

from flint import arb, ctx, fmpq
from gmpy2 import isqrt, mpq, mpz

WORKING_PRECISION = 384  # bits carried by arb
ENCLOSURE_BITS = 128  # dyadic denominator 2^ENCLOSURE_BITS of published ends


@contextmanager
def precision(bits=WORKING_PRECISION):
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old


def to_arb(x):
    """A ball containing the rational x (exact when x is dyadic and short)."""
    x = mpq(x)
    return arb(fmpq(int(x.numerator), int(x.denominator)))


def _exact(a):
    """The exact dyadic value of an exact arb (an endpoint)."""
    man, exp = a.man_exp()
    man, exp = int(man), int(exp)
    return mpq(man) * (mpq(2) ** exp)


def ends(ball):
    """(lo, hi) exact rationals with lo <= every point of ``ball`` <= hi."""
    if not ball.is_finite():
        raise ArithmeticError("enclosure is not finite; precision too low")
    return _exact(ball.lower()), _exact(ball.upper())


def outward(ball, bits=ENCLOSURE_BITS):
    """Dyadic (lo, hi), denominator 2^bits, with a gap of one unit each side."""
    lo, hi = ends(ball)
    s = mpz(1) << bits
    lo_n = (lo.numerator * s) // lo.denominator - 1
    hi_n = -((-hi.numerator * s) // hi.denominator) + 1
    return mpq(lo_n, s), mpq(hi_n, s)


def sqrt_bounds(x, bits=ENCLOSURE_BITS):
    """(lo, hi) with lo <= sqrt(x) <= hi; both equal sqrt(x) when x is the
    square of a rational.  Integer square roots only (exact floor/ceil)."""
    x = mpq(x)
    if x < 0:
        raise ValueError("sqrt of a negative number")
    p, q = x.numerator, x.denominator
    rp, rq = isqrt(p), isqrt(q)
    if rp * rp == p and rq * rq == q:
        r = mpq(rp, rq)
        return r, r
    s2 = mpz(1) << (2 * bits)
    n = isqrt((p * s2) // q)  # floor(sqrt(x) 2^bits)
    return mpq(n, mpz(1) << bits), mpq(n + 1, mpz(1) << bits)


def exp_neg_bounds(gamma, bits=ENCLOSURE_BITS):
    """Dyadic (lo, hi) strictly enclosing e^{-gamma}."""
    with precision():
        return outward((-to_arb(gamma)).exp(), bits)


def log_bounds(x, bits=ENCLOSURE_BITS):
    """Dyadic (lo, hi) strictly enclosing log(x), x > 0 rational."""
    with precision():
        return outward(to_arb(x).log(), bits)


def round_up_relative(x, p):
    """The least dyadic >= x with a (p+1)-bit mantissa: x <= result < x(1 + 2^-p).

    x > 0 rational.  Used for the noise scale, whose smoothness argument needs
    exactly this relative bound (see :mod:`producer.brace.sensitivity`).
    """
    x = mpq(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()  # 2^(e-1) < x < 2^(e+1)
    if x < mpq(2) ** e:
        e -= 1
    # now 2^e <= x < 2^(e+1); scale so x * 2^(p-e) is in [2^p, 2^(p+1))
    sc = mpq(2) ** (p - e)
    y = x * sc
    n = -((-y.numerator) // y.denominator)
    return mpq(n) / sc


def round_down_relative(x, p):
    """The greatest dyadic <= x with a (p+1)-bit mantissa: x(1 - 2^-p) < result <= x."""
    x = mpq(x)
    e = x.numerator.bit_length() - x.denominator.bit_length()
    if x < mpq(2) ** e:
        e -= 1
    sc = mpq(2) ** (p - e)
    y = x * sc
    return mpq(y.numerator // y.denominator) / sc
