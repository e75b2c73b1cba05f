"""The lattice route of ``accounting/1``: T steps of one randomized-response stage, exactly (docs/accounting.md §5).

The law.  One step (noise p, k buckets) has α = 1 − p + p/k, β = p/k, g = (k − 2)·p/k and r = α/β > 1.  Under P
the loss of one step is +L (mass α), −L (β) or 0 (g), L = log r; after T steps it is M·L with M = #(+) − #(−),
P_T(m) the coefficient of x^m in (β/x + g + α·x)^T, and Q_T(m) = r^−m·P_T(m).  The pair is symmetric, so both
orders have δ(ε) = Σ_m P_T(m)·w(m), w(m) = (1 − e^ε·r^−m)_+, which is >= 0, non-decreasing in m and 1 at +∞.

The recipe (``result.lattice``: K and the windows).  Two integer arrays at the fixed point 2^−K, replayed here
with :mod:`.composition`: U (kind ``UPPER``) starts (⌈β·2^K⌉, ⌈g·2^K⌉, ⌈α·2^K⌉) on m = −1, 0, 1 with an atom
U_∞ = 0 at +∞, D (kind ``LOWER_P``) starts with the floors and has no atom.  The T-fold power by squaring from the
most significant bit, exact convolution, U rounded up and D down, one recorded window after every product (U: mass
below to the first index, mass above to the atom; D: mass below dropped, mass above to the last index).  Each of
these steps keeps, for every m, U's mass at or above m at least the exact law's and D's at most (rounding and
windows move mass only the tolerated way; convolution of nonnegative arrays keeps the orders), so by Abel summation
against the non-decreasing w (w(+∞) = 1):

    Σ_m D_m·w(m) <= 2^K·δ(ε) <= Σ_m U_m·w(m) + U_∞.

The bounds (:func:`bounds`).  With an enclosure L⁻ <= L <= L⁺ (:func:`auditor.enclosures.log_bounds`), w(m) = 0
for m <= ε/L⁺ and w(m) > 0 for m > ε/L⁻; the few m between (none, or one, at the precision chosen) are enclosed
one by one, w(m) from e^{ε − m·L} enclosed by :func:`auditor.enclosures.exp_bounds` at ε − m·L⁺ and ε − m·L⁻.
Above them, from the first such index k,

    Σ_{m >= k} A_m·(1 − e^ε·r^−m) = S_k − e^{ε − k·L}·Σ_{m >= k} A_m·ρ^{m − k},   ρ = 1/r = β/α exactly,

with the suffix sum S_k exact and the damped sum by the recursion d_k = A_k·2^G + d_{k+1}·ρ, rounded down for U
and up for D (each step is increasing in its inputs), and e^{ε − k·L} enclosed below for U, above for D; so the
upper side only grows and the lower side only shrinks.  A claim is then decided three-way as on the pld route
(:mod:`.decisions`): an upper end is proved by upper(ε) <= value, a lower end by lower(ε) >= value (> for ε_lo),
each disproved by the other side; open claims are retried once with :data:`auditor.pld.recipe.RETRY_GUARD` more
bits of the enclosures when the file's budget affords it, and are otherwise not established by the recipe (FAIL).

Limits (UNCHECKED, before the replay): K <= :data:`MAX_BITS`, the answers' precision <= :data:`MAX_ANSWER_BITS`,
and the file's budget for the estimate of :func:`estimate` (module constants), its longest product or window
included (:data:`auditor.budget.MAX_ENTRIES` entries per ``--budget``).
"""

from fractions import Fraction

from auditor import budget, common
from auditor import claims as summaries
from auditor.certificate import Malformed
from auditor.decide import OPEN
from auditor.enclosures import exp_bounds, log_bounds
from auditor.outcomes import Unchecked
from auditor.pld import composition, decisions
from auditor.pld.recipe import CONVOLUTION_NS, PRODUCT_BYTES, RETRY_GUARD
from auditor.rationals import ceil_div, floor

__all__ = ["Law", "Plan", "read_plan", "estimate", "replay", "bounds", "decide", "answer_bits", "answer_cost",
           "MAX_BITS", "MAX_ANSWER_BITS", "ANSWER_NS", "P"]

P = "/result/lattice"
MAX_BITS = 4096
"""Largest K (the arrays are integers over 2^K)."""
MAX_ANSWER_BITS = 1 << 13
"""Largest precision of the answers' enclosures (bits beyond the smallest claimed value, retry included)."""
ANSWER_NS = 2
"""Work units per entry and 64-bit word of one answer pass over an array (the suffix and damped sums)."""


