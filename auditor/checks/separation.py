"""Checks of ``separation/1`` certificates (*Hidden Integer Feedback* §3.3, §4.1, App. A.4, B;
docs/lower-certificates.md §2).

Every separation is a certified lower end strictly above a certified upper
end.  The roles: a *witness* or *relaxation value* contributes its lower end,
a *privacy bound* its upper end; a claimed lower end must be <= what the
auditor proves, a claimed upper end >= what it proves.

- ``finite-relaxation``: autonomous G_2 − y, one-digit G_2^(1) − y and offset
  W(2, 0) − y recomputed exactly (:mod:`auditor.lower.relaxations`,
  :mod:`auditor.game`), and the strict chain autonomous < one_digit < offset.
- ``dg-relaxation``: source and λ₋ <= e^ε <= λ₊; the relaxation's finite value
  at (1, λ₋) exactly, λ₋ = floor(N·e^ε)/N with N = ``threshold_denominator``;
  b = (1 + λ₊)(1 − (1 − τ)^4) (Coupling A, 2C = 4 draws);
  interval [v − (λ₊ − λ₋) − b, v + b], v = finite_value − λ₋, with outward
  displays; the embedded dg-interval re-verified; upper < separator < lower.
- ``offset-event``: the program constants; atoms distinct, sorted, in the box,
  ``count`` of them; the payoff enclosure of P_g(A) − e^ε·Q_g(A) from
  p(f1, f2) = g(f1+1)·((2/3)g(f2+1) + (1/3)g(f2+2)), q(f1, f2) = g(f1)·g(f2)
  (the literal raw-U sums of the program; any event is a witness, so which
  atoms are listed needs no check); upper < separator < payoff lower.
- ``binary-pair``: H_{e^ε}(P_b‖Q_b) enclosure, e^U >= every likelihood ratio,
  displays, the embedded privacy bound and upper < separator < payoff lower.
- ``renyi-cover``: see :mod:`auditor.lower.renyi`.

The question is ``input`` (the claim and its typed request: γ, σ², ε, the
source's radius and scale, the separator, ...); ``result`` holds only claims.
Every embedded ``privacy_bound`` (a dg-interval/1) must bound the same
mechanism: γ > 0 and the input's, the input's σ², budget C = 2, the input's
ε, the discrete Gaussian, the source {radius, scale} of the input and method
null (:mod:`auditor.lower.embedded`); one for another question is a FAIL.

Enclosure claims (atoms below their discrete-Gaussian masses, τ >= TV, e^ε
against its rational bounds, payoff enclosures, e^U against likelihood ratios)
are decided three-way (:mod:`auditor.decide`):
FAIL only when the auditor's own enclosure disproves one; one neither proved
nor disproved after the retry at four times the precision is not established by
   the certificate's recipe: a FAIL too.
"""

from fractions import Fraction

from auditor.claims import gamma_sigma2_text, law_text, lower_text, number as _q, rational_text, upper_text
from auditor.decide import fail_undecided, retried, settle, state
from auditor.enclosure_limits import refuse_bits, refuse_exponent, refuse_kernels
from auditor.enclosures import exp_bounds, kernel_bounds, normaliser_bounds
from auditor.lower import inputs, relaxations
from auditor.lower.display import DOWN, UP, check_display, dyadic_down, dyadic_up
from auditor.lower.embedded import Question, verify_privacy_bound
from auditor.lower.renyi import check_exp_dominates, verify_cover
from auditor.lower.source import read_source, read_threshold
from auditor.outcomes import Unchecked
from auditor.rationals import read_rational

R = "/result"
MAX_LAW_LENGTH = 80        # finite laws whose relaxations are recomputed (radius 24 DG: 49 atoms)
MAX_GAMMA_DENOMINATOR = 12
MAX_ATOMS = 10 ** 5


I = "/input"
BUDGET = 2     # every separation is about Δ*_2: two participations


def verify(cert, report):
    inp = cert["input"]
    undecided = []  # pointers of claims neither proved nor disproved at the highest precision
    CHECKS[inp["claim"]](inp, cert["result"], report, undecided)
    fail_undecided(undecided, report, cert)


def _question(inp, sigma2, epsilon):
    """The question every embedded privacy bound must answer (:class:`auditor.lower.embedded.Question`)."""
    return Question(read_rational(inp["gamma"], I + "/gamma"), sigma2, epsilon, BUDGET, inp["radius"],
                    inputs.integer(inp["scale"], I + "/scale", "scale", minimum=1), "separation")


# ---------------------------------------------------------------- exact relaxations

