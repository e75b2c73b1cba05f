"""Finite-deadline witnesses: fast tables against brute force, published digits.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.1 and Appendix D.1.)
"""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer import api as producer_api
from producer.cli import main as producer_main
from producer.errors import InputError
from producer.laws import FiniteLaw, Gamma
from producer.kinds import deadline_witness as dw
from producer.lower.suffix import RowCache, SuffixTest
from producer.lower.waiting import StartTable, invariant_window, run_waiting
from tests.producer.kinds.edges import edge_verifies, refused

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "deadline-witness-1.schema.json").read_text())
PUBLISHED_UPPER = mpq(84311988530665157923, 10**24)  # the published upper end of Δ*_2(2) (B.7)


def row_mass(law, gamma, k, n):
    """row_k(n) by counting hidden draws U (docs/mechanism.md §2), as an exact rational."""
    total = mpq(0)
    for u in range(gamma.B):
        h = (gamma.a * k + u) // gamma.B
        total += mpq(law.weight(n + h), law.total * gamma.B)
    return total


def brute_suffix(law, gamma, k, pattern, lam):
    """Σ_o max(P − λQ, 0), P(A), Q(A) by enumerating every transcript."""
    outs = range(law.low - 3 * (abs(k) + 3), law.high + 3 * (abs(k) + 3))
    h = p_a = q_a = mpq(0)

    def walk(kp, kq, mp, mq, step):
        nonlocal h, p_a, q_a
        if step == len(pattern):
            if mp > lam * mq:
                h += mp - lam * mq
                p_a += mp
                q_a += mq
            return
        j = pattern[step]
        for y in outs:
            a, b = row_mass(law, gamma, kp, y - j), row_mass(law, gamma, kq, y)
            if a or b:
                walk(y - j, y, mp * a, mq * b, step + 1)

    walk(k, k, mpq(1), mpq(1), 0)
    return h, p_a, q_a


laws = st.lists(st.integers(0, 4), min_size=2, max_size=4).filter(lambda w: sum(w) > 0)
gammas = st.sampled_from([Gamma(1, 2), Gamma(1, 3), Gamma(2, 3)])
patterns = st.lists(st.sampled_from([-1, 0, 1]), min_size=1, max_size=2).map(lambda p: tuple(p) + (0,))


