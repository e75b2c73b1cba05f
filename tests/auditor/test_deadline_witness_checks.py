"""auditor.checks.deadline_witness: valid certificates pass, every mutation is rejected.

The exact suffix sums and the waiting recursion are compared with a literal
enumeration of the hidden draws (η, U) of complete transcripts on tiny laws.
"""

import copy
from fractions import Fraction
from itertools import product
from math import gcd

import pytest
from hypothesis import given, strategies as st

from auditor.checks.deadline_witness import MAX_WORK, RATIO_PLACES, estimated_work
from auditor.lower.display import UP, outward_decimal
from auditor.lower.suffix import SuffixTests, brute_force
from auditor.lower.waiting import Waiting, window_rows
from auditor.game.rows import Law
from tests.auditor.lower_corpus import (get_at, number_leaves, pointers, produce, reseal, run, seal,
                                        with_mutation)

PUBLISHED_UPPER = "0.000084311988530665157923"


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return produce(tmp_path_factory, "small", "deadline", "--gamma", "1/3", "--sigma2", "1", "--budget", "2",
                   "--epsilon", "1/2", "--radius", "3", "--scale", "1000", "--threshold-denominator", "1000",
                   "--deadline", "3", "--deadline", "5", "--reading", "max", "--reference", "--quiet")


@pytest.fixture(scope="module")
def other_epsilon(tmp_path_factory):
    """A valid dg-interval/1 of the small certificate's mechanism and source, but for ε = 1."""
    return produce(tmp_path_factory, "other", "dg", "--gamma", "1/3", "--sigma2", "1", "--budget", "2",
                   "--epsilon", "1", "--radius", "3", "--scale", "1000", "--quiet")


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    return produce(tmp_path_factory, "published", "deadline", "--gamma", "1/3", "--sigma2", "9",
                   "--budget", "2", "--epsilon", "2", "--radius", "24", "--scale", "1e24", "--deadline", "3",
                   "--deadline", "44", "--deadline", "100", "--reference", "--quiet")


def test_small_certificate_verifies(tmp_path, small):
    status, report = run(tmp_path, small)
    assert status == 0, report.failures


def test_published_values_are_proved(tmp_path, published):
    """The auditor accepts the T = 3, 44, 100 witnesses, and each proved LB_T is >= the published digits."""
    status, report = run(tmp_path, published)
    assert status == 0, report.failures
    claimed = {T: Fraction(d["lower"]) for T, d in zip(published["input"]["deadlines"],
                                                         published["result"]["deadlines"])}
    reference_upper = Fraction(published["result"]["reference"]["result"]["interval"]["upper"])
    assert reference_upper <= Fraction(PUBLISHED_UPPER)
    assert claimed[3] >= Fraction("0.000082848959100245135254")
    assert claimed[44] >= Fraction("0.000084231758498895252560")
    assert claimed[100] >= Fraction("0.000084311323694656676833")
    assert claimed[44] / Fraction(PUBLISHED_UPPER) >= Fraction("0.999048414903")


def test_every_number_mutated_is_rejected(tmp_path, small):
    """Every number but the entries of patterns no state chooses (changing those keeps the claims true)."""
    chosen = {e["pattern"] for e in small["result"]["suffix"]}
    leaves = [path for path, _ in number_leaves(small)
              if not (path[:2] == ("input", "patterns") and path[2] not in chosen)]
    assert len(leaves) > 60
    accepted = []
    for path in leaves:
        status, _ = run(tmp_path, with_mutation(small, path))
        if status not in (1, 2):
            accepted.append(path)
    assert accepted == []


def _without_reference(cert):
    bad = copy.deepcopy(cert)
    bad["input"]["reference"] = False
    bad["result"]["reference"] = None
    for entry in bad["result"]["deadlines"]:
        entry["ratio_display"] = None
    return seal(bad)


def test_certificate_without_reference_verifies(tmp_path, small):
    status, report = run(tmp_path, _without_reference(small))
    assert status == 0, report.failures


def test_pattern_beyond_the_budget_is_an_illegal_program(tmp_path, small):
    """With C = 1 a pattern of two nonzero signs participates twice: not a program of the question."""
    bad = _without_reference(small)
    bad["input"]["budget"] = 1
    status, report = run(tmp_path, seal(bad))
    over = {f"/input/patterns/{i}" for i, p in enumerate(small["input"]["patterns"]) if sum(map(abs, p)) > 1}
    assert status == 1 and over and over <= pointers(report)


