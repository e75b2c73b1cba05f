"""Two-sided brackets of ε*_C(δ) from two certificates.

A bracket is not a new claim.  It puts side by side a certified lower end of
ε*_C(δ) (from ``calibration-lower/1``: a physical witness line proves
ε*_C(δ) ≥ ε_lo; or from ``calibration/1`` or ``epsilon-bracket/1``, whose
enclosures have a lower end too) and a certified upper end (from
``calibration/1``, the exact game at small budgets, ``hierarchy/1`` with a δ
query, budgets 8 to 64, or ``epsilon-bracket/1``, what ``producer calibrate``
writes beyond the exact game), after checking that both answer the same
question (γ, σ², C, δ).  The question is read from
each certificate's ``input``; a certificate whose result states something
else (a hierarchy ``result.delta`` other than its ``input.query.delta``, a
calibration witness for another γ, σ², C or ε) is refused, as are two
certificates for different questions.  Each end is only as good as
its certificate: verify both with ``auditor verify`` — the bracket line says so.
"""

from dataclasses import dataclass

from producer import json_input
from producer.errors import InputError
from producer.input_files import read_limited
from producer.names import option
from producer.rationals import decimal_outward, parse_rational

MAX_CERTIFICATE_BYTES = 64 * 2**20  # the auditor's file limit: it could not check a larger certificate
DIGITS = 6  # decimals shown; lower end rounded down, upper end rounded up
EPSILON_BRACKET = "epsilon-bracket/1"


@dataclass(frozen=True)
class Question:
    """What ε*_C(δ) is asked about: γ, the innovation law (σ² of the discrete Gaussian, or the
    discrete Laplace's t), C and δ; read from a certificate's ``input``."""

    gamma: object
    sigma2: object
    budget: int
    delta: object
    laplace: object = None

    def law(self):
        return f"σ² = {_q(self.sigma2)}" if self.laplace is None else f"discrete Laplace t = {_q(self.laplace)}"

    def text(self):
        return f"γ = {_q(self.gamma)}, {self.law()}, C = {self.budget}, δ = {_q(self.delta)}"


@dataclass(frozen=True)
class End:
    question: Question
    value: object   # exact rational
    kind: str       # the certificate kind it came from


@dataclass(frozen=True)
class Bracket:
    """lo ≤ ε*_C(δ) ≤ hi from two certificates; ``claim`` is its one line, as a Certificate's."""

    lower: End
    upper: End

    @property
    def claim(self):
        """The one-line statement the command line prints (what :meth:`line` returns)."""
        return self.line()

    def line(self):
        q = self.lower.question
        lo = decimal_outward(self.lower.value, DIGITS, -1)
        hi = decimal_outward(self.upper.value, DIGITS, +1)
        return (f"{lo} ≤ ε*_{q.budget}({_q(q.delta)}) ≤ {hi} for γ = {_q(q.gamma)}, {q.law()} "
                f"(lower end: {self.lower.kind}, upper end: {self.upper.kind}; "
                f"verify both with `auditor verify`)")

    def as_dict(self):
        q = self.lower.question
        out = {"gamma": _q(q.gamma), "sigma2": None if q.sigma2 is None else _q(q.sigma2), "budget": q.budget,
               "delta": _q(q.delta), "epsilon_lower": _q(self.lower.value), "epsilon_upper": _q(self.upper.value),
               "lower_kind": self.lower.kind, "upper_kind": self.upper.kind}
        if q.laplace is not None:
            out["laplace"] = _q(q.laplace)
        return out


