"""Calibration lower witnesses: the K.2 event, target-{0} line trees.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.2 and Appendices G.5, K.2.)
"""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.game.values import root_value
from producer.laws import FiniteLaw, Gamma
from producer.kinds import calibration_lower as cl
from producer.lower import target_lines as tl
from producer.lower.capped import first_hit_probability
from producer.lower.suffix import RowCache
from producer.rationals import decimal_outward
from producer.errors import LimitError
from tests.producer.kinds.edges import built_edge_verifies, built_refused, least_auditor_budget, refused, \
    scaled_budget

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "calibration-lower-1.schema.json").read_text())


def test_k2_capped_preparation_published_values():
    cert = cl.build_reference(cl.K2)
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    assert r["atoms"] == 625539
    assert decimal_outward(mpq(r["hit"]), 20, -1) == "0.92959648621699367813"
    assert decimal_outward(mpq(r["p_lower"]), 23, -1) == "0.00021892734460638616591"
    # q⁺: 13 digits agree with the published 5.1974012751970526e-11 (the paper's Appendix K.2)
    assert decimal_outward(mpq(r["q_upper"]), 23, -1).startswith("0.0000000000519740127519")
    eps = mpq(r["epsilon_lower"])
    assert eps >= mpq(146432794761, 10 ** 10)
    assert eps < mpq(14740484552831, 10 ** 12)  # below the published exact-target bracket
    assert mpq(r["p_lower"]) == mpq(r["p"]) - mpq(r["coupling"])
    assert mpq(r["lambda_crit"]) == (mpq(r["p_lower"]) - mpq(1, 10 ** 4)) / mpq(r["q_upper"])


def brute_first_hit(law, gamma, start, target, cap):
    """Sum over all paths of length <= cap of first-visit probabilities (no killing shortcut)."""
    total = mpq(0)
    paths = {(start,): mpq(1)}
    for _ in range(cap):
        new = {}
        for path, m in paths.items():
            k = path[-1]
            for n in range(law.low - 10, law.high + 10):
                w = mpq(sum(law.weight(n + (gamma.a * k + u) // gamma.B) for u in range(gamma.B)),
                        law.total * gamma.B)
                if w:
                    if n == target:
                        total += m * w
                    else:
                        new[path + (n,)] = m * w
        paths = new
    return total


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(lambda w: sum(w) > 0),
       st.sampled_from([Gamma(1, 2), Gamma(1, 3)]), st.integers(-1, 1), st.integers(1, 3))
def test_first_hit_matches_paths(weights, gamma, target, cap):
    law = FiniteLaw(weights, -1)
    hit, _ = first_hit_probability(RowCache(law, gamma), 0, target, cap)
    assert hit == brute_first_hit(law, gamma, 0, target, cap)


def test_the_grids_float_priors_are_close_to_the_exact_ones_and_need_no_exp():
    """The hint floats are products of floats (the same bits on every machine), within 10^-12 of ρ_0·β^i."""
    grid = tl.Grid(mpq(1, 10 ** 10), mpq(87, 86), 4001)
    value = float(grid.first)
    for i, rho in enumerate(grid.floats):
        assert rho == value
        value *= float(grid.ratio)
        if i % 400 == 0:
            exact = grid.first * grid.ratio ** i
            assert abs(mpq(rho) - exact) <= exact / 10 ** 12


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 10 ** 6), st.integers(1, 10 ** 6), st.sampled_from([mpq(3, 2), mpq(87, 86), mpq(5, 4)]))
def test_nearest_shift_is_the_nearest_grid_prior(num, den, ratio):
    grid = tl.Grid(mpq(1, 1000), ratio, 60)
    rhos = [grid.first * ratio ** i for i in range(grid.count)]
    s = grid.nearest_shift(num, den)
    for i in (0, 7, 30, 59):
        target = rhos[i] * mpq(num, den)
        below = [j for j in range(grid.count) if rhos[j] <= target]
        j = below[-1] if below else 0
        if below and j + 1 < grid.count and target * target > rhos[j] * rhos[j + 1]:
            j += 1
        assert min(max(i + s, 0), grid.count - 1) == j


