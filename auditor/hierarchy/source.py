"""The discrete-Gaussian side of a hierarchy/1 bound (*Hidden Integer Feedback* §3.2, (29), App. E.2).

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
``undecided`` (then a FAIL: not established by the certificate's recipe).
"""

from auditor.decide import exp_states, settle, source_states
from auditor.rationals import read_rational

__all__ = ["check_source", "check_threshold", "check_dg_source", "threshold_pair"]


def check_dg_source(src, sigma2, radius, scale, tau_text, report, undecided, pointer, tau_pointer,
                    radius_what="source radius (the input's)", scale_what="source scale (the input's)"):
    """The finite source ``src`` of σ² with the given radius and scale, and τ >= TV(ν, g_σ).

    Checks σ², L and S against the question, 2L + 1 weights, offset −L, S = Σ w,
    symmetry, τ ∈ [0, 1), every atom below its mass and τ (three-way).  Returns
    (weights, offset, τ), or None when the shape is wrong (nothing more is checked).
    """
    L, offset = src["radius"], src["offset"]
    S = int(read_rational(src["scale"], pointer + "/scale"))
    weights = [int(read_rational(w, f"{pointer}/weights/{i}")) for i, w in enumerate(src["weights"])]
    report.equal(pointer + "/sigma2", read_rational(src["sigma2"], pointer + "/sigma2"), sigma2,
                 "source σ² (the input's)")
    report.equal(pointer + "/radius", L, radius, radius_what)
    report.equal(pointer + "/scale", S, scale, scale_what)
    ok = report.equal(pointer + "/weights", len(weights), 2 * L + 1, "number of weights (2L + 1)")
    ok &= report.equal(pointer + "/offset", offset, -L, "offset (−L)")
    ok &= report.equal(pointer + "/scale", S, sum(weights), "scale S (the sum of the weights)")
    if not ok:
        return None
    report.check(weights == weights[::-1], pointer + "/weights", "asymmetric", "w_n = w_−n",
                 "the source must be symmetric")
    tau = read_rational(tau_text, tau_pointer)
    report.check(0 <= tau < 1, tau_pointer, tau, "[0, 1)", "tau must lie in [0, 1)")
    check_source(weights, L, S, sigma2, tau, report, undecided, pointer, tau_pointer)
    return weights, offset, tau


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


def threshold_pair(threshold, epsilon, report, undecided, pointer):
    """(λ₋, λ₊) of ``threshold`` when 0 < λ₋ <= λ₊ (then λ₋ <= e^ε <= λ₊ is decided three-way), else None."""
    lam_lo = read_rational(threshold["lower"], pointer + "/lower")
    lam_hi = read_rational(threshold["upper"], pointer + "/upper")
    if not report.check(0 < lam_lo <= lam_hi, pointer, f"[{lam_lo}, {lam_hi}]", "0 < λ₋ <= λ₊",
                        "the threshold enclosure must be a positive interval"):
        return None
    check_threshold(epsilon, lam_lo, lam_hi, report, undecided, pointer)
    return lam_lo, lam_hi
