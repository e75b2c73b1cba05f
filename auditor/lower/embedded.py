"""Embedded dg-interval/1 certificates (a separation's privacy bound, a deadline witness's reference).

An embedded certificate goes the one route of :mod:`auditor.embedded`: it is
validated against its own schema, refused at once beyond a dg-interval limit,
its digest is recomputed, and it is re-verified in full by its own kind's
checks with every pointer prefixed by where it sits.  It must answer the enclosing
certificate's question about the same mechanism: the same γ (> 0, the
enclosing one's), σ², budget C and ε; the discrete Gaussian (no ``noise``);
the source {radius, scale} of the enclosing input; ``method`` null.  A bound
for another question bounds nothing here, so a mismatch is a FAIL.

Its undecided claims join the enclosing certificate's ``undecided`` list rather
than stopping the check: the remaining claims are still checked, and at the end
every undecided claim is recorded as not established by the certificate's
recipe (:func:`auditor.decide.fail_undecided`), a FAIL.
"""

from auditor import embedded
from auditor.rationals import read_rational

KIND = "dg-interval"


class Question:
    """The question an embedded dg-interval/1 must answer: γ = a/B > 0, σ², ε, C, the source (L, S)."""

    __slots__ = ("gamma", "sigma2", "epsilon", "budget", "radius", "scale", "owner")

    def __init__(self, gamma, sigma2, epsilon, budget, radius, scale, owner):
        self.gamma, self.sigma2, self.epsilon, self.budget = gamma, sigma2, epsilon, budget
        self.radius, self.scale, self.owner = radius, scale, owner


def check_question(cert, pointer, question, report):
    """Record a failure for every field of the embedded input that is not ``question``'s; True if all match."""
    inner, I, owner = cert["input"], pointer + "/input", question.owner
    ok = report.check("noise" not in inner and inner["sigma2"] is not None, I + "/noise",
                      inner.get("noise"), None, f"the bound must be for the discrete Gaussian (the {owner}'s)")
    gamma = read_rational(inner["gamma"], I + "/gamma")
    ok &= report.check(gamma > 0 and gamma == question.gamma, I + "/gamma", gamma, question.gamma,
                       f"γ must be the {owner}'s (γ > 0: the same mechanism)")
    if inner["sigma2"] is not None:
        ok &= report.equal(I + "/sigma2", read_rational(inner["sigma2"], I + "/sigma2"), question.sigma2,
                           f"σ² (the {owner}'s)")
    ok &= report.equal(I + "/epsilon", read_rational(inner["epsilon"], I + "/epsilon"), question.epsilon,
                       f"ε (the {owner}'s)")
    ok &= report.equal(I + "/budget", inner["budget"], question.budget, f"budget C (the {owner}'s)")
    source = inner["source"]
    ok &= report.check("width" not in source, I + "/source", source, {"radius": question.radius},
                       f"the source must be the {owner}'s radius and scale, not a width")
    if "width" not in source:
        ok &= report.equal(I + "/source/radius", source["radius"], question.radius, f"source radius (the {owner}'s)")
        ok &= report.equal(I + "/source/scale", read_rational(source["scale"], I + "/source/scale"),
                           question.scale, f"source scale (the {owner}'s)")
    ok &= report.check(inner["method"] is None, I + "/method", inner["method"], None,
                       "the embedded bound requests no method")
    return ok


def verify_privacy_bound(cert, pointer, report, question, undecided):
    """Re-verify an embedded dg-interval for ``question`` (a :class:`Question`); return its certified upper
    end Δ⁺.

    None when one of its claims is false or undecided, or it answers another
    question (the pointers of undecided claims are appended to ``undecided``):
    then Δ⁺ is not certified for this question.
    """
    embedded.validated(cert, pointer, (KIND + "/1",), "the embedded certificate")
    embedded.refuse(cert, pointer, KIND)  # UNCHECKED before any work beyond the dg-interval limits
    embedded.check_digest(cert, pointer, report, KIND)
    failures = len(report.failures)
    check_question(cert, pointer, question, report)
    open_claims = []
    embedded.verify_embedded(cert, pointer, KIND, report, None, open_claims)
    undecided.extend(open_claims)
    if len(report.failures) > failures or open_claims:
        return None
    return read_rational(cert["result"]["interval"]["upper"], pointer + "/result/interval/upper")
