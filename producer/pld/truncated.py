"""The truncated Poisson-subsampled Gaussian under add/remove neighbours (dp_accounting's
``TruncatedSubsampledGaussianDpEvent``).

The mechanism: every record of a dataset of n records is kept independently
with probability q; when more than B records are kept, a uniform subset of B
of them is the batch; Gaussian noise of standard deviation σ per unit of
sensitivity is added to the sum of the batch's contributions (each of norm at
most 1).  Under add/remove the larger neighbour holds the n records
(dp_accounting's reading of ``dataset_size``).

**The dominating pair** (docs/mechanisms/truncated-poisson.md).  Let x* be the
differing record and K the number of the other n − 1 records that the
sampling keeps, K ~ Binomial(n − 1, q), the same law in both neighbours;
revealing whether K >= B only makes the pair stronger (post-processing).

- K < B: the batch never overflows; x* joins it with probability q.  Given
  the kept records, the pair is (1 − q)·N(0, σ²) + q·N(1, σ²) against N(0, σ²).
- K = k >= B: without x* the batch is a uniform B-subset of the others; with
  x*, x* is in the batch with probability p_k = q·B/(k + 1), beside a uniform
  (B − 1)-subset of the others, and otherwise the batch is a uniform B-subset
  of them.  Writing a uniform B-subset as a uniform (B − 1)-subset plus one
  more record Y, whose laws do not depend on k, and revealing both, the pair is
  (1 − p̄)·N(g_Y, σ²) + p̄·N(g*, σ²) against N(g_Y, σ²) with
  p̄ = E[p_K | K >= B]: a shift of norm at most 2, dominated by
  (1 − p̄)·N(0, σ²) + p̄·N(2, σ²) against N(0, σ²) (a linear kernel maps the
  Gaussian of the larger shift onto the smaller and fixes N(0, σ²)).

So one step is dominated by the *labelled mixture*: with probability 1 − t
the sampled Gaussian of (q, σ), with probability t that of (p̄, σ/2) (the
shift 2 at σ has the losses of the shift 1 at σ/2), the label seen, where

    t = P[K >= B],    p̄·t = (B/n)·P[Binomial(n, q) >= B + 1]

(the identity q·C(n−1, k)/(k + 1)·… = C(n, k + 1)/n·…).  A pair's loss under a
labelled mixture is its component's, so every bucket mass is the mixture of
the components' masses, in both orders.  The rate p̄ enters as
p̂ = ⌈p̄·2^e⌉/2^e with e = 64 + bits(⌊1/p̄⌋) (64 significant bits or more, p̂ >= p̄):
the sampled Gaussian of a larger rate dominates (keep a draw with
probability p̄/p̂, else draw afresh from N(0, σ²)), so the stated pair is the
labelled mixture of (q, σ) and (p̂, σ/2) with weight t, exactly.

**Exact arithmetic.**  With q = a/b and c = b − a, both tails are a short
exact sum times one long power.  On the lower side (B <= (n − 1)/2, q < 1),
with r = (c/b)^(n−B),

    t = 1 − r·S₁/b^(B−1),   S₁ = Σ_{k<B} C(n−1, k)·a^k·c^(B−1−k),
    P[Binomial(n, q) >= B + 1] = 1 − r·S₂/b^B,   S₂ = Σ_{k<=B} C(n, k)·a^k·c^(B−k);

on the upper side, t = (a/b)^B·V₁/b^(n−1−B) with V₁ = Σ_{k>=B} C(n−1, k)·a^(k−B)·c^(n−1−k),
and p̄ = B·a·V₂/(n·b·V₁) exactly (V₂ the same sum for n and B + 1).  The long
power enters as an arb ball (rigorous at any n); the ceiling that defines p̂ is
decided on a ball of p̄ whose radius is far below 2^-e, at more bits until it
is (p̄ is rational, so only p̄·2^e an integer would never be decided: the
exact power then decides, within :data:`MAX_EXACT_BITS`).

**Large batches.**  Where the short sums would cost more than
:data:`EXACT_SUM_WORK` (both B and n − B large, 0 < q < 1), both tails are
regularised incomplete beta functions,

    t = I_q(B, n − B),    P[Binomial(n, q) >= B + 1] = I_q(B + 1, n − B),

enclosed by arb (``arb.beta_lower``, rigorous at any n), and the ceiling is
decided on their ratio at more bits until it is, up to
:data:`LONG_MAX_PRECISION` (no exact fallback there: a tie is refused).  The
auditor sums the binomial law around its mode instead; its work grows as
√((n − 1)q(1 − q)), which :data:`MAX_TAIL_ROOTS` bounds for the whole tree.
"""

