"""Sensitivity brackets of Δ̄_t = max(2r/n, S_γ[L_t](D)) and the noise scale.

Universal non-activation (docs/brace.md).  For every bank, ||R_t|| <= (2t+1) r, so
when (2t+1)^2 <= κT no bank ever activates a correction up to step t, Q_t is
the plain update a_t = Φ_B(y_{t-1}) and L_t(B) = 2r / max(1, |I(B, y_{t-1})|).
Replacing k records lowers the released-gate count by at most k, so with
m = |I(D, y_{t-1})|

    S_γ[L_t](D) = max_{0<=k<=n} e^{-γk} 2r / max(1, m - k).

Terms with k >= max(m-1, 0) have denominator 1 and decrease in k, so k only
runs over 0..min(m, n).

History non-activation (a tighter certified test).  The released history is
public, and for every bank z_s ∈ B(q, s r) and a_s ∈ B(y_{s-1}, r), so
||R_s|| <= (s+1) r + ||y_{s-1} - q||.  Hence if for every s <= t

    (s+1) r + ||y_{s-1} - q|| <= sqrt(κT) r,

no bank activates a correction up to step t *at this history*, and the same
count envelope is exact.  Universal non-activation implies it (||y_{s-1} - q||
<= s r), and it is decided exactly: with u = ||y_{s-1} - q||^2 / r^2 and
c = s + 1, sqrt(u) + c <= sqrt(κT) iff κT - u - c^2 >= 0 and
4 c^2 u <= (κT - u - c^2)^2.  The condition depends only on public data (the
history), so the scale rule below is the same function of the bank for every
bank at that history, which is what the per-step calibration needs.

Envelope rule (these steps).  With public rationals r̲ <= r <= r̄ and
E̲ <= e^{-γ} <= Ē,

    S̄(m) = max(2r̄/n, max_k Ē^k 2r̄ / max(1, m-k)) >= Δ̄_t >= S̲(m) (same with r̲, E̲),

and the bracket is hi in [S̄, S̄ (1 + 2^-p)], lo <= S̲ (dyadic roundings).
The noise scale is s_t = hi.  It is an upper bound of the local sensitivity,
and it is γ'-smooth with γ' = γ + 2^-p: S̄ depends on the bank only through m,
neighbours have |m - m'| <= 1, S̄ is non-increasing in m, and term by term
Ē^k / max(1, m-k) = Ē^-1 Ē^(k+1) / max(1, (m+1)-(k+1)), so
S̄(m) <= S̄(m+1) / Ē <= e^γ S̄(m+1); the rounding adds the factor 1 + 2^-p and
log(1 + x) <= x.  The certificate publishes the (larger) conservative
γ'_t = γ + (hi/lo - 1) + 2^-p >= γ + log(hi/lo) + 2^-p, rounded up.

Fallback rule (other steps).  Nothing tighter is certified here, so the
bracket is [2r̲/n, 2r̄] (L_t <= 2r by the paper's eq. (5): both queries lie in
B(y_{t-1}, r)) and the noise scale is the constant 2r̄.  A scale that is the
same for every bank is 0-smooth, so γ'_t = 0 for these steps.
"""

from gmpy2 import mpq

from producer.brace.enclosures import round_down_relative, round_up_relative

SCALE_BITS = 96  # p: relative rounding of the published scale and bracket
NON_ACTIVATION = "non-activation"  # universal: (2t+1)^2 <= κT
HISTORY_NON_ACTIVATION = "history-non-activation"
FALLBACK = "fallback"


def universally_inactive(t, kappa, horizon):
    """(2t+1)^2 <= κT: no bank can activate a correction at any step s <= t."""
    return (2 * t + 1) ** 2 <= mpq(kappa) * horizon


def history_inactive(history, q, r2, kappa, horizon):
    """For history = [y_0 = q, ..., y_{t-1}]: whether (s+1) r + ||y_{s-1} - q||
    <= sqrt(κT) r for every s = 1..t (decided exactly, see the module doc)."""
    K = mpq(kappa) * horizon
    for s, y in enumerate(history, start=1):
        u = sum(((a - b) ** 2 for a, b in zip(y, q)), mpq(0)) / mpq(r2)
        c = s + 1
        rhs = K - u - c * c
        if rhs < 0 or 4 * c * c * u > rhs * rhs:
            return False
    return True


def count_envelope(m, n, r, e):
    """max(2r/n, max_{0<=k<=min(m,n)} e^k 2r / max(1, m-k)) and the maximising k
    (-1 when the floor 2r/n wins), exactly, for rationals r, e."""
    best, arg = 2 * r / n, -1
    power = mpq(1)
    last = min(m, n) if e < 1 else n
    for k in range(0, last + 1):
        term = power * 2 * r / max(1, m - k)
        if term > best:
            best, arg = term, k
        power *= e
    return best, arg


class SensitivityBracket:
    """A certified enclosure lo <= Δ̄_t <= hi, with the rule that produced it."""

    __slots__ = ("lo", "hi", "method", "argmax", "scale", "gamma_prime")

    def __init__(self, lo, hi, method, argmax, scale, gamma_prime):
        self.lo, self.hi, self.method = lo, hi, method
        self.argmax, self.scale, self.gamma_prime = argmax, scale, gamma_prime

    @classmethod
    def from_count(cls, m, n, r_bounds, e_bounds, gamma, p=SCALE_BITS, method=NON_ACTIVATION):
        """The non-activation bracket (exact up to the enclosures of r, e^{-γ})."""
        upper, arg = count_envelope(m, n, r_bounds[1], e_bounds[1])
        lower, _ = count_envelope(m, n, r_bounds[0], e_bounds[0])
        hi = round_up_relative(upper, p)
        lo = round_down_relative(lower, p)
        inflation = hi / lo - 1 + mpq(1, 2 ** p)
        gamma_prime = round_up_relative(mpq(gamma) + inflation, p)
        return cls(lo, hi, method, arg, hi, gamma_prime)

    @classmethod
    def fallback(cls, n, r_bounds, p=SCALE_BITS):
        """The sound fallback [2r̲/n, 2r̄] with the constant scale 2r̄."""
        lo = round_down_relative(2 * r_bounds[0] / n, p)
        hi = 2 * r_bounds[1]
        return cls(lo, hi, FALLBACK, None, hi, mpq(0))
