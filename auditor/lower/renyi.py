"""The 29-band Rényi domination of ``separation/1`` renyi-cover (SPEC-lower 7.4, seed 004 B.1–B.3).

P_3/Q_3 is the three-layer experiment of B.2 with the exact discrete
Gaussian g (σ², γ = 1/3): the marginalised kernel
Q_k(n) = (1/3)·Σ_{u=0}^{2} g(n + floor((k + u)/3)) (the row of state k); layer
t has p = Q_{k+d}(n + j), q = Q_k(n) at the reference state k = k_{t−1}, and
coordinate f = n + ceil(k/3).  With k = 3c − e (c = ceil(k/3), e = (−k) mod 3)
and Q_{k+3}(n) = Q_k(n + 1), p and q depend only on (e, f):

    q(e, f) = Q_{−e}(f),   p(e, f) = Q_{−e+d}(f + j).

Reference states: k_0 = 0, k_1 = f_1, k_2 = f_2 − ceil(k_1/3).

Checks.
1. Layer weights: P[e][f] <= S·p(e, f) and Q[e][f] >= S·q(e, f) (enclosures of
   g = f/Z from :mod:`auditor.enclosures`).
2. For an order a > 1, with T_t(e, f) = (P/S)^a (Q/S)^{1−a} = (Q/S)·(P/Q)^a
   (0 when P = 0), M_a^low = Σ_{f_1,f_2,f_3 ∈ box} Π_t T_t(e_{t−1}, f_t) <= M_a
   = Σ_o P_3(o)^a Q_3(o)^{1−a} (p^a q^{1−a} increases in p, decreases in q for
   a > 1; omitted atoms are >= 0), so log(M_a^low)/(a − 1) <= D_a(P_3‖Q_3).
   The sum factorises: the innermost layer by e(k_2), the middle one by
   f_1 mod 9 (which fixes e(k_1) and ceil(f_1/3) mod 3).
3. Bands [l, r]: L_l <= D_l(P_3‖Q_3) by 2 (for l = 1: L_1 <= 1/(2σ²) = D_1 of
   the first layer, which is the unit DG shift since row_0 = g, by data
   processing); U_r >= max(D_r(P_b‖Q_b), D_r(Q_b‖P_b)) with
   D_r = log(p^r q^{1−r} + (1−p)^r (1−q)^{1−r})/(r − 1); U_r < L_l; bands
   consecutive from 1 to the top order.  Rényi divergences are non-decreasing
   in the order, so on [l, r]: D_α(P_3) >= L_l > U_r >= D_α(binary).
4. Top: L <= D_order(P_3‖Q_3), U >= log of every binary likelihood ratio
   (e^U >= ratio), U < L: covers every α >= order.

Powers x^a with a = m/2^k (every order of the reference) are enclosed with
exact integer square roots; other rational orders go through the Taylor
enclosures of exp and log.
"""

from fractions import Fraction
from math import isqrt

from auditor.enclosures import exp_bounds, kernel_bounds, log_bounds, normaliser_bounds
from auditor.lower import inputs
from auditor.lower.display import DOWN, check_display
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational

LAYERS = ((0, 1), (1, 1), (1, 0))
BITS = 96
MAX_BOX = 400
MAX_BANDS = 200


