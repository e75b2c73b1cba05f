"""Checks of ``dpsgd/1`` certificates: ε(δ) or δ(ε) of DP-SGD (docs/dpsgd.md, §9).

The question is ``input`` (the schedule of stages (q, σ, T), δ or the ε
list, the relative width R); every ``result`` field but ``discretisation``
is a claim; ``discretisation`` is the recipe the claims are checked with (its
numbers fix the auditor's route; nothing stored is trusted).  In order:

1. Domain (MALFORMED outside it): 10^−7 <= q <= 1, 1/10 <= σ <= 100,
   Σ T <= 10^6; 10^−30 <= δ < 1, or 1..64 strictly increasing ε in
   [0, 500]; 10^−6 <= R <= 1/2; a result of the question's form; a ``pld``
   route with a discretisation, a ``gaussian`` one without.
2. Route (FAIL): ``gaussian`` exactly when every stage has q = 1.
3. Recipe (MALFORMED): one range per stage, lo <= hi everywhere, per chain
   one window list per stage of the length the powering prescribes
   ((bit length of T − 1) + (popcount of T − 1)) and S − 1 ``combine``
   windows; a lower chain for every order a claim names; regrids only for a
   single stage, ``after`` strictly increasing below the number of products,
   r − 1 shares each at most 2^S (:mod:`auditor.pld.regrid`); a split only for
   a single stage of T >= 2, each order's body a <= b meeting its single-step
   range, then (products of the power of T − 1) + 1 windows a chain and the
   regrids inside that power, and a coarse tail true when given, its bodies
   [lo, c] and [−c, −lo] with lo < c < hi, ρ = G·r dividing N, c and hi
   (:mod:`auditor.pld.split`).
4. Work (UNCHECKED, before any enclosure is computed), from the recipe's
   numbers alone: |lo|, |hi| <= :data:`MAX_LOSS`·N; working precision <=
   :data:`MAX_WORKING_BITS`; Σ (hi − lo + 1) <= :data:`MAX_BUCKETS`; every
   array (window, product) <= :data:`MAX_ENTRIES` entries; 2^K (2^K′) >=
   4·ΣT·(3·n + 3) for the longest array n, which keeps every rounded total
   below twice the scale (so the field bits are as estimated); every ε
   evaluated <= :data:`MAX_EPSILON`.  And the whole check within the file's
   budget (:mod:`auditor.budget`): the masses of every bucket, Σ_s n_s·(W_s +
   ⌊W_s²/1024⌋ + ⌊parts_s/4⌋)·:data:`MASS_NS` work units (n_s the buckets of
   stage s, W_s its working bits, parts_s the bits of q's and σ's numerators
   and denominators), plus every product of the chains checked,
   Σ (n_A + n_B)·(field bits)·:data:`CONVOLUTION_NS`; memory the larger of
   Σ_s n_s·(1024 + 2·W_s) bytes (the masses) and Σ_s 6·(n_s + 1)·(64 +
   max(K, K′)/8) bytes (the single-step arrays kept) plus (384 + field
   bits/2) bytes per entry of the longest product (:func:`estimate`).  The retry is run only when the
   file's budget affords it too (its masses at W_s + 64).
5. Exact claims (FAIL): ε_lo <= ε_hi and ε_hi − ε_lo <= R·ε_hi, or one point
   per ε in order with lower <= upper <= 1 and upper − lower <= R·upper (or
   upper <= 10^−30); ``lower_order`` null exactly when the lower end is 0 (and
   on the gaussian route); displays are the exact values rounded outward
   (down for lower ends, up for upper ends) to 10 significant digits.  Two
   exact facts: 0 < δ(ε) < 1 for every ε (the loss is unbounded above, and
   the laws share their support), so upper = 0 and lower >= 1 are false;
   and δ(ε) <= 1 always, so upper = 1 is true.
6. Enclosure claims, three-way (:mod:`auditor.decide`): δ(ε_hi) <= δ,
   δ(ε_lo) > δ (when ε_lo > 0), δ(ε) <= upper (when < 1), δ(ε) >= lower (when > 0).
   ``gaussian``: the auditor's closed-form enclosure (:mod:`auditor.pld.gaussian`).
   ``pld``: the regrids' shares (and a split's) are confirmed first with the auditor's own
   e^x enclosures (FAIL naming the share otherwise, the claims then left
   undecided: the recipe establishes nothing); the auditor's own single-step
   arrays (:mod:`auditor.pld.masses`), composed with the recorded windows and
   regrids (:mod:`auditor.pld.composition`, :mod:`auditor.pld.regrid`), give
   upper bounds F of both orders and, for the orders the claims name, lower
   bounds L (:mod:`auditor.pld.answer`).  An upper claim is proved by
   max F <= value and disproved by L > value; a lower claim is proved by the
   named order's L, disproved by max F below the value.  Open claims are
   retried once with more guard bits (when the file's budget affords it);
   still open, the claim is not established by the certificate's recipe: a
   FAIL, like a disproved one.
"""

