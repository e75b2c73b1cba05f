"""Three-way decisions of inequality claims about transcendental numbers.

A claim such as "w_n <= S·g(n)" or "λ₋ <= e^ε" compares a rational of the
certificate with a number the auditor only knows inside an enclosure
[x⁻, x⁺].  At a given precision the claim is

- *proved* when the certificate's side holds against the worse end of the
  enclosure (e.g. λ₋ <= x⁻),
- *disproved* when it fails even against the better end (λ₋ > x⁺), so the
  true number makes it false,
- *open* otherwise.

Open claims are retried once at four times the precision (the one bounded
refinement beyond the certificate's own numbers; docs/certificates.md).  A
disproved claim is a FAIL (with its pointer and both sides); one still open
after the retry is recorded as undecided, and :func:`fail_undecided` then
records it as a FAIL of verdict "not established by the certificate's
recipe": a certificate is a proof, and a claim its recipe does not establish
is a failed proof, whether or not it happens to be true.  UNCHECKED is kept
for a documented limit, raised before the work starts.
"""

from fractions import Fraction

from auditor.enclosures import exp_bounds, kernel_bounds, normaliser_bounds

__all__ = ["PROVED", "DISPROVED", "OPEN", "RETRY_FACTOR", "state", "settle", "fail_undecided",
           "retried", "retried_claim", "source_bits", "exp_bits", "source_states", "exp_states"]

PROVED, DISPROVED, OPEN = "proved", "disproved", "open"

RETRY_FACTOR = 4
"""An open claim is retried once at this many times the starting precision."""


def state(proved, disproved):
    """The decision from the two one-sided comparisons."""
    return PROVED if proved else DISPROVED if disproved else OPEN


def settle(decision, report, undecided, pointer, claimed, shown, reason):
    """Record one decided claim: a check when proved, a failure when disproved, else undecided."""
    if decision == OPEN:
        undecided.append(pointer)
        return
    report.check(decision == PROVED, pointer, claimed, shown, reason + " (disproved)")


UNDECIDED_FOUND = f"neither proved nor disproved, also at {RETRY_FACTOR} x the starting precision"


def fail_undecided(undecided, report, cert, found=UNDECIDED_FOUND, what="the stated bound"):
    """Record every claim still undecided (pointers into ``cert``) as not established: a failed proof.

    >>> from auditor.report import Report
    >>> report = Report("t")
    >>> fail_undecided(["/result/tau"], report, {"result": {"tau": "1/3"}})
    >>> report.failures[0]["claimed"], report.failures[0]["verdict"]
    ('1/3', 'not established')
    """
    for pointer in undecided:
        report.not_established(pointer, stated_at(cert, pointer), found, what)


def stated_at(cert, pointer):
    """What ``cert`` (None: unknown) states at the JSON pointer ``pointer``, or "(see the pointer)"."""
    if cert is None:
        return "(see the pointer)"
    node = cert
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return "(see the pointer)"
    return node if isinstance(node, str) else "(see the pointer)"


def retried(decide_at, keys, bits):
    """{key: decision} of claims decided at ``bits``, the open ones once more at RETRY_FACTOR·bits.

    ``decide_at(pending, bits)`` returns a decision for each key of ``pending``
    (a list of the keys still open) from enclosures at ``bits`` of precision.
    Claims still open after the retry stay OPEN (the caller records them as undecided).
    """
    decisions = dict.fromkeys(keys, OPEN)
    for _ in range(2):
        pending = [key for key, decision in decisions.items() if decision == OPEN]
        if not pending:
            break
        decisions.update(decide_at(pending, bits))
        bits *= RETRY_FACTOR
    return decisions


def retried_claim(decide_at, bits):
    """The decision of one claim: ``decide_at(bits)`` at ``bits``, once more at RETRY_FACTOR·bits if open.

    :func:`retried` for a single claim; ``decide_at(bits)`` returns its decision
    from enclosures at ``bits`` of precision.
    """
    return retried(lambda pending, at: {"claim": decide_at(at)}, ["claim"], bits)["claim"]


def source_bits(S):
    """Starting precision of the source claims of scale S: S's bits + 64."""
    return S.bit_length() + 64


def exp_bits(sides):
    """Default starting precision of e^ε against the rationals ``sides``: their largest part's bits + 48."""
    return max(max(x.numerator.bit_length(), x.denominator.bit_length()) for x in sides) + 48


def source_states(weights, L, S, sigma2, tau):
    """(atom decisions {n: state}, τ decision, w_0/S − 1/Z⁺, w_0/S − 1/Z⁻) of a DG source.

    Atom n ≠ 0 with w_n > 0: proved when w_n·Z⁺ <= S·f⁻(n) (so w_n/S <= g(n)),
    disproved when w_n·Z⁻ > S·f⁺(n) (so w_n/S > g(n)).  τ: proved when
    τ >= w_0/S − 1/Z⁺ >= ν(0) − g(0) = TV (given the atoms), disproved when
    τ < w_0/S − 1/Z⁻ <= ν(0) − g(0) <= TV(ν, g).  Precision S's bits + 64,
    retried once at RETRY_FACTOR times that.
    """
    w0 = Fraction(weights[L], S)
    tau_bounds = []  # (w_0/S − 1/Z⁺, w_0/S − 1/Z⁻) at the last precision used

    def decide_at(pending, bits):
        z_lo, z_hi = normaliser_bounds(sigma2, bits)
        tau_bounds[:] = [w0 - 1 / z_hi, w0 - 1 / z_lo]
        kernel = {}  # f(n) = f(−n): one enclosure per |n|
        decisions = {}
        for n in pending:
            if n == "tau":
                decisions[n] = state(tau >= tau_bounds[0], tau < tau_bounds[1])
                continue
            f_lo, f_hi = kernel.get(abs(n)) or kernel.setdefault(abs(n), kernel_bounds(n, sigma2, bits))
            w = weights[n + L]
            decisions[n] = state(w * z_hi <= S * f_lo, w * z_lo > S * f_hi)
        return decisions

    atoms = [n for n in range(-L, L + 1) if n != 0 and weights[n + L] > 0]
    decisions = retried(decide_at, atoms + ["tau"], source_bits(S))
    tau_state = decisions.pop("tau")
    return decisions, tau_state, tau_bounds[0], tau_bounds[1]


def exp_states(epsilon, lower, upper, strict_upper=False, bits=None):
    """(decision of lower <= e^ε, decision of e^ε <= upper (< with strict_upper), (e⁻, e⁺)).

    A side given as None is not a claim (its decision is None).  Precision
    ``bits``, by default from the sizes of the rationals + 48 bits, retried once
    at RETRY_FACTOR times that; (e⁻, e⁺) is the enclosure at the last precision used.
    """
    if bits is None:
        bits = exp_bits([x for x in (lower, upper) if x is not None])
    enclosure = []

    def decide_at(pending, bits):
        e_lo, e_hi = exp_bounds(epsilon, bits)
        enclosure[:] = [e_lo, e_hi]
        decisions = {}
        if "lower" in pending:
            decisions["lower"] = state(lower <= e_lo, lower > e_hi)
        if "upper" in pending:
            decisions["upper"] = (state(upper > e_hi, upper <= e_lo) if strict_upper
                                  else state(upper >= e_hi, upper < e_lo))
        return decisions

    sides = [side for side, x in (("lower", lower), ("upper", upper)) if x is not None]
    decisions = retried(decide_at, sides, bits)
    return decisions.get("lower"), decisions.get("upper"), tuple(enclosure)
