"""auditor.checks.separation: the reference separations verify; mutations, drops, swaps are rejected;
the offset-event formula and the relaxation chain are compared with brute force on small laws."""

import copy
from fractions import Fraction
from itertools import product
from math import gcd

import pytest
from hypothesis import given, settings, strategies as st

from auditor.checks.separation import event_sums
from auditor.lower import relaxations
from auditor.lower.renyi import power_bounds
from tests.auditor.lower_corpus import (get_at, number_leaves, nudged, pointers, produce, run, sample_paths,
                                        seal, with_mutation)

CLAIMS = ["finite-relaxation", "binary-pair", "offset-event", "renyi-cover",
          "dg-relaxation:one-digit", "dg-relaxation:offset"]


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    return {c: produce(tmp_path_factory, c.replace(":", "-"), "separation", "--claim", c) for c in CLAIMS}


@pytest.mark.parametrize("claim", CLAIMS)
def test_reference_separation_verifies(tmp_path, certs, claim):
    status, report = run(tmp_path, certs[claim])
    assert status == 0, report.failures


def test_published_exact_chain(certs):
    """5/6 < 107/128 < 965/1152 are the values the auditor recomputed (the certificate verified above)."""
    res = certs["finite-relaxation"]["result"]
    assert (res["autonomous"], res["one_digit"], res["offset"]) == ("5/6", "107/128", "965/1152")


def _mutable(cert):
    """Number leaves that carry a claim or a question: not the free separator, not the law's offset
    (translating the law keeps all three game values: preparation is free), and not the offset event's
    box (it only bounds where the listed atoms lie: any event is a witness, so a box that still holds
    them leaves every claim true)."""
    offset_event = cert["input"]["claim"] == "offset-event"
    return [path for path, _ in number_leaves(cert)
            if path[-1] != "separator" and path != ("input", "law", "offset")
            and path[:2] != ("result", "privacy_bound") and not (offset_event and path[:2] == ("input", "box"))]


SLOW = pytest.mark.slow   # each run re-verifies an embedded radius-24 dg-interval


@pytest.mark.parametrize("claim,limit", [("finite-relaxation", 100), pytest.param("renyi-cover", 40, marks=SLOW),
                                         pytest.param("binary-pair", 40, marks=SLOW),
                                         pytest.param("offset-event", 40, marks=SLOW),
                                         pytest.param("dg-relaxation:offset", 25, marks=SLOW),
                                         pytest.param("dg-relaxation:one-digit", 25, marks=SLOW)])
def test_every_number_mutated_is_rejected(tmp_path, certs, claim, limit):
    """Each number moved both ways by about 2%: at least the unsafe direction must be rejected.

    The embedded dg-interval is the dg-interval checks' business (one tampering test below)."""
    cert = certs[claim]
    accepted = []
    for path in sample_paths(_mutable(cert), limit):
        value = get_at(cert, path)
        statuses = {run(tmp_path, with_mutation(cert, path, nudged(value, s)))[0] for s in (+1, -1)}
        if not statuses & {1, 2}:
            accepted.append(path)
    assert accepted == []


@pytest.mark.parametrize("claim,pointer", [("binary-pair", "/result/payoff/lower"),
                                           ("offset-event", "/result/payoff/lower"),
                                           ("dg-relaxation:one-digit", "/result/relaxation_interval/lower")])
def test_separator_outside_the_gap_is_rejected(tmp_path, certs, claim, pointer):
    cert = copy.deepcopy(certs[claim])
    cert["input"]["separator"] = "1/1000"      # above every lower end here
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and pointer in pointers(report)
    cert["input"]["separator"] = "1/100000"    # below the privacy bound Δ*_2(2) ≈ 8.43e−5
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/input/separator" in pointers(report)


def test_box_without_a_listed_atom_is_rejected(tmp_path, certs):
    cert = copy.deepcopy(certs["offset-event"])
    cert["input"]["box"]["high"] = max(max(atom) for atom in cert["result"]["atoms"]) - 1
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/result/atoms" in pointers(report)


