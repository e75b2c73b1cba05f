"""auditor.checks.calibration_lower: K.2 and a small target-{0} line tree verify; mutations,
drops, swaps and versions are rejected; the killed chain and the line rebuild agree with brute force."""

import copy
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings, strategies as st

from auditor.checks.calibration_lower import first_hit
from auditor.lower.lines import LineTree, PackedLines, Shifts
from auditor.report import Report
from auditor.lower.waiting import window_rows
from auditor.game.rows import Law
from tests.auditor.lower_corpus import (get_at, number_leaves, nudged, pointers, produce, run, sample_paths,
                                        seal, with_mutation)


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    return produce(tmp_path_factory, "k2", "calibrate-lower", "--claim", "capped-preparation", "--quiet")


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    return produce(tmp_path_factory, "tz", "calibrate-lower", "--claim", "target-zero", "--budget", "2",
                   "--priors", "4001", "--radius", "10", "--scale", str(2 ** 40), "--sigma2", "1",
                   "--delta", "1/1000", "--quiet")


def test_k2_reference_verifies_and_beats_the_published_digits(tmp_path, capped):
    status, report = run(tmp_path, capped)
    assert status == 0, report.failures
    assert Fraction(capped["result"]["epsilon_lower"]) >= Fraction("14.6432794761")


def test_small_line_tree_verifies(tmp_path, lines):
    status, report = run(tmp_path, lines)
    assert status == 0, report.failures
    assert Fraction(lines["result"]["epsilon_lower"]) > 0


def _claims(cert):
    """Every number but the node labels (a relabelled node that the exact rebuild never reaches
    changes nothing; a reached one is caught as a missing child)."""
    return [p for p, _ in number_leaves(cert) if "node" not in p]


@pytest.mark.parametrize("which,limit", [("capped", 30), pytest.param("lines", 12, marks=pytest.mark.slow)])
def test_every_number_mutated_is_rejected(tmp_path, capped, lines, which, limit):
    """Each number moved both ways by about 2%: at least the unsafe direction is rejected."""
    cert = {"capped": capped, "lines": lines}[which]
    accepted = []
    for path in sample_paths(_claims(cert), limit):
        value = get_at(cert, path)
        statuses = {run(tmp_path, with_mutation(cert, path, nudged(value, s)))[0] for s in (+1, -1)}
        if not statuses & {1, 2}:
            accepted.append(path)
    assert accepted == []


def test_changed_action_is_rejected(tmp_path, lines):
    bad = copy.deepcopy(lines)
    node = next(n for n in bad["result"]["nodes"] if n["node"] == [2])
    node["actions"] = f"y{bad['input']['grid_count']}"   # reject at the root (a sign flip is only a mirror)
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/root/a" in pointers(report)


def test_illegal_action_is_rejected(tmp_path, lines):
    bad = copy.deepcopy(lines)
    node = next(n for n in bad["result"]["nodes"] if n["node"] == [2])
    node["actions"] = node["actions"].replace("+", "e").replace("-", "e")
    status, report = run(tmp_path, seal(bad))
    assert status == 1


def test_dropped_node_is_rejected(tmp_path, lines):
    bad = copy.deepcopy(lines)
    bad["result"]["nodes"] = [n for n in bad["result"]["nodes"] if len(n["node"]) != 3 or n["node"][0] != 1][:]
    status, _ = run(tmp_path, seal(bad))
    assert status in (1, 2)


