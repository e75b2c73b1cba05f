"""Checks of ``plain-composition/1`` certificates: δ(ε) of the C-fold plain composition.

Claim of point i: lower_i <= δ(ε_i) <= upper_i, with δ(ε) = Σ_{x ∈ ℤ^C}
(P^C(x) − e^ε Q^C(x))_+, P = N the noise law (discrete Gaussian N_Z(0, σ²)
or discrete Laplace L_t) and Q = N(· − 1) - or, in the releases form, the
product over releases r of N_r^{k_r} against N_r(· − s_r)^{k_r}
(:mod:`auditor.plain.releases`).  Re-checked, in this order:

1. Domain (MALFORMED, exit 2, outside it): 1 <= C <= 1024, 1..1000 values of
   ε, strictly increasing, each 0 <= ε <= 10^4; σ² or t in [1/100, 10^6];
   W and R (when non-null) >= 10^-60, not both null.  The releases form must
   be canonical: sorted strictly by (family, scale, sensitivity) (so equal
   releases merged), total count <= 1024, and not one release of sensitivity
   1 (that question has the single-law form); each of these is MALFORMED - a
   question written outside its one form, as unsorted epsilons are.
2. Work (UNCHECKED, exit 3, raised before any enclosure is computed): σ² or
   t with a numerator or a denominator of more than 256 bits
   (:data:`auditor.common.MAX_PARAMETER_BITS`); for the
   discrete Gaussian the first enclosure's windowed C-fold convolution
   (:func:`auditor.plain.gaussian.plan`, sizes computed exactly before the
   work) must have at most :data:`MAX_COEFFICIENTS` coefficients in its
   longest product and at most :data:`MAX_PRODUCT_BITS` bits in its largest
   packed product; for the discrete Laplace the fixed-point scale at most
   :data:`MAX_LAPLACE_SCALE` bits.  The Gaussian sizes grow like
   σ·sqrt(C·log2(1/W)) and do not depend on ε (docs/plain-composition-audit.md §5).
   The releases form: the same two limits over every product of its lattice
   enclosure (:func:`auditor.plain.releases.plan`; docs/plain-composition-audit.md §7).
   And the whole level - every product of every list, not only the largest -
   within the file's budget (:mod:`auditor.budget`; :func:`level_cost`, with
   measured constants), reserved before the work.
3. Shape (FAIL): one point per input ε in the same order, each point's
   ``epsilon`` the input's; lower <= upper; the width claim exactly:
   (W non-null and upper − lower <= W) or (R non-null and upper − lower <= R·lower);
   ``lower_display`` / ``upper_display`` the exact ends rounded down / up at
   the display's own number of places.
4. Containment (FAIL when disproved or not established): the auditor's own enclosure
   [a, b] of δ(ε) (:mod:`auditor.plain`, exact integer and rational
   arithmetic, a route independent of the producer's arb) proves
   lower <= a and b <= upper, or disproves a side by upper < a or lower > b.
   A claimed interval wider than the truth but containing it is a true claim.
   Exact rules decide some sides without an enclosure: 0 <= δ(ε) < 1
   (δ(ε) <= TV(P^C, Q^C) < 1, the laws share their support), so lower = 0
   and upper >= 1 hold and lower >= 1 is false; for the discrete Laplace at
   ε >= C/t, δ(ε) = 0 exactly, so the claim holds exactly when lower = 0;
   otherwise δ(ε) > 0, so upper = 0 is false.
   Sides left open are retried at higher precision (the first level from W
   alone, or with R from the open claims - their widths and ends'
   denominators, what decides each point - never from the floor W;
   at least :data:`MIN_BITS`; the next at least twice that and what the open
   claims suggest - the bits of their widths and of their ends' denominators;
   then twice that; within the work limits and :data:`MAX_BITS`, and each
   level only when the file's budget affords it, estimated before it starts); a
   side still open then is not established by the certificate's recipe: a
   FAIL (exit 1), never OK.
"""

from fractions import Fraction

