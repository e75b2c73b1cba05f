"""The common rational source ν of the resource certificates.

Every row of every resource certificate uses ONE finite source ν on [−L, L]
at scale S (the discrete-Gaussian source of *Exact Compilation and Resource
Laws for Hidden Integer Feedback*, §4.3): w_n = floor(S·lower g_σ(n)) for
0 < |n| <= L and w_0 = S − Σ_{n≠0} w_n.  Every nonzero atom is then below its
discrete-Gaussian mass, so TV(ν, g_σ) = ν(0) − g_σ(0) <= tv (a certified dyadic
bound), and since the same ν drives every row (common noise), a row built
from ν is within tv of the true row in total variation: for any potential f,
|E_ν f − E_g f| <= tv · span f.

Two choices:

- :func:`default_source` (``rate/1``, ``frontier/1``, ``finite-budget/1``):
  S = 2^100 and the least L whose certified tail mass is <= 2^-100;
- :func:`source_for_tv` (``window-request/1``, Theorem 11's recipe): the least
  L with tail mass <= η_p/2, then the least S = 2^s with 4L/S <= η_p − tail,
  doubled until the certified tv is <= η_p.
"""

from gmpy2 import mpq, mpz

from producer.errors import LimitError
from producer.sources.discrete_gaussian import MAX_RADIUS, DiscreteGaussianSource, tail_mass_upper

DEFAULT_SCALE_BITS = 100
MAX_SCALE_BITS = 1024


def least_radius(sigma2, target):
    """The least L >= 1 with certified tail mass Σ_{|n|>L} g_σ(n) <= target (galloping, then bisection)."""
    lo, hi = 0, 1
    while tail_mass_upper(sigma2, hi) > target:
        lo, hi = hi, 2 * hi
        if lo > MAX_RADIUS:
            raise LimitError(f"source: the discrete-Gaussian tail needs a radius above {MAX_RADIUS}")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if tail_mass_upper(sigma2, mid) <= target:
            hi = mid
        else:
            lo = mid
    return hi


def default_source(sigma2):
    """S = 2^100, L the least radius with tail mass <= 2^-100."""
    scale = mpz(2) ** DEFAULT_SCALE_BITS
    return DiscreteGaussianSource.from_radius_scale(sigma2, least_radius(sigma2, mpq(1, scale)), scale)


def source_for_tv(sigma2, eta_p):
    """The source of Theorem 11's recipe: certified tv <= eta_p."""
    eta_p = mpq(eta_p)
    radius = least_radius(sigma2, eta_p / 2)
    room = eta_p - tail_mass_upper(sigma2, radius)
    bits = 0
    while mpq(4 * radius, mpz(2) ** bits) > room:
        bits += 1
    while True:
        if bits > MAX_SCALE_BITS:
            raise LimitError(f"source: tv <= {float(eta_p):.3g} needs a scale above 2^{MAX_SCALE_BITS}")
        source = DiscreteGaussianSource.from_radius_scale(sigma2, radius, mpz(2) ** bits)
        if source.tau <= eta_p:
            return source
        bits += 1


def source_json(source):
    """The source as certificates store it: σ², L, S, w_{−L..L}, offset, and tv."""
    from producer.rationals import format_rational
    data = source.as_json()
    data["tv"] = format_rational(source.tau)
    return data
