"""hierarchy/1 checks: honest certificates verify, every mutated number is rejected,
and the auditor's upper tables lie above the exact finite game (docs/hierarchy.md).

Certificates come from the reference directory and from ``producer hierarchy``
at small sizes (run as a separate process); the auditor's own engine is used
directly for the comparisons with the plain exact reference of G_C.
"""

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from auditor.cli import verify_file
from auditor.hierarchy.graph import Graph
from auditor.hierarchy.grid import Grid
from auditor.hierarchy.model import Model, block_length
from auditor.hierarchy.tables import solve
from auditor.hierarchy.words import Words
from tests.reference_game import ReferenceGame
from tests.reseal import get_at, resealed, with_value
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[2]
SMALL_REFERENCE = ROOT / "certificates" / "hierarchy" / "hierarchy-c3-p2-eps2-small.json"
RATIONAL = re.compile(r"^-?(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")
DECIMAL = re.compile(r"^-?[0-9]+\.[0-9]+$")

# Fields outside the claims (docs/hierarchy.md, "What the auditor checks"): the
# producer's grid recipe.  Only "priors" bounds the grid size from above.
OUTSIDE_CLAIMS = {("input", "numerics", "logit_range")}
ONE_SIDED = {("input", "numerics", "priors")}   # only a smaller value can be caught


def _produce(tmp, name, *args):
    path = Path(tmp) / name
    subprocess.run([sys.executable, "-m", "producer", "hierarchy", *args, "-o", str(path), "--quiet"],
                   check=True, cwd=ROOT, capture_output=True, timeout=HANG_GUARD_SECONDS)
    return path


@pytest.fixture(scope="module")
def small_certificates(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hierarchy")
    depth = _produce(tmp, "depth.json", "--gamma", "1/3", "--sigma2", "9/4", "--budget", "2", "--depth", "1",
                     "--epsilon", "1", "--priors", "6", "--radius", "3", "--source-scale", "2^24",
                     "--logit-range", "4")
    cuts = _produce(tmp, "cuts.json", "--gamma", "1/3", "--sigma2", "4", "--budget", "3", "--cuts", "0",
                    "--delta", "1/4", "--priors", "8", "--radius", "6", "--source-scale", "2^32",
                    "--logit-range", "5")
    return {"depth": depth, "cuts": cuts}


def _status(cert, tmp_path, name="m.json"):
    path = tmp_path / name
    path.write_text(json.dumps(cert), encoding="utf-8")
    return verify_file(str(path))



# honest certificates --------------------------------------------------------
def test_small_reference_certificate_verifies():
    status, report = verify_file(str(SMALL_REFERENCE))
    assert status == 0, report.failures
    assert report.checked >= 30


@pytest.mark.parametrize("kind", ["depth", "cuts"])
def test_producer_certificates_verify(small_certificates, kind):
    status, report = verify_file(str(small_certificates[kind]))
    assert status == 0, report.failures


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "certificates" / "hierarchy").glob("*.json")))
def test_every_reference_certificate_verifies(name):
    status, report = verify_file(str(ROOT / "certificates" / "hierarchy" / name))
    assert status == 0, report.failures


# mutations --------------------------------------------------------------------
def _numbers(node, path=()):
    """Paths of every number in the certificate (ints, rational and decimal strings, booleans)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in ("digest", "schema", "producer"):
                yield from _numbers(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, path + (i,))
    elif isinstance(node, bool) or isinstance(node, int):
        yield path
    elif isinstance(node, str) and (RATIONAL.match(node) or DECIMAL.match(node)):
        yield path


def _bumped(value):
    """A nearby different value of the same form."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if DECIMAL.match(value):
        return _decimal_up(value)
    r = Fraction(value)
    bumped = Fraction(r.numerator + 1, r.denominator)
    return str(bumped.numerator) if bumped.denominator == 1 else f"{bumped.numerator}/{bumped.denominator}"