from auditor import budget
from auditor.certificate import Malformed
from auditor import common
from auditor.claims import interval_text, listed, number as _q, outward, rational_text
from auditor.decide import DISPROVED, OPEN, PROVED, fail_undecided, state
from auditor.outcomes import MalformedInput, Unchecked
from auditor.plain import gaussian, laplace, releases
from auditor.plain.polynomial import slot_width, windowed_lengths
from auditor.rationals import read_rational, show
from auditor.report import Report

MAX_BUDGET = 1024
NOISE_MIN, NOISE_MAX = Fraction(1, 100), Fraction(10 ** 6)
MAX_EPSILON = Fraction(10 ** 4)
MIN_WIDTH = Fraction(1, 10 ** 60)

# Longest product (coefficients) and largest packed product (bits) of one Gaussian enclosure.
MAX_COEFFICIENTS = 1 << 20
MAX_PRODUCT_BITS = 1 << 28
# Largest fixed-point scale (bits) of the discrete-Laplace enclosure.
MAX_LAPLACE_SCALE = 1 << 16
# Smallest and largest target precision (bits) of a refinement level.
MIN_BITS = 64
MAX_BITS = 1 << 13

# Significant digits of the auditor's enclosure in a failure report.
SHOWN_DIGITS = 25

# ---- the whole check's work and memory (auditor.budget), measured on the development machine ---------
PACKED_BIT_NS = 6
"""Work units per bit of a packed product of a windowed power (one GMP product, a rounding and a cut on the
packed integer): σ² = 10^6, C = 1024 at 58 bits took 1.9 s for 6.3·10^8 bits; σ² = 111,919 at 208 bits 3.6 s
for 8.9·10^8."""
PACKED_BYTES_PER_BIT = 3, 2
"""Memory of a windowed power: 3/2 byte per bit of its largest packed product (the product, the rounding
masks, the rounded and the kept integer; measured 1.2 and 1.3)."""
COEFFICIENT_NS, COEFFICIENT_BYTES = 1000, 64
"""Per coefficient read, unpacked or summed in Python (a base list, the final list and its discounted sums):
1000 work units plus the bits of the scale, and 64 bytes plus the scale's bytes."""
LIST_NS, LIST_BIT_NS = 400, 3
"""Per coefficient of an unpacked product (the releases form's products: packed and unpacked coefficient by
coefficient): 400 + 3·(slot bits) work units (measured 626 at 240-bit slots, 3360 at 1312-bit ones)."""
LIST_BYTES, LIST_BYTES_PER_SLOT_BYTE = 256, 5
"""Memory per coefficient of the largest unpacked product: 256 + 5·(slot bytes) (measured 247 and 933)."""
EPSILON_NS = 10 ** 5
"""Per ε evaluated: 10^5 + bits²/8 work units (the exponential enclosures of the tilt; 5 ms at 8200 bits)."""
LAPLACE_NS = 16
"""Per count and bit of the scale P of the discrete Laplace's closed form (its power lists and binomials)."""

_FAMILIES = {"discrete-gaussian": "sigma2", "discrete-laplace": "t"}


def verify(cert, report):
    p = parse(cert)
    claims = _check_shape(cert, p, report)
    open_claims = [c for c in claims if OPEN in c["sides"].values()]
    bits = _first_bits(p, open_claims)
    if open_claims:
        _refuse_work(p, bits, _boost(open_claims))
        budget.reserve(report, [(cert, level_cost(p, bits, _level_boost(p, bits, open_claims), len(open_claims)))])
    undecided = _check_containment(p, claims, bits, report)
    fail_undecided(undecided, report, cert)


def estimate(cert, prefix=""):
    """The estimated first level of the check (:class:`auditor.budget.Cost`) of a certificate embedded at
    ``prefix`` (:func:`auditor.embedded.cost`); UNCHECKED beyond a limit of the kind, MALFORMED outside its
    domain, with the pointers prefixed."""
    try:
        p = parse(cert)
        claims = _check_shape(cert, p, Report(prefix))
        open_claims = [c for c in claims if OPEN in c["sides"].values()]
        if not open_claims:
            return budget.Cost(pointer=prefix + "/result/points", what="exact rules only")
        bits = _first_bits(p, open_claims)
        _refuse_work(p, bits, _boost(open_claims))
        cost = level_cost(p, bits, _level_boost(p, bits, open_claims), len(open_claims))
    except MalformedInput as exc:
        raise Malformed(f"{prefix}{exc}") from None
    except Unchecked as exc:
        raise Unchecked(prefix + exc.pointer, exc.estimate, exc.limit, exc.what) from None
    return cost.at(prefix)