@settings(max_examples=25, deadline=None)
@given(laws, gammas, patterns, st.integers(-3, 3), st.sampled_from([mpq(1, 2), mpq(1), mpq(3)]))
def test_suffix_test_matches_enumeration(weights, gamma, pattern, k, lam):
    law = FiniteLaw(weights, -(len(weights) // 2))
    rows = RowCache(law, gamma)
    p, q = SuffixTest(rows, pattern, lam.numerator, lam.denominator).evaluate(k)
    scale = rows.denominator ** len(pattern)
    h, p_a, q_a = brute_suffix(law, gamma, k, pattern, lam)
    assert (mpq(p, scale), mpq(q, scale)) == (p_a, q_a)
    assert mpq(p, scale) - lam * mpq(q, scale) == h


@settings(max_examples=15, deadline=None)
@given(laws, gammas, st.integers(-2, 2))
def test_suffix_has_period_B_to_the_m(weights, gamma, k):
    law = FiniteLaw(weights, -(len(weights) // 2))
    rows = RowCache(law, gamma)
    test = SuffixTest(rows, (1, -1, 0), 2, 1)
    assert test.evaluate(k) == test.evaluate(k + gamma.B ** 3)


def brute_program(law, gamma, tests, lam, waits, k, h_of):
    """(P(A), Q(A)) of the optimal stopping program by direct recursion on rationals."""
    if waits == 0:
        return tests(k)
    cont_p = cont_q = mpq(0)
    for n in range(law.low - 10, law.high + 10):
        w = row_mass(law, gamma, k, n)
        if w:
            p, q = brute_program(law, gamma, tests, lam, waits - 1, n, h_of)
            cont_p += w * p
            cont_q += w * q
    sp, sq = tests(k)
    if sp - lam * sq >= cont_p - lam * cont_q:
        return sp, sq
    return cont_p, cont_q


@settings(max_examples=10, deadline=None)
@given(laws, gammas, st.integers(1, 3))
def test_waiting_recursion_matches_direct_recursion(weights, gamma, waits):
    law = FiniteLaw(weights, -(len(weights) // 2))
    lam = mpq(3, 2)
    rows = RowCache(law, gamma)
    low, high = invariant_window(rows, 0)
    test = SuffixTest(rows, (1, 1, 0), lam.numerator, lam.denominator)
    dm = rows.denominator ** 3
    pq = {k: test.evaluate(k) for k in range(low, high + 1)}
    start = StartTable(low, high, [pq[k][0] for k in range(low, high + 1)],
                       [pq[k][1] for k in range(low, high + 1)], lam.numerator, lam.denominator)
    _, layers = run_waiting(rows, start, waits)
    P, Q, _ = layers[waits]
    scale = rows.denominator ** (3 + waits)
    expected = brute_program(law, gamma, lambda k: (mpq(pq[k][0], dm), mpq(pq[k][1], dm)),
                             lam, waits, 0, None)
    assert (mpq(P[-low], scale), mpq(Q[-low], scale)) == expected


def published_request(patterns):
    return dw.Request("1/3", 9, 2, 2, 24, mpz(10) ** 24, mpz(10) ** 30, patterns, [3, 44, 100],
                              reference=True)


def by_deadline(cert):
    return dict(zip(cert["input"]["deadlines"], cert["result"]["deadlines"]))


def truncate(display, places):
    whole, frac = display.split(".")
    return f"{whole}.{frac[:places]}"


def test_published_deadline_lower_bounds_every_digit():
    cert = dw.build(published_request(dw.FIXED))
    jsonschema.validate(cert, SCHEMA)
    rows = by_deadline(cert)
    # the embedded reference is the dg-interval of Δ*_2(2) at L = 24, S = 10^24; its upper end is within
    # 10^-22 of the published one, so the published 12-digit ratios are reproduced
    upper = mpq(cert["result"]["reference"]["result"]["interval"]["upper"])
    assert abs(upper - PUBLISHED_UPPER) < mpq(1, 10 ** 22)
    published = {3: ("0.000082848959100245135254", "0.982647432993"),
                 44: ("0.000084231758498895252560", "0.999048414903"),
                 100: ("0.000084311323694656676833", "0.999992114573")}
    for T, (lower, ratio) in published.items():
        # both displays are rounded down, so truncation must reproduce the printed digits
        assert truncate(rows[T]["lower_display"], 24) == lower
        assert rows[T]["ratio_display"] == ratio
        assert mpq(rows[T]["lower"]) >= mpq(int(lower.replace("0.", "", 1)), 10 ** 24)
    assert mpq(rows[44]["coupling"]) <= mpq(86789243169, 10 ** 24)


def test_max_reading_is_a_stronger_witness():
    fixed = dw.build(published_request(dw.FIXED))["result"]["deadlines"]
    best = dw.build(published_request(dw.MAX_READING))["result"]["deadlines"]
    assert mpq(best[1]["lower"]) > mpq(fixed[1]["lower"])
    assert truncate(best[1]["lower_display"], 16) == "0.0000843096282089"  # 8.4309628209e-5
    assert best[1]["ratio_display"].startswith("0.99997200")
    assert truncate(best[2]["lower_display"], 15) == "0.000084311988194"


def test_d2_law_value_36_digits():
    req = dw.Request("1/3", 9, 2, 2, 16, mpz(10) ** 24, mpz(10) ** 30, dw.FIXED, [3])
    d = dw.build(req)["result"]["deadlines"][0]
    from producer.rationals import decimal_outward
    assert decimal_outward(mpq(d["payoff"]), 36, -1) == "0.000083026412333600267139345837451968"
    lam_gap = mpq(1, 10 ** 30)
    assert lam_gap * mpq(d["q"]) < mpq(725, 10 ** 37)


def test_cli_rejects_short_deadline(capsys):
    status = producer_main(["deadline", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--epsilon", "2",
                            "--radius", "4", "--scale", "1000", "--deadline", "2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "shorter than the suffix" in err[0]


def test_suffix_table_facts_of_7_1():
    cert = dw.build(dw.Request("1/3", 9, 2, 2, 24, mpz(10) ** 24, mpz(10) ** 30, dw.FIXED,
                                       list(range(3, 13))))
    r = cert["result"]
    h = {e["k"]: mpq(e["h"]) for e in r["suffix"]}
    best = max(h.values())
    # sup_k h(k) = 8.43119885227752266763e-5, attained at k ≡ 3 (mod 27)
    from producer.rationals import decimal_outward
    assert decimal_outward(best, 25, -1) == "0.0000843119885227752266763"
    assert all(k % 27 == 3 for k, v in h.items() if v == best)
    # waiting pays only from T = 11: V_s(0) = h(0) for s <= 7
    payoff = {T: mpq(d["payoff"]) for T, d in by_deadline(cert).items()}
    assert all(payoff[T] == h[0] for T in range(3, 11)) and payoff[11] > h[0]
    # the finite G_2 value lies 4.948e-23 above sup h (adaptive play gains only that much)
    from producer.game.values import root_value
    from producer.sources.discrete_gaussian import DiscreteGaussianSource
    lam = mpq(r["threshold"]["lower"])
    source = DiscreteGaussianSource.from_radius_scale(9, 24, mpz(10) ** 24)
    g2 = root_value(source.law, Gamma(1, 3), 2, 1, lam).value - lam
    assert decimal_outward(g2, 25, -1) == "0.0000843119885227752267258"
    assert mpq(4947, 10 ** 26) < g2 - best < mpq(4949, 10 ** 26)


def _cli_refusal(capsys, *extra):
    status = producer_main(["deadline", "--gamma", "1/3", "--sigma2", "9", "--epsilon", "2", "--radius", "24",
                            "--scale", "1e24", "--deadline", "3", "--quiet", "-o", "-", *extra])
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and out == "", err
    return lines[0]


def test_a_pattern_beyond_the_budget_is_refused(capsys):
    assert "participates 2 times, more than the budget C = 1" in _cli_refusal(capsys, "--budget", "1")
    assert "participates 2 times" in _cli_refusal(capsys, "--budget", "1", "--reading", "max")
    with pytest.raises(SystemExit) as stop:      # the budget is part of the question: required
        producer_main(["deadline", "--gamma", "1/3", "--sigma2", "9", "--epsilon", "2", "--radius", "24",
                       "--scale", "1e24", "--deadline", "3"])
    assert stop.value.code == 2 and "required: --budget" in capsys.readouterr().err


def test_gamma_zero_is_refused(capsys):
    line = _cli_refusal(capsys, "--budget", "2", "--gamma", "0")
    assert "γ = 0 is plain composition" in line and "producer plain" in line


def test_the_budget_is_stated_and_the_pattern_is_legal_for_it():
    request = dw.Request("1/3", 9, 3, 2, 8, 10 ** 12, 10 ** 30, dw.MAX_READING, [3, 5])
    cert = dw.build(request)
    jsonschema.validate(cert, SCHEMA)
    assert cert["input"]["budget"] == 3 and cert["input"]["reference"] is False
    assert cert["result"]["reference"] is None
    assert all(d["ratio_display"] is None for d in cert["result"]["deadlines"])
    assert "C = 3" in producer_api.Certificate(cert).claim
    with pytest.raises(InputError, match="budget"):
        dw.Request("1/3", 9, 0, 2, 8, 10 ** 12, 10 ** 30, ((0, 0, 0),), [3])


def test_the_reference_is_for_the_same_question_and_above_every_lower_end():
    cert = dw.build(dw.Request("1/3", 9, 2, 2, 8, 10 ** 12, 10 ** 30, dw.FIXED, [3, 6],
                                       reference=True))
    jsonschema.validate(cert, SCHEMA)
    reference = cert["result"]["reference"]
    assert reference["schema"] == "dg-interval/1"
    assert reference["input"] == {"gamma": "1/3", "sigma2": "9", "budget": 2, "epsilon": "2",
                                  "source": {"radius": 8, "scale": str(10 ** 12)}, "method": None}
    assert reference["result"]["source"]["weights"] == cert["result"]["source"]["weights"]
    upper = mpq(reference["result"]["interval"]["upper"])
    for row in cert["result"]["deadlines"]:
        ratio = mpq(row["lower"]) / upper
        assert ratio <= 1
        shown = row["ratio_display"]
        assert mpq(shown) <= ratio < mpq(shown) + mpq(1, 10 ** 12)


def test_a_reference_below_a_lower_end_is_refused(monkeypatch, capsys):
    def low_reference(gamma, sigma2, budget, epsilon, radius, scale):
        from producer.lower.bounds import dg_upper_certificate
        cert = dg_upper_certificate(gamma, sigma2, budget, epsilon, radius, scale)
        cert["result"]["interval"]["upper"] = "1/1000000000"   # below every lower end (about 8e-5)
        return cert

    monkeypatch.setattr(dw, "dg_upper_certificate", low_reference)
    with pytest.raises(InputError, match="contradict"):
        dw.build(dw.Request("1/3", 9, 2, 2, 24, 10 ** 24, 10 ** 30, dw.FIXED, [3], reference=True))
    line = _cli_refusal(capsys, "--budget", "2", "--reference")
    assert "reference: its upper end" in line and "lies below the lower end" in line


@pytest.mark.parametrize("deadlines, message", [
    (None, "deadlines: give one value, a comma-separated text or a list"),
    ("3,", "deadlines: an empty value in '3,': give numbers separated by commas"),
    ("3,,44", "deadlines: an empty value in '3,,44'"),
])
def test_deadlines_left_out_or_with_an_empty_item_are_refused_in_one_line(deadlines, message):
    with pytest.raises(InputError) as info:
        dw.Request.from_strings("1/3", 9, 2, 24, "1e24", deadlines, budget=2)
    assert str(info.value) == message or str(info.value).startswith(message + ":")


def test_deadlines_are_one_horizon_a_comma_separated_text_or_a_list():
    one = dw.Request.from_strings("1/3", 9, 2, 24, "1e24", [3, 44], budget=2).deadlines
    assert dw.Request.from_strings("1/3", 9, 2, 24, "1e24", "44, 3", budget=2).deadlines == one == (3, 44)
    assert dw.Request.from_strings("1/3", 9, 2, 24, "1e24", 3.0, budget=2).deadlines == (3,)


@pytest.mark.parametrize("reference", ["yes", "false", 1, None])
def test_reference_is_true_or_false(reference):
    with pytest.raises(InputError, match="^reference: expected True or False, got "):
        dw.Request.from_strings("1/3", 9, 2, 24, "1e24", [3], budget=2, reference=reference)


def test_reading_the_bound_of_another_mechanism_is_refused():
    from producer.lower.bounds import check_same_mechanism, dg_upper_certificate
    cert = dg_upper_certificate("1/3", 9, 2, 2, 8, 10 ** 12)
    check_same_mechanism(cert, "1/3", 9, 2, 2, 8, 10 ** 12, "bound")
    for other in (("1/2", 9, 2, 2, 8, 10 ** 12), ("1/3", 4, 2, 2, 8, 10 ** 12), ("1/3", 9, 3, 2, 8, 10 ** 12),
                  ("1/3", 9, 2, 1, 8, 10 ** 12), ("1/3", 9, 2, 2, 9, 10 ** 12), ("1/3", 9, 2, 2, 8, 10 ** 13)):
        with pytest.raises(InputError, match="claim's own mechanism"):
            check_same_mechanism(cert, *other, "bound")
    with pytest.raises(InputError, match="γ = 0"):
        check_same_mechanism(cert, "0", 9, 2, 2, 8, 10 ** 12, "bound")


# ---- the auditor's limits at their edge (docs/certificates.md) ------------------------------


def _deadline(sigma2, radius, scale, T):
    return ["deadline", "--gamma", "1/3", "--sigma2", sigma2, "--budget", 2, "--epsilon", 1, "--radius", radius,
            "--scale", scale, "--deadline", T]


@pytest.mark.slow
def test_deadline_numbers_at_the_digit_limit_verify(tmp_path):
    # D = 3·10^24, N = 10^30: D^T·N has 9,992 digits at T = 407
    edge_verifies(_deadline(9, 24, "1e24", 407), tmp_path / "edge.json")


def test_deadline_numbers_beyond_the_digit_limit_are_refused(tmp_path):
    refused(_deadline(9, 24, "1e24", 408), tmp_path / "beyond.json", "digits")


@pytest.mark.slow
def test_deadline_at_the_work_limit_verifies(tmp_path):
    edge_verifies(_deadline(900, 150, "1e10", 234), tmp_path / "edge.json")


def test_deadline_beyond_the_work_limit_is_refused(tmp_path):
    refused(_deadline(900, 150, "1e10", 235), tmp_path / "beyond.json", "work")


def test_deadline_with_its_reference_verifies(tmp_path):
    # the budget and the embedded dg-interval/1 upper end of Δ*_2(2) are checked with the witness
    edge_verifies(_deadline(9, 24, "1e24", 5) + ["--reference"], tmp_path / "edge.json")


def test_deadline_work_estimate_is_the_auditors():
    from auditor.checks.deadline_witness import estimated_work as auditors
    from producer.lower.auditability import estimated_work
    for args in ((3, 24, 10 ** 24, 73, ((1, 1, 0),), 100), (1009, 150, 10 ** 10, 451, ((1, 1, 0), (1, -1, 0)), 234),
                 (7, 5, 2 ** 60, 11, ((1, -1, 0, 1),), 2000)):
        assert estimated_work(*args) == auditors(*args)


# ---- the auditor's budget of one file ---------------------------------------------------------------

def test_the_witness_and_its_reference_count_together(monkeypatch):
    """200 × its own work and 400 × its reference's game work (each within one budget: at most two)."""
    from producer.audit_budget import AuditCost, multiple
    from producer.lower.auditability import DEADLINE_UNITS, MAX_WORK
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    assert multiple(AuditCost(DEADLINE_UNITS * MAX_WORK)) == 1
    cert = producer_api.deadline_witness("1/3", 9, 2, 24, "1e24", [3, 44], budget=2, reference=True)
    cost = dw.auditor_cost(cert.as_dict())
    scaled_budget(monkeypatch, cost.work - 1)
    again = producer_api.deadline_witness("1/3", 9, 2, 24, "1e24", [3, 44], budget=2, reference=True)
    assert again == cert and again.auditor_budget == 2
    least_auditor_budget(cert.as_dict(), 2)


def test_the_threshold_at_the_largest_epsilon_verifies_and_the_next_is_refused(tmp_path):
    """floor(N·e^ε)/N has about ⌈1.443·ε⌉ + bits(N) bits; the auditor decides it at those + 48, retried at 4x,
    within 16,384: with N = 10^30 up to ε = 2735.  ε = 10^6 was an internal error before the check."""
    from tests.producer.kinds.edges import edge_verifies, refused
    base = ["deadline", "--gamma", "1/3", "--sigma2", "9", "--budget", "2", "--radius", "8", "--scale", "65536",
            "--deadline", "4", "--epsilon"]
    edge_verifies(base + [2735], tmp_path / "edge.json")
    refused(base + [2736], tmp_path / "beyond.json", "epsilon")
    refused(base + [10 ** 6], tmp_path / "far.json", "epsilon")
