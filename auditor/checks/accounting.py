"""Checks of ``accounting/1`` certificates: ε(δ) or δ(ε) of a tree of mechanisms (docs/accounting.md).

The question is ``input`` (a DpEvent tree in dp_accounting's class and field names, the neighbouring relation, δ
or the ε list, the relative width R); every ``result`` field but ``discretisation`` is a claim, ``stages``
included; ``discretisation`` is the recipe the claims are checked with (docs/dpsgd.md §3–7 applied per stage).
In order:

1. Domain (MALFORMED outside it), every event of the tree, dropped or not: σ (Gaussian, mixture) in
   [1/10, 10^4], b in [1/100, 10^4], every Δ_i in [0, 100], mixture probabilities as many as the sensitivities
   and summing to 1, randomized response's p in (0, 1]; the discrete Laplace's a in [1/100, 100] and the discrete
   Gaussian's σ² in [1/100, 10^6], each with an integer sensitivity s in [0, 1000]; a Poisson sampling wraps a
   Gaussian, Laplace, mixture, discrete Laplace or discrete Gaussian event, another Poisson sampling, a no-op or a
   composition (Composed or SelfComposed); a composition under a Poisson sampling of s′ in (0, 1) (s′ the product
   of the probabilities of that node and its Poisson ancestors) holds only Gaussian events and no-ops (at any depth
   of compositions), under either relation, and its σ² = 1/Σ m_i/σ_i² (below) is at least 1/100; a sampling
   without replacement of m of n records (n >= 1, 0 <= m <= n) wraps a Gaussian, Laplace, discrete Laplace or
   discrete Gaussian event, a no-op or a composition that holds only Gaussian events and no-ops (at any depth,
   whatever m/n), whose σ² is at least 1/100 when 0 < m < n; the relation defines every leaf (add/remove: no
   randomized response, no sampling without replacement; replace-one: no mixture; a Laplace, discrete Laplace or
   discrete Gaussian leaf with any sampling, the product of its Poisson ancestors' probabilities; replace-special
   as add/remove; tree aggregation under replace-special only, σ in [1/10, 10^4], its step counts integers in
   [0, 10^12], and no sampling above it; a truncated Poisson sampling under add/remove or replace-one only, σ in
   [1/5, 10^4], q in [0, 1], n and B integers >= 0, and no sampling above it);
   10^−30 <= δ < 1, or 1..64 strictly increasing ε in [0, 500]; 10^−6 <= R <= 1/2; a result of the question's
   form; a ``pld`` route with a discretisation, a ``gaussian`` or ``lattice`` one without.
2. The tree's limits (UNCHECKED, before any work): at most :data:`MAX_EVENTS` events, every numerator and
   denominator of the tree at most :data:`MAX_NUMBER_BITS` bits, every dataset size n of a sampling without
   replacement at most :data:`MAX_DATASET_SIZE`; then (its sum is work that grows with the tree) the σ² of each
   sampled composition of Gaussian events (3.), MALFORMED below 1/100 and UNCHECKED beyond
   :data:`MAX_VARIANCE_BITS` bits in its numerator or denominator; a truncated sampling's n and B at most
   :data:`MAX_DATASET_SIZE`, the exact binomial sums of all of them at most
   :data:`auditor.pld.truncation.MAX_SUM_WORK` bit operations, and those on the long route (large batches) at most
   :data:`auditor.pld.truncation.MAX_TAIL_ROOTS` in Σ (⌊√((n − 1)q(1 − q))⌋ + 2).
3. Stages (FAIL): ``result.stages`` must be the auditor's own reading of the tree (docs/accounting.md §3,
   :func:`read_stages`): each leaf with its multiplicity (the product of its SelfComposed ancestors' counts)
   and sampling (the product of its Poisson ancestors' probabilities); a Gaussian (Laplace) sampled m of n
   without replacement the stage ``gaussian_without_replacement`` (``laplace_without_replacement``) of
   γ = m/n, or ``gaussian`` (``laplace``) with sampling 1 when m = n; a discrete Laplace (discrete Gaussian)
   sampled m of n without replacement ``discrete_laplace_without_replacement``
   (``discrete_gaussian_without_replacement``) of γ = m/n, its noise and sensitivity s, or ``discrete_laplace``
   (``discrete_gaussian``) with sampling 1 when m = n (the symmetrised pair of the add/remove discrete pair of
   shift 2s at q = γ: :class:`auditor.pld.families.WithoutReplacementDiscreteLaplace`,
   :class:`auditor.pld.families.WithoutReplacementDiscreteGaussian`); a Poisson sampling of s′ in (0, 1) of a
   composition one leaf of the Poisson node's multiplicity: with m_i the product of the SelfComposed counts from
   the node down to its i-th Gaussian event (σ_i), μ² = Σ m_i/σ_i² (one step is one Gaussian mechanism of σ² = 1/μ²,
   every sampled record entering every query), dropped when μ² = 0, the ``gaussian`` stage of sampling s′ and that
   σ when exactly one Gaussian event has m_i >= 1 and its m_i is 1, otherwise ``gaussian_composition`` of sampling
   s′ and σ² = 1/μ² (one stage JSON under both relations: the relation decides its pair, as for ``gaussian``);
   at s′ = 1 or 0 the composition is read leaf by leaf with sampling s′ (Poisson(1, X) is X); a sampling of m of
   n without replacement of a composition the same way with γ = m/n (m_i counted from the sampling node, the
   leaf of the node's multiplicity): dropped when μ² = 0 or γ = 0, ``gaussian_without_replacement`` of γ and σ_i
   for one Gaussian event reached once, otherwise ``gaussian_composition_without_replacement`` of γ and
   σ² = 1/μ², and at γ = 1 each Gaussian event its ``gaussian`` stage of sampling 1 and multiplicity the node's
   times m_i;
   a tree aggregation epoch of σ the ``gaussian`` stage of σ and sampling 1, its multiplicity times the depth d
   (the least d with 2^d > n, n its largest step count: :func:`_tree_depth`); a truncated Poisson sampling
   (n, q, B, σ) the stage ``truncated_gaussian`` with the auditor's own p̂ (:mod:`auditor.pld.truncation`), or the
   ``gaussian`` stage of (σ, q) when n − 1 < B, dropped when n, B or q is 0 (:func:`_truncated`);
   leaves that cannot change the output's law dropped (a no-op, multiplicity 0, sampling 0, m = 0, a mixture
   whose every Δ is 0, randomized response with k = 1 or p = 1, a discrete Laplace or discrete Gaussian leaf of
   sensitivity 0); a mixture's equal Δ merged and sorted increasing; equal mechanisms merged (counts added);
   sorted by the canonical JSON text of the mechanism.  Then Σ T <= :data:`MAX_TOTAL_COUNT` (UNCHECKED beyond).
   A Laplace, discrete Laplace or discrete Gaussian leaf under replace-one with sampling q in (0, 1) is the stage
   ``laplace``, ``discrete_laplace`` or ``discrete_gaussian`` of that sampling (the stage JSON of either relation);
   the relation decides its pair (:func:`pair_of`; :class:`auditor.pld.bounded.ReplaceLaplace`,
   :class:`auditor.pld.families.ReplaceDiscreteLaplace`, :class:`auditor.pld.families.ReplaceDiscreteGaussian`).
4. Route (FAIL): ``gaussian`` exactly when every stage is ``gaussian`` with sampling 1; ``lattice`` only for
   exactly one ``randomized_response`` stage ("route not applicable" otherwise), which may also take ``pld``.
5. The recipe's shape (MALFORMED; a stage sampled without replacement has a range holding the level 0) and its
   work (UNCHECKED before any enclosure, and the whole check within the file's budget): :mod:`auditor.pld.recipe`,
   with each stage's pair (:mod:`auditor.pld.families`) and its masses' work; on the lattice route
   :mod:`auditor.pld.lattice` (``result.lattice``: K a JSON integer, one window [lo, hi] with lo <= hi per product
   of the T-fold power; ``result.lattice`` null or absent on the other routes); every ε evaluated
   <= :data:`MAX_EPSILON`.
6. Exact claims (FAIL; :func:`auditor.pld.decisions.exact_claims`): ε_lo <= ε_hi and the width, or one point per
   ε with lower <= upper <= 1 and the width (or upper <= 10^−30); ``lower_order`` null exactly when the lower
   end is 0 and on the gaussian route; displays outward to 10 significant digits.  Two exact facts:
   δ(ε) < 1 always (every pair's two laws are mutually absolutely continuous), so lower >= 1 is false; and when
   a stage is ``gaussian``, ``gaussian_composition`` (a sampled Gaussian too), ``gaussian_without_replacement``,
   ``gaussian_composition_without_replacement``, ``mixture_of_gaussians``, ``discrete_gaussian``,
   ``discrete_gaussian_without_replacement`` or ``truncated_gaussian`` its forward loss is unbounded above, so
   δ(ε) > 0 at every ε and upper = 0 is false.  Without such a stage (only Laplace and discrete Laplace, each
   sampled with or without replacement, and randomized response) the composed loss is bounded
   and δ(ε) = 0 exactly for ε at or above its largest value: no exact fact is used, the enclosures decide (an
   upper end 0 is proved when the recipe's upper bound is exactly 0).  And δ(ε) <= 1 always, so upper = 1 is
   true (no enclosure is asked for it).
7. Enclosure claims, three-way, as for ``dpsgd/1`` (:func:`auditor.pld.decisions.decide_gaussian`,
   :func:`auditor.pld.decisions.decide_pld`): the gaussian route's closed form with μ² = Σ_s T_s·d²/σ_s²
   (d = 1 under add/remove, 2 under replace-one); the pld route's bounds from the auditor's own single-step
   masses of each stage's pair, composed with the recorded windows, regrids and split (whose shares are confirmed
   first: :func:`auditor.pld.regrid.check_shares`, a FAIL naming the share); the lattice route's bounds from its two
   exact arrays (:func:`auditor.pld.lattice.decide`), a lower end only of the forward order.  Open claims are
   retried once with more guard bits when the file's budget affords it, and otherwise not established by the
   recipe: a FAIL.

The relation ``replace_special`` (dp_accounting's REPLACE_SPECIAL: one record x replaced by a special record ⊥
that adds nothing to any query) is read as ``add_or_remove_one`` (randomized response aside): the same leaves
refused, the same stages, pairs and routes (:func:`pair_relation`).  Why: an additive-noise mechanism f(D) + Z
moves by f(D) − f(D′), which is x's contribution whether x is removed or replaced by ⊥ (the Gaussian's Δ, not 2Δ
as under replace-one); under a Poisson sampling ⊥ sampled or not changes nothing, so the sampled pair is
add/remove's; the mixture of Gaussians is defined by its pair, N(0, σ²) against Σ p_i N(c_i, σ²), the same under
both; and the relation is symmetric, so both orders count, as under add/remove.  Randomized response is the
exception: its output on ⊥ is uniform, so its pair is RR(x) against the uniform law
(:func:`auditor.pld.families.randomized_response` with ``special``), on the pld route.  A sampling without
replacement (a fixed-size batch) is refused, as under add/remove.
"""

