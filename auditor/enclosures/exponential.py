"""e^x and log x for rational x, by Taylor series with explicit remainders.

Numbers are integers m standing for m/2^P (fixed point); a lower bound is
always rounded down (floor) and an upper bound up (ceil), so every step keeps
lo <= true <= hi.

exp, x > 0: with y = x/2^r <= 1/2,
    Σ_{k<=K} y^k/k!  <=  e^y  <=  Σ_{k<=K} y^k/k!  +  (y^K/K!)·(y/(K+1))/(1 − y/(K+1)),
and the remainder factor is at most 1/3 for K >= 1, y <= 1/2; then e^x =
(e^y)^(2^r) by r squarings (monotone on positive numbers).  x < 0 uses
e^x = 1/e^{−x}.

log, x > 0: x = m·2^e with 1 <= m < 2, log x = e·log 2 + log m, and for
0 <= z < 1, log((1+z)/(1−z)) = 2·atanh z = 2·Σ_{k>=0} z^{2k+1}/(2k+1) with
remainder after K terms at most z^{2K+1}/((2K+1)(1 − z²)).  log m uses
z = (m−1)/(m+1) <= 1/3 and log 2 uses z = 1/3.
"""

from fractions import Fraction


def _ceil_div(a, b):
    return -((-a) // b)


def _bitlen_floor(x):
    """floor(log2 x) for a Fraction x > 0."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    return e


def _exp_fixed(x, P):
    """(lo, hi) integers with lo/2^P <= e^x <= hi/2^P, for a Fraction x > 0."""
    r = 0
    while x / (1 << r) > Fraction(1, 2):
        r += 1
    y = x / (1 << r)
    p, q = y.numerator, y.denominator
    one = 1 << P
    lo_sum = hi_sum = one
    t_lo = t_hi = one
    k = 0
    while True:
        k += 1
        t_lo = (t_lo * p) // (q * k)
        t_hi = _ceil_div(t_hi * p, q * k)
        lo_sum += t_lo
        hi_sum += t_hi
        if t_hi <= 1 and k >= 2:
            break
    hi_sum += t_hi  # remainder <= (last term)/3 <= last term
    for _ in range(r):
        lo_sum = (lo_sum * lo_sum) >> P
        hi_sum = _ceil_div(hi_sum * hi_sum, one)
    return lo_sum, hi_sum


def exp_bounds(x, bits=128):
    """Fractions (lo, hi) with lo <= e^x <= hi, relative accuracy about 2^-bits.

    Both ends have power-of-two denominators, so sums of them stay small.
    """
    x = Fraction(x)
    if x == 0:
        return Fraction(1), Fraction(1)
    magnitude = abs(x)
    r_bits = max(0, (magnitude.numerator // magnitude.denominator).bit_length()) + 1
    P = bits + 2 * r_bits + 16
    lo, hi = _exp_fixed(magnitude, P)
    if x > 0:
        return Fraction(lo, 1 << P), Fraction(hi, 1 << P)
    # e^x lies in [2^P/hi, 2^P/lo]; round outward to a 2^-Q grid fine enough
    # to keep P − 8 relative bits (2^P/hi >= 2^(P − bitlen(hi))).
    Q = hi.bit_length() + 8
    return (Fraction((1 << (P + Q)) // hi, 1 << Q),
            Fraction(_ceil_div(1 << (P + Q), lo), 1 << Q))


def _atanh_fixed(z, P):
    """(lo, hi) integers with lo/2^P <= atanh(z) <= hi/2^P, for a Fraction 0 <= z <= 1/3."""
    p, q = z.numerator, z.denominator
    p2, q2 = p * p, q * q
    u_lo = ((1 << P) * p) // q          # z^(2k+1), rounded down
    u_hi = _ceil_div((1 << P) * p, q)   # z^(2k+1), rounded up
    lo = hi = 0
    k = 0
    while True:
        lo += u_lo // (2 * k + 1)
        hi += _ceil_div(u_hi, 2 * k + 1)
        u_lo = (u_lo * p2) // q2
        u_hi = _ceil_div(u_hi * p2, q2)
        k += 1
        if u_hi <= 1:
            break
    # remainder Σ_{j>=k} z^{2j+1}/(2j+1) <= z^{2k+1}/((2k+1)(1 − z²)) <= (9/8)·u_hi/(2k+1)
    hi += _ceil_div(9 * u_hi, 8 * (2 * k + 1))
    return lo, hi


def log_bounds(x, bits=128):
    """Fractions (lo, hi) with lo <= log x <= hi, absolute accuracy about 2^-bits."""
    x = Fraction(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    if x == 1:
        return Fraction(0), Fraction(0)
    e = _bitlen_floor(x)
    m = x / Fraction(2) ** e
    P = bits + abs(e).bit_length() + 16
    l2_lo, l2_hi = _atanh_fixed(Fraction(1, 3), P)
    lm_lo, lm_hi = _atanh_fixed((m - 1) / (m + 1), P)
    if e >= 0:
        lo, hi = e * l2_lo, e * l2_hi
    else:
        lo, hi = e * l2_hi, e * l2_lo
    return Fraction(2 * (lo + lm_lo), 1 << P), Fraction(2 * (hi + lm_hi), 1 << P)
