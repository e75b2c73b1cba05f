"""Checks of ``noise/1`` certificates: the least noise on a relative grid meeting (ε, δ) after C releases.

The question is (family, γ, C, ε, δ, R); the claim is a pair of noise levels
``below < noise`` (σ² of the discrete Gaussian, or the scale t of the discrete
Laplace L_t(n) ∝ exp(−|n|/t)) with

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

Every embedded certificate is checked in full by its own kind's checks
(:mod:`auditor.embedded`: its own schema, digest, limits and every claim),
with its pointers prefixed.  How the producer chose its grid is not a claim:
only the relative gap is checked.  Every decision is exact (Fractions).

Domain (MALFORMED): γ ``"0"`` or reduced a/B with 0 < a < B, C >= 1, ε >= 0,
0 < δ < 1, 0 < R < 1.  Limits (UNCHECKED): those of the embedded kinds,
applied by their own checks; an embedded claim that is refused or undecided
makes the certificate UNCHECKED unless some claim is false (then FAIL).
"""

from fractions import Fraction

from auditor.certificate import Malformed
from auditor import common
from auditor.claims import lower_text, rational_text
from auditor.embedded import check_digest, raise_pending, validated, verify_embedded
from auditor.rationals import read_rational, show

__all__ = ["verify", "claim"]

I, R = "/input", "/result"
PRODUCT_PAIR, EXACT_GAME = "product-pair", "exact-game"
GAUSSIAN, LAPLACE = "discrete-gaussian", "discrete-laplace"
KIND_OF_ROUTE = {PRODUCT_PAIR: "plain-composition", EXACT_GAME: "dg-interval"}
# the result's key of the noise level, per family
RESULT_KEY = {GAUSSIAN: "sigma2", LAPLACE: "laplace"}
MEETS, MISSES = R + "/meets", R + "/misses"


class Question:
    """The input: family, γ, C, ε, δ and the relative precision R."""

    __slots__ = ("family", "gamma", "budget", "epsilon", "delta", "precision")

    def __init__(self, inp):
        self.family = inp["family"]
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


def _open_unit(text, pointer):
    value = read_rational(text, pointer)
    if not 0 < value < 1:
        raise Malformed(f"{pointer}: {text} is not in (0, 1)")
    return value


def verify(cert, report):
    inp, res = cert["input"], cert["result"]
    q = Question(inp)
    key = RESULT_KEY[q.family]
    # the family's pair of noise levels, not the other law's (σ² for the discrete Gaussian, t for the Laplace)
    if not report.check(key in res and key + "_below" in res, f"{R}/{key}", sorted(set(res) & {"sigma2", "laplace"}),
                        key, f"the {q.family} answer is result.{key} and result.{key}_below"):
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

def _plain_answers(witness, pointer, q, scale, report, meets):
    """Same family at ``scale``, budget C and epsilons exactly [ε]; then its one point decides."""
    inner = witness["input"]
    if not report.check("noise" in inner and "budget" in inner, pointer + "/input", sorted(inner),
                        ["noise", "budget", "..."], "the plain-composition certificate must be in the single-law "
                                                    "form (one noise law, one budget)"):
        return
    noise = inner["noise"]
    param = "sigma2" if noise["family"] == GAUSSIAN else "t"
    same = noise["family"] == q.family and read_rational(noise[param], f"{pointer}/input/noise/{param}") == scale
    report.check(same, pointer + "/input/noise", noise, {"family": q.family, param: show(scale)},
                 "the noise must be the certificate's family at its noise level")
    report.equal(pointer + "/input/budget", inner["budget"], q.budget, "budget (the noise certificate's)")
    epsilons = [read_rational(e, f"{pointer}/input/epsilons/{i}") for i, e in enumerate(inner["epsilons"])]
    ok = report.check(epsilons == [q.epsilon], pointer + "/input/epsilons", [show(e) for e in epsilons],
                      [show(q.epsilon)], "the embedded certificate must be at the single ε of the question")
    points = witness["result"]["points"]
    if ok and len(points) == 1:
        end = "upper" if meets else "lower"
        where = f"{pointer}/result/points/0/{end}"
        _decide(where, read_rational(points[0][end], where), q, report, meets)


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


def claim(cert):
    """``sigma^2 = 20.51 suffices for eps*_100(0.00001) <= 2 (sigma^2 = 20.49 does not;
    the discrete Gaussian, plain composition; route product-pair)``: every number exact."""
    inp, res = cert["input"], cert["result"]
    family = inp["family"]
    key = RESULT_KEY[family]
    law = "the discrete Gaussian" if family == GAUSSIAN else "the discrete Laplace"
    gamma = rational_text(read_rational(inp["gamma"], ""))
    mechanism = "plain composition" if inp["gamma"] == "0" else f"gamma = {gamma}"
    question = f"eps*_{inp['budget']}({_exact(inp['delta'])}) <= {_exact(inp['epsilon'])}"
    return (f"{_level(family, res[key])} suffices for {question} ({_level(family, res[key + '_below'])} does not; "
            f"{law}, {mechanism}; route {res['route']})")
