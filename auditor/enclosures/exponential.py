"""e^x and log x for rational x: the auditor's one home of exp/log enclosures.

Every exp/log enclosure of the auditor is computed here; the brace replay
(:mod:`auditor.brace.enclosures`) and the envelope's intervals
(:mod:`auditor.envelope.elementary`) choose only their own precision schedule
and rounding, and call the series below.  The proof, stated once:

1. Taylor on [0, 1/2].  For 0 <= y <= 1/2 and N >= 1, with S_N = Σ_{k<=N} y^k/k!,
       S_N <= e^y <= S_N + R_N,  R_N = Σ_{k>N} y^k/k!,
   and R_N <= (y^N/N!)·(y/(N+1))/(1 − y/(N+1)) <= (y^N/N!)/3 (y/(N+1) <= 1/4):
   the last term added bounds the rest.  Also R_N <= 2·y^{N+1}/(N+1)!, since
   the ratio of consecutive tail terms is at most y <= 1/2.
2. Directed rounding.  Each term (or Horner step) is increasing in its
   nonnegative inputs, so evaluating the lower end with every rounding down
   and the upper end with every rounding up keeps lo <= true <= hi.
3. Squaring.  e^x = (e^{x/2^r})^{2^r} for the least r with x/2^r <= 1/2
   (:func:`halvings`); squaring is increasing on positive numbers, so r
   squarings rounded down (up) keep a lower (upper) bound.
4. Negative arguments: e^{−x} = 1/e^x and 1/t is decreasing, so [1/hi, 1/lo].
5. atanh.  For 0 <= z < 1, atanh z = Σ_{k>=0} z^{2k+1}/(2k+1), and the rest
   after K terms is at most z^{2K+1}/((2K+1)(1 − z²)) (a geometric series of
   ratio z²); for z <= 1/3, 1/(1 − z²) <= 9/8.
6. log.  x > 0 is x = 2^e·m with 1 <= m < 2 (unique; :func:`binary_split`), and
   log x = e·log 2 + log m, log m = 2·atanh z with z = (m − 1)/(m + 1) in
   [0, 1/3), log 2 = 2·atanh(1/3).  A negative e multiplies the upper bound of
   log 2 into the lower end.

Fixed point: an integer n stands for n/2^w; ``//`` and ``>>`` round down and
:func:`auditor.rationals.ceil_div` rounds up.  :func:`exp_bounds` and
:func:`log_bounds` are the enclosures the rest of the auditor uses.
"""

from fractions import Fraction

from auditor.rationals import ceil_div, floor

__all__ = ["exp_bounds", "log_bounds", "halvings", "exp_series_fixed", "exp_series_horner", "square",
           "fixed_rounding", "binary_split", "atanh_series_fixed", "atanh_series_exact"]

HALF = Fraction(1, 2)


def halvings(x):
    """(r, y): the least r >= 0 with y = x/2^r <= 1/2, for a Fraction x >= 0 (step 3)."""
    r = 0
    while x / (1 << r) > HALF:
        r += 1
    return r, x / (1 << r)


def exp_series_fixed(p_lo, p_hi, q, w, min_terms=1):
    """(lo, hi) integers with lo <= 2^w·e^y <= hi, for p_lo/q <= y <= p_hi/q <= 1/2 (steps 1, 2).

    Terms t_k ≈ 2^w·y^k/k! by t_k = t_{k−1}·p/(q·k), floored (p_lo) or ceiled
    (p_hi).  The sum stops after at least ``min_terms`` terms, at the first
    upper term <= 1, and adds that term once more for the rest (step 1).
    """
    lo = hi = t_lo = t_hi = 1 << w
    k = 0
    while True:
        k += 1
        t_lo = (t_lo * p_lo) // (q * k)
        t_hi = ceil_div(t_hi * p_hi, q * k)
        lo += t_lo
        hi += t_hi
        if t_hi <= 1 and k >= min_terms:
            return lo, hi + t_hi


def exp_series_horner(y, n_terms, down, up):
    """(lo, hi) Fractions with lo <= e^y <= hi for a Fraction 0 <= y <= 1/2 (steps 1, 2).

    S_N by Horner's rule, 1 + y/N·(1 + y/(N−1)·(...)), every step rounded by
    ``down`` (lower end) or ``up`` (upper end), directed rounding functions of a
    Fraction; the upper end adds R_N <= 2·y^{N+1}/(N+1)! (step 1), N = ``n_terms``.
    """
    lo = hi = Fraction(1)
    for i in range(n_terms, 0, -1):
        lo = 1 + down(y * lo / i)
        hi = 1 + up(y * hi / i)
    fact = 1
    for i in range(2, n_terms + 2):
        fact *= i
    return lo, up(hi + 2 * y ** (n_terms + 1) / fact)


def square(lo, hi, times, down, up):
    """(lo, hi) squared ``times`` times, each square rounded by ``down``/``up`` (step 3); lo >= 0."""
    for _ in range(times):
        lo = down(lo * lo)
        hi = up(hi * hi)
    return lo, hi


