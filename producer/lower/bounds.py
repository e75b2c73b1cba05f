"""Embedded upper ends: a complete ``dg-interval/1`` certificate for the mechanism of a lower claim.

A lower certificate that compares its lower end with an upper end (the
reference of a deadline witness, the privacy bound of a separation) embeds
the upper end as a whole ``dg-interval/1`` certificate, checked in full by the
auditor.  It must be for the same mechanism as the claim: the same γ (with
γ > 0: the hidden feedback mechanism, not plain composition), σ², budget C
and ε, the discrete Gaussian, an explicit source (the claim's radius and
scale) and the default method.  :func:`check_same_mechanism` refuses anything
else, so the producer never writes a bound for a different question.
"""

import copy
from functools import lru_cache

from gmpy2 import mpq, mpz

from producer.errors import InputError
from producer.laws import Gamma
from producer.names import entry
from producer.rationals import format_rational

__all__ = ["positive_gamma", "dg_upper_certificate", "check_same_mechanism", "upper_end"]


def positive_gamma(gamma, what="gamma"):
    """γ as a :class:`Gamma` with 0 < γ < 1; γ = 0 (plain composition) is refused with one line."""
    gamma = gamma if isinstance(gamma, Gamma) else Gamma.from_string(gamma)
    if gamma.a == 0:
        raise InputError(f"{what}: γ = 0 is plain composition, not the hidden feedback mechanism of this "
                         f"certificate; need γ = a/B with 0 < a < B (for plain composition use `{entry('plain')}` "
                         f"or `{entry('dg', gamma=0)}`)")
    return gamma


@lru_cache(maxsize=8)
def _build(gamma_text, sigma2, budget, epsilon, radius, scale):
    from producer.kinds import dg_interval
    return dg_interval.build(dg_interval.Request(gamma_text, sigma2, budget, epsilon, radius=radius, scale=scale))


def dg_upper_certificate(gamma, sigma2, budget, epsilon, radius, scale):
    """The dg-interval/1 certificate of Δ*_C(ε) for (γ, σ², C, ε) with the source (L, S); a fresh copy."""
    gamma = positive_gamma(gamma)
    cert = _build(str(gamma), mpq(sigma2), int(budget), mpq(epsilon), int(radius), mpz(scale))
    check_same_mechanism(cert, gamma, sigma2, budget, epsilon, radius, scale, "embedded bound")
    return copy.deepcopy(cert)


def check_same_mechanism(cert, gamma, sigma2, budget, epsilon, radius, scale, what):
    """InputError unless ``cert`` is a dg-interval/1 for exactly (γ > 0, σ², C, ε), discrete Gaussian,
    with the explicit source (L, S) and the default method."""
    gamma = positive_gamma(gamma, what)
    inp = cert.get("input", {}) if isinstance(cert, dict) else {}
    wanted = {"gamma": str(gamma), "sigma2": format_rational(mpq(sigma2)), "budget": int(budget),
              "epsilon": format_rational(mpq(epsilon)),
              "source": {"radius": int(radius), "scale": str(int(mpz(scale)))}, "method": None}
    if cert.get("schema") != "dg-interval/1" or "noise" in inp:
        raise InputError(f"{what}: not a discrete-Gaussian dg-interval/1 certificate")
    for key, value in wanted.items():
        if inp.get(key) != value:
            raise InputError(f"{what}: a bound for {key} = {inp.get(key)!r}, but the claim is for "
                             f"{key} = {value!r} (a bound must be for the claim's own mechanism)")


def upper_end(cert):
    """The certified upper end of Δ*_C(ε) of a dg-interval/1 certificate (an exact rational)."""
    return mpq(cert["result"]["interval"]["upper"])
