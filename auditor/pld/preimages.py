"""Enclosures of e^{j/N} and of the preimages x_i = ℓ^{−1}(i/N) of the loss grid, in fixed point.

Numbers are integers over 2^W; an enclosure is (lo, hi) with lo <= 2^W·value <= hi.

The loss of one step (sampling rate q, noise multiplier σ, remove order) is
ℓ(x) = log(1 − q + q·e^{(2x − 1)/(2σ²)}), strictly increasing, and

    x(y) = 1/2 + σ²·log(v/q),   v = e^y − (1 − q),   when v > 0,   x(y) = −∞ otherwise;

for q = 1, x(y) = 1/2 + σ²·y exactly.  The tails are evaluated at
z = x/σ and z′ = (x − 1)/σ (:func:`arguments`), σ given by its square σ²
(rational; σ itself irrational in general, as for a composition of Gaussian
events): when σ² is the square of a rational the arithmetic is with σ's
numerator and denominator exactly, otherwise with outward enclosures of σ and
1/σ by integer square roots (:func:`root_fixed`), σ's fine enough for its
product with log(v/q) to err by less than a quarter unit.

1. e^{j/N} (:func:`exp_grid`): an anchor every :func:`block` indices from the
   auditor's Taylor bounds (:func:`auditor.enclosures.exp_bounds`), then
   E_{j+1} = E_j·e^{1/N} with floor / ceil (products of positive bounds).
2. v = e^{i/N} − (1 − q) from those bounds and 1 − q rounded outward; its
   sign is decided exactly (the two ends, then ever finer direct bounds:
   e^{i/N} = 1 − q is impossible for i ≠ 0, e^r being irrational for every
   rational r ≠ 0).  A nonpositive v is x = −∞.
3. log v: directly (:func:`auditor.enclosures.log_bounds` of both ends) every
   :data:`BLOCK` indices (the errors of the step below add up, they do not
   grow), at the first finite point, and wherever the step below is too
   coarse; otherwise by the step
       log v_{i+1} − log v_i = 2·atanh(ζ),   ζ = (v_{i+1} − v_i)/(v_{i+1} + v_i) = e^{i/N}(e^{1/N} − 1)/(v_{i+1} + v_i),
   used when ζ <= 1/4: atanh ζ = Σ_k ζ^{2k+1}/(2k + 1), evaluated at the
   midpoint of ζ's enclosure with floors (each power errs by at most two
   more units than the previous one, so the sum errs by at most 2K + 2 units
   after K terms) plus the tail ζ^{2K+1}/((2K + 1)(1 − ζ²)), and widened by
   the slope (16/15)·radius (atanh′ = 1/(1 − ζ²) <= 16/15 on [0, 1/4]).
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds, log_bounds
from auditor.outcomes import NotEstablished
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["BLOCK", "block", "exp_grid", "arguments", "exact_root", "root_fixed", "enclosed_product", "guard_of",
           "MAX_SIGN_BITS"]

BLOCK = 256
"""Most indices between two direct evaluations (anchors) of e^{j/N} and of log v."""


def block(N):
    """Indices between anchors for the grid 1/N: at most BLOCK, and at most N/8, so that the
    rounding of an anchor grows by at most e^{1/8} before the next one."""
    return max(1, min(BLOCK, N // 8))

MAX_SIGN_BITS = 1 << 14
"""Most bits spent deciding the sign of e^{i/N} − (1 − q) at one point."""

_QUARTER_SHIFT = 2  # ζ <= 2^W/4


def fixed(x, W, direction):
    """⌊2^W·x⌋ (direction −1) or ⌈2^W·x⌉ (+1)."""
    y = Fraction(x) * (1 << W)
    return floor(y) if direction < 0 else ceil(y)


def exp_fixed(x, W):
    """(lo, hi) integers with lo <= 2^W·e^x <= hi."""
    lo, hi = exp_bounds(x, W + 16)
    return fixed(lo, W, -1), fixed(hi, W, +1)


def exp_grid(N, first, last, W):
    """[(lo, hi)] of 2^W·e^{j/N} for j = first, ..., last."""
    r_lo, r_hi = exp_fixed(Fraction(1, N), W)
    one, every = 1 << W, block(N)
    out = []
    for j in range(first, last + 1):
        if (j - first) % every == 0:
            lo, hi = exp_fixed(Fraction(j, N), W)
        else:
            lo, hi = (lo * r_lo) >> W, ceil_div(hi * r_hi, one)
        out.append((lo, hi))
    return out


def log_fixed(v_lo, v_hi, W):
    """(lo, hi) of 2^W·log v for v in [v_lo, v_hi] (Fractions, v_lo > 0)."""
    bits = W + 16
    return fixed(log_bounds(v_lo, bits)[0], W, -1), fixed(log_bounds(v_hi, bits)[1], W, +1)


def _atanh_fixed(Z, W):
    """(lo, hi) of 2^W·atanh(Z/2^W) for an integer 0 <= Z <= 2^W/4."""
    square = (Z * Z) >> W
    power, total, k = Z, 0, 0
    while power:
        total += power // (2 * k + 1)
        power = (power * square) >> W
        k += 1
    # rounding <= 2k + 2 units; tail <= (last power + 2k + 2)·(16/15)/(2k + 1) <= last power + 2k + 2
    return total, total + 4 * k + 6


def _sign_of_v(i, N, c):
    """+1 when e^{i/N} > c, −1 when e^{i/N} <= c (c = 1 − q in (0, 1)); finer bounds until decided."""
    bits = 64
    while bits <= MAX_SIGN_BITS:
        lo, hi = exp_bounds(Fraction(i, N), bits)
        if lo > c:
            return +1
        if hi <= c:
            return -1
        bits *= 2
    raise NotEstablished("/result/discretisation/ranges", f"undecided at {MAX_SIGN_BITS} bits",
                         f"the recipe's grid point {i}/{N} is too close to log(1 - q) to place")


def _v_fractions(i, N, c, W):
    """Fractions (lo, hi), lo > 0, enclosing e^{i/N} − c once the sign is known to be +1."""
    bits = W + 16
    while True:
        lo, hi = exp_bounds(Fraction(i, N), bits)
        if lo > c:
            return lo - c, hi - c
        bits *= 2


def _log_v(N, q, lo, hi, W):
    """[(lo, hi) or None] of 2^W·log v_i, i = lo, ..., hi (None: v_i <= 0, x_i = −∞)."""
    c = 1 - q
    c_lo, c_hi = fixed(c, W, -1), fixed(c, W, +1)
    grid = exp_grid(N, lo, hi, W)
    m_lo, m_hi = exp_fixed(Fraction(1, N), W)
    m_lo -= 1 << W  # e^{1/N} − 1
    m_hi -= 1 << W
    one = 1 << W
    out = []
    previous = None  # (E, v, log v) at i − 1 when i − 1 is finite and not an anchor boundary
    for i, (e_lo, e_hi) in zip(range(lo, hi + 1), grid):
        v_lo, v_hi = e_lo - c_hi, e_hi - c_lo
        if v_hi <= 0:
            sign = -1
        elif v_lo > 0:
            sign = +1
        else:
            sign = _sign_of_v(i, N, c)
        if sign < 0:
            out.append(None)
            previous = None
            continue
        logs = None
        if previous is not None and (i - lo) % BLOCK and v_lo > 0:
            (pe_lo, pe_hi), (pv_lo, pv_hi), (pl_lo, pl_hi) = previous
            d_lo, d_hi = (pe_lo * m_lo) >> W, ceil_div(pe_hi * m_hi, one)
            s_lo, s_hi = pv_lo + v_lo, pv_hi + v_hi
            z_lo, z_hi = (d_lo << W) // s_hi, ceil_div(d_hi << W, s_lo)
            if z_hi <= one >> _QUARTER_SHIFT:
                mid = (z_lo + z_hi) >> 1
                a_lo, a_hi = _atanh_fixed(mid, W)
                slack = ceil_div(16 * (z_hi - mid), 15) + 1
                logs = (pl_lo + 2 * (a_lo - slack), pl_hi + 2 * (a_hi + slack))
        if logs is None:
            if v_lo > 0:
                f_lo, f_hi = Fraction(v_lo, one), Fraction(v_hi, one)
            else:
                f_lo, f_hi = _v_fractions(i, N, c, W)
            logs = log_fixed(f_lo, f_hi, W)
        out.append(logs)
        previous = ((e_lo, e_hi), (v_lo, v_hi), logs) if v_lo > 0 else None
    return out


def exact_root(x):
    """√x as a Fraction when the rational x >= 0 is the square of a rational (its reduced numerator and denominator
    are squares), else None (√x is irrational)."""
    x = Fraction(x)
    n, d = isqrt(x.numerator), isqrt(x.denominator)
    return Fraction(n, d) if n * n == x.numerator and d * d == x.denominator else None


def root_fixed(x, W):
    """(lo, lo + 1) with lo <= 2^W·√x < lo + 1, for a rational x >= 0: lo = isqrt(⌊2^{2W}·x⌋), since
    ⌊√t⌋ = ⌊√⌊t⌋⌋ for every real t >= 0."""
    x = Fraction(x)
    lo = isqrt((x.numerator << (2 * W)) // x.denominator)
    return lo, lo + 1


def enclosed_product(a, b, s, d):
    """[a, b]·[s_lo, s_hi]/d rounded outward to integers (a <= b integers, 0 <= s_lo <= s_hi, d > 0): each end
    of the product of an interval by a nonnegative one takes the end of s its sign asks for."""
    s_lo, s_hi = s
    return (a * (s_lo if a >= 0 else s_hi)) // d, ceil_div(b * (s_hi if b >= 0 else s_lo), d)


def guard_of(magnitude):
    """Bits G such that a factor enclosed to 2^−(W+G) (one unit) errs by less than a quarter unit of 2^−W when
    multiplied by a number of absolute value below ``magnitude`` (an integer >= 0)."""
    return magnitude.bit_length() + 2


def arguments(q, variance, N, lo, hi, W):
    """([z_i], [z′_i]) for i = lo, ..., hi: (lo, hi) integers over 2^W, or None for −∞.

    z_i = x_i/σ and z′_i = (x_i − 1)/σ with x_i = x(i/N), σ = √``variance``: σ's numerator and denominator when
    σ is rational (:func:`exact_root`), enclosures of σ and 1/σ otherwise (:func:`_enclosed_arguments`).
    """
    sigma = exact_root(variance)
    if sigma is None:
        return _enclosed_arguments(q, Fraction(variance), N, lo, hi, W)
    return _exact_arguments(q, sigma, N, lo, hi, W)


def _exact_arguments(q, sigma, N, lo, hi, W):
    """:func:`arguments` for a rational σ: every quotient by σ exact before its one rounding."""
    sn, sd = sigma.numerator, sigma.denominator
    one = 1 << W
    if q == 1:
        z, zp = [], []
        den = 2 * sn * sd * N
        for i in range(lo, hi + 1):
            a = one * (sd * sd * N + 2 * sn * sn * i)   # 2^W·z·den
            b = one * (2 * sn * sn * i - sd * sd * N)   # 2^W·z′·den
            z.append((a // den, ceil_div(a, den)))
            zp.append((b // den, ceil_div(b, den)))
        return z, zp
    lq_lo, lq_hi = log_fixed(q, q, W)
    half_lo, half_hi = (one * sd) // (2 * sn), ceil_div(one * sd, 2 * sn)    # 2^W/(2σ)
    inv_lo, inv_hi = (one * sd) // sn, ceil_div(one * sd, sn)                # 2^W/σ
    z, zp = [], []
    for logs in _log_v(N, q, lo, hi, W):
        if logs is None:
            z.append(None)
            zp.append(None)
            continue
        a, b = logs[0] - lq_hi, logs[1] - lq_lo        # 2^W·log(v/q)
        z_lo = (a * sn) // sd + half_lo
        z_hi = ceil_div(b * sn, sd) + half_hi
        z.append((z_lo, z_hi))
        zp.append((z_lo - inv_hi, z_hi - inv_lo))
    return z, zp


def _enclosed_arguments(q, variance, N, lo, hi, W):
    """:func:`arguments` for an irrational σ = √σ²: 2^W/σ enclosed by :func:`root_fixed` (one unit wide), σ enclosed
    :func:`guard_of` bits finer than 2^−W for its product with log(v/q) (whose largest size is known once the
    logarithms are), each product rounded outward (:func:`enclosed_product`).

    q = 1: x_i = 1/2 + σ²·i/N = A_i/(2N·d) exactly (σ² = n/d, A_i = d·N + 2n·i), and x_i − 1 has the numerator
    A_i − 2d·N; z_i = A_i·(1/σ)/(2N·d) with 1/σ enclosed finer by the bits of the largest |x_i|.
    q < 1: z_i = 1/(2σ) + σ·log(v_i/q), z′_i = z_i − 1/σ.
    """
    one = 1 << W
    if q == 1:
        n_, d_ = variance.numerator, variance.denominator
        den = 2 * d_ * N
        numerators = [d_ * N + 2 * n_ * i for i in range(lo, hi + 1)]
        G = guard_of(max(abs(a) for a in numerators) // den)
        inverse = root_fixed(1 / variance, W + G)         # 2^{W+G}/σ
        scale = den << G
        z = [enclosed_product(a, a, inverse, scale) for a in numerators]
        zp = [enclosed_product(a - 2 * d_ * N, a - 2 * d_ * N, inverse, scale) for a in numerators]
        return z, zp
    lq_lo, lq_hi = log_fixed(q, q, W)
    logs = [None if v is None else (v[0] - lq_hi, v[1] - lq_lo) for v in _log_v(N, q, lo, hi, W)]   # 2^W·log(v/q)
    largest = max((max(-a, b) for a, b in filter(None, logs)), default=0)
    G = guard_of(largest >> W)
    sigma = root_fixed(variance, W + G)                    # 2^{W+G}·σ
    i_lo, i_hi = root_fixed(1 / variance, W)               # 2^W/σ
    half_lo, half_hi = i_lo >> 1, ceil_div(i_hi, 2)        # 2^W/(2σ)
    z, zp = [], []
    for logs_i in logs:
        if logs_i is None:
            z.append(None)
            zp.append(None)
            continue
        s_lo, s_hi = enclosed_product(*logs_i, sigma, one << G)
        z_lo, z_hi = s_lo + half_lo, s_hi + half_hi
        z.append((z_lo, z_hi))
        zp.append((z_lo - i_hi, z_hi - i_lo))
    return z, zp
