"""The driver: plan, compute both sides, check the width, refine.

Routes.  A schedule whose stages all have q = 1 is a Gaussian mechanism and
is enclosed by its closed form (:mod:`producer.pld.gaussian`, route
``gaussian``).  Otherwise (route ``pld``) both orders get the upper side
(connect-the-dots, composed); the lower side is composed only for the order
whose upper bound is the larger at the answer (a lower bound for one order is
a lower bound for the maximum).

Margins.  The stored ends leave room for a checker whose own enclosures round
a few masses the other way: F(ε_hi) <= δ − m_U and L(ε_lo) >= δ + m_L with
m_U = 4·(the upper arrays' rounding excess, known exactly) + δ·2^-32 and
m_L = 16·(that excess) + 4·e^ε·(the Q-array's excess) + δ·2^-32; points
are widened by the same margins before they are rounded outward to short
dyadic rationals (:func:`short_point`: an upper end below 10^-100 is
written 10^-100, a lower end below it 0).  This placement is a convention,
not a claim.

Before any work: the Gaussian route decides with one enclosure whether
ε(δ) <= 2000 (the auditor evaluates no larger ε); the pld route's checks are
those of :class:`producer.pld.search.Search`.
"""

import math

from gmpy2 import mpq

from producer.pld import composition as comp
from producer.pld.buckets import lower_values
from producer.pld.connect_dots import PrecisionError, upper_values
from producer.pld.convolution import forget_masks
from producer.pld.gaussian import delta_enclosure, mu_squared, proves_below
from producer.pld.inversion import LowerProfile, UpperProfile, exp_upper, largest_lower, smallest_upper
from producer.pld.masses import oriented, step_masses
from producer.pld.mechanism import BACKWARD, FORWARD, ORDERS
from producer.pld.parameters import AIM, TRUNCATION_SHARE, Sizing
from producer.pld.regrid import MAX_SPACING, SHARE_EXTRA_BITS, Regrid, shares, spacing_after, within
from producer.pld.search import AUDIT_EPSILON, FLOOR_DIGITS, MAX_EPSILON_CAP, MAX_WORK, PLD_EPSILON, Search, \
    epsilons_instead, mass_precision, recipe_excess, stage_ranges, suggest_width, uses_regrids, uses_split
from producer.pld import split as splits
from producer.errors import LimitError
from producer.rationals import describe_rational
from producer.sources.enclosures import floor_log2
from producer.names import option

MAX_ATTEMPTS = 5
MAX_MASS_PRECISION = 1 << 16  # bits: the working precision of the single-step masses never goes beyond
MARGIN_BITS = 32
NEGLIGIBLE = mpq(1, 10**30)  # a point with upper <= 10^-30 is answered whatever its lower end
FLOOR = mpq(1, 10**FLOOR_DIGITS)  # the smallest upper end written: a δ(ε) below it is answered [0, 10^-100]


class DeltaPoint:
    """lower <= δ(ε) <= upper; ``order`` names the order whose lower side gave ``lower`` (None: 0 or closed form)."""

    __slots__ = ("epsilon", "lower", "upper", "order")

    def __init__(self, epsilon, lower, upper, order):
        self.epsilon, self.lower, self.upper, self.order = mpq(epsilon), mpq(lower), mpq(upper), order


class _Bases:
    """One order's single-step arrays: ``["upper"]``, and ``["lower"]`` (P, Q) made when first read, since
    only the order whose lower side is composed needs it."""

    __slots__ = ("upper", "_make_lower", "_lower")

    def __init__(self, upper, make_lower):
        self.upper, self._make_lower, self._lower = upper, make_lower, None

    def __getitem__(self, side):
        if side == "upper":
            return self.upper
        if self._lower is None:
            self._lower, self._make_lower = self._make_lower(), None
        return self._lower

    def __setitem__(self, side, arrays):      # a test's checker replaces them with its own roundings
        if side == "upper":
            self.upper = arrays
        else:
            self._lower, self._make_lower = arrays, None


