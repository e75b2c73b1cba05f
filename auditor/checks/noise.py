"""Checks of ``noise/1`` certificates: the least noise on a relative grid meeting (ε, δ) after C releases.

The question is (family, γ, C, ε, δ, R); the claim is a pair of noise levels
``below < noise`` (σ² of the discrete Gaussian, or the scale t of the discrete
Laplace L_t(n) ∝ exp(−|n|/t)) - or, in the releases form, a pair of factors
``factor_below < factor`` on every release's noise scale (below) - with

- ε*_C(δ) <= ε at ``noise``: one certified δ_C(ε) <= δ there (ε*_C(δ) =
  inf{ε' >= 0 : δ_C(ε') <= δ} and δ_C is non-increasing, so δ_C(ε) <= δ
  gives ε*_C(δ) <= ε);
- ε*_C(δ) > ε at ``below``: one certified δ_C(ε) > δ there (δ_C is
  non-increasing and continuous in ε, so δ_C(ε') >= δ_C(ε) > δ for every
  ε' <= ε, and the infimum lies above ε, not at it);
- tight to R: 0 < below < noise <= below·(1 + R).

Each of the two noise levels is backed by one embedded certificate of the
route's kind:

- ``product-pair`` (exactly when γ = 0): ``plain-composition/1`` in the
  single-law form, for the same family at that scale, budget C and epsilons
  exactly [ε]; ``meets`` needs ``points[0].upper <= δ``, ``misses``
  ``points[0].lower > δ``;
- ``exact-game`` (exactly when γ > 0): ``dg-interval/1`` for the same γ, the
  same law at that scale (σ² in ``input.sigma2``, or the discrete Laplace in
  ``input.noise``), budget C, ε and ``method`` null; ``meets`` needs
  ``interval.upper <= δ``, ``misses`` ``interval.lower > δ``.

The releases form (``releases`` instead of ``family`` and ``budget``, C = Σ
count; γ = "0", route ``product-pair``): the answer is one factor f on every
release's stated scale, σ² ↦ f·σ² and t ↦ f·t, sensitivities and counts
unchanged (every release's privacy loss divided by f).  Each embedded ``plain-composition/1`` composes the question's
releases so scaled (by ``factor``, by ``factor_below``), compared release by
release: both lists are canonical, and scaling by f > 0 keeps the order.  It
is in the form plain-composition/1 has for that list: the single-law form
(noise, budget = count) for one release of sensitivity 1, else the releases
form.  Another list or form answers another question (FAIL).

Every embedded certificate is checked in full by its own kind's checks
(:mod:`auditor.embedded`: its own schema, digest, limits and every claim),
with its pointers prefixed.  How the producer chose its grid is not a claim:
only the relative gap is checked.  Every decision is exact (Fractions).

Domain (MALFORMED): γ ``"0"`` or reduced a/B with 0 < a < B, C >= 1, ε >= 0,
0 < δ < 1, 0 < R < 1; in the releases form γ = "0" and the releases canonical
as plain-composition/1's (the same check; one release of sensitivity 1
allowed, and any positive base scale).  Limits (UNCHECKED): both embedded
certificates' estimated work together within the file's one budget
(:func:`auditor.embedded.reserve_embedded`, before either is checked), and
those of the embedded kinds, applied by their own checks; an embedded
certificate refused by a limit makes the certificate UNCHECKED unless some
claim is false (then FAIL); an embedded claim its recipe does not establish
is a FAIL.
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor import common
from auditor.checks.plain_composition import canonical_releases
from auditor.claims import lower_text, rational_text
from auditor.embedded import check_digest, raise_pending, reserve_embedded, validated, verify_embedded
from auditor.rationals import read_rational, show

__all__ = ["verify", "claim"]

I, R = "/input", "/result"
PRODUCT_PAIR, EXACT_GAME = "product-pair", "exact-game"
GAUSSIAN, LAPLACE = "discrete-gaussian", "discrete-laplace"
KIND_OF_ROUTE = {PRODUCT_PAIR: "plain-composition", EXACT_GAME: "dg-interval"}
# the result's key of the noise level, per family; the releases form's is the factor
RESULT_KEY = {GAUSSIAN: "sigma2", LAPLACE: "laplace"}
FACTOR = "factor"
# the key of a plain-composition/1 noise's scale, per family
SCALE_KEY = {GAUSSIAN: "sigma2", LAPLACE: "t"}
MEETS, MISSES = R + "/meets", R + "/misses"


class Question:
    """The input: family, γ, C (or the releases, C = Σ count), ε, δ and the relative precision R."""

    __slots__ = ("family", "releases", "gamma", "budget", "epsilon", "delta", "precision")

    def __init__(self, inp):
        if "releases" in inp:
            self._releases(inp)
        else:
            self.family, self.releases = inp["family"], None
            if self.family not in RESULT_KEY:
                raise Malformed(f"{I}/family: unknown family {show(self.family)}")
            a, B = common.gamma(inp["gamma"], I + "/gamma")
            self.gamma = Fraction(a, B)
            self.budget = common.integer(inp["budget"], I + "/budget", 1)
        self.epsilon = read_rational(inp["epsilon"], I + "/epsilon")
        if self.epsilon < 0:
            raise Malformed(f"{I}/epsilon: {inp['epsilon']} is negative")
        self.delta = _open_unit(inp["delta"], I + "/delta")
        self.precision = _open_unit(inp["precision"], I + "/precision")

    def _releases(self, inp):
        # γ = "0" only (the schema's const, kept here so that the domain does not rest on it): product pair
        if inp["gamma"] != "0":
            raise Malformed(f"{I}/gamma: {show(inp['gamma'])}: the releases form is for γ = 0 only "
                            f"(route product-pair)")
        self.family, self.gamma = None, Fraction(0)
        # canonical as plain-composition/1's releases form, by the same check; one release of sensitivity 1
        # stays in this form (the question is the factor, not the scale), and a base scale need not lie in
        # [1/100, 10^6] (the scaled ones must: the embedded certificates' own domain)
        self.releases = canonical_releases(inp["releases"], allow_single=True, scale_domain=False)
        self.budget = sum(r.count for r in self.releases)

    @property
    def key(self):
        """The result's key of the answer: sigma2 or laplace (the family's level), or factor (releases form)."""
        return FACTOR if self.releases is not None else RESULT_KEY[self.family]

    def composition(self, level):
        """What the embedded plain-composition/1 at ``level`` composes, as [(family, scale, sensitivity,
        count)]: C releases of the law at scale ``level``, or every release with its scale (σ² or t) times
        the factor f = ``level``, sensitivities and counts unchanged."""
        if self.releases is None:
            return [(self.family, level, 1, self.budget)]
        return [(r.family, r.scale * level, r.sensitivity, r.count) for r in self.releases]


def _open_unit(text, pointer):
    value = read_rational(text, pointer)
    if not 0 < value < 1:
        raise Malformed(f"{pointer}: {text} is not in (0, 1)")
    return value


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    q = Question(inp)
    key = q.key
    # the question's pair, not another's: σ² for the discrete Gaussian, t for the Laplace, the factor for releases
    answer = "releases form's" if q.releases is not None else q.family
    if not report.check(key in res and key + "_below" in res, f"{R}/{key}",
                        sorted(set(res) & {"sigma2", "laplace", FACTOR}), key,
                        f"the {answer} answer is result.{key} and result.{key}_below"):
        return
    route = res["route"]
    expected = PRODUCT_PAIR if q.gamma == 0 else EXACT_GAME
    if not report.check(route == expected, R + "/route", route, expected,
                        "the route is product-pair exactly when γ = 0, exact-game when γ > 0"):
        return
    kind = KIND_OF_ROUTE[route]
    meets, misses = res["meets"], res["misses"]
    validated(meets, MEETS, (kind + "/1",), "the meets certificate")
    validated(misses, MISSES, (kind + "/1",), "the misses certificate")
    noise = read_rational(res[key], f"{R}/{key}")
    below = read_rational(res[key + "_below"], f"{R}/{key}_below")
    _check_gap(q, key, noise, below, report)
    answers = _plain_answers if route == PRODUCT_PAIR else _game_answers
    answers(meets, MEETS, q, noise, report, meets=True)
    answers(misses, MISSES, q, below, report, meets=False)
    pending = []
    reserve_embedded(report, [(meets, MEETS, kind), (misses, MISSES, kind)])
    check_digest(meets, MEETS, report, kind)
    check_digest(misses, MISSES, report, kind)
    verify_embedded(meets, MEETS, kind, report, pending)
    verify_embedded(misses, MISSES, kind, report, pending)
    raise_pending(pending, report)


def _check_gap(q, key, noise, below, report):
    """0 < below < noise <= below·(1 + R): the answer is tight to the relative precision R."""
    report.check(below > 0, f"{R}/{key}_below", below, "> 0", "the noise below must be positive")
    report.check(below < noise, f"{R}/{key}_below", below, noise,
                 f"need {key}_below < {key} (the noise below is smaller)")
    report.check(noise <= below * (1 + q.precision), f"{R}/{key}", noise, below * (1 + q.precision),
                 f"need {key} <= {key}_below·(1 + precision): the answer is not tight to the precision")


def _decide(pointer, value, q, report, meets):
    """meets: value <= δ (δ_C(ε) <= δ); misses: value > δ (δ_C(ε) > δ)."""
    if meets:
        report.check(value <= q.delta, pointer, value, q.delta,
                     "the meets certificate must prove δ_C(ε) <= δ (its upper end at most δ)")
    else:
        report.check(value > q.delta, pointer, value, q.delta,
                     "the misses certificate must prove δ_C(ε) > δ (its lower end above δ)")


# ---- product-pair: plain-composition/1 ------------------------------------------------------------

def _plain_answers(witness, pointer, q, level, report, meets):
    """The question's composition at ``level`` (the law at that scale C times, or the releases scaled by that
    factor) and epsilons exactly [ε]; then its one point decides."""
    inner = witness["input"]
    if not _same_composition(inner, pointer, q.composition(level), report):
        return
    epsilons = [read_rational(e, f"{pointer}/input/epsilons/{i}") for i, e in enumerate(inner["epsilons"])]
    ok = report.check(epsilons == [q.epsilon], pointer + "/input/epsilons", [show(e) for e in epsilons],
                      [show(q.epsilon)], "the embedded certificate must be at the single ε of the question")
    points = witness["result"]["points"]
    if ok and len(points) == 1:
        end = "upper" if meets else "lower"
        where = f"{pointer}/result/points/0/{end}"
        _decide(where, read_rational(points[0][end], where), q, report, meets)


def _same_composition(inner, pointer, wanted, report):
    """The embedded input composes ``wanted`` in plain-composition/1's form for it: single-law (noise, budget =
    count) for one release of sensitivity 1, else releases.  False (a failure) when in the other form."""
    family, scale, sensitivity, count = wanted[0]
    if len(wanted) > 1 or sensitivity != 1:
        if not report.check("releases" in inner, pointer + "/input", sorted(inner), ["releases", "..."],
                            "the plain-composition certificate must be in the releases form (the question's "
                            "releases, scaled by the factor)"):
            return False
        _same_releases(inner["releases"], pointer + "/input/releases", wanted, report)
        return True
    if not report.check("noise" in inner and "budget" in inner, pointer + "/input", sorted(inner),
                        ["noise", "budget", "..."], "the plain-composition certificate must be in the single-law "
                                                    "form (one noise law, one budget)"):
        return False
    noise = inner["noise"]
    param = SCALE_KEY[noise["family"]]
    same = noise["family"] == family and read_rational(noise[param], f"{pointer}/input/noise/{param}") == scale
    report.check(same, pointer + "/input/noise", noise, {"family": family, param: show(scale)},
                 "the noise must be the certificate's family at its noise level")
    report.equal(pointer + "/input/budget", inner["budget"], count, "budget (the noise certificate's)")
    return True


def _same_releases(items, pointer, wanted, report):
    """Release by release: the same law at the scaled scale, the same sensitivity and count.  Both lists are
    canonical (the embedded one by its own check; scaling by f > 0 keeps the order), so equal lists are
    exactly the same question."""
    theirs = [_read(item, f"{pointer}/{i}") for i, item in enumerate(items)]
    if not report.check(len(theirs) == len(wanted), pointer, [_shown(*r) for r in theirs], [_shown(*w) for w in wanted],
                        "the releases must be the question's, one for one"):
        return
    for i, (item, mine, (family, scale, sensitivity, count)) in enumerate(zip(items, theirs, wanted)):
        P = f"{pointer}/{i}"
        report.check(mine[:2] == (family, scale), P + "/noise", item["noise"],
                     {"family": family, SCALE_KEY[family]: show(scale)},
                     "the noise must be the question's release with its scale (σ² or t) times the factor")
        report.equal(P + "/sensitivity", mine[2], sensitivity, "sensitivity (the question's release's)")
        report.equal(P + "/count", mine[3], count, "count (the question's release's)")


def _read(item, pointer):
    """(family, scale, sensitivity, count) of an embedded release."""
    family = item["noise"]["family"]
    scale = read_rational(item["noise"][SCALE_KEY[family]], f"{pointer}/noise/{SCALE_KEY[family]}")
    return family, scale, item["sensitivity"], item["count"]


def _shown(family, scale, sensitivity, count):
    return f"{count} x {family} {SCALE_KEY[family]} = {show(scale)}, sensitivity {sensitivity}"


# ---- exact-game: dg-interval/1 ---------------------------------------------------------------------

def _game_answers(witness, pointer, q, scale, report, meets):
    """Same γ, law at ``scale``, budget C, ε and method null; then its interval decides."""
    inner = witness["input"]
    P = pointer + "/input"
    report.equal(P + "/gamma", read_rational(inner["gamma"], P + "/gamma"), q.gamma, "γ (the noise certificate's)")
    noise = inner.get("noise")
    if q.family == GAUSSIAN:
        sigma2 = None if inner["sigma2"] is None else read_rational(inner["sigma2"], P + "/sigma2")
        report.check(noise is None and sigma2 == scale, P + "/sigma2", inner["sigma2"], show(scale),
                     "the discrete Gaussian at the noise level (σ², no other law)")
    else:
        t = None
        if isinstance(noise, dict) and noise.get("family") == LAPLACE:
            t = read_rational(noise["t"], P + "/noise/t")
        report.check(t == scale, P + "/noise", noise, {"family": LAPLACE, "t": show(scale)},
                     "the discrete Laplace at the noise level")
    report.equal(P + "/budget", inner["budget"], q.budget, "budget (the noise certificate's)")
    report.equal(P + "/epsilon", read_rational(inner["epsilon"], P + "/epsilon"), q.epsilon,
                 "ε (the noise certificate's)")
    report.check(inner["method"] is None, P + "/method", inner["method"], None,
                 "the exact game's certificate is asked with method null (the game's own choice)")
    end = "upper" if meets else "lower"
    where = f"{pointer}/result/interval/{end}"
    _decide(where, read_rational(witness["result"]["interval"][end], where), q, report, meets)


# ---- the one-line claim --------------------------------------------------------------------

def _exact(text):
    """The exact value of a canonical rational: a short decimal when it has one (20.51), else ``p/q``."""
    q = read_rational(text, "")
    shown = lower_text(q)
    return shown if Fraction(shown) == q else rational_text(q)


def _level(family, value):
    name = "sigma^2" if family == GAUSSIAN else "t"
    return f"{name} = {_exact(value)}"


def _question(inp, budget):
    return f"eps*_{budget}({_exact(inp['delta'])}) <= {_exact(inp['epsilon'])}"


def _release_text(release):
    """``20 x discrete Gaussian sigma^2 = 4 (sensitivity 2)``: a release at its base scale."""
    family, count = release["noise"]["family"], release["count"]
    law = "discrete Gaussian" if family == GAUSSIAN else "discrete Laplace"
    text = f"{count} x {law} {_level(family, release['noise'][SCALE_KEY[family]])}"
    return text + (f" (sensitivity {release['sensitivity']})" if release["sensitivity"] != 1 else "")


def _releases_claim(inp, res):
    """``factor = 1.25 suffices for eps*_125(0.00001) <= 2 (the grid point below, factor = 1.249, does not;
    plain composition of 100 x discrete Gaussian sigma^2 = 9, ..., each sigma^2 and t times factor;
    route product-pair)``."""
    releases = inp["releases"]
    parts = [_release_text(r) for r in releases]
    families = {r["noise"]["family"] for r in releases}
    scaled = " and ".join(name for family, name in ((GAUSSIAN, "sigma^2"), (LAPLACE, "t")) if family in families)
    question = _question(inp, sum(r["count"] for r in releases))
    return (f"factor = {_exact(res[FACTOR])} suffices for {question} (the grid point below, "
            f"factor = {_exact(res[FACTOR + '_below'])}, does not; plain composition of {', '.join(parts)}, "
            f"each {scaled} times factor; route {res['route']})")


def claim(cert):
    """``sigma^2 = 20.51 suffices for eps*_100(0.00001) <= 2 (the grid point below, sigma^2 = 20.49, does not;
    the discrete Gaussian, plain composition; route product-pair)``: every number exact (the releases form:
    :func:`_releases_claim`)."""
    inp, res = cert["input"], cert["result"]
    if "releases" in inp:
        return _releases_claim(inp, res)
    family = inp["family"]
    key = RESULT_KEY[family]
    law = "the discrete Gaussian" if family == GAUSSIAN else "the discrete Laplace"
    gamma = rational_text(read_rational(inp["gamma"], ""))
    mechanism = "plain composition" if inp["gamma"] == "0" else f"gamma = {gamma}"
    question = _question(inp, inp["budget"])
    return (f"{_level(family, res[key])} suffices for {question} (the grid point below, "
            f"{_level(family, res[key + '_below'])}, does not; "
            f"{law}, {mechanism}; route {res['route']})")
