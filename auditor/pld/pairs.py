"""The dominating pair of one step of a stage, and the masses of its loss buckets (docs/accounting.md §4–5).

A pair (P, Q) enters the recipe only through the masses, under P and under Q, of the buckets of its forward loss
ℓ = log(dP/dQ), I_i = {ℓ ∈ [i·h, (i+1)·h)} for lo <= i < hi, and of the two tails {ℓ < lo·h}, {ℓ >= hi·h}
(:meth:`bucket_masses`): integer enclosures (lo, hi) over 2^Wt of each.  Everything after them — the
connect-the-dots split, the bucket-index laws, the backward order, the products and the answers — is the same for
every pair (:mod:`.masses`, :mod:`.composition`, :mod:`.answer`).

This module holds :class:`SampledGaussian` — ``gaussian`` under add/remove: (1 − q)·N(0, σ²) + q·N(1, σ²) against
N(0, σ²), the pair of docs/dpsgd.md §1 and the only pair of ``dpsgd/1``, its preimages in closed form
(:mod:`.preimages`); given by σ² it is also ``gaussian_composition`` under add/remove, a Poisson sampling of a
composition of Gaussian events (σ² = 1/Σ m_i/σ_i², σ irrational in general) — and what the Gaussian families share;
the other families of ``accounting/1`` are in :mod:`.families`.

The Gaussian families' masses come from normal tails at the preimages: with z_i = x_i/σ (an enclosure, or −∞),
a component N(m·σ, σ²) of weight a contributes a·(ΦC(z_i − m) − ΦC(z_{i+1} − m)) to bucket i, a·ΦC(z_hi − m) to
the high tail and a·(1 − ΦC(z_lo − m)) to the low tail (:func:`gaussian_masses`; interval arithmetic, each
difference taking opposite ends, weights >= 0 keeping the order).

Each pair states the guard its own masses need (:meth:`guard_bits`: bits beyond the recipe's need, for the widths
of its arguments); a kind declares the guard of its limits and work estimate (:func:`declared_guard`, stated in
its docs, :class:`auditor.pld.masses.Stage`), and where the pair's own is larger the masses are computed with the
difference added (how the masses are enclosed is the auditor's own business; the limits are shared with the
producer).  :meth:`mass_work` is the estimated work of the masses at the declared precision (work units of
:mod:`auditor.budget`).
"""

from fractions import Fraction
from math import gcd, isqrt

from auditor.pld.preimages import arguments
from auditor.pld.tails import TailTable
from auditor.rationals import ceil, ceil_div, floor

__all__ = ["SampledGaussian", "gaussian_masses", "shifted", "declared_guard", "work", "bits", "given_noise", "rescale",
           "MASS_NS"]

MASS_NS = 160
"""Work units per bucket and unit of W + W²/1024 of the closed-form Gaussian preimages (W the working bits):
250,000 buckets took 5.7 s at W = 138, 16 s at W = 466 and 74 s at W = 1066 (estimates 6.2, 27 and 87 s)."""


def bits(x):
    """The bits of the numerator and the denominator of a rational."""
    x = Fraction(x)
    return x.numerator.bit_length() + x.denominator.bit_length()