def small_game(C=2, count=25):
    law, gamma = FiniteLaw([1, 2, 1], -1), Gamma(1, 3)
    game = tl.TargetZeroGame(law, gamma, C, tl.Grid(mpq(1, 100), mpq(3, 2), count), scale_bits=20)
    P, Q = game.choose()
    return law, gamma, game, P, Q


def test_the_float_phase_reports_through_its_callback_only(capsys):
    law, gamma = FiniteLaw([1, 2, 1], -1), Gamma(1, 3)
    grid = tl.Grid(mpq(1, 100), mpq(3, 2), 25)
    tl.TargetZeroGame(law, gamma, 2, grid, scale_bits=20).choose()
    lines = []
    game = tl.TargetZeroGame(law, gamma, 2, grid, scale_bits=20, progress=lines.append)
    game.choose()
    assert capsys.readouterr() == ("", "")
    assert [line.rsplit(",", 1)[0] for line in lines] == [f"float lines 0/{len(game.nodes)} nodes"]


def exact_policy(game, node, index, rhos, memo):
    """(P(A), Q(A)) of the line's policy with exact rationals and no rounding (test route)."""
    key = (node, index)
    if key in memo:
        return memo[key]
    action = game.actions[node][index]
    if action in "xy":
        out = (mpq(1), mpq(1)) if action == "x" else (mpq(0), mpq(0))
    else:
        rows = game.rows
        D = rows.denominator
        if len(node) == 1:
            kp = kq = 0
            cb = node[0] - 1
        else:
            q, kp, kq = node
            cb = q - 1
        j = 0 if action == "e" else (1 if action == "+" else -1)
        outs = set(n + j for n in rows.support(kp)) | set(rows.support(kq))
        P = Q = mpq(0)
        for o in outs:
            rp, rq = mpq(rows(kp)[o - j], D), mpq(rows(kq)[o], D)
            child = (node[0],) if action == "e" else (cb, o - j, o)
            if rp == 0:
                continue
            if rq == 0:
                P += rp
                continue
            target = rhos[index] * rq / rp
            below = [i for i in range(len(rhos)) if rhos[i] <= target]
            ci = below[-1] if below else 0
            if below and ci + 1 < len(rhos) and target * target > rhos[ci] * rhos[ci + 1]:
                ci += 1
            cp, cq = exact_policy(game, child, ci, rhos, memo)
            P += rp * cp
            Q += rq * cq
        out = (P, Q)
    memo[key] = out
    return out


def test_target_lines_are_feasible_and_below_the_game_value():
    law, gamma, game, P, Q = small_game()
    rhos = [game.grid.first * game.grid.ratio ** i for i in range(game.grid.count)]
    ranges = tl.reachable_ranges(game, 12)
    vector = tl.exact_lines(game, ranges)
    memo, truth = {}, {}
    one = game.one
    for i in range(game.grid.count):
        a, c = game.exact_line(game.root(), i, memo)
        p, q = exact_policy(game, game.root(), i, rhos, truth)
        assert mpq(a, one) <= p and q <= mpq(c, one)           # rounding only toward safety
        lam = rhos[i]
        # a line is one (policy, event): its testing value is at most the full game's
        assert p + lam * (1 - q) <= root_value(law, gamma, 2, 1, lam).value
    a_arr, c_arr, lo = vector[game.root()]
    assert (a_arr[12 - lo], c_arr[12 - lo]) == game.exact_line(game.root(), 12, memo)