def test_reference_for_another_question_is_rejected(tmp_path, small, other_epsilon):
    """A valid dg-interval/1 for ε = 1 bounds another question: FAIL, though it verifies on its own."""
    status, _ = run(tmp_path, other_epsilon, "other.json")
    assert status == 0
    bad = copy.deepcopy(small)
    bad["result"]["reference"] = other_epsilon
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/reference/input/epsilon" in pointers(report)


@pytest.mark.parametrize("key, value", [("budget", 3), ("method", "enumerate")])
def test_reference_input_changed_is_rejected(tmp_path, small, key, value):
    bad = copy.deepcopy(small)
    bad["result"]["reference"]["input"][key] = value
    status, report = run(tmp_path, reseal(bad))
    assert status in (1, 2) and (status == 2 or f"/result/reference/input/{key}" in pointers(report))


def test_missing_or_unasked_reference_is_malformed(tmp_path, small):
    """The schema ties result.reference to input.reference (a certificate or null)."""
    missing = copy.deepcopy(small)
    missing["result"]["reference"] = None
    assert run(tmp_path, seal(missing))[0] == 2
    unasked = copy.deepcopy(small)
    unasked["input"]["reference"] = False
    assert run(tmp_path, seal(unasked))[0] == 2


def test_ratio_without_reference_is_rejected(tmp_path, small):
    bad = _without_reference(small)
    bad["result"]["deadlines"][0]["ratio_display"] = small["result"]["deadlines"][0]["ratio_display"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/deadlines/0/ratio_display" in pointers(report)


def test_wrong_ratio_display_is_rejected(tmp_path, small):
    bad = copy.deepcopy(small)
    entry = bad["result"]["deadlines"][0]
    upper = Fraction(small["result"]["reference"]["result"]["interval"]["upper"])
    ratio = Fraction(entry["lower"]) / upper
    entry["ratio_display"] = outward_decimal(ratio, RATIO_PLACES, UP)   # rounded up: claims too much
    assert entry["ratio_display"] != small["result"]["deadlines"][0]["ratio_display"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/deadlines/0/ratio_display" in pointers(report)


def test_lower_end_above_the_reference_upper_end_fails(tmp_path, small, monkeypatch):
    """Were a verified reference's upper end below a proved lower end, one of them would be false: FAIL."""
    import auditor.checks.deadline_witness as checks
    lowest = min(Fraction(d["lower"]) for d in small["result"]["deadlines"])
    monkeypatch.setattr(checks, "verify_privacy_bound", lambda *args: lowest / 2)
    status, report = run(tmp_path, small)
    assert status == 1 and "/result/deadlines/0/lower" in pointers(report)


def test_stopping_decision_flip_is_rejected(tmp_path, small):
    bad = copy.deepcopy(small)
    row = bad["result"]["stopping"][0]
    bad["result"]["stopping"][0] = ("W" if row[0] == "S" else "S") + row[1:]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/stopping/0" in pointers(report)


@pytest.mark.parametrize("path", [("result", "suffix"), ("result", "stopping"), ("result", "deadlines"),
                                  ("result", "source", "weights")])
def test_dropped_entries_are_rejected(tmp_path, small, path):
    bad = copy.deepcopy(small)
    get_at(bad, path).pop()
    status, _ = run(tmp_path, seal(bad))
    assert status in (1, 2)


def test_swapped_threshold_bounds_are_rejected(tmp_path, small):
    bad = copy.deepcopy(small)
    th = bad["result"]["threshold"]
    th["lower"], th["upper"] = th["upper"], th["lower"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/threshold/lower" in pointers(report)


def test_swapped_event_probabilities_are_rejected(tmp_path, small):
    bad = copy.deepcopy(small)
    entry = bad["result"]["deadlines"][0]
    entry["p"], entry["q"] = entry["q"], entry["p"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/deadlines/0/p" in pointers(report)


def test_overstated_lower_bound_is_rejected(tmp_path, small):
    bad = copy.deepcopy(small)
    entry = bad["result"]["deadlines"][1]
    entry["lower"] = entry["payoff"]   # forgetting the coupling charge claims too much
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/deadlines/1/lower" in pointers(report)


def test_wrong_version_is_malformed(tmp_path, small):
    bad = copy.deepcopy(small)
    bad["schema"] = "deadline-witness/2"
    status, _ = run(tmp_path, seal(bad))
    assert status == 2


def test_deadline_shorter_than_the_suffix_is_malformed(tmp_path, small):
    bad = copy.deepcopy(small)
    bad["input"]["deadlines"] = [2, 5]
    status, _ = run(tmp_path, seal(bad))
    assert status == 2


def test_huge_horizon_is_unchecked_before_work(tmp_path, small):
    bad = copy.deepcopy(small)
    bad["input"]["deadlines"] = [3, 10 ** 7]
    status, report = run(tmp_path, seal(bad))
    assert status == 3 and "exceeds the limit" in report.unchecked


def test_reference_estimate_is_far_below_the_limit():
    assert estimated_work(3, 24, 10 ** 24, 73, [(1, 1, 0)] * 4, 100) < MAX_WORK // 50


# ---------------------------------------------------------------- brute force

def literal_transcripts(weights, offset, a, B, k, pattern):
    """Transcript laws of the suffix by enumerating every (η, U) of both worlds literally.

    World P gets inputs x^P_t = j_t, world Q x^Q_t = 0; both start in hidden state k;
    the public output is Y_t = x_t + K_t with K_t = η_t − floor((a·K_{t−1} + U_t)/B).
    """
    S = sum(weights)
    draws = [(offset + i, w, U) for i, w in enumerate(weights) if w for U in range(B)]

    def law(inputs):
        out = {}
        for path in product(draws, repeat=len(pattern)):
            K, mass, ys = k, Fraction(1), []
            for (eta, w, U), x in zip(path, inputs):
                K = eta - (a * K + U) // B
                mass *= Fraction(w, S * B)
                ys.append(x + K)
            out[tuple(ys)] = out.get(tuple(ys), 0) + mass
        return out
    return law(pattern), law([0] * len(pattern))


@st.composite
def tiny_laws(draw):
    B = draw(st.integers(2, 4))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    weights = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    if not any(weights):
        weights[0] = 1
    return weights, draw(st.integers(-2, 1)), a, B


@given(tiny_laws(), st.integers(-4, 4),
       st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=3),
       st.fractions(min_value=0, max_value=3, max_denominator=7))
def test_suffix_sums_equal_literal_enumeration(law_params, k, pattern, lam):
    weights, offset, a, B = law_params
    P, Q = literal_transcripts(weights, offset, a, B, k, pattern)
    h = sum(max(P.get(o, 0) - lam * Q.get(o, 0), 0) for o in set(P) | set(Q))
    accepted = [o for o in P if P[o] > lam * Q.get(o, 0)]
    p = sum((P[o] for o in accepted), Fraction(0))
    q = sum((Q.get(o, Fraction(0)) for o in accepted), Fraction(0))
    law = Law(weights, offset, a, B)
    assert SuffixTests(law, lam).values(k, pattern) == (h, p, q)
    assert brute_force(law, k, pattern, lam) == (h, p, q)


@given(tiny_laws(), st.integers(0, 3), st.fractions(min_value=0, max_value=2, max_denominator=5))
def test_waiting_recursion_equals_literal_program(law_params, waits, lam):
    """P_s(0), Q_s(0) of the stopping program == literal enumeration of the waiting draws."""
    weights, offset, a, B = law_params
    law = Law(weights, offset, a, B)
    low, high = _invariant_window(law)
    rows, escapes = window_rows(law, low, high)
    assert escapes == []
    pattern = (1, 0)
    tests = SuffixTests(law, lam)
    Dm = law.D ** 2
    pq = [tests.numerators(k, pattern) for k in range(low, high + 1)]
    steps = list(Waiting(law, rows, [x for x, _ in pq], [y for _, y in pq], lam).steps(waits))
    tables = [chars for _, chars, _, _ in steps]
    _, _, P, Q = steps[-1]
    scale = law.D ** (2 + waits)
    got = (Fraction(P[-low], scale), Fraction(Q[-low], scale))

    # literal program: wait with common zero inputs, stop by the table, run the suffix test
    S = sum(weights)
    draws = [(offset + i, w, U) for i, w in enumerate(weights) if w for U in range(B)]

    def program(k, s):
        if s == 0 or tables[s][k - low] == "S":
            p, q = pq[k - low]
            return Fraction(p, Dm), Fraction(q, Dm)
        tp = tq = Fraction(0)
        for eta, w, U in draws:
            p, q = program(eta - (a * k + U) // B, s - 1)
            tp += Fraction(w, S * B) * p
            tq += Fraction(w, S * B) * q
        return tp, tq
    assert got == program(0, waits)


def _invariant_window(law):
    low = high = 0
    while True:
        reach = [n for k in range(low, high + 1) for n in law.row(k)]
        new_low, new_high = min(reach + [low]), max(reach + [high])
        if (new_low, new_high) == (low, high):
            return low, high
        low, high = new_low, new_high


def test_translation_lemma_on_rows():
    """row_{k+B}(n) = row_k(n + a), the fact behind sharing experiments between prefixes."""
    law = Law([1, 2, 0, 3], -2, 2, 5)
    for k in range(-12, 12):
        shifted = law.row(k + 5)
        assert shifted == {n - 2: v for n, v in law.row(k).items()}