def _law_of(law, pointer):
    weights = [inputs.integer(w, f"{pointer}/weights/{i}", "weight", minimum=0) for i, w in enumerate(law["weights"])]
    inputs.require(sum(weights) > 0, pointer + "/weights", "the weights must not all be zero")
    return weights, law["offset"]


def _limit_game(n_weights, B, pointer):
    if n_weights > MAX_LAW_LENGTH:
        raise Unchecked(pointer, n_weights, MAX_LAW_LENGTH, "law length for the relaxation values")
    if B > MAX_GAMMA_DENOMINATOR:
        raise Unchecked(pointer, B, MAX_GAMMA_DENOMINATOR, "denominator of γ for the relaxation values")


def _finite_relaxation(inp, res, report, undecided):
    a, B = inputs.gamma(inp["gamma"], I + "/gamma")
    weights, offset = _law_of(inp["law"], I + "/law")
    _limit_game(len(weights), B, I + "/law")
    x = inputs.nonnegative(inp["x"], I + "/x", "x")
    y = inputs.nonnegative(inp["y"], I + "/y", "y")
    auto = relaxations.autonomous_value(weights, offset, a, B, x, y) - y
    one = relaxations.one_digit_value(weights, offset, a, B, x, y) - y
    off = relaxations.offset_value(weights, offset, a, B, x, y) - y
    claimed = {k: read_rational(res[k], f"{R}/{k}") for k in ("autonomous", "one_digit", "offset")}
    report.equal(R + "/autonomous", claimed["autonomous"], auto, "G_2(x, y) − y (privacy value)")
    report.equal(R + "/one_digit", claimed["one_digit"], one, "G_2^(1)(x, y) − y (relaxation value)")
    report.equal(R + "/offset", claimed["offset"], off, "W(2, 0; x, y) − y (relaxation value)")
    report.check(auto < one, R + "/order", auto, one, "autonomous < one_digit does not hold")
    report.check(one < off, R + "/order", one, off, "one_digit < offset does not hold")


def _dg_relaxation(inp, res, report, undecided):
    a, B = inputs.gamma(inp["gamma"], I + "/gamma")
    sigma2 = inputs.positive(inp["sigma2"], I + "/sigma2", "sigma2")
    epsilon = inputs.nonnegative(inp["epsilon"], I + "/epsilon", "epsilon")
    N = inputs.integer(inp["threshold_denominator"], I + "/threshold_denominator", "threshold denominator",
                       minimum=1)
    budget = BUDGET
    _limit_game(len(res["source"]["weights"]), B, R + "/source/weights")
    question = _question(inp, sigma2, epsilon)
    source = read_source(res["source"], R + "/source", report, undecided, sigma2=sigma2,
                         radius=question.radius, scale=question.scale)
    lam_lo, lam_hi = read_threshold(res["threshold"], epsilon, R + "/threshold", report, undecided,
                                    denominator=N, epsilon_pointer=I + "/epsilon")
    upper = verify_privacy_bound(res["privacy_bound"], R + "/privacy_bound", report, question, undecided)
    if source is None:
        return
    value_of = relaxations.one_digit_value if inp["relaxation"] == "one-digit" else relaxations.offset_value
    value = value_of(source.weights, source.offset, a, B, Fraction(1), lam_lo)
    report.equal(R + "/finite_value", read_rational(res["finite_value"], R + "/finite_value"), value,
                 f"{inp['relaxation']} relaxation value at (1, λ₋) on ν")
    b = (1 + lam_hi) * (1 - (1 - source.tau) ** (2 * budget))
    report.equal(R + "/transfer", read_rational(res["transfer"], R + "/transfer"), b,
                 "b = (1 + λ₊)(1 − (1 − τ)^{2C})")
    v = value - lam_lo
    lower, upper_end = v - (lam_hi - lam_lo) - b, v + b
    iv, P = res["relaxation_interval"], R + "/relaxation_interval"
    claimed_lower = read_rational(iv["lower"], P + "/lower")
    report.equal(P + "/lower", claimed_lower, lower, "v − (λ₊ − λ₋) − b (relaxation lower end)")
    report.equal(P + "/upper", read_rational(iv["upper"], P + "/upper"), upper_end, "v + b")
    check_display(iv["lower_display"], lower, DOWN, None, P + "/lower_display", report)
    check_display(iv["upper_display"], upper_end, UP, None, P + "/upper_display", report)
    _separates(inp, upper, lower, report, R + "/relaxation_interval/lower")