class Outcome:
    """What one certificate states: the route, the parameters of the pld route, and the answers."""

    def __init__(self, route, plan=None, ranges=None, windows=None, epsilon_lo=None, epsilon_hi=None,
                 lower_order=None, points=None):
        self.route, self.plan, self.ranges, self.windows = route, plan, ranges, windows
        self.epsilon_lo, self.epsilon_hi, self.lower_order = epsilon_lo, epsilon_hi, lower_order
        self.points = points
        self.regrids, self.split = (), None


# ---- outward rounding to short dyadic rationals ----------------------------------

def round_out(value, significant_bits, direction):
    """``value`` (>= 0) rounded down (−1) or up (+1) to ``significant_bits`` significant bits."""
    value = mpq(value)
    if value <= 0:
        return mpq(0)
    shift = significant_bits - floor_log2(value)
    scaled = value * mpq(2) ** shift
    n = scaled.numerator // scaled.denominator
    if direction > 0 and n * scaled.denominator != scaled.numerator:
        n += 1
    return mpq(n) / mpq(2) ** shift


def short_point(epsilon, lower, upper, significant_bits, order):
    """A :class:`DeltaPoint` from bounds lower <= δ(ε) <= upper, every number short.

    Each end is rounded outward to ``significant_bits`` significant bits; an
    upper end below 10^-100 is written as 10^-100 (still above δ(ε), and a
    point with upper <= 10^-30 needs no relative width), a lower end below
    10^-100 as 0.  So no number has more than about 120 digits, whatever δ(ε) is.
    """
    upper = min(mpq(1), round_out(upper, significant_bits, +1)) if upper >= FLOOR else FLOOR
    lower = round_out(lower, significant_bits, -1) if lower >= FLOOR else mpq(0)
    return DeltaPoint(epsilon, lower, upper, order if lower > 0 else None)


def _significant(rel_width):
    return max(16, math.ceil(-math.log2(float(rel_width))) + 14)


# ---- the Gaussian route -------------------------------------------------------------

class _GaussianEnds:
    """The closed form's enclosures of δ(ε) at the margin of a request's R (the Gaussian route)."""

    def __init__(self, request):
        self.mu2 = mu_squared(request.stages)
        self.margin = min(mpq(1, 2**24), request.rel_width / 64)

    def tiny(self, eps):  # δ(ε) <= 10^-100 by the Chernoff bound: no enclosure (it would be astronomically long)
        return proves_below(self.mu2, eps, FLOOR_DIGITS)

    def upper(self, eps):
        return FLOOR if self.tiny(eps) else delta_enclosure(self.mu2, eps, self.margin / 4)[1]

    def lower(self, eps):
        return mpq(0) if self.tiny(eps) else delta_enclosure(self.mu2, eps, self.margin / 4)[0]


def _check_gaussian_range(request, ends):
    """Refuse, from one enclosure, an ε(δ) above what the auditor evaluates (before the search)."""
    margin = ends.margin
    if request.delta is not None and ends.upper(mpq(AUDIT_EPSILON)) > request.delta * (1 - margin):
        raise beyond_audited_epsilon(request.delta, ends.lower(mpq(AUDIT_EPSILON)) > request.delta * (1 + margin),
                                     request.schema)