def _ceil_div(a, b):
    return -((-a) // b)


def power_bounds(x, a, bits=BITS):
    """(lo, hi) with lo <= x^a <= hi for rationals x > 0, a >= 0."""
    x, a = Fraction(x), Fraction(a)
    den = a.denominator
    k = den.bit_length() - 1
    if den == 1 << k and k <= 8:
        y = x ** a.numerator
        shift = bits << k
        lo = (y.numerator << shift) // y.denominator
        hi = _ceil_div(y.numerator << shift, y.denominator)
        for _ in range(k):
            lo = isqrt(lo)
            s = isqrt(hi)
            hi = s if s * s == hi else s + 1
        return Fraction(lo, 1 << bits), Fraction(hi, 1 << bits)
    l_lo, l_hi = log_bounds(x, bits)
    return exp_bounds(a * l_lo, bits)[0], exp_bounds(a * l_hi, bits)[1]


class Layers:
    """The checked layer weights: P[t][e][f − low], Q[t][e][f − low] over S."""

    def __init__(self, res, report, pointer):
        self.S = inputs.integer(res["layer_scale"], pointer + "/layer_scale", "layer scale", minimum=1)
        self.low, self.high = res["box"]["low"], res["box"]["high"]
        width = self.high - self.low + 1
        inputs.require(width >= 1, pointer + "/box", "empty box")
        if width > MAX_BOX:
            raise Unchecked(pointer + "/box", width, MAX_BOX, "box width")
        self.P, self.Q = [], []
        for t, layer in enumerate(res["layers"]):
            lp = f"{pointer}/layers/{t}"
            report.equal(lp + "/d", layer["d"], LAYERS[t][0], "layer d (B.2)")
            report.equal(lp + "/j", layer["j"], LAYERS[t][1], "layer j (B.2)")
            rows = []
            for name in ("p", "q"):
                table = layer[name]
                inputs.require(len(table) == 3 and all(len(r) == width for r in table), f"{lp}/{name}",
                               f"three residue rows of {width} weights")
                rows.append([[inputs.integer(w, f"{lp}/{name}/{e}/{i}", "weight", minimum=0)
                              for i, w in enumerate(r)] for e, r in enumerate(table)])
            self.P.append(rows[0])
            self.Q.append(rows[1])

    def check_against(self, sigma2, report, pointer):
        """P <= S·p and Q >= S·q for every layer, residue and coordinate; retried once at higher precision."""
        need = range(self.low - 3, self.high + 4)
        bits = self.S.bit_length() + 64
        bad = None
        for _ in range(2):
            z_lo, z_hi = normaliser_bounds(sigma2, bits)
            kern = {n: kernel_bounds(n, sigma2, bits) for n in need}
            g_lo = {n: kern[n][0] / z_hi for n in need}
            g_hi = {n: kern[n][1] / z_lo for n in need}
            bad = self._violations(g_lo, g_hi)
            if not bad:
                break
            bits *= 4
        for ptr, claimed, bound, why in bad[:5]:
            report.check(False, ptr, claimed, bound, why)
        report.check(not bad, pointer + "/layers", len(bad), 0, "layer weights not proved")
        return not bad

    def _violations(self, g_lo, g_hi):
        def row(g, k, n):
            return sum(g[n + (k + u) // 3] for u in range(3)) / 3
        bad = []
        for t, (d, j) in enumerate(LAYERS):
            for e in range(3):
                for i in range(self.high - self.low + 1):
                    f = self.low + i
                    p_lo = row(g_lo, -e + d, f + j)
                    q_hi = row(g_hi, -e, f)
                    if self.P[t][e][i] > self.S * p_lo:
                        bad.append((f"/result/layers/{t}/p/{e}/{i}", self.P[t][e][i], self.S * p_lo,
                                    "P-weight not proved <= S·p"))
                    if self.Q[t][e][i] < self.S * q_hi:
                        bad.append((f"/result/layers/{t}/q/{e}/{i}", self.Q[t][e][i], self.S * q_hi,
                                    "Q-weight not proved >= S·q"))
        return bad

    def moment_lower(self, a, bits=BITS):
        """A lower bound of M_a^low (order a > 1), in integer fixed point (every step floors)."""
        S, low, width = self.S, self.low, self.high - self.low + 1
        T = [[[_term(self.P[t][e][i], self.Q[t][e][i], S, a, bits) for i in range(width)] for e in range(3)]
             for t in range(3)]
        inner = [sum(T[2][e]) for e in range(3)]
        total = 0
        middle = {}
        for i1 in range(width):
            f1 = low + i1
            key = f1 % 9
            if key not in middle:
                e1 = (-f1) % 3
                c1 = _ceil_div(f1, 3)
                middle[key] = sum(T[1][e1][i2] * inner[(c1 - low - i2) % 3] for i2 in range(width))
            total += T[0][0][i1] * middle[key]
        return Fraction(total, 1 << (3 * bits))


def _term(P, Q, S, a, bits):
    """A lower bound of 2^bits·(P/S)^a (Q/S)^{1−a} = 2^bits·(Q/S)·(P/Q)^a, an integer (0 when P = 0)."""
    if P == 0:
        return 0
    if Q == 0:
        raise ArithmeticError("a zero Q-weight with a positive P-weight")
    k = a.denominator.bit_length() - 1
    if a.denominator == 1 << k and k <= 8:
        m = a.numerator
        lo = (P ** m << (bits << k)) // Q ** m      # floor(2^(bits·2^k)·(P/Q)^m)
        for _ in range(k):
            lo = isqrt(lo)                          # floor of the root stays a lower bound
        return Q * lo // S
    lo = power_bounds(Fraction(P, Q), a, bits)[0]
    return (Q * lo.numerator << bits) // (S * lo.denominator)


def renyi_lower(layers, a, bits=BITS):
    """A lower bound of log(M_a^low)/(a − 1)."""
    m = layers.moment_lower(a, bits)
    if m <= 0:
        return None
    return log_bounds(m, bits)[0] / (a - 1)


def binary_upper(p, q, r, bits=BITS):
    """An upper bound of max(D_r(P_b‖Q_b), D_r(Q_b‖P_b)), order r > 1."""
    best = None
    for x, y in ((p, q), (q, p)):
        s = y * power_bounds(x / y, r, bits)[1] + (1 - y) * power_bounds((1 - x) / (1 - y), r, bits)[1]
        value = log_bounds(s, bits)[1] / (r - 1)
        best = value if best is None else max(best, value)
    return best


def verify_cover(res, report, undecided):
    from auditor.checks.separation import check_exp_dominates
    R = "/result"
    sigma2 = inputs.positive(res["sigma2"], R + "/sigma2", "sigma2")
    inputs.require(res["gamma"] == "1/3", R + "/gamma", "the B.2 layers are those of γ = 1/3")
    p = inputs.probability(res["p"], R + "/p", "p")
    q = inputs.probability(res["q"], R + "/q", "q")
    bands = res["bands"]
    if len(bands) > MAX_BANDS:
        raise Unchecked(R + "/bands", len(bands), MAX_BANDS, "bands")
    layers = Layers(res, report, R)
    if not layers.check_against(sigma2, report, R):
        return
    top = res["top"]
    order = read_rational(top["order"], R + "/top/order")
    inputs.require(order > 1, R + "/top/order", "the top order must exceed one")
    cache = {}

    def lower_at(a):
        if a not in cache:
            cache[a] = renyi_lower(layers, a)
        return cache[a]

    expected_left = Fraction(1)
    for i, band in enumerate(bands):
        bp = f"{R}/bands/{i}"
        left, right = read_rational(band["left"], bp + "/left"), read_rational(band["right"], bp + "/right")
        L, U = read_rational(band["lower"], bp + "/lower"), read_rational(band["upper"], bp + "/upper")
        report.equal(bp + "/left", left, expected_left, "band start (the previous band's end)")
        if not report.check(right > left, bp + "/right", right, left, "a band must have right > left"):
            return
        expected_left = right
        if left == 1:
            report.at_most(bp + "/lower", L, 1 / (2 * sigma2), "L_1 <= 1/(2σ²) = D_1 of the unit DG shift")
        else:
            proved = lower_at(left)
            report.check(proved is not None and L <= proved, bp + "/lower", L, proved,
                         "L_l not proved <= log(M_l^low)/(l − 1)")
        report.at_least(bp + "/upper", U, binary_upper(p, q, right), "U_r >= max D_r of the binary pair")
        report.check(U < L, bp + "/upper", U, L, "the band's upper end must lie below its lower end")
    report.equal(R + "/bands", expected_left, order, "the bands must end at the top order")
    L_top = read_rational(top["lower"], R + "/top/lower")
    proved = lower_at(order)
    report.check(proved is not None and L_top <= proved, R + "/top/lower", L_top, proved,
                 "top lower not proved <= D_order(P_3‖Q_3)")
    U_top = read_rational(top["d_infinity_upper"], R + "/top/d_infinity_upper")
    check_exp_dominates(U_top, max(p / q, q / p, (1 - p) / (1 - q), (1 - q) / (1 - p)),
                        R + "/top/d_infinity_upper", report, undecided)
    report.check(U_top < L_top, R + "/top/d_infinity_upper", U_top, L_top, "D_∞(binary) bound must lie below")
    check_display(top["lower_display"], L_top, DOWN, None, R + "/top/lower_display", report)

