"""auditor.checks.workload: the published static-workload bound verifies, mutations are rejected,
and the G.6 moment recursion agrees with a literal enumeration of every (η, U) path."""

import copy
from fractions import Fraction
from itertools import product
from math import gcd

import pytest
from hypothesis import given, strategies as st

from auditor.lower import moments
from auditor.game.rows import Law
from tests.auditor.lower_corpus import get_at, number_leaves, pointers, produce, run, seal, with_mutation


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    return produce(tmp_path_factory, "workload", "workload")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return produce(tmp_path_factory, "workload-small", "workload", "--dimension", "4", "--diagonal", "3",
                   "--ones", "1", "--sigma2", "16", "--scale", "4096", "--epsilon", "3", "--theta", "3")


def test_published_bound_verifies(tmp_path, published):
    status, report = run(tmp_path, published)
    assert status == 0, report.failures
    res = published["result"]
    assert res["strategy"]["column_norm2"] == "355"
    assert Fraction(res["delta_upper"]) <= Fraction("0.000084068601494238")


def test_small_bound_verifies(tmp_path, small):
    status, report = run(tmp_path, small)
    assert status == 0, report.failures


def test_every_number_mutated_is_rejected(tmp_path, small):
    accepted = []
    for path, _ in number_leaves(small):
        status, _ = run(tmp_path, with_mutation(small, path))
        if status not in (1, 2):
            accepted.append(path)
    assert accepted == []


def test_understated_gaussian_term_is_rejected(tmp_path, published):
    """A smaller G (with delta_upper resealed consistently) is an unproved upper bound."""
    bad = copy.deepcopy(published)
    res = bad["result"]
    G = Fraction(res["gaussian_term"]) * Fraction(999999, 1000000)
    res["gaussian_term"] = str(G.numerator) + "/" + str(G.denominator)
    total = G + Fraction(res["coupling"])
    res["delta_upper"] = f"{total.numerator}/{total.denominator}"
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/gaussian_term" in pointers(report)


@pytest.mark.parametrize("path", [("result", "identity_checks"), ("result", "source", "weights"),
                                  ("result", "identity_checks", 0, "c")])
def test_dropped_entries_are_rejected(tmp_path, published, path):
    bad = copy.deepcopy(published)
    get_at(bad, path).pop()
    status, _ = run(tmp_path, seal(bad))
    assert status in (1, 2)


def test_swapped_bound_terms_are_rejected(tmp_path, published):
    bad = copy.deepcopy(published)
    res = bad["result"]
    res["gaussian_term"], res["coupling"] = res["coupling"], res["gaussian_term"]
    status, report = run(tmp_path, seal(bad))
    assert status == 1 and "/result/gaussian_term" in pointers(report)


def test_wrong_version_is_malformed(tmp_path, published):
    bad = copy.deepcopy(published)
    bad["schema"] = "workload/0"
    assert run(tmp_path, seal(bad))[0] == 2


def test_uncentred_identity_law_is_malformed(tmp_path, published):
    bad = copy.deepcopy(published)
    bad["input"]["identity_cases"][0]["law"]["weights"] = ["1", "2", "2"]
    assert run(tmp_path, seal(bad))[0] == 2


def test_oversized_identity_case_is_unchecked(tmp_path, published):
    bad = copy.deepcopy(published)
    bad["input"]["identity_cases"][0]["h"] = ["1"] * 2000
    status, report = run(tmp_path, seal(bad))
    assert status == 3 and "exceeds the limit" in report.unchecked


# ---------------------------------------------------------------- brute force

def literal_mean_square(weights, offset, a, B, h):
    """E(Σ_t h_t K_t)² over every path of draws (η_t, U_t)."""
    S = sum(weights)
    draws = [(offset + i, w, U) for i, w in enumerate(weights) if w for U in range(B)]
    total = Fraction(0)
    for path in product(draws, repeat=len(h)):
        K, mass, acc = 0, Fraction(1), Fraction(0)
        for (eta, w, U), ht in zip(path, h):
            K = eta - (a * K + U) // B
            mass *= Fraction(w, S * B)
            acc += ht * K
        total += mass * acc * acc
    return total


@st.composite
def centred_cases(draw):
    B = draw(st.integers(2, 4))
    a = draw(st.sampled_from([a for a in range(1, B) if gcd(a, B) == 1]))
    side = draw(st.lists(st.integers(0, 2), min_size=1, max_size=2))
    centre = draw(st.integers(0, 2))
    weights = side[::-1] + [centre] + side   # symmetric around 0, hence centred
    if not any(weights):
        weights[len(side)] = 1
    h = draw(st.lists(st.fractions(min_value=-2, max_value=2, max_denominator=4), min_size=1, max_size=3))
    return weights, -len(side), a, B, h


@given(centred_cases())
def test_moment_recursion_equals_path_enumeration_and_identity(case):
    weights, offset, a, B, h = case
    law = Law(weights, offset, a, B)
    ms = moments.mean_square(law, h)
    assert ms == literal_mean_square(weights, offset, a, B, h)
    c = moments.coefficients(h, Fraction(a, B))
    rv = moments.residual_variances(law, moments.state_laws(law, len(h)))
    v = Fraction(sum((offset + i) ** 2 * w for i, w in enumerate(weights)), sum(weights))
    assert ms == sum(cj * cj * (v + r) for cj, r in zip(c, rv))
