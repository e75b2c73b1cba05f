"""Wrong resource-law certificates: each a reference certificate with one claim tampered, resealed.

Every entry is (name, reference file, edit, statuses, pointer): ``edit(cert)``
changes the copy in place; the auditor must answer one of ``statuses`` (FAIL
or MALFORMED) and, for a FAIL, report a failure whose pointer starts with
``pointer``.  Numbers are moved by 2^-200 where the claim is an exact row (so
only exact arithmetic can see it) and far where it is an enclosure claim.
"""

from fractions import Fraction

from auditor.outcomes import FAIL, MALFORMED
from auditor.rationals import read_rational, write_rational

TINY = Fraction(1, 1 << 200)

RATE = "rate-published-gamma1_2-sigma2_1-n32.json"
RATE_THIRD = "rate-gamma1_3-sigma2_2.json"
FRONTIER = "frontier-published-gamma1_2-sigma2_1_4-m12.json"
WINDOW = "window-request-published-gamma1_2-tau2-b4.json"
BUDGET = "finite-budget-published-c100000.json"


def q(text):
    return read_rational(text, "test")


def shift(block, key, by):
    """block[key] += by (an exact rational string)."""
    block[key] = write_rational(q(block[key]) + by)


def scale(block, key, factor):
    block[key] = write_rational(q(block[key]) * factor)


def _reward(cert, k, d, j):
    return next(e for e in cert["result"]["rewards"] if (e["k"], e["d"], e["j"]) == (k, d, j))


