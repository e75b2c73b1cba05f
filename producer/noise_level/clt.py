"""Float estimates for DP-SGD by the central limit theorem of Gaussian differential privacy, used only to steer.

T steps of the Poisson-subsampled Gaussian with sampling rate q and noise
multiplier σ are close, for large T, to one Gaussian mechanism of parameter
μ = q·sqrt(T·(e^{1/σ²} − 1)) (*Gaussian Differential Privacy*, Dong, Roth
and Su, §5, the central limit theorem for composition applied to noisy SGD);
at q = 1 the run is exactly a Gaussian mechanism, μ = sqrt(T)/σ.  The
Gaussian mechanism's δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) grows with μ,
so a target (ε, δ) fixes one μ*, and each of σ, T, q solved from μ = μ* is
an estimate of the value the target allows.  The approximation is rough
(a few per cent on σ where q·sqrt(T) is large, worse elsewhere): nothing
here decides anything, every value kept is decided by a certificate.
"""

import math

from producer.noise_level.hints import gaussian_delta, solve


def mu_star(epsilon, delta):
    """The Gaussian mechanism's μ at which δ(ε) = δ (a float)."""
    # gaussian_delta(s, 1, ε) is the pair's δ at μ = 1/sqrt(s), falling in s
    s = solve(lambda s: gaussian_delta(s, 1, epsilon), delta, 1e-8, 1e8)
    return 1 / math.sqrt(s)


def _growth(noise):
    """e^{1/σ²} − 1."""
    return math.expm1(1 / noise ** 2)


def noise_multiplier(mu, rate, steps):
    """σ with μ(q, σ, T) = μ."""
    if rate >= 1:
        return math.sqrt(steps) / mu
    return 1 / math.sqrt(math.log1p((mu / rate) ** 2 / steps))


def steps(mu, rate, noise):
    """T (a float) with μ(q, σ, T) = μ."""
    if rate >= 1:
        return (mu * noise) ** 2
    return (mu / rate) ** 2 / _growth(noise)


def sampling_rate(mu, noise, steps):
    """q (a float, possibly above 1) with μ(q, σ, T) = μ."""
    return mu / math.sqrt(steps * _growth(noise))