def _separates(inp, privacy_upper, witness_lower, report, lower_pointer):
    """privacy upper < separator < witness lower (both ends as proved by the auditor)."""
    s = read_rational(inp["separator"], I + "/separator")
    if privacy_upper is not None:
        report.check(privacy_upper < s, I + "/separator", s, privacy_upper,
                     "separator is not above the privacy bound's upper end")
    report.check(s < witness_lower, lower_pointer, witness_lower, s,
                 "the lower end is not above the separator")


# ---------------------------------------------------------------- offset event

PROGRAM = {"x_P": [0, 0], "x_Q": [1, 1], "offsets": "s_1 = 0, s_2 = (1 - Y_1) mod 3",
           "coordinates": "f1 = Y_1 - 1, f2 = Y_2 - 1 + ceil(f1/3)"}


def event_sums(atoms, g):
    """(Σ_A p, Σ_A q) for a kernel table g (n -> value), p and q of the offset program."""
    sp = sq = 0
    for f1, f2 in atoms:
        sp += g[f1 + 1] * (2 * g[f2 + 1] + g[f2 + 2])
        sq += g[f1] * g[f2]
    return Fraction(sp) / 3, Fraction(sq)


def _offset_event(inp, res, report, undecided):
    sigma2 = inputs.positive(inp["sigma2"], I + "/sigma2", "sigma2")
    epsilon = inputs.nonnegative(inp["epsilon"], I + "/epsilon", "epsilon")
    question = _question(inp, sigma2, epsilon)
    for key, want in PROGRAM.items():
        report.equal(f"{R}/program/{key}", res["program"][key], want, f"program {key} (the derived formula's)")
    low, high = inp["box"]["low"], inp["box"]["high"]
    atoms = [tuple(t) for t in res["atoms"]]
    if len(atoms) > MAX_ATOMS:
        raise Unchecked(R + "/atoms", len(atoms), MAX_ATOMS, "atoms")
    report.equal(R + "/count", int(res["count"]), len(atoms), "count (the number of atoms)")
    report.check(all(s < t for s, t in zip(atoms, atoms[1:])), R + "/atoms", "unsorted", "sorted",
                 "atoms must be sorted and distinct")
    outside = [t for t in atoms if not (low <= t[0] <= high and low <= t[1] <= high)]
    report.check(not outside, R + "/atoms", outside[:1], f"[{low}, {high}]^2", "atom outside the box")
    payoff = res["payoff"]
    lo_c = read_rational(payoff["lower"], R + "/payoff/lower")
    hi_c = read_rational(payoff["upper"], R + "/payoff/upper")
    support = sorted({n for f1, f2 in atoms for n in (f1, f1 + 1, f2, f2 + 1, f2 + 2)})
    _refuse_payoff(lo_c, hi_c, epsilon)
    if support:
        refuse_kernels(sigma2, max(abs(support[0]), abs(support[-1])), len(support), _payoff_bits(lo_c, hi_c),
                       I + "/sigma2", R + "/atoms")

    def proved_at(bits):
        """[proved_lo, proved_hi] ∋ P_g(A) − e^ε·Q_g(A): P from below with Z⁺, Q from above with Z⁻."""
        z_lo, z_hi = normaliser_bounds(sigma2, bits)
        kern = {n: kernel_bounds(n, sigma2, bits) for n in support}
        e_lo, e_hi = exp_bounds(epsilon, bits)
        p_lo, q_lo = event_sums(atoms, {n: kern[n][0] for n in support})
        p_hi, q_hi = event_sums(atoms, {n: kern[n][1] for n in support})
        return (dyadic_down(p_lo / z_hi ** 2 - e_hi * q_hi / z_lo ** 2, bits),
                dyadic_up(p_hi / z_lo ** 2 - e_lo * q_lo / z_hi ** 2, bits))

    decisions, proved_lo, proved_hi = _payoff_retried(lo_c, hi_c, proved_at)
    _settle_payoff(decisions, lo_c, hi_c, proved_lo, proved_hi, report, undecided,
                   "witness lower end P_g(A) − e^ε Q_g(A)")
    check_display(payoff["lower_display"], lo_c, DOWN, None, R + "/payoff/lower_display", report)
    check_display(payoff["upper_display"], hi_c, UP, None, R + "/payoff/upper_display", report)
    upper = verify_privacy_bound(res["privacy_bound"], R + "/privacy_bound", report, question, undecided)
    _separates(inp, upper, lo_c, report, R + "/payoff/lower")


# ---------------------------------------------------------------- binary pair

def binary_hockey_stick(p, q, lam):
    return max(Fraction(0), p - lam * q) + max(Fraction(0), (1 - p) - lam * (1 - q))


