"""Float estimates of δ_C(ε) for the plain composition, used only to steer the noise search.

Nothing here decides anything: every grid point the search keeps is decided
by an exact certificate (:mod:`producer.noise_level.search`).

- Discrete Gaussian σ²: the continuous Gaussian's C-fold composition is the
  Gaussian pair with μ = sqrt(C/σ²), δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)
  (*The Discrete Gaussian for Differential Privacy*, Canonne, Kamath and
  Steinke, §2; the discrete law is close to it once σ² is not small).
- Discrete Laplace t, sensitivity 1: the privacy loss of one release is +1/t
  on n <= 0 and −1/t on n >= 1 (P(n <= 0) = p = 1/(1 + e^{−1/t})), so over C
  releases it is (2k − C)/t with k ~ Binomial(C, p) and
  δ(ε) = Σ_k P(k) (1 − e^{ε − (2k − C)/t})₊, a finite sum.
"""

import math


def _log_phi_upper(z):
    """log Φ(−z) = log(erfc(z/√2)/2), with the asymptotic form far in the tail."""
    if z < 30:
        return math.log(0.5 * math.erfc(z / math.sqrt(2)))
    return -z * z / 2 - math.log(z * math.sqrt(2 * math.pi))


def gaussian_delta(sigma2, budget, epsilon):
    """δ_C(ε) of the continuous Gaussian pair (a float estimate; 0 where it underflows)."""
    mu = math.sqrt(budget / sigma2)
    a = _log_phi_upper(epsilon / mu - mu / 2)
    b = epsilon + _log_phi_upper(epsilon / mu + mu / 2)
    if a <= b or a < -700:
        return 0.0
    return math.exp(a) * -math.expm1(b - a)


def laplace_delta(t, budget, epsilon):
    """δ_C(ε) of the discrete Laplace product pair (binomial form above, in floats)."""
    log_p = -math.log1p(math.exp(-1 / t))
    log_q = -1 / t + log_p
    total = 0.0
    for k in range(budget + 1):
        loss = (2 * k - budget) / t
        if loss <= epsilon:
            continue
        log_weight = math.lgamma(budget + 1) - math.lgamma(k + 1) - math.lgamma(budget - k + 1) \
            + k * log_p + (budget - k) * log_q
        total += math.exp(log_weight) * -math.expm1(epsilon - loss)
    return total


def solve(delta_at, delta, low, high, steps=80):
    """The float x in [low, high] where delta_at(x) crosses δ (geometric bisection; δ(x) falls with x).

    ``low`` if delta_at(low) <= δ already, ``high`` if delta_at(high) > δ.
    """
    if delta_at(low) <= delta:
        return low
    if delta_at(high) > delta:
        return high
    for _ in range(steps):
        middle = math.sqrt(low * high)
        if delta_at(middle) > delta:
            low = middle
        else:
            high = middle
    return high