def test_target_zero_c2_close_to_the_target_class_value():
    # at C = 2 the target-{0} value is h(0) of the deadline witness plus 1.1e-21 (Appendix G.5);
    # lines approach it from below
    law, gamma, game, P, Q = small_game(C=2, count=41)
    lam = mpq(1, 2)
    i = min(range(game.grid.count), key=lambda j: abs(game.grid.floats[j] - 0.5))
    a, c = game.exact_line(game.root(), i, {})
    value = mpq(a, game.one) + lam * (1 - mpq(c, game.one))
    exact = root_value(law, gamma, 2, 1, lam).value
    assert value <= exact and exact - value < mpq(1, 10)


def test_run_length_round_trip():
    text = "xxxyye++--x"
    code = tl.run_length(text)
    assert code == "x3y2e1+2-2x1"


def test_calibrate_lower_cli_rejects_bad_delta(capsys):
    from producer.cli import main
    status = main(["calibrate-lower", "--claim", "capped-preparation", "--delta", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "delta" in err[0]


@pytest.mark.reference
@pytest.mark.parametrize("fields, published", [(cl.TARGET_C8, "4.833477"), (cl.TARGET_C16, "7.486700")])
def test_target_zero_published_lower_ends(fields, published):
    cert = cl.build_reference(fields)
    jsonschema.validate(cert, SCHEMA)
    eps = mpq(cert["result"]["epsilon_lower"])
    whole, frac = published.split(".")
    assert eps > mpq(int(whole + frac), 10 ** len(frac))
    saved = ROOT / "certificates" / "slow" / f"calibration-lower-target-zero-c{fields['budget']}.json"
    if saved.exists():
        from producer.certificates.canonical import render
        assert saved.read_bytes() == render(cert)


def test_calibrate_lower_reports_a_two_sided_bracket(tmp_path, capsys):
    from producer.cli import main
    upper = ROOT / "certificates" / "calibration-published-c4-delta1e-4.json"
    out = tmp_path / "k2.json"
    assert main(["calibrate-lower", "--claim", "capped-preparation", "--quiet",
                 "--bracket", str(upper), "-o", str(out)]) == 0
    line = capsys.readouterr().err.strip().splitlines()[-1]
    hi = json.loads(upper.read_text())["result"]["epsilon_hi"]
    from producer.rationals import decimal_outward, parse_rational
    assert line.startswith("calibrate-lower: bracket: 14.643279 ≤ ε*_4(1/10000) ≤ ")
    assert decimal_outward(parse_rational(hi), 6, +1) in line
    other = ROOT / "certificates" / "calibration-c2-delta1e-4.json"
    assert main(["calibrate-lower", "--claim", "capped-preparation", "--quiet",
                 "--bracket", str(other), "-o", str(out)]) == 2


@pytest.mark.parametrize("C", [2, 3])
def test_limb_route_equals_big_integer_route(C):
    # (1,2,1)/4 has S = 4 = 2^2, so the int64 limb route applies; compare every line of every node
    law, gamma, game, P, Q = small_game(C=C)
    assert tl.limbs_apply(game)
    full = {node: (0, game.grid.count - 1) for node in game.nodes}
    big = tl.exact_lines(game, full)
    limbs = tl.exact_lines_limbs(game, full)
    a_big, c_big, _ = big[game.root()]
    a_l, c_l, _ = limbs[game.root()]
    memo = {}
    for i in range(game.grid.count):
        assert (a_big[i], c_big[i]) == (tl.limbs_value(a_l, i), tl.limbs_value(c_l, i))
        assert (a_big[i], c_big[i]) == game.exact_line(game.root(), i, memo)


def _k2(**changes):
    fields = dict(cl.K2)
    fields.pop("claim")
    fields.update(changes)
    return fields


def test_the_input_is_the_whole_question_and_the_result_repeats_none_of_it():
    cert = cl.build(cl.Request.of("capped-preparation", **_k2()))
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    assert inp == {"claim": "capped-preparation", "gamma": "1/2", "sigma2": "1", "budget": 4, "delta": "1/10000",
                   "radius": 8, "scale": str(2 ** 80), "target": 2, "cap": 29, "signs": [1, 1, 1, 1, 0],
                   "horizon": 34, "event_threshold": "2221685"}
    assert not set(inp) & set(res) and "start" not in json.dumps(cert)
    assert set(res["source"]) == {"weights", "tau"}
    # the coupling charges T = horizon draws
    tau = mpq(res["source"]["tau"])
    assert mpq(res["coupling"]) == 1 - (1 - tau) ** 34


@pytest.mark.parametrize("changes, words", [
    (dict(signs=[1, 1, 1, 1, 1]), "5 participations exceed the budget C = 4"),
    (dict(budget=3), "4 participations exceed the budget C = 3"),
    (dict(horizon=33), "cap + suffix = 34"),
    (dict(target=40), "outside the window"),
    (dict(gamma="0"), "γ = 0 is plain composition"),
    (dict(delta=1), "delta"),
    (dict(signs=[2, 1]), "signs"),
    (dict(cap=83977, horizon=83982), "auditor work"),
    (dict(cap=2000, horizon=2005), "reader limit"),
])
def test_illegal_or_unauditable_capped_programs_are_refused(changes, words):
    from producer.errors import InputError
    with pytest.raises(InputError, match=words.replace("+", r"\+")):
        cl.build(cl.Request.of("capped-preparation", **_k2(**changes)))


def test_the_capped_work_estimate_is_the_auditors_formula():
    # K.2: cap 29, the window [-16, 16] of the γ = 1/2, L = 8 zero-input chain, M = 18, m = 5, B = 2
    # S = 2^80: D = B·S has 82 bits, so a release adds 82 bits to every mass (the chain's cap² term)
    work = cl.capped_work(29, 33, 8, 5, 2, 2 ** 80)
    assert work == -(-29 * 33 * 18 * (1 + 29 * 82 // 64) // 200) + 18 ** 3 * 20 + 4 * 18 ** 2 <= cl.MAX_CAPPED_WORK
    largest = max(cap for cap in range(3000, 4000) if cl.capped_work(cap, 33, 8, 5, 2, 2 ** 80) <= cl.MAX_CAPPED_WORK)
    assert 3000 < largest < 3999   # the cap² term binds near 3,600 releases (about a minute of the auditor's)


def test_the_digit_bound_holds_for_the_reference():
    cert = cl.build(cl.Request.of("capped-preparation", **_k2()))
    longest = max(len(part) for value in cert["result"].values() if isinstance(value, str)
                  for part in value.split("/"))
    request = cl.CappedRequest(**_k2())
    from producer.sources.discrete_gaussian import DiscreteGaussianSource
    source = DiscreteGaussianSource.from_radius_scale(1, 8, 2 ** 80)
    bound = cl.line_digits(request, source, 34 * len(str(2 * 2 ** 80)) + 1)
    assert longest <= bound <= cl.MAX_DIGITS


def test_an_illegal_line_tree_is_never_written():
    law, gamma, game, P, Q = small_game(C=2, count=9)
    cl.check_line_tree(game)
    bad = dict(game.actions)
    synchronised_zero = next(node for node in game.nodes if node == (0,))
    game.actions[synchronised_zero] = "+" * game.grid.count        # participation with none left
    with pytest.raises(ArithmeticError, match="illegal actions"):
        cl.check_line_tree(game)
    game.actions = dict(bad)
    pending = next(node for node in game.nodes if len(node) == 3)
    game.actions[(game.budget, *pending[1:])] = game.actions[pending]    # a pending node with C left
    with pytest.raises(ArithmeticError, match="not a node"):
        cl.check_line_tree(game)


def test_target_zero_input_is_typed_and_legal():
    fields = dict(cl.TARGET_C8, budget=2, grid_count=41, radius=16)
    fields.pop("claim")
    cert = cl.build(cl.Request.of("target-zero", **fields))
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    assert inp["grid_count"] == 41 and inp["scale_bits"] == 60 and inp["scale"] == str(2 ** 60)
    assert set(res) == {"source", "coupling", "p", "q", "p_lower", "q_upper", "lambda_crit", "epsilon_lower",
                        "epsilon_lower_display", "nodes", "root"}
    tau = mpq(res["source"]["tau"])
    assert mpq(res["coupling"]) == 1 - (1 - tau) ** 4          # Coupling A: 2C draws
    assert {tuple(n["node"]) for n in res["nodes"]} >= {(2,), (1,), (0,)}


# ---- the auditor's limits at their edge: target-zero ---------------------------------------


@pytest.mark.parametrize("scale_bits, width", [(1, 1), (60, 1), (64, 1), (65, 2), (320, 2), (600, 4), (4096, 17)])
def test_wider_lines_cost_more_on_both_sides(scale_bits, width):
    """Lines at the fixed point 2^b have wider packed fields (measured: about (b + 200)/260 of the b = 60
    time), so the work counts ⌈(b + 192)/256⌉ per unit, the same on both sides."""
    from auditor.checks import calibration_lower as audit
    from auditor.outcomes import Unchecked
    from producer.lower.auditability import target_zero_cost
    cert = json.loads((ROOT / "certificates" / "slow" / "calibration-lower-target-zero-c8.json").read_text())
    inp, res = dict(cert["input"], scale_bits=scale_bits), cert["result"]
    base = len(res["nodes"]) * inp["grid_count"] * (2 * inp["radius"] + 2)
    assert audit._line_work(inp, res) == width * base
    assert target_zero_cost(len(res["nodes"]), inp["grid_count"], inp["radius"], scale_bits).work == 70 * width * base
    if width * base > audit.MAX_LINE_WORK:
        with pytest.raises(Unchecked, match="line-tree work"):
            audit.estimate(dict(cert, input=inp))
    else:
        assert audit.estimate(dict(cert, input=inp)).work == 70 * width * base


def test_target_zero_line_work_limit_is_the_auditors():
    """The auditor's own line limit (3·10⁹) and, before it, its budget of one file: 70 × nodes × priors ×
    (2L + 2) work units and 3/2 byte a unit, so 857,142,857 units fit one budget; the C = 16 tree at 20001
    priors (2.96·10⁹ units) needs four, which the producer writes and says."""
    from auditor.checks.calibration_lower import MAX_LINE_WORK
    from producer.audit_budget import AuditCost, multiple
    from producer.lower.auditability import target_zero_cost
    assert 2553 * 20001 * 58 <= MAX_LINE_WORK < 2553 * 20001 * 62
    with pytest.raises(LimitError, match="auditor"):
        cl._check_line_work(2553, 20001, 30)             # 3.17·10⁹: beyond the line limit
    cl._check_line_work(2553, 20001, 28)                 # C = 16, radius 28: 2.96·10⁹ <= 3·10⁹
    assert multiple(target_zero_cost(2553, 20001, 28)) == 4
    inside, beyond = target_zero_cost(1, 428571428, 0), target_zero_cost(1, 428571429, 0)   # 2 outputs a prior
    assert (inside.work, inside.memory) == (59999999920, 1285714284) and multiple(inside) == 1
    assert beyond.work == 60000000060 and multiple(beyond) == 2
    with pytest.raises(LimitError, match=r"^priors: the auditor's estimate for the line tree .* needs 9 times"):
        cl._check_line_work(2553, 20001, 28, spent=AuditCost(5 * 6 * 10**10))   # an embedding bracket's upper end


def test_target_zero_beyond_the_line_work_limit_is_refused(tmp_path):
    refused(["calibrate-lower", "--claim", "target-zero", "--budget", 16, "--priors", 20001, "--radius", 30],
             tmp_path / "beyond.json", "line-tree")


# ---- the auditor's limits at their edge: capped-preparation --------------------------------


def _capped(cap):
    from producer.kinds import calibration_lower as cl
    fields = dict(cl.K2, cap=cap, horizon=cap + 5)
    return lambda: cl.build(cl.Request.of(fields.pop("claim"), **fields))


def test_capped_preparation_at_the_digit_limit_verifies_and_beyond_is_refused(tmp_path):
    # the line's numbers are bounded before the work: with K.2's source, cap 75 (T = 80) is the last within
    # the reader's 10,000 digits (docs/lower-certificates.md §3.1)
    built_edge_verifies(_capped(75), tmp_path / "edge.json")
    built_refused(_capped(76), "reader limit of 10000")


def test_capped_preparation_work_estimate_is_the_auditors():
    from producer.kinds.calibration_lower import MAX_CAPPED_WORK, capped_work
    from auditor.checks import calibration_lower as audit
    assert MAX_CAPPED_WORK == audit.MAX_CAPPED_WORK
    cert = json.loads((ROOT / "certificates" / "calibration-lower-k2-capped-c4.json").read_text())
    inp, res = cert["input"], cert["result"]
    window = res["window"]["high"] - res["window"]["low"] + 1
    for cap in (29, 600, 3000, 29000):
        changed = dict(inp, cap=cap)
        assert (capped_work(cap, window, inp["radius"], len(inp["signs"]), 2, int(inp["scale"]))
                == audit._capped_work(changed, res, 2, int(inp["scale"])))


# ---- budgets beyond 24: the wide grid -------------------------------------------------------


def test_the_default_program_keeps_the_published_grid_up_to_32_and_shifts_it_beyond():
    for C in (1, 8, 16, 24, 32):
        assert cl.target_program(C) == dict(cl.TARGET_C8, budget=C)   # the references' bytes stay
    wide = cl.target_program(33)
    assert wide["grid_first"] == mpq(1, 10 ** 6) and wide["budget"] == 33
    assert {k: v for k, v in wide.items() if k not in ("grid_first", "budget")} == \
        {k: v for k, v in cl.TARGET_C8.items() if k not in ("grid_first", "budget")}


def test_the_cli_defaults_follow_the_budget():
    assert cl.Request.from_strings("target-zero", budget="64").grid_first == mpq(1, 10 ** 6)
    assert cl.Request.from_strings("target-zero", budget="32").grid_first == mpq(1, 10 ** 10)
    assert cl.Request.from_strings("target-zero").budget == 8


def test_budgets_up_to_64_are_accepted_and_beyond_refused():
    fields = cl.target_program(64)
    fields.pop("claim")
    assert cl.Request.of("target-zero", **fields).budget == 64
    with pytest.raises(LimitError, match="C <= 64"):
        cl.Request.of("target-zero", **dict(fields, budget=65))


def test_the_c64_tree_is_within_the_auditors_line_work():
    """nodes × priors × (2L + 2) at C = 64 with the default program (the tree's nodes only, no lines): within
    the auditor's line limit, and three budgets of one file by itself (its memory; four with the hierarchy's
    upper end of the bracket, docs/certificates.md)."""
    from auditor.checks.calibration_lower import MAX_LINE_WORK
    from producer.audit_budget import multiple
    from producer.lower.auditability import target_zero_cost
    from producer.sources.discrete_gaussian import DiscreteGaussianSource
    fields = cl.target_program(64)
    source = DiscreteGaussianSource.from_radius_scale(fields["sigma2"], fields["radius"], fields["scale"])
    grid = tl.Grid(fields["grid_first"], fields["grid_ratio"], fields["grid_count"])
    game = tl.TargetZeroGame(source.law, Gamma(1, 3), 64, grid, fields["scale_bits"])
    work = len(game.nodes) * fields["grid_count"] * (2 * fields["radius"] + 2)
    assert len(game.nodes) == 10473 and work <= MAX_LINE_WORK
    cl._check_line_work(len(game.nodes), fields["grid_count"], fields["radius"])
    assert multiple(target_zero_cost(len(game.nodes), fields["grid_count"], fields["radius"])) == 3


# ---- the auditor's budget of one file ---------------------------------------------------------------

def _target_zero(budget, priors=4001):
    fields = dict(cl.target_program(budget), grid_count=priors)
    return cl.Request.of(fields.pop("claim"), **fields)


def test_target_zero_needs_the_budget_the_producer_states(monkeypatch):
    """Both halves' budget scaled down to just below a C = 2 tree's estimate: the producer writes it, its
    notice names --budget 2, and that is the least budget the auditor checks it at."""
    cert = cl.build(_target_zero(2))
    cost = cl.auditor_cost(cert)
    scaled_budget(monkeypatch, cost.work - 1)
    from producer.api import Certificate
    written = Certificate(cl.build(_target_zero(2)))
    assert written.auditor_budget == 2 and "`auditor verify --budget 2`" in written.notice
    least_auditor_budget(written.as_dict(), 2)
    scaled_budget(monkeypatch, cost.work)
    assert Certificate(cert).auditor_budget == 1 and Certificate(cert).notice is None


def test_target_zero_beyond_eight_budgets_is_refused_before_the_lines(monkeypatch):
    cost = cl.auditor_cost(cl.build(_target_zero(2)))
    scaled_budget(monkeypatch, cost.work // 8 - 1)

    def never(*args, **kwargs):
        raise AssertionError("the lines were computed")
    monkeypatch.setattr(tl.TargetZeroGame, "choose", never)
    with pytest.raises(LimitError, match=r"^priors: the auditor's estimate for the line tree .* needs 9 times") as info:
        cl.build(_target_zero(2))
    assert "\n" not in str(info.value) and "fewer priors" in str(info.value)


def test_capped_preparation_is_within_one_budget():
    """1200 × its work, whose own limit 5·10⁷ is one whole budget: never more than one."""
    from producer.audit_budget import multiple
    from producer.lower.auditability import capped_cost
    assert multiple(capped_cost(cl.MAX_CAPPED_WORK)) == 1 and multiple(capped_cost(cl.MAX_CAPPED_WORK + 1)) == 2


@pytest.mark.slow
def test_target_zero_at_the_budgets_edge_verifies_and_one_prior_beyond_needs_two(tmp_path):
    """C = 16 (2553 nodes, 58 outputs): 5788 priors are 857,052,312 units (5.9994·10¹⁰ work units), within
    one budget: the plain auditor checks it (about a minute); 5789 are 857,200,386 (6.0004·10¹⁰): two."""
    from producer.lower.auditability import target_zero_cost
    from producer.audit_budget import multiple
    assert multiple(target_zero_cost(2553, 5788, 28)) == 1 < multiple(target_zero_cost(2553, 5789, 28)) == 2
    built_edge_verifies(lambda: cl.build(_target_zero(16, 5788)), tmp_path / "inside.json")


def test_the_float_phase_takes_masses_of_a_denominator_beyond_the_float_range():
    """D beyond a float (a source scale of 2^1100 is within the limits): the masses' hints are correctly
    rounded quotients, as close to the same law's at a small scale as floats allow (was an OverflowError)."""
    huge = 2 ** 1100
    grid = tl.Grid(mpq(1, 100), mpq(3, 2), 25)
    small = tl.TargetZeroGame(FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 2, grid, scale_bits=20).choose()
    scaled = tl.TargetZeroGame(FiniteLaw([huge, 2 * huge, huge], -1), Gamma(1, 3), 2, grid, scale_bits=20).choose()
    for a, b in zip(small, scaled):
        assert max(abs(x - y) for x, y in zip(a, b)) < 1e-12