def _gaussian(request, log):
    ends = _GaussianEnds(request)
    mu2, margin, tiny, upper, lower = ends.mu2, ends.margin, ends.tiny, ends.upper, ends.lower
    sig = _significant(request.rel_width)
    R = request.rel_width
    _check_gaussian_range(request, ends)
    log(f"Gaussian closed form, μ² = {float(mu2):.6g}")
    if request.delta is None:
        points = []
        for eps in request.epsilons:
            if tiny(eps):
                points.append(DeltaPoint(eps, 0, FLOOR, None))
                continue
            lo, hi = delta_enclosure(mu2, eps, margin / 4)
            points.append(short_point(eps, lo * (1 - margin), hi * (1 + margin), sig, None))
        return Outcome("gaussian", points=points)
    delta = request.delta
    target = delta * (1 - margin)
    sizing_eps = Sizing(request.stages).epsilon(delta)
    step = _epsilon_step(R, sizing_eps)
    hi = smallest_upper(upper, target, step, sizing_eps, limit=AUDIT_EPSILON)
    if hi is None:  # cannot happen after the check above (the bound is nonincreasing); never a TypeError
        raise beyond_audited_epsilon(delta, False, request.schema)
    lo = largest_lower(lower, delta * (1 + margin), step, sizing_eps)
    return Outcome("gaussian", epsilon_lo=lo, epsilon_hi=hi, lower_order=None)


def beyond_audited_epsilon(delta, proved, schema="dpsgd/1"):
    """The one-line refusal of an ε(δ) above the largest ε a certificate of ``schema`` may state."""
    where = "lies above" if proved else "is not certified at or below"
    return LimitError(f"{option('delta')}: ε({describe_rational(delta)}) {where} {AUDIT_EPSILON}, the largest ε a "
                      f"{schema} certificate can state (the auditor evaluates none beyond); ask for δ at given ε "
                      f"instead ({option('epsilons')}, each ε <= 500), or for a larger δ, more noise or fewer steps")


def _epsilon_step(R, eps_hint):
    """2^-m with 2^-m <= R·ε/256 (ε the hint), 2^-60 at the finest."""
    target = max(float(R) * max(eps_hint, 1e-9) / 256, 2.0 ** -60)
    return mpq(1, 2 ** min(60, max(0, math.ceil(-math.log2(target)))))


# ---- the pld route ------------------------------------------------------------------------

