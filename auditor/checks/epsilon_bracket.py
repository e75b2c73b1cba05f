"""Checks of ``epsilon-bracket/1`` certificates: ε_lo <= ε*_C(δ) <= ε_hi from embedded certificates.

ε*_C(δ) = inf{ε >= 0 : δ_C(ε) <= δ} and δ_C(ε) is non-increasing in ε, so an
upper end needs one certified δ_C(ε_hi) <= δ and a lower end one certified
δ_C(ε_lo) > δ (every ε < ε_lo then has δ_C(ε) > δ).  Two routes:

- ``product-pair`` (exactly when γ = 0, plain composition): both ends are
  ``plain-composition/1`` certificates for the same noise and budget, each at
  the single ε ``[ε_hi]`` (with ``points[0].upper <= δ``) or ``[ε_lo]`` (with
  ``points[0].lower > δ``); the lower witness may be null only when ε_lo = 0;
  ε_hi − ε_lo <= ``input.width`` (required on this route).  The releases form
  of the input (``releases`` instead of ``noise`` and ``budget``, C = Σ count)
  is this route only (γ = "0") and canonical exactly as plain-composition/1's
  releases form (the same check, MALFORMED otherwise); both witnesses are then
  in the releases form with the same canonical list (another form or list
  answers another question: FAIL).
- ``hierarchy-witness`` (exactly when γ > 0, discrete Gaussian only): the upper
  end is a ``hierarchy/1`` δ query for the same γ, σ², C and δ, with
  ε_hi = its ``result.epsilon`` (``meets_delta`` true); the lower end is a
  ``calibration-lower/1`` ``target-zero`` certificate for the same γ, σ², C
  and δ with ε_lo = its ``epsilon_lower``, or null with ε_lo null.
  ``input.width`` is null (the width is what the two constructions give).

Every embedded certificate is checked in full by its own kind's checks
(:mod:`auditor.embedded`: its own schema, digest, limits and every claim),
with its pointers prefixed.  Also: ``lower_reason`` is a string exactly when
there is no lower witness; ε_lo <= ε_hi; ``status`` is ``zero`` exactly when
ε_hi = 0; the displays are ε_lo rounded down and ε_hi rounded up at their own
number of places (as calibration/1).

Domain (MALFORMED): γ ``"0"`` or reduced a/B with 0 < a < B, 0 < δ < 1, σ² or
t > 0 (or canonical releases with γ = "0"), width null exactly when γ > 0.
Limits (UNCHECKED): both witnesses' estimated work together within the file's one budget
(:func:`auditor.embedded.reserve_embedded`, before either is checked); those of the embedded kinds, applied
by their own checks; the reader's limits hold for the whole file, embedded certificates included.  An
embedded certificate refused by a limit makes the certificate UNCHECKED unless some claim is false (then
FAIL); an embedded claim its recipe does not establish is a FAIL.
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor import common
from auditor.checks.plain_composition import canonical_releases
from auditor.claims import lower_text, rational_text, upper_text
from auditor.embedded import check_digest, raise_pending, reserve_embedded, validated, verify_embedded
from auditor.rationals import read_rational, show

__all__ = ["verify", "claim"]

I, R = "/input", "/result"
PRODUCT_PAIR, HIERARCHY_WITNESS = "product-pair", "hierarchy-witness"
UPPER, LOWER = R + "/upper_witness", R + "/lower_witness"
WITNESS_KINDS = {PRODUCT_PAIR: ("plain-composition", "plain-composition"),
                 HIERARCHY_WITNESS: ("hierarchy", "calibration-lower")}


class Question:
    """The question of the input: γ, the noise (σ² or t) and C - or the releases -, δ and the width."""

    __slots__ = ("gamma", "family", "parameter", "budget", "releases", "delta", "width")

    def __init__(self, inp):
        a, B = common.gamma(inp["gamma"], I + "/gamma")
        self.gamma = Fraction(a, B)
        if "releases" in inp:
            self._releases(inp)
        else:
            self._single_law(inp)
        self.delta = read_rational(inp["delta"], I + "/delta")
        if not 0 < self.delta < 1:
            raise Malformed(f"{I}/delta: {inp['delta']} is not in (0, 1)")
        width = inp["width"]
        if (width is None) != (self.gamma > 0):
            raise Malformed(f"{I}/width: the width is required exactly when γ = 0 (the product-pair route); "
                            f"null when γ > 0")
        self.width = None if width is None else read_rational(width, I + "/width")
        if self.width is not None and self.width <= 0:
            raise Malformed(f"{I}/width: {width} is not positive")

    def _single_law(self, inp):
        noise = inp["noise"]
        self.family, self.releases = noise["family"], None
        key = "sigma2" if self.family == "discrete-gaussian" else "t"
        self.parameter = read_rational(noise[key], f"{I}/noise/{key}")
        if self.parameter <= 0:
            raise Malformed(f"{I}/noise/{key}: {noise[key]} is not positive")
        self.budget = common.integer(inp["budget"], I + "/budget", 1)

    def _releases(self, inp):
        # Product pair only (the schema's const "0"; kept here so the domain does not rest on it): no route
        # composes feedback with a list of releases.
        if self.gamma != 0:
            raise Malformed(f"{I}/gamma: the releases form is for γ = 0 only (route product-pair)")
        # Canonical exactly as plain-composition/1's releases form (MALFORMED otherwise): the same checks.
        self.releases = [_release_key(r) for r in canonical_releases(inp["releases"])]
        self.family = self.parameter = None
        self.budget = sum(r[3] for r in self.releases)


def _release_key(release):
    return (release.family, release.scale, release.sensitivity, release.count)


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    q = Question(inp)
    route = res["route"]
    expected = PRODUCT_PAIR if q.gamma == 0 else HIERARCHY_WITNESS
    if not report.check(route == expected, R + "/route", route, expected,
                        "the route is product-pair exactly when γ = 0, hierarchy-witness when γ > 0"):
        return
    upper, lower = res["upper_witness"], res["lower_witness"]
    upper_kind, lower_kind = WITNESS_KINDS[route]
    validated(upper, UPPER, (upper_kind + "/1",), "the upper witness")
    if lower is not None:
        validated(lower, LOWER, (lower_kind + "/1",), "the lower witness")
    eps_lo = None if res["epsilon_lo"] is None else read_rational(res["epsilon_lo"], R + "/epsilon_lo")
    eps_hi = read_rational(res["epsilon_hi"], R + "/epsilon_hi")
    _check_ends(res, q, eps_lo, eps_hi, report)
    if route == PRODUCT_PAIR:
        _plain_upper(upper, q, eps_hi, report)
        if lower is not None:
            _plain_lower(lower, q, eps_lo, report)
    else:
        _hierarchy_upper(upper, q, eps_hi, report)
        if lower is not None:
            _target_zero_lower(lower, q, eps_lo, report)
    pending = []
    reserve_embedded(report, [(upper, UPPER, upper_kind)] + ([(lower, LOWER, lower_kind)] if lower is not None
                                                               else []))
    check_digest(upper, UPPER, report, upper_kind)
    if lower is not None:
        check_digest(lower, LOWER, report, lower_kind)
    verify_embedded(upper, UPPER, upper_kind, report, pending)
    if lower is not None:
        verify_embedded(lower, LOWER, lower_kind, report, pending)
    raise_pending(pending, report)


def _check_ends(res, q, eps_lo, eps_hi, report):
    """Nullability, order, status, width and displays of the bracket itself."""
    route, lower, reason = res["route"], res["lower_witness"], res["lower_reason"]
    if lower is None:
        report.check(reason is not None, R + "/lower_reason", reason, "a reason",
                     "without a lower witness, lower_reason must say why")
        if route == PRODUCT_PAIR:
            report.check(eps_lo == 0, R + "/epsilon_lo", res["epsilon_lo"], "0",
                         "on the product-pair route the lower witness may be null only when epsilon_lo = 0")
        else:
            report.check(eps_lo is None, R + "/epsilon_lo", res["epsilon_lo"], None,
                         "without a target-zero witness epsilon_lo is null")
    else:
        report.check(reason is None, R + "/lower_reason", reason, None,
                     "lower_reason is null when there is a lower witness")
        report.check(eps_lo is not None, R + "/epsilon_lo", None, "the witness's lower end",
                     "a lower witness proves a lower end: epsilon_lo must not be null")
    zero = eps_hi == 0
    report.check((res["status"] == "zero") == zero, R + "/status", res["status"], "zero" if zero else "enclosed",
                 "status is zero exactly when epsilon_hi = 0")
    common.check_display(res["epsilon_hi_display"], eps_hi, +1, R + "/epsilon_hi_display", report)
    if eps_lo is None:
        report.check(res["epsilon_lo_display"] is None, R + "/epsilon_lo_display", res["epsilon_lo_display"], None,
                     "a null epsilon_lo has a null display")
        return
    if report.check(res["epsilon_lo_display"] is not None, R + "/epsilon_lo_display", None, "a display",
                    "epsilon_lo needs its display"):
        common.check_display(res["epsilon_lo_display"], eps_lo, -1, R + "/epsilon_lo_display", report)
    report.check(eps_lo <= eps_hi, R + "/epsilon_lo", eps_lo, eps_hi, "need epsilon_lo <= epsilon_hi")
    if q.width is not None:
        report.check(eps_hi - eps_lo <= q.width, R + "/epsilon_hi", eps_hi - eps_lo, q.width,
                     "epsilon_hi − epsilon_lo exceeds the requested width")


# ---- product-pair -----------------------------------------------------------------------

def _plain_question(witness, pointer, q, epsilon, report):
    """Same noise and budget (or the same releases), and the single ε of the bracket end; the witness's one
    point (or None)."""
    inner = witness["input"]
    if not _same_composition(inner, pointer, q, report):
        return None
    epsilons = [read_rational(e, f"{pointer}/input/epsilons/{i}") for i, e in enumerate(inner["epsilons"])]
    ok = report.check(epsilons == [epsilon], pointer + "/input/epsilons", [show(e) for e in epsilons],
                      [show(epsilon)], "the witness must be at the single ε of the bracket end")
    points = witness["result"]["points"]
    return points[0] if ok and len(points) == 1 else None


def _same_composition(inner, pointer, q, report):
    """The witness composes what the bracket does: the same form, and the same noise and budget or the same
    canonical releases (False, with a failure, otherwise)."""
    if ("releases" in inner) != (q.releases is not None):   # the other form answers another question
        forms = ("the releases form", "the single-law form")
        got, want = forms if "releases" in inner else forms[::-1]
        return report.check(False, pointer + "/input/" + ("releases" if "releases" in inner else "noise"),
                            got, want, "the witness must be in the bracket's form, for the bracket's "
                            + ("releases" if q.releases is not None else "noise and budget"))
    if q.releases is not None:
        # Both lists canonical (the witness's by its own check), so equal lists are exactly the same question.
        theirs = [_witness_release(r, f"{pointer}/input/releases/{i}") for i, r in enumerate(inner["releases"])]
        return report.check(theirs == q.releases, pointer + "/input/releases", _show_releases(theirs),
                            _show_releases(q.releases), "releases (the bracket's: the same canonical list)")
    noise = inner["noise"]
    key = "sigma2" if noise["family"] == "discrete-gaussian" else "t"
    same_noise = noise["family"] == q.family and read_rational(noise[key], f"{pointer}/input/noise/{key}") == \
        q.parameter
    report.check(same_noise, pointer + "/input/noise", noise["family"], q.family, "noise (the bracket's)")
    report.equal(pointer + "/input/budget", inner["budget"], q.budget, "budget (the bracket's)")
    return True


def _witness_release(item, pointer):
    noise = item["noise"]
    key = "sigma2" if noise["family"] == "discrete-gaussian" else "t"
    return (noise["family"], read_rational(noise[key], f"{pointer}/noise/{key}"), item["sensitivity"],
            item["count"])


def _show_releases(keys):
    return [f"{family} {show(scale)} s={s} x{k}" for family, scale, s, k in keys]


def _plain_upper(witness, q, eps_hi, report):
    point = _plain_question(witness, UPPER, q, eps_hi, report)
    if point is not None:
        upper = read_rational(point["upper"], UPPER + "/result/points/0/upper")
        report.check(upper <= q.delta, UPPER + "/result/points/0/upper", upper, q.delta,
                     "the upper witness must prove δ(ε_hi) <= δ")


def _plain_lower(witness, q, eps_lo, report):
    if eps_lo is None:
        return
    point = _plain_question(witness, LOWER, q, eps_lo, report)
    if point is not None:
        lower = read_rational(point["lower"], LOWER + "/result/points/0/lower")
        report.check(lower > q.delta, LOWER + "/result/points/0/lower", lower, q.delta,
                     "the lower witness must prove δ(ε_lo) > δ")


# ---- hierarchy-witness --------------------------------------------------------------------

def _same_dg_question(inner, pointer, q, report, delta):
    """γ, σ², C (and δ at ``delta``'s pointer) of an embedded discrete-Gaussian certificate's input."""
    report.check(q.family == "discrete-gaussian", I + "/noise/family", q.family, "discrete-gaussian",
                 "the hierarchy-witness route is for the discrete Gaussian only")
    report.equal(pointer + "/input/gamma", read_rational(inner["gamma"], pointer + "/input/gamma"), q.gamma,
                 "γ (the bracket's)")
    report.equal(pointer + "/input/sigma2", read_rational(inner["sigma2"], pointer + "/input/sigma2"), q.parameter,
                 "σ² (the bracket's)")
    report.equal(pointer + "/input/budget", inner["budget"], q.budget, "budget (the bracket's)")
    pointer_delta, text = delta
    report.check(text is not None and read_rational(text, pointer_delta) == q.delta, pointer_delta, text, q.delta,
                 "δ (the bracket's)")


def _hierarchy_upper(witness, q, eps_hi, report):
    inner, res = witness["input"], witness["result"]
    query = inner["query"]
    _same_dg_question(inner, UPPER, q, report, (UPPER + "/input/query/delta", query.get("delta")))
    report.equal(UPPER + "/result/epsilon", read_rational(res["epsilon"], UPPER + "/result/epsilon"), eps_hi,
                 "epsilon_hi (the hierarchy's certified ε)")
    report.check(res["meets_delta"] is True, UPPER + "/result/meets_delta", res["meets_delta"], True,
                 "the hierarchy must certify upper <= δ")


def _target_zero_lower(witness, q, eps_lo, report):
    inner = witness["input"]
    report.equal(LOWER + "/input/claim", inner["claim"], "target-zero", "claim (the bracket's lower witness)")
    _same_dg_question(inner, LOWER, q, report, (LOWER + "/input/delta", inner["delta"]))
    lower = read_rational(witness["result"]["epsilon_lower"], LOWER + "/result/epsilon_lower")
    report.check(eps_lo is not None and lower == eps_lo, R + "/epsilon_lo", eps_lo, lower,
                 "epsilon_lo is the witness's epsilon_lower")


# ---- the one-line claim --------------------------------------------------------------------

def _mechanism(inp):
    if "releases" in inp:
        parts = [f"{r['count']} x {_law(r['noise'])}" + (f" (sensitivity {r['sensitivity']})"
                                                         if r["sensitivity"] != 1 else "") for r in inp["releases"]]
        return f"plain composition of {', '.join(parts)}"
    law = _law(inp["noise"])
    if inp["gamma"] == "0":
        return f"plain composition, {law}"
    return f"gamma = {rational_text(read_rational(inp['gamma'], ''))}, {law}"


def _law(noise):
    if noise["family"] == "discrete-gaussian":
        return f"sigma^2 = {rational_text(read_rational(noise['sigma2'], ''))}"
    return f"the discrete Laplace t = {rational_text(read_rational(noise['t'], ''))}"


def _route_text(res):
    if res["route"] == PRODUCT_PAIR:
        return "route product-pair"
    model = res["upper_witness"]["input"]["model"]
    upper = f"hierarchy P_{model['depth']}" if model["game"] == "depth" else "cut game U_S"
    lower = "target-zero witness lower" if res["lower_witness"] is not None else "no lower witness"
    return f"route hierarchy-witness: {upper} upper, {lower}"


def claim(cert):
    """``eps*_8(1/10000) in [4.834164195612, 4.867767] (gamma = 1/3, sigma^2 = 9; route hierarchy-witness: ...)``."""
    inp, res = cert["input"], cert["result"]
    budget = inp["budget"] if "releases" not in inp else sum(r["count"] for r in inp["releases"])
    head = f"eps*_{budget}({rational_text(read_rational(inp['delta'], ''))})"
    hi = read_rational(res["epsilon_hi"], "")
    tail = f"({_mechanism(inp)}; {_route_text(res)})"
    if res["status"] == "zero":
        return f"{head} = 0 {tail}"
    if res["epsilon_lo"] is None:
        reason = " ".join(res["lower_reason"].split())[:200]
        return f"{head} <= {upper_text(hi)} {tail} (lower end: {reason})"
    lo = read_rational(res["epsilon_lo"], "")
    return f"{head} in [{lower_text(lo)}, {upper_text(hi)}] {tail}"
