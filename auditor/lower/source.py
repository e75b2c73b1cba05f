"""The discrete-Gaussian source block and the threshold enclosure (*Hidden Integer Feedback* §3.2).

Source: weights w_{−L..L} at offset −L with S = Σ w, ν(n) = w_n/S.  The claims
a lower certificate relies on are

    w_n <= S·g(n) for every n ≠ 0,        τ >= w_0/S − g(0),

where g(n) = f(n)/Z, f(n) = exp(−n²/(2σ²)), Z = Σ_n f(n).  Then only n = 0 can
have ν(n) > g(n), so TV(ν, g) = max(0, ν(0) − g(0)) <= τ (τ >= 0).  The
auditor proves w_n·Z⁺ <= S·f⁻(n) and τ >= w_0/S − 1/Z⁺ with its own Taylor
enclosures (f⁻ <= f, Z⁺ >= Z), which imply both.  Whether w_n is the *largest*
such integer (the producer's floors) is not needed for soundness and is not
checked.

Threshold: λ₋ <= e^ε <= λ₊, with Taylor enclosures of e^ε.

Each claim is decided three-way (:mod:`auditor.decide`): proved (OK),
disproved by the other side of the auditor's enclosure (FAIL: e.g. an atom
with w_n·Z⁻ > S·f⁺(n)), or neither after the retry at four times the
precision - then its pointer is appended to the caller's ``undecided`` list,
and the claim is not established by the certificate's recipe (a FAIL).
"""

from fractions import Fraction

from auditor.decide import DISPROVED, PROVED, exp_states, settle, source_states
from auditor.enclosure_limits import refuse_dg_source, refuse_threshold
from auditor.lower import inputs
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational, show

# Precision cap for the source enclosures: S of more than this many bits is refused.
MAX_SCALE_BITS = 4096
# Largest radius whose atoms are enclosed (each atom is one exp enclosure).
MAX_RADIUS = 20000


class Source:
    """A checked finite source: weights (offset −L), S, L, σ², τ."""

    __slots__ = ("weights", "offset", "radius", "scale", "sigma2", "tau")

    def __init__(self, weights, radius, scale, sigma2, tau):
        self.weights = weights
        self.offset = -radius
        self.radius = radius
        self.scale = scale
        self.sigma2 = sigma2
        self.tau = tau


def read_source(src, pointer, report, undecided, sigma2=None, radius=None, scale=None):
    """Read and check a source block; return a :class:`Source` (None when a claim of it is false).

    Two shapes: the typed lower kinds' ``{weights, tau}``, whose σ², L and S are
    the request's (``sigma2``, ``radius``, ``scale``, all required then; the
    offset is −L), and the older ``dg_source`` (workload/1) that also carries
    ``sigma2``, ``radius``, ``scale`` and ``offset``, each compared with the
    request's value when it is given.

    Pointers of claims neither proved nor disproved are appended to ``undecided``.
    Refused (UNCHECKED) first beyond :data:`MAX_SCALE_BITS`, :data:`MAX_RADIUS` and the
    enclosure limits of :func:`auditor.enclosure_limits.refuse_dg_source`.
    """
    carried = "sigma2" in src
    if carried:
        s2 = inputs.positive(src["sigma2"], pointer + "/sigma2", "sigma2")
        L = src["radius"]
        S = inputs.integer(src["scale"], pointer + "/scale", "scale", minimum=1)
        where = {"sigma2": pointer + "/sigma2", "radius": pointer + "/radius", "scale": pointer + "/scale"}
    else:
        s2, L, S = sigma2, radius, scale
        where = {"sigma2": "/input/sigma2", "radius": "/input/radius", "scale": "/input/scale"}
    if S.bit_length() > MAX_SCALE_BITS:
        raise Unchecked(where["scale"], S.bit_length(), MAX_SCALE_BITS, "bits of the source scale")
    if L > MAX_RADIUS:
        raise Unchecked(where["radius"], L, MAX_RADIUS, "source radius")
    refuse_dg_source(s2, L, S, len(src["weights"]), where["sigma2"], pointer)
    weights = [inputs.integer(w, f"{pointer}/weights/{i}", "weight", minimum=0)
               for i, w in enumerate(src["weights"])]
    tau = inputs.nonnegative(src["tau"], pointer + "/tau", "tau")
    ok = True
    if carried:
        if sigma2 is not None:
            report.equal(pointer + "/sigma2", s2, sigma2, "source σ² (the request's)")
        if radius is not None:
            report.equal(pointer + "/radius", L, radius, "source radius (the request's)")
        if scale is not None:
            report.equal(pointer + "/scale", S, scale, "source scale (the request's)")
        ok &= report.equal(pointer + "/offset", src["offset"], -L, "offset (−L)")
    ok &= report.equal(pointer + "/weights", len(weights), 2 * L + 1, "number of weights (2L + 1)")
    ok &= report.equal(pointer + "/weights" if not carried else pointer + "/scale", sum(weights), S,
                       "the sum of the weights (the scale S)")
    ok &= report.check(tau < 1, pointer + "/tau", tau, "< 1", "tau must be below one")
    if not ok:
        return None
    if not _check_masses(weights, L, S, s2, tau, report, pointer, undecided):
        return None
    return Source(weights, L, S, s2, tau)


