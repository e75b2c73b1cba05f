"""The producer never writes a certificate the auditor cannot check (every kind).

For each limit the producer restates from the auditor (docs/certificates.md):
just inside, the producer writes a certificate and ``auditor verify`` answers
OK (exit 0); one step beyond, the producer refuses with one line on stderr,
exit 2 and no file.  Where the edge is too expensive to produce here, the
restated estimate is compared with the auditor's own code instead.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from producer.certificates.canonical import canonical_json, make_certificate
from producer.certificates.readability import MAX_NUMBER_DIGITS, MAX_STRING_CHARS, check_readable, value_bound
from producer.errors import LimitError

BIN = Path(sys.executable).parent
ROOT = Path(__file__).resolve().parents[3]


def _producer(*args, out):
    return subprocess.run([str(BIN / "producer"), *map(str, args), "--quiet", "-o", str(out)],
                          capture_output=True, text=True, timeout=600)


def _verifies(path):
    audit = subprocess.run([str(BIN / "auditor"), "verify", "--quiet", str(path)],
                           capture_output=True, text=True, timeout=900)
    assert audit.returncode == 0, audit.stdout + audit.stderr


def _edge_verifies(args, out):
    done = _producer(*args, out=out)
    assert done.returncode == 0, done.stderr
    _verifies(out)


def _built_edge_verifies(build, out):
    """A certificate only the Python builder can write (its command fixes the parameters): write, verify."""
    from producer.certificates.canonical import write_certificate
    write_certificate(build(), out)
    _verifies(out)


def _built_refused(build, words):
    with pytest.raises(LimitError) as refused:
        build()
    assert words in str(refused.value) and "\n" not in str(refused.value)


def _refused(args, out, words="auditor"):
    refused = _producer(*args, out=out)
    assert refused.returncode == 2, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], refused.stderr
    assert not out.exists()


# ---- every kind: the auditor's reader limits, checked when a certificate is sealed ----

def test_value_bound_is_the_readers():
    from auditor.reader import value_bound as readers_bound
    text = canonical_json({"a": [1, "x,[{", {"b": [[], {}]}], "c": "\"q\",", "d": None})
    assert value_bound(text) == readers_bound(text)


@pytest.mark.parametrize("length", [MAX_STRING_CHARS, MAX_STRING_CHARS + 1])
def test_a_string_longer_than_the_reader_reads_is_refused(length):
    result = {"note": "x" * length}
    if length <= MAX_STRING_CHARS:
        make_certificate("k", 1, {}, result)
    else:
        with pytest.raises(LimitError, match="characters"):
            make_certificate("k", 1, {}, result)


@pytest.mark.parametrize("digits", [MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS + 1])
def test_a_number_longer_than_the_reader_reads_is_refused(digits):
    number = f"1/{'7' * digits}"
    if digits <= MAX_NUMBER_DIGITS:
        check_readable({"v": number}, canonical_json({"v": number}))
    else:
        with pytest.raises(LimitError, match="denominator has"):
            check_readable({"v": number}, canonical_json({"v": number}))


def test_too_many_values_and_too_deep_nesting_are_refused():
    with pytest.raises(LimitError, match="JSON values"):
        make_certificate("k", 1, {}, {"v": [0] * 100_000})
    deep = []
    for _ in range(70):
        deep = [deep]
    with pytest.raises(LimitError, match="nesting"):
        make_certificate("k", 1, {}, {"v": deep})


# ---- finite-game/1 and the game of dg-interval/1 ------------------------------------------

def _uniform(radius):
    return ",".join(["1"] * (2 * radius + 1))


def _game(weights, gamma, budget, thresholds, *extra):
    return ["game", "--gamma", gamma, "--weights", weights, "--budget", budget,
            *[a for t in thresholds for a in ("--threshold", t)], *extra]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=12).filter(any), st.integers(-12, 1),
       st.sampled_from([(1, 2), (1, 3), (2, 5), (5, 12), (86, 257), (336, 1009)]), st.integers(0, 4), st.booleans())
def test_finite_game_work_estimate_is_the_auditors(weights, offset, gamma, level, pending):
    from auditor.checks.finite_game import work_estimate
    from producer.game.auditability import query_work
    from producer.laws import FiniteLaw, Gamma
    law = FiniteLaw(weights, offset)
    try:
        theirs = work_estimate(weights, offset, *gamma, level, pending=pending)
    except Exception as exc:          # beyond the auditor's cheap floor: ours must be beyond the limit too
        assert type(exc).__name__ == "Unchecked"
        from producer.game.auditability import MAX_WORK
        assert query_work(law, Gamma(*gamma), level, pending) > MAX_WORK
        return
    assert query_work(law, Gamma(*gamma), level, pending) == theirs


def test_finite_game_queries_beyond_the_auditors_work_limit_are_refused(tmp_path):
    # uniform law on [-20, 20], γ = 86/257, C = 2: 17,449,830 auditor units a query; 8 fit in 1.5·10⁸, 9 do not
    _refused(_game(_uniform(20), "86/257", 2, [f"{i}/7" for i in range(1, 10)], "--method", "compiled"),
             tmp_path / "beyond.json", "ask at most 8 queries")


@pytest.mark.slow
def test_finite_game_queries_at_the_auditors_work_limit_verify(tmp_path):
    _edge_verifies(_game(_uniform(20), "86/257", 2, [f"{i}/7" for i in range(1, 9)], "--method", "compiled"),
                   tmp_path / "edge.json")


def test_finite_game_one_query_beyond_the_auditors_work_limit_is_refused(tmp_path):
    # γ = 2/5, C = 4: the producer's own engine would take this one (3.1·10⁷ of its units), the auditor not
    _refused(_game(_uniform(12), "2/5", 4, ["2"]), tmp_path / "beyond.json", "of the auditor for one query")


@pytest.mark.slow
def test_finite_game_one_query_at_the_auditors_work_limit_verifies(tmp_path):
    from producer.game.auditability import MAX_WORK, query_work
    from producer.laws import FiniteLaw, Gamma
    largest = max(r for r in range(1, 13) if query_work(FiniteLaw([1] * (2 * r + 1), -r), Gamma(2, 5), 4) <= MAX_WORK)
    _edge_verifies(_game(_uniform(largest), "2/5", 4, ["2"]), tmp_path / "edge.json")


def test_more_queries_than_the_auditor_reads_are_refused(tmp_path):
    _refused(_game("1,2,1", "1/3", 1, [f"{i}/10001" for i in range(1, 10002)]), tmp_path / "beyond.json", "10000")


def test_dg_interval_whose_game_is_beyond_the_auditor_is_refused(tmp_path):
    _refused(["dg", "--gamma", "2/5", "--sigma2", 9, "--budget", 4, "--epsilon", 2, "--radius", 12,
              "--scale", 10 ** 24], tmp_path / "beyond.json", "of the auditor for one query")


# ---- envelope/1 ---------------------------------------------------------------------------

def _queries(tmp_path, rows):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"queries": rows}))
    return path


def _envelope(queries, universe, records, rounds, hedge, select, epsilon, *extra):
    return ["envelope", "--universe", universe, "--records", records, "--queries", queries, "--rounds", rounds,
            "--hedge", hedge, "--select", select, "--epsilon", epsilon, *extra]


def test_envelope_exponents_at_the_limit_verify_and_beyond_are_refused(tmp_path):
    q = _queries(tmp_path, [["0", "1"]])
    _edge_verifies(_envelope(q, 2, 1, 1, 10000, 10000, 10000), tmp_path / "edge.json")
    for beyond, word in (((10001, 1, 1), "γJ"), ((1, "10001", 1), "η"), ((1, 1, "20001/2"), "ε")):
        _refused(_envelope(q, 2, 1, 1, *beyond), tmp_path / "beyond.json", word)
    _refused(_envelope(q, 2, 1, 2, 5001, 1, 1), tmp_path / "beyond.json", "γJ")   # γJ = 10002


@pytest.mark.slow
def test_envelope_precision_at_the_work_limit_verifies(tmp_path):
    # H = 100, N = 4: (H²N + 1000)·(2b/128)² <= 10⁷ up to b = 1023 bits
    q = _queries(tmp_path, [["1/3", "1"]])
    _edge_verifies(_envelope(q, 2, 99, 2, 1, 1, "1/100", "--precision", 1023), tmp_path / "edge.json")


def test_envelope_precision_beyond_the_work_limit_is_refused(tmp_path):
    q = _queries(tmp_path, [["1/3", "1"]])
    _refused(_envelope(q, 2, 99, 2, 1, 1, "1/100", "--precision", 1024), tmp_path / "beyond.json", "precision")


def test_automatic_precision_stops_where_the_auditor_stops():
    from auditor.checks.envelope import MAX_WORK
    from producer.envelope.auditability import auditable_precision, auditor_work
    from producer.envelope.instance import Instance
    # H = 400 histograms (T = 2, n = 399), N = 2: H²N = 320,000 fits at 128 and 256 bits but not at 512
    inst = Instance(2, 399, [["1/3", "1"]], 1, 1, 1, "1/100")
    assert [auditable_precision(inst, b) for b in (128, 256, 512)] == [True, True, False]
    assert auditor_work(inst, 256) <= MAX_WORK < auditor_work(inst, 512)


def test_envelope_value_count_beyond_the_reader_is_refused_before_work(tmp_path):
    # H = 50, N = 400 is within H·N <= 20,000 and H²·N <= 10⁶, but the file would hold > 10⁵ JSON values
    q = _queries(tmp_path, [[f"{i}/10", "1"] for i in range(10)])
    _refused(_envelope(q, 2, 49, 2, 1, 1, 1), tmp_path / "beyond.json", "JSON values")


@pytest.mark.slow
def test_envelope_value_count_near_the_reader_limit_verifies(tmp_path):
    q = _queries(tmp_path, [[f"{i}/10", "1"] for i in range(10)])    # H = 34, N = 400: about 96,600 values
    _edge_verifies(_envelope(q, 2, 33, 2, 1, 1, 1), tmp_path / "edge.json")
    text = (tmp_path / "edge.json").read_text()
    assert 90_000 < value_bound(text) <= 100_000


def test_least_values_is_a_lower_bound_of_the_certificate():
    from producer.envelope.auditability import least_values
    from producer.kinds.envelope import Request, build
    from producer.envelope.instance import Instance
    for inst in (Instance(2, 3, [["0", "1"], ["1/2", "1/3"]], 2, 1, 1, 1),
                 Instance(3, 2, [["0", "1", "1/2"]], 2, 1, 1, 1, variant="sign")):
        assert least_values(inst) <= value_bound(canonical_json(build(Request(inst)))) <= least_values(inst) + 200


# ---- brace-run/1, brace-compare/1 ----------------------------------------------------------

def _bank(tmp_path, points, dimension):
    path = tmp_path / f"bank-{points}-{dimension}.json"
    path.write_text(json.dumps({"points": [[f"{(7 * i + j) % 201 - 100}/100" for j in range(dimension)]
                                           for i in range(points)]}))
    return path


def _brace(command, bank, dimension):
    return [command, "--bank", bank, "--query", ",".join(["0"] * dimension), "--r2", "16/25", "--horizon", 1,
            "--kappa", 128, "--epsilon", 128, "--delta", "1/100000", "--seed", 1]


@pytest.mark.parametrize("command", ["brace", "brace-compare"])
def test_a_bank_beyond_the_readers_value_limit_is_refused(command, tmp_path):
    _refused(_brace(command, _bank(tmp_path, 20000, 5), 5), tmp_path / "beyond.json", "JSON values")


@pytest.mark.slow
def test_a_bank_near_the_readers_value_limit_verifies(tmp_path):
    # 16,000 points × 5 values, plus the steps: about 93,000 values; the steps grow with the bank too,
    # so a larger bank is refused when sealed (the exact count), never written
    _edge_verifies(_brace("brace", _bank(tmp_path, 16000, 4), 4), tmp_path / "edge.json")
    assert 85_000 < value_bound((tmp_path / "edge.json").read_text()) <= 100_000


@pytest.mark.slow
def test_a_bank_whose_steps_pass_the_readers_value_limit_is_refused_when_sealed(tmp_path):
    _refused(_brace("brace", _bank(tmp_path, 19000, 4), 4), tmp_path / "beyond.json", "JSON values")


def test_brace_gamma_at_the_limit_verifies_and_beyond_is_refused(tmp_path):
    # e^-γ is published with 128-bit dyadic ends: at γ = 64 the lower end is still positive
    bank = ROOT / "data" / "brace" / "synthetic.json"
    run = ["brace", "--bank", bank, "--query", "0.3,0.2", "--r2", "16/25", "--horizon", 3, "--kappa", 128,
           "--epsilon", 128, "--delta", "1/100000", "--seed", 5, "--allow-uncalibrated", "--gamma"]
    _edge_verifies(run + [64], tmp_path / "edge.json")
    for beyond in ("64.000001", "1e12"):
        _refused(run + [beyond], tmp_path / "beyond.json", "exceeds the limit 64")


@pytest.mark.parametrize("option, edge", [("--horizon", 64), ("--dimension", 64)])
def test_brace_horizon_and_dimension_at_the_limit_verify_and_beyond_are_refused(option, edge, tmp_path):
    dimension = edge if option == "--dimension" else 2
    bank = _bank(tmp_path, 3, dimension)
    run = _brace("brace", bank, dimension)
    if option == "--horizon":
        run[run.index("--horizon") + 1] = edge
        _edge_verifies(run, tmp_path / "edge.json")
        run[run.index("--horizon") + 1] = edge + 1
        _refused(run, tmp_path / "beyond.json", "1..64")
    else:
        _edge_verifies(run, tmp_path / "edge.json")
        wide = _bank(tmp_path, 3, edge + 1)
        _refused(_brace("brace", wide, edge + 1), tmp_path / "beyond.json", "64")


# ---- deadline-witness/1 --------------------------------------------------------------------

def _deadline(sigma2, radius, scale, T):
    return ["deadline", "--gamma", "1/3", "--sigma2", sigma2, "--budget", 2, "--epsilon", 1, "--radius", radius,
            "--scale", scale, "--deadline", T]


@pytest.mark.slow
def test_deadline_numbers_at_the_digit_limit_verify(tmp_path):
    # D = 3·10^24, N = 10^30: D^T·N has 9,992 digits at T = 407
    _edge_verifies(_deadline(9, 24, "1e24", 407), tmp_path / "edge.json")


def test_deadline_numbers_beyond_the_digit_limit_are_refused(tmp_path):
    _refused(_deadline(9, 24, "1e24", 408), tmp_path / "beyond.json", "digits")


@pytest.mark.slow
def test_deadline_at_the_work_limit_verifies(tmp_path):
    _edge_verifies(_deadline(900, 150, "1e10", 234), tmp_path / "edge.json")


def test_deadline_beyond_the_work_limit_is_refused(tmp_path):
    _refused(_deadline(900, 150, "1e10", 235), tmp_path / "beyond.json", "work")


def test_deadline_with_its_reference_verifies(tmp_path):
    # the budget and the embedded dg-interval/1 upper end of Δ*_2(2) are checked with the witness
    _edge_verifies(_deadline(9, 24, "1e24", 5) + ["--reference"], tmp_path / "edge.json")


def test_deadline_work_estimate_is_the_auditors():
    from auditor.checks.deadline_witness import estimated_work as auditors
    from producer.lower.auditability import estimated_work
    for args in ((3, 24, 10 ** 24, 73, ((1, 1, 0),), 100), (1009, 150, 10 ** 10, 451, ((1, 1, 0), (1, -1, 0)), 234),
                 (7, 5, 2 ** 60, 11, ((1, -1, 0, 1),), 2000)):
        assert estimated_work(*args) == auditors(*args)


# ---- hierarchy/1 ---------------------------------------------------------------------------

def test_hierarchy_estimates_are_the_auditors():
    from auditor.hierarchy.estimate import estimates
    from auditor.hierarchy.model import Model
    from producer.hierarchy.auditability import auditor_estimates
    from producer.hierarchy.models import CutModel, DepthModel
    cases = [(DepthModel(8, 4), {"game": "depth", "depth": 4}), (DepthModel(8, 7), {"game": "depth", "depth": 7}),
             (CutModel(12, [1, 4, 5, 9]), {"game": "cuts", "cuts": [1, 4, 5, 9]}),
             (CutModel(6, []), {"game": "cuts", "cuts": []})]
    for ours, model in cases:
        for B, weights, priors, bits in ((3, 49, 1505, 170), (5, 9, 20003, 300), (1009, 49, 1505, 170)):
            assert auditor_estimates(ours, B, weights, priors, bits) == \
                estimates(Model.from_json(ours.budget, model), B, weights, priors, bits)


def test_hierarchy_beyond_the_auditors_work_limit_is_refused(tmp_path):
    # P_7 at C = 8 with the default 1500 priors: estimated auditor work 1.54·10¹⁰ > 1.5·10¹⁰
    _refused(["hierarchy", "--gamma", "1/3", "--sigma2", 9, "--budget", 8, "--depth", 7, "--epsilon", 2],
             tmp_path / "beyond.json", "work")


def test_hierarchy_references_are_within_the_auditors_limits():
    from producer.hierarchy.auditability import check_auditable_hierarchy
    from producer.hierarchy.models import CutModel, DepthModel
    paths = sorted((ROOT / "certificates" / "hierarchy").glob("*.json"))
    assert paths, "no hierarchy references found"
    for path in paths:
        cert = json.loads(path.read_text())
        inp, res, n = cert["input"], cert["result"], cert["input"]["numerics"]
        model = DepthModel(inp["budget"], inp["model"]["depth"]) if inp["model"]["game"] == "depth" \
            else CutModel(inp["budget"], inp["model"]["cuts"])
        check_auditable_hierarchy(model, int(inp["gamma"].split("/")[1]), len(res["source"]["weights"]),
                                  len(res["grid"]["numerators"]), int(n["source_scale"]), n["scale_bits"],
                                  n["grid_bits"])


# ---- calibration/1 -------------------------------------------------------------------------

def test_calibration_beyond_the_envelope_exponent_limit_is_refused(tmp_path):
    # 8C/σ² = 8·5/(1/1250) = 50,000 is the auditor's limit; one step smaller σ² is beyond it
    _refused(["calibrate", "--gamma", "1/3", "--sigma2", "1/1251", "--budget", 5, "--delta", "1/1000"],
             tmp_path / "beyond.json", "8C/σ²")


def test_calibration_envelope_limit_is_the_auditors():
    # at the limit itself (C = 5, σ² = 1/1250) no calibration can be written: the discrete Gaussian is then
    # a point mass but for e^-625, Δ*_5(ε) is about 1 at every ε <= 64 (the producer's limit for every
    # witness), so the edge is compared instead
    from auditor.checks.dg_interval import MAX_EXP_ARGUMENT
    from producer.kinds.calibration import MAX_ENVELOPE_EXPONENT
    assert MAX_ENVELOPE_EXPONENT == MAX_EXP_ARGUMENT == 8 * 5 * 1250


# ---- calibration-lower/1 (target-zero) -----------------------------------------------------

def test_target_zero_line_work_limit_is_the_auditors():
    from auditor.checks.calibration_lower import MAX_LINE_WORK
    from producer.kinds.calibration_lower import _check_line_work
    _check_line_work(2553, 20001, 28)                 # C = 16, radius 28: 2.96·10⁹ <= 3·10⁹
    with pytest.raises(LimitError, match="auditor"):
        _check_line_work(2553, 20001, 30)             # 3.17·10⁹
    assert 2553 * 20001 * 58 <= MAX_LINE_WORK < 2553 * 20001 * 62


def test_target_zero_beyond_the_line_work_limit_is_refused(tmp_path):
    _refused(["calibrate-lower", "--claim", "target-zero", "--budget", 16, "--priors", 20001, "--radius", 30],
             tmp_path / "beyond.json", "line-tree")


# ---- calibration-lower/1 (capped-preparation) ----------------------------------------------

def _capped(cap):
    from producer.kinds import calibration_lower as cl
    fields = dict(cl.K2, cap=cap, horizon=cap + 5)
    return lambda: cl.build(cl.Request.of(fields.pop("claim"), **fields))


def test_capped_preparation_at_the_digit_limit_verifies_and_beyond_is_refused(tmp_path):
    # the line's numbers are bounded before the work: with K.2's source, cap 75 (T = 80) is the last within
    # the reader's 10,000 digits (docs/lower-certificates.md §3.1)
    _built_edge_verifies(_capped(75), tmp_path / "edge.json")
    _built_refused(_capped(76), "reader limit of 10000")


def test_capped_preparation_work_estimate_is_the_auditors():
    from producer.kinds.calibration_lower import MAX_CAPPED_WORK, capped_work
    from auditor.checks import calibration_lower as audit
    assert MAX_CAPPED_WORK == audit.MAX_CAPPED_WORK
    assert capped_work(29, 33, 8, 5, 2) == 29 * 33 * 18 + 18 ** 3 * 20 + 2 ** 2 * 18 ** 2


# ---- separation/1 ----------------------------------------------------------------------------

def _separation(claim, **fields):
    from producer.kinds import separation as sep
    return lambda: sep.build(sep.Request.of(claim, **fields))


def test_renyi_box_at_the_limit_verifies_and_beyond_is_refused(tmp_path):
    from gmpy2 import mpq
    args = dict(sigma2=9, p=mpq(23, 10000), q=mpq(27, 100000), scale=10 ** 18)
    _built_edge_verifies(_separation("renyi-cover", low=-200, high=200, **args), tmp_path / "edge.json")
    _built_refused(_separation("renyi-cover", low=-200, high=201, **args), "width 401 exceeds the auditor's limit 400")


@pytest.mark.slow
def test_offset_event_box_at_the_reader_limit_verifies(tmp_path):
    from gmpy2 import mpq
    _built_edge_verifies(_separation("offset-event", sigma2=9, epsilon=2, low=-90, high=90, radius=24, scale=10 ** 24,
                                     separator=mpq(1, 10000)), tmp_path / "edge.json")


def test_offset_event_box_beyond_the_reader_limit_is_refused():
    from gmpy2 import mpq
    _built_refused(_separation("offset-event", sigma2=9, epsilon=2, low=-90, high=91, radius=24, scale=10 ** 24,
                               separator=mpq(1, 10000)), "at most 181 columns")


@pytest.mark.slow
def test_finite_relaxation_at_the_auditors_law_limits_verifies(tmp_path):
    from gmpy2 import mpq
    _built_edge_verifies(_separation("finite-relaxation", law=([1] * 80, -40), gamma="5/12", x=mpq(1), y=mpq(1, 2)),
                         tmp_path / "edge.json")


def test_finite_relaxation_beyond_the_auditors_law_limits_is_refused():
    from gmpy2 import mpq
    _built_refused(_separation("finite-relaxation", law=([1] * 81, -40), gamma="5/12", x=1, y=mpq(1, 2)),
                   "81 atoms exceeds the auditor's limit of 80")
    _built_refused(_separation("finite-relaxation", law=([1] * 80, -40), gamma="5/13", x=1, y=mpq(1, 2)),
                   "denominator 13 exceeds the auditor's limit 12")
    _built_refused(_separation("dg-relaxation", relaxation="one-digit", gamma="1/3", sigma2=9, epsilon=2, radius=40,
                               scale=10 ** 24, denominator=10 ** 30, separator=mpq(423, 5000000)), "radius <= 39")


def test_separation_limits_are_the_auditors():
    from auditor.checks import separation as audit
    from auditor.lower import renyi as audit_renyi
    from producer.kinds import separation as sep
    assert (sep.MAX_LAW_LENGTH, sep.MAX_GAMMA_DENOMINATOR, sep.MAX_ATOMS, sep.MAX_RENYI_BOX) == \
        (audit.MAX_LAW_LENGTH, audit.MAX_GAMMA_DENOMINATOR, audit.MAX_ATOMS, audit_renyi.MAX_BOX)
    assert sep.MAX_EVENT_BOX ** 2 * 3 + 1000 <= 100_000 < (sep.MAX_EVENT_BOX + 1) ** 2 * 3 + 1000


# ---- workload/1 ----------------------------------------------------------------------------

def test_workload_at_the_largest_theta_verifies_and_the_next_is_refused(tmp_path):
    # with the published A, σ² and S the Gaussian term outgrows the auditor's working precision
    # (its bits + 48, retried at 4x, <= 16,384) after θ = 143
    _edge_verifies(["workload", "--theta", 143], tmp_path / "edge.json")
    _refused(["workload", "--theta", 144], tmp_path / "beyond.json", "auditor")


@pytest.mark.parametrize("args", [["--dimension", 10 ** 9 + 1], ["--theta", 10 ** 4 + 1], ["--theta", 10 ** 4]])
def test_workload_beyond_the_auditors_limits_is_refused_before_work(args, tmp_path):
    _refused(["workload", *args], tmp_path / "beyond.json", "auditor")