# ---- 1. domain ----------------------------------------------------------------------

def parse(cert):
    """The request, validated against the kind's domain (Malformed outside it).

    Two forms: the single-law form (``noise``, ``budget``: C releases of one law
    with sensitivity 1) and the releases form (``releases``, checked to be
    canonical by :func:`canonical_releases`).  The width claims: ``width`` W and the
    optional ``rel_width`` R, each a fraction or null, at least one non-null.
    """
    inp = cert["input"]
    if "releases" in inp:
        p = {"form": "releases", "releases": canonical_releases(inp["releases"])}
        p["budget"] = sum(r.count for r in p["releases"])
    else:
        family, parameter = _noise(inp["noise"], "/input/noise")
        budget = common.integer(inp["budget"], "/input/budget", 1)
        if budget > MAX_BUDGET:
            raise Malformed(f"/input/budget: {common.magnitude(budget)} is above the limit {MAX_BUDGET}")
        p = {"form": "single", "family": family, "parameter": parameter, "budget": budget}
    epsilons = [read_rational(e, f"/input/epsilons/{i}") for i, e in enumerate(inp["epsilons"])]
    for i, e in enumerate(epsilons):
        if not 0 <= e <= MAX_EPSILON:
            raise Malformed(f"/input/epsilons/{i}: {show(e)} is outside [0, 10000]")
        if i and e <= epsilons[i - 1]:
            raise Malformed(f"/input/epsilons/{i}: {show(e)} does not exceed the previous "
                            f"{show(epsilons[i - 1])} (the epsilons must be strictly increasing)")
    p["epsilons"] = epsilons
    p["width"] = _width(inp["width"], "/input/width")
    p["relative"] = "rel_width" in inp
    p["rel_width"] = _width(inp["rel_width"], "/input/rel_width") if p["relative"] else None
    if p["width"] is None and p["rel_width"] is None:
        raise Malformed("/input/width: width and rel_width are both null (at least one width is claimed)")
    return p


def _width(text, pointer):
    if text is None:
        return None
    width = read_rational(text, pointer)
    if width < MIN_WIDTH:
        raise Malformed(f"{pointer}: {show(width)} is below the limit 1/10^60")
    return width


def _noise(noise, pointer, domain=True):
    """(family, σ² or t) of one noise object, inside the domain (``domain`` False: any positive scale)."""
    family = noise["family"]
    key = _FAMILIES.get(family)
    if key is None:
        raise Malformed(f"{pointer}/family: unknown noise family {family!r}")
    parameter = read_rational(noise[key], f"{pointer}/{key}")
    if not domain:
        if parameter <= 0:
            raise Malformed(f"{pointer}/{key}: {show(parameter)} is not positive")
        return family, parameter
    if not NOISE_MIN <= parameter <= NOISE_MAX:
        raise Malformed(f"{pointer}/{key}: {show(parameter)} is outside the domain "
                        f"[1/100, 1000000]")
    common.refuse_size(parameter, f"{pointer}/{key}", key)
    return family, parameter