def test_swapped_payoff_bounds_are_rejected(tmp_path, certs):
    cert = copy.deepcopy(certs["binary-pair"])
    pay = cert["result"]["payoff"]
    pay["lower"], pay["upper"] = pay["upper"], pay["lower"]
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and "/result/payoff/lower" in pointers(report)


def test_swapped_relaxation_values_are_rejected(tmp_path, certs):
    cert = copy.deepcopy(certs["finite-relaxation"])
    res = cert["result"]
    res["one_digit"], res["offset"] = res["offset"], res["one_digit"]
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and {"/result/one_digit", "/result/offset"} <= pointers(report)


@pytest.mark.parametrize("claim,path", [("offset-event", ("result", "atoms")),
                                        ("renyi-cover", ("result", "bands")),
                                        ("renyi-cover", ("result", "layers", 0, "q", 1))])
def test_dropped_entries_are_rejected(tmp_path, certs, claim, path):
    cert = copy.deepcopy(certs[claim])
    get_at(cert, path).pop()
    status, _ = run(tmp_path, seal(cert))
    assert status in (1, 2)


@pytest.mark.parametrize("claim,path", [("binary-pair", ("result", "payoff", "lower")),
                                        ("offset-event", ("result", "count")),
                                        ("dg-relaxation:offset", ("result", "finite_value"))])
def test_key_claims_mutated_are_rejected(tmp_path, certs, claim, path):
    """Moved up by about 2% (a lower end claimed too high, a wrong count, a wrong exact value)."""
    cert = certs[claim]
    status, report = run(tmp_path, with_mutation(cert, path, nudged(get_at(cert, path), +1)))
    assert status == 1 and "/" + "/".join(map(str, path)) in pointers(report)


def test_tampered_embedded_privacy_bound_is_rejected(tmp_path, certs):
    cert = certs["binary-pair"]
    bad = with_mutation(cert, ("result", "privacy_bound", "result", "interval", "upper"))
    status, report = run(tmp_path, bad)
    assert status == 1 and any(p.startswith("/result/privacy_bound") for p in pointers(report))


@pytest.fixture(scope="module")
def other_bounds(tmp_path_factory):
    """Valid dg-interval/1 certificates of the references' source and ε for another mechanism:
    γ = 0 (plain composition, a smaller Δ*) and σ² = 10."""
    common = ("--budget", "2", "--epsilon", "2", "--radius", "24", "--scale", str(10 ** 24), "--quiet")
    return {"gamma": produce(tmp_path_factory, "g0", "dg", "--gamma", "0", "--sigma2", "9", *common),
            "sigma2": produce(tmp_path_factory, "s10", "dg", "--gamma", "1/3", "--sigma2", "10", *common)}


@pytest.mark.parametrize("claim", ["binary-pair", pytest.param("offset-event", marks=SLOW),
                                   pytest.param("dg-relaxation:one-digit", marks=SLOW)])
@pytest.mark.parametrize("field", ["gamma", "sigma2"])
def test_privacy_bound_of_another_mechanism_is_rejected(tmp_path, certs, other_bounds, claim, field):
    """A valid bound for γ = 0 or another σ² bounds another mechanism: FAIL, though it verifies alone."""
    assert run(tmp_path, other_bounds[field], "bound.json")[0] == 0
    cert = copy.deepcopy(certs[claim])
    cert["result"]["privacy_bound"] = other_bounds[field]
    status, report = run(tmp_path, seal(cert))
    assert status == 1 and f"/result/privacy_bound/input/{field}" in pointers(report)


@pytest.mark.parametrize("path,value", [(("input", "budget"), 3), (("input", "method"), "enumerate"),
                                        (("input", "source", "radius"), 23)])
def test_privacy_bound_of_another_question_is_rejected(tmp_path, certs, path, value):
    from tests.auditor.lower_corpus import reseal, set_at
    cert = copy.deepcopy(certs["binary-pair"])
    set_at(cert["result"]["privacy_bound"], path, value)
    status, report = run(tmp_path, reseal(cert))
    assert status in (1, 2) and (status == 2 or "/result/privacy_bound/" + "/".join(map(str, path))
                                 in pointers(report))