from fractions import Fraction

from auditor import budget
from auditor import claims as summaries
from auditor.certificate import Malformed
from auditor import common
from auditor.outcomes import MalformedInput, Unchecked
from auditor.pld import decisions, pairs, recipe, regrid
from auditor.pld.decisions import DISPLAY_DIGITS, MAX_GAUSSIAN_BITS, TINY  # noqa: F401 - the kind's constants
from auditor.pld.pairs import MASS_NS  # noqa: F401 - the kind's constants
from auditor.pld.recipe import (CONVOLUTION_NS, KEPT_ARRAYS, KEPT_BYTES, MASS_BYTES, MASS_BYTES_PER_BIT,  # noqa: F401
                                MAX_BUCKETS, MAX_ENTRIES, MAX_LOSS, MAX_WORKING_BITS, PRODUCT_BYTES, RETRY_GUARD)
from auditor.rationals import read_rational

# ---- the domain ---------------------------------------------------------------------------
MAX_STEPS = 10 ** 6
Q_MIN, Q_MAX = Fraction(1, 10 ** 7), Fraction(1)
SIGMA_MIN, SIGMA_MAX = Fraction(1, 10), Fraction(100)

# ---- the limits (UNCHECKED beyond them, before any work) -------------------------------------
MAX_EPSILON = Fraction(2000)
"""Largest ε at which a claim is evaluated (stored ε_lo, ε_hi)."""
# the recipe's limits (MAX_LOSS, MAX_WORKING_BITS, MAX_BUCKETS, MAX_ENTRIES) and the constants of the whole
# check's work and memory (MASS_NS, CONVOLUTION_NS, PRODUCT_BYTES, ...) are those of auditor.pld.recipe and
# auditor.pld.pairs, shared with accounting/1

ORDERS = ("remove", "add")


def verify(cert, report):
    """Every claim of a schema-valid ``dpsgd/1`` certificate, in the order of the module docstring."""
    p = parse(cert)
    if not _check_route(p, report):
        return
    plan = _plan(p, cert) if p["route"] == "pld" else None
    pending = decisions.exact_claims(p, cert, report)
    if not report.ok:
        return  # a false exact claim: no need for the enclosures
    for c in pending:
        if c.epsilon > MAX_EPSILON:
            raise Unchecked(c.pointer, c.epsilon, MAX_EPSILON, "epsilon to evaluate")
    if plan is None:
        mu2 = sum(Fraction(steps) / (sigma * sigma) for _, sigma, steps in p["stages"])
        decisions.decide_gaussian(mu2, pending, report)
        return
    budget.reserve(report, [(cert, estimate_plan(p, plan))])
    if not regrid.check_shares(recipe.coarsenings(plan), plan["N"], report):
        return  # a share not confirmed: the recipe's bounds establish nothing
    value_bits = decisions.start_bits(pending)
    decisions.decide_pld(pending, report, lambda guard: estimate_plan(p, plan, guard),
                         lambda guard: _pld_bounds(plan, value_bits + guard, guard))