import json
from fractions import Fraction
from math import isqrt

from gmpy2 import mpq

from auditor import budget, common
from auditor import claims as summaries
from auditor.certificate import Malformed
from auditor.outcomes import Unchecked
from auditor.pld import decisions, families, lattice, pairs, recipe, regrid, truncation
from auditor.rationals import floor, read_rational, show, write_rational

# ---- the domain ---------------------------------------------------------------------------------
SIGMA_MIN, SIGMA_MAX = Fraction(1, 10), Fraction(10 ** 4)
SCALE_MIN, SCALE_MAX = Fraction(1, 100), Fraction(10 ** 4)
SENSITIVITY_MAX = Fraction(100)
PARAMETER_MIN, PARAMETER_MAX = Fraction(1, 100), Fraction(100)
"""The discrete Laplace's noise parameter a (pmf tanh(a/2)·e^{−a|x|})."""
VARIANCE_MIN, VARIANCE_MAX = Fraction(1, 100), Fraction(10 ** 6)
"""The discrete Gaussian's σ²."""
DISCRETE_SENSITIVITY_MAX = 1000
"""The integer sensitivity s of the discrete Laplace and the discrete Gaussian."""

# ---- the limits (UNCHECKED beyond them, before any work) ------------------------------------------
MAX_EVENTS = 10 ** 4
"""Most events (every object of the tree, containers included)."""
MAX_NUMBER_BITS = 256
"""Most bits of a numerator or a denominator of a number of the tree."""
MAX_TOTAL_COUNT = 10 ** 7
"""Most steps in all (Σ of the stages' counts)."""
MAX_EPSILON = Fraction(2000)
"""Largest ε at which a claim is evaluated (stored ε_lo, ε_hi)."""
MAX_DATASET_SIZE = 10 ** 12
"""Largest dataset size n of a sampling without replacement."""
MAX_VARIANCE_BITS = 4096
"""Most bits of the numerator or the denominator of the σ² of a sampled composition of Gaussian events (Poisson or
without replacement; a number the tree does not hold, but its stage does: the tree's limits bound it only by about
512 bits a Gaussian event)."""

ORDERS = (FORWARD, BACKWARD) = ("forward", "backward")
LATTICE = "lattice"
ADD_OR_REMOVE, REPLACE = families.ADD_OR_REMOVE, families.REPLACE
REPLACE_SPECIAL = "replace_special"
UNBOUNDED = ("gaussian", "gaussian_composition", "gaussian_without_replacement",
             "gaussian_composition_without_replacement", "mixture_of_gaussians", "discrete_gaussian",
             "discrete_gaussian_without_replacement", "truncated_gaussian")
"""Stage mechanisms whose forward loss is unbounded above."""