def _binary_pair(inp, res, report, undecided):
    p = inputs.probability(inp["p"], I + "/p", "p")
    q = inputs.probability(inp["q"], I + "/q", "q")
    epsilon = inputs.nonnegative(inp["epsilon"], I + "/epsilon", "epsilon")
    sigma2 = inputs.positive(inp["sigma2"], I + "/sigma2", "sigma2")
    inputs.gamma(inp["gamma"], I + "/gamma")
    question = _question(inp, sigma2, epsilon)
    payoff = res["payoff"]
    lo_c = read_rational(payoff["lower"], R + "/payoff/lower")
    hi_c = read_rational(payoff["upper"], R + "/payoff/upper")
    _refuse_payoff(lo_c, hi_c, epsilon)

    def proved_at(bits):
        """[H at e⁺, H at e⁻] ∋ H_{e^ε}(P_b‖Q_b), H non-increasing in the threshold."""
        e_lo, e_hi = exp_bounds(epsilon, bits)
        return binary_hockey_stick(p, q, e_hi), binary_hockey_stick(p, q, e_lo)

    decisions, proved_lo, proved_hi = _payoff_retried(lo_c, hi_c, proved_at)
    _settle_payoff(decisions, lo_c, hi_c, proved_lo, proved_hi, report, undecided,
                   "witness lower end H_{e^ε}(P_b‖Q_b)")
    check_display(payoff["lower_display"], lo_c, DOWN, None, R + "/payoff/lower_display", report)
    check_display(payoff["upper_display"], hi_c, UP, None, R + "/payoff/upper_display", report)
    U = read_rational(res["d_infinity_upper"], R + "/d_infinity_upper")
    check_exp_dominates(U, max(p / q, q / p, (1 - p) / (1 - q), (1 - q) / (1 - p)),
                        R + "/d_infinity_upper", report, undecided)
    check_display(res["d_infinity_display"], U, UP, None, R + "/d_infinity_display", report)
    upper = verify_privacy_bound(res["privacy_bound"], R + "/privacy_bound", report, question, undecided)
    _separates(inp, upper, lo_c, report, R + "/payoff/lower")


def _payoff_decisions(lo_c, hi_c, proved_lo, proved_hi):
    """(lower, upper) decisions of a payoff enclosure against the proved [proved_lo, proved_hi] ∋ payoff.

    The claimed lower end is proved when <= proved_lo, disproved when > proved_hi
    (above the true payoff); the upper end symmetrically.
    """
    return state(lo_c <= proved_lo, lo_c > proved_hi), state(hi_c >= proved_hi, hi_c < proved_lo)


def _payoff_retried(lo_c, hi_c, proved_at):
    """(decisions, proved_lo, proved_hi) of a claimed payoff enclosure [lo_c, hi_c], three-way.

    ``proved_at(bits)`` is the auditor's enclosure [proved_lo, proved_hi] of the
    payoff at ``bits``; open ends are retried (:func:`auditor.decide.retried`) at
    RETRY_FACTOR times the starting precision (the bits of the claimed
    denominators + 32, at least 96).  The proved ends are those of the last precision used.
    """
    proved = []

    def decide_at(pending, bits):
        proved[:] = proved_at(bits)
        lower, upper = _payoff_decisions(lo_c, hi_c, *proved)
        return {key: {"lower": lower, "upper": upper}[key] for key in pending}

    decisions = retried(decide_at, ["lower", "upper"], _payoff_bits(lo_c, hi_c))
    return (decisions["lower"], decisions["upper"]), proved[0], proved[1]


def _payoff_bits(lo_c, hi_c):
    """Starting precision of a payoff enclosure: the bits of the claimed denominators + 32, at least 96."""
    return max(lo_c.denominator.bit_length(), hi_c.denominator.bit_length(), 64) + 32


def _refuse_payoff(lo_c, hi_c, epsilon):
    """UNCHECKED beyond the enclosure limits of the payoff's e^ε and precision."""
    refuse_exponent(epsilon, I + "/epsilon", "e^epsilon")
    refuse_bits(_payoff_bits(lo_c, hi_c), R + "/payoff")


def _settle_payoff(decisions, lo_c, hi_c, proved_lo, proved_hi, report, undecided, what):
    settle(decisions[0], report, undecided, R + "/payoff/lower", lo_c, proved_hi, what + " above the payoff")
    settle(decisions[1], report, undecided, R + "/payoff/upper", hi_c, proved_lo, "payoff upper end below the payoff")


def _renyi_cover(inp, res, report, undecided):
    verify_cover(inp, res, report, undecided)


CHECKS = {
    "finite-relaxation": _finite_relaxation,
    "dg-relaxation": _dg_relaxation,
    "offset-event": _offset_event,
    "binary-pair": _binary_pair,
    "renyi-cover": _renyi_cover,
}