def work(n, W, parts, ns):
    """n·(W + ⌊W²/1024⌋ + ⌊parts/4⌋)·ns: the work units of the masses of n buckets at W bits."""
    return n * (W + W * W // 1024 + parts // 4) * ns


def declared_guard(q, s):
    """24 + bits(⌊1/q⌋) + 2·bits(⌊s⌋ + 1): the guard of the working precision as docs/dpsgd.md (the sampled
    Gaussian, s = σ) and docs/accounting.md §6 (q the stage's sampling, s its σ, b, or 1) state it."""
    q, s = Fraction(q), Fraction(s)
    return 24 + (q.denominator // q.numerator).bit_length() + 2 * (floor(s) + 1).bit_length()


def _integer_weights(components):
    """([A_k], D) with a_k = A_k/D for the weights of ``components`` [(arguments, a_k)]."""
    D = 1
    for _, a in components:
        D = D * a.denominator // gcd(D, a.denominator)
    return [a.numerator * (D // a.denominator) for _, a in components], D


def _tails(table, points):
    """[(lo, hi)] of 2^W·ΦC at each argument interval (None: −∞, ΦC = 1)."""
    one = 1 << table.bits
    finite = [p for p in points if p is not None]
    values = iter(table.many(finite))
    return [(one, one) if p is None else next(values) for p in points]


def gaussian_masses(table, p_components, q_components):
    """(p_list, q_list, low, high) from the arguments of each component: [(arguments, weight)], the arguments a list
    of (lo, hi) over 2^Wt (or None for −∞) at the levels lo ... hi."""
    one = 1 << table.bits
    cache = {}

    def tails(args):
        key = id(args)
        if key not in cache:
            cache[key] = _tails(table, args)
        return cache[key]

    def side(components):
        t = [tails(args) for args, _ in components]
        A, D = _integer_weights(components)
        n = len(t[0]) - 1
        masses = []
        for i in range(n):
            lo = hi = 0
            for weight, values in zip(A, t):
                (a_lo, a_hi), (b_lo, b_hi) = values[i], values[i + 1]
                lo += weight * max(0, a_lo - b_hi)
                hi += weight * max(0, a_hi - b_lo)
            masses.append((lo // D, ceil_div(hi, D)))
        high = (sum(w * v[-1][0] for w, v in zip(A, t)) // D, ceil_div(sum(w * v[-1][1] for w, v in zip(A, t)), D))
        low = (sum(w * (one - v[0][1]) for w, v in zip(A, t)) // D,
               ceil_div(sum(w * (one - v[0][0]) for w, v in zip(A, t)), D))
        return masses, low, high

    p_list, p_low, p_high = side(p_components)
    q_list, q_low, q_high = side(q_components)
    return p_list, q_list, (p_low, q_low), (p_high, q_high)


def rescale(enclosure, frm, to):
    """An enclosure (lo, hi) over 2^frm as one over 2^to, rounded outward."""
    lo, hi = enclosure
    if to >= frm:
        return lo << (to - frm), hi << (to - frm)
    return lo >> (frm - to), -((-hi) >> (frm - to))


def shifted(args, m, W):
    """The arguments z − m (m a Fraction) rounded outward, None kept."""
    m_lo, m_hi = floor(m * (1 << W)), ceil(m * (1 << W))
    return [None if z is None else (z[0] - m_hi, z[1] - m_lo) for z in args]


# ---- the sampled Gaussian -----------------------------------------------------------------------------------

def given_noise(pair, sigma, sigma_squared):
    """(σ or None, σ²) of a Gaussian pair given exactly one of σ and σ² (σ² alone: a composition of Gaussian
    events, whose σ is irrational in general); TypeError naming ``pair`` otherwise."""
    if (sigma is None) == (sigma_squared is None):
        raise TypeError(f"{pair} takes sigma or sigma_squared, not both or neither: "
                        f"sigma={sigma!r}, sigma_squared={sigma_squared!r}")
    if sigma is None:
        return None, Fraction(sigma_squared)
    return Fraction(sigma), Fraction(sigma) ** 2


class SampledGaussian:
    """``gaussian`` under add/remove: (1 − q)·N(0, σ²) + q·N(1, σ²) against N(0, σ²), q in (0, 1]; σ given, or
    σ² given (``sigma_squared``: the ``gaussian_composition`` stage, whose σ = 1/μ is irrational in general; its
    preimages then use enclosures of σ, :func:`auditor.pld.preimages.arguments`).

    ``sigma`` is the σ given (None when σ² is), ``variance`` σ² either way.
    """

    __slots__ = ("q", "sigma", "variance")

    def __init__(self, q, sigma=None, *, sigma_squared=None):
        self.q = Fraction(q)
        self.sigma, self.variance = given_noise("SampledGaussian", sigma, sigma_squared)

    def __repr__(self):
        if self.sigma is None:
            return f"SampledGaussian(q={self.q}, sigma_squared={self.variance})"
        return f"SampledGaussian(q={self.q}, sigma={self.sigma})"

    def floor_sigma(self):
        """⌊σ⌋ = isqrt(⌊σ²⌋) (⌊√t⌋ = ⌊√⌊t⌋⌋ for t >= 0), exact whether σ is rational or not."""
        return isqrt(floor(self.variance))

    def guard_bits(self):
        """The widths of the arguments: the log chain, up to 1/q and σ in the slope of ΦC near the bottom
        (:func:`declared_guard` with ⌊σ⌋)."""
        return declared_guard(self.q, self.floor_sigma())

    def parts(self):
        """The bits of q and of the number given, σ or σ²."""
        return bits(self.q) + bits(self.variance if self.sigma is None else self.sigma)

    def mass_work(self, n, W, parts):
        return work(n, W, parts, MASS_NS)

    def bucket_masses(self, N, lo, hi, W, pointer):
        table = TailTable(W)
        Wt = table.bits
        z, zp = arguments(self.q, self.variance, N, lo, hi, Wt)
        q = self.q
        return (Wt,) + gaussian_masses(table, [(z, 1 - q), (zp, q)] if q < 1 else [(zp, q)], [(z, Fraction(1))])