import functools

from gmpy2 import isqrt, mpq, mpz

from producer.errors import LimitError
from producer.pld.masses import StepMasses, power_of_two
from producer.pld.mechanism import DominatingPair
from producer.pld.replace_gaussian import ReplaceOneGaussian
from producer.pld.subsampled_gaussian import SubsampledGaussian
from producer.sources.enclosures import arf_to_mpq, round_up, to_arb, working_precision

MAX_EXACT_BITS = 1 << 27
"""(n − B)·bits(b): the exact power's bits, where a tie must be decided exactly (the auditor's limit too)."""
MAX_SUM_WORK = 1 << 36
"""terms²·(2·bits(b) + bits(n)), terms = min(B, n − B): the short sum's bit operations (the auditor's too)."""
RATE_BITS = 64  # significant bits of p̂
MAX_PRECISION = 1 << 16
EXACT_SUM_WORK = 1 << 34
"""A sampling whose short sums would need more bit operations (and 0 < q < 1) takes the incomplete beta route."""
MAX_TAIL_ROOTS = 1 << 16
"""Most Σ (⌊√((n − 1)q(1 − q))⌋ + 2) over a tree's samplings on that route (the auditor's sums grow as the root)."""
LONG_MAX_PRECISION = 1 << 12


def sum_work(size, rate, batch):
    """The short sum's bit operations (compared with :data:`MAX_SUM_WORK`)."""
    bb = int(mpq(rate).denominator).bit_length()
    terms = min(batch, size - batch) if batch < size else 0
    return terms * terms * (2 * bb + size.bit_length())


def long_route(size, rate, batch):
    """Whether (n, q, B) takes the incomplete beta route (module docstring)."""
    return 0 < mpq(rate) < 1 and sum_work(size, rate, batch) > EXACT_SUM_WORK