def verify(cert, report):
    """Every claim of a schema-valid ``accounting/1`` certificate, in the order of the module docstring."""
    p = parse(cert)
    if not _check_stages(p, cert, report) or not _check_route(p, report):
        return
    plan = _plan(p, cert) if p["route"] == "pld" else None
    grid = _lattice_plan(p, cert) if p["route"] == LATTICE else None
    positive = any(mechanism["mechanism"] in UNBOUNDED for mechanism, _ in p["stages"])
    pending = decisions.exact_claims(p, cert, report, positive=positive)
    if grid is not None:
        _check_forward(cert, report)
    if not report.ok:
        return  # a false exact claim: no need for the enclosures
    for c in pending:
        if c.epsilon > MAX_EPSILON:
            raise Unchecked(c.pointer, c.epsilon, MAX_EPSILON, "epsilon to evaluate")
    if grid is not None:
        value_bits = lattice.answer_bits(cert)
        budget.reserve(report, [(cert, lattice.estimate(grid, value_bits))])
        arrays = lattice.replay(grid)
        lattice.decide(pending, report, grid, arrays, value_bits,
                       lambda guard: lattice.answer_cost(grid, len(arrays[0].values), value_bits + guard))
        return
    if plan is None:
        d2 = 1 if p["relation"] == ADD_OR_REMOVE else 4
        mu2 = sum(Fraction(d2 * count) / Fraction(m["sigma"]) ** 2 for m, count in p["stages"])
        decisions.decide_gaussian(mu2, pending, report)
        return
    budget.reserve(report, [(cert, recipe.estimate_plan(plan, p["total"]))])
    if not regrid.check_shares(recipe.coarsenings(plan), plan["N"], report):
        return  # a share not confirmed: the recipe's bounds establish nothing
    value_bits = decisions.start_bits(pending)
    decisions.decide_pld(pending, report, lambda guard: recipe.estimate_plan(plan, p["total"], guard),
                         lambda guard: _pld_bounds(plan, value_bits + guard, guard))


def estimate(cert, prefix=""):
    """The estimated first pass of the whole check (:class:`auditor.budget.Cost`); UNCHECKED beyond a limit
    of the kind.  Pointers start at ``prefix`` (an embedding certificate's place for this one)."""
    p = parse(cert)
    if p["route"] == LATTICE and _lattice_applies(p):
        return lattice.estimate(_lattice_plan(p, cert), lattice.answer_bits(cert), prefix=prefix)
    if p["route"] != "pld":
        return budget.Cost(pointer=prefix + "/result/route", what="closed form")
    cost = recipe.estimate_plan(_plan(p, cert), p["total"])
    return cost.at(prefix)


def _pld_bounds(plan, value_bits, guard):
    """The recipe's bounds (:func:`auditor.pld.recipe.bounds`); a module attribute, so tests can count passes."""
    return recipe.bounds(plan, value_bits, guard)


# ---- 1. and 2. the domain and the tree's limits ---------------------------------------------------------

_bounded = decisions.bounded


class _Tree:
    """The walk of one event tree: its leaves (mechanism, multiplicity, sampling), its events and its largest
    number (bits), for the limits checked after the walk."""

    __slots__ = ("relation", "leaves", "events", "widest", "largest", "truncation_work", "tail_roots")

    def __init__(self, relation):
        self.relation = relation
        self.leaves = []
        self.events = 0
        self.widest = None   # (bits, pointer) of the largest numerator or denominator
        self.largest = None  # (n, pointer) of the largest dataset size of a sampling without replacement
        self.truncation_work = 0  # the exact binomial sums of the truncated samplings, in all
        self.tail_roots = 0       # the long route's sums of the large truncated batches, in all

    def number(self, text, pointer):
        value = read_rational(text, pointer)
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
        if self.widest is None or bits > self.widest[0]:
            self.widest = (bits, pointer)
        return value


_SAMPLED = {"GaussianDpEvent", "LaplaceDpEvent", "MixtureOfGaussiansDpEvent", "DiscreteLaplaceDpEvent",
            "DiscreteGaussianDpEvent", "PoissonSampledDpEvent", "NoOpDpEvent", "ComposedDpEvent",
            "SelfComposedDpEvent"}
"""The events a Poisson sampling may wrap."""
_COMPOSITIONS = {"ComposedDpEvent", "SelfComposedDpEvent"}
COMPOSITION_VARIANCE_MIN = mpq(1, 100)
"""The least σ² of a sampled composition of Gaussian events (σ >= 1/10, the Gaussian's domain)."""


def _children(event, pointer, multiplicity):
    """[(child, pointer, multiplicity)] of a no-op, SelfComposed or Composed event; None for any other event."""
    kind = event["class_name"]
    if kind == "NoOpDpEvent":
        return []
    if kind == "SelfComposedDpEvent":
        count = common.integer(event["count"], pointer + "/count", 0)
        return [(event["event"], pointer + "/event", multiplicity * count)]
    if kind == "ComposedDpEvent":
        return [(inner, f"{pointer}/events/{i}", multiplicity) for i, inner in enumerate(event["events"])]
    return None


def _walk(event, pointer, tree, multiplicity, sampling):
    """Read ``event`` and its descendants into ``tree`` (recursion depth: the reader's nesting limit)."""
    tree.events += 1
    kind = event["class_name"]
    children = _children(event, pointer, multiplicity)
    if children is not None:
        for inner, where, m in children:
            _walk(inner, where, tree, m, sampling)
        return
    if kind == "PoissonSampledDpEvent":
        _poisson(event, pointer, tree, multiplicity, sampling)
        return
    if kind == "SampledWithoutReplacementDpEvent":
        _without_replacement(event, pointer, tree, multiplicity, sampling)
        return
    if kind == "TruncatedSubsampledGaussianDpEvent":
        leaf = _truncated(event, pointer, tree, sampling)
        if leaf is not None:
            tree.leaves.append((leaf, multiplicity))
        return
    if kind == "SingleEpochTreeAggregationDpEvent":
        sigma, depth = _tree_depth(event, pointer, tree)
        gaussian = {"mechanism": "gaussian", "sampling": write_rational(sampling), "sigma": write_rational(sigma)}
        tree.leaves.append((gaussian, multiplicity * depth))
        return
    tree.leaves.append((_leaf(event, kind, pointer, tree, sampling), multiplicity))


def _poisson(event, pointer, tree, multiplicity, sampling):
    """A PoissonSampledDpEvent of probability q, its ancestors' product ``sampling``: s′ = sampling·q.  A composition
    inside with 0 < s′ < 1 is one stage (:func:`_composition`); otherwise the inner event is read with sampling s′
    (a composition at s′ = 1 or 0 leaf by leaf, as if the node were not there: Poisson(1, X) is X)."""
    q = tree.number(event["sampling_probability"], pointer + "/sampling_probability")
    _bounded(q, Fraction(0), Fraction(1), pointer + "/sampling_probability", "[0, 1]")
    inner, s = event["event"], sampling * q
    kind = inner["class_name"]
    if kind not in _SAMPLED:
        raise Malformed(f"{pointer}/event: a PoissonSampledDpEvent must wrap a Gaussian, Laplace, "
                        f"mixture-of-Gaussians, discrete Laplace or discrete Gaussian event, another Poisson "
                        f"sampling, a composition or a no-op, not a {kind}")
    if kind in _COMPOSITIONS and 0 < s < 1:
        tree.leaves.append((_composition(inner, pointer, tree, s), multiplicity))
        return
    _walk(inner, pointer + "/event", tree, multiplicity, s)


