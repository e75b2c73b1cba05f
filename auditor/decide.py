"""Three-way decisions of inequality claims about transcendental numbers.

A claim such as "w_n <= S·g(n)" or "λ₋ <= e^ε" compares a rational of the
certificate with a number the auditor only knows inside an enclosure
[x⁻, x⁺].  At a given precision the claim is

- *proved* when the certificate's side holds against the worse end of the
  enclosure (e.g. λ₋ <= x⁻),
- *disproved* when it fails even against the better end (λ₋ > x⁺), so the
  true number makes it false,
- *open* otherwise.

Open claims are retried once at four times the precision.  A disproved claim
is a FAIL (with its pointer and both sides); one still open after the retry
is recorded as undecided, and :func:`raise_undecided` then makes the
certificate UNCHECKED (exit 3) when nothing is false - never FAIL, because a
claim the auditor cannot decide has not been shown false, and never OK.
"""

from fractions import Fraction

from auditor.checks.dg_interval import RETRY_FACTOR, raise_undecided
from auditor.enclosures import exp_bounds, kernel_bounds, normaliser_bounds

__all__ = ["PROVED", "DISPROVED", "OPEN", "RETRY_FACTOR", "state", "settle", "raise_undecided",
           "source_states", "exp_states"]

PROVED, DISPROVED, OPEN = "proved", "disproved", "open"


def state(proved, disproved):
    """The decision from the two one-sided comparisons."""
    return PROVED if proved else DISPROVED if disproved else OPEN


def settle(decision, report, undecided, pointer, claimed, shown, reason):
    """Record one decided claim: a check when proved, a failure when disproved, else undecided."""
    if decision == OPEN:
        undecided.append(pointer)
        return
    report.check(decision == PROVED, pointer, claimed, shown, reason + " (disproved)")


def source_states(weights, L, S, sigma2, tau):
    """(atom decisions {n: state}, τ decision, w_0/S − 1/Z⁺, w_0/S − 1/Z⁻) of a DG source.

    Atom n ≠ 0 with w_n > 0: proved when w_n·Z⁺ <= S·f⁻(n) (so w_n/S <= g(n)),
    disproved when w_n·Z⁻ > S·f⁺(n) (so w_n/S > g(n)).  τ: proved when
    τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV (given the atoms), disproved when
    τ < w_0/S − 1/Z⁻ <= ν(0) − g(0) <= TV(ν, g).  Precision S's bits + 64,
    retried once at RETRY_FACTOR times that.
    """
    atoms = {n: OPEN for n in range(-L, L + 1) if n != 0 and weights[n + L] > 0}
    tau_state = OPEN
    bits = S.bit_length() + 64
    w0 = Fraction(weights[L], S)
    for _ in range(2):
        z_lo, z_hi = normaliser_bounds(sigma2, bits)
        kernel = {}  # f(n) = f(−n): one enclosure per |n|
        for n in [n for n, st in atoms.items() if st == OPEN]:
            f_lo, f_hi = kernel.get(abs(n)) or kernel.setdefault(abs(n), kernel_bounds(n, sigma2, bits))
            w = weights[n + L]
            atoms[n] = state(w * z_hi <= S * f_lo, w * z_lo > S * f_hi)
        if tau_state == OPEN:
            tau_state = state(tau >= w0 - 1 / z_hi, tau < w0 - 1 / z_lo)
        if OPEN not in atoms.values() and tau_state != OPEN:
            break
        bits *= RETRY_FACTOR
    return atoms, tau_state, w0 - 1 / z_hi, w0 - 1 / z_lo


def exp_states(epsilon, lower, upper, strict_upper=False):
    """(decision of lower <= e^ε, decision of e^ε <= upper (< with strict_upper), (e⁻, e⁺)).

    A side given as None is not a claim (its decision is None).  Precision from
    the sizes of the rationals + 48 bits, retried once at RETRY_FACTOR times that.
    """
    sizes = [x for x in (lower, upper) if x is not None]
    bits = max(max(x.numerator.bit_length(), x.denominator.bit_length()) for x in sizes) + 48
    lo = None if lower is None else OPEN
    hi = None if upper is None else OPEN
    for _ in range(2):
        e_lo, e_hi = exp_bounds(epsilon, bits)
        if lo == OPEN:
            lo = state(lower <= e_lo, lower > e_hi)
        if hi == OPEN:
            hi = state(upper > e_hi, upper <= e_lo) if strict_upper else state(upper >= e_hi, upper < e_lo)
        if OPEN not in (lo, hi):
            break
        bits *= RETRY_FACTOR
    return lo, hi, (e_lo, e_hi)
