"""The 29-band Rényi domination of ``separation/1`` renyi-cover (*Hidden Integer Feedback* §3.3, App. B.1–B.3).

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
exact integer square roots; other rational orders (and dyadic ones whose
exact power would exceed :data:`MAX_POWER_BITS` bits) go through the Taylor
enclosures of exp and log, after rounding x outward to a fixed number of
significant bits.  Limits (UNCHECKED, before the moments): every order (band
ends and the top) at most :data:`MAX_ORDER`, with numerator and denominator
of at most :data:`MAX_ORDER_BITS` bits; the binary pair's p and q with
numerators and denominators of at most :data:`MAX_PAIR_BITS` bits; a box at
most :data:`MAX_BOX` wide (high − low, so MAX_BOX + 1 columns); at most
:data:`MAX_BANDS` bands.

The layer weights (check 1) and the band and top ends are decided three-way
(:mod:`auditor.decide`), at :data:`BITS` (the weights: S's bits + 64) and once
more at RETRY_FACTOR times that.  A weight is proved against the worse end of
the enclosure of p (q) and disproved against the better one.  The ends are
compared with enclosures [lo, hi] of log(M_a^low)/(a − 1) and of max D_r(binary):
a claimed lower end L is proved when L <= lo, disproved (FAIL) when L > hi; a
claimed upper end U is proved when U >= hi, disproved when U < lo.  Anything
else is undecided: not established by the certificate's recipe (a FAIL).
"""

from fractions import Fraction
from math import isqrt

from auditor.decide import DISPROVED, OPEN, PROVED, exp_states, retried, settle, state
from auditor.enclosure_limits import refuse_bits, refuse_exponent, refuse_kernels
from auditor.enclosures import exp_bounds, kernel_bounds, log_bounds, normaliser_bounds
from auditor.lower import inputs
from auditor.lower.display import DOWN, UP, check_display
from auditor.outcomes import Unchecked
from auditor.rationals import ceil, ceil_div, floor, read_rational, show

LAYERS = ((0, 1), (1, 1), (1, 0))
BITS = 96
MAX_BOX = 400
MAX_BANDS = 200
# Largest Rényi order (band ends, the top order) and bits of its numerator and of its denominator.
MAX_ORDER = 64
MAX_ORDER_BITS = 64
# Largest m·bits(x) of an exact power x^m on the square-root route (else the exp/log route).
MAX_POWER_BITS = 1 << 16
# Largest bits of the numerator or the denominator of the binary pair's p and q.
MAX_PAIR_BITS = 256


def _outward(x, bits):
    """(x⁻, x⁺): x > 0 rounded down and up to ``bits`` significant bits (dyadic), so that the
    cost of a power no longer depends on the digits of x."""
    shift = bits - (x.numerator.bit_length() - x.denominator.bit_length())
    if shift >= 0:
        scaled, unit = Fraction(x.numerator << shift, x.denominator), Fraction(1, 1 << shift)
    else:
        scaled, unit = Fraction(x.numerator, x.denominator << -shift), Fraction(1 << -shift)
    down = floor(scaled)          # >= 2^(bits − 1): never 0
    up = ceil(scaled)
    return down * unit, up * unit


def _exact_root_path(a, size):
    """Whether x^a (a = m/2^k) is taken by exact powers and integer square roots: k <= 8 and
    m·size bits stay small (otherwise the Taylor route of exp and log costs less)."""
    k = a.denominator.bit_length() - 1
    return a.denominator == 1 << k and k <= 8 and a.numerator * size <= MAX_POWER_BITS


def power_bounds(x, a, bits=BITS):
    """(lo, hi) with lo <= x^a <= hi for rationals x > 0, a >= 0.

    x is first rounded outward to bits + 32 significant bits (x^a is increasing in
    x for a >= 0, so x⁻^a <= x^a <= x⁺^a), which bounds the cost whatever its digits.
    """
    x, a = Fraction(x), Fraction(a)
    x_lo, x_hi = _outward(x, bits + 32)
    if x_lo == x_hi:
        return _power_bounds(x_lo, a, bits)
    return _power_bounds(x_lo, a, bits)[0], _power_bounds(x_hi, a, bits)[1]


def _power_bounds(x, a, bits):
    den = a.denominator
    k = den.bit_length() - 1
    if _exact_root_path(a, x.numerator.bit_length() + x.denominator.bit_length()):
        y = x ** a.numerator
        shift = bits << k
        lo = (y.numerator << shift) // y.denominator
        hi = ceil_div(y.numerator << shift, y.denominator)
        for _ in range(k):
            lo = isqrt(lo)
            s = isqrt(hi)
            hi = s if s * s == hi else s + 1
        return Fraction(lo, 1 << bits), Fraction(hi, 1 << bits)
    l_lo, l_hi = log_bounds(x, bits)
    return exp_bounds(a * l_lo, bits)[0], exp_bounds(a * l_hi, bits)[1]


