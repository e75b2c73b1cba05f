"""The paper's parameter rules: γ, J, η for a target error α.

(*Pure-DP Statistical Query Release at the Conjectured Square-Root Rate*, §8.)

§8 balances Hedge regret and selection error: γ = Θ(α), J = Θ(log T / α²),
η = Θ(log k / α), and requires 34200·L_D·L_Q ≤ ε·n·α² with L_D = log(2T),
L_Q = log(2k), 0 < α ≤ 1.  The legible bound there is
κ = 2Jη²/n² ≤ 649800·L_D·L_Q²/(n²α⁴), which together with L = log(T² + 1)
≤ 2·L_D and the condition above gives the §7 hypothesis 900·κ·L ≤ ε².
The split of 649800 = 2·100·57² used here,

    γ = α/10,   J = max(1, ⌊100·L_D/α²⌋),   η = ⌊1000·57·L_Q/α⌋ / 1000,

is our reconstruction (the extracted text garbles the individual constants);
it satisfies Jη² ≤ 100·57²·L_D·L_Q²/α⁴, so the §7 hypothesis follows from the
displayed condition.  Everything is decided with arb enclosures; a floor that
an enclosure cannot decide raises the precision.
"""

from flint import arb, ctx, fmpz
from gmpy2 import mpq

from producer.envelope.enclosures import Enclosure, decimal_display
from producer.envelope.histograms import count_histograms
from producer.envelope.instance import MAX_ENVELOPE, MAX_STORED
from producer.envelope.transcripts import to_arb
from producer.errors import InputError
from producer.names import option
from producer.rationals import format_rational


def _certain_floor(make, bits=128):
    """⌊x⌋ for the real x = make() evaluated in arb, raising precision until the floor is certain."""
    while bits <= 4096:
        with ctx.workprec(bits):
            x = make()
            lo, hi = x.lower().floor(), x.upper().floor()
            if lo == hi:
                return int(fmpz(lo.unique_fmpz()))
        bits *= 2
    raise ArithmeticError("floor undecidable (the value is an integer to 4096 bits)")


def propose(universe, k, records, epsilon, alpha, bits=128):
    """The §8 parameters for target error α, with the checks that make them admissible."""
    alpha, epsilon = mpq(alpha), mpq(epsilon)
    if not 0 < alpha <= 1:
        raise InputError(f"{option('alpha', flag='--propose')}: target error alpha = {format_rational(alpha)} "
                         f"must lie in (0, 1]")
    if k < 1 or universe < 1 or records < 1:
        raise InputError(f"{option('alpha', flag='--propose')}: need T >= 1, n >= 1 and at least one query")
    LD = lambda: arb(2 * universe).log()          # noqa: E731
    LQ = lambda: arb(2 * k).log()                 # noqa: E731
    gamma = alpha / 10
    J = max(1, _certain_floor(lambda: 100 * LD() / to_arb(alpha) ** 2))
    eta = mpq(_certain_floor(lambda: 1000 * 57 * LQ() / to_arb(alpha)), 1000)
    with ctx.workprec(bits + 32):
        cond = Enclosure.from_arb(34200 * LD() * LQ() - to_arb(epsilon) * records * to_arb(alpha) ** 2, bits)
        kappa = 2 * J * eta ** 2 / mpq(records) ** 2
        hyp = Enclosure.from_arb(to_arb(kappa) * 900 * arb(universe ** 2 + 1).log() - to_arb(epsilon) ** 2, bits)
    N = (2 * k) ** J
    H = count_histograms(universe, records)

    def status(enc):  # of the claim enc <= 0
        return "proved" if enc.hi <= 0 else "refuted" if enc.lo > 0 else "unresolved"

    return {
        "target_error": format_rational(alpha),
        "hedge": format_rational(gamma),
        "rounds": J,
        "select": format_rational(eta),
        "section8_condition": {"claim": "34200*log(2T)*log(2k) <= epsilon*n*alpha^2", "status": status(cond),
                               "lhs_minus_rhs_decimal": [decimal_display(cond.lo, 6, -1),
                                                         decimal_display(cond.hi, 6, 1)]},
        "section7_hypothesis": {"claim": "900*kappa*log(T^2+1) <= epsilon^2", "kappa": format_rational(kappa),
                                "status": status(hyp)},
        "histograms": H,
        "transcripts": f"(2k)^J = {2 * k}^{J}" if N > 10 ** 12 else str(N),
        "enumerable": H * N <= MAX_STORED and H * H * N <= MAX_ENVELOPE,
    }
