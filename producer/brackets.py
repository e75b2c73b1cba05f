"""Two-sided brackets of ε*_C(δ) from two certificates.

A bracket is not a new claim.  It puts side by side a certified lower end of
ε*_C(δ) (from ``calibration-lower/1``: a physical witness line proves
ε*_C(δ) ≥ ε_lo; or from ``calibration/1``, whose enclosure has a lower end
too) and a certified upper end (from ``calibration/1``, the exact game at small
budgets, or ``hierarchy/1`` with a δ query, budgets 8 to 64), after checking
that both answer the same question (γ, σ², C, δ).  Each end is only as good as
its certificate: verify both with ``auditor verify`` — the bracket line says so.
"""

import json
from dataclasses import dataclass

from producer.errors import InputError
from producer.rationals import decimal_outward, parse_rational

DIGITS = 6  # decimals shown; lower end rounded down, upper end rounded up


@dataclass(frozen=True)
class Question:
    gamma: object
    sigma2: object
    budget: int
    delta: object

    def text(self):
        return (f"γ = {_q(self.gamma)}, σ² = {_q(self.sigma2)}, C = {self.budget}, "
                f"δ = {_q(self.delta)}")


@dataclass(frozen=True)
class End:
    question: Question
    value: object   # exact rational
    kind: str       # the certificate kind it came from


@dataclass(frozen=True)
class Bracket:
    lower: End
    upper: End

    def line(self):
        q = self.lower.question
        lo = decimal_outward(self.lower.value, DIGITS, -1)
        hi = decimal_outward(self.upper.value, DIGITS, +1)
        return (f"{lo} ≤ ε*_{q.budget}({_q(q.delta)}) ≤ {hi} for γ = {_q(q.gamma)}, σ² = {_q(q.sigma2)} "
                f"(lower end: {self.lower.kind}, upper end: {self.upper.kind}; "
                f"verify both with `auditor verify`)")

    def as_dict(self):
        q = self.lower.question
        return {"gamma": _q(q.gamma), "sigma2": _q(q.sigma2), "budget": q.budget, "delta": _q(q.delta),
                "epsilon_lower": _q(self.lower.value), "epsilon_upper": _q(self.upper.value),
                "lower_kind": self.lower.kind, "upper_kind": self.upper.kind}


def _q(value):
    value = parse_rational(value) if isinstance(value, str) else value
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def read_certificate(path):
    """The JSON object in ``path`` (a certificate), or InputError with one line."""
    try:
        with open(path, encoding="utf-8") as fh:
            cert = json.load(fh)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable certificate ({exc.__class__.__name__}: {exc})") from None
    if not isinstance(cert, dict) or not isinstance(cert.get("schema"), str):
        raise InputError(f"{path}: not a certificate (no schema)")
    return cert


def _question(gamma, sigma2, budget, delta):
    return Question(parse_rational(gamma, "gamma"), parse_rational(sigma2, "sigma2"), int(budget),
                    parse_rational(delta, "delta"))


def lower_end(cert, name="lower"):
    """The certified lower end of ε*_C(δ) in ``cert``."""
    kind = cert.get("schema")
    try:
        if kind == "calibration-lower/1":
            res = cert["result"]
            q = _question(res["gamma"], res["sigma2"], res["budget"], res["delta"])
            return End(q, parse_rational(res["epsilon_lower"]), kind)
        if kind == "calibration/1":
            inp = cert["input"]
            q = _question(inp["gamma"], inp["sigma2"], inp["budget"], inp["delta"])
            return End(q, parse_rational(cert["result"]["epsilon_lo"]), kind)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{name}: a {kind} certificate without its fields ({exc})") from None
    raise InputError(f"{name}: {kind!r} gives no lower end of ε*_C(δ) (use calibration-lower/1 or calibration/1)")


def upper_end(cert, name="upper"):
    """The certified upper end of ε*_C(δ) in ``cert``."""
    kind = cert.get("schema")
    try:
        if kind == "calibration/1":
            inp = cert["input"]
            q = _question(inp["gamma"], inp["sigma2"], inp["budget"], inp["delta"])
            return End(q, parse_rational(cert["result"]["epsilon_hi"]), kind)
        if kind == "hierarchy/1":
            inp, res = cert["input"], cert["result"]
            if res.get("delta") is None or not res.get("meets_delta"):
                raise InputError(f"{name}: this hierarchy/1 certificate answers an ε query, not ε*_C(δ)")
            q = _question(inp["gamma"], inp["sigma2"], inp["budget"], res["delta"])
            return End(q, parse_rational(res["epsilon"]), kind)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"{name}: a {kind} certificate without its fields ({exc})") from None
    raise InputError(f"{name}: {kind!r} gives no upper end of ε*_C(δ) (use calibration/1 or hierarchy/1)")


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