class _Attempt:
    """One computation at a fixed :class:`Plan`."""

    def __init__(self, request, plan, log, sizing=None):
        self.request, self.plan, self.log = request, plan, log
        self.h = plan.h
        self.stages = request.stages
        self.ranges, self.sides = [], []
        self.windows = {order: {"upper": None, "lower": None} for order in ORDERS}
        self.upper, self.lower, self.excess = {}, {}, {}
        sizing = sizing or Sizing(self.stages)
        self.splits = uses_split(sizing, plan)      # decided for good once the single step's arrays are known
        self.split = self.parts = None              # parts: a coarse split's {"body": arrays, "tail": arrays}
        # a split's chains compose T − 1 steps before their last product: the regrids follow that power's products
        steps = self.stages[0].steps - self.splits
        self.regrids = _regrids(self.stages, plan, steps) if uses_regrids(sizing, plan) else ()
        self.spacing = spacing_after(self.h, self.regrids)   # the grid of the composed arrays

    @property
    def tail_ratio(self):
        """ρ = r·G: the cross term's grid over h, which a coarse tail's masses are enclosed on."""
        return splits.FACTOR * math.prod(g.factor for g in self.regrids)

    # single-step arrays
    def prepare(self, ranges=None):
        """The single-step arrays on the ranges of :func:`producer.pld.search.stage_ranges` (computed if None)."""
        plan = self.plan
        ranges = ranges or stage_ranges(self.stages, plan)
        if self.splits and self._coarse_split(*ranges[0]):
            return
        for stage, (lo, hi) in zip(self.stages, ranges):
            self.ranges.append((lo, hi))
            self.sides.append(self._arrays(stage, self.h, lo, hi, mass_precision(plan, lo, hi)))
            self.log(f"stage {stage.law.describe()}: {hi - lo + 1} buckets, h = 1/{plan.grid}")
        if self.splits:
            self.split = self._split()
            if self.split is None:    # the regrids were planned for the power of T − 1 steps
                self.regrids = _regrids(self.stages, plan)
                self.spacing = spacing_after(self.h, self.regrids)

    def _arrays(self, stage, h, lo, hi, precision, part=None):
        """{order: bases} of ``stage``'s buckets [lo, hi] on the grid ``h``; ``part`` "without_low" or
        "without_high" takes that tail of the masses as zero (:meth:`producer.pld.masses.StepMasses.without_low`)."""
        while True:
            try:
                masses = step_masses(stage.law, h, lo, hi, precision)
                masses = getattr(masses, part)() if part else masses

                def again(order, _precision=precision):   # a lower pair the masses do not decide: twice the bits
                    if 2 * _precision > MAX_MASS_PRECISION:
                        raise self._precision_limit(stage) from None
                    return self._arrays(stage, h, lo, hi, 2 * _precision, part)[order]["lower"]
                return {o: self._bases(masses, o, h, precision, again) for o in ORDERS}
            except PrecisionError:
                precision *= 2
                if precision > MAX_MASS_PRECISION:  # never met by a request within the limits; no hang
                    raise self._precision_limit(stage) from None

    def _precision_limit(self, stage):
        return LimitError(f"the single-step masses of the {stage.law.describe()} stage did not reach the fixed "
                          f"point 2^-{self.plan.q_bits} at {MAX_MASS_PRECISION} bits of working precision; ask "
                          f"for a larger {option('rel_width')}")

    def _coarse_split(self, lo, hi):
        """The one stage's single step as a split whose tail's masses lie on the cross term's grid ρ·h
        (:func:`producer.pld.split.cut`): True when made; False where the grid is not a multiple of ρ, no cut
        lies inside the range, the law's masses need bucket 0 in every range, or a remainder proves nothing (the
        fine masses are then computed)."""
        plan, stage, ratio = self.plan, self.stages[0], self.tail_ratio
        if plan.grid % ratio or self.spacing * splits.FACTOR > MAX_SPACING or not stage.law.splits_anywhere:
            return False
        hi = -(-hi // ratio) * ratio
        c = splits.cut(stage.law, self.h, lo, hi, ratio, self._allowance() / 2)
        if c is None:
            return False
        precision = mass_precision(plan, lo, hi)
        body = self._arrays(stage, self.h, lo, c, precision, "without_high")
        tail = self._arrays(stage, self.h * ratio, c // ratio, hi // ratio, precision, "without_low")
        split = splits.Split.from_spacing({FORWARD: (lo, c), BACKWARD: (-c, -lo)}, self.spacing, splits.FACTOR,
                                          plan.p_bits + SHARE_EXTRA_BITS, coarse=True)
        self.parts = {"body": body, "tail": tail}
        self.remainders = {o: self._remainder(split, o) for o in ORDERS}
        if any(r is None for r in self.remainders.values()):
            self.parts = None
            return False
        self.ranges.append((lo, hi))
        self.sides.append(body)
        self.split = split
        self.log(f"stage {stage.law.describe()}: {c - lo} buckets at h = 1/{plan.grid} and {(hi - c) // ratio} "
                 f"at {ratio}/{plan.grid} (a split)")
        return True

    def _allowance(self):
        """The tail's P-mass m with C(T, 2)·m² = τ/TAIL_SHARE (a float)."""
        return splits.allowance(self.plan.tau, self.stages[0].steps)

    def _split(self):
        """The split of the one stage's arrays (:mod:`producer.pld.split`), or None where it proves nothing."""
        plan = self.plan
        if self.spacing * splits.FACTOR > MAX_SPACING:
            return None
        body = {o: splits.choose(self.sides[0][o]["upper"], plan.p_bits, self._allowance(), o == FORWARD)
                for o in ORDERS}
        split = splits.Split.from_spacing(body, self.spacing, splits.FACTOR, plan.p_bits + SHARE_EXTRA_BITS)
        self.remainders = {o: self._remainder(split, o) for o in ORDERS}
        return split if all(r is not None for r in self.remainders.values()) else None

    def _remainder(self, split, order):
        """:func:`producer.pld.split.remainder` of one order: m the tail's upper mass (a coarse tail's atom
        included), the excess that of the whole single step's."""
        if split.coarse:
            body, tail = (self.parts[part][order]["upper"].total() for part in ("body", "tail"))
            return splits.remainder(self.stages[0].steps, tail, body + tail, self.plan.p_bits)
        upper = self.sides[0][order]["upper"]
        tail = splits.tail_of(upper.values, upper.offset, upper.atom, split.body[order], True)
        return splits.remainder(self.stages[0].steps, sum(tail[1]), upper.total(), self.plan.p_bits)

    def _bases(self, masses, order, h, precision, again):
        """:class:`_Bases` of one order; ``again(order)`` remakes its lower pair at twice the precision."""
        plan = self.plan
        lo, values, atom = upper_values(oriented(masses, order), h, plan.p_bits, precision)

        def lower():
            try:
                lo, P, Q, X = lower_values(oriented(masses, order), plan.p_bits, plan.q_bits, precision)
            except PrecisionError:
                return again(order)
            return comp.Array(lo, P), comp.Array(lo, Q, X)
        return _Bases(comp.Array(lo, values, atom), lower)

    # windows
    def _products(self):
        return sum(comp.products_of(s.steps) for s in self.stages) + len(self.stages) - 1

    def _upper_chooser(self):
        share = self.plan.tau / max(1, self._products())
        bits = self.plan.p_bits

        def choose(arrays, weight):
            (a,) = arrays
            k_lo, k_hi = comp.trim(a, int(math.ldexp(share * weight / 2, bits)))
            return a.offset + k_lo, a.offset + k_hi
        return choose

    def _lower_chooser(self):
        share = self.plan.tau / max(1, self._products())
        p_bits, q_bits = self.plan.p_bits, self.plan.q_bits
        q_share = share * math.exp(-min(self.plan.epsilon_cap, 600))

        def choose(arrays, weight):
            p, q = arrays
            p_lo, p_hi = comp.trim(p, int(math.ldexp(share * weight / 2, p_bits)))
            q_lo, q_hi = comp.trim(q, int(math.ldexp(q_share * weight / 2, q_bits)))
            return p.offset + min(p_lo, q_lo), p.offset + max(p_hi, q_hi)
        return choose

    def _chain(self, order, side, kinds, bits, chooser):
        try:
            return self._composed(order, side, kinds, bits, chooser)
        finally:
            forget_masks()

    def _composed(self, order, side, kinds, bits, chooser):
        if self.split is not None:
            return self._split_chain(order, side, kinds, bits, chooser)
        windows = comp.Windows(choose=chooser)
        powers, recorded = [], []
        for stage, bases in zip(self.stages, self.sides):
            base = bases[order][side]
            base = [base] if side == "upper" else list(base)
            start = len(windows.used)

            def progress(power, steps, length, _order=order, _side=side):
                if power == steps or power & (power - 1) == 0 and power >= 256:
                    self.log(f"{_side} {_order}: power {power}/{steps}, {length} entries")
            powers.append(comp.power(base, stage.steps, kinds, bits, windows, progress, self.regrids))
            recorded.append(windows.used[start:])
        start = len(windows.used)
        result = comp.combine(powers, kinds, bits, windows)
        return result, {"stages": recorded, "combine": windows.used[start:]}

    def _split_chain(self, order, side, kinds, bits, chooser):
        """((body^T arrays, cross arrays or None), windows) of one order's chain under the split."""
        windows = comp.Windows(choose=chooser)
        parts, tails = self._parts(order, side)
        steps = self.stages[0].steps

        def progress(power, total, length):
            if power == total - 1 or power & (power - 1) == 0 and power >= 256:
                self.log(f"{side} {order}: power {power}/{total}, {length} entries (split)")
        whole, cross = comp.split_power(parts, tails, steps, kinds, bits, windows, self.split, progress,
                                        self.regrids)
        return (whole, cross), {"stages": [windows.used], "combine": []}

    def _parts(self, order, side):
        """(body arrays, tail arrays or None) of one order and side of the split single step, one per kind."""
        def listed(bases):
            return [bases] if side == "upper" else list(bases)
        if self.split.coarse:
            tails = listed(self.parts["tail"][order][side])
            return listed(self.parts["body"][order][side]), tails if any(t.total() for t in tails) else None
        body, bases = self.split.body[order], listed(self.sides[0][order][side])
        # the upper atom (+∞) is body; the lower Q-array's X goes with the part that holds its last index
        to_body = [side == "upper" or body[0] <= b.last <= body[1] for b in bases]
        parts = [splits.body_of(b.values, b.offset, b.atom, body, t) for b, t in zip(bases, to_body)]
        if any(p is None for p in parts):
            raise ValueError(f"the body {body} holds no entry of a single-step array")
        tails = [splits.tail_of(b.values, b.offset, b.atom, body, t) for b, t in zip(bases, to_body)]
        tails = [comp.Array(*t) for t in tails] if any(sum(t[1]) or t[2] for t in tails) else None
        return [comp.Array(*p) for p in parts], tails

    def compose_upper(self):
        p_bits = self.plan.p_bits
        for order in ORDERS:
            arrays, windows = self._chain(order, "upper", [comp.UPPER], [p_bits], self._upper_chooser())
            self.windows[order]["upper"] = windows
            if self.split is None:
                (array,) = arrays
                self.excess[order] = max(0, array.total() - 2 ** p_bits)
                self.upper[order] = self._upper_profile(array, self.spacing)
                continue
            (whole,), cross = arrays
            self.excess[order] = max(0, whole.total() - 2 ** p_bits, self._checker_units())
            profiles = [self._upper_profile(whole, self.spacing)]
            if cross is not None:
                profiles.append(self._upper_profile(cross[0], self.spacing * self.split.factor))
            self.upper[order] = splits.SplitUpper(profiles, self.stages[0].steps, self.remainders[order])

    def _upper_profile(self, array, spacing):
        return UpperProfile.of(array, spacing, self.plan.p_bits)

    def _checker_units(self):
        """Units 2^-K by which a checker's single-step arrays may move a split's answer: 4 an entry, T times."""
        lo, hi = self.ranges[0]
        entries = hi - lo + 2
        if self.split.coarse:
            c, ratio = self.split.body[FORWARD][1], self.tail_ratio
            entries = c - lo + 2 + (hi - c) // ratio + 2
        return 4 * self.stages[0].steps * entries

    def compose_lower(self, order):
        if order in self.lower:
            return
        plan = self.plan
        arrays, windows = self._chain(order, "lower", [comp.LOWER_P, comp.LOWER_Q],
                                      [plan.p_bits, plan.q_bits], self._lower_chooser())
        self.windows[order]["lower"] = windows
        if self.split is None:
            p, q = arrays
            q_excess = max(0, q.total() - 2 ** plan.q_bits)
            self.lower[order] = (LowerProfile(p, q, self.spacing, plan.p_bits, plan.q_bits), q_excess)
            return
        (p, q), cross = arrays
        q_excess = max(0, q.total() - 2 ** plan.q_bits, self._checker_units())
        profiles = [LowerProfile(p, q, self.spacing, plan.p_bits, plan.q_bits)]
        if cross is not None:
            profiles.append(LowerProfile(*cross, self.spacing * self.split.factor, plan.p_bits, plan.q_bits))
        self.lower[order] = (splits.SplitLower(profiles, self.stages[0].steps), q_excess)

    # margins and bounds
    def upper_margin(self, target):
        worst = max(self.excess.values())
        return 4 * mpq(worst, 2 ** self.plan.p_bits) + mpq(target) / 2 ** MARGIN_BITS

    def lower_margin(self, order, epsilon, target):
        _, q_excess = self.lower[order]
        # the P-side deficit of a checker's floors has the origin and size of the upper excess: 16x it
        return (16 * mpq(max(self.excess.values()), 2 ** self.plan.p_bits)
                + 4 * exp_upper(epsilon) * mpq(q_excess, 2 ** self.plan.q_bits)
                + mpq(target) / 2 ** MARGIN_BITS)

    def upper_bound(self, epsilon):
        return max(self.upper[o].value(epsilon) for o in ORDERS)

    def leading_order(self, epsilon):
        return max(ORDERS, key=lambda o: (self.upper[o].value(epsilon), o == FORWARD))


def _regrids(stages, plan, steps=None):
    """The regrids of a one-stage schedule's power (:func:`producer.pld.regrid.schedule`; of ``steps`` steps, by
    default the stage's), shares computed."""
    if len(stages) != 1:
        return ()
    out, spacing = [], plan.h
    bits = plan.p_bits + SHARE_EXTRA_BITS
    for after, factor in within(steps or stages[0].steps, plan.h, finest=stages[0].steps):
        out.append(Regrid(after, factor, bits, shares(spacing, factor, bits)))
        spacing *= factor
    return tuple(out)


def _delta_answer(attempt, request, sizing):
    delta, R = request.delta, request.rel_width
    eps_hint = sizing.epsilon(delta)
    step = _epsilon_step(R, eps_hint)
    hi = smallest_upper(lambda e: attempt.upper_bound(e), delta - attempt.upper_margin(delta), step, eps_hint,
                        limit=PLD_EPSILON)
    if hi is None:
        raise LimitError(f"no ε <= {PLD_EPSILON} certifies δ: ε(δ) is beyond this kind's range (or the truncated "
                         f"mass exceeds δ); ask for δ at given ε instead ({option('epsilons')}), fewer steps, "
                         f"more noise or a larger δ")
    if hi == 0:
        return Outcome("pld", epsilon_lo=mpq(0), epsilon_hi=mpq(0), lower_order=None), True
    order = attempt.leading_order(hi)
    attempt.compose_lower(order)
    profile = attempt.lower[order][0]
    margin = attempt.lower_margin(order, hi, delta)
    lo = largest_lower(profile.value, delta + margin, step, float(hi))
    met = hi - lo <= R * hi
    return Outcome("pld", epsilon_lo=lo, epsilon_hi=hi, lower_order=order if lo > 0 else None), met


def _points_answer(attempt, request):
    R = request.rel_width
    sig = _significant(R)
    points, met = [], True
    for eps in request.epsilons:
        up = attempt.upper_bound(eps)
        order = attempt.leading_order(eps)
        attempt.compose_lower(order)
        low = attempt.lower[order][0].value(eps)
        low = low - attempt.lower_margin(order, eps, low) if low > 0 else mpq(0)
        point = short_point(eps, low, up + attempt.upper_margin(up), sig, order)
        points.append(point)
        met = met and (point.upper - point.lower <= R * point.upper or point.upper <= NEGLIGIBLE)
    return Outcome("pld", points=points), met


def _is_gaussian(request):
    return all(s.law.gaussian_mu2 is not None for s in request.stages)


def refusals(request):
    """Make every refusal :func:`certify` makes before its work, and nothing more: a batch of requests (a
    privacy curve) is checked whole before any of them is computed.  The Gaussian route's ε limit costs one
    enclosure; the pld route's checks are those of constructing :class:`producer.pld.search.Search`."""
    if _is_gaussian(request):
        _check_gaussian_range(request, _GaussianEnds(request))
    else:
        Search(request, Sizing(request.stages))


def certify(request, log=lambda message: None, route=None):
    """The :class:`Outcome` of a validated request (producer.kinds.dpsgd.Request, producer.kinds.accounting.Request).

    The request has ``stages`` (:class:`producer.pld.mechanism.Stage`),
    ``delta`` or ``epsilons``, ``rel_width`` and ``schema`` (named in
    refusals).  ``route`` forces "pld" or "gaussian" (tests compare the two
    on Gaussian schedules); by default Gaussian-only schedules (every law a
    Gaussian mechanism) take the closed form.
    Every refusal a request can meet before the work is made before it: the
    Gaussian route's ε limit, the pld route's first plan (:class:`Search`).
    """
    gaussian = _is_gaussian(request)
    if route is None:
        route = "gaussian" if gaussian else "pld"
    if route == "gaussian":
        if not gaussian:
            raise ValueError("the closed form holds for Gaussian-only schedules (q = 1)")
        return _gaussian(request, log)
    sizing = Sizing(request.stages)
    search = Search(request, sizing)
    plan = search.first
    for attempt_number in range(MAX_ATTEMPTS):
        plan = search.aligned(plan)   # a coarse tail's grid N/ρ is an integer
        ranges = search.admit(plan)
        log(f"attempt {attempt_number + 1}: {plan}")
        attempt = _Attempt(request, plan, log, sizing)
        attempt.prepare(ranges)
        attempt.compose_upper()
        if request.delta is not None:
            outcome, met = _delta_answer(attempt, request, sizing)
            ratio = float((outcome.epsilon_hi - outcome.epsilon_lo) / (request.rel_width * outcome.epsilon_hi)) \
                if outcome.epsilon_hi > 0 else 0.0
            tau = plan.tau
        else:
            outcome, met = _points_answer(attempt, request)
            # a point whose lower end is 0 lacks precision or truncation depth (τ below), not grid
            ratios = [float((p.upper - p.lower) / (request.rel_width * p.upper)) for p in outcome.points
                      if p.lower > 0]
            ratio = max(ratios, default=AIM)
            smallest = min((float(p.upper) for p in outcome.points if p.upper > 0), default=1.0)
            tau = min(plan.tau, float(request.rel_width) * max(smallest, float(NEGLIGIBLE)) / TRUNCATION_SHARE)
        if met:
            outcome.plan, outcome.ranges = plan, attempt.ranges
            outcome.windows, outcome.regrids, outcome.split = attempt.windows, attempt.regrids, attempt.split
            excess = recipe_excess(request, outcome)
            if excess:  # a backstop: every plan was checked before its attempt
                raise LimitError(f"the certificate's recipe would exceed the auditor's limits ({'; '.join(excess)}); "
                                 f"ask for a larger {option('rel_width')} or fewer steps")
            return outcome
        log(f"width {ratio:.3g}× the requested one; refining")
        if attempt_number + 1 < MAX_ATTEMPTS:
            # an ε(δ) at or above the ε_cap the precisions were sized for: the next plan is sized for it
            cap = None
            if request.delta is not None and outcome.epsilon_hi >= plan.epsilon_cap:
                cap = min(1.25 * float(outcome.epsilon_hi) + 1, MAX_EPSILON_CAP)
                ratio = min(ratio, 1.0)  # the lower end lacked precision (e^ε beyond the cap), not grid
            plan = search.refine(plan, ratio, tau, cap)
    raise LimitError(f"could not reach the relative width {float(request.rel_width):g} in {MAX_ATTEMPTS} attempts: "
                     f"at h = 1/{plan.grid} the width was {ratio:.3g} times it; "
                     f"{suggest_width(ratio * float(request.rel_width))}"
                     f"{epsilons_instead(ratio * float(request.rel_width), request)}")


__all__ = ["certify", "refusals", "Outcome", "DeltaPoint", "round_out", "short_point", "MAX_WORK", "FORWARD",
           "BACKWARD"]