def fixed_rounding(w):
    """Directed rounding of a product of two w-bit fixed-point integers back to w bits."""
    one = 1 << w
    return (lambda v: v >> w), (lambda v: ceil_div(v, one))


def exp_bounds(x, bits=128):
    """Fractions (lo, hi) with lo <= e^x <= hi, relative accuracy about 2^-bits.

    Both ends have power-of-two denominators, so sums of them stay small.
    """
    x = Fraction(x)
    if x == 0:
        return Fraction(1), Fraction(1)
    magnitude = abs(x)
    r_bits = max(0, floor(magnitude).bit_length()) + 1
    P = bits + 2 * r_bits + 16
    r, y = halvings(magnitude)
    lo, hi = exp_series_fixed(y.numerator, y.numerator, y.denominator, P, min_terms=2)
    lo, hi = square(lo, hi, r, *fixed_rounding(P))
    if x > 0:
        return Fraction(lo, 1 << P), Fraction(hi, 1 << P)
    # step 4: e^x lies in [2^P/hi, 2^P/lo]; round outward to a 2^-Q grid fine
    # enough to keep P − 8 relative bits (2^P/hi >= 2^(P − bitlen(hi))).
    Q = hi.bit_length() + 8
    return (Fraction((1 << (P + Q)) // hi, 1 << Q),
            Fraction(ceil_div(1 << (P + Q), lo), 1 << Q))


def binary_split(x):
    """(e, m) with x = 2^e·m and 1 <= m < 2, for a Fraction x > 0 (step 6)."""
    e = x.numerator.bit_length() - x.denominator.bit_length()
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    return e, x / Fraction(2) ** e


def atanh_series_fixed(u_lo, u_hi, sq_lo, sq_hi, sq_den, stop=1):
    """Partial sums of atanh z in fixed point (steps 2, 5): (lo, hi, last, k).

    Input: u_lo <= 2^w·z <= u_hi and sq_lo/sq_den <= z² <= sq_hi/sq_den.  The
    powers 2^w·z^{2j+1} are carried down and up, the terms divided by 2j+1 the
    same way, and the sum stops at the first k >= 1 whose upper power ``last``
    is <= ``stop``.  Then lo <= 2^w·atanh z and 2^w·Σ_{j<k} z^{2j+1}/(2j+1) <= hi,
    and the rest is at most last/((2k+1)(1 − z²)) (<= (9/8)·last/(2k+1) for
    z <= 1/3), which the caller adds in its own rounding.
    """
    lo = hi = k = 0
    while True:
        lo += u_lo // (2 * k + 1)
        hi += ceil_div(u_hi, 2 * k + 1)
        u_lo = (u_lo * sq_lo) // sq_den
        u_hi = ceil_div(u_hi * sq_hi, sq_den)
        k += 1
        if u_hi <= stop:
            return lo, hi, u_hi, k


def atanh_series_exact(z, bound):
    """(lo, hi) Fractions enclosing atanh z for a Fraction 0 <= z <= 1/3 (step 5).

    Exact partial sums until the bound of the rest (step 5) is below ``bound``:
    only for a few constants, whose partial sums stay small.
    """
    if z == 0:
        return Fraction(0), Fraction(0)
    total, power, i = Fraction(0), z, 0
    z2 = z * z
    while True:
        total += power / (2 * i + 1)
        power *= z2
        i += 1
        tail = power / ((2 * i + 1) * (1 - z2))
        if tail < bound:
            return total, total + tail


def _atanh_fixed(z, P):
    """(lo, hi) integers with lo <= 2^P·atanh(z) <= hi, for a Fraction 0 <= z <= 1/3."""
    p, q = z.numerator, z.denominator
    u_lo = ((1 << P) * p) // q          # 2^P·z, rounded down
    u_hi = ceil_div((1 << P) * p, q)    # 2^P·z, rounded up
    lo, hi, last, k = atanh_series_fixed(u_lo, u_hi, p * p, p * p, q * q)
    return lo, hi + ceil_div(9 * last, 8 * (2 * k + 1))   # the rest, step 5


def log_bounds(x, bits=128):
    """Fractions (lo, hi) with lo <= log x <= hi, absolute accuracy about 2^-bits."""
    x = Fraction(x)
    if x <= 0:
        raise ValueError("log of a non-positive number")
    if x == 1:
        return Fraction(0), Fraction(0)
    e, m = binary_split(x)
    P = bits + abs(e).bit_length() + 16
    l2_lo, l2_hi = _atanh_fixed(Fraction(1, 3), P)
    lm_lo, lm_hi = _atanh_fixed((m - 1) / (m + 1), P)
    if e >= 0:
        lo, hi = e * l2_lo, e * l2_hi
    else:
        lo, hi = e * l2_hi, e * l2_lo
    return Fraction(2 * (lo + lm_lo), 1 << P), Fraction(2 * (hi + lm_hi), 1 << P)