class Layers:
    """The checked layer weights: P[t][e][f − low], Q[t][e][f − low] over S."""

    def __init__(self, inp, res, report, pointer):
        self.S = inputs.integer(inp["layer_scale"], "/input/layer_scale", "layer scale", minimum=1)
        self.low, self.high = inp["box"]["low"], inp["box"]["high"]
        width = self.high - self.low + 1
        inputs.require(width >= 1, "/input/box", "empty box")
        if width - 1 > MAX_BOX:
            raise Unchecked("/input/box", width - 1, MAX_BOX, "box width (high − low)")
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

    def check_against(self, sigma2, report, pointer, undecided):
        """P <= S·p and Q >= S·q for every layer, residue and coordinate, decided three-way.

        A weight is proved against the worse end of the enclosure of p (q), disproved
        against the better end (P > S·p⁺, Q < S·q⁻), else retried once at
        RETRY_FACTOR times the precision and then undecided (its pointer is appended
        to ``undecided``).  False only when a weight is disproved.
        """
        need = range(self.low - 3, self.high + 4)
        found = {}  # key -> (claimed, bound, reason) of a weight not proved, at the last precision tried

        def decide_at(pending, bits):
            z_lo, z_hi = normaliser_bounds(sigma2, bits)
            kern = {n: kernel_bounds(n, sigma2, bits) for n in need}
            g_lo = {n: kern[n][0] / z_hi for n in need}
            g_hi = {n: kern[n][1] / z_lo for n in need}
            decisions, unproved = self._decide(g_lo, g_hi, pending)
            found.update(unproved)
            return decisions

        keys = [(name, t, e, i) for t in range(3) for e in range(3) for i in range(self.high - self.low + 1)
                for name in ("p", "q")]
        decisions = retried(decide_at, keys, self.S.bit_length() + 64)
        disproved = [(key, *found[key]) for key in keys if decisions[key] == DISPROVED]
        for key, claimed, bound, why in disproved[:5]:
            report.check(False, _layer_pointer(pointer, key), claimed, bound, why)
        report.check(not disproved, pointer + "/layers", len(disproved), 0, "layer weights disproved")
        undecided.extend(_layer_pointer(pointer, key) for key, d in decisions.items() if d == OPEN)
        return not disproved

    def _decide(self, g_lo, g_hi, pending):
        """({key: decision} of the pending weights, {key: (claimed, bound, reason)} of those not proved)."""
        def row(g, k, n):
            return sum(g[n + (k + u) // 3] for u in range(3)) / 3
        decisions, found = {}, {}
        for name, t, e, i in pending:
            d, j = LAYERS[t]
            f = self.low + i
            if name == "p":
                w, lo, hi = self.P[t][e][i], self.S * row(g_lo, -e + d, f + j), self.S * row(g_hi, -e + d, f + j)
                decision = state(w <= lo, w > hi)
                bound, why = hi, "P-weight above S·p (> S·p⁺)"
            else:
                w, lo, hi = self.Q[t][e][i], self.S * row(g_lo, -e, f), self.S * row(g_hi, -e, f)
                decision = state(w >= hi, w < lo)
                bound, why = lo, "Q-weight below S·q (< S·q⁻)"
            decisions[(name, t, e, i)] = decision
            if decision != PROVED:
                found[(name, t, e, i)] = (w, bound, why)
        return decisions, found

    def moment_lower(self, a, bits=BITS):
        """A lower bound of M_a^low (order a > 1), in integer fixed point (every step floors)."""
        return self._moment(a, bits, DOWN)

    def moment_upper(self, a, bits=BITS):
        """An upper bound of M_a^low (order a > 1), in integer fixed point (every step rounds up)."""
        return self._moment(a, bits, UP)

    def _moment(self, a, bits, direction):
        S, low, width = self.S, self.low, self.high - self.low + 1
        T = [[[_term(self.P[t][e][i], self.Q[t][e][i], S, a, bits, direction) for i in range(width)]
              for e in range(3)] for t in range(3)]
        inner = [sum(T[2][e]) for e in range(3)]
        total = 0
        middle = {}
        for i1 in range(width):
            f1 = low + i1
            key = f1 % 9
            if key not in middle:
                e1 = (-f1) % 3
                c1 = ceil_div(f1, 3)
                middle[key] = sum(T[1][e1][i2] * inner[(c1 - low - i2) % 3] for i2 in range(width))
            total += T[0][0][i1] * middle[key]
        return Fraction(total, 1 << (3 * bits))


def _layer_pointer(pointer, key):
    name, t, e, i = key
    return f"{pointer}/layers/{t}/{name}/{e}/{i}"


def _root_up(n):
    s = isqrt(n)
    return s if s * s == n else s + 1


def _term(P, Q, S, a, bits, direction=DOWN):
    """floor (DOWN) or ceiling (UP) of 2^bits·(P/S)^a (Q/S)^{1−a} = 2^bits·(Q/S)·(P/Q)^a, an integer
    bound of that term (0 when P = 0); the terms are non-negative, so sums and products of
    lower (upper) bounds stay lower (upper) bounds."""
    if P == 0:
        return 0
    if Q == 0:
        raise ArithmeticError("a zero Q-weight with a positive P-weight")
    k = a.denominator.bit_length() - 1
    if _exact_root_path(a, P.bit_length() + Q.bit_length()):
        m = a.numerator
        num, den = P ** m << (bits << k), Q ** m       # 2^(bits·2^k)·(P/Q)^m
        if direction == DOWN:
            x = num // den
            for _ in range(k):
                x = isqrt(x)                           # floor of the root stays a lower bound
            return Q * x // S
        x = ceil_div(num, den)
        for _ in range(k):
            x = _root_up(x)                            # ceiling of the root stays an upper bound
        return ceil_div(Q * x, S)
    lo, hi = power_bounds(Fraction(P, Q), a, bits)
    if direction == DOWN:
        return (Q * lo.numerator << bits) // (S * lo.denominator)
    return ceil_div(Q * hi.numerator << bits, S * hi.denominator)


def renyi_lower(layers, a, bits=BITS):
    """A lower bound of log(M_a^low)/(a − 1) (None when M_a^low is not proved positive)."""
    m = layers.moment_lower(a, bits)
    if m <= 0:
        return None
    return log_bounds(m, bits)[0] / (a - 1)


def renyi_upper(layers, a, bits=BITS):
    """An upper bound of log(M_a^low)/(a − 1) (None when M_a^low = 0: the value is −∞)."""
    m = layers.moment_upper(a, bits)
    if m <= 0:
        return None
    return log_bounds(m, bits)[1] / (a - 1)


def _binary_bound(p, q, r, bits, end):
    """max over both directions of the ``end`` (0: lower, 1: upper) bound of D_r of the binary pair."""
    best = None
    for x, y in ((p, q), (q, p)):
        s = y * power_bounds(x / y, r, bits)[end] + (1 - y) * power_bounds((1 - x) / (1 - y), r, bits)[end]
        value = log_bounds(s, bits)[end] / (r - 1)
        best = value if best is None else max(best, value)
    return best


def binary_upper(p, q, r, bits=BITS):
    """An upper bound of max(D_r(P_b‖Q_b), D_r(Q_b‖P_b)), order r > 1."""
    return _binary_bound(p, q, r, bits, 1)


def binary_lower(p, q, r, bits=BITS):
    """A lower bound of max(D_r(P_b‖Q_b), D_r(Q_b‖P_b)), order r > 1."""
    return _binary_bound(p, q, r, bits, 0)


class RenyiEnds:
    """Three-way decisions of claimed ends against log(M_a^low)/(a − 1) and max D_r(binary).

    Enclosures are cached per (order, precision); an upper bound of log(M_a^low)/(a − 1)
    (a lower bound of the binary divergence) is only computed when the claim is not proved.
    """

    def __init__(self, layers, p, q):
        self.layers, self.p, self.q = layers, p, q
        self._cache = {}

    def _cached(self, key, compute):
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def _renyi(self, bound, a, bits):
        return self._cached((bound, a, bits), lambda: bound(self.layers, a, bits))

    def _binary(self, bound, r, bits):
        return self._cached((bound, r, bits), lambda: bound(self.p, self.q, r, bits))

    def lower_end(self, L, a):
        """(decision of L <= log(M_a^low)/(a − 1), the proved lower bound at the last precision)."""
        shown = []

        def decide_at(pending, bits):
            lo = self._renyi(renyi_lower, a, bits)
            shown[:] = [lo]
            if lo is not None and L <= lo:
                return {"L": PROVED}
            hi = self._renyi(renyi_upper, a, bits)
            return {"L": DISPROVED if hi is None or L > hi else OPEN}
        return retried(decide_at, ["L"], BITS)["L"], shown[0]

    def upper_end(self, U, r):
        """(decision of U >= max D_r(binary), the proved upper bound at the last precision)."""
        shown = []

        def decide_at(pending, bits):
            hi = self._binary(binary_upper, r, bits)
            shown[:] = [hi]
            if U >= hi:
                return {"U": PROVED}
            return {"U": state(False, U < self._binary(binary_lower, r, bits))}
        return retried(decide_at, ["U"], BITS)["U"], shown[0]


def _refuse_orders(bands, order, R):
    """Unchecked beyond MAX_ORDER or MAX_ORDER_BITS for a band end or the top order (before any moment)."""
    orders = [(f"{R}/top/order", order)]
    for i, band in enumerate(bands):
        for end in ("left", "right"):
            orders.append((f"{R}/bands/{i}/{end}", read_rational(band[end], f"{R}/bands/{i}/{end}")))
    for pointer, a in orders:
        if abs(a) > MAX_ORDER:
            raise Unchecked(pointer, floor(abs(a)), MAX_ORDER, "Rényi order")
        size = max(a.numerator.bit_length(), a.denominator.bit_length())
        if size > MAX_ORDER_BITS:
            raise Unchecked(pointer, size, MAX_ORDER_BITS, "bits of a Rényi order's numerator or denominator")


def check_exp_dominates(U, ratio, pointer, report, undecided):
    """U >= log(ratio) decided three-way, as ratio <= e^U.

    Proved when e⁻(U) >= ratio, disproved when e⁺(U) < ratio (:func:`auditor.decide.exp_states`).
    """
    bits = max(ratio.numerator.bit_length(), ratio.denominator.bit_length(), U.denominator.bit_length()) + 48
    refuse_exponent(U, pointer, "e^U")
    refuse_bits(bits, pointer)
    decision, _, _ = exp_states(U, ratio, None, bits=bits)
    settle(decision, report, undecided, pointer, U, f"log {show(ratio)}", "below the logarithm")
    return decision == PROVED


def verify_cover(inp, res, report, undecided):
    """The cover's claims; the question (σ², γ, p, q, the layer scale and box) is ``inp``."""
    R, I = "/result", "/input"
    sigma2 = inputs.positive(inp["sigma2"], I + "/sigma2", "sigma2")
    inputs.require(inp["gamma"] == "1/3", I + "/gamma", "the B.2 layers are those of γ = 1/3")
    p = inputs.probability(inp["p"], I + "/p", "p")
    q = inputs.probability(inp["q"], I + "/q", "q")
    for name, x in (("p", p), ("q", q)):
        size = max(x.numerator.bit_length(), x.denominator.bit_length())
        if size > MAX_PAIR_BITS:
            raise Unchecked(f"{I}/{name}", size, MAX_PAIR_BITS, "bits of the binary pair's numerator or denominator")
    bands = res["bands"]
    if len(bands) > MAX_BANDS:
        raise Unchecked(R + "/bands", len(bands), MAX_BANDS, "bands")
    layers = Layers(inp, res, report, R)
    refuse_kernels(sigma2, max(abs(layers.low - 3), abs(layers.high + 3)), layers.high - layers.low + 7,
                   layers.S.bit_length() + 64, I + "/sigma2", I + "/box")
    if not layers.check_against(sigma2, report, R, undecided):
        return
    top = res["top"]
    order = read_rational(top["order"], R + "/top/order")
    inputs.require(order > 1, R + "/top/order", "the top order must exceed one")
    _refuse_orders(bands, order, R)
    ends = RenyiEnds(layers, p, q)

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
            decision, proved = ends.lower_end(L, left)
            settle(decision, report, undecided, bp + "/lower", L, proved, "L_l above log(M_l^low)/(l − 1)")
        decision, proved = ends.upper_end(U, right)
        settle(decision, report, undecided, bp + "/upper", U, proved, "U_r below max D_r of the binary pair")
        report.check(U < L, bp + "/upper", U, L, "the band's upper end must lie below its lower end")
    report.equal(R + "/bands", expected_left, order, "the bands must end at the top order")
    L_top = read_rational(top["lower"], R + "/top/lower")
    decision, proved = ends.lower_end(L_top, order)
    settle(decision, report, undecided, R + "/top/lower", L_top, proved,
           "top lower above log(M_order^low)/(order − 1) <= D_order(P_3‖Q_3)")
    U_top = read_rational(top["d_infinity_upper"], R + "/top/d_infinity_upper")
    check_exp_dominates(U_top, max(p / q, q / p, (1 - p) / (1 - q), (1 - q) / (1 - p)),
                        R + "/top/d_infinity_upper", report, undecided)
    report.check(U_top < L_top, R + "/top/d_infinity_upper", U_top, L_top, "D_∞(binary) bound must lie below")
    check_display(top["lower_display"], L_top, DOWN, None, R + "/top/lower_display", report)