def _q(value):
    value = parse_rational(value) if isinstance(value, str) else value
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def read_certificate(path):
    """The JSON object in ``path`` (a certificate), or InputError with one line."""
    data = read_limited(path, MAX_CERTIFICATE_BYTES, "certificate")
    try:
        cert = json_input.loads(data)
    except json_input.JSONInputError as exc:
        raise InputError(f"{path}: not a readable certificate: it {exc}") from None
    except ValueError as exc:  # bad JSON, or bytes that are not UTF-8
        raise InputError(f"{path}: not a readable certificate ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(cert, dict) or not isinstance(cert.get("schema"), str):
        raise InputError(f"{path}: not a certificate (no schema)")
    return cert


def _question(inp, delta):
    """The Question of a certificate's ``input`` (γ, σ² or the Laplace t, C) at ``delta``."""
    noise = inp.get("noise")
    laplace = None if noise is None else parse_rational(noise["t"], "t")
    sigma2 = None if laplace is not None else parse_rational(inp["sigma2"], "sigma2")
    budget = inp["budget"]
    if not isinstance(budget, int) or isinstance(budget, bool):
        raise TypeError(f"budget {budget!r} is not an integer")
    return Question(parse_rational(inp["gamma"], "gamma"), sigma2, budget, parse_rational(delta, "delta"), laplace)


def _agree(name, what, stated, found):
    """Refuse a certificate whose result states another value than its input (one of the two is wrong)."""
    if stated != found:
        raise InputError(f"{name}: its result disagrees with its input: {what} is {found!r} in the result but "
                         f"{stated!r} in the input (verify it with `auditor verify`)")


def _witness_question(name, inp, witness, which, epsilon):
    """A calibration/1 witness must be a dg-interval/1 for the calibration's own question at ``epsilon``."""
    w = witness["input"]
    for key in ("gamma", "sigma2", "budget", "method"):
        _agree(name, f"{which}.input.{key}", inp.get(key), w.get(key))
    _agree(name, f"{which}.input.noise", inp.get("noise"), w.get("noise"))
    _agree(name, f"{which}.input.epsilon", epsilon, w.get("epsilon"))


def _bracket_question(name, inp):
    """The Question of an epsilon-bracket/1 ``input``: one law, given as ``noise`` (σ² or t)."""
    if "releases" in inp:
        raise InputError(f"{name}: this epsilon-bracket/1 certificate is about a list of releases, not one law; "
                         f"its own result states both ends of ε*(δ)")
    noise = inp["noise"]
    law = {"noise": noise} if noise["family"] == "discrete-laplace" else {"sigma2": noise["sigma2"]}
    return _question(dict(law, gamma=inp["gamma"], budget=inp["budget"]), inp["delta"])


def _bracket_agrees(name, res):
    """The ends an epsilon-bracket/1 result states are those its embedded certificates state."""
    upper, lower = res["upper_witness"], res["lower_witness"]
    if res["route"] == "hierarchy-witness":
        _agree(name, "upper_witness.result.epsilon", res["epsilon_hi"], upper["result"]["epsilon"])
        if lower is not None:
            _agree(name, "lower_witness.result.epsilon_lower", res["epsilon_lo"], lower["result"]["epsilon_lower"])
        return
    _agree(name, "upper_witness.input.epsilons", [res["epsilon_hi"]], upper["input"]["epsilons"])  # product pair
    if lower is not None:
        _agree(name, "lower_witness.input.epsilons", [res["epsilon_lo"]], lower["input"]["epsilons"])


def lower_end(cert, name="lower"):
    """The certified lower end of ε*_C(δ) in ``cert``, with the question of its ``input``."""
    kind = cert.get("schema")
    try:
        inp, res = cert["input"], cert["result"]
        if kind == "calibration-lower/1":
            return End(_question(inp, inp["delta"]), parse_rational(res["epsilon_lower"]), kind)
        if kind == "calibration/1":
            _calibration_agrees(name, inp, res)
            return End(_question(inp, inp["delta"]), parse_rational(res["epsilon_lo"]), kind)
        if kind == EPSILON_BRACKET:
            question = _bracket_question(name, inp)
            if res["epsilon_lo"] is None:
                raise InputError(f"{name}: this {kind} certificate has no lower end ({res['lower_reason']})")
            _bracket_agrees(name, res)
            return End(question, parse_rational(res["epsilon_lo"]), kind)
    except InputError:  # a refusal of its own, already one line
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{name}: a {kind} certificate without its fields ({exc})") from None
    raise InputError(f"{name}: {kind!r} gives no lower end of ε*_C(δ) (use calibration-lower/1, calibration/1 or "
                     f"{EPSILON_BRACKET})")


def _calibration_agrees(name, inp, res):
    _witness_question(name, inp, res["upper_witness"], "upper_witness", res["epsilon_hi"])
    if res["lower_witness"] is not None:
        _witness_question(name, inp, res["lower_witness"], "lower_witness", res["epsilon_lo"])


def upper_end(cert, name="upper"):
    """The certified upper end of ε*_C(δ) in ``cert``, with the question of its ``input``."""
    kind = cert.get("schema")
    try:
        inp, res = cert["input"], cert["result"]
        if kind == "calibration/1":
            _calibration_agrees(name, inp, res)
            return End(_question(inp, inp["delta"]), parse_rational(res["epsilon_hi"]), kind)
        if kind == "hierarchy/1":
            delta = inp["query"].get("delta")
            if delta is None:
                raise InputError(f"{name}: this hierarchy/1 certificate answers an ε query (input.query), "
                                 f"not ε*_C(δ); use one made with {option('delta', 'D')}")
            _agree(name, "delta", delta, res["delta"])
            _agree(name, "meets_delta", True, res["meets_delta"])
            return End(_question(inp, delta), parse_rational(res["epsilon"]), kind)
        if kind == EPSILON_BRACKET:
            question = _bracket_question(name, inp)
            _bracket_agrees(name, res)
            return End(question, parse_rational(res["epsilon_hi"]), kind)
    except InputError:  # a refusal of its own, already one line
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"{name}: a {kind} certificate without its fields ({exc})") from None
    raise InputError(f"{name}: {kind!r} gives no upper end of ε*_C(δ) (use calibration/1, hierarchy/1 or "
                     f"{EPSILON_BRACKET})")


def bracket(lower_cert, upper_cert):
    """The :class:`Bracket` of two certificates answering the same question."""
    lower, upper = lower_end(lower_cert), upper_end(upper_cert)
    if lower.question != upper.question:
        raise InputError(f"the certificates answer different questions: lower {lower.question.text()}, "
                         f"upper {upper.question.text()}")
    if lower.value > upper.value:
        raise InputError(f"the lower end {decimal_outward(lower.value, DIGITS, -1)} exceeds the upper end "
                         f"{decimal_outward(upper.value, DIGITS, +1)}: the two certificates contradict "
                         f"each other (verify both)")
    return Bracket(lower, upper)