def _composition(event, pointer, tree, sampling):
    """The Poisson sampling (at ``pointer``, product of probabilities ``sampling`` in (0, 1)) of the composition
    ``event``: every event inside checked now, its stage (:class:`_Composition`) computed once the tree's limits
    hold.

    Every record sampled enters every Gaussian query of the composition, so one step is the sampled Gaussian of
    σ² = 1/μ², μ² = Σ m_i/σ_i² over its Gaussian events (m_i the product of their SelfComposed counts inside it).
    Why: with the other records' sampled sum fixed (joint convexity), the step is (1 − q)·N(0, Σ) + q·N(v, Σ)
    against N(0, Σ) (add/remove) or against (1 − q)·N(0, Σ) + q·N(v′, Σ) (replace-one), Σ = diag(σ_i²·I),
    ‖v_i‖ <= 1 for each of the Σ m_i queries; dividing block i by σ_i (invertible: divergences unchanged) gives
    contributions w of ‖w‖² <= μ².  Under add/remove, rotating w onto the first axis and dropping the other
    coordinates (independent, alike under both laws) leaves the one-dimensional pair of shift ‖w‖, and the sampled
    Gaussian pair is monotone in its shift; under replace-one the proof of its pair (docs/mechanisms/
    poisson-subsampling.md, steps 1–4: any two contributions in a ball) uses only the norms ‖w‖, ‖w′‖ <= 1/σ
    (:class:`auditor.pld.families.ReplaceGaussian`).  Every v_i of norm 1 (opposite ones under replace-one) attains
    it.  Only Gaussian events and no-ops inside.  μ² = 0: dropped; one Gaussian event of m = 1 (the others of
    m = 0): its own ``gaussian`` stage; otherwise ``gaussian_composition`` (the relation decides its pair),
    σ² >= 1/100."""
    gaussians = []
    _gather(event, pointer + "/event", tree, 1, gaussians, "a Poisson sampling")
    return _Composition(pointer, sampling, gaussians, _POISSON_STAGES)


_POISSON_STAGES = ("gaussian", "gaussian_composition")
_WITHOUT_REPLACEMENT_STAGES = ("gaussian_without_replacement", "gaussian_composition_without_replacement")
"""The stage mechanisms of a sampled composition of Gaussian events: (one Gaussian event reached once, any other)."""


class _Composition:
    """A sampled composition of Gaussian events read from the tree (a Poisson sampling of s′ in (0, 1), or a
    sampling without replacement of γ in (0, 1)): [(m_i, σ_i)], the sampling, and the two stage mechanisms it
    reads into (:data:`_POISSON_STAGES`, :data:`_WITHOUT_REPLACEMENT_STAGES`).  :meth:`stage` sums
    μ² = Σ m_i/σ_i², work that grows with the tree, so :func:`read_stages` calls it only once the tree's limits
    hold."""

    __slots__ = ("pointer", "sampling", "gaussians", "names")

    def __init__(self, pointer, sampling, gaussians, names):
        self.pointer, self.sampling, self.gaussians, self.names = pointer, sampling, gaussians, names

    def stage(self):
        """The stage mechanism, or None when μ² = 0; MALFORMED when σ² = 1/μ² < 1/100, UNCHECKED beyond
        :data:`MAX_VARIANCE_BITS`."""
        q = write_rational(self.sampling)
        one, composed = self.names
        reached = [(m, sigma) for m, sigma in self.gaussians if m >= 1]
        if not reached:
            return None
        if len(reached) == 1 and reached[0][0] == 1:
            return {"mechanism": one, "sampling": q, "sigma": write_rational(reached[0][1])}
        variance = 1 / _pairwise_sum([mpq(m) / mpq(s.numerator, s.denominator) ** 2 for m, s in reached])
        if variance < COMPOSITION_VARIANCE_MIN:
            raise Malformed(f"{self.pointer}: σ² = {show(variance)} of the composition is below 1/100: σ below 1/10, "
                            f"the Gaussian's domain")
        bits = max(variance.numerator.bit_length(), variance.denominator.bit_length())
        if bits > MAX_VARIANCE_BITS:
            raise Unchecked(self.pointer, bits, MAX_VARIANCE_BITS,
                            "bits of the numerator or denominator of the sigma^2 of a composition")
        return {"mechanism": composed, "sampling": q, "sigma_squared": write_rational(variance)}


def _pairwise_sum(terms):
    """The exact sum of nonempty ``terms`` (gmpy2 rationals) added in pairs, a balanced tree: its reductions work
    on numbers of about equal size, with gmpy2's subquadratic gcd (10^4 terms of 512-bit denominators: about a
    second, where a running sum of Fractions takes minutes)."""
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


def _gather(event, pointer, tree, multiplicity, gaussians, sampled):
    """Append (m, σ) of every GaussianDpEvent below ``event`` in a sampled composition to ``gaussians`` (m the
    product of the SelfComposed counts from the sampling node); MALFORMED at any other event but a no-op, the
    message naming the sampling (``sampled``: "a Poisson sampling" or "a sampling without replacement")."""
    tree.events += 1
    kind = event["class_name"]
    children = _children(event, pointer, multiplicity)
    if children is not None:
        for inner, where, m in children:
            _gather(inner, where, tree, m, gaussians, sampled)
        return
    if kind != "GaussianDpEvent":
        raise Malformed(f"{pointer}: {sampled} of a composition is accounted only when every event in it is a "
                        f"GaussianDpEvent or a NoOpDpEvent (then it is one Gaussian mechanism), not a {kind}")
    gaussians.append((multiplicity, _gaussian_sigma(event, pointer, tree)))


def _gaussian_sigma(event, pointer, tree):
    """A GaussianDpEvent's σ, in its domain [1/10, 10^4]."""
    sigma = tree.number(event["noise_multiplier"], pointer + "/noise_multiplier")
    _bounded(sigma, SIGMA_MIN, SIGMA_MAX, pointer + "/noise_multiplier", "[1/10, 10^4]")
    return sigma


def _leaf(event, kind, pointer, tree, sampling):
    """The stage mechanism of one leaf (a dict of the canonical texts), or None when it is dropped."""
    relation = tree.relation
    q = write_rational(sampling)
    if kind == "GaussianDpEvent":
        sigma = _gaussian_sigma(event, pointer, tree)
        return {"mechanism": "gaussian", "sampling": q, "sigma": write_rational(sigma)}
    if kind == "LaplaceDpEvent":
        b = tree.number(event["noise_multiplier"], pointer + "/noise_multiplier")
        _bounded(b, SCALE_MIN, SCALE_MAX, pointer + "/noise_multiplier", "[1/100, 10^4]")
        return {"mechanism": "laplace", "sampling": q, "scale": write_rational(b)}
    if kind in _DISCRETE:
        return _discrete_leaf(event, kind, pointer, tree, sampling)
    if kind == "MixtureOfGaussiansDpEvent":
        if relation == REPLACE:
            raise Malformed(f"{pointer}: the mixture of Gaussians is not defined under replace_one "
                            f"(docs/accounting.md §3)")
        return _mixture(event, pointer, tree, q)
    # RandomizedResponseDpEvent (the schema admits no other leaf)
    if relation == ADD_OR_REMOVE:
        raise Malformed(f"{pointer}: randomized response is not defined under add_or_remove_one (adding or "
                        f"removing a record is not a change of one bucket; docs/accounting.md §3)")
    noise = tree.number(event["noise_parameter"], pointer + "/noise_parameter")
    _bounded(noise, Fraction(0), Fraction(1), pointer + "/noise_parameter", "(0, 1]", lo_open=True)
    k = common.integer(event["num_buckets"], pointer + "/num_buckets", 1)
    if k == 1 or noise == 1 or sampling == 0:    # sampling 0 or 1: only a Poisson node of s′ = 0 or 1 is above it
        return None
    return {"buckets": k, "mechanism": "randomized_response", "noise": write_rational(noise), "sampling": "1"}


