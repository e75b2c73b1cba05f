"""How a Gaussian pair holds its noise σ: given exactly (a rational σ) or by its exact square σ² only.

A Gaussian pair uses σ through three accessors — ``variance`` (σ², exact),
``noise_ball()`` (σ as an arb ball) and ``noise_float()`` (a float hint) —
and states ``parameters()`` and ``audit_scale()`` (the q and s of the
auditor's guard).  A composition of Gaussian events gives σ² only:
1/σ² = Σ m_i/σ_i² (docs/mechanisms/poisson-subsampling.md), and σ is then
irrational in general, so it enters the masses as the arb square root of σ²,
and the auditor's guard reads ⌊σ⌋ = isqrt(⌊σ²⌋).

Both mixins have empty ``__slots__``; the pair holds ``rate`` and ``noise``
(or ``_variance``).
"""

import math

from gmpy2 import isqrt, mpq

from producer.sources.enclosures import to_arb


class GivenBySigma:
    """σ = ``self.noise``, an exact rational."""

    __slots__ = ()

    @property
    def variance(self):
        """σ², exact."""
        return self.noise * self.noise

    def noise_ball(self):
        """σ as an arb ball at the current precision."""
        return to_arb(self.noise)

    def noise_float(self):
        """σ in floats (hints)."""
        return float(self.noise)

    def parameters(self):
        return (self.rate, self.noise)

    def audit_scale(self):
        return self.rate, self.noise


class GivenByVariance:
    """σ = √``self._variance``, σ² an exact rational (``noise`` is None)."""

    __slots__ = ()

    @property
    def variance(self):
        return self._variance

    def noise_ball(self):
        return to_arb(self._variance).sqrt()

    def noise_float(self):
        return math.sqrt(float(self._variance))

    def parameters(self):
        return (self.rate, self._variance)

    def audit_scale(self):
        return self.rate, mpq(isqrt(self._variance.numerator // self._variance.denominator))


__all__ = ["GivenBySigma", "GivenByVariance"]
