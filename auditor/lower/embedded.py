"""Embedded dg-interval/1 certificates (the privacy-bound side of a separation).

An embedded certificate is validated against its own schema, its digest is
recomputed, and it is re-verified in full by :mod:`auditor.checks.dg_interval`
with every pointer prefixed by where it sits.  It must answer the question of
the enclosing claim (γ, σ², ε, budget).

Its undecided claims join the enclosing certificate's ``undecided`` list rather
than stopping the check: the remaining claims are still checked, so a false one
later in the certificate makes it FAIL (more severe than UNCHECKED); only when
nothing is false does the list make it UNCHECKED (:func:`auditor.decide.raise_undecided`).
"""

from auditor.certificate import Malformed, digest, validate
from auditor.rationals import read_rational


def validated(cert, pointer):
    """``cert`` validated as an embedded dg-interval/1 certificate (Malformed otherwise), before any of
    its fields is read."""
    try:
        kind = validate(cert)
    except Malformed as exc:
        raise Malformed(f"{pointer}{exc}") from None
    if kind != "dg-interval":
        raise Malformed(f"{pointer}/schema: the privacy bound must be a dg-interval certificate, not {kind!r}")
    return cert


def verify_privacy_bound(cert, pointer, report, gamma, sigma2, epsilon, budget, undecided):
    """Re-verify an embedded dg-interval; return its certified upper end Δ⁺.

    None when one of its claims is false or undecided (the pointers of undecided
    claims are appended to ``undecided``): then Δ⁺ is not certified.
    """
    from auditor.checks.dg_interval import estimate_dg, verify_dg
    validated(cert, pointer)
    estimate_dg(cert, pointer)  # refuse (UNCHECKED) before any work beyond the dg-interval limits
    report.check(cert["digest"] == digest(cert), pointer + "/digest", cert["digest"], digest(cert),
                 "embedded dg-interval digest does not match its body")
    inner = cert["input"]
    report.equal(pointer + "/input/gamma", inner["gamma"], gamma, "γ (the separation's)")
    report.equal(pointer + "/input/sigma2", read_rational(inner["sigma2"], pointer + "/input/sigma2"), sigma2,
                 "σ² (the separation's)")
    report.equal(pointer + "/input/epsilon", read_rational(inner["epsilon"], pointer + "/input/epsilon"), epsilon,
                 "ε (the separation's)")
    report.equal(pointer + "/input/budget", inner["budget"], budget, "budget (the separation's)")
    failures = len(report.failures)
    open_claims = []
    verify_dg(cert, report, pointer, open_claims)
    undecided.extend(open_claims)
    if len(report.failures) > failures or open_claims:
        return None
    return read_rational(cert["result"]["interval"]["upper"], pointer + "/result/interval/upper")