TRUNCATED_SIGMA_MIN = Fraction(1, 5)
"""The least σ of a truncated Poisson sampling (its pair holds σ/2, at least 1/10)."""


def _truncated(event, pointer, tree, sampling):
    """A truncated Poisson sampling of a Gaussian, under add_or_remove_one or replace_one (MALFORMED otherwise,
    dropped or not): n in [0, 10^12] (UNCHECKED beyond), q in [0, 1], B an integer in [0, 10^12], σ in
    [1/5, 10^4]; dropped when n, B or the sampling q is 0; the ``gaussian`` stage of q when n − 1 < B (the batch
    never overflows); otherwise :class:`_Truncated`, whose p̂ (:mod:`auditor.pld.truncation`) is computed once the
    tree's limits hold.  Nothing samples it (a Poisson sampling or a sampling without replacement may not wrap it),
    so ``sampling`` is 1 or 0."""
    if tree.relation not in (ADD_OR_REMOVE, REPLACE):
        raise Malformed(f"{pointer}: the truncated Poisson sampling is accounted under add_or_remove_one or "
                        f"replace_one only (docs/mechanisms/truncated-poisson.md)")
    n = common.integer(event["dataset_size"], pointer + "/dataset_size", 0)
    B = common.integer(event["truncated_batch_size"], pointer + "/truncated_batch_size", 0)
    for value, field in ((n, "dataset_size"), (B, "truncated_batch_size")):
        if value > MAX_DATASET_SIZE:
            raise Unchecked(f"{pointer}/{field}", value, MAX_DATASET_SIZE, "records of a truncated sampling")
    q = tree.number(event["sampling_probability"], pointer + "/sampling_probability")
    _bounded(q, Fraction(0), Fraction(1), pointer + "/sampling_probability", "[0, 1]")
    sigma = tree.number(event["noise_multiplier"], pointer + "/noise_multiplier")
    _bounded(sigma, TRUNCATED_SIGMA_MIN, SIGMA_MAX, pointer + "/noise_multiplier", "[1/5, 10^4]")
    rate = q * sampling
    if n == 0 or B == 0 or rate == 0:
        return None
    if n - 1 < B:
        return {"mechanism": "gaussian", "sampling": write_rational(rate), "sigma": write_rational(sigma)}
    if truncation.long_route(n, rate, B):
        tree.tail_roots += truncation.tail_root(n, rate)
    else:
        tree.truncation_work += truncation.sum_work(n, rate, B)
    return _Truncated(n, rate, B, sigma)


class _Truncated:
    """A truncated sampling read from the tree; :meth:`stage` computes its p̂ (exact sums, or the long route's sums
    for a large batch, whose work the tree's limits bound in all, checked first)."""

    __slots__ = ("n", "q", "B", "sigma")

    def __init__(self, n, q, B, sigma):
        self.n, self.q, self.B, self.sigma = n, q, B, sigma

    def stage(self):
        rate = truncation.truncation(self.n, self.q, self.B).conditional
        return {"batch_size": self.B, "conditional_sampling": write_rational(rate),
                "dataset_size": self.n, "mechanism": "truncated_gaussian", "sampling": write_rational(self.q),
                "sigma": write_rational(self.sigma)}


def _tree_depth(event, pointer, tree):
    """One epoch of tree aggregation, under replace_special only (MALFORMED otherwise, dropped or not): its σ and
    depth d, the least integer with 2^d > n for the largest step count n.  A record's contribution enters at most
    d nodes of one tree, each node released with N(0, σ²) noise, so under the zero-record adjacency the epoch is
    d adaptive Gaussian releases of sensitivity 1 (docs/mechanisms/tree-aggregation.md): the ``gaussian`` stage
    of σ, d times."""
    if tree.relation != REPLACE_SPECIAL:
        raise Malformed(f"{pointer}: tree aggregation is defined under replace_special only, as in dp_accounting "
                        f"(docs/accounting.md §3)")
    sigma = _gaussian_sigma(event, pointer, tree)
    counts = event["step_counts"]
    if isinstance(counts, list):
        largest = max(common.integer(n, f"{pointer}/step_counts/{i}", 0) for i, n in enumerate(counts))
    else:
        largest = common.integer(counts, pointer + "/step_counts", 0)
    depth = 0
    while 1 << depth <= largest:
        depth += 1
    return sigma, depth


def _without_replacement(event, pointer, tree, multiplicity, sampling):
    """A sampling of m of n records without replacement, its leaves appended to ``tree`` with ``multiplicity``:
    nothing when it is dropped (m = 0, a no-op inside, μ² = 0, or ``sampling`` 0).  A Poisson sampling wraps no
    such event directly, and its composition is read leaf by leaf only at the sampling 1 (as if the Poisson node
    were not there) or 0 (every leaf dropped), so ``sampling`` is 1 or 0.  A composition inside:
    :func:`_composition_without_replacement`."""
    if tree.relation != REPLACE:
        raise Malformed(f"{pointer}: sampling without replacement is accounted under replace_one only (n is public), "
                        f"as in dp_accounting (docs/accounting.md §3)")
    n = common.integer(event["source_dataset_size"], pointer + "/source_dataset_size", 1)
    m = common.integer(event["sample_size"], pointer + "/sample_size", 0)
    if m > n:
        raise Malformed(f"{pointer}/sample_size: {common.magnitude(m)} records sampled from a dataset of "
                        f"{common.magnitude(n)}")
    if tree.largest is None or n > tree.largest[0]:
        tree.largest = (n, pointer + "/source_dataset_size")
    inner, where, gamma = event["event"], pointer + "/event", Fraction(m, n)
    kind = inner["class_name"]
    if kind in _COMPOSITIONS:
        _composition_without_replacement(inner, pointer, tree, multiplicity, gamma * sampling)
        return
    tree.events += 1
    if kind == "NoOpDpEvent":
        return
    if kind not in _WITHOUT_REPLACEMENT:
        raise Malformed(f"{where}: a SampledWithoutReplacementDpEvent must wrap a GaussianDpEvent, a LaplaceDpEvent, "
                        f"a DiscreteLaplaceDpEvent, a DiscreteGaussianDpEvent, a composition of GaussianDpEvents or "
                        f"a no-op, not a {kind}; wrap each other event in its own sampling event")
    unsampled = _leaf(inner, kind, where, tree, Fraction(1))    # its domain, before the dropping
    if unsampled is None or gamma == 0 or sampling == 0:        # None: a discrete leaf of sensitivity 0
        return
    if gamma != 1:                # γ = 1: the batch is the whole dataset, the unsampled replace-one mechanism
        unsampled = dict(unsampled, mechanism=_WITHOUT_REPLACEMENT[kind], sampling=write_rational(gamma))
    tree.leaves.append((unsampled, multiplicity))


