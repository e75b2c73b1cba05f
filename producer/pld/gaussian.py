"""The closed form of Gaussian-only schedules (every stage a Gaussian mechanism: q = 1).

One Gaussian step compares N(d, σ²) with N(0, σ²) (d = 1 under add/remove,
and N(1, σ²) with N(−1, σ²), a shift by d = 2, under replace-one); its
privacy loss under the first law is N(μ₁²/2, μ₁²) with μ₁ = d/σ, and the same
under the swapped pair (a reflection exchanges them), so both orders agree.
Losses of independent steps add, so a schedule's composed loss is
N(μ²/2, μ²) with

    μ² = Σ_s T_s·d²/σ_s²,

and ("Gaussian Differential Privacy", Dong, Roth, Su 2022, Corollary 2.13)

    δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2).

Both terms are enclosed with arb (Φ(z) = erfc(−z/√2)/2); the precision is
raised until the ball is narrow relative to its value.

Far in the tail that enclosure is the wrong tool (at μ = 1/100 and ε = 500,
δ(ε) is about e^(−1.25·10^9), a number of half a billion digits), so a small
δ(ε) is first bounded with exact rationals: the second term is >= 0, so with
a = ε/μ − μ/2 >= 0, δ(ε) <= Φ(−a) <= e^(−a²/2) (the Chernoff bound of the
normal tail), and e^(−a²/2) <= 10^-k as soon as a² >= 2k·log 10.  With
μ·a = ε − μ²/2 this is decided on rationals alone (:func:`proves_below`).
"""

from flint import arb
from gmpy2 import mpq

from producer.plain.outward import ball_lower, ball_upper
from producer.sources.enclosures import to_arb, working_precision


LN10_UPPER = mpq(2302585093, 10**9)  # > log 10 = 2.302585092994...


def proves_below(mu2, epsilon, digits):
    """True when δ(ε) <= 10^-digits follows from the Chernoff bound (exact; False proves nothing).

    a >= 0 and a² >= 2·digits·log 10, written with μ·a = ε − μ²/2 so that no
    square root is needed.
    """
    excess = mpq(epsilon) - mpq(mu2) / 2
    return excess >= 0 and excess * excess >= 2 * digits * LN10_UPPER * mpq(mu2)


def mu_squared(stages):
    """μ² = Σ T·μ₁² over stages of Gaussian mechanisms (exact; for DP-SGD at q = 1, μ₁² = 1/σ²)."""
    return sum((s.steps * s.law.gaussian_mu2 for s in stages), mpq(0))


def delta_ball(mu2, epsilon):
    """δ(ε) as an arb ball at the current precision."""
    mu = to_arb(mu2).sqrt()
    eps = to_arb(mpq(epsilon))
    root2 = arb(2).sqrt()
    first = ((eps / mu - mu / 2) / root2).erfc() / 2
    second = ((eps / mu + mu / 2) / root2).erfc() / 2
    return first - eps.exp() * second


def delta_enclosure(mu2, epsilon, relative, start_bits=128):
    """(lo, hi) exact rationals with lo <= δ(ε) <= hi and hi − lo <= relative·hi (or hi tiny)."""
    bits = start_bits
    for _ in range(12):
        with working_precision(bits + int(abs(mpq(epsilon))).bit_length()):
            ball = delta_ball(mu2, epsilon)
            lo, hi = max(mpq(0), ball_lower(ball)), ball_upper(ball)
        if hi > 0 and hi - lo <= relative * hi:
            return lo, min(hi, mpq(1))
        bits *= 2
    raise ArithmeticError("the Gaussian closed form did not narrow")