def _tight_state(cert):
    """A window state (not (0, 0)) with positive occupation: its dual rows are tight."""
    M = cert["result"]["radius"]
    zero = 3 * M + 1
    return next(c // 3 for c, z in enumerate(cert["result"]["primal"]["z"]) if z != "0" and c // 3 != zero)


def _zero_state_column(cert):
    M = cert["result"]["radius"]
    return 9 * M + 3 + 1  # (x, d, j) = (0, 0, 0)


def _hi_below_truth(cert, k, d, j):
    entry = _reward(cert, k, d, j)
    entry["hi"] = write_rational(q(entry["lo"]) - TINY)


def _lo_above_truth(cert, k, d, j):
    entry = _reward(cert, k, d, j)
    entry["lo"] = write_rational(q(entry["hi"]) + TINY)


def _drop_reward(cert):
    cert["result"]["rewards"].pop(3)


def _window_dual_row(cert):
    h = cert["result"]["dual"]["h"]
    s = _tight_state(cert)
    h[s] = write_rational(q(h[s]) - TINY)


def _window_flow(cert):
    z = cert["result"]["primal"]["z"]
    c = _zero_state_column(cert)
    z[c] = write_rational(q(z[c]) + TINY)
    z[c + 1] = write_rational(q(z[c + 1]) - TINY) if q(z[c + 1]) >= TINY else z[c + 1]


CORPUS = [
    # rate/1
    ("rate: reward hi lowered below the truth", RATE, lambda c: _hi_below_truth(c, 1, 1, 1), {FAIL},
     "/result/rewards/"),
    ("rate: reward lo raised above the truth", RATE, lambda c: _lo_above_truth(c, 1, 1, 1), {FAIL},
     "/result/rewards/"),
    ("rate: gain r lowered by 2^-200 (a participation row above r)", RATE,
     lambda c: shift(c["result"]["upper"], "r", -TINY), {FAIL}, "/result/upper/r"),
    ("rate: h(0, +1) raised by 2^-200 (a wrong row)", RATE,
     lambda c: shift(c["result"]["upper"]["h"]["plus"], 0, TINY), {FAIL}, "/result/upper"),
    ("rate: upper value understated", RATE, lambda c: shift(c["result"]["upper"], "value", -TINY), {FAIL},
     "/result/upper/value"),
    ("rate: descent r_lo overstated by 2^-200", RATE, lambda c: shift(c["result"]["descent"], "r_lo", TINY),
     {FAIL}, "/result/descent/r_lo"),
    ("rate: a* lower end overstated", RATE, lambda c: shift(c["result"]["a_star"], "lower", TINY), {FAIL},
     "/result/a_star/lower"),
    ("rate: descent value overstated", RATE, lambda c: shift(c["result"]["descent"], "value", TINY), {FAIL},
     "/result/descent/value"),
    ("rate: p_out halved (below 2 exp(-(W + 1/3)^2/(2H)))", RATE, lambda c: scale(c["result"]["descent"], "p_out",
                                                                                  Fraction(1, 2)),
     {FAIL}, "/result/descent/p_out"),
    ("rate: tv below the source's TV", RATE, lambda c: scale(c["result"]["source"], "tv", Fraction(1, 2)), {FAIL},
     "/result/source/tv"),
    ("rate: disclosed rate off", RATE, lambda c: shift(c["result"], "disclosed_rate", TINY), {FAIL},
     "/result/disclosed_rate"),
    ("rate: a descent at gamma = 1/3", RATE_THIRD,
     lambda c: c["result"].update(descent={"window": 1, "phi": ["0", "0", "0"], "r_lo": "0", "span": "0",
                                           "m_out": "0", "r_prime": "0", "p_out": "1", "value": "0"}),
     {MALFORMED}, ""),
    ("rate: period not a power of B", RATE, lambda c: c["input"].update(period=24), {MALFORMED}, ""),
    ("rate: a reward entry missing", RATE, _drop_reward, {MALFORMED}, ""),
    ("rate: gamma not reduced", RATE, lambda c: c["input"].update(gamma="2/4"), {MALFORMED}, ""),
    # frontier/1
    ("frontier: a_model lowered by 2^-200", FRONTIER, lambda c: shift(c["result"]["upper"], "a_model", -TINY),
     {FAIL}, "/result/upper/a_model"),
    ("frontier: reward hi lowered below the truth", FRONTIER, lambda c: _hi_below_truth(c, 0, 1, 1), {FAIL},
     "/result/rewards/"),
    ("frontier: policy b_model raised", FRONTIER,
     lambda c: shift(c["result"]["lower"]["policies"][1], "b_model", TINY), {FAIL},
     "/result/lower/policies/1/b_model"),
    ("frontier: policy f_upper understated", FRONTIER,
     lambda c: shift(c["result"]["lower"]["policies"][1], "f_upper", -TINY), {FAIL},
     "/result/lower/policies/1/f_upper"),
    ("frontier: tau_max raised", FRONTIER, lambda c: shift(c["result"]["lower"], "tau_max", 1), {FAIL},
     "/result/lower/tau_max"),
    ("frontier: a value's upper end understated", FRONTIER, lambda c: shift(c["result"]["values"][1], "upper",
                                                                           -TINY),
     {FAIL}, "/result/values/1/upper"),
    ("frontier: a value's lower end overstated", FRONTIER, lambda c: shift(c["result"]["values"][2], "lower", TINY),
     {FAIL}, "/result/values/2/lower"),
    ("frontier: exit residual halved", FRONTIER, lambda c: scale(c["result"], "exit_residual", Fraction(1, 2)),
     {FAIL}, "/result/exit_residual"),
    ("frontier: span of h understated", FRONTIER, lambda c: shift(c["result"]["upper"], "span", -TINY), {FAIL},
     "/result/upper/span"),
    ("frontier: the Lipschitz constant of phi understated", FRONTIER,
     lambda c: shift(c["result"]["lower"]["policies"][0], "lipschitz", -TINY), {FAIL},
     "/result/lower/policies/0/lipschitz"),
    ("frontier: always-plus idles at one state", FRONTIER,
     lambda c: c["result"]["lower"]["policies"][0]["actions"].__setitem__(5, 0), {FAIL, MALFORMED}, ""),
    ("frontier: a null potential entry on S*", FRONTIER,
     lambda c: c["result"]["lower"]["policies"][0]["phi"].__setitem__(11, None), {FAIL, MALFORMED}, ""),
    ("frontier: taus not increasing", FRONTIER, lambda c: c["input"]["taus"].reverse(), {MALFORMED}, ""),
    # window-request/1
    ("window: a dual row violated by 2^-200", WINDOW, _window_dual_row, {FAIL}, "/result/dual/a"),
    ("window: a flow equality at (0, 0) (the dropped row) broken", WINDOW, _window_flow, {FAIL},
     "/result/primal/z/"),
    ("window: reward value off by twice its error", WINDOW,
     lambda c: shift(_reward(c, 0, 1, 1), "value", 2 * q(c["result"]["reward_error"])), {FAIL}, "/result/rewards/"),
    ("window: value overstated by 2^-200", WINDOW, lambda c: shift(c["result"], "value", TINY), {FAIL},
     "/result/value"),
    ("window: error understated", WINDOW, lambda c: shift(c["result"], "error", -TINY), {FAIL}, "/result/error"),
    ("window: slack off", WINDOW, lambda c: shift(c["result"]["primal"], "slack", TINY), {FAIL},
     "/result/primal/slack"),
    ("window: wrong number of dual rows", WINDOW, lambda c: c["result"].update(dual_rows=80), {FAIL},
     "/result/dual_rows"),
    ("window: exit residual below (2H/M)exp(-M^2/(2H))", WINDOW,
     lambda c: scale(c["result"], "exit_residual", Fraction(1, 2)), {FAIL}, "/result/exit_residual"),
    ("window: lower display rounded up", WINDOW,
     lambda c: c["result"]["phi"].update(lower_display=c["result"]["phi"]["upper_display"]), {FAIL},
     "/result/phi/lower_display"),
    ("window: z of the wrong length", WINDOW, lambda c: c["result"]["primal"]["z"].pop(), {MALFORMED}, ""),
    # finite-budget/1
    ("budget: too-small bound (epsilon_upper lowered by 2^-200)", BUDGET,
     lambda c: shift(c["result"], "epsilon_upper", -TINY), {FAIL}, "/result/epsilon_upper"),
    ("budget: root below the square root", BUDGET, lambda c: scale(c["result"], "root", Fraction(99, 100)), {FAIL},
     "/result/root"),
    ("budget: log(1/p) understated", BUDGET, lambda c: scale(c["result"], "log_inverse_p", Fraction(9, 10)), {FAIL},
     "/result/log_inverse_p"),
    ("budget: exit probability understated", BUDGET,
     lambda c: scale(c["result"], "exit_probability", Fraction(1, 2)), {FAIL}, "/result/exit_probability"),
    ("budget: Bellman a lowered by 2^-200", BUDGET, lambda c: shift(c["result"]["bellman"], "a", -TINY), {FAIL},
     "/result/bellman/a"),
    ("budget: kappa understated", BUDGET, lambda c: shift(c["result"], "kappa", -TINY), {FAIL}, "/result/kappa"),
    ("budget: diameter understated", BUDGET, lambda c: c["result"].update(diameter=1), {FAIL}, "/result/diameter"),
    ("budget: reward hi lowered below the truth", BUDGET,
     lambda c: _reward(c, 1, 1, 1).update(hi=write_rational(q(_reward(c, 1, 1, 1)["hi"]) / 2)), {FAIL},
     "/result/rewards/"),
    ("budget: delta outside (0, 1)", BUDGET, lambda c: c["input"].update(delta="3/2"), {MALFORMED}, ""),
]