def _composition_without_replacement(event, pointer, tree, multiplicity, gamma):
    """A sampling without replacement (at ``pointer``, γ = m/n times the Poisson ancestors' 1 or 0) of the
    composition ``event``: every event inside must be a Gaussian event or a no-op, whatever γ (checked now); then
    dropped at γ = 0, read leaf by leaf at γ = 1 (each Gaussian event its ``gaussian`` stage of sampling 1 and
    multiplicity ``multiplicity``·m_i, as if the sampling were not there), and otherwise one stage
    (:class:`_Composition`): ``gaussian_without_replacement`` for one Gaussian event reached once,
    ``gaussian_composition_without_replacement`` of σ² = 1/Σ m_i/σ_i² (at least 1/100) for any other.

    Why one stage: on a fixed batch the composition, block i divided by σ_i, is one Gaussian mechanism whose
    replace-one change has norm at most 2/σ, so its tradeoff function is that of the replace-one Gaussian of σ, and
    the theorem of ``gaussian_without_replacement`` applies to it unchanged
    (:class:`auditor.pld.families.WithoutReplacementGaussian`)."""
    gaussians = []
    _gather(event, pointer + "/event", tree, 1, gaussians, "a sampling without replacement")
    if gamma == 0:
        return
    if gamma == 1:
        for m, sigma in gaussians:
            gaussian = {"mechanism": "gaussian", "sampling": "1", "sigma": write_rational(sigma)}
            tree.leaves.append((gaussian, multiplicity * m))
        return
    tree.leaves.append((_Composition(pointer, gamma, gaussians, _WITHOUT_REPLACEMENT_STAGES), multiplicity))


_WITHOUT_REPLACEMENT = {"GaussianDpEvent": "gaussian_without_replacement",
                        "LaplaceDpEvent": "laplace_without_replacement",
                        "DiscreteLaplaceDpEvent": "discrete_laplace_without_replacement",
                        "DiscreteGaussianDpEvent": "discrete_gaussian_without_replacement"}
"""The leaves a sampling without replacement may wrap (beside a no-op and a composition of Gaussian events), and
their stage mechanisms."""


# class name: (stage mechanism, the noise field, its name in the stage, its domain, the domain's text)
_DISCRETE = {
    "DiscreteLaplaceDpEvent": ("discrete_laplace", "noise_parameter", "parameter", (PARAMETER_MIN, PARAMETER_MAX),
                               "[1/100, 100]"),
    "DiscreteGaussianDpEvent": ("discrete_gaussian", "sigma_squared", "sigma_squared", (VARIANCE_MIN, VARIANCE_MAX),
                                "[1/100, 10^6]"),
}


def _discrete_leaf(event, kind, pointer, tree, sampling):
    """A discrete Laplace or discrete Gaussian leaf: the noise in its domain, an integer sensitivity in
    [0, 1000], under either relation with any sampling; dropped at sensitivity 0 (after those checks)."""
    mechanism, field, name, (lo, hi), text = _DISCRETE[kind]
    noise = tree.number(event[field], f"{pointer}/{field}")
    _bounded(noise, lo, hi, f"{pointer}/{field}", text)
    s = common.integer(event["sensitivity"], pointer + "/sensitivity", 0)
    if s > DISCRETE_SENSITIVITY_MAX:
        raise Malformed(f"{pointer}/sensitivity: {s} is outside the domain [0, {DISCRETE_SENSITIVITY_MAX}]")
    if s == 0:
        return None
    return {"mechanism": mechanism, name: write_rational(noise), "sampling": write_rational(sampling),
            "sensitivity": s}


def _mixture(event, pointer, tree, q):
    sigma = tree.number(event["standard_deviation"], pointer + "/standard_deviation")
    _bounded(sigma, SIGMA_MIN, SIGMA_MAX, pointer + "/standard_deviation", "[1/10, 10^4]")
    sensitivities, probabilities = event["sensitivities"], event["sampling_probs"]
    if len(sensitivities) != len(probabilities):
        raise Malformed(f"{pointer}/sampling_probs: {len(probabilities)} probabilities for "
                        f"{len(sensitivities)} sensitivities")
    merged = {}
    for i, (d_text, p_text) in enumerate(zip(sensitivities, probabilities)):
        d = tree.number(d_text, f"{pointer}/sensitivities/{i}")
        _bounded(d, Fraction(0), SENSITIVITY_MAX, f"{pointer}/sensitivities/{i}", "[0, 100]")
        p = tree.number(p_text, f"{pointer}/sampling_probs/{i}")
        merged[d] = merged.get(d, Fraction(0)) + p
    total = sum(merged.values(), Fraction(0))
    if total != 1:
        raise Malformed(f"{pointer}/sampling_probs: the probabilities sum to {show(total)}, not 1")
    if all(d == 0 for d in merged):
        return None
    ordered = sorted(merged)
    return {"mechanism": "mixture_of_gaussians", "probabilities": [write_rational(merged[d]) for d in ordered],
            "sampling": q, "sensitivities": [write_rational(d) for d in ordered], "sigma": write_rational(sigma)}


def canonical(mechanism):
    """The canonical JSON text of a stage mechanism (sorted keys, no spaces): the stages' sort key."""
    return json.dumps(mechanism, sort_keys=True, separators=(",", ":"))


def read_stages(event, relation, pointer="/input/event"):
    """The stages ``event`` reads into under ``relation`` (docs/accounting.md §3): [(mechanism, count)], merged and
    sorted; MALFORMED outside the domain, UNCHECKED beyond the tree's limits (module docstring, 1–3)."""
    tree = _Tree(relation)
    _walk(event, pointer, tree, 1, Fraction(1))
    if tree.events > MAX_EVENTS:
        raise Unchecked(pointer, tree.events, MAX_EVENTS, "events of the tree")
    if tree.widest is not None and tree.widest[0] > MAX_NUMBER_BITS:
        raise Unchecked(tree.widest[1], tree.widest[0], MAX_NUMBER_BITS,
                        "bits of the numerator or denominator of a number of the tree")
    if tree.largest is not None and tree.largest[0] > MAX_DATASET_SIZE:
        raise Unchecked(tree.largest[1], tree.largest[0], MAX_DATASET_SIZE,
                        "records of the dataset of a sampling without replacement")
    if tree.truncation_work > truncation.MAX_SUM_WORK:
        raise Unchecked(pointer, tree.truncation_work, truncation.MAX_SUM_WORK,
                        "bit operations of the binomial sums of the truncated samplings")
    if tree.tail_roots > truncation.MAX_TAIL_ROOTS:
        raise Unchecked(pointer, tree.tail_roots, truncation.MAX_TAIL_ROOTS,
                        "Σ (⌊√((n − 1)q(1 − q))⌋ + 2) of the truncated samplings on the long route")
    counts, mechanisms = {}, {}
    for mechanism, multiplicity in tree.leaves:
        if isinstance(mechanism, (_Composition, _Truncated)):
            mechanism = mechanism.stage()
        if mechanism is None or multiplicity == 0 or mechanism["sampling"] == "0":
            continue
        key = canonical(mechanism)
        mechanisms[key] = mechanism
        counts[key] = counts.get(key, 0) + multiplicity
    return [(mechanisms[key], counts[key]) for key in sorted(mechanisms)]


