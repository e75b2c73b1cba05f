"""hierarchy-exact/1: the published chain, node counts, limits, and exact values against independent routes."""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer import api
from producer.kinds import claim_of
from producer.errors import InputError, LimitError
from producer.game import values as game_values
from producer.hierarchy.grid import log_odds_grid
from producer.kinds import hierarchy_exact as kind
from producer.laws import FiniteLaw, Gamma
from producer.references import paper
from tests.reference_hierarchy import PlainCheck

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "hierarchy-exact-1.schema.json").read_text())
PAPER = ROOT / "certificates" / "paper"


def values(cert):
    result = cert["result"] if isinstance(cert, dict) else cert.result
    return {m["name"]: [mpq(v) for v in m["values"]] for m in result["models"]}


def reference(name):
    """A committed reference (test_reference_certificates_regenerate_byte_identically recomputes each)."""
    return json.loads((PAPER / name).read_text())


def test_published_chain_and_strict_gaps():
    cert = reference("hierarchy-exact-c4-uniform-g1_2-chain.json")
    assert cert["input"]["models"] == [{"game": "full"}, {"game": "depth", "depth": 3}, {"game": "depth", "depth": 2},
                                       {"game": "portfolio", "depth": 2}, {"game": "depth", "depth": 1}]
    got = [v[0] * 3888 for v in values(cert).values()]
    assert got == [3737, 3740, 3746, 3748, 3753]
    (link,) = cert["result"]["chain"]
    assert [mpq(g) * 3888 for g in link["gaps"]] == [3, 6, 2, 5]
    assert link["strictly_increasing"] and link["non_decreasing"]
    q2 = cert["result"]["models"][3]
    assert q2["graph"] is None
    assert q2["portfolio"]["selectors"] == 128 and q2["portfolio"]["distinct_roots"] == 5
    assert len(q2["portfolio"]["states"]) == 7
    jsonschema.validate(cert, SCHEMA)
    line = claim_of(cert)
    assert "(3737, 3740, 3746, 3748, 3753)/3888" in line and "strictly increasing" in line


def test_depth_counts_and_exact_endpoint():
    cert = api.hierarchy_exact("1/2", [1, 1, 1], "4", ["1/2"], ["G", "P4", "P3", "P2", "P1"])
    models = cert.result["models"]
    assert [m["graph"]["pending"] for m in models[1:]] == [104, 72, 40, 16]
    assert all((m["graph"]["synchronised"], m["graph"]["free"]) == (5, 6) for m in models[1:])
    assert models[0]["graph"]["free"] == 0  # G_C never renews
    v = values(cert)
    assert v["P_4"] == v["G_4"]  # P_H = G_C for H >= C
    assert [v[f"P_{h}"][0] - v["G_4"][0] for h in (1, 2, 3)] == [mpq(1, 243), mpq(1, 432), mpq(1, 1296)]
    assert not cert.result["chain"][0]["strictly_increasing"] and cert.result["chain"][0]["non_decreasing"]


def test_cut_sets_and_portfolio():
    cert = reference("hierarchy-exact-c4-uniform-g1_2-cuts.json")
    assert [m["name"] for m in cert["result"]["models"]] == \
        ["U_{}", "U_{2}", "U_{0}", "U_{1}", "U_{1,2}", "U_{0,2}", "Q_2", "U_{0,1}", "U_{0,1,2}"]
    got = [v[0] * 3888 for v in values(cert).values()]
    assert got == [3737, 3740, 3743, 3748, 3748, 3748, 3748, 3753, 3753]


@pytest.mark.parametrize("name", ["hierarchy-exact-c4-uniform-g1_2-chain.json",
                                  "hierarchy-exact-c4-uniform-g1_2-depths.json",
                                  "hierarchy-exact-c4-uniform-g1_2-cuts.json"])
def test_reference_certificates_regenerate_byte_identically(tmp_path, name):
    (path,) = paper.generate(str(tmp_path), {name})
    assert Path(path).read_bytes() == (PAPER / name).read_bytes()


@st.composite
def small_instances(draw):
    B = draw(st.sampled_from([2, 3]))
    a = draw(st.sampled_from(range(1, B)))
    weights = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3).filter(lambda w: sum(w) > 0))
    offset = draw(st.integers(-2, 0))
    budget = draw(st.integers(1, 3))
    t = mpq(draw(st.integers(1, 15)), 16)
    return FiniteLaw(weights, offset), Gamma(a, B), budget, t