def _mutation(cert, path):
    """The bumped value; a grid prior moves by a quarter of its gap to the next one.

    (A move by 2^-K changes no table entry at scale 2^-F, F <= K: that mutated
    certificate is itself true, so it is no test of the checker.)
    """
    if path[:3] == ("result", "grid", "numerators") and 0 < path[3]:
        grid = cert["result"]["grid"]["numerators"]
        i = path[3]
        nxt = int(grid[i + 1]) if i + 1 < len(grid) else int(grid[i]) + 4
        return str(int(grid[i]) + max(1, (nxt - int(grid[i])) // 4))
    return _bumped(get_at(cert, path))


def _decimal_up(text):
    whole, frac = text.lstrip("-").split(".")
    n = int(whole + frac) + (1 if not text.startswith("-") else -1)
    s = str(abs(n)).rjust(len(frac) + 1, "0")
    return ("-" if text.startswith("-") else "") + s[:-len(frac)] + "." + s[-len(frac):]


@pytest.mark.parametrize("kind", ["depth", "cuts"])
def test_every_number_mutation_is_rejected(small_certificates, kind, tmp_path):
    cert = json.loads(small_certificates[kind].read_text())
    paths = [p for p in _numbers(cert) if p[:3] not in OUTSIDE_CLAIMS and p[:3] not in ONE_SIDED]
    assert len(paths) > 30
    accepted = []
    for path in paths:
        status, _ = _status(with_value(cert, path, _mutation(cert, path)), tmp_path)
        if status == 0:
            accepted.append(path)
    assert accepted == []


def test_fewer_requested_priors_than_grid_points_is_rejected(small_certificates, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    cert["input"]["numerics"]["priors"] = len(cert["result"]["grid"]["numerators"]) - 4
    status, report = _status(resealed(cert), tmp_path)
    assert status == 1 and report.failures[0]["pointer"] == "/result/grid/numerators"


def test_unsealed_mutation_fails_the_digest(small_certificates, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    cert["result"]["root_excess"][2] = str(int(cert["result"]["root_excess"][2]) + 1)
    status, report = _status(cert, tmp_path)
    assert status == 1
    assert {f["pointer"] for f in report.failures} >= {"/digest", "/result/root_excess/2"}


@pytest.mark.parametrize("drop", [("result", "root_excess", -1), ("result", "source", "weights", 0),
                                  ("result", "grid", "numerators", 1)])
def test_dropped_array_entry_is_rejected(small_certificates, drop, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    del get_at(cert, drop[:-1])[drop[-1]]
    status, _ = _status(resealed(cert), tmp_path)
    assert status == 1


@pytest.mark.parametrize("key", ["upper", "tau", "root_excess", "graph", "threshold"])
def test_dropped_field_is_malformed(small_certificates, key, tmp_path):
    cert = json.loads(small_certificates["cuts"].read_text())
    del cert["result"][key]
    status, _ = _status(resealed(cert), tmp_path)
    assert status == 2


def test_swapped_threshold_bounds_are_rejected(small_certificates, tmp_path):
    cert = json.loads(small_certificates["cuts"].read_text())
    th = cert["result"]["threshold"]
    th["lower"], th["upper"] = th["upper"], th["lower"]
    status, report = _status(resealed(cert), tmp_path)
    assert status == 1
    assert any(f["pointer"].startswith("/result/threshold") for f in report.failures)


def test_upper_above_delta_is_rejected(small_certificates, tmp_path):
    cert = json.loads(small_certificates["cuts"].read_text())
    cert["input"]["query"]["delta"] = "1/5"   # the certified upper end is just below 1/4
    cert["result"]["delta"] = "1/5"
    status, report = _status(resealed(cert), tmp_path)
    assert status == 1
    assert [f["pointer"] for f in report.failures] == ["/result/upper"]


@pytest.mark.parametrize("schema", ["hierarchy/2", "hierarchy/0", "hierarchies/1"])
def test_wrong_version_is_malformed(small_certificates, schema, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    cert["schema"] = schema
    status, _ = _status(resealed(cert), tmp_path)
    assert status == 2


@pytest.mark.parametrize("field, value", [("gamma", "3/2"), ("gamma", "2/6"), ("sigma2", "0")])
def test_input_outside_the_domain_is_malformed(small_certificates, field, value, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    cert["input"][field] = value
    status, _ = _status(resealed(cert), tmp_path)
    assert status == 2


@pytest.mark.parametrize("cuts", [[1, 0], [0, 0], [1]])
def test_cuts_outside_the_domain_are_malformed(small_certificates, cuts, tmp_path):
    cert = json.loads(small_certificates["cuts"].read_text())   # C = 3: cuts within {0, 1}
    cert["input"]["model"]["cuts"] = cuts if cuts != [1] else [2]
    status, _ = _status(resealed(cert), tmp_path)
    assert status == 2


def test_beyond_the_work_limit_is_unchecked(small_certificates, tmp_path):
    cert = json.loads(small_certificates["depth"].read_text())
    cert["input"]["budget"] = 40
    cert["input"]["model"]["depth"] = 8     # 2·Σ 3^j per level: far beyond the limit
    status, report = _status(resealed(cert), tmp_path)
    assert status == 3
    assert "exceeds the limit" in report.unchecked


# the engine against exact values ------------------------------------------------
def _uniform_grid(n, K):
    return sorted({0, 1 << (K - 1), 1 << K} | {(i << K) // n for i in range(1, n)})


def _upper_values(weights, offset, a, B, model, grid_numerators, K=32, F=40):
    graph = Graph(weights, offset, a, B, model, Words(a, B))
    E = solve(graph, Grid(grid_numerators, K), F)
    return [(Fraction(g, 1 << K), max(Fraction(g, 1 << K), 1 - Fraction(g, 1 << K)) + Fraction(int(e), 1 << F))
            for g, e in zip(grid_numerators, E)]


@pytest.mark.parametrize("depth, exact", [(4, 3737), (3, 3740), (2, 3746), (1, 3753)])
def test_published_c4_chain_at_one_half(depth, exact):
    """(G_4, P_3, P_2, P_1)(1/2)·3888 = 3737, 3740, 3746, 3753 (docs/hierarchy.md §8): the upper
    value lies above the exact one and, on a 64-interval grid, within half of the smallest gap."""
    values = dict(_upper_values([1, 1, 1], -1, 1, 2, Model(4, depth=depth), _uniform_grid(64, 32)))
    upper = values[Fraction(1, 2)] * 3888
    assert exact <= upper < exact + Fraction(1, 2)


def test_graph_counts_match_the_published_sizes():
    """Reachable pending nodes 16, 40, 72, 104 for H = 1..4 at C = 4, B = 2 (8.5); free 2(C − 1)."""
    for depth, pending in zip((1, 2, 3, 4), (16, 40, 72, 104)):
        counts = Graph([1, 1, 1], -1, 1, 2, Model(4, depth=depth), Words(1, 2)).counts()
        assert (counts["pending"], counts["free"], counts["synchronised"]) == (pending, 6, 5)


def test_words_move_like_the_digit_carry():
    """The integer route to child words equals the carry rule of docs/hierarchy.md §2."""
    def carry(w, n, a, B):
        out, off = [], n
        for z in w:
            t = z + a * off
            out.append(t % B)
            off = -(t // B)
        return tuple(out)
    for a, B in ((1, 2), (1, 3), (2, 3), (2, 5)):
        words = Words(a, B)
        for q in (1, 2, 3):
            for w in words.all_words(q):
                for n in range(-4, 5):
                    assert words.after_root(w, n) == carry(w, n, a, B)
                    if q >= 2:
                        assert words.after_pending(w, n) == carry(w[1:], n, a, B)


def test_block_length_uses_remaining_budget_zero_based():
    assert [block_length((), r) for r in range(4)] == [1, 2, 3, 4]
    assert [block_length((0, 1, 2), r) for r in range(1, 4)] == [1, 1, 1]
    assert [block_length((1,), r) for r in range(4)] == [1, 2, 1, 2]


def _models(C):
    depths = st.integers(1, C + 1).map(lambda h: Model(C, depth=h))
    cuts = st.sets(st.integers(0, max(0, C - 2)), max_size=max(0, C - 1)).map(
        lambda s: Model(C, cuts=sorted(b for b in s if b <= C - 2)))
    return st.one_of(depths, cuts)


@st.composite
def _instances(draw):
    B = draw(st.sampled_from([2, 3]))
    a = draw(st.sampled_from([x for x in range(1, B)]))
    n = draw(st.integers(2, 4))
    weights = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n).filter(lambda w: sum(w) > 0))
    offset = draw(st.integers(-2, 1))
    C = draw(st.integers(1, 2))
    model = draw(_models(C))
    n_grid = draw(st.integers(2, 12))
    return weights, offset, a, B, model, n_grid


@settings(max_examples=15)
@given(_instances())
def test_upper_values_lie_above_the_exact_game(instance):
    """Γ >= G_C for every game above G_C (8.4), and the table is an upper table of Γ:
    so every sampled upper value is >= G_C(t, 1 − t) of the plain exact reference."""
    weights, offset, a, B, model, n_grid = instance
    reference = ReferenceGame(weights, offset, a, B)
    for t, upper in _upper_values(weights, offset, a, B, model, _uniform_grid(n_grid, 16), K=16, F=24):
        assert upper >= reference.G(model.budget, t, 1 - t)


@settings(max_examples=6)
@given(_instances())
def test_full_commitment_is_close_to_the_exact_game(instance):
    """U_∅ = G_C: on a 32-interval grid the upper value exceeds the exact one by little."""
    weights, offset, a, B, model, _ = instance
    full = Model(model.budget, cuts=[])
    reference = ReferenceGame(weights, offset, a, B)
    for t, upper in _upper_values(weights, offset, a, B, full, _uniform_grid(32, 32)):
        exact = reference.G(full.budget, t, 1 - t)
        assert exact <= upper <= exact + Fraction(1, 200)   # measured at most about 1/1000


def test_depth_one_is_the_all_cuts_game():
    """P_1 = U_{S_all} (8.4): the same groups everywhere, hence the same tables."""
    grid = _uniform_grid(16, 24)
    for weights, offset, a, B, C in (([1, 2, 1], -1, 1, 3, 3), ([2, 0, 1, 1], 0, 1, 2, 3)):
        depth = _upper_values(weights, offset, a, B, Model(C, depth=1), grid, K=24, F=30)
        cuts = _upper_values(weights, offset, a, B, Model(C, cuts=list(range(C - 1))), grid, K=24, F=30)
        assert depth == cuts


def test_command_line_exit_statuses(small_certificates, tmp_path, capsys):
    """auditor verify: 0 for an honest certificate, 1 for a false claim, 3 beyond the limits."""
    from auditor.cli import main
    assert main(["verify", str(small_certificates["depth"])]) == 0
    cert = json.loads(small_certificates["depth"].read_text())
    cert["result"]["upper"] = _bumped(cert["result"]["upper"])
    false = tmp_path / "false.json"
    false.write_text(json.dumps(resealed(cert)))
    assert main(["verify", str(false)]) == 1
    big = json.loads(small_certificates["depth"].read_text())
    big["input"]["budget"], big["input"]["model"]["depth"] = 40, 8
    refused = tmp_path / "refused.json"
    refused.write_text(json.dumps(resealed(big)))
    assert main(["verify", str(refused)]) == 3
    out = capsys.readouterr().out
    assert "FAIL /result/upper" in out and "UNCHECKED /input/model" in out