def pair_relation(relation):
    """The relation that decides the pairs and the gaussian route's d: ``replace_special`` is read as
    ``add_or_remove_one`` (module docstring), once its leaves are checked."""
    return ADD_OR_REMOVE if relation == REPLACE_SPECIAL else relation


def parse(cert):
    """The question, the auditor's reading of the tree and the result's form, validated (Malformed outside the
    domain, Unchecked beyond the tree's limits); ``relation`` the one of the pairs (:func:`pair_relation`)."""
    inp, res = cert["input"], cert["result"]
    relation = inp["relation"]
    p = dict(decisions.read_question(inp, res), relation=pair_relation(relation), given_relation=relation)
    p["stages"] = read_stages(inp["event"], relation)
    p["total"] = sum(count for _, count in p["stages"])
    if p["route"] != LATTICE and res.get("lattice") is not None:
        raise Malformed("/result/lattice: must be null or absent except on the lattice route")
    return p


# ---- 3. and 4. the stages and the route ------------------------------------------------------------------

_FIELDS = {"gaussian": ("sampling", "sigma"), "gaussian_without_replacement": ("sampling", "sigma"),
           "gaussian_composition": ("sampling", "sigma_squared"),
           "gaussian_composition_without_replacement": ("sampling", "sigma_squared"),
           "laplace": ("sampling", "scale"), "laplace_without_replacement": ("sampling", "scale"),
           "mixture_of_gaussians": ("probabilities", "sampling", "sensitivities", "sigma"),
           "randomized_response": ("buckets", "noise", "sampling"),
           "discrete_laplace": ("parameter", "sampling", "sensitivity"),
           "discrete_gaussian": ("sampling", "sensitivity", "sigma_squared"),
           "discrete_laplace_without_replacement": ("parameter", "sampling", "sensitivity"),
           "discrete_gaussian_without_replacement": ("sampling", "sensitivity", "sigma_squared"),
           "truncated_gaussian": ("batch_size", "conditional_sampling", "dataset_size", "sampling", "sigma")}


def _result_stages(cert):
    """``result.stages`` as plain [(mechanism dict, count)], every field read."""
    out = []
    for stage in cert["result"]["stages"]:
        m = stage["mechanism"]
        kind = m["mechanism"]
        mechanism = {"mechanism": kind}
        for field in _FIELDS[kind]:
            value = m[field]
            mechanism[field] = [x for x in value] if field in ("probabilities", "sensitivities") else value
        out.append((mechanism, stage["count"]))
    return out


def _stage_text(mechanism, count=None):
    def t(text):
        return summaries.rational_text(Fraction(text))
    m, kind = mechanism, mechanism["mechanism"]
    if kind == "randomized_response":
        text = f"randomized response p = {t(m['noise'])}, k = {m['buckets']}"
        return text if count is None else f"{text}, T = {count}"
    base = kind.removesuffix("_without_replacement")
    if base in ("gaussian", "truncated_gaussian"):
        text = f"gaussian sigma = {t(m['sigma'])}"
    elif base == "gaussian_composition":
        text = f"gaussian composition sigma^2 = {t(m['sigma_squared'])}"
    elif base == "laplace":
        text = f"laplace b = {t(m['scale'])}"
    elif base == "mixture_of_gaussians":
        shown = ", ".join(f"{t(p)}@{t(d)}" for d, p in zip(m["sensitivities"][:4], m["probabilities"]))
        more = ", ..." if len(m["sensitivities"]) > 4 else ""
        text = f"mixture sigma = {t(m['sigma'])} ({shown}{more})"
    elif base == "discrete_laplace":
        text = f"discrete laplace a = {t(m['parameter'])}, s = {m['sensitivity']}"
    else:
        text = f"discrete gaussian sigma^2 = {t(m['sigma_squared'])}, s = {m['sensitivity']}"
    if base != kind:
        text += f", sampled without replacement, m/n = {t(m['sampling'])}"
    else:
        text += f", q = {t(m['sampling'])}"
    if kind == "truncated_gaussian":
        text += f" truncated to {m['batch_size']} of {m['dataset_size']} (p^ = {t(m['conditional_sampling'])})"
    return text if count is None else f"{text}, T = {count}"


def _check_stages(p, cert, report):
    """``result.stages`` must be the reading of the tree; then Σ T within the limit."""
    mine, stated = p["stages"], _result_stages(cert)
    if len(stated) != len(mine):
        return report.check(False, "/result/stages", f"{len(stated)} stages",
                            f"{len(mine)} stages: " + "; ".join(_stage_text(m, c) for m, c in mine[:4])[:300],
                            "the tree does not read into these stages (docs/accounting.md §3)")
    ok = True
    for s, ((m, count), (m_stated, count_stated)) in enumerate(zip(mine, stated)):
        ok &= report.check(canonical(m_stated) == canonical(m), f"/result/stages/{s}/mechanism",
                           canonical(m_stated)[:300], canonical(m)[:300],
                           "the tree does not read into this stage mechanism (docs/accounting.md §3)")
        ok &= report.equal(f"/result/stages/{s}/count", count_stated, count, "count of the stage")
    if ok and p["total"] > MAX_TOTAL_COUNT:
        raise Unchecked("/result/stages", p["total"], MAX_TOTAL_COUNT, "steps in all (the sum of the counts)")
    return ok


def _lattice_applies(p):
    """The lattice route answers exactly one randomized-response stage under replace_one (docs/accounting.md §5)."""
    return (len(p["stages"]) == 1 and p["stages"][0][0]["mechanism"] == "randomized_response"
            and p["given_relation"] == REPLACE)


def _check_route(p, report):
    if p["route"] == LATTICE:
        return report.check(_lattice_applies(p), "/result/route", LATTICE, "gaussian or pld",
                            "route not applicable: the lattice route is for exactly one randomized-response "
                            "stage under replace_one (docs/accounting.md §5)")
    gaussian_only = all(m["mechanism"] == "gaussian" and m["sampling"] == "1" for m, _ in p["stages"])
    expected = "gaussian" if gaussian_only else "pld"
    return report.check(p["route"] == expected, "/result/route", p["route"], expected,
                        "the route is gaussian exactly when every stage is gaussian with sampling 1")


def _check_forward(cert, report):
    """On the lattice route a lower end is proved by the one lower array, of the forward order."""
    res = cert["result"]
    named = [(f"/result/points/{i}/lower_order", pt["lower_order"]) for i, pt in enumerate(res["points"])] \
        if "points" in res else [("/result/lower_order", res["lower_order"])]
    for pointer, order in named:
        if order is not None:
            report.check(order == FORWARD, pointer, order, FORWARD,
                         "the lattice route's lower bounds are those of the forward order")


# ---- 5. the recipe ---------------------------------------------------------------------------------------