def estimate(cert, prefix=""):
    """The estimated first pass of the whole check (:class:`auditor.budget.Cost`); UNCHECKED beyond a limit
    of the kind, MALFORMED outside its domain or with a recipe of the wrong shape.  Pointers start at
    ``prefix`` (an embedding certificate's place for this one, :func:`auditor.embedded.cost`)."""
    try:
        p = parse(cert)
        if p["route"] != "pld":
            return budget.Cost(pointer=prefix + "/result/route", what="closed form")
        cost = estimate_plan(p, _plan(p, cert))
    except MalformedInput as exc:
        raise Malformed(f"{prefix}{exc}") from None
    except Unchecked as exc:
        raise Unchecked(prefix + (exc.pointer or ""), exc.estimate, exc.limit, exc.what) from None
    return cost.at(prefix)


# ---- 1. domain ------------------------------------------------------------------------------

_bounded = decisions.bounded


def parse(cert):
    """The question and the result's form, validated against the kind's domain (Malformed outside it)."""
    inp, res = cert["input"], cert["result"]
    stages = []
    for s, stage in enumerate(inp["stages"]):
        P = f"/input/stages/{s}"
        q = _bounded(read_rational(stage["sampling_rate"], P + "/sampling_rate"), Q_MIN, Q_MAX,
                     P + "/sampling_rate", "[10^-7, 1]")
        sigma = _bounded(read_rational(stage["noise_multiplier"], P + "/noise_multiplier"), SIGMA_MIN,
                         SIGMA_MAX, P + "/noise_multiplier", "[1/10, 100]")
        steps = common.integer(stage["steps"], P + "/steps", 1)
        stages.append((q, sigma, steps))
    total = sum(steps for _, _, steps in stages)
    if total > MAX_STEPS:
        raise Malformed(f"/input/stages: {common.magnitude(total)} steps in all exceed the domain's 10^6")
    p = dict(decisions.read_question(inp, res), stages=stages, total=total)
    return p


# ---- 2. route -------------------------------------------------------------------------------

def _check_route(p, report):
    gaussian_only = all(q == 1 for q, _, _ in p["stages"])
    expected = "gaussian" if gaussian_only else "pld"
    return report.check(p["route"] == expected, "/result/route", p["route"], expected,
                        "the route is gaussian exactly when every stage has q = 1")


# ---- 3. and 4. the recipe and the work (auditor.pld.recipe) ----------------------------------

def _plan(p, cert):
    """The recipe, checked for shape (Malformed); its work is estimated separately (:func:`estimate_plan`)."""
    stages = [(pairs.SampledGaussian(q, sigma), steps) for q, sigma, steps in p["stages"]]
    return recipe.read_plan(cert, stages, ORDERS)


def estimate_plan(p, plan, guard=0):
    """The work and memory of one pass at ``guard`` extra bits (:class:`auditor.budget.Cost`), from the
    recipe's numbers alone; UNCHECKED beyond a limit of the kind (module docstring, step 4)."""
    return recipe.estimate_plan(plan, p["total"], guard)


def _pld_bounds(plan, value_bits, guard):
    """The recipe's bounds (:func:`auditor.pld.recipe.bounds`); a module attribute, so tests can count passes."""
    return recipe.bounds(plan, value_bits, guard)


# ---- the summary ----------------------------------------------------------------------------------

def _stage_text(stage):
    return (f"q = {summaries.rational_text(read_rational(stage['sampling_rate'], ''))}, "
            f"sigma = {summaries.rational_text(read_rational(stage['noise_multiplier'], ''))}, "
            f"T = {stage['steps']}")


def _mechanism_text(cert):
    stages = cert["input"]["stages"]
    if len(stages) == 1:
        text = f"DP-SGD with {_stage_text(stages[0])}"
    else:
        listed = "; ".join(_stage_text(s) for s in stages[:2])
        more = f"; and {len(stages) - 2} more" if len(stages) > 2 else ""
        text = f"a DP-SGD schedule of {len(stages)} stages ({listed}{more})"
    d = cert["result"]["discretisation"]
    route = "closed form" if d is None else f"certified PLD, h = 1/{d['grid']}"
    return f"{text} (Poisson-subsampled Gaussian, sensitivity 1, add/remove; {route})"


def claim(cert):
    """``eps(1/100000) in [6.186614990, 6.189910889] for DP-SGD with q = 1/100, ...`` or the points."""
    return decisions.answer_claim(cert, _mechanism_text(cert))
