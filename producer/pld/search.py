"""The attempts of the pld route: the first plan, each refinement, and what the whole search may cost.

Nothing chosen here is a claim (any plan gives valid bounds).  What is
decided here is whether a request is answered at all, and how much work it
may take; both are decided before the work they bound, in one line naming
the limit and the option that would answer instead.

Work.  An attempt costs the composition (entries × bits over the products of
the chains, a float estimate: :func:`composition_work`, or for a plan that
regrids the chains predicted product by product, :class:`Chains`) and the
single-step masses: every bucket of every stage is enclosed with arb at the
working precision, about :data:`MASS_COST` work units per bucket and bit
(measured: about 2·10^-7 s a bucket-bit against about 1.4·10^-9 s a unit of
the composition).  The buckets and the precision of a plan are not
estimates: the ranges come from the plan alone (:func:`stage_ranges`,
exactly as the attempt computes them).

Budget.  All the attempts of one request together may cost at most
:data:`MAX_WORK` (about a minute of one core).  An expensive first plan is
probed at a coarser grid first (:meth:`Search._probe`).  The first attempt is
checked before any work; every refinement is cut to what the budget has left, and
when no grid finer than the last one fits, the search stops with a refusal
naming ``--rel-width`` instead of starting an attempt it cannot pay for.
The next grid is planned by the h² law, or, from the third attempt on, by
the slower rate the last two attempts measured (:meth:`Search.rate`); only
the h² law decides that no affordable grid can reach the width.
For a single step the width is predicted exactly enough
(:mod:`producer.pld.one_step`) that the first plan is the final one, and a
width out of reach is refused before any work, with the width the finest
admissible grid would reach.

The auditor's limits.  The auditor answers UNCHECKED, before any work, a
recipe beyond the limits stated in docs/certificates.md (dpsgd/1):
Σ (hi − lo + 1) <= 2·10^6 buckets, the mass precision <= 4096 bits (the
retry's 64 guard bits included), every window and product <= 2^22 entries,
2^K >= 4·ΣT·(3n + 3), |lo|, |hi| <= 1024·N, and the file's budget ("The
budget of one file"): with W_s the working bits of stage s (without the
retry's guard bits), parts_s the bits of q_s's and σ_s's numerators and
denominators, and for every product of the chains checked (the upper chains
of both orders at scale K, the lower chains of the orders a claim names at K
and K′) f = 2·(scale + 2) + bits(min(n_A, n_B)),

    work   = 160·Σ_s n_s·(W_s + W_s²/1024 + parts_s/4) + 3·Σ (n_A + n_B)·f,
    memory = max(Σ_s n_s·(1024 + 2·W_s),
                 Σ_s 6·(n_s + 1)·(64 + max(K, K′)/8) + max (n_A + n_B − 1)·(384 + f/2)),

all divisions rounding down (:func:`budget_cost`, exact on a finished
recipe).  They are restated here (:class:`Cost`) and checked for every plan
before its attempt — the products' lengths then estimated from the plan, both
orders' lower chains counted — and once more on the finished recipe
(:func:`recipe_excess`; the budget on the sealed certificate,
:func:`certificate_cost`).  A recipe within
:data:`producer.audit_budget.MAX_MULTIPLE` budgets is written, and its
certificate names the ``auditor verify --budget N`` that checks it; beyond,
it is refused.  (The auditor's former separate limits, buckets × precision
<= 6·10^8 and a convolution work <= 4·10^11, are replaced by the budget.)
"""

import math

from gmpy2 import mpq

from producer import audit_budget
from producer.errors import LimitError
from producer.pld import composition as comp
from producer.pld import split as splits
from producer.pld.regrid import MAX_SPACING, SHARE_EXTRA_BITS, powers_made, within
from producer.pld.regrid import savings as regrid_savings
from producer.pld.gaussian import delta_enclosure, proves_below
from producer.pld.mechanism import FORWARD, ORDERS
from producer.pld.one_step import OneStep, aligned_grids, meets, predict
from producer.pld.parameters import AIM, MAX_GRID, MIN_GRID, SPREAD, TRUNCATION_SHARE, make_plan
from producer.rationals import describe_rational
from producer.names import option

MIN_RATE = 0.25              # the slowest width ∝ h^p a measured rate plans by
MAX_WORK = 4 * 10**10        # work units over all attempts of one request (about a minute)
MASS_COST = 200              # work units per bucket and bit of the single-step masses
NEGLIGIBLE_FLOAT = 1e-30     # a point with upper <= 10^-30 needs no relative width
FLOOR_DIGITS = 100           # δ(ε) <= 10^-100 is written as the upper end 10^-100
FLOOR_DELTA = 1e-20          # the first plan sizes its truncation for δ(ε) >= this (then it refines)
FEW_STEPS = 64               # below this many steps the first grid is at most COARSE_GRID points per unit loss
COARSE_GRID = 400
PROBE_ABOVE = MAX_WORK // 16  # a first plan above this many work units is probed at a coarser grid first
PROBE_WORK = MAX_WORK // 32   # ... at the finest halving of its grid that costs at most this
MAX_EPSILON_ESTIMATE = 2000  # a Gaussian estimate of ε(δ) beyond this is refused before the work (AUDIT_EPSILON)
MAX_EPSILON_CAP = 800        # the largest ε the precisions are sized for
PLD_EPSILON = 600            # ε(δ) is searched up to here (the truncation is sized for e^ε <= e^600)

AUDIT_EPSILON = 2000         # the auditor evaluates no ε above this
AUDIT_BUCKETS = 2 * 10**6
AUDIT_PRECISION = 4096
AUDIT_LOSS = 1024            # |lo|, |hi| <= 1024·N
AUDIT_RETRY = 64             # the auditor's retry adds these guard bits
PRODUCT_UNITS = 3            # the budget's work units per entry and field bit of a product
REGRID_BITS = 256            # a regrid: (n + n_base)·(scale + S + this) entry-bits of a product
SHARES_WORK = 10**8          # the auditor's work units for confirming one regrid's shares
REGRID_ABOVE = 10**9         # a one-stage composition estimated at this many work units (about 1.5 s) regrids
PROFILE_UNITS = 1000         # work units per entry of the lower profile (a Python loop over the window)


# ---- the first plan and the refinement (float sizing) ----------------------------