def canonical_releases(items, allow_single=False, scale_domain=True):
    """The releases, checked canonical (MALFORMED otherwise: the question is not written in its one form).

    Canonical: sorted strictly by (family, scale, sensitivity) - so equal
    (noise, sensitivity) are merged, counts added -, total count <= 1024, and
    not a single release of sensitivity 1 (that question is written in the
    single-law form, the same bytes as before the releases form existed).
    For noise/1's releases form, whose question is a factor on the scales:
    ``allow_single``, one release of sensitivity 1 is canonical too (the
    question is not a scale); ``scale_domain`` False, any positive scale (the
    domain and the size limits bind the scaled releases, which its embedded
    certificates of this kind compose).
    """
    out, keys = [], []
    for i, item in enumerate(items):
        P = f"/input/releases/{i}"
        family, scale = _noise(item["noise"], P + "/noise", scale_domain)
        sensitivity = common.integer(item["sensitivity"], P + "/sensitivity", 1)
        count = common.integer(item["count"], P + "/count", 1)
        key = (family, scale, sensitivity)
        if keys and key == keys[-1]:
            raise Malformed(f"{P}: the same noise and sensitivity as the release before (equal releases "
                            f"are merged, their counts added)")
        if keys and key < keys[-1]:
            raise Malformed(f"{P}: releases must be sorted by (family, scale, sensitivity)")
        keys.append(key)
        out.append(releases.Release(family, scale, sensitivity, count))
    if not out:
        raise Malformed("/input/releases: no release")
    total = sum(r.count for r in out)
    if total > MAX_BUDGET:
        raise Malformed(f"/input/releases: the total count {common.magnitude(total)} is above the limit "
                        f"{MAX_BUDGET}")
    if len(out) == 1 and out[0].sensitivity == 1 and not allow_single:
        raise Malformed("/input/releases: one release with sensitivity 1 is written in the single-law form "
                        "(noise, budget)")
    return out


# ---- 2. work --------------------------------------------------------------------------

