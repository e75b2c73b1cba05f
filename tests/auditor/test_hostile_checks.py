"""Hand-made hostile certificates: every stored number, display, witness and label is
checked, work beyond the limits is refused as UNCHECKED before it starts, and the
same malformed input gets the same exit in every kind.

Each certificate is a reference certificate from ``certificates/`` with fields
edited and its digest recomputed (``auditor.certificate.digest``), so exactly
the edited claim is at stake.  A refusal is asserted by the line the command
prints (``auditor.cli.text_lines``) and by the work the kind's checks did
before it (:func:`tests.untimed.check_calls`), never by a time.
"""

import copy
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest

from auditor.certificate import digest
from auditor.cli import text_lines, verify_file
from tests.untimed import HANG_GUARD_SECONDS, check_calls

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CERTS = os.path.join(ROOT, "certificates")
OK, FAIL, MALFORMED, UNCHECKED = 0, 1, 2, 3


def reference(name):
    with open(os.path.join(CERTS, name), encoding="utf-8") as fh:
        return json.load(fh)


def seal(cert):
    cert["digest"] = digest(cert)
    return cert


def fmt(q):
    q = Fraction(q)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def decimal(q, places, up):
    """q rounded down (up=False) or up at ``places`` decimals (the test's own rounding)."""
    s = Fraction(q) * 10 ** places
    n = -((-s.numerator) // s.denominator) if up else s.numerator // s.denominator
    sign = "-" if n < 0 else ""
    whole, frac = divmod(abs(n), 10 ** places)
    return f"{sign}{whole}.{frac:0{places}d}"


def run(tmp_path, cert, name="c.json"):
    """In-process verification: (status, pointers of the failures)."""
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    status, report = verify_file(str(path))
    return status, {f["pointer"] for f in report.failures}


def run_cli(tmp_path, cert, name="c.json"):
    """The command line in a subprocess: (status, stdout, stderr)."""
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    done = subprocess.run([sys.executable, "-m", "auditor", "verify", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


def run_lines(tmp_path, cert, name="c.json"):
    """In-process verification: (status, the lines the command prints, the checks' work)."""
    path = tmp_path / name
    path.write_text(json.dumps(cert))
    with check_calls() as work:
        status, report = verify_file(str(path))
    return status, "\n".join(text_lines(report)), work


def refused(tmp_path, cert, pointer):
    """UNCHECKED at ``pointer``, from the estimate: the kind's checks did no work before refusing."""
    status, out, work = run_lines(tmp_path, seal(cert))
    assert status == UNCHECKED, out
    assert f"UNCHECKED {pointer}" in out, out
    assert work.before_the_work, (work, out)
    return out


def not_established(tmp_path, cert, pointer):
    """FAIL (exit 1) with the one failure at ``pointer`` marked as not established by the recipe."""
    status, out, _ = run_lines(tmp_path, seal(cert))
    assert status == FAIL, out
    assert f"FAIL {pointer}: not established by the certificate's recipe" in out, out
    return out


# ---- envelope/1: a stored enclosure must contain the true value -------------

ENV = "envelope-t2-n2-k1-j1-refuted.json"   # T = 2, n = 2, k = 1, J = 1; db 0 has E = 1/2 exactly


def _set_error(cert, lo, hi):
    """Database 0's l-inf error := [lo, hi], with the maximum and the displays kept consistent."""
    res = cert["result"]
    dbs = res["databases"]
    dbs[0]["error_linf"] = {"lo": fmt(lo), "hi": fmt(hi)}
    dbs[0]["error_decimal"] = [decimal(lo, 8, False), decimal(hi, 8, True)]
    los = [Fraction(db["error_linf"]["lo"]) for db in dbs]
    his = [Fraction(db["error_linf"]["hi"]) for db in dbs]
    eb = res["claims"]["error_bound"]
    eb["max_error"] = {"lo": fmt(max(los)), "hi": fmt(max(his))}
    eb["max_error_decimal"] = [decimal(max(los), 8, False), decimal(max(his), 8, True)]
    return cert


def test_envelope_reference_is_exactly_one_half_where_the_attack_needs_it(tmp_path):
    cert = reference(ENV)
    enc = cert["result"]["databases"][0]["error_linf"]
    assert Fraction(enc["lo"]) < Fraction(1, 2) < Fraction(enc["hi"])
    assert run(tmp_path, cert)[0] == OK


def test_envelope_point_enclosure_excluding_the_true_value_fails(tmp_path):
    cert = _set_error(reference(ENV), Fraction(509, 1024), Fraction(509, 1024))
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL
    assert "/result/databases/0/error_linf" in pointers


def test_envelope_point_enclosure_of_the_true_value_is_not_established_never_ok(tmp_path):
    # [1/2, 1/2] is true, but no enclosure the auditor can reach lies inside a point: a failed proof
    cert = _set_error(reference(ENV), Fraction(1, 2), Fraction(1, 2))
    not_established(tmp_path, cert, "/result/databases/0/error_linf")


def test_envelope_constant_narrowed_to_a_false_point_fails(tmp_path):
    cert = reference(ENV)
    bound = cert["result"]["claims"]["pure_dp"]["bound"]
    bound["hi"] = bound["lo"]                      # e^600 is irrational: the point is false
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and "/result/claims/pure_dp/bound" in pointers


def test_envelope_display_far_from_its_value_fails(tmp_path):
    cert = reference(ENV)
    cert["result"]["databases"][0]["normaliser_decimal"] = ["0.000000001", "0.000000002"]
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL
    assert "/result/databases/0/normaliser_decimal/0" in pointers


def test_envelope_display_wider_than_outward_rounding_fails(tmp_path):
    cert = reference(ENV)
    cert["result"]["claims"]["error_bound"]["bound_decimal"] = ["0.0", "1000"]
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and "/result/claims/error_bound/bound_decimal/0" in pointers


@pytest.mark.parametrize("display", ["1e-9", "0.5\n", " 0.5", "0x1"])
def test_envelope_display_not_a_plain_decimal_is_malformed(tmp_path, display):
    cert = reference(ENV)
    cert["result"]["databases"][0]["normaliser_decimal"][0] = display
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_envelope_unknown_method_text_is_malformed(tmp_path):
    cert = reference(ENV)
    cert["result"]["method"] = "trust me"
    assert run(tmp_path, seal(cert))[0] == MALFORMED


@pytest.mark.parametrize("field, value", [("universe", 2.0), ("records", 2.0), ("rounds", 1.0)])
def test_envelope_float_where_an_integer_is_meant_is_malformed(tmp_path, field, value):
    cert = reference(ENV)
    cert["input"][field] = value
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_envelope_float_in_the_transcript_list_is_malformed(tmp_path):
    cert = reference(ENV)
    cert["result"]["transcripts"][0][0] = 0.0
    assert run(tmp_path, seal(cert))[0] == MALFORMED


@pytest.mark.parametrize("field, value", [("records", 10 ** 12), ("rounds", 10 ** 12)])
def test_envelope_astronomical_universe_is_refused_at_once(tmp_path, field, value):
    cert = reference(ENV)
    cert["input"][field] = value
    refused(tmp_path, cert, "/input")


def test_envelope_astronomical_histogram_count_is_computed_by_size(tmp_path):
    # T = 60, n = 10^6: C(n + 59, 59) histograms; enumerating (n+1)^T vectors would never end
    cert = reference(ENV)
    cert["input"]["universe"] = 60
    cert["input"]["records"] = 10 ** 6
    cert["input"]["queries"] = [["0"] * 59 + ["1"]]
    refused(tmp_path, cert, "/input")


def test_envelope_huge_exponent_is_refused(tmp_path):
    cert = reference(ENV)
    cert["input"]["epsilon"] = str(10 ** 12)
    refused(tmp_path, cert, "/input/epsilon")


# ---- dg-interval/1 -----------------------------------------------------------

DG = "dg-interval-c1-explicit-source.json"   # gamma 1/3, sigma2 9, C = 1, radius 12


def test_dg_reference_verifies(tmp_path):
    assert run(tmp_path, reference(DG))[0] == OK


@pytest.mark.parametrize("witness, pointer", [
    ({"action": "stop"}, "/result/finite/witness"),
    ({"action": "echo"}, "/result/finite/witness/action"),
    ({"action": "participate", "sign": 1}, "/result/finite/witness/k"),
])
def test_dg_witness_is_checked(tmp_path, witness, pointer):
    cert = reference(DG)
    cert["result"]["finite"]["witness"] = witness
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointer in pointers


def test_dg_witness_with_a_non_optimal_preparation_fails(tmp_path):
    from auditor.game import values
    from auditor.game.rows import Law
    cert = reference(DG)
    fin, src = cert["result"]["finite"], cert["result"]["source"]
    weights = [int(w) for w in src["weights"]]
    value, y = Fraction(fin["value"]), Fraction(fin["y"])
    k = next(k for k in range(fin["witness"]["k"] + 1, fin["witness"]["k"] + 50)
             if values.root_action_value(Law(weights, src["offset"], 1, 3), 1, 1, y, k, 1) != value)
    fin["witness"]["k"] = k
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointers == {"/result/finite/witness"}


def test_dg_witness_float_preparation_is_malformed(tmp_path):
    cert = reference(DG)
    cert["result"]["finite"]["witness"]["k"] = float(cert["result"]["finite"]["witness"]["k"])
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_dg_unknown_method_is_malformed(tmp_path):
    cert = reference(DG)
    cert["result"]["finite"]["method"] = "magic"
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_dg_requested_method_must_be_the_one_used(tmp_path):
    cert = reference(DG)
    cert["input"]["method"] = "enumerate"
    cert["result"]["finite"]["method"] = "compiled"
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointers == {"/result/finite/method"}


def test_dg_reduced_is_legal_for_the_symmetric_source_at_c1(tmp_path):
    cert = reference(DG)
    cert["input"]["method"] = "reduced"
    cert["result"]["finite"]["method"] = "reduced"
    assert run(tmp_path, seal(cert))[0] == OK


def _dg_with(**changes):
    cert = reference(DG)
    for path, value in changes.items():
        node = cert
        keys = path.split("__")
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return cert


@pytest.mark.parametrize("changes, pointer", [
    ({"input__epsilon": str(10 ** 12)}, "/input/epsilon"),
    ({"input__budget": 10 ** 12}, "/input/budget"),
    ({"input__sigma2": "1/" + str(10 ** 12), "result__source__sigma2": "1/" + str(10 ** 12)},
     "/result/source/radius"),
    ({"input__sigma2": str(10 ** 12), "result__source__sigma2": str(10 ** 12)}, "/input/sigma2"),
])
def test_dg_absurd_parameters_are_refused_at_once(tmp_path, changes, pointer):
    refused(tmp_path, _dg_with(**changes), pointer)


def test_dg_radius_3000_is_refused_at_once(tmp_path):
    cert = reference(DG)
    src = cert["result"]["source"]
    L = 3000
    src.update(radius=L, offset=-L, weights=["1"] * (2 * L + 1), scale=str(2 * L + 1))
    cert["input"]["source"] = {"radius": L, "scale": str(2 * L + 1)}
    refused(tmp_path, cert, "/result/source/weights")


def test_dg_radius_within_the_weight_limit_but_beyond_the_work_limit_is_refused(tmp_path):
    cert = reference(DG)
    src = cert["result"]["source"]
    L = 2000                      # 4001 weights at C = 2: estimated work above 2·(4003)^3
    # weights with pairwise different neighbour ratios: no two root outputs share a
    # likelihood ratio, so the estimate cannot shrink by ratio groups (a uniform law would)
    weights = [1 + i * i for i in range(2 * L + 1)]
    src.update(radius=L, offset=-L, weights=[str(w) for w in weights], scale=str(sum(weights)))
    cert["input"]["source"] = {"radius": L, "scale": str(sum(weights))}
    cert["input"]["budget"] = 2
    refused(tmp_path, cert, "/input/budget")


def test_dg_float_budget_is_malformed(tmp_path):
    assert run(tmp_path, seal(_dg_with(input__budget=1.0)))[0] == MALFORMED


def test_dg_display_far_from_its_value_fails(tmp_path):
    cert = reference(DG)
    cert["result"]["interval"]["lower_display"] = "0.000000001"
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointers == {"/result/interval/lower_display"}


# ---- finite-game/1: method labels, limits, integer fields --------------------

def test_finite_game_reduced_label_needs_symmetry_and_budget_at_most_two(tmp_path):
    sym_c2 = reference("finite-game-c2-121-g1_3.json")
    sym_c2["result"]["method"] = "reduced"
    assert run(tmp_path, seal(sym_c2))[0] == OK
    for name in ("finite-game-c1-asym-g3_7.json", "finite-game-c3-radius2-g1_3.json"):
        cert = reference(name)
        cert["result"]["method"] = "reduced"
        status, pointers = run(tmp_path, seal(cert))
        assert status == FAIL and pointers == {"/result/method"}, name


@pytest.mark.parametrize("label", ["compiled", "enumerate"])
def test_finite_game_general_labels_are_legal_for_any_law(tmp_path, label):
    cert = reference("finite-game-c1-asym-g3_7.json")
    cert["result"]["method"] = label
    assert run(tmp_path, seal(cert))[0] == OK


@pytest.mark.parametrize("label", ["magic", "", "Enumerate"])
def test_finite_game_unknown_label_is_malformed(tmp_path, label):
    cert = reference("finite-game-c2-121-g1_3.json")
    cert["result"]["method"] = label
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_finite_game_huge_budget_and_law_are_refused_at_once(tmp_path):
    cert = reference("finite-game-c2-121-g1_3.json")
    cert["input"]["budget"] = 10 ** 12
    refused(tmp_path, cert, "/input/budget")
    cert = reference("finite-game-c2-121-g1_3.json")
    cert["input"]["law"]["weights"] = ["1"] * 5_001
    refused(tmp_path, cert, "/input/law/weights")


@pytest.mark.parametrize("field", ["k", "sign"])
def test_finite_game_float_witness_fields_are_malformed(tmp_path, field):
    cert = reference("finite-game-c2-121-g1_3.json")
    w = cert["result"]["queries"][0]["witness"]
    w[field] = float(w[field])
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_finite_game_float_budget_is_malformed(tmp_path):
    cert = reference("finite-game-c2-121-g1_3.json")
    cert["input"]["budget"] = 2.0
    assert run(tmp_path, seal(cert))[0] == MALFORMED


# ---- one malformed gamma, one exit status in every kind ----------------------

def _gamma_everywhere(cert, value):
    """Set gamma in the certificate and in every embedded dg-interval."""
    cert["input"]["gamma"] = value
    for key in ("upper_witness", "lower_witness"):
        inner = cert["result"].get(key)
        if inner:
            inner["input"]["gamma"] = value
            seal(inner)
    return seal(cert)


@pytest.mark.parametrize("name", [DG, "finite-game-c2-121-g1_3.json", "calibration-c2-zero.json"])
@pytest.mark.parametrize("gamma", ["2/6", "3/3", "4/3", "1", "0/1", "-0"])  # "0" is plain composition
def test_malformed_gamma_is_exit_2_in_every_kind(tmp_path, name, gamma):
    assert run(tmp_path, _gamma_everywhere(reference(name), gamma))[0] == MALFORMED


# ---- calibration/1 -------------------------------------------------------------

CAL = "calibration-c2-zero.json"


def test_calibration_delta_next_to_one_gives_an_answer_not_a_crash(tmp_path):
    cert = reference(CAL)
    cert["input"]["delta"] = f"{10 ** 60 - 1}/{10 ** 60}"
    status, out, err = run_cli(tmp_path, seal(cert))
    assert status == OK, out + err          # Δ*(0) <= 0.24 <= δ: ε* = 0 is true


def test_calibration_tiny_sigma2_is_refused_at_once(tmp_path):
    cert = reference(CAL)
    tiny = "1/" + str(10 ** 12)
    cert["input"]["sigma2"] = tiny
    w = cert["result"]["upper_witness"]
    w["input"]["sigma2"] = w["result"]["source"]["sigma2"] = tiny
    seal(w)
    refused(tmp_path, cert, "/input/sigma2")


@pytest.mark.parametrize("delta", ["1/1", "3/2"])
def test_calibration_delta_outside_zero_one_is_malformed(tmp_path, delta):
    cert = reference(CAL)
    cert["input"]["delta"] = delta
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_calibration_float_query_count_is_malformed(tmp_path):
    cert = reference(CAL)
    cert["result"]["queries"] = 1.0
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_calibration_display_far_from_its_value_fails(tmp_path):
    cert = reference(CAL)
    cert["result"]["epsilon_hi_display"] = "0.000000000001"
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointers == {"/result/epsilon_hi_display"}


# ---- brace-run/1, brace-compare/1 ------------------------------------------------

RUN = "brace-synthetic.json"


def test_brace_bracket_display_far_from_the_bracket_fails(tmp_path):
    cert = reference(RUN)
    b = cert["result"]["steps"][0]["bracket"]
    assert Fraction(1) < Fraction(b["lo"]) < Fraction(11, 10)          # the bracket is about 1.05
    b["display"] = ["0.000000001", "0.000000002"]
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL
    assert {"/result/steps/0/bracket/display/0", "/result/steps/0/bracket/display/1"} <= pointers


def test_brace_admissible_display_is_rounded_down(tmp_path):
    cert = reference(RUN)
    e8 = cert["result"]["constants"]["eq8"]
    e8["admissible_display"] = decimal(Fraction(e8["admissible"]), 12, True)
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and pointers == {"/result/constants/eq8/admissible_display"}


def test_brace_unknown_method_text_is_malformed(tmp_path):
    cert = reference(RUN)
    cert["result"]["method"] = "BRACE, roughly"
    assert run(tmp_path, seal(cert))[0] == MALFORMED
    cert = reference("brace-synthetic-compare.json")
    cert["result"]["baselines"]["naive"]["rule"] = "anything"
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_brace_enclosure_narrowed_to_a_false_point_fails(tmp_path):
    cert = reference(RUN)
    pair = cert["result"]["constants"]["log_inv_delta"]
    pair[1] = pair[0]                                    # log(10^5) is irrational
    status, pointers = run(tmp_path, seal(cert))
    assert status == FAIL and "/result/constants/log_inv_delta" in pointers


def test_brace_enclosure_too_narrow_to_decide_is_not_established(tmp_path):
    from auditor.brace.calibration import Enclosures
    cert = reference(RUN)
    inp = cert["input"]
    tight = Enclosures(Fraction(inp["epsilon"]), Fraction(inp["delta"]), inp["horizon"], 2, 8192).L
    cert["result"]["constants"]["log_inv_delta"] = [fmt(tight[0]), fmt(tight[1])]
    not_established(tmp_path, cert, "/result/constants/log_inv_delta")


def test_brace_delta_next_to_one_is_answered_without_a_crash(tmp_path):
    cert = reference(RUN)
    d = f"{10 ** 60 - 1}/{10 ** 60}"
    cert["input"]["delta"] = cert["result"]["claim"]["delta"] = d
    status, out, _ = run_cli(tmp_path, seal(cert))
    assert status == FAIL and "/result/constants/log_inv_delta" in out


@pytest.mark.parametrize("field, value, pointer", [
    ("horizon", 10 ** 12, "/input/horizon"),
    ("points", 20_001, "/input/bank/points"),
    ("dimension", 100, "/input/query"),
])
def test_brace_huge_sizes_are_refused_at_once(tmp_path, field, value, pointer):
    # 20,001 points: the schema first validates their 60,000 values (CPU seconds, docs/certificates.md),
    # then the bank's limit refuses before any work of the kind's checks
    cert = reference(RUN)
    inp = cert["input"]
    if field == "horizon":
        inp["horizon"] = value
    elif field == "points":
        inp["bank"]["points"] = [inp["bank"]["points"][0]] * value
    else:
        inp["query"] = ["0"] * value
    refused(tmp_path, cert, pointer)


def test_brace_float_horizon_is_malformed(tmp_path):
    cert = reference(RUN)
    cert["input"]["horizon"] = float(cert["input"]["horizon"])
    assert run(tmp_path, seal(cert))[0] == MALFORMED


def test_every_reference_still_verifies_untouched(tmp_path):
    """The hostile edits above start from honest files: a control for the whole corpus."""
    for name in (ENV, DG, CAL, RUN, "finite-game-c2-121-g1_3.json"):
        cert = copy.deepcopy(reference(name))
        assert run(tmp_path, cert)[0] == OK, name


def _reseal_dg_interval(cert):
    """Recompute b, the interval, its width and displays from the certificate's own numbers."""
    res, C = cert["result"], cert["input"]["budget"]
    tau = Fraction(res["tau"])
    lam_lo, lam_hi = Fraction(res["threshold"]["lower"]), Fraction(res["threshold"]["upper"])
    v = Fraction(res["finite"]["hockey_stick"])
    b = (1 + lam_hi) * (1 - (1 - tau) ** (2 * C))
    lower, upper = max(Fraction(0), v - (lam_hi - lam_lo) - b), min(Fraction(1), v + b)
    places = len(res["interval"]["lower_display"].split(".")[1])
    res["transfer"] = fmt(b)
    res["interval"] = {"lower": fmt(lower), "upper": fmt(upper), "width": fmt(upper - lower),
                       "lower_display": decimal(lower, places, False),
                       "upper_display": decimal(upper, places, True)}
    return seal(cert)


def test_dg_tau_true_but_too_tight_to_decide_is_not_established_never_ok(tmp_path):
    from auditor.enclosures import normaliser_bounds
    cert = reference(DG)
    src = cert["result"]["source"]
    S, L = int(src["scale"]), src["radius"]
    bits = S.bit_length() + 64
    _, z_hi = normaliser_bounds(Fraction(9), 32 * bits)       # far beyond the auditor's retry
    exact = Fraction(int(src["weights"][L]), S) - 1 / z_hi     # >= TV, but only just
    k = 16 * bits
    tau = Fraction(-((-exact.numerator << k) // exact.denominator), 1 << k)   # rounded up: still >= TV
    cert["result"]["tau"] = fmt(tau)
    not_established(tmp_path, _reseal_dg_interval(cert), "/result/tau")


def test_dg_tau_just_below_tv_fails(tmp_path):
    from auditor.enclosures import normaliser_bounds
    cert = reference(DG)
    src = cert["result"]["source"]
    S, L = int(src["scale"]), src["radius"]
    z_lo, _ = normaliser_bounds(Fraction(9), 2 * S.bit_length())
    exact = Fraction(int(src["weights"][L]), S) - 1 / z_lo - Fraction(1, 2 ** 40)   # < TV, by 2^-40
    tau = Fraction((exact.numerator << 200) // exact.denominator, 1 << 200)
    cert["result"]["tau"] = fmt(tau)
    status, pointers = run(tmp_path, _reseal_dg_interval(cert))
    assert status == FAIL and pointers == {"/result/tau"}


# ---- a mutator over valid certificates ---------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FAST = [ENV, DG, CAL, "finite-game-c2-121-g1_3.json", "finite-game-f2-121-g1_3-pending-1-0.json"]
REPLACEMENTS = [0, 1, -1, 2.0, 1.0, 0.0, True, None, "", "x", "-0", "1/0", "2/4", "0.5", "1e5", "-1",
                str(10 ** 40), "1/" + str(10 ** 40), 10 ** 30, -10 ** 30, 10 ** 12, [], {}, [1, 2]]


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _leaves(v, path + (i,))
    else:
        yield path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FAST), pick=st.integers(min_value=0), new=st.sampled_from(REPLACEMENTS))
def test_any_single_leaf_mutation_gets_an_outcome_never_an_exception(tmp_path, name, pick, new):
    """Some replacements keep every claim true (a widened enclosure, the other sign of a
    symmetric law, the producer's name), so OK is a possible outcome; a traceback is not."""
    cert = reference(name)
    # an embedded witness's own digest is recomputed below, which would undo its mutation
    paths = [p for p in _leaves(cert) if p[0] in ("input", "result") and p[-1] != "digest"]
    path = paths[pick % len(paths)]
    node = cert
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = new
    for key in ("upper_witness", "lower_witness"):
        inner = cert["result"].get(key)
        if isinstance(inner, dict):
            seal(inner)
    status, _ = run(tmp_path, seal(cert))
    assert status in (OK, FAIL, MALFORMED, UNCHECKED)
    if isinstance(new, float):
        assert status == MALFORMED, path      # no field of any kind is a JSON float
