"""The discrete-Gaussian side of a hierarchy/1 bound (SPEC §4, SPEC-hierarchy 8.8).

By the auditor's own enclosures (:mod:`auditor.enclosures`, integer Taylor
bounds, no floats):

- every nonzero atom is below its discrete-Gaussian mass: w_n·Z⁺ <= S·f⁻(n);
- τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV(ν, g) (Lemma 2 of docs/discrete-gaussian.md;
  also τ >= 0, which covers ν(0) < g(0));
- λ₋ <= e^ε <= λ₊ with λ₋ > 0.

Each enclosure is tried at a precision derived from the sizes of the numbers
and once more at four times that precision before a claim is declared unproved.
"""

from fractions import Fraction

from auditor.enclosures import exp_bounds, kernel_bounds, normaliser_bounds

__all__ = ["unproved_atoms", "tau_bound", "threshold_unproved", "ceil_decimal"]

RETRY = 4


def unproved_atoms(weights, L, S, sigma2):
    """(atoms n ≠ 0 not proved below S·g(n), the best Z⁺ used)."""
    bits = S.bit_length() + 64
    pending = [n for n in range(-L, L + 1) if n != 0 and weights[n + L] > 0]
    z_hi = None
    for _ in range(2):
        _, z_hi = normaliser_bounds(sigma2, bits)
        pending = [n for n in pending if weights[n + L] * z_hi > S * kernel_bounds(n, sigma2, bits)[0]]
        if not pending:
            break
        bits *= RETRY
    return pending, z_hi


def tau_bound(w0, S, sigma2, tau):
    """(proved, bound): τ >= w_0/S − 1/Z⁺ for some certified Z⁺ (two precisions)."""
    bits = S.bit_length() + 64
    bound = None
    for _ in range(2):
        _, z_hi = normaliser_bounds(sigma2, bits)
        bound = Fraction(w0, S) - 1 / z_hi
        if tau >= bound:
            return True, bound
        bits *= RETRY
    return False, bound


def threshold_unproved(epsilon, lam_lo, lam_hi):
    """Which of 'lower' (λ₋ <= e^ε) and 'upper' (λ₊ >= e^ε) could not be proved, with e^ε's enclosure."""
    bits = max(lam_hi.numerator.bit_length(), lam_lo.denominator.bit_length(),
               lam_hi.denominator.bit_length()) + 48
    lo_ok = hi_ok = False
    for _ in range(2):
        e_lo, e_hi = exp_bounds(epsilon, bits)
        lo_ok = lo_ok or lam_lo <= e_lo
        hi_ok = hi_ok or lam_hi >= e_hi
        if lo_ok and hi_ok:
            break
        bits *= RETRY
    missing = [name for name, ok in (("lower", lo_ok), ("upper", hi_ok)) if not ok]
    return missing, (e_lo, e_hi)


def ceil_decimal(value, digits):
    """The decimal string of ``value`` rounded up at ``digits`` places."""
    scaled = Fraction(value) * 10 ** digits
    n = -((-scaled.numerator) // scaled.denominator)
    sign = "-" if n < 0 else ""
    whole, frac = divmod(abs(n), 10 ** digits)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"