def tail_root(size, rate):
    """⌊√((n − 1)q(1 − q))⌋ + 2, the measure of the auditor's work on that route (bounded by MAX_TAIL_ROOTS)."""
    q = mpq(rate)
    variance = (size - 1) * q * (1 - q)
    return int(isqrt(variance.numerator // variance.denominator)) + 2


def _lower_sum(m, K, a, c):
    """Σ_{k<K} C(m, k)·a^k·c^(K−1−k) (K >= 1), by term_{k+1} = term_k·(m − k)·a/((k + 1)·c), exact."""
    term = c ** (K - 1)
    total = term
    for k in range(K - 1):
        term = term * (m - k) * a // ((k + 1) * c)
        total += term
    return total


def _upper_sum(m, K, a, c):
    """Σ_{k=K}^{m} C(m, k)·a^(k−K)·c^(m−k) (K <= m), by term_{k−1} = term_k·k·c/((m − k + 1)·a), exact."""
    term = a ** (m - K)
    total = term
    for k in range(m, K, -1):
        term = term * k * c // ((m - k + 1) * a)
        total += term
    return total


class Truncation:
    """t = P[Binomial(n − 1, q) >= B] and p̂ of one (n, q, B) with n − 1 >= B and q > 0 (module docstring)."""

    __slots__ = ("size", "rate", "batch", "lower", "u1", "u2", "ratio", "power", "conditional", "long")

    def __init__(self, size, rate, batch):
        n, q, B = int(size), mpq(rate), int(batch)
        a, b = mpz(q.numerator), mpz(q.denominator)
        c = b - a
        self.size, self.rate, self.batch = n, q, B
        self.long = long_route(n, q, B)
        if self.long:
            self.conditional = self._ceiling_long()
            return
        self.lower = B <= (n - 1) // 2 and c > 0
        if self.lower:   # t = 1 − r·u1, s = 1 − r·u2, r = (c/b)^(n−B)
            self.u1 = mpq(_lower_sum(n - 1, B, a, c), b ** (B - 1)) if B else mpq(0)
            self.u2 = mpq(_lower_sum(n, B + 1, a, c), b ** B)
            self.ratio, self.power = mpq(c, b), n - B
        else:            # t = (a/b)^B·u1, p̄ = B·a·V₂/(n·b·V₁)
            v1, v2 = _upper_sum(n - 1, B, a, c), _upper_sum(n, B + 1, a, c)
            self.u1, self.u2 = mpq(v1, b ** (n - 1 - B)), mpq(B * a * v2, n * b * v1)
            self.ratio, self.power = q, B
        self.conditional = self._ceiling()

    def weight(self, bits):
        """t as an arb ball of radius below 2^-(bits + 16)."""
        prec = bits + 64
        while True:
            with working_precision(prec):
                t = self._weight_at()
                if t.rad() * power_of_two(bits + 16) < 1:
                    return t
            if prec > (LONG_MAX_PRECISION if self.long else MAX_PRECISION):
                raise ArithmeticError("the truncation weight could not be enclosed")
            prec *= 2

    def _weight_at(self):
        if self.long:   # t = I_q(B, n − B)
            return to_arb(self.rate).beta_lower(self.batch, self.size - self.batch, 1)
        r = to_arb(self.ratio) ** self.power
        return 1 - r * to_arb(self.u1) if self.lower else r * to_arb(self.u1)

    def _pbar(self):
        """p̄ as an arb ball at the current precision."""
        if not self.lower:
            return to_arb(self.u2)
        r = to_arb(self.ratio) ** self.power
        return to_arb(mpq(self.batch, self.size)) * (1 - r * to_arb(self.u2)) / (1 - r * to_arb(self.u1))

    def _ceiling(self):
        """p̂ = ⌈p̄·2^e⌉/2^e, e = 64 + bits(⌊1/p̄⌋): decided on balls, or exactly when they cannot."""
        if not self.lower:
            return _round_up(self.u2)
        return _decided(self._pbar, MAX_PRECISION) or _round_up(self._exact_pbar())

    def _ceiling_long(self):
        """p̂ from p̄ = (B/n)·I_q(B + 1, n − B)/I_q(B, n − B), decided on balls up to LONG_MAX_PRECISION."""
        p_hat = _decided(self._pbar_long, LONG_MAX_PRECISION)
        if p_hat is None:
            raise LimitError("the truncated sampling's conditional rate could not be rounded within "
                             f"{LONG_MAX_PRECISION} bits")
        return p_hat

    def _pbar_long(self):
        z, n, B = to_arb(self.rate), self.size, self.batch
        return to_arb(mpq(B, n)) * z.beta_lower(B + 1, n - B, 1) / z.beta_lower(B, n - B, 1)

    def _exact_pbar(self):
        if self.power * int(self.ratio.denominator).bit_length() > MAX_EXACT_BITS:
            raise LimitError("the truncated sampling's conditional rate could not be rounded: its exact value "
                             "is beyond the limit")
        r = self.ratio ** self.power
        return mpq(self.batch, self.size) * (1 - r * self.u2) / (1 - r * self.u1)


def _decided(ball_of_pbar, max_precision):
    """p̂ from balls of p̄ at 128, 256, … bits up to ``max_precision``, once both ends round to it; else None.
    A ball is infinite while that of t still holds 0 (t tiny): more bits then."""
    prec = 128
    while prec <= max_precision:
        with working_precision(prec):
            ball = ball_of_pbar()
            if ball.is_finite():
                lo, hi = arf_to_mpq(ball.lower()), arf_to_mpq(ball.upper())
                if lo > 0 and _round_up(lo) == _round_up(hi):
                    return _round_up(hi)
        prec *= 2
    return None


def _round_up(p):
    """⌈p·2^e⌉/2^e with e = 64 + bits(⌊1/p⌋) (p > 0): p rounded up to 64 or more significant bits."""
    return round_up(p, RATE_BITS + int(p.denominator // p.numerator).bit_length())


@functools.lru_cache(maxsize=16)
def truncation(size, rate, batch):
    """The :class:`Truncation` of (n, q, B), None when the batch never overflows (n − 1 < B, or q = 0)."""
    if size - 1 < batch or mpq(rate) == 0:
        return None
    return Truncation(size, rate, batch)


class TruncatedSampledGaussian(DominatingPair):
    """The labelled mixture: (1 − t)·[sampled Gaussian (q, σ)] + t·[sampled Gaussian (p̂, σ/2)], the label seen
    (module docstring): ``size`` n, ``rate`` q ∈ (0, 1], ``batch`` B >= 1, ``noise`` σ, ``conditional`` p̂.
    ``replace_one``: the same mixture of the replace-one sampled Gaussians, (1 − p)·N(0, s²) + p·N(±1, s²)
    (docs/mechanisms/truncated-poisson.md, replace-one)."""

    __slots__ = ("size", "rate", "batch", "noise", "conditional", "replace_one", "_untruncated", "_truncated")

    def __init__(self, size, rate, batch, noise, conditional, replace_one=False):
        self._set(size=int(size), rate=mpq(rate), batch=int(batch), noise=mpq(noise), conditional=mpq(conditional),
                  replace_one=bool(replace_one))
        pair = ReplaceOneGaussian if self.replace_one else SubsampledGaussian
        self._set(_untruncated=pair(self.rate, self.noise), _truncated=pair(self.conditional, self.noise / 2))

    @property
    def dominating_mu2(self):
        # the labelled mixture is dominated by its worse component's Gaussian (that of σ/2)
        return max(self._untruncated.dominating_mu2, self._truncated.dominating_mu2)

    def describe(self):
        return (f"truncated sampled Gaussian n = {self.size}, q = {float(self.rate):g}, B = {self.batch}, "
                f"σ = {float(self.noise):g}" + (" (replace-one)" if self.replace_one else ""))

    def parameters(self):
        return (mpq(self.size), self.rate, mpq(self.batch), self.noise, self.conditional)

    def audit_scale(self):
        return self.conditional, self.noise   # p̂ <= q and σ >= σ/2: the larger guard of the two components

    def audit_mass_units(self):
        return self._untruncated.audit_mass_units() + self._truncated.audit_mass_units()

    def _weight(self, bits):
        return truncation(self.size, self.rate, self.batch).weight(bits)

    def masses(self, h, lo, hi, bits):
        one = self._untruncated.masses(h, lo, hi, bits)
        two = self._truncated.masses(h, lo, hi, bits)
        with working_precision(bits):
            t = self._weight(bits)
            s = 1 - t

            def mix(x, y):
                return s * x + t * y
            return StepMasses(lo, hi, [mix(x, y) for x, y in zip(one.p, two.p)],
                              [mix(x, y) for x, y in zip(one.q, two.q)], mix(one.p_low, two.p_low),
                              mix(one.q_low, two.q_low), mix(one.p_high, two.p_high), mix(one.q_high, two.q_high))

    def _mixed(self, a, b):
        t = self._weight(53)
        return tuple((1 - t) * x + t * y for x, y in zip(a, b))

    def upper_tail(self, y):
        return self._mixed(self._untruncated.upper_tail(y), self._truncated.upper_tail(y))

    def lower_tail(self, y):
        return self._mixed(self._untruncated.lower_tail(y), self._truncated.lower_tail(y))

    def moments(self):
        t = float(self._weight(53).mid())
        (m1, v1), (m2, v2) = self._untruncated.moments(), self._truncated.moments()
        mean = (1 - t) * m1 + t * m2
        second = (1 - t) * (v1 + m1 * m1) + t * (v2 + m2 * m2)
        return mean, max(second - mean * mean, 1e-300)

    def index_range(self, grid, allowance):
        (lo1, hi1), (lo2, hi2) = (self._untruncated.index_range(grid, allowance),
                                  self._truncated.index_range(grid, allowance))
        return min(lo1, lo2), max(hi1, hi2)


__all__ = ["TruncatedSampledGaussian", "Truncation", "truncation", "sum_work", "long_route", "tail_root",
           "MAX_EXACT_BITS", "MAX_SUM_WORK", "EXACT_SUM_WORK", "MAX_TAIL_ROOTS"]