def composition_work(sizing, plan):
    """(entries of the largest composed array, work units of the composition) of a plan, in floats."""
    entries, work, lower = _composition(sizing, plan)
    if _regrids(sizing, work):  # they shorten the later products (the largest entries stay at most this)
        z = _tail_z(plan)
        work *= regrid_savings(sizing.stages[0].steps, lambda share: 2 * z * math.sqrt(sizing.mu2 * share)
                               + plan.epsilon_cap + 2)
    return entries, work + PROFILE_UNITS * lower


def uses_regrids(sizing, plan):
    """Whether an attempt at ``plan`` coarsens its power's grid (:mod:`producer.pld.regrid`): one stage, and a
    composition of at least :data:`REGRID_ABOVE` work units without regrids (a cheaper one keeps the finer
    answer: the regrids widen it a little and save little there)."""
    return _regrids(sizing, _composition(sizing, plan)[1])


def uses_split(sizing, plan):
    """Whether an attempt at ``plan`` splits its single step by tail steps (:mod:`producer.pld.split`): where it
    regrids, with T >= 3.  The chains compose the body's T − 1 steps and one product more: for odd T that is the
    power of T itself; for an even T the power of T − 1 regrids at other products, which widens the interval a
    little (measured: docs/benchmarks.md, "The split for even T")."""
    return uses_regrids(sizing, plan) and sizing.stages[0].steps >= 3


def _regrids(sizing, work):
    return len(sizing.stages) == 1 and work >= REGRID_ABOVE


def _tail_z(plan):
    return math.sqrt(2 * math.log(max(1 / plan.tau, 2.0)))


def _composition(sizing, plan):
    """(entries of the largest array, product work units without regrids, entries the lower profile reads)."""
    spread = 2 * _tail_z(plan) * math.sqrt(sizing.mu2) + plan.epsilon_cap + 2
    entries = spread * plan.grid
    products = sum(2 * max(1, s.steps.bit_length()) for s in sizing.stages) + len(sizing.stages)
    # four chains: two upper at K bits, and the lower P at K bits and Q at K' bits, whose window also holds the
    # Q-array's mass, about twice the composed loss's mean below the P-array's (:func:`mean_separation`), and
    # which the lower profile then reads entry by entry
    lower = entries + mean_separation(sizing) * plan.grid
    work = (2 * entries * (2 * plan.p_bits + 24) + lower * (2 * plan.p_bits + 2 * plan.q_bits + 48)) * products
    return entries, work, lower


def lower_entries(sizing, plan):
    """The entries of the lower chain's longest product, in floats: its Q-array keeps tails down to τ·e^-ε_cap
    (``producer.pld.enclose._Attempt._lower_chooser``), so its spread is that of the truncation τ·e^-ε_cap.
    (Measured at T = 10^6: 3.46·10^6 estimated against 3.38·10^6 at q = 10^-3, σ = 1, h = 1/106000; 5.05·10^6
    against 4.97·10^6 at σ = 0.6, h = 1/43900.)"""
    tail = math.log(max(1 / plan.tau, 2.0)) + min(plan.epsilon_cap, 600)
    # the window holds the P-array's mass and the Q-array's (:func:`mean_separation`): where the
    # composed loss's mean is far above its spread (δ near 1, e.g. T = 38 940 replace-one Laplace steps of b = 0.7:
    # a mean of 74 554, 1.98·10^7 entries at h = 1/130) the window is about twice the mean wide
    return (2 * math.sqrt(2 * tail) * math.sqrt(sizing.mu2) + mean_separation(sizing) + plan.epsilon_cap + 2) \
        * plan.grid


def mean_separation(sizing):
    """About how far apart in loss the lower chains' P- and Q-arrays hold their mass: twice the composed loss's
    mean (centred near +mean and −mean), the width their common window adds to the upper window's."""
    return 2 * abs(sizing.mean)


def first_plan(request, sizing):
    """The first :class:`Plan` of a request on the Gaussian model (float sizing: every choice is a hint).

    The Gaussian approximation can be far off for few steps (a single step's
    tail is not Gaussian) or far in the tail; such a first plan starts from
    a coarse grid (coarsened further until its composition is a quarter of
    the budget), and the search refines from the certified widths.
    Otherwise the plan is what the width needs.
    """
    R, T = float(request.rel_width), sizing.steps
    if request.delta is not None:
        slope, eps = sizing.epsilon_slope(request.delta)
        width = AIM * float(R) * max(eps, 1e-6)
        h = math.sqrt(width / (slope * SPREAD * T))
        tau = float(request.delta) * R / TRUNCATION_SHARE
        if eps > MAX_EPSILON_ESTIMATE:
            raise LimitError(f"ε({float(request.delta):g}) would be about {eps:.3g} (a Gaussian estimate), far beyond "
                             f"the ε <= 500 this kind handles; ask for δ at given ε instead ({option('epsilons')}, "
                             f"each ε <= 500), fewer steps or more noise")
        # the precisions are sized for e^ε up to the cap: the GDP form's ε, or the estimate from the loss's own
        # mean where that is larger (a loss far from N(μ²/2, μ²), e.g. the Laplace mechanism at small b)
        cap = min(1.25 * max(eps, sizing.epsilon_estimate(request.delta)) + 1, MAX_EPSILON_CAP)
    else:
        slopes = [sizing.log_delta_slope(e) for e in request.epsilons]
        h = min(math.sqrt(AIM * R / (s * SPREAD * T)) for s, _ in slopes)
        tau = R * min(max(d, FLOOR_DELTA) for _, d in slopes) / TRUNCATION_SHARE
        cap = float(max(request.epsilons))
    unreliable = T < FEW_STEPS or (request.delta is None and min(d for _, d in slopes) < 1e-10)
    if unreliable:
        h = max(h, 1 / COARSE_GRID)  # start coarse, refine from the certified width
    plan = plan_at(sizing, h, tau, cap)
    while unreliable and composition_work(sizing, plan)[1] > MAX_WORK / 4 and plan.grid > 64:
        plan = plan_at(sizing, 1.5 / plan.grid, tau, cap)
    return plan


def plan_at(sizing, h, tau, cap, grid=None):
    """The plan of grid spacing h (or the ``grid`` N itself), truncation τ and ε_cap."""
    z = math.sqrt(2 * math.log(max(1 / tau, 2.0)))
    return make_plan(sizing, h, tau, cap, 2 * z * math.sqrt(sizing.mu2) + cap + 2, grid=grid)