def _check_masses(weights, L, S, sigma2, tau, report, pointer, undecided):
    """Decide w_n <= S·g(n) (n ≠ 0) and τ >= TV three-way (:func:`auditor.decide.source_states`).

    True unless a claim is disproved: a source whose claims are merely undecided is
    still used, so that the claims computed from it are checked (a false one makes
    the certificate FAIL, not UNCHECKED).
    """
    atoms, tau_state, bound, _ = source_states(weights, L, S, sigma2, tau)
    for n, decision in atoms.items():
        settle(decision, report, undecided, f"{pointer}/weights/{n + L}", weights[n + L],
               f"S·exp(−n²/(2σ²))/Z at n = {n}", "atom above its discrete-Gaussian mass")
    settle(tau_state, report, undecided, pointer + "/tau", tau, bound,
           "tau below TV(ν, g) = ν(0) − g(0) >= w_0/S − 1/Z⁻")
    return DISPROVED not in atoms.values() and tau_state != DISPROVED


def exp_enclosure_check(epsilon, lower, upper, report, pointer_lower, pointer_upper, undecided,
                        strict_upper=False, epsilon_pointer=None):
    """Decide lower <= e^ε (if lower is not None) and e^ε <= upper (< with ``strict_upper``) three-way.

    Refused first (UNCHECKED at ``epsilon_pointer``, by default the first claim's) beyond
    the limits of :func:`auditor.enclosure_limits.refuse_threshold`.
    """
    claim_pointer = pointer_lower if lower is not None else pointer_upper
    refuse_threshold(epsilon, [x for x in (lower, upper) if x is not None], epsilon_pointer or claim_pointer,
                     claim_pointer)
    lo, hi, (e_lo, e_hi) = exp_states(epsilon, lower, upper, strict_upper)
    if lower is not None:
        settle(lo, report, undecided, pointer_lower, lower, e_hi, "above e^ε (> the upper end of its enclosure)")
    if upper is not None:
        settle(hi, report, undecided, pointer_upper, upper, e_lo,
               "below e^ε (" + ("<=" if strict_upper else "<") + " the lower end of its enclosure)")
    return lo in (None, PROVED) and hi in (None, PROVED)


def read_threshold(block, epsilon, pointer, report, undecided, denominator=None, epsilon_pointer=None):
    """(λ₋, λ₊) of a ``threshold`` block, with λ₋ <= e^ε <= λ₊ proved.

    With ``denominator`` N: also λ₋ = floor(N·e^ε)/N, i.e. N·λ₋ is an integer,
    λ₊ = λ₋ + 1/N exactly and λ₊ > e^ε.
    """
    lam_lo = read_rational(block["lower"], pointer + "/lower")
    lam_hi = read_rational(block["upper"], pointer + "/upper")
    report.check(0 < lam_lo <= lam_hi, pointer, f"[{show(lam_lo)}, {show(lam_hi)}]", "0 < λ₋ <= λ₊",
                 "the threshold enclosure must be a positive interval")
    if denominator is not None:
        report.check((lam_lo * denominator).denominator == 1, pointer + "/lower", lam_lo,
                     f"a multiple of 1/{show(denominator)}", "λ₋ must be floor(N·e^ε)/N")
        report.equal(pointer + "/upper", lam_hi, lam_lo + Fraction(1, denominator), "λ₊ = λ₋ + 1/N")
    exp_enclosure_check(epsilon, lam_lo, lam_hi, report, pointer + "/lower", pointer + "/upper", undecided,
                        strict_upper=denominator is not None, epsilon_pointer=epsilon_pointer)
    return lam_lo, lam_hi