class Law:
    """One step of randomized response (noise p, k buckets) as exact rationals: α, β, g, r = α/β > 1."""

    __slots__ = ("alpha", "beta", "middle", "ratio")

    def __init__(self, noise, buckets):
        noise = Fraction(noise)
        self.beta = noise / buckets
        self.alpha = 1 - noise + self.beta
        self.middle = (buckets - 2) * self.beta
        self.ratio = self.alpha / self.beta

    def __repr__(self):
        return f"Law(alpha={self.alpha}, beta={self.beta}, middle={self.middle})"

    def base(self, K, up):
        """The single-step array on m = −1, 0, 1 at 2^−K, rounded up (U) or down (D)."""
        masses = (self.beta, self.middle, self.alpha)
        scaled = [m.numerator << K for m in masses]
        values = [ceil_div(s, m.denominator) if up else s // m.denominator for s, m in zip(scaled, masses)]
        return composition.Array(-1, values, 0)


class Plan:
    """The recipe: the law, T, K and the windows (one per product, in order)."""

    __slots__ = ("law", "steps", "bits", "windows")

    def __init__(self, law, steps, bits, windows):
        self.law, self.steps, self.bits, self.windows = law, steps, bits, windows


def read_plan(cert, law, steps):
    """``result.lattice`` checked for shape (MALFORMED): K a JSON integer >= 1, one window per product of the
    T-fold power ((bit length of T − 1) + (popcount of T − 1)), each [lo, hi] with lo <= hi."""
    lattice = cert["result"].get("lattice")
    if not isinstance(lattice, dict):
        raise Malformed(f"{P}: the lattice route needs its recipe {{bits, windows}}, got {lattice!r:.40}")
    K = common.integer(lattice["bits"], P + "/bits", 1)
    windows = lattice["windows"]
    need = composition.products_in_power(steps)
    if len(windows) != need:
        raise Malformed(f"{P}/windows: {len(windows)} windows, but T = {steps} takes {need} products")
    out = []
    for i, w in enumerate(windows):
        lo = common.integer(w[0], f"{P}/windows/{i}/0")
        hi = common.integer(w[1], f"{P}/windows/{i}/1")
        if lo > hi:
            raise Malformed(f"{P}/windows/{i}: window [{common.magnitude(lo)}, {common.magnitude(hi)}] has lo > hi")
        out.append((lo, hi))
    return Plan(law, steps, K, out)


def answer_bits(cert):
    """64 bits beyond the smallest positive claimed value (δ, or the points' ends): the answers' precision
    (:func:`auditor.pld.decisions.start_bits` of the claims, read from the result alone)."""
    res = cert["result"]
    values = [Fraction(cert["input"]["delta"])] if "delta" in cert["input"] else \
        [Fraction(pt[end]) for pt in res.get("points", []) for end in ("lower", "upper")]
    bits = [max(0, v.denominator.bit_length() - v.numerator.bit_length() + 1) for v in values if v > 0]
    return 64 + max(bits + [0])


def _extra_bits(law):
    """bits(⌈r/(r − 1)⌉): 1/(1 − ρ) amplifies the damped sums' rounding, and 1/L <= r/(r − 1)."""
    r = law.ratio
    return ceil_div(r.numerator, r.numerator - r.denominator).bit_length()


def answer_cost(plan, length, value_bits, pointer=P + "/windows"):
    """One answer pass (both arrays) at ``value_bits``: the suffix and damped sums over ``length`` entries."""
    words = (plan.bits + value_bits + 2 * _extra_bits(plan.law) + 64) // 64 + 1
    return budget.Cost(2 * ANSWER_NS * length * words, 2 * length * (64 + 8 * words), pointer, "answers")


def estimate(plan, value_bits, guard=0, prefix=""):
    """The work and memory of the replay and one answer pass (:class:`auditor.budget.Cost`), from K, T and the
    window lengths alone; UNCHECKED beyond a limit (module docstring)."""
    K = plan.bits
    if K > MAX_BITS:
        raise Unchecked(prefix + P + "/bits", K, MAX_BITS, "bits of the fixed point 2^-K")
    if value_bits + RETRY_GUARD > MAX_ANSWER_BITS:
        raise Unchecked(prefix + "/result", value_bits + RETRY_GUARD, MAX_ANSWER_BITS,
                        "precision of the answers in bits (64 beyond the smallest claimed value, and the retry's)")
    work = memory = 0
    longest = (0, "")
    n, it = 3, iter(enumerate(plan.windows))
    for bit in bin(plan.steps)[3:]:
        for factor in ("square", "base") if bit == "1" else ("square",):
            i, (lo, hi) = next(it)
            n_b = n if factor == "square" else 3
            product, size = n + n_b - 1, hi - lo + 1
            longest = budget.longer(longest, (max(product, size), f"{prefix}{P}/windows/{i}"))
            field = 2 * (K + 2) + min(n, n_b).bit_length()
            work += 2 * (n + n_b) * field           # U and D
            memory = max(memory, product * (PRODUCT_BYTES + field // 2))
            n = size
    replay_cost = budget.Cost(CONVOLUTION_NS * work, memory, prefix + P + "/windows", "convolutions", longest)
    return replay_cost + answer_cost(plan, n, value_bits + guard, prefix + P + "/windows")


def replay(plan):
    """(U, D): the recipe's two arrays (:class:`auditor.pld.composition.Array`), replayed exactly."""
    K, law, steps = plan.bits, plan.law, plan.steps
    U = composition.power(law.base(K, up=True), steps, plan.windows, composition.UPPER, K)
    D = composition.power(law.base(K, up=False), steps, plan.windows, composition.LOWER_P, K)
    return U, D


def _sums_at(array, positions, G, rho, up):
    """{position: (suffix sum, damped sum)} at the array positions asked for: the suffix sum exact, the damped sum
    d_k = A_k·2^G + d_{k+1}·ρ rounded down (``up`` False: a lower bound) or up (an upper bound of 2^G·Σ A_m ρ^{m−k})."""
    a, b = rho.numerator, rho.denominator
    wanted = set(positions)
    if not wanted:
        return {}
    stop = min(wanted)
    out, total, damped = {}, 0, 0
    values = array.values
    for position in range(len(values) - 1, stop - 1, -1):
        v = values[position]
        total += v
        damped = (v << G) + (ceil_div(damped * a, b) if up else (damped * a) // b)
        if position in wanted:
            out[position] = (total, damped)
    return out


def _exp_fixed(x, G, up):
    """An integer bound of 2^G·e^x for a rational x < 0: below (``up`` False) or above."""
    if x <= -(G + 2):          # e^x < 2^-G: 0 below, 1 above
        return 1 if up else 0
    lo, hi = exp_bounds(x, G + 8)
    return ceil_div(hi.numerator << G, hi.denominator) if up else (lo.numerator << G) // lo.denominator


def _w_bound(x_lo, x_hi, up, bits):
    """A bound of max(0, 1 − e^x) for x in [x_lo, x_hi]: above from e^{x_lo} below (``up``), else below."""
    if up:
        return max(Fraction(0), 1 - exp_bounds(x_lo, bits)[0])
    return max(Fraction(0), 1 - exp_bounds(x_hi, bits)[1])


def bounds(arrays, law, K, epsilons, value_bits):
    """{ε: (lower, upper)} with lower <= δ(ε) <= upper, from the replayed arrays (module docstring)."""
    U, D = arrays
    extra = _extra_bits(law)
    G = value_bits + extra + max(len(U.values), len(D.values)).bit_length() + 8
    reach = max(abs(U.offset), abs(D.offset), abs(U.offset + len(U.values)), abs(D.offset + len(D.values)))
    top = max(ceil_div(e.numerator, e.denominator) for e in epsilons)
    L_bits = G + 2 * extra + top.bit_length() + reach.bit_length() + 16
    L_lo, L_hi = log_bounds(law.ratio, L_bits)
    while L_lo <= 0:                       # never at this precision (L >= 2^−extra); kept for soundness
        L_bits *= 2
        L_lo, L_hi = log_bounds(law.ratio, L_bits)
    rho = 1 / law.ratio
    cuts = {}
    for e in epsilons:
        # w(m) = 0 for m <= ε/L⁺ and w(m) > 0 for m > ε/L⁻
        cuts[e] = (floor(e / L_hi) + 1, floor(e / L_lo) + 1)
    out = {e: [None, None] for e in epsilons}
    # the upper side (U) subtracts a lower bound of Σ A_m·e^{ε − m·L}, the lower side (D) an upper bound
    for side, array, up in ((1, U, True), (0, D, False)):
        n, offset = len(array.values), array.offset
        firsts = {e: max(b, offset) - offset for e, (_, b) in cuts.items()}
        sums = _sums_at(array, [k for k in firsts.values() if k < n], G, rho, up=not up)
        for e, (a, b) in cuts.items():
            total = Fraction(0)
            for m in range(max(a, offset), min(b, offset + n)):      # the band: enclosed one by one
                v = array.values[m - offset]
                if v:
                    total += int(v) * _w_bound(e - m * L_hi, e - m * L_lo, up, G + 8)
            k = firsts[e]
            if k < n:
                suffix, damped = sums[k]
                m = offset + k
                # e^{ε − m·L}: below for U (x = ε − m·L⁺ <= ε − m·L), above for D (x = ε − m·L⁻)
                x = e - m * (L_hi if up else L_lo)
                factor = _exp_fixed(x, G, up=not up)
                total += Fraction(int((suffix << (2 * G)) - factor * damped), 1 << (2 * G))
            if up:
                total += int(array.atom)
            out[e][side] = total / (1 << K)
    return {e: tuple(v) for e, v in out.items()}


def decide(pending, report, plan, arrays, value_bits, cost_at):
    """Decide the claims from the arrays' bounds; once more with RETRY_GUARD more bits if any is open and the
    file's budget affords ``cost_at(guard)``; then :func:`auditor.pld.decisions.settle` them."""
    retried = True
    for guard in (0, RETRY_GUARD):
        open_claims = [c for c in pending if c.decision == OPEN]
        if not open_claims:
            break
        if guard and not budget.afford(report, cost_at(guard)):
            retried = False
            break
        found = bounds(arrays, plan.law, plan.bits, sorted({c.epsilon for c in open_claims}), value_bits + guard)
        for c in open_claims:
            low, up = found[c.epsilon]
            c.decision = decisions.decide(c, low, up)
            c.shown = f"δ(ε) in [{summaries.outward(max(low, Fraction(0)), 25)[0]}, {summaries.outward(up, 25)[1]}]"
    decisions.settle(pending, report, "" if retried else
                     f"; a retry with {RETRY_GUARD} more guard bits would exceed the file's budget")