# ---- the claim: the one-line summary of a verified certificate (auditor.api states it) ----

def _separated(privacy, upper, separator, witness, lower):
    """``privacy < s < witness (privacy <= upper, witness >= lower)``, every part true."""
    return (f"{privacy} < {rational_text(separator)} < {witness} "
            f"({privacy} <= {upper_text(upper)}, {witness} >= {lower_text(lower)})")


def _privacy_bound(res):
    """Name and certified upper end of the embedded dg-interval/1 certificate."""
    embedded = res["privacy_bound"]["input"]
    name = f"Delta*_{embedded['budget']}({rational_text(_q(embedded['epsilon']))})"
    return name, _q(res["privacy_bound"]["result"]["interval"]["upper"]), embedded


def _mechanism(inp):
    """``gamma = 1/3, sigma^2 = 9, C = 2, eps = 2``: the mechanism and question of a separation."""
    return (f"{gamma_sigma2_text(inp['gamma'], inp['sigma2'])}, C = 2, "
            f"eps = {rational_text(_q(inp['epsilon']))}")


def _finite_relaxation_claim(inp, res):
    return (f"G_2({rational_text(_q(inp['x']))}, {rational_text(_q(inp['y']))}) - {rational_text(_q(inp['y']))} "
            f"= {rational_text(_q(res['autonomous']))} < {rational_text(_q(res['one_digit']))} "
            f"(one-digit relaxation) < {rational_text(_q(res['offset']))} (offset relaxation) "
            f"for gamma = {rational_text(_q(inp['gamma']))}, law {law_text(inp['law'])}")


def _dg_relaxation_claim(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    level = RELAXATION_LEVELS.get(inp["relaxation"], "?")
    witness = f"Delta^({level})_{embedded['budget']}({rational_text(_q(embedded['epsilon']))})"
    return (_separated(privacy, upper, _q(inp["separator"]), witness,
                       _q(res["relaxation_interval"]["lower"]))
            + f" for the {inp['relaxation']} relaxation {witness}, {_mechanism(inp)}")


RELAXATION_LEVELS = {"one-digit": 1, "offset": 0}
"""The paper's names Delta^(1) (one re-chosen digit) and Delta^(0) (free offsets)."""


def _offset_event_claim(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    eps = rational_text(_q(inp["epsilon"]))
    witness = f"P(A) - e^{eps} Q(A)"
    return (_separated(privacy, upper, _q(inp["separator"]), witness, _q(res["payoff"]["lower"]))
            + f" for an offset-class event A of {res['count']} atoms, {_mechanism(inp)}")


def _binary_pair_claim(inp, res):
    privacy, upper, embedded = _privacy_bound(res)
    eps = rational_text(_q(inp["epsilon"]))
    witness = f"H_{{e^{eps}}}(P_b || Q_b)"
    return (_separated(privacy, upper, _q(inp["separator"]), witness, _q(res["payoff"]["lower"]))
            + f", D_inf(P_b, Q_b) <= {upper_text(_q(res['d_infinity_upper']))} "
            f"for the binary pair p = {rational_text(_q(inp['p']))}, q = {rational_text(_q(inp['q']))}, "
            f"{_mechanism(inp)}")


def _renyi_cover_claim(inp, res):
    bands, top = res["bands"], res["top"]
    order = rational_text(_q(top["order"]))
    return (f"D_alpha(P_3 || Q_3) > D_alpha of the binary pair (both directions) for every "
            f"order alpha >= {rational_text(_q(bands[0]['left']))} ({len(bands)} bands up to "
            f"{rational_text(_q(bands[-1]['right']))}; D_{order}(P_3 || Q_3) >= "
            f"{lower_text(_q(top['lower']))} > {upper_text(_q(top['d_infinity_upper']))} >= D_inf) "
            f"for the (+1,+1,echo) suffix, {gamma_sigma2_text(inp['gamma'], inp['sigma2'])}, "
            f"p = {rational_text(_q(inp['p']))}, q = {rational_text(_q(inp['q']))}")


CLAIMS = {
    "finite-relaxation": _finite_relaxation_claim,
    "dg-relaxation": _dg_relaxation_claim,
    "offset-event": _offset_event_claim,
    "binary-pair": _binary_pair_claim,
    "renyi-cover": _renyi_cover_claim,
}


def claim(cert):
    """A certified privacy upper end strictly below a certified witness/relaxation lower end."""
    inp = cert["input"]
    return CLAIMS[inp["claim"]](inp, cert["result"])