def refined(plan, sizing, ratio, tau, cap=None, reach=16, exponent=2.0):
    """The next plan by the law width ∝ h^exponent (the h² law unless a measured rate says slower): the width was
    ``ratio`` times the requested one (``cap``: a new ε_cap), at most ``reach`` times finer."""
    h = float(plan.h) * (AIM / max(ratio, 1e-9)) ** (1 / exponent)
    h = min(h, float(plan.h) / 1.05)
    h = max(h, float(plan.h) / reach)
    return plan_at(sizing, h, tau, plan.epsilon_cap if cap is None else cap)


# ---- what a plan costs, and the auditor's limits ---------------------------------

def stage_ranges(stages, plan):
    """Per stage (lo, hi): the single-step buckets of a plan, before any mass."""
    return [stage.law.index_range(plan.grid, plan.tail) for stage in stages]


def mass_precision(plan, lo, hi):
    """The working precision of one stage's masses (the attempt starts here)."""
    return plan.q_bits + 64 + plan.grid.bit_length() + math.ceil(max(abs(lo), hi) * 1.5 / plan.grid)


def working_bits(stage, grid, p_bits, q_bits, lo, hi):
    """W_s: the auditor's working bits of one stage's masses, without the retry's guard bits.

    The guard's q and s are the law's :meth:`audit_scale` (for DP-SGD: q and σ)."""
    # ⌈1.45·max(|lo|, |hi| + 1)/N⌉ in docs/certificates.md; the auditor's estimates of the reference recipes
    # are one more (measured), so one more is counted, as ⌊·⌋ + 2 (never below either reading)
    spread = 145 * max(abs(lo), abs(hi) + 1) // (100 * grid) + 2
    base = max(q_bits + 8, p_bits + 8 + grid.bit_length() + spread)
    q, s = stage.law.audit_scale()
    guard = 24 + int(q.denominator // q.numerator).bit_length() + 2 * int(s.numerator // s.denominator + 1).bit_length()
    return base + guard


def audit_precision(stage, plan, lo, hi):
    """The auditor's mass precision for one stage (docs/certificates.md), its retry included."""
    return working_bits(stage, plan.grid, plan.p_bits, plan.q_bits, lo, hi) + AUDIT_RETRY


def _parts(stage):
    """parts_s: the bits of the numerators and denominators of the law's parameters (DP-SGD: q and σ)."""
    return sum(int(v).bit_length() for p in stage.law.parameters() for v in (p.numerator, p.denominator))


def mass_parts(stages, grid, ranges, tail=None):
    """[(stage, grid, lo, hi)]: the buckets whose masses a recipe encloses, per stage its range on the grid N; a
    coarse split's ``tail`` (c, ρ) makes the one stage two parts, [lo, c] on N and [c/ρ, hi/ρ] on N/ρ."""
    if tail is None:
        return [(st, grid, lo, hi) for st, (lo, hi) in zip(stages, ranges)]
    (c, ratio), (st,), ((lo, hi),) = tail, stages, ranges
    return [(st, grid, lo, c), (st, grid // ratio, c // ratio, hi // ratio)]


def budget_cost(stages, grid, p_bits, q_bits, ranges, products, longest=None, regrids=(), shares=0, tail=None):
    """The auditor's budget estimate (docs/certificates.md, dpsgd/1 and accounting/1) of a recipe: single-step
    ``ranges`` [(lo, hi)] per stage and ``products`` [(n_A, n_B, scale)], one per product of a chain checked at
    a scale; ``longest`` the longest array (by default the longest product; every window lies within its
    product); ``tail`` a coarse split's (c, ρ) (:func:`mass_parts`).  Each law states its work units per bucket
    (:meth:`audit_mass_units`; 160 for DP-SGD's)."""
    parts = mass_parts(stages, grid, ranges, tail)
    sizes = [hi - lo + 1 for _, _, lo, hi in parts]
    bits = [working_bits(st, n, p_bits, q_bits, lo, hi) for st, n, lo, hi in parts]
    masses = sum(st.law.audit_mass_units() * n * (w + w * w // 1024 + _parts(st) // 4)
                 + st.law.audit_atom_work(w, _parts(st)) for n, w, (st, *_) in zip(sizes, bits, parts))
    convolution, largest = 0, 0
    for n_a, n_b, scale in products:
        field = 2 * (scale + 2) + min(n_a, n_b).bit_length()
        convolution += PRODUCT_UNITS * (n_a + n_b) * field
        largest = max(largest, (n_a + n_b - 1) * (384 + field // 2))
    for n, base, scale, share_bits in regrids:  # (the power's and the base's entries, scale, S) of each regrid
        convolution += PRODUCT_UNITS * (n + base) * (scale + share_bits + REGRID_BITS)
        largest = max(largest, (n + base) * (384 + scale + 2))
    convolution += PRODUCT_UNITS * -(-SHARES_WORK * shares // PRODUCT_UNITS)  # confirming the regrids' shares
    memory = max(sum(n * (1024 + 2 * w) for n, w in zip(sizes, bits)),
                 sum(6 * (n + 1) * (64 + max(p_bits, q_bits) // 8) for n in sizes) + largest)
    what = "the single-step masses" if masses >= convolution else "the convolutions"
    advice = f"a larger {option('rel_width')}, fewer steps or fewer stages"  # named where it is read
    if longest is None:
        longest = max((n_a + n_b - 1 for n_a, n_b, _ in products), default=0)
    return audit_budget.AuditCost(masses + convolution, memory, what, advice, longest if products else 0)


def _products(stages):
    return sum(comp.products_of(s.steps) for s in stages) + len(stages) - 1


def _estimated_products(count, entries, p_bits, q_bits):
    """The products of a plan before its attempt, every one at the estimated largest array (the windows are
    not known yet): the upper chains of both orders at K, the lower chains of both orders at K and K′."""
    n = int(math.ceil(entries))
    return [(n, n, p_bits)] * (4 * count) + [(n, n, q_bits)] * (2 * count)


def coarse_ratio(stages, sizing, plan):
    """ρ = r·G, the cross term's grid over h, of an attempt at ``plan`` whose split can enclose its tail's masses
    on that grid (:mod:`producer.pld.split`: where it splits, the law's masses allow a cut anywhere, and the
    grid ρ·h is at most :data:`producer.pld.regrid.MAX_SPACING`); else None."""
    if not uses_split(sizing, plan) or not stages[0].law.splits_anywhere:
        return None
    h, steps = mpq(1, plan.grid), stages[0].steps
    ratio = splits.FACTOR * math.prod(f for _, f in within(steps - 1, h, finest=steps))
    return ratio if h * ratio <= MAX_SPACING else None


class Chains:
    """The chains of an attempt at a plan that regrids (one stage of T >= 2 steps), predicted from the plan alone:
    its split, its regrids and every product's window, replayed as a finished recipe's are
    (:func:`_product_lengths`).  Floats and hints: what they decide is how much an attempt may cost, never a bound.

    The split and the regrids are the attempt's own (:func:`producer.pld.split.cut` at the attempt's allowance,
    :func:`producer.pld.regrid.within`; a coarse tail where the grid is a multiple of ρ, :meth:`Search.aligned`).
    The window after the product making p of the chain's S steps keeps the mass above about e^−D (upper chains:
    D = log(1/τ); lower chains, whose Q-array keeps tails down to τ·e^−ε_cap: D = log(1/τ) + ε_cap).  It spans, in
    loss, at most p·B (B the body's loss range: p copies of it) and at most 2·√(2D·μ²·p/S) + k·B: the composed
    law's spread at that depth, plus k steps far in the body, each of P-mass about the split's allowance m,
    k = 1 + ⌈D/log(1/m)⌉ (at a depth of 200 the lower chains keep sums of about eight far steps); the lower
    chains' Q-array holds its mass about 2·|mean|·p/S lower.  Against the recorded windows of ten requests (q
    from 10^-7 to 10^-2, σ from 0.3 to 2, T from 10^3 to 10^6, ε_cap from 1 to 177; docs/benchmarks.md, "The
    planner's estimate of the chains") the auditor's estimate comes out 1.4 to 2.3 times the certificate's.
    """

    __slots__ = ("ranges", "tail", "buckets", "mass_bits", "work", "audit", "longest")

    def __init__(self, stage, sizing, plan, lo, hi):
        h, steps = mpq(1, plan.grid), stage.steps
        split = uses_split(sizing, plan)
        regrids = within(steps - split, h, finest=steps)
        ratio = coarse_ratio([stage], sizing, plan)
        coarse = ratio is not None and plan.grid % ratio == 0
        ratio = ratio or 1
        top = -(-hi // ratio) * ratio if coarse else hi
        c = splits.cut(stage.law, h, lo, top, ratio if coarse else 1, splits.allowance(plan.tau, steps) / 2) \
            if split else None
        if c is None:  # no split: the whole step, T steps
            split = coarse = False
            top, c, regrids = hi, hi, within(steps, h, finest=steps)
        self.ranges, self.tail = [(lo, top)], (c, ratio) if coarse else None
        parts = [(lo, c), (c // ratio, top // ratio)] if coarse else [(lo, hi)]
        self.buckets = sum(b - a + 1 for a, b in parts)
        self.mass_bits = self.buckets * mass_precision(plan, lo, top)
        windows = self._windows(sizing, plan, steps - split, split, regrids, (c - lo) / plan.grid)
        bits = plan.p_bits + SHARE_EXTRA_BITS
        regrids = [(k, f, bits) for k, f in regrids]
        products, coarsened, self.work = [], [], 0.0
        for order in ORDERS:
            body = None if not split else ((lo, c) if order == FORWARD else (-c, -lo), splits.FACTOR, bits,
                                           order == FORWARD, ratio if coarse else None)
            for lower, scales in ((False, (plan.p_bits,)), (True, (plan.p_bits, plan.q_bits))):
                chain = {"stages": [windows[lower]], "combine": []}
                for n_a, n_b, g in _product_lengths([stage], self.ranges, chain, regrids, not lower, body):
                    for scale in scales:
                        if g is None:
                            products.append((n_a, n_b, scale))
                        else:
                            coarsened.append((n_a, n_b, scale, g))
                        if order == FORWARD or not lower:  # the producer's lower side: one order
                            self.work += (max(n_a, n_b) if g is None else n_a + n_b) * (2 * scale + 24)
        self.work += PROFILE_UNITS * (windows[True][-1][1] + 1)
        self.longest = max(n_a + n_b - 1 for n_a, n_b, _ in products)
        self.audit = budget_cost([stage], plan.grid, plan.p_bits, plan.q_bits, self.ranges, products,
                                 regrids=coarsened, shares=len(regrids) + split, tail=self.tail)

    @staticmethod
    def _windows(sizing, plan, steps, split, regrids, body):
        """{lower: [(0, n − 1)]}: each product's predicted window on its grid (the split's last product's too)."""
        depth = {False: math.log(max(1 / plan.tau, 2.0))}
        depth[True] = depth[False] + min(plan.epsilon_cap, PLD_EPSILON)
        per_step = -math.log(splits.allowance(plan.tau, steps + split))
        factors, grid, out = dict(regrids), 1, {False: [], True: []}
        made = list(powers_made(steps)) + ([steps + 1] if split else [])
        for k, p in enumerate(made):
            share = p / (steps + split)
            for lower in (False, True):
                far = 1 + math.ceil(depth[lower] / per_step)
                spread = 2 * math.sqrt(2 * depth[lower] * sizing.mu2 * share) + far * body \
                    + (2 * abs(sizing.mean) * share if lower else 0.0)
                out[lower].append((0, math.ceil(min(p * body, spread) * plan.grid / grid) + 2))
            grid *= factors.get(k, 1)
        return out


class Cost:
    """What one attempt at a plan takes: its ranges, buckets, precisions, work units; and the limits it breaks."""

    __slots__ = ("plan", "ranges", "chains", "buckets", "mass_bits", "entries", "work", "excess", "multiple",
                 "audit_what", "longest")

    def __init__(self, stages, sizing, plan):
        self.plan = plan
        self.ranges = stage_ranges(stages, plan)
        self.chains = Chains(stages[0], sizing, plan, *self.ranges[0]) \
            if uses_regrids(sizing, plan) and stages[0].steps >= 2 else None
        sizes = [hi - lo + 1 for lo, hi in self.ranges]
        products = _products(stages)
        if self.chains is not None:
            self.buckets, self.mass_bits = self.chains.buckets, self.chains.mass_bits
            self.entries = self.longest = self.chains.longest
            composition = self.chains.work
        else:
            self.buckets = sum(sizes)
            self.mass_bits = sum(n * mass_precision(plan, lo, hi) for n, (lo, hi) in zip(sizes, self.ranges))
            entries, composition = composition_work(sizing, plan)
            self.entries = max(entries, 2 * max(sizes)) if products else max(sizes)
            self.longest = max(self.entries, lower_entries(sizing, plan)) if products else self.entries
        self.work = composition + MASS_COST * self.mass_bits
        self.excess = self._audit(stages, products)

    def _audit(self, stages, products):
        """Phrases naming the auditor's limits this plan would break (none: the auditor can check it)."""
        plan, out = self.plan, []
        precisions = [audit_precision(s, plan, lo, hi) for s, (lo, hi) in zip(stages, self.ranges)]
        loss = max(max(abs(lo), abs(hi)) for lo, hi in self.ranges)
        if self.buckets > AUDIT_BUCKETS:
            out.append(f"{self.buckets:.3g} single-step buckets (the auditor's limit: 2·10^6)")
        if max(precisions) > AUDIT_PRECISION:
            out.append(f"a mass precision of {max(precisions)} bits (the auditor's limit: 4096)")
        if loss > AUDIT_LOSS * plan.grid:
            out.append(f"losses up to {loss / plan.grid:.4g} (the auditor's limit: 1024)")
        if 2 ** plan.p_bits < 4 * sum(s.steps for s in stages) * (3 * self.entries + 3):
            out.append(f"K = {plan.p_bits} bits, too few for arrays of {self.entries:.3g} entries")
        cost = self.chains.audit if self.chains is not None else \
            budget_cost(stages, plan.grid, plan.p_bits, plan.q_bits, self.ranges,
                        _estimated_products(products, self.entries, plan.p_bits, plan.q_bits), math.ceil(self.longest))
        self.multiple = audit_budget.multiple(cost)
        by_size = audit_budget.multiple(audit_budget.AuditCost(cost.work, cost.memory))
        self.audit_what = (cost.what if self.multiple == by_size
                           else f"arrays of about {self.longest:.3g} entries (2^22 for each budget)")
        return out

    def broken(self, spent=0.0, effort=1):
        """Every limit an attempt at this plan would break at the request's opt-in ``effort``, as phrases."""
        limit, writable = MAX_WORK * effort, audit_budget.writable(effort)
        over = [f"about {self.work:.2g} work units (the work limit: {limit:.0e} for the whole search"
                + (f", {limit - spent:.2g} left" if spent else "") + ")"] if spent + self.work > limit else []
        if self.multiple > writable:
            over.append(f"about {self.multiple} times the auditor's budget of one file for {self.audit_what} (the "
                        f"producer writes up to {writable})")
        return over + self.excess

    def effort_needed(self, spent=0.0):
        """The least opt-in effort that admits this plan after ``spent`` work units, or None (none does, or a
        limit no effort raises is broken)."""
        if self.excess:
            return None
        n = max(1, math.ceil((spent + self.work) / MAX_WORK), -(-self.multiple // audit_budget.MAX_MULTIPLE))
        return n if n <= audit_budget.MAX_EFFORT else None


# ---- the search ----------------------------------------------------------------------

class Search:
    """The attempts of one pld request within one budget: :attr:`first`, then :meth:`refine` after each miss.

    Constructing it makes every check that precedes the work: the first plan
    within the budget and the auditor's limits, and, for a single step, the
    predicted width within reach.
    """

    def __init__(self, request, sizing):
        self.request, self.sizing = request, sizing
        self.effort = request.effort   # the request's opt-in multiple of the limits
        self.spent = 0.0
        if request.delta is not None:
            self._check_epsilon_range()
        self.widths = []        # (grid, width ratio) of every attempt so far, for the measured rate (:meth:`rate`)
        self.model = None       # the model's plan while its probe runs first (:meth:`_probe`); None beyond a limit
        self.model_grid = None  # that plan's grid while its probe runs first
        if request.delta is None and sizing.steps == 1:
            plan = self._one_step_plan()
        else:
            plan = self._probe(first_plan(request, sizing))
        plan = self.aligned(plan)
        cost = self._cost(plan)
        broken, more = cost.broken(0.0, self.effort), self._more_effort(cost)
        if broken:
            raise LimitError(f"the first attempt (h = 1/{plan.grid}) would need {' and '.join(broken)}; ask for a "
                             f"larger {option('rel_width')}" + (f", fewer steps{more}" if more else " or fewer steps"))
        self.first = plan

    def _probe(self, plan):
        """The first attempt: ``plan`` itself, or a coarser probe when ``plan`` is expensive or out of reach.

        The Gaussian model prices the grid's cost as if every step's loss were spread over many grid
        points; where most steps' losses lie within a grid step of 0 (small sampling rates) the real width
        is far below the model's, which can ask for a grid tens of times finer than needed (q = 10^-5,
        σ = 0.4, T = 10^4 at width 10^-3: the model's h = 1/69100 where h = 1/1870 is enough).  So a plan
        costing more than :data:`PROBE_ABOVE` work units (or beyond a limit) is first tried at the finest
        grid, halving the model's, that costs at most :data:`PROBE_WORK`; its certified width then sizes
        the next plan by the h² law, and the model's plan, when within the limits, caps it (:meth:`refine`).
        """
        cost = self._cost(plan)
        if cost.work <= PROBE_ABOVE and not self._beyond(cost):
            return plan
        grid = plan.grid
        while grid // 2 >= COARSE_GRID:
            grid //= 2
            probe = plan_at(self.sizing, 1 / grid, plan.tau, plan.epsilon_cap, grid=grid)
            probe_cost = self._cost(probe)
            if probe_cost.work <= PROBE_WORK and not self._beyond(probe_cost):
                self.model = None if cost.broken(0.0, self.effort) else plan
                self.model_grid = plan.grid
                return probe
        return plan

    def _check_epsilon_range(self):
        """Refuse an ε(δ) above what the pld route certifies (about 600), unless proved below it.

        Proved: when every stage has a dominating Gaussian mechanism (for
        DP-SGD, the schedule with every q raised to 1, whose δ(ε) is at least
        this one's: the hockey-stick divergence is jointly convex and the
        subsampled pair a mixture), its closed form at ε = 600 costs one
        enclosure.  Estimated: a Gaussian loss with the composed loss's mean
        and variance.
        """
        delta = self.request.delta
        estimate = self.sizing.epsilon_estimate(delta)
        if estimate <= PLD_EPSILON:
            return
        dominating = [s.law.dominating_mu2 for s in self.request.stages]
        if all(m is not None for m in dominating):
            mu2 = sum((s.steps * m for s, m in zip(self.request.stages, dominating)), mpq(0))
            if proves_below(mu2, PLD_EPSILON, FLOOR_DIGITS) or \
                    delta_enclosure(mu2, PLD_EPSILON, mpq(1, 2**20))[1] <= delta:
                return
        raise LimitError(f"{option('delta')}: ε({describe_rational(delta)}) would be about {estimate:.3g} (a Gaussian "
                         f"estimate), above the ε <= {PLD_EPSILON} the certified PLD reaches; ask for δ at given ε "
                         f"instead ({option('epsilons')}, each ε <= 500), or for a larger δ, more noise or fewer steps")

    def _cost(self, plan):
        return Cost(self.request.stages, self.sizing, self.aligned(plan))

    def _beyond(self, cost):
        """Whether ``cost`` breaks one of the auditor's limits (its budget at this request's opt-in effort included)."""
        return bool(cost.excess) or cost.multiple > audit_budget.writable(self.effort)

    def _fits(self, cost):
        return not self._beyond(cost) and self.spent + cost.work <= MAX_WORK * self.effort

    def _more_effort(self, cost):
        """The end of a refusal naming the opt-in ``--effort`` that admits ``cost`` (or, without one, "")."""
        n = cost.effort_needed(self.spent)
        if n is None or n <= self.effort:
            return ""
        return (f", or opt in to {option('effort', str(n))} ({n} times the search's work limit, and a certificate "
                f"of up to {audit_budget.writable(n)} times the auditor's budget, which names the `auditor verify "
                f"--budget` that checks it)")

    def aligned(self, plan):
        """The plan an attempt at ``plan`` is made at: its grid N rounded to a multiple of ρ where its split can
        enclose a coarse tail (:func:`coarse_ratio`: the tail's grid N/ρ must be an integer), up, or down where up
        would pass the finest grid :data:`MAX_GRID` (ρ <= N there); else ``plan``.  Every cost of a plan is that
        of this one (:meth:`_cost`)."""
        ratio = coarse_ratio(self.request.stages, self.sizing, plan)
        if ratio is None or plan.grid % ratio == 0:
            return plan
        grid = -(-plan.grid // ratio) * ratio
        if grid > MAX_GRID:
            grid -= ratio
        return plan_at(self.sizing, 1 / grid, plan.tau, plan.epsilon_cap, grid=grid)

    def admit(self, plan):
        """Charge an attempt at ``plan`` to the budget; its single-step ranges (computed once, here)."""
        cost = self._cost(plan)
        if not self._fits(cost):  # the first plan and every refinement were checked; a bug, not a request
            raise LimitError(f"an attempt at h = 1/{plan.grid} would overrun the work limit")
        self.spent += cost.work
        return cost.ranges

    def rate(self, grid, ratio):
        """The exponent p of width ∝ h^p that the last two attempts measured, within [MIN_RATE, 2] (2 before).

        Where most steps' losses lie within a grid step of 0 (sampling rates far below h), connect-the-dots
        adds a spread of about h·|ℓ| per step and the width falls far slower than h²; planning the next grid by
        h² then misses again and again.  The rate is a hint for the next grid only (floats; no claim)."""
        self.widths.append((grid, ratio))
        if len(self.widths) < 2:
            return 2.0
        (g0, r0), (g1, r1) = self.widths[-2:]
        if g1 <= g0 * 1.01 or not (r0 > 0 and r1 > 0):
            return 2.0
        return min(2.0, max(MIN_RATE, math.log(r0 / r1) / math.log(g1 / g0)))

    def refine(self, plan, ratio, tau, cap=None):
        """The next plan after a width ``ratio`` times the requested one, cut to what the budget has left.

        ``cap`` raises ε_cap (an ε(δ) found above the one the precisions were sized for).

        LimitError (one line, naming --rel-width) when no grid finer than
        ``plan``'s fits: the search stops instead of starting an attempt it
        cannot pay for.
        """
        # after a probe the h² law may reach back to the model's grid at once (no intermediate attempt), and the
        # model's own plan caps it when within the limits
        reach = max(16, self.model_grid / plan.grid) if self.model_grid else 16
        raised = cap is not None
        if cap is None:
            exponent = self.rate(plan.grid, ratio)
        else:  # a raised ε_cap: the lower end lacked precision, not grid, so that ratio measures no rate
            self.widths.clear()
            exponent = 2.0
        wanted = refined(plan, self.sizing, ratio, tau, cap, reach=reach, exponent=exponent)
        model, self.model, self.model_grid = self.model, None, None
        if model is not None and model.grid < wanted.grid:
            wanted = plan_at(self.sizing, 1 / model.grid, min(tau, model.tau), wanted.epsilon_cap, grid=model.grid)
        cap = wanted.epsilon_cap
        if not raised and self.aligned(wanted).grid <= plan.grid:  # the finest grid was the last attempt's
            R = self.request.rel_width
            raise LimitError(f"could not reach the relative width {describe_rational(R)}: at h = 1/{plan.grid}, the "
                             f"finest grid, the width was {ratio:.3g} times it; {suggest_width(ratio * float(R))}"
                             f"{epsilons_instead(ratio * float(R), self.request)}")
        broken = self._cost(wanted).broken(self.spent, self.effort)
        if not broken:
            return wanted
        # the finest grid between the last one and the wanted one that still fits
        lo, hi, best = plan.grid, wanted.grid, None
        while hi - lo > max(1, lo // 100):
            mid = (lo + hi) // 2
            candidate = plan_at(self.sizing, 1 / mid, tau, cap, grid=mid)
            if self._fits(self._cost(candidate)):
                best, lo = candidate, mid
            else:
                hi = mid
        if raised and (best is None or best.grid < 1.05 * plan.grid):
            return self._same_grid_raised(plan, tau, cap, wanted, broken)
        # the h² law, the fastest a width falls as the grid refines: a grid it says will miss is not tried (a
        # measured rate only plans; it is often slower on coarse grids than on fine ones)
        if best is None or best.grid < 1.05 * plan.grid or ratio * (plan.grid / best.grid) ** 2 > 1:
            R = self.request.rel_width
            # an effort is named only where the h² law lets the finest grid of all reach the width
            more = (f" (by the h² law even h = 1/{MAX_GRID}, the finest grid, would miss it)"
                    if ratio * (plan.grid / MAX_GRID) ** 2 > 1 else self._more_effort(self._cost(wanted)))
            raise LimitError(f"could not reach the relative width {describe_rational(R)}: at h = 1/{plan.grid} the "
                             f"width was {ratio:.3g} times it, and h = 1/{wanted.grid} would need "
                             f"{' and '.join(broken)}; {suggest_width(ratio * float(R))}{more}"
                             f"{epsilons_instead(ratio * float(R), self.request)}")
        return best

    def _same_grid_raised(self, plan, tau, cap, wanted, broken):
        """After an ε(δ) above the ε_cap the precisions were sized for, when no finer grid fits: the last grid
        sized for the raised cap, if it fits; otherwise a refusal that names what answers (the width asked for
        is not what was missed, so no --rel-width is named)."""
        again = plan_at(self.sizing, 1 / plan.grid, tau, cap, grid=plan.grid)
        if self._fits(self._cost(again)):
            return again
        delta = describe_rational(self.request.delta)
        raise LimitError(f"ε({delta}) lies above the ε = {plan.epsilon_cap:.3g} the attempt's precisions were sized "
                         f"for, and an attempt sized for ε up to {cap:.3g} (h = 1/{wanted.grid}) would need "
                         f"{' and '.join(broken)}; ask for a larger δ, more noise or fewer steps"
                         f"{self._more_effort(self._cost(wanted))}")

    # ---- a single step: the width predicted from the bucket of each ε ------------------

    def _one_step_plan(self):
        request, sizing = self.request, self.sizing
        step = OneStep(request.stages[0])
        R = float(request.rel_width)
        deltas = [max(step.delta(o, e) for o in ORDERS) for e in request.epsilons]
        tau = R * max(min(deltas), NEGLIGIBLE_FLOAT) / TRUNCATION_SHARE
        cap = float(max(request.epsilons))

        def plan_of(grid):
            return plan_at(sizing, 1 / grid, tau, cap, grid=grid)

        def worst(plan):
            """(the largest predicted width ratio over the points that need one, its ε)."""
            ratios = [(0.0, None)]
            for eps in request.epsilons:
                p = predict(step, eps, plan.grid, plan.tail)
                if not meets(p, R, AIM, NEGLIGIBLE_FLOAT):
                    ratios.append((p.width / (R * p.upper) if p.upper > 0 else math.inf, eps))
            return max(ratios, key=lambda item: item[0])
        grids = sorted(g for g in set(_ladder()) | set(aligned_grids(request.epsilons, MAX_GRID)) if g >= MIN_GRID)
        needed = None
        for grid in grids:  # the coarsest grid that meets the width; finer ones only cost more
            plan = plan_of(grid)
            if worst(plan)[1] is None:
                if self._fits(self._cost(plan)):
                    return plan
                needed = plan
                break
        # out of reach: say what the finest admissible grid would reach, and where
        finest = None
        for grid in grids:
            if needed is not None and grid >= needed.grid:
                break
            plan = plan_of(grid)
            if not self._fits(self._cost(plan)):
                break
            finest = plan
        ratio, eps = worst(finest) if finest is not None else (math.inf, None)
        eps = request.epsilons[-1] if eps is None else eps
        needs = (f"h = 1/{needed.grid}, which would need {' and '.join(self._cost(needed).broken(0.0, self.effort))}"
                 if needed is not None else f"a grid finer than h = 1/{MAX_GRID}")
        reached = (f"the finest grid within the limits, h = 1/{finest.grid}, would reach about {ratio:.3g} times "
                   f"that width there" if finest is not None else "no grid is within the limits")
        raise LimitError(f"the relative width {describe_rational(request.rel_width)} at ε = {describe_rational(eps)} "
                         f"needs {needs}; {reached}; {suggest_width(ratio * R / AIM)}, "
                         f"or leave ε = {describe_rational(eps)} out")


def _ladder():
    """Candidate grids for a single step: about 12 a decade, three significant digits, MIN_GRID .. MAX_GRID."""
    mantissas = (100, 120, 150, 180, 220, 270, 330, 390, 470, 560, 680, 820)
    grids = []
    for exponent in range(-2, 5):
        for m in mantissas:
            n = m * 10**exponent if exponent >= 0 else m // 10**-exponent
            if MIN_GRID <= n <= MAX_GRID:
                grids.append(n)
    return grids + [MAX_GRID]


def suggest_width(width):
    """The part of a refusal that names the relative width in reach (or that none within 1/2 is)."""
    if not width < 0.5:
        return f"no {option('rel_width')} up to 1/2 is in reach"
    shown = float(f"{width:.1g}")
    shown = shown if shown >= width else float(f"{width * 1.5:.1g}")
    return f"ask for {option('rel_width', f'{min(max(shown, 1e-6), 0.5):g}')}"


def epsilons_instead(width, request):
    """Where no relative width is in reach for an ε(δ): the question δ at given ε, which may answer (an upper end
    δ(E) <= δ proves ε(δ) <= E); empty otherwise."""
    if width < 0.5 or request.delta is None:
        return ""
    return (f"; δ at given ε may answer instead ({option('epsilons')} E: an upper end of δ(E) at or below δ proves "
            f"ε(δ) <= E)")


# ---- the finished recipe, checked once more ----------------------------------------

def recipe_excess(request, outcome):
    """Phrases naming the auditor's limits the finished recipe breaks (a backstop: the plans were checked;
    the file's budget, its longest array included, is checked on the sealed certificate,
    :func:`certificate_cost`)."""
    plan, stages, out = outcome.plan, request.stages, []
    parts = mass_parts(stages, plan.grid, outcome.ranges, _coarse_tail(outcome.split, outcome.regrids))
    sizes = [hi - lo + 1 for _, _, lo, hi in parts]
    precisions = [working_bits(s, n, plan.p_bits, plan.q_bits, lo, hi) + AUDIT_RETRY for s, n, lo, hi in parts]
    if sum(sizes) > AUDIT_BUCKETS:
        out.append(f"{sum(sizes)} buckets")
    if max(precisions) > AUDIT_PRECISION:
        out.append(f"a mass precision of {max(precisions)} bits")
    if any(max(abs(lo), abs(hi)) > AUDIT_LOSS * plan.grid for lo, hi in outcome.ranges):
        out.append("its loss range")
    longest = max(hi - lo + 1 for lo, hi in outcome.ranges)
    for order in ORDERS:
        for side in ("upper", "lower"):
            windows = outcome.windows[order][side]
            if windows is not None:
                regrids = [(g.after, g.factor, g.bits) for g in outcome.regrids]
                for n_a, n_b, g in _product_lengths(stages, outcome.ranges, windows, regrids, side == "upper",
                                                    _split_of(outcome.split, order, outcome.regrids)):
                    longest = max(longest, n_a if g is not None else n_a + n_b - 1)
    steps = sum(s.steps for s in stages)
    # the auditor's bound of the rounding excess: a regrid adds up to 2 units an entry of the power and the base,
    # and its shares' excess over 2^S on a total below 2^(K + 1)
    coarsenings = (*outcome.regrids, *((outcome.split.regrid,) if outcome.split else ()))
    extra = 4 * steps * sum(4 * longest + _share_excess(g, plan.p_bits) for g in coarsenings)
    if 2 ** plan.p_bits < 4 * steps * (3 * longest + 3) + extra:
        out.append(f"K = {plan.p_bits} bits for arrays of {longest} entries")
    return out


def _share_excess(regrid, bits):
    over = max(max(b + d for b, d in regrid.shares) - (1 << regrid.bits), 0)
    return -(-(over << (bits + 1)) // (1 << regrid.bits))


def certificate_cost(stages, discretisation, named):
    """The auditor's budget estimate of a finished pld recipe (the certificate's ``discretisation``): the
    upper chains of both orders at K, the lower chains of the ``named`` orders at K and K′."""
    d = discretisation
    ranges = [tuple(r) for r in d["ranges"]]
    regrids = [(g["after"], g["factor"], g["share_bits"]) for g in d.get("regrids", ())]
    split = d.get("split")
    tail = None
    if split is not None and split.get("coarse_tail"):
        tail = split["body"][FORWARD][1], split["factor"] * math.prod(f for _, f, _ in regrids)
    products, coarsened = [], []
    for order in ORDERS:
        chains = [("upper", (d["p_bits"],))] + ([("lower", (d["p_bits"], d["q_bits"]))] if order in named else [])
        for side, scales in chains:
            windows = d["windows"][order][side]
            if windows is None:
                continue
            body = None if split is None else (split["body"][order], split["factor"], split["share_bits"],
                                               order == FORWARD, tail and tail[1])
            lengths = list(_product_lengths(stages, ranges, windows, regrids, side == "upper", body))
            products += [(n_a, n_b, scale) for scale in scales for n_a, n_b, g in lengths if g is None]
            coarsened += [(n_a, n_b, scale, g) for scale in scales for n_a, n_b, g in lengths if g is not None]
    return budget_cost(stages, d["grid"], d["p_bits"], d["q_bits"], ranges, products, regrids=coarsened,
                       shares=len(regrids) + (split is not None), tail=tail)


def _split_of(split, order, regrids):
    """(body, factor, S, forward, ρ or None) of a :class:`producer.pld.split.Split` for one order, or None."""
    if split is None:
        return None
    tail = _coarse_tail(split, regrids)
    return split.body[order], split.factor, split.regrid.bits, order == FORWARD, tail and tail[1]


def _coarse_tail(split, regrids):
    """(c, ρ) of a coarse split (:func:`mass_parts`), or None: a :class:`producer.pld.split.Split` and its
    :class:`producer.pld.regrid.Regrid` list."""
    if split is None or not split.coarse:
        return None
    return split.body[FORWARD][1], split.factor * math.prod(g.factor for g in regrids)


def _product_lengths(stages, ranges, windows, regrids=(), up=True, split=None):
    """(n_A, n_B, None) of every product of one chain, replayed from its recorded windows, and (n, n_base, S) of
    every regrid (``regrids`` [(product index, factor, S)], one stage): after a window [lo, hi] a regrid by r leaves
    ⌊hi/r⌋ − ⌊lo/r⌋ + 2 entries (lower chains + 1) and a base of n entries at most ⌈(n − 1)/r⌉ + 2 (+ 1), as the
    auditor's estimate counts them.  With a ``split`` (body (a, b) in the order's indices, factor r, S, True for
    the forward order): the power of T − 1 steps on the body, one product by the base, and, when there is a tail,
    the tail through every regrid, the power and the tail through the split, and their product."""
    powers, regrids, extra = [], {k: (f, b) for k, f, b in regrids}, 1 if up else 0
    for stage, (base_lo, base_hi), recorded in zip(stages, ranges, windows["stages"]):
        size = n = base_hi - base_lo + 1
        steps = stage.steps
        if split is not None:
            size, tail = _split_sizes(split, base_lo, base_hi)
            n, steps = size, steps - 1
        k = 0
        for bit in bin(steps)[3:]:
            for square in ((True,) if bit == "0" else (True, False)):
                yield (n, n, None) if square else (n, size, None)
                lo, hi = recorded[k]
                n, regrid, k = hi - lo + 1, regrids.get(k), k + 1
                if regrid is not None:
                    factor, share_bits = regrid
                    yield n, size, share_bits
                    n = hi // factor - lo // factor + 1 + extra
                    size = -(-(size - 1) // factor) + 1 + extra
        if split is not None:
            yield n, size, None
            power, (lo, hi) = n, recorded[k]
            n = hi - lo + 1
            if tail:
                yield from _cross_lengths(power, tail, regrids.values(), split, extra)
        powers.append(n)
    n = powers[0]
    for other, (lo, hi) in zip(powers[1:], windows["combine"]):
        yield n, other, None
        n = hi - lo + 1


def _split_sizes(split, lo, hi):
    """(the body's entries, the tail's) of one order, as the auditor counts them: the body clipped to the order's
    range (the forward order's [lo, hi], the backward's [−hi, −lo]); the tail the rest, or the whole range when
    the body lies strictly inside it; a coarse tail's (body [lo, c]) c − lo + 1 and (hi − c)/ρ + 1."""
    (a, b), _, _, forward, ratio = split
    if ratio:
        c = b if forward else -a
        return c - lo + 1, (hi - c) // ratio + 1
    LO, HI = (lo, hi) if forward else (-hi, -lo)
    a, b, n = max(a, LO), min(b, HI), HI - LO + 1
    if (a, b) == (LO, HI):
        return n, 0
    return b - a + 1, n if LO < a and b < HI else n - (b - a + 1)


def _cross_lengths(power, tail, regrids, split, extra):
    """The cross term's coarsenings (n, n_base, S) and product (n_A, n_B, None): the tail through every regrid,
    the power and the tail through the split, then their product (a coarse tail: only the power's coarsening)."""
    _, factor, share_bits, _, ratio = split
    if ratio:
        yield power, 0, share_bits
        yield -(-(power - 1) // factor) + 1 + extra, tail, None
        return
    for r, bits in regrids:
        yield tail, 0, bits
        tail = -(-(tail - 1) // r) + 1 + extra
    yield power, tail, share_bits
    yield -(-(power - 1) // factor) + 1 + extra, -(-(tail - 1) // factor) + 1 + extra, None
