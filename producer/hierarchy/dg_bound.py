"""Discrete-Gaussian upper bound through the hierarchy and its inverse.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §5.3 and Appendix E.2.)

For the finite source ν (TV(ν, g_σ) <= τ), a game Γ above G_C with root
upper table ū (docs/hierarchy.md §4) and λ₋ <= e^ε <= λ₊:

    Δ*_C(ε) <= (1 + λ₋)·ū(t₋) − λ₋ + (1 + λ₊)·(1 − (1 − τ)^{2C}),   t₋ = 1/(1 + λ₋),

ū(t₋) = max(t₋, 1 − t₋) + chord of E_root at t₋ / 2^F (exact).  Inverse:
ε*_C(δ) <= ε as soon as the right side at ε is <= δ.
"""

from bisect import bisect_right

from gmpy2 import mpq, mpz

from producer.errors import InputError
from producer.names import entry, option
from producer.rationals import describe_rational
from producer.sources.enclosures import exp_threshold
from producer.sources.transfer import transfer_term

THRESHOLD_GAP = mpq(1, mpz(2) ** 40)
EPSILON_PLACES = 6  # ε_hi is searched among multiples of 10^-6
MAX_EPSILON = 64


def chord_at(table, grid, bits, t):
    """The chord of the integer table at prior t (exact rational, in units of 2^-F)."""
    top = mpz(1) << bits
    x = mpq(t) * top
    j = min(max(bisect_right(grid, x) - 1, 0), len(grid) - 2)
    g0, g1 = grid[j], grid[j + 1]
    e0, e1 = int(table[j]), int(table[j + 1])
    return e0 + (e1 - e0) * (x - g0) / (g1 - g0)


def finite_upper(table, grid, bits, scale_bits, lam_lo):
    """(t₋, (1 + λ₋)·ū(t₋) − λ₋)."""
    lam_lo = mpq(lam_lo)
    t = 1 / (1 + lam_lo)
    u = max(t, 1 - t) + chord_at(table, grid, bits, t) / (mpz(1) << scale_bits)
    return t, (1 + lam_lo) * u - lam_lo


class Bound:
    """The bound at one ε: threshold, prior, finite part, transfer, total."""

    __slots__ = ("epsilon", "lam_lo", "lam_hi", "prior", "finite", "transfer", "upper")

    def __init__(self, epsilon, lam_lo, lam_hi, prior, finite, transfer):
        self.epsilon, self.lam_lo, self.lam_hi = epsilon, lam_lo, lam_hi
        self.prior, self.finite, self.transfer = prior, finite, transfer
        self.upper = finite + transfer


def bound_at(epsilon, table, grid, bits, scale_bits, tau, budget):
    epsilon = mpq(epsilon)
    lam_lo, lam_hi = exp_threshold(epsilon, THRESHOLD_GAP)
    prior, finite = finite_upper(table, grid, bits, scale_bits, lam_lo)
    return Bound(epsilon, lam_lo, lam_hi, prior, finite, transfer_term(tau, budget, lam_hi))


def smallest_epsilon(delta, evaluate):
    """The smallest multiple ε of 10^-6 found by bisection with evaluate(ε).upper <= δ, and its Bound.

    Bisection assumes the bound decreases in ε (it does, up to the tiny
    transfer term); whatever it returns is checked exactly: the returned
    bound meets δ.
    """
    unit = mpq(1, 10 ** EPSILON_PLACES)
    at_zero = evaluate(mpq(0))
    if at_zero.upper <= delta:
        return at_zero
    hi = 1
    while evaluate(mpq(hi)).upper > delta:
        hi *= 2
        if hi > MAX_EPSILON:
            hi = _integer_scan(delta, evaluate)
            break
    lo, hi = 0, hi * 10 ** EPSILON_PLACES
    best = evaluate(hi * unit)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        b = evaluate(mid * unit)
        if b.upper <= delta:
            hi, best = mid, b
        else:
            lo = mid
    return best


def _integer_scan(delta, evaluate):
    """The first integer ε in 1..MAX_EPSILON whose bound meets δ (when doubling jumped over the window).

    At large C the transfer term (1 + λ₊)·2C·τ grows like e^ε, so the bound
    meets δ only on a window of ε that doubling can step over (C = 64:
    about [18.9, 25] between 16 and 32).
    """
    for hi in range(1, MAX_EPSILON + 1):
        if evaluate(mpq(hi)).upper <= delta:
            return hi
    raise InputError(f"delta: the hierarchy bound stays above δ = {describe_rational(delta)} at every integer ε "
                     f"up to {MAX_EPSILON} (its source's transfer (1 + e^ε)·2C·τ grows like e^ε); "
                     f"{entry('hierarchy')} with a finer source (a larger {option('radius')} and "
                     f"{option('source_scale')}) and a wider grid ({option('logit_range')}) may reach it")
