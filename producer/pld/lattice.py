"""The lattice route of ``accounting/1``: T steps of randomized response, exactly, on the lattice of its loss.

One step of k-ary randomized response with noise p under replace-one
neighbours has the loss +L, −L or 0 (L = log r, r = α/β) with P-masses
α = 1 − p + p/k, β = p/k, g = (k − 2)·p/k and Q-masses α and β swapped
(:mod:`producer.pld.randomized_response`).  After T steps the loss is M·L,
M = (#+) − (#−), and

    P_T(m) = [x^m] (β·x^−1 + g + α·x)^T,    Q_T(m) = r^−m·P_T(m),

since the likelihood ratio of the T outputs is r^M.  The pair is symmetric
(Q_T(m) = P_T(−m)), so both orders have

    δ(ε) = Σ_m P_T(m)·w_ε(m),    w_ε(m) = (1 − e^ε·r^−m)_+,

w_ε non-negative, non-decreasing in m, and 1 at m = +∞.  No grid, no
discretisation: only the fixed point 2^−K and truncation windows.

Arrays (integers at 2^−K on consecutive indices m): U starts
(⌈β·2^K⌉, ⌈g·2^K⌉, ⌈α·2^K⌉) on m = −1, 0, 1 with an atom U_∞ = 0 at +∞, and
D starts with the floors, without atom.  For every m, U's mass at or above m
is at least P_T's and D's at most (docs/accounting.md, "The lattice route"):
the starts round that way, a product of nonnegative arrays keeps both orders
and rounds each entry the side's way (:mod:`producer.pld.composition`'s
UPPER and LOWER_P kinds, with U's atom by the atom's algebra), and every
window [lo, hi] moves mass the side's way (U: below lo to lo, above hi to
the atom; D: below lo dropped, above hi to hi).  By Abel summation against
the non-decreasing w_ε,

    Σ D_m·w_ε(m) <= 2^K·δ(ε) <= Σ U_m·w_ε(m) + U_∞.

Evaluation.  With the suffix sums A_j = Σ_{m>=j} V_m (integers) and
B_j = Σ_{m>=j} V_m·r^−m (arb), Σ_{m>=j} V_m·(1 − c·r^−m) = A_j − c·B_j,
whose every term is >= 0 when c·r^−j <= 1.  The upper bound takes c with
c <= e^ε·(1 − η) and the lower bound c >= e^ε·(1 + η), η = 2^−:data:`SLACK_BITS`:
so the stored ends also hold for a checker whose own enclosures of e^ε·r^−m
are within a relative η of the truth, whether it sums term by term or by
suffixes (a convention, not a claim).
"""

import math

from flint import arb
from gmpy2 import mpq

from producer import audit_budget
from producer.errors import LimitError
from producer.names import option
from producer.plain.outward import ball_lower, ball_upper
from producer.pld import composition as comp
from producer.pld.inversion import largest_lower, smallest_upper
from producer.pld.enclose import FLOOR, NEGLIGIBLE, DeltaPoint, Outcome, beyond_audited_epsilon, short_point
from producer.pld.mechanism import FORWARD
from producer.pld.parameters import TRUNCATION_SHARE, Sizing
from producer.pld.randomized_response import RandomizedResponse
from producer.pld.search import AUDIT_EPSILON, PRODUCT_UNITS
from producer.sources.enclosures import to_arb, working_precision

ROUTE = "lattice"
KINDS = (comp.UPPER, comp.LOWER_P)
MAX_BITS = 4096             # K <= 4096 (the auditor's limit)
SLACK_BITS = 40             # η = 2^-40: the relative room left for a checker's enclosures of e^ε·r^-m
GUARD_BITS = 384            # arb precision above K for the suffix sums (δ(ε) down to 10^-100 and below)
MARGIN_BITS = 32            # the ε(δ) search aims at δ·(1 ∓ 2^-32): a decision never rests on a tie
SMALLEST_DELTA = NEGLIGIBLE  # a point's truncation is sized for δ(ε) >= 10^-30 (below, no width is claimed)


def applies(stages):
    """True exactly when the stages are one randomized-response stage (the lattice route's domain)."""
    return len(stages) == 1 and isinstance(stages[0].law, RandomizedResponse)