def test_wrong_version_is_malformed(tmp_path, certs):
    cert = copy.deepcopy(certs["binary-pair"])
    cert["schema"] = "separation/2"
    assert run(tmp_path, seal(cert))[0] == 2


def test_claim_mismatch_is_malformed(tmp_path, certs):
    cert = copy.deepcopy(certs["binary-pair"])
    cert["input"]["claim"] = "offset-event"
    assert run(tmp_path, seal(cert))[0] == 2


# ---------------------------------------------------------------- brute force

def literal_offset_program(weights, offset):
    """Law of (f1, f2) in both worlds by enumerating every (η_1, U_1, η_2, U_2) of the offset program.

    γ = 1/3: K_t = η_t − floor((K_{t−1} + U_t + s_t)/3), K_0 = 0, Y_t = x_t + K_t;
    x^P = (0, 0), x^Q = (1, 1), s_1 = 0, s_2 = (1 − Y_1) mod 3,
    f1 = Y_1 − 1, f2 = Y_2 − 1 + ceil(f1/3).
    """
    S = sum(weights)
    draws = [(offset + i, w, U) for i, w in enumerate(weights) if w for U in range(3)]
    laws = []
    for x in ((0, 0), (1, 1)):
        law = {}
        for (e1, w1, u1), (e2, w2, u2) in product(draws, repeat=2):
            K1 = e1 - (0 + u1 + 0) // 3
            Y1 = x[0] + K1
            K2 = e2 - (K1 + u2 + (1 - Y1) % 3) // 3
            Y2 = x[1] + K2
            f1 = Y1 - 1
            f2 = Y2 - 1 + (-((-f1) // 3))
            law[(f1, f2)] = law.get((f1, f2), 0) + Fraction(w1 * w2, 9 * S * S)
        laws.append(law)
    return laws


@settings(max_examples=40)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=5), st.integers(-3, 1))
def test_offset_event_formula_equals_literal_program(weights, offset):
    if not any(weights):
        weights[0] = 1
    P, Q = literal_offset_program(weights, offset)
    S = sum(weights)
    lo, hi = offset - 4, offset + len(weights) + 3
    g = {n: Fraction(weights[n - offset], S) if 0 <= n - offset < len(weights) else Fraction(0)
         for n in range(lo - 1, hi + 3)}
    for atom in product(range(lo, hi), repeat=2):
        p, q = event_sums([atom], g)
        assert (p, q) == (P.get(atom, 0), Q.get(atom, 0))
    assert all(lo <= f1 < hi and lo <= f2 < hi for f1, f2 in P)


@st.composite
def small_games(draw):
    B = draw(st.integers(2, 3))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    weights = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    if not any(weights):
        weights[0] = 1
    y = draw(st.fractions(min_value=Fraction(1, 4), max_value=4, max_denominator=4))
    return weights, -(len(weights) // 2), a, B, y


@settings(max_examples=20)
@given(small_games())
def test_relaxation_chain_on_small_laws(game):
    """Δ*_2 = Δ^(2) <= Δ^(1) <= Δ^(0): more analyst power never lowers the value."""
    weights, offset, a, B, y = game
    auto = relaxations.autonomous_value(weights, offset, a, B, 1, y)
    one = relaxations.one_digit_value(weights, offset, a, B, 1, y)
    off = relaxations.offset_value(weights, offset, a, B, 1, y)
    assert max(Fraction(1), y) <= auto <= one <= off


@given(st.fractions(min_value=Fraction(1, 30), max_value=50, max_denominator=30),
       st.integers(0, 40), st.integers(0, 4))
def test_power_bounds_bracket_dyadic_powers(x, m, k):
    lo, hi = power_bounds(x, Fraction(m, 2 ** k))
    exact = x ** m
    assert lo <= hi and lo ** (2 ** k) <= exact <= hi ** (2 ** k)
    assert hi - lo <= max(Fraction(1), hi) * Fraction(1, 2 ** 80)
