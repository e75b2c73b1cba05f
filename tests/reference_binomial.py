"""A plain reference for the binomial tails of the truncated Poisson sampling, for tests only.

With X ~ Binomial(n − 1, q): t = P[X >= B] and p̄ = E[q·B/(X + 1) | X >= B] = (B/n)·(1 − (1 − q)·P[X = B]/t)
(P[Binomial(n, q) >= B + 1] = t − (1 − q)·P[X = B]), at 300 bits by mpmath: P[X = B] from log-gamma, the two
sides of B by the ratio recurrence until a term is below 2^-310 of its side's sum.  Not a proof: an independent
numerical route to compare the producer's and the auditor's enclosures with.
"""

from fractions import Fraction

import mpmath


def tails(n, q, B):
    """(t, p̄) as mpmath numbers at 300 bits (the caller keeps mpmath.workprec(300) to compare them)."""
    M, q = n - 1, Fraction(q)
    with mpmath.workprec(300):
        x = mpmath.mpf(q.numerator) / q.denominator
        log_pmf = (mpmath.loggamma(M + 1) - mpmath.loggamma(B + 1) - mpmath.loggamma(M - B + 1)
                   + B * mpmath.log(x) + (M - B) * mpmath.log(1 - x))
        pmf = mpmath.exp(log_pmf)
        above = _side(M, x, B, pmf, 1)
        below = _side(M, x, B - 1, pmf * B * (1 - x) / ((M - B + 1) * x), -1) if B > 0 else mpmath.mpf(0)
        t = above / (above + below)
        return t, mpmath.mpf(B) / n * (1 - (1 - x) * pmf / above)


def _side(M, x, k, term, step):
    total = mpmath.mpf(0)
    while 0 <= k <= M and (total == 0 or term > total * mpmath.mpf(2) ** -310):
        total += term
        term *= (M - k) * x / ((k + 1) * (1 - x)) if step == 1 else k * (1 - x) / ((M - k + 1) * x)
        k += step
    return total