def step_masses(law):
    """(α, β, g): the P-masses of the losses +L, −L and 0 (exact rationals, α + β + g = 1)."""
    p, k = law.noise, law.buckets
    return 1 - p + p / k, p / k, (k - 2) * p / k


def bases(law, bits):
    """The single-step arrays (U, D) at the fixed point 2^-bits, on the indices −1, 0, 1."""
    alpha, beta, g = step_masses(law)
    scale = mpq(2) ** bits
    scaled = [beta * scale, g * scale, alpha * scale]
    floors = [int(v.numerator // v.denominator) for v in scaled]
    ceils = [-int((-v.numerator) // v.denominator) for v in scaled]
    return comp.Array(-1, ceils, 0), comp.Array(-1, floors)


# ---- the power and its windows ----------------------------------------------------------------

def spread(law, steps):
    """The standard deviation of M after ``steps`` steps (a float hint)."""
    alpha, beta, g = (float(v) for v in step_masses(law))
    return math.sqrt(steps * max(alpha + beta - (alpha - beta) ** 2, 0.0))


def estimated_entries(law, steps, tau):
    """About how many entries the windowed arrays keep when the trimmed mass is τ (a float hint)."""
    z = math.sqrt(2 * math.log(max(1 / tau, 2.0))) + 2
    return int(min(2 * steps + 1, 2 * z * spread(law, steps) + 8))


def chooser(bits, tau, products):
    """Windows that trim at most τ of mass over the whole power: from each end of U and of D, the entries whose
    total stays within the product's share (τ·weight/2 of the final mass, weight as in
    :func:`producer.pld.composition.power`); one window for both sides, the union of the two."""
    share = tau / max(1, products)

    def choose(arrays, weight):
        allowance = int(math.ldexp(share * weight / 2, bits))
        upper, lower = arrays
        u_lo, u_hi = comp.trim(upper, allowance)
        d_lo, d_hi = comp.trim(lower, allowance)
        return upper.offset + min(u_lo, d_lo), upper.offset + max(u_hi, d_hi)
    return choose


def compose(law, steps, bits, windows, progress=None):
    """(U, D) after ``steps`` steps, the windows taken from ``windows`` (a :class:`composition.Windows`)."""
    upper, lower = comp.power(list(bases(law, bits)), steps, list(KINDS), [bits, bits], windows, progress)
    return upper, lower


def replay(law, steps, bits, recorded):
    """(U, D) of a certificate's recipe: the power with the recorded windows."""
    return compose(law, steps, bits, comp.Windows(recorded=recorded))


# ---- the bounds -------------------------------------------------------------------------------

class _Suffixes:
    """A_j (integers) and B_j (arb) of one array, j from its offset to one past its last index."""

    def __init__(self, array, ratio, precision):
        self.offset, self.last = array.offset, array.last
        values = array.ints()
        with working_precision(precision):
            inverse = 1 / to_arb(ratio)
            weight = inverse ** self.last if self.last >= 0 else to_arb(ratio) ** (-self.last)
            r_arb = to_arb(ratio)
            a, b = [0] * (len(values) + 1), [arb(0)] * (len(values) + 1)
            for i in range(len(values) - 1, -1, -1):
                a[i] = a[i + 1] + values[i]
                b[i] = b[i + 1] + weight * values[i]
                weight *= r_arb
        self.a, self.b = a, b

    def at(self, j):
        """(A_j, B_j) for any integer j (0 beyond the last index, the whole sums below the first)."""
        i = min(max(j - self.offset, 0), len(self.a) - 1)
        return self.a[i], self.b[i]


class Bounds:
    """upper(ε) and lower(ε) of composed arrays U (with atom) and D at 2^-K, as exact rationals."""

    def __init__(self, law, upper, lower, bits):
        self.ratio, self.bits, self.atom = law.ratio, bits, upper.atom
        self.precision = bits + GUARD_BITS
        self.log_ratio = math.log1p(float(self.ratio - 1))
        self.upper_sums = _Suffixes(upper, self.ratio, self.precision)
        self.lower_sums = _Suffixes(lower, self.ratio, self.precision)
        self.upper_values = upper
        self.scale = mpq(2) ** bits

    def _c(self, epsilon, direction):
        """An arb ball of e^ε·(1 + direction·η)."""
        return to_arb(mpq(epsilon)).exp() * to_arb(1 + direction * mpq(1, 2**SLACK_BITS))

    def _x(self, c, m):
        """c·r^-m as an arb ball."""
        r = to_arb(self.ratio)
        return c / r ** m if m >= 0 else c * r ** (-m)

    def _first_at_most_one(self, c, epsilon, sums):
        """The least j in [offset, last + 1] with c·r^-j <= 1 certainly (last + 1 stands for every index beyond
        the array, where nothing is left to count).  c·r^-m decreases in m: a float guess, then bisection."""
        first, end = sums.offset, sums.last + 1

        def certain(j):
            return j >= end or self._x(c, j) <= 1
        if certain(first):
            return first
        guess = math.floor(float(epsilon) / self.log_ratio) + 1 if self.log_ratio > 0 else end
        lo, hi = max(first, min(guess - 2, end)), min(end, max(guess + 2, first))
        if certain(lo):
            lo = first
        if not certain(hi):
            hi = end
        while hi - lo > 1:  # not certain(lo), certain(hi)
            mid = (lo + hi) // 2
            if certain(mid):
                hi = mid
            else:
                lo = mid
        return hi

    def upper(self, epsilon):
        """A rational >= 2^-K·(Σ_m U_m·(1 − c·r^-m)_+ + U_∞) >= δ(ε), c = e^ε·(1 − η)."""
        sums, values = self.upper_sums, self.upper_values.values
        with working_precision(self.precision):
            c = self._c(epsilon, -1)
            j = self._first_at_most_one(c, epsilon, sums)
            # every m >= j has c·r^-m <= 1, so the suffix sums hold only terms >= 0; below j the terms one by
            # one while they may be positive (c·r^-m >= 1 certainly ends them: lower m have larger c·r^-m)
            a, b = sums.at(j)
            total = ball_upper(arb(a) - c * b)
            m = j - 1
            while m >= sums.offset and not self._x(c, m) >= 1:
                total += max(mpq(0), ball_upper(1 - self._x(c, m))) * values[m - sums.offset]
                m -= 1
        return max(mpq(0), total + self.atom) / self.scale

    def lower(self, epsilon):
        """A rational <= 2^-K·Σ_m D_m·(1 − c·r^-m)_+ <= δ(ε), c = e^ε·(1 + η)."""
        sums = self.lower_sums
        with working_precision(self.precision):
            c = self._c(epsilon, +1)
            j = self._first_at_most_one(c, epsilon, sums)
            # Σ_{m>=j} D_m·(1 − c·r^-m) <= Σ_m D_m·(1 − c·r^-m)_+ for any j (the terms left out are >= 0, and a
            # term of the suffix is at most its positive part); j only makes it tight
            a, b = sums.at(j)
            total = ball_lower(arb(a) - c * b)
        return max(mpq(0), total) / self.scale

    def excess(self):
        """U's total above 2^K and D's deficit below it, in units of 2^-K (what rounding and windows cost)."""
        return self.upper_sums.a[0] + self.atom - int(self.scale), int(self.scale) - self.lower_sums.a[0]


# ---- the auditor's estimate -------------------------------------------------------------------

def product_lengths(steps, recorded):
    """(n_A, n_B) of every product of the power, replayed from the recorded windows (both sides share them)."""
    n, k, out = 3, 0, []
    for bit in bin(steps)[3:]:
        out.append((n, n))
        lo, hi = recorded[k]
        n, k = hi - lo + 1, k + 1
        if bit == "1":
            out.append((n, 3))
            lo, hi = recorded[k]
            n, k = hi - lo + 1, k + 1
    return out


ANSWER_UNITS = 2               # the auditor's work units per entry and 64-bit word of one answer pass
ANSWER_BITS = 1 << 13          # the most bits an answer pass may take (docs/certificates.md, the lattice route)


def cost_of(steps, bits, recorded, law=None):
    """The auditor's budget estimate of a lattice recipe: every product of both sides at the scale K, by the
    product formula of the pld route (:func:`producer.pld.search.budget_cost`), and one answer pass over the
    final arrays at the largest precision an answer may take (from above: the auditor takes 64 bits beyond the
    smallest claimed value, at most 2^13, plus 2·bits(⌈r/(r − 1)⌉) for ``law``)."""
    work, memory, n, longest = 0, 0, 3, 3
    for n_a, n_b in product_lengths(steps, recorded):
        longest = max(longest, n_a + n_b - 1)
        field = 2 * (bits + 2) + min(n_a, n_b).bit_length()
        work += 2 * PRODUCT_UNITS * (n_a + n_b) * field
        memory = max(memory, (n_a + n_b - 1) * (384 + field // 2))
    if recorded:
        n = recorded[-1][1] - recorded[-1][0] + 1
    extra = 0 if law is None else _ratio_bits(law)
    words = (bits + ANSWER_BITS + 2 * extra + 64) // 64 + 1
    work += 2 * ANSWER_UNITS * n * words
    memory = max(memory, 2 * n * (64 + 8 * words))
    return audit_budget.AuditCost(work, memory, "the lattice products",
                                  f"a larger {option('rel_width')} or fewer steps", longest)


def _ratio_bits(law):
    """bits(⌈r/(r − 1)⌉) of the step's likelihood ratio r (the auditor's damped sums' amplification)."""
    r = mpq(law.ratio)
    num, den = int(r.numerator), int(r.numerator - r.denominator)
    return (-(-num // den)).bit_length()


# ---- the route ----------------------------------------------------------------------------------

class Lattice:
    """One computation at K bits: the recipe (K, windows) and its :class:`Bounds`."""

    def __init__(self, law, steps, bits, tau, log):
        self.bits = bits
        windows = comp.Windows(choose=chooser(bits, tau, comp.products_of(steps)))

        def progress(power, total, length):
            if power == total or power & (power - 1) == 0 and power >= 4096:
                log(f"lattice: power {power}/{total}, {length} entries at K = {bits}")
        upper, lower = compose(law, steps, bits, windows, progress)
        self.windows = list(windows.used)
        self.bounds = Bounds(law, upper, lower, bits)


def first_bits(law, steps, tau):
    """The first K: the rounding of every product (at most one unit 2^-K per entry) within about τ."""
    entries = estimated_entries(law, steps, tau)
    products = max(1, comp.products_of(steps))
    needed = math.log2(1 / tau) + math.log2(2 * entries * products) + 8
    return 8 * math.ceil(max(needed, 32) / 8)


def truncation(request):
    """τ: the mass the windows may trim, R·δ/64 (--delta) or R·10^-30/64 (--epsilons)."""
    target = request.delta if request.delta is not None else SMALLEST_DELTA
    return float(request.rel_width) * float(target) / TRUNCATION_SHARE


def check_limits(request):
    """Every refusal before the work: ε(δ) estimated beyond what a certificate states, K, the arrays, the
    auditor's budget (all for the first K; a retry doubles K within the same limits)."""
    stage = request.stages[0]
    law, steps = stage.law, stage.steps
    tau = truncation(request)
    if request.delta is not None and steps * math.log(float(law.ratio)) > AUDIT_EPSILON:
        estimate = Sizing(request.stages).epsilon_estimate(request.delta)
        if estimate > AUDIT_EPSILON:
            raise LimitError(f"{option('delta')}: ε({float(request.delta):g}) would be about {estimate:.3g} (a "
                             f"Gaussian estimate), above the ε <= {AUDIT_EPSILON} an {request.schema} certificate "
                             f"states; ask for δ at given ε instead ({option('epsilons')}, each ε <= 500), or for a "
                             f"larger δ, more noise or fewer steps")
    bits = first_bits(law, steps, tau)
    entries = estimated_entries(law, steps, tau)
    if bits > MAX_BITS:
        raise LimitError(f"the lattice route would need K = {bits} bits (the limit: {MAX_BITS}); ask for a larger "
                         f"{option('rel_width')}")
    audit_budget.check(_estimated_cost(steps, bits, entries, law), request.schema,
                       audit_budget.writable(request.effort))
    return bits, tau


def _estimated_cost(steps, bits, entries, law):
    """The auditor's estimate before the work, every window at the estimated length."""
    return cost_of(steps, bits, [(0, entries - 1)] * comp.products_of(steps), law)


def _epsilon_step(rel_width, hint):
    """2^-m <= R·ε/256 (ε the hint), 2^-60 at the finest (as the other routes)."""
    target = max(float(rel_width) * max(hint, 1e-9) / 256, 2.0 ** -60)
    return mpq(1, 2 ** min(60, max(0, math.ceil(-math.log2(target)))))


def _significant(rel_width):
    return max(16, math.ceil(-math.log2(float(rel_width))) + 14)


def _delta_answer(lattice, request):
    """(Outcome, met) for --delta: ε_hi the smallest grid ε with upper <= δ, ε_lo the largest with lower > δ."""
    bounds, delta, R = lattice.bounds, request.delta, request.rel_width
    hint = Sizing(request.stages).epsilon_estimate(delta)
    step = _epsilon_step(R, hint)
    below = delta * (1 - mpq(1, 2**MARGIN_BITS))
    hi = smallest_upper(bounds.upper, below, step, hint, limit=AUDIT_EPSILON)
    if hi is not None and 0 < hi <= AUDIT_EPSILON and step > R * hi / 64:  # the hint was far too large
        step = _epsilon_step(R, float(hi))
        hi = smallest_upper(bounds.upper, below, step, float(hi), limit=AUDIT_EPSILON)
    if hi is None or hi > AUDIT_EPSILON:
        raise beyond_audited_epsilon(delta, bounds.lower(mpq(AUDIT_EPSILON)) > delta, request.schema)
    if hi == 0:
        return Outcome(ROUTE, epsilon_lo=mpq(0), epsilon_hi=mpq(0), lower_order=None), True
    above = delta * (1 + mpq(1, 2**MARGIN_BITS))
    lo = largest_lower(bounds.lower, above, step, float(hi))
    lo = min(lo, hi)
    return (Outcome(ROUTE, epsilon_lo=lo, epsilon_hi=hi, lower_order=FORWARD if lo > 0 else None),
            hi - lo <= R * hi)


def _points_answer(lattice, request):
    bounds, R = lattice.bounds, request.rel_width
    sig = _significant(R)
    points, met = [], True
    for eps in request.epsilons:
        point = short_point(eps, bounds.lower(eps), bounds.upper(eps), sig, FORWARD)
        if point.upper < point.lower:  # cannot happen (lower <= δ <= upper); never write a reversed point
            raise ArithmeticError(f"lattice bounds crossed at ε = {eps}")
        points.append(point)
        met = met and (point.upper - point.lower <= R * point.upper or point.upper <= NEGLIGIBLE)
    return Outcome(ROUTE, points=points), met


def certify(request, log=lambda message: None):
    """The :class:`producer.pld.enclose.Outcome` of a one-stage randomized-response request, route "lattice".

    K starts at :func:`first_bits` and doubles until the width is met (K <= 4096); the outcome carries
    ``bits`` and ``windows`` (the recipe)."""
    bits, tau = check_limits(request)
    stage = request.stages[0]
    while True:
        lattice = Lattice(stage.law, stage.steps, bits, tau, log)
        if request.delta is not None:
            outcome, met = _delta_answer(lattice, request)
        else:
            outcome, met = _points_answer(lattice, request)
        if met:
            outcome.plan, outcome.windows = bits, lattice.windows
            audit_budget.check(cost_of(stage.steps, bits, lattice.windows, stage.law), request.schema,
                               audit_budget.writable(request.effort))
            return outcome
        if 2 * bits > MAX_BITS:
            raise LimitError(f"could not reach the relative width {float(request.rel_width):g} with K <= {MAX_BITS} "
                             f"bits on the lattice route (ask for a larger {option('rel_width')})")
        log(f"lattice: width not met at K = {bits}; K = {2 * bits}")
        bits, tau = 2 * bits, max(math.ldexp(tau, -bits), 1e-300)


__all__ = ["ROUTE", "applies", "step_masses", "bases", "compose", "replay", "Bounds", "Lattice", "certify",
           "check_limits", "cost_of", "product_lengths", "DeltaPoint", "FLOOR"]