@settings(max_examples=15, deadline=None)
@given(small_instances())
def test_full_game_equals_the_exact_game_engine(instance):
    """G_C from the hierarchy graph against the exact testing-curve engine (another algorithm)."""
    law, gamma, budget, t = instance
    cert = api.hierarchy_exact(str(gamma), [int(w) for w in law.weights], budget, [t], "G,P1",
                               offset=law.offset)
    v = values(cert)
    assert v[f"G_{budget}"][0] == game_values.root_value(law, gamma, budget, t, 1 - t).value
    assert v["P_1"][0] >= v[f"G_{budget}"][0]


def _plain_upper_table(law, gamma, budget, model_json, grid, K, F):
    cert = {"input": {"gamma": str(gamma), "budget": budget, "model": model_json},
            "result": {"source": {"radius": 1, "weights": [str(int(w)) for w in law.weights],
                                  "scale": str(int(law.total))},
                       "grid": {"bits": K, "numerators": [str(g) for g in grid]}, "scale_bits": F}}
    return PlainCheck(cert).root_table()


@pytest.mark.parametrize("models, model_json", [("P2", {"game": "depth", "depth": 2}),
                                                ("U:0", {"game": "cuts", "cuts": [0]}),
                                                ("G", {"game": "cuts", "cuts": []})])
def test_exact_values_lie_below_the_plain_sampled_upper(models, model_json):
    """The docs' integer upper recursion (a plain re-implementation) bounds every exact value, closely."""
    law, gamma, budget, K, F = FiniteLaw([1, 2, 1], -1), Gamma(1, 3), 3, 24, 40
    grid = log_odds_grid(120, K, 6.0)
    priors = [mpq(g, 1 << K) for g in grid]
    cert = api.hierarchy_exact("1/3", "1,2,1", budget, priors[1:-1][::8][:16], models)
    table = _plain_upper_table(law, gamma, budget, model_json, grid, K, F)
    upper = {t: max(t, 1 - t) + mpq(e, 1 << F) for t, e in zip(priors, table)}
    for t, value in zip(priors[1:-1][::8], cert.result["models"][0]["values"]):
        assert mpq(value) <= upper[t] <= mpq(value) + mpq(1, 10 ** 3)


def test_limits_are_refused_before_the_work():
    with pytest.raises(LimitError, match="C must lie in 1..6"):
        api.hierarchy_exact("1/2", "1,1,1", 7, "1/2", "P1")
    with pytest.raises(LimitError, match="selectors exceed"):
        api.hierarchy_exact("1/2", "1,1,1", 6, "1/2", "Q2")
    with pytest.raises(LimitError, match="pending-key bound"):
        api.hierarchy_exact("2/5", "1,1,1", 6, "1/2", "G")
    with pytest.raises(LimitError, match="branches exceed"):
        api.hierarchy_exact("1/3", "1,1,1", 6, "1/2", "G")
    with pytest.raises(LimitError, match="weights exceed"):
        api.hierarchy_exact("1/2", ",".join(["1"] * 10), 2, "1/2", "P1")
    with pytest.raises(InputError, match="cannot read"):
        api.hierarchy_exact("1/2", "1,1,1", 2, "1/2", "P")
    with pytest.raises(InputError, match="each model once"):
        api.hierarchy_exact("1/2", "1,1,1", 2, "1/2", "P1,P1")
    with pytest.raises(InputError, match="0..2"):
        api.hierarchy_exact("1/2", "1,1,1", 4, "1/2", "U:3")
    with pytest.raises(InputError, match=r"\[0, 1\]"):
        api.hierarchy_exact("1/2", "1,1,1", 2, "3/2", "P1")


def test_curve_size_cap(monkeypatch):
    monkeypatch.setattr(kind, "MAX_VERTICES", 4)
    with pytest.raises(LimitError, match="vertices, beyond the limit 4"):
        api.hierarchy_exact("1/3", "1,2,1", 2, "1/2", "G")


def test_a_total_beyond_pythons_digit_limit_is_refused_in_one_short_line():
    """A 4401-digit weight (within the 10,000-digit input limit) is named by its size, not converted with str()
    (which raises ValueError under Python's default 4300-digit limit, kept here as in any library's caller)."""
    import sys
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        weights = format(mpz(10) ** 4400) + ",1"
        with pytest.raises(LimitError, match=r"^weights: total S = ≈1\.00000e\+4400 exceeds the limit 10\^6$"):
            api.hierarchy_exact("1/2", weights, 2, "1/2", "P1")
    finally:
        sys.set_int_max_str_digits(saved)