def test_swapped_line_coordinates_are_rejected(tmp_path, capped):
    bad = copy.deepcopy(capped)
    res = bad["result"]
    res["p_lower"], res["q_upper"] = res["q_upper"], res["p_lower"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/p_lower" in pointers(report)


def test_overstated_epsilon_is_rejected(tmp_path, capped):
    bad = copy.deepcopy(capped)
    bad["result"]["epsilon_lower"] = "15"
    bad["result"]["epsilon_lower_display"] = "15.000000000000"
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/epsilon_lower" in pointers(report)


def test_signs_beyond_the_budget_are_an_illegal_program(tmp_path, capped):
    """The suffix participates more often than C allows: not a program of the question, FAIL."""
    bad = copy.deepcopy(capped)
    bad["input"]["budget"] = sum(1 for j in capped["input"]["signs"] if j) - 1
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/input/signs" in pointers(report)


def test_horizon_shorter_than_the_program_is_rejected(tmp_path, capped):
    bad = copy.deepcopy(capped)
    bad["input"]["horizon"] = capped["input"]["cap"] + len(capped["input"]["signs"]) - 1
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/input/horizon" in pointers(report)


def test_other_target_is_rejected(tmp_path, capped):
    """The hit probability is that of reaching input.target from 0."""
    bad = copy.deepcopy(capped)
    bad["input"]["target"] = capped["input"]["target"] - 1
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/hit" in pointers(report)


def test_smaller_budget_of_the_lines_is_rejected(tmp_path, lines):
    """The line tree's root is [C]: with a smaller C its lines use participations the question lacks."""
    bad = copy.deepcopy(lines)
    bad["input"]["budget"] = lines["input"]["budget"] - 1
    status, _ = run(tmp_path, seal(bad))
    assert status in (1, 2)


def test_wrong_version_is_malformed(tmp_path, capped):
    bad = copy.deepcopy(capped)
    bad["schema"] = "calibration-lower/2"
    assert run(tmp_path, seal(bad))[0] == 2


def test_reference_size_line_tree_is_unchecked(tmp_path, lines):
    """A line tree beyond the pure-Python limit is refused before any work (exit 3)."""
    bad = copy.deepcopy(lines)
    bad["input"]["grid_count"] = 10 ** 7
    status, report = run(tmp_path, seal(bad))
    assert status == 3 and "line-tree work" in report.unchecked


def test_a_long_wait_is_unchecked_before_its_chain_is_run(tmp_path, capped):
    """The chain's masses after t releases are over D^t, so its work grows like cap²: a cap of 5,000
    (over a minute of big-integer products, though only 3·10^6 by a count of releases × states × outputs)
    is refused before any work (exit 3)."""
    bad = copy.deepcopy(capped)
    bad["input"]["cap"] = 5000
    bad["input"]["horizon"] = 5000 + len(capped["input"]["signs"])
    status, report = run(tmp_path, seal(bad))
    assert status == 3 and "estimated work" in report.unchecked


# ---------------------------------------------------------------- brute force

def test_packed_ranges_equal_memoised_lines(lines):
    """The packed range computation and the line-by-line memoised recursion give the same root line."""
    inp, res = lines["input"], lines["result"]
    src = res["source"]
    g = Fraction(inp["gamma"])
    law = Law([int(w) for w in src["weights"]], -inp["radius"], g.numerator, g.denominator)
    n, beta, bits = inp["grid_count"], Fraction(inp["grid_ratio"]), inp["scale_bits"]
    root = (inp["budget"],)
    packed = PackedLines(law, res["nodes"], n, beta, bits, Report("p"))
    memo = LineTree(law, res["nodes"], n, beta, bits, Report("m"))
    for index in (0, n // 3, res["root"]["index"], n - 1):
        assert PackedLines(law, res["nodes"], n, beta, bits, Report("p")).rebuild(root, index) == \
            memo.line(root, index)
    assert packed.rebuild(root, res["root"]["index"]) == (int(res["root"]["a"]), int(res["root"]["c"]))


@settings(max_examples=30)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.integers(0, 4), st.integers(-2, 2),
       st.integers(-2, 2))
def test_first_hit_equals_path_enumeration(weights, cap, start, target):
    if not any(weights):
        weights[0] = 1
    offset = -(len(weights) // 2)
    law = Law(weights, offset, 1, 2)
    low, high = -6, 6
    rows, escapes = window_rows(law, low, high)
    if escapes:
        return
    S = sum(weights)
    draws = [(offset + i, w, U) for i, w in enumerate(weights) if w for U in range(2)]
    total = Fraction(1) if start == target else Fraction(0)
    if start != target:
        for path in product(draws, repeat=cap):
            K, mass, hit = start, Fraction(1), False
            for eta, w, U in path:
                K = eta - (K + U) // 2
                mass *= Fraction(w, 2 * S)
                hit = hit or K == target
            if hit:
                total += mass
    assert first_hit(rows, law.D, low, start, target, cap) == total


@given(st.fractions(min_value=Fraction(1, 1000), max_value=1000, max_denominator=1000))
def test_snapping_shift_is_nearest_in_log_scale(c):
    """β^s is the grid point nearest to c in log scale (ties down): β^{2s−1} < c² <= β^{2s+1}."""
    beta, n = Fraction(87, 86), 1000
    s = Shifts(beta, n).shift(c)
    assert beta ** (2 * s - 1) < c * c <= beta ** (2 * s + 1)


@pytest.mark.slow
@pytest.mark.parametrize("budget,published", [(8, "4.833477"), (16, "7.486700")])
def test_published_target_zero_lower_ends(tmp_path_factory, tmp_path, budget, published):
    """The reference line trees (4001 geometric priors) verify and beat the published lower ends."""
    cert = produce(tmp_path_factory, f"tz{budget}", "calibrate-lower", "--claim", "target-zero",
                   "--budget", str(budget), "--quiet")
    status, report = run(tmp_path, cert)
    assert status == 0, report.failures
    assert Fraction(cert["result"]["epsilon_lower"]) > Fraction(published)
