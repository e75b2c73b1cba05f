"""The 29-band Rényi cover (*Exact Compilation and Resource Laws for Hidden Integer Feedback*, Appendix B.2).

P_3/Q_3 is the suffix (+1, +1, echo) from 0 with the exact DG at γ = 1/3,
written in B.2's layers (d, j) = (0,1), (1,1), (1,0): with the marginalised
kernel Q_k(n) = (1/3)Σ_u g(n + floor((k+u)/3)), layer t has
p = Q_{k+d}(n + j), q = Q_k(n) at reference state k = k_{t−1}, coordinate
f = n + ceil(k/3), k_0 = 0, k_1 = f_1, k_2 = f_2 − ceil(k_1/3).  In f the
layer depends on k only through e = (−k) mod 3 (take k = −e, so n = f).

Per layer the masses are stored as integers P = floor(S·p), Q = ceil(S·q)
(S = 10^18 in the paper), and for a > 1

    M_a^low = S^{-3} Σ_{f1,f2,f3 ∈ box} Π_t P_t^a Q_t^{1−a} <= M_a,   L_a = log(M_a^low)/(a − 1) <= D_a(P_3‖Q_3)

(omitted atoms have nonnegative mass; zero P weight contributes 0).  The
binary pair has D_a = log(p^a q^{1−a} + (1−p)^a (1−q)^{1−a})/(a − 1).  A band
[l, r] is covered when U_r = max over both directions of D_r(binary) is below
L_l; monotonicity of D_α in α covers the interior.  L_1 = 1/(2σ²) is D_1 of
one unit DG shift (data processing).
"""

from gmpy2 import mpq, mpz

from producer.lower.events import GaussianMasses
from producer.sources.enclosures import arf_to_mpq, to_arb, working_precision

PRECISION = 256
LAYERS = ((0, 1), (1, 1), (1, 0))
BANDS = ["1", "3/2", "2", "3", "4", "9/2", "5", "11/2", "23/4", "6", "49/8", "25/4", "51/8", "13/2",
         "53/8", "107/16", "27/4", "55/8", "7", "57/8", "29/4", "59/8", "15/2", "31/4", "8", "17/2",
         "9", "10", "12", "16"]
BAND_DIGITS, TOP_DIGITS = 8, 15


def _ceil_div3(k):
    return -((-k) // 3)


def _kernel(g, k, n):
    """Q_k(n) = (1/3)·Σ_u g(n + floor((k + u)/3)) as an arb ball."""
    return (g(n + k // 3) + g(n + (k + 1) // 3) + g(n + (k + 2) // 3)) / 3


def _floor_ceil(ball, scale, what):
    lo, hi = arf_to_mpq(ball.lower()) * scale, arf_to_mpq(ball.upper()) * scale
    f_lo, f_hi = lo.numerator // lo.denominator, hi.numerator // hi.denominator
    c_lo, c_hi = -((-lo.numerator) // lo.denominator), -((-hi.numerator) // hi.denominator)
    if f_lo != f_hi or c_lo != c_hi:
        raise ArithmeticError(f"renyi layers: cannot decide the integer part of S·{what}")
    return mpz(f_lo), mpz(c_hi)


def layer_weights(sigma2, scale, low, high):
    """[(d, j, P[e][f−low], Q[e][f−low])] with P = floor(S·p), Q = ceil(S·q)."""
    scale = mpz(scale)
    with working_precision(PRECISION + 64):
        g = GaussianMasses(sigma2)
        layers = []
        for d, j in LAYERS:
            P, Q = [], []
            for e in range(3):
                k = -e
                row_p, row_q = [], []
                for f in range(low, high + 1):
                    p_floor, _ = _floor_ceil(_kernel(g, k + d, f + j), scale, "p")
                    _, q_ceil = _floor_ceil(_kernel(g, k, f), scale, "q")
                    row_p.append(p_floor)
                    row_q.append(q_ceil)
                P.append(row_p)
                Q.append(row_q)
            layers.append((d, j, P, Q))
        return layers


def moment_lower(layers, scale, low, a):
    """arb ball (lower end valid) of M_a^low for rational a > 1."""
    a = to_arb(mpq(a))
    terms = []
    for _, _, P, Q in layers:
        terms.append([[(to_arb(p) ** a) * (to_arb(q) ** (1 - a)) if p > 0 else to_arb(0)
                       for p, q in zip(P[e], Q[e])] for e in range(3)])
    width = len(layers[0][2][0])
    s3 = [sum(terms[2][e], to_arb(0)) for e in range(3)]
    total = to_arb(0)
    for i1 in range(width):
        k1 = low + i1
        inner = to_arb(0)
        for i2 in range(width):
            k2 = (low + i2) - _ceil_div3(k1)
            inner += terms[1][(-k1) % 3][i2] * s3[(-k2) % 3]
        total += terms[0][0][i1] * inner
    return total / to_arb(mpz(scale)) ** 3


def renyi_lower(layers, scale, low, a):
    """A rational L <= log(M_a^low)/(a − 1) (arb lower end)."""
    with working_precision(PRECISION + 64):
        ball = moment_lower(layers, scale, low, a).log() / to_arb(mpq(a) - 1)
        return arf_to_mpq(ball.lower())


def binary_renyi_upper(p, q, a):
    """A rational >= max(D_a(P_b‖Q_b), D_a(Q_b‖P_b)) for a > 1."""
    p, q, a = mpq(p), mpq(q), mpq(a)
    with working_precision(PRECISION + 64):
        best = None
        for x, y in ((p, q), (q, p)):
            A = to_arb(a)
            m = to_arb(x) ** A * to_arb(y) ** (1 - A) + to_arb(1 - x) ** A * to_arb(1 - y) ** (1 - A)
            up = arf_to_mpq((m.log() / to_arb(a - 1)).upper())
            best = up if best is None else max(best, up)
        return best


def binary_d_infinity_upper(p, q):
    """A rational >= log max of the four likelihood ratios of the binary pair."""
    p, q = mpq(p), mpq(q)
    ratio = max(p / q, (1 - p) / (1 - q), q / p, (1 - q) / (1 - p))
    with working_precision(PRECISION + 64):
        return arf_to_mpq(to_arb(ratio).log().upper())


def round_to(value, digits, direction):
    scale = mpz(10) ** digits
    x = mpq(value) * scale
    n = x.numerator // x.denominator if direction < 0 else -((-x.numerator) // x.denominator)
    return mpq(n, scale)


def cover(sigma2, p, q, scale, low, high, cuts=BANDS, top_order=16):
    """(layers, bands, top): every band's rounded L_l and U_r, and the order-16 tail bound."""
    layers = layer_weights(sigma2, scale, low, high)
    cuts = [mpq(c) for c in cuts]
    bands = []
    for left, right in zip(cuts, cuts[1:]):
        if left == 1:
            lower = round_to(1 / (2 * mpq(sigma2)), BAND_DIGITS, -1)  # D_1 of a unit shift
        else:
            lower = round_to(renyi_lower(layers, scale, low, left), BAND_DIGITS, -1)
        upper = round_to(binary_renyi_upper(p, q, right), BAND_DIGITS, +1)
        bands.append((left, right, lower, upper))
    top = (mpq(top_order), round_to(renyi_lower(layers, scale, low, top_order), TOP_DIGITS, -1),
           round_to(binary_d_infinity_upper(p, q), TOP_DIGITS, +1))
    return layers, bands, top
