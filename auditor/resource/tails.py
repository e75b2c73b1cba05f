"""The transcendental constants of the resource laws, stated as rational bounds and decided three-way.

Each stated constant must lie on the safe side of an analytic expression
(kinds.md S4):

- ``exit_residual`` e_M >= (2H/M)·exp(−M²/(2H))           (``frontier/1``, ``window-request/1``);
- ``exit_probability`` >= min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))}   (``finite-budget/1``);
- ``p_out`` >= 2·exp(−(W + 1/3)²/(2H))                    (``rate/1``, the descent);
- ``log_inverse_p`` >= log(1/p)                           (``finite-budget/1``).

A claim c >= f·exp(−x) (f > 0, x >= 0) is proved when c >= f·e⁺ and disproved
when c < f·e⁻, [e⁻, e⁺] the auditor's enclosure of exp(−x)
(:func:`auditor.enclosures.exponential.exp_bounds`, relative accuracy about
2^-bits); a claim c >= log y likewise with an enclosure of log y.  Open claims
are retried once at RETRY_FACTOR times the precision; still open, they are
undecided.  An exponent beyond MAX_EXP_ARGUMENT is replaced by that bound
(exp(−x) <= exp(−MAX_EXP_ARGUMENT), so a proof still holds), and such a claim
is never disproved.
"""

from fractions import Fraction

from auditor.enclosure_limits import MAX_EXP_ARGUMENT
from auditor.decide import retried_claim, settle, state
from auditor.enclosures.exponential import exp_bounds, log_bounds

__all__ = ["START_BITS", "exp_tail_claim", "exit_residual_claim", "exit_probability_claim", "p_out_claim",
           "log_claim"]

START_BITS = 128
"""Starting precision: the producer states each constant about 2^-96 (relative) above its value."""


def exp_tail_claim(claim, factor, exponent, report, undecided, pointer, what):
    """Decide claim >= factor·exp(−exponent) three-way; record it at ``pointer``."""
    exponent = Fraction(exponent)
    x = min(exponent, Fraction(MAX_EXP_ARGUMENT))
    capped = x < exponent
    shown = []

    def decide_at(bits):
        lo, hi = exp_bounds(-x, bits)
        shown[:] = [factor * hi]
        return state(claim >= factor * hi, not capped and claim < factor * lo)

    decision = retried_claim(decide_at, START_BITS)
    settle(decision, report, undecided, pointer, claim, shown[0], f"below {what}")
    return decision


def exit_residual_claim(claim, params, M, report, undecided, pointer="/result/exit_residual"):
    """e_M >= (2H/M)·exp(−M²/(2H))."""
    H = params.H
    return exp_tail_claim(claim, 2 * H / M, Fraction(M * M) / (2 * H), report, undecided, pointer,
                          "(2H/M)·exp(−M²/(2H))")


def exit_probability_claim(claim, params, M, T, report, undecided, pointer="/result/exit_probability"):
    """p_exit >= min{1, 2·max(T − 1, 0)·exp(−(M + 1)²/(2H))}."""
    if T <= 1 or claim >= 1:
        report.check(True, pointer, claim, claim, "")
        return None
    H = params.H
    return exp_tail_claim(claim, 2 * (T - 1), Fraction((M + 1) ** 2) / (2 * H), report, undecided, pointer,
                          "min{1, 2(T − 1)·exp(−(M + 1)²/(2H))}")


def p_out_claim(claim, params, W, report, undecided, pointer):
    """p_out >= 2·exp(−(W + 1/3)²/(2H))."""
    H = params.H
    return exp_tail_claim(claim, Fraction(2), (W + Fraction(1, 3)) ** 2 / (2 * H), report, undecided, pointer,
                          "2·exp(−(W + 1/3)²/(2H))")


def log_claim(claim, argument, report, undecided, pointer, what):
    """Decide claim >= log(argument) three-way (argument > 0)."""
    shown = []

    def decide_at(bits):
        lo, hi = log_bounds(argument, bits)
        shown[:] = [hi]
        return state(claim >= hi, claim < lo)

    decision = retried_claim(decide_at, START_BITS)
    settle(decision, report, undecided, pointer, claim, shown[0], f"below {what}")
    return decision
