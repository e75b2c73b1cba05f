"""The discrete-Gaussian side of a hierarchy/1 bound (SPEC §4, SPEC-hierarchy 8.8).

By the auditor's own enclosures (:mod:`auditor.enclosures`, integer Taylor
bounds, no floats):

- every nonzero atom is below its discrete-Gaussian mass: w_n·Z⁺ <= S·f⁻(n);
- τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV(ν, g) (Lemma 2 of docs/discrete-gaussian.md;
  also τ >= 0, which covers ν(0) < g(0));
- λ₋ <= e^ε <= λ₊ with λ₋ > 0.

Each claim is decided three-way (:mod:`auditor.decide`): proved; disproved by
the other side of the enclosure (an atom with w_n·Z⁻ > S·f⁺(n), τ <
w_0/S − 1/Z⁻, λ₋ > e⁺ or λ₊ < e⁻), which is a FAIL; or neither at the
starting precision and at four times it, when its pointer is appended to
``undecided`` (the certificate is then UNCHECKED unless something is false).
"""

from fractions import Fraction

from auditor.decide import exp_states, settle, source_states

__all__ = ["check_source", "check_threshold", "ceil_decimal"]


def check_source(weights, L, S, sigma2, tau, report, undecided, pointer, tau_pointer):
    """Decide every atom claim (pointer/weights/i) and τ >= TV (tau_pointer) three-way."""
    atoms, tau_state, bound, _ = source_states(weights, L, S, sigma2, tau)
    for n, decision in atoms.items():
        settle(decision, report, undecided, f"{pointer}/weights/{n + L}", weights[n + L], f"S·g_σ({n})",
               "atom above its discrete-Gaussian mass")
    settle(tau_state, report, undecided, tau_pointer, tau, bound,
           "tau below TV(ν, g) >= ν(0) − g(0) >= w_0/S − 1/Z⁻")


def check_threshold(epsilon, lam_lo, lam_hi, report, undecided, pointer):
    """Decide λ₋ <= e^ε (pointer/lower) and e^ε <= λ₊ (pointer/upper) three-way."""
    lo, hi, (e_lo, e_hi) = exp_states(epsilon, lam_lo, lam_hi)
    settle(lo, report, undecided, pointer + "/lower", lam_lo, e_hi, "λ₋ above e^ε")
    settle(hi, report, undecided, pointer + "/upper", lam_hi, e_lo, "λ₊ below e^ε")


def ceil_decimal(value, digits):
    """The decimal string of ``value`` rounded up at ``digits`` places."""
    scaled = Fraction(value) * 10 ** digits
    n = -((-scaled.numerator) // scaled.denominator)
    sign = "-" if n < 0 else ""
    whole, frac = divmod(abs(n), 10 ** digits)
    return f"{sign}{whole}.{frac:0{digits}d}" if digits else f"{sign}{whole}"