def _bits_for(width):
    """Target precision (bits) for an enclosure narrower than ``width`` with room to spare."""
    return max(MIN_BITS, (width.denominator // width.numerator + 1).bit_length() + 8)


def _first_bits(p, open_claims):
    """The first level's precision.  W alone: from W (as before relative widths).  With R: from the open
    claims only - their widths and their ends' denominators, which are what decides each point (R·lower
    when it meets R, W when it meets only W) - never from W alone: the default floor W = 10^-60 beside
    R = 1/1000 would otherwise size every point at 10^-60 where R·lower is about 10^-8 (and a relative
    claim near δ = 10^-91 needs about 300 bits, which W does not say)."""
    if p["rel_width"] is not None:
        return min(MAX_BITS, max([MIN_BITS] + [_claim_bits(c) for c in open_claims]))
    return _bits_for(p["width"])


def _claim_bits(claim):
    """Precision suggested by the claim itself: its width and the denominators of its ends."""
    sizes = [claim["lower"].denominator.bit_length(), claim["upper"].denominator.bit_length()]
    if claim["upper"] > claim["lower"]:
        sizes.append(_bits_for(claim["upper"] - claim["lower"]))
    return max(sizes) + 8


def _work(p, bits, boost):
    """[(what, estimate, limit)] of one enclosure at ``bits`` with e^ε <= 2^boost (the Gaussian's sizes
    do not depend on ε)."""
    if p["form"] == "releases":
        plan = releases.plan(p["releases"], bits)
        return [("convolution coefficients", plan.coefficients, MAX_COEFFICIENTS),
                ("bits of the largest product", plan.product_bits, MAX_PRODUCT_BITS)]
    if p["family"] == "discrete-laplace":
        return [("fixed-point scale in bits", laplace.scale_bits(p["budget"], bits, boost),
                 MAX_LAPLACE_SCALE)]
    plan = gaussian.plan(p["parameter"], p["budget"], bits)
    return [("convolution coefficients", plan.coefficients, MAX_COEFFICIENTS),
            ("bits of the largest packed product", plan.product_bits, MAX_PRODUCT_BITS)]


def _within_limits(p, bits, boost):
    return bits <= MAX_BITS and all(estimate <= limit for _, estimate, limit in _work(p, bits, boost))


def _gaussian_cost(plan):
    """(work, memory) of one windowed power of the discrete Gaussian (:func:`auditor.plain.gaussian.sum_law`)."""
    lengths = plan.lengths()
    base = 2 * plan.radius + 1
    final = lengths[-1][2] if lengths else base
    work = PACKED_BIT_NS * sum((a + b) * plan.slot_width for a, b, _ in lengths)
    work += (base + final) * (COEFFICIENT_NS + plan.scale)
    num, den = PACKED_BYTES_PER_BIT
    memory = num * plan.product_bits // den + (base + final) * (COEFFICIENT_BYTES + plan.scale // 8)
    return work, memory


def _laplace_cost(release, scale):
    """(work, memory) of a discrete-Laplace release's uncut power in the releases form (packed, as above)."""
    s, k = release.sensitivity, release.count
    unit = 1 << scale
    width = slot_width(scale, unit + unit // 2)
    lengths = windowed_lengths(s + 1, 0, k, lambda copies: None)
    final = k * s + 1
    work = PACKED_BIT_NS * sum((a + b) * width for a, b, _ in lengths) + final * (COEFFICIENT_NS + scale)
    num, den = PACKED_BYTES_PER_BIT
    memory = num * max([0] + [(a + b) * width for a, b, _ in lengths]) // den \
        + final * (COEFFICIENT_BYTES + scale // 8)
    return work, memory


def _releases_cost(plan):
    """(work, memory) of the releases form's enclosure (:func:`auditor.plain.releases.delta_bounds`): every
    release's list, every product of the lattice (unpacked), the discounted sums of the final list."""
    work = memory = 0
    for i, release in enumerate(plan.releases):
        if i in plan.gaussian_plans:
            w, m = _gaussian_cost(plan.gaussian_plans[i])
        else:
            w, m = _laplace_cost(release, plan.scale)
        work += w
        memory = max(memory, m)
    for a, b in plan.products:
        slot = 8 * ((2 * plan.scale + 3 + min(a, b).bit_length() + 7) // 8)
        work += (a + b) * (LIST_NS + LIST_BIT_NS * slot)
        memory = max(memory, (a + b) * (LIST_BYTES + LIST_BYTES_PER_SLOT_BYTE * slot // 8))
    final = sum(plan.lengths) - len(plan.lengths) + 1
    work += (sum(plan.lengths) + final) * (COEFFICIENT_NS + 2 * plan.ratio_scale)
    return work, memory + final * (COEFFICIENT_BYTES + plan.scale // 8)


def level_cost(p, bits, boost, epsilons):
    """The work and memory of one enclosure at ``bits`` (e^ε <= 2^boost) for ``epsilons`` open points
    (:class:`auditor.budget.Cost`, from the sizes alone; docs/certificates.md, "The budget of one file")."""
    if p["form"] == "releases":
        work, memory = _releases_cost(releases.plan(p["releases"], bits))
        pointer, what = "/input/releases", "the releases' lists and lattice products"
    elif p["family"] == "discrete-laplace":
        scale = laplace.scale_bits(p["budget"], bits, boost)
        work = LAPLACE_NS * (p["budget"] + 1) * (scale + 1000)
        memory = 6 * (p["budget"] + 1) * (COEFFICIENT_BYTES + scale // 8)
        pointer, what = "/input/budget", "the discrete Laplace's closed form"
    else:
        work, memory = _gaussian_cost(gaussian.plan(p["parameter"], p["budget"], bits))
        pointer, what = "/input/noise", "the windowed convolution power"
    work += epsilons * (EPSILON_NS + bits * bits // 8)
    return budget.Cost(work, memory, pointer, what)


def _refuse_work(p, bits, boost):
    """Unchecked before any work when the first enclosure would exceed a limit."""
    if p["form"] == "releases":
        pointer = "/input/releases"
    else:
        pointer = "/input/noise" if p["family"] == "discrete-gaussian" else "/input/budget"
    for what, estimate, limit in _work(p, bits, boost):
        if estimate > limit:
            raise Unchecked(pointer, estimate, limit, f"estimated {what}")


# ---- 3. shape --------------------------------------------------------------------------

def _check_shape(cert, p, report):
    """Alignment, order, width and displays; the points whose containment is to be decided."""
    points = cert["result"]["points"]
    epsilons = p["epsilons"]
    report.equal("/result/points", len(points), len(epsilons), "number of points (one per input epsilon)")
    claims = []
    for i, point in enumerate(points):
        P = f"/result/points/{i}"
        epsilon = read_rational(point["epsilon"], P + "/epsilon")
        lower = read_rational(point["lower"], P + "/lower")
        upper = read_rational(point["upper"], P + "/upper")
        aligned = i < len(epsilons) and epsilon == epsilons[i]
        report.check(aligned, P + "/epsilon", epsilon,
                     epsilons[i] if i < len(epsilons) else "no such input epsilon",
                     "the point's epsilon is not the input epsilon at the same index")
        report.check(lower <= upper, P, common.span(lower, upper), "lower <= upper",
                     "the enclosure's ends are swapped")
        _check_width(p, P, lower, upper, report)
        common.check_display(point["lower_display"], lower, -1, P + "/lower_display", report)
        common.check_display(point["upper_display"], upper, +1, P + "/upper_display", report)
        if aligned:
            sides, rule = _exact_sides(p, epsilon, lower, upper)
            claims.append({"index": i, "epsilon": epsilon, "lower": lower, "upper": upper,
                           "sides": sides, "rule": rule,
                           "exact": {side for side, st in sides.items() if st != OPEN}})
    return claims


def _check_width(p, P, lower, upper, report):
    """(W non-null and upper − lower <= W) or (R non-null and upper − lower <= R·lower)."""
    W, R = p["width"], p["rel_width"]
    if not p["relative"]:           # the form before relative widths: the same check and message
        report.check(upper - lower <= W, P, upper - lower, W, "upper − lower exceeds the requested width W")
        return
    meets = (W is not None and upper - lower <= W) or (R is not None and upper - lower <= R * lower)
    bounds = [f"W = {show(W)}"] if W is not None else []
    bounds += [f"R·lower = {show(R * lower)}"] if R is not None else []
    report.check(meets, P, upper - lower, " or ".join(bounds),
                 "upper − lower exceeds both the absolute width W and the relative width R·lower"
                 if W is not None and R is not None else
                 "upper − lower exceeds the requested width " + ("W" if R is None else "R·lower"))


# ---- 4. containment ----------------------------------------------------------------------

def _exact_sides(p, epsilon, lower, upper):
    """({side: state} decided without an enclosure, OPEN where one is needed; the rule used).

    0 <= δ(ε) < 1 always: δ(ε) <= TV(P^C, Q^C) = 1 − Σ min(P^C, Q^C) and the
    two laws share their support.  δ(ε) = 0 exactly for the discrete Laplace
    at ε >= C/t (:mod:`auditor.plain.laplace`, step 2); otherwise δ(ε) > 0:
    some admissible term is positive (the discrete Gaussian: any s <= s*, with
    p(s) > 0; the discrete Laplace: k = C, as C/t > ε).
    """
    if p["form"] == "releases":
        zero = releases.zero_from(p["releases"])
        if zero is not None and epsilon >= zero:
            return ({"lower": state(lower <= 0, lower > 0), "upper": PROVED},
                    "δ(ε) = 0 exactly (ε >= Σ k·s/t, every release a discrete Laplace)")
    elif p["family"] == "discrete-laplace" and laplace.first_count(p["parameter"], p["budget"], epsilon) > p["budget"]:
        return {"lower": state(lower <= 0, lower > 0), "upper": PROVED}, "δ(ε) = 0 exactly (ε >= C/t)"
    lower_side = PROVED if lower == 0 else DISPROVED if lower >= 1 else OPEN
    upper_side = PROVED if upper >= 1 else DISPROVED if upper == 0 else OPEN
    return {"lower": lower_side, "upper": upper_side}, "0 < δ(ε) < 1"


def _enclose(p, epsilons, bits, boost):
    if p["form"] == "releases":
        return releases.delta_bounds(p["releases"], epsilons, bits)
    if p["family"] == "discrete-gaussian":
        return gaussian.delta_bounds(p["parameter"], p["budget"], epsilons, bits)
    return laplace.delta_bounds(p["parameter"], p["budget"], epsilons, bits, boost)


def _boost(claims, sides=("lower",)):
    """Bits of e^ε to provide for: the largest ε with a side in ``sides`` still open (0 when none).

    Only the discrete Laplace uses them (its fixed-point scale covers e^ε): the
    lower end of its enclosure needs them (e^ε multiplies the error of the
    small sum); the upper end is also tightened by them, but stays valid
    without (used when that keeps a large ε feasible).  The discrete
    Gaussian's enclosure has no e^ε factor (auditor.plain.gaussian, step 2).
    """
    found = [c["epsilon"] for c in claims if any(c["sides"][side] == OPEN for side in sides)]
    return gaussian.exp_boost(max(found)) if found else 0


def _level_boost(p, bits, open_claims):
    """The boost for both ends when within the limits, else the one the lower ends need."""
    both = _boost(open_claims, ("lower", "upper"))
    return both if _within_limits(p, bits, both) else _boost(open_claims)


def _next_bits(bits, open_claims, level):
    """The next level's precision: at level 1 also what the open claims suggest, else twice the last."""
    if level == 1:
        return min(MAX_BITS, max([2 * bits] + [_claim_bits(c) for c in open_claims]))
    return 2 * bits


def _check_containment(p, claims, bits, report):
    """Decide lower <= δ(ε) <= upper for every aligned point; return the undecided pointers."""
    enclosures = {}
    for level in range(3):
        open_claims = [c for c in claims if OPEN in c["sides"].values()]
        if not open_claims:
            break
        boost = _level_boost(p, bits, open_claims)
        if level and not (_within_limits(p, bits, boost)
                          and budget.afford(report, level_cost(p, bits, boost, len(open_claims)))):
            break
        found = _enclose(p, [c["epsilon"] for c in open_claims], bits, boost)
        for claim, (a, b) in zip(open_claims, found):
            enclosures[claim["index"]] = (a, b)
            sides = claim["sides"]
            if sides["lower"] == OPEN:
                sides["lower"] = state(claim["lower"] <= a, claim["lower"] > b)
            if sides["upper"] == OPEN:
                sides["upper"] = state(claim["upper"] >= b, claim["upper"] < a)
        bits = _next_bits(bits, open_claims, level + 1)
    undecided = []
    for claim in claims:
        _settle(claim, enclosures.get(claim["index"]), report, undecided)
    return undecided


def _decimal_span(lo, hi):
    """``[lo, hi]`` in decimals of SHOWN_DIGITS significant digits, rounded outward (still true)."""
    return f"[{outward(lo, SHOWN_DIGITS)[0]}, {outward(hi, SHOWN_DIGITS)[1]}]"


def _settle(claim, enclosure, report, undecided):
    """Record both sides of one point: a check when proved, a failure when disproved, else undecided."""
    P = f"/result/points/{claim['index']}"
    for side, value, reason in (("lower", claim["lower"], "lower is above δ(ε)"),
                                ("upper", claim["upper"], "upper is below δ(ε)")):
        decision = claim["sides"][side]
        if decision == OPEN and enclosure is None:
            undecided.append(f"{P}/{side}")
            continue
        if decision == OPEN:
            report.not_established(f"{P}/{side}", value, f"δ(ε) in {_decimal_span(*enclosure)}",
                                   f"the {side} end is not decided by the auditor's enclosure "
                                   "at its largest precision")
            continue
        if side in claim["exact"]:
            shown, how = claim["rule"], "disproved by an exact rule"
        else:
            shown, how = f"δ(ε) in {_decimal_span(*enclosure)}", "disproved by the auditor's enclosure"
        report.check(decision == PROVED, f"{P}/{side}", value, shown, f"{reason} ({how})")


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def _noise_text(noise):
    if noise["family"] == "discrete-gaussian":
        return f"the discrete Gaussian sigma^2 = {rational_text(_q(noise['sigma2']))}"
    return f"the discrete Laplace t = {rational_text(_q(noise['t']))}"


def claim(cert):
    """The points of a plain-composition certificate, e.g.

    ``delta(eps) of the 8-fold plain composition of the discrete Gaussian sigma^2 = 9: eps = 1/2: delta in [..]; ...``.
    """
    inp, points = cert["input"], cert["result"]["points"]
    stated = [f"eps = {rational_text(_q(p['epsilon']))}: delta in "
              f"{interval_text(_q(p['lower']), _q(p['upper']))}" for p in points]
    if "releases" in inp:
        parts = [f"{r['count']} x {_noise_text(r['noise'])}"
                 + (f" (sensitivity {r['sensitivity']})" if r["sensitivity"] != 1 else "") for r in inp["releases"]]
        return f"delta(eps) of the plain composition of {', '.join(parts)}: {listed(stated)}"
    return (f"delta(eps) of the {inp['budget']}-fold plain composition of {_noise_text(inp['noise'])}: "
            f"{listed(stated)}")
