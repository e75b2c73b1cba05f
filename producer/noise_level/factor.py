"""One common factor f on the noise of a list of releases, and where it may range.

A pipeline of releases (:mod:`producer.plain.releases`) asks "by what factor
must my noise grow?".  The factor f multiplies every release's stated scale:
a discrete Gaussian N_Z(0, σ²) becomes N_Z(0, f·σ²) and a discrete Laplace
L_t becomes L_{f·t}; sensitivities and counts stay.  It is the knob that
divides every release's privacy loss alike: the Gaussian's loss at shift s,
s(2n + s)/(2σ²), and the Laplace's, within ±s/t, both scale by 1/f.  So the
common loss lattice of the product pair (:mod:`producer.plain.lattice`: the
gcd of the rational loss steps) is the base lattice divided by f, with as
many points over the loss range at every f (a factor on σ instead, σ² -> f²σ²
beside t -> f·t, would refine the lattice of a mixed list by f's
denominator).  Nothing certified relies on the monotonicity in f
(:mod:`producer.noise_level.search`).

The factor's range is the set of grid points at which every scaled scale
lies within the limits [low, high] of plain-composition/1; it is an interval
of the grid because every scaled scale grows with f.  Its ends are found
from floats and then confirmed exactly, one grid step at a time.

The float estimate (:func:`delta_hint`) is the continuous Gaussian pair with
μ² = Σ count·2·KL of each release at the factor: 2·KL = s²/(f·σ²) for the
Gaussian, and 2(a − 1 + e^{−a}) with a = s/(f·t) for the Laplace (the
continuous Laplace's KL divergence).  It only steers the search.
"""

import math

from gmpy2 import mpq

from producer.noise_level import hints
from producer.plain.enclose import GAUSSIAN
from producer.plain.releases import Release


def scaled(releases, factor):
    """The releases with every scale (σ² or t) multiplied by ``factor`` (same order, so still canonical)."""
    f = mpq(factor)
    return tuple(Release(r.family, r.parameter * f, r.sensitivity, r.count) for r in releases)


def _inside(releases, factor, low, high):
    return all(low <= r.parameter <= high for r in scaled(releases, factor))


def _float_bound(release, bound):
    """The float factor at which ``release``'s scale reaches ``bound``."""
    return float(mpq(bound) / release.parameter)


def index_range(grid, releases, low, high):
    """(bottom, top): the first and last grid indices at which every scaled scale lies in [low, high].

    Raises ValueError when no grid point does (the releases' scales span more than high/low allows).
    """
    start = grid.index_above(mpq(max(_float_bound(r, low) for r in releases)))
    end = grid.index_below(mpq(min(_float_bound(r, high) for r in releases)))
    while _inside(releases, grid.value(start - 1), low, high):
        start -= 1
    while start <= end and not _inside(releases, grid.value(start), low, high):
        start += 1
    while _inside(releases, grid.value(end + 1), low, high):
        end += 1
    while end >= start and not _inside(releases, grid.value(end), low, high):
        end -= 1
    if start > end:
        raise ValueError("no factor puts every release within the limits")
    return start, end


def two_kl(release, factor):
    """2·KL of one output of ``release`` at ``factor`` (float; the Gaussian pair's μ² per output)."""
    s = release.sensitivity
    if release.family == GAUSSIAN:
        return s * s / (factor * float(release.parameter))
    a = s / (factor * float(release.parameter))
    return 2 * (a - 1 + math.exp(-a))


def delta_hint(releases, factor, epsilon):
    """A float estimate of δ(ε) of the releases at ``factor`` (the Gaussian pair of the module docstring)."""
    mu2 = sum(r.count * two_kl(r, factor) for r in releases)
    return hints.gaussian_delta(1.0, mu2, epsilon) if mu2 > 0 else 0.0