def pair_of(mechanism, relation):
    """The dominating pair of a stage mechanism under ``relation`` (:mod:`auditor.pld.families`): randomized
    response's own under replace_special, otherwise the pairs of :func:`pair_relation`."""
    kind = mechanism["mechanism"]
    q = Fraction(mechanism["sampling"])
    if kind == "randomized_response":
        return families.randomized_response(Fraction(mechanism["noise"]), mechanism["buckets"],
                                            special=relation == REPLACE_SPECIAL)
    relation = pair_relation(relation)
    if kind == "gaussian":
        return families.gaussian(Fraction(mechanism["sigma"]), q, relation)
    if kind == "gaussian_composition":
        return families.gaussian_composition(Fraction(mechanism["sigma_squared"]), q, relation)
    if kind == "gaussian_without_replacement":
        return families.without_replacement(Fraction(mechanism["sigma"]), q)
    if kind == "gaussian_composition_without_replacement":
        return families.composition_without_replacement(Fraction(mechanism["sigma_squared"]), q)
    if kind == "laplace":
        return families.laplace(Fraction(mechanism["scale"]), q, relation)
    if kind == "laplace_without_replacement":
        return families.laplace_without_replacement(Fraction(mechanism["scale"]), q)
    if kind == "discrete_laplace":
        return families.discrete_laplace(Fraction(mechanism["parameter"]), mechanism["sensitivity"], q, relation)
    if kind == "discrete_gaussian":
        return families.discrete_gaussian(Fraction(mechanism["sigma_squared"]), mechanism["sensitivity"], q, relation)
    if kind == "discrete_laplace_without_replacement":
        return families.discrete_laplace_without_replacement(Fraction(mechanism["parameter"]),
                                                             mechanism["sensitivity"], q)
    if kind == "discrete_gaussian_without_replacement":
        return families.discrete_gaussian_without_replacement(Fraction(mechanism["sigma_squared"]),
                                                              mechanism["sensitivity"], q)
    if kind == "truncated_gaussian":
        return truncation.TruncatedGaussian(mechanism["dataset_size"], q, mechanism["batch_size"],
                                            Fraction(mechanism["sigma"]), Fraction(mechanism["conditional_sampling"]),
                                            relation)
    if kind == "mixture_of_gaussians":
        return families.mixture(Fraction(mechanism["sigma"]), [Fraction(d) for d in mechanism["sensitivities"]],
                             [Fraction(x) for x in mechanism["probabilities"]], q)
    raise ValueError(f"no pair for the stage mechanism {kind!r}")


_DISCRETE_STAGES = ("discrete_laplace", "discrete_gaussian", "discrete_laplace_without_replacement",
                    "discrete_gaussian_without_replacement")


def declared(mechanism):
    """(guard, parts) of a stage mechanism as docs/accounting.md §6 states them: the guard
    24 + bits(⌊1/q⌋) + 2·bits(⌊s⌋ + 1), q the sampling and s the σ, b or 1 (randomized response, the discrete
    Laplace, the discrete Gaussian; a Gaussian composition, Poisson-sampled or without replacement:
    ⌊σ⌋ = isqrt(⌊σ²⌋)); the bits of the numerators and denominators of every number (σ or b, each Δ_i and p_i, q;
    randomized response: p and k; the discrete families: a or σ², s and q; a Gaussian composition: σ² and q), under
    either relation."""
    kind = mechanism["mechanism"]
    q = mechanism["sampling"]
    if kind in ("gaussian_composition", "gaussian_composition_without_replacement"):
        variance = mechanism["sigma_squared"]
        return (pairs.declared_guard(q, isqrt(floor(Fraction(variance)))),
                pairs.bits(q) + pairs.bits(variance))
    if kind == "randomized_response":
        return pairs.declared_guard(q, 1), pairs.bits(mechanism["noise"]) + pairs.bits(mechanism["buckets"])
    if kind == "truncated_gaussian":   # the guard of the rate p̂ and σ, the larger of its two sampled Gaussians'
        rate = mechanism["conditional_sampling"]
        return (pairs.declared_guard(rate, mechanism["sigma"]),
                sum(pairs.bits(x) for x in (mechanism["dataset_size"], q, mechanism["batch_size"],
                                            mechanism["sigma"], rate)))
    if kind in _DISCRETE_STAGES:
        noise = mechanism["parameter"] if "parameter" in mechanism else mechanism["sigma_squared"]
        scale = 1 if kind in ("discrete_laplace", "discrete_gaussian") else mechanism["sensitivity"]
        return pairs.declared_guard(q, scale), sum(pairs.bits(x) for x in (noise, mechanism["sensitivity"], q))
    s = mechanism["scale"] if kind in ("laplace", "laplace_without_replacement") else mechanism["sigma"]
    numbers = [s, q] + mechanism.get("sensitivities", []) + mechanism.get("probabilities", [])
    return pairs.declared_guard(q, s), sum(pairs.bits(x) for x in numbers)


def _lattice_plan(p, cert):
    """The lattice recipe of the one randomized-response stage, checked for shape (Malformed)."""
    mechanism, count = p["stages"][0]
    return lattice.read_plan(cert, lattice.Law(Fraction(mechanism["noise"]), mechanism["buckets"]), count)


def _plan(p, cert):
    """The recipe, checked for shape (Malformed); its work is estimated separately."""
    stages = [(pair_of(m, p["given_relation"]), count, *declared(m)) for m, count in p["stages"]]
    plan = recipe.read_plan(cert, stages, ORDERS)
    for s, st in enumerate(plan["stages"]):
        if isinstance(st.pair, families.Symmetrised) and not st.lo <= 0 <= st.hi:
            raise Malformed(f"{recipe.P}/ranges/{s}: the range [{common.magnitude(st.lo)}, "
                            f"{common.magnitude(st.hi)}] of a {st.pair.mechanism} stage must hold the loss "
                            f"level 0 (lo <= 0 <= hi: its loss law has an atom at 0)")
    cut = plan["split"]
    if cut and cut.coarse and isinstance(plan["stages"][0].pair, families.Symmetrised) and cut.coarse[0] != 0:
        raise Malformed(f"{cut.pointer}/coarse_tail: the parts [lo, c] and [c/ρ, hi/ρ] of a "
                        f"{plan['stages'][0].pair.mechanism} stage must both hold the loss level 0 (c = 0, not "
                        f"{common.magnitude(cut.coarse[0])}: its loss law has an atom at 0)")
    return plan


# ---- the summary ------------------------------------------------------------------------------------------

_RELATIONS = {ADD_OR_REMOVE: "add/remove", REPLACE: "replace-one", REPLACE_SPECIAL: "replace-special"}


def _mechanism_text(cert):
    p_stages = read_stages(cert["input"]["event"], cert["input"]["relation"])
    listed = "; ".join(_stage_text(m, c) for m, c in p_stages[:2])
    more = f"; and {len(p_stages) - 2} more" if len(p_stages) > 2 else ""
    noun = "stage" if len(p_stages) == 1 else "stages"
    d = cert["result"]["discretisation"]
    if cert["result"]["route"] == LATTICE:
        route = f"exact lattice, K = {cert['result']['lattice']['bits']}"
    else:
        route = "closed form" if d is None else f"certified PLD, h = 1/{d['grid']}"
    return (f"a tree of {len(p_stages)} {noun} ({listed}{more}) under "
            f"{_RELATIONS[cert['input']['relation']]} neighbours ({route})")


def claim(cert):
    """``eps(1/100000) in [1.827983856, 1.828739167] for a tree of 1 stage (...)`` or the points."""
    return decisions.answer_claim(cert, _mechanism_text(cert))
