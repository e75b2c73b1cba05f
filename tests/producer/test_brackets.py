"""Two-sided brackets of ε*_C(δ) from a lower-end and an upper-end certificate."""

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import producer
from producer.brackets import bracket
from producer.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
CERTS = ROOT / "certificates"
K2 = CERTS / "calibration-lower-k2-capped-c4.json"
C4 = CERTS / "calibration-published-c4-delta1e-4.json"
LOWER8 = CERTS / "slow" / "calibration-lower-target-zero-c8.json"
UPPER8 = CERTS / "hierarchy" / "hierarchy-c8-p4-delta1e-4.json"
UPPER16 = CERTS / "hierarchy" / "hierarchy-c16-p3-delta1e-4.json"
BRACKET8 = CERTS / "slow" / "epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c8-delta1e-4.json"
PAIR1000 = CERTS / "plain" / "epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json"
RELEASES = CERTS / "plain" / "epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json"


def load(path):
    return json.loads(path.read_text())


def test_budget_four_bracket_from_witness_and_exact_calibration():
    b = bracket(load(K2), load(C4))
    d = b.as_dict()
    lo, hi = Fraction(d["epsilon_lower"]), Fraction(d["epsilon_upper"])
    assert lo < hi
    # the witness lower end lies below the exact game's enclosure of ε*_4(10^-4)
    assert lo <= Fraction(load(C4)["result"]["epsilon_lo"])
    assert b.line().startswith("14.643279 ≤ ε*_4(1/10000) ≤ 14.740489")


def test_a_bracket_states_its_claim_as_a_certificate_does():
    b = producer.bracket(K2, C4)
    assert b.claim == b.line() == producer.bracket(load(K2), load(C4)).claim
    assert b.claim.startswith("14.643279 ≤ ε*_4(1/10000) ≤ 14.740489") and "auditor verify" in b.claim
    with pytest.raises(AttributeError):
        b.claim = "something else"


def test_budget_eight_bracket_meets_the_published_ends():
    d = bracket(load(LOWER8), load(UPPER8)).as_dict()
    assert Fraction(d["epsilon_lower"]) > Fraction("4.833477")   # published lower end
    assert Fraction(d["epsilon_upper"]) <= Fraction("4.875282")  # published upper end


def test_different_questions_are_refused():
    with pytest.raises(InputError, match="different questions"):
        bracket(load(LOWER8), load(UPPER16))


def test_contradicting_certificates_are_refused():
    upper = load(UPPER8)
    upper["result"]["epsilon"] = "4"  # below the witness: one of the two must be false
    with pytest.raises(InputError, match="contradict"):
        bracket(load(LOWER8), upper)


def test_wrong_kinds_are_named():
    with pytest.raises(InputError, match="no lower end"):
        bracket(load(UPPER8), load(UPPER8))
    with pytest.raises(InputError, match="no upper end"):
        bracket(load(K2), load(K2))


def test_api_and_cli_agree():
    line = producer.bracket(str(K2), load(C4)).line()
    run = subprocess.run([sys.executable, "-m", "producer", "bracket", str(K2), str(C4)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == line
    bad = subprocess.run([sys.executable, "-m", "producer", "bracket", str(LOWER8), str(UPPER16)],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and len(bad.stderr.splitlines()) == 1


def test_the_question_is_read_from_the_input_not_the_result():
    upper = load(UPPER8)
    upper["result"]["delta"] = "1/1000"        # the result disagrees with input.query.delta = 1/10000
    with pytest.raises(InputError, match="disagrees with its input: delta"):
        bracket(load(LOWER8), upper)
    upper = load(UPPER8)
    upper["result"]["meets_delta"] = False
    with pytest.raises(InputError, match="meets_delta"):
        bracket(load(LOWER8), upper)
    upper = load(UPPER8)
    upper["input"]["query"] = {"epsilon": "5"}  # an ε query answers no ε*_C(δ)
    with pytest.raises(InputError, match="ε query"):
        bracket(load(LOWER8), upper)


def test_a_lower_certificate_for_another_question_is_refused():
    lower = load(K2)
    lower["input"]["budget"] = 5                # a K.2 line read as a statement about C = 5
    with pytest.raises(InputError, match="different questions: lower .*C = 5"):
        bracket(lower, load(C4))
    lower = load(K2)
    lower["input"]["delta"] = "1/1000"
    with pytest.raises(InputError, match="different questions"):
        bracket(lower, load(C4))


@pytest.mark.parametrize("which, key, value", [
    ("upper_witness", "gamma", "1/3"), ("upper_witness", "budget", 3), ("upper_witness", "epsilon", "15"),
    ("lower_witness", "sigma2", "2"), ("lower_witness", "epsilon", "14")])
def test_a_calibration_whose_witnesses_answer_another_question_is_refused(which, key, value):
    upper = load(C4)
    upper["result"][which]["input"][key] = value
    with pytest.raises(InputError, match=f"disagrees with its input: {which}.input.{key}"):
        bracket(load(K2), upper)
    with pytest.raises(InputError, match="disagrees"):
        bracket(upper, load(C4))


def test_a_laplace_calibration_is_a_different_question():
    laplace = load(CERTS / "plain" / "calibration-plain-laplace-t2-c2-delta1e-6.json")
    b = bracket(laplace, laplace)
    assert "discrete Laplace t = 2" in b.line() and b.as_dict()["laplace"] == "2"
    dg = load(CERTS / "calibration-c2-delta1e-4.json")
    with pytest.raises(InputError, match="different questions"):
        bracket(dg, laplace)


def test_the_cli_refuses_a_disagreeing_certificate_with_one_line(tmp_path):
    upper = load(UPPER8)
    upper["result"]["delta"] = "1/1000"
    path = tmp_path / "upper.json"
    path.write_text(json.dumps(upper))
    run = subprocess.run([sys.executable, "-m", "producer", "bracket", str(LOWER8), str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.splitlines()) == 1 and "disagrees with its input" in run.stderr


# ---- epsilon-bracket/1 (what producer calibrate writes beyond the exact game) holds both ends -------------------


def test_an_epsilon_bracket_is_an_upper_end():
    """The README's pair: the target-zero witness below, calibrate's C = 8 certificate above."""
    b = bracket(load(LOWER8), load(BRACKET8))
    assert b.claim.startswith("4.834164 ≤ ε*_8(1/10000) ≤ 4.867767 for γ = 1/3, σ² = 9 (lower end: "
                              "calibration-lower/1, upper end: epsilon-bracket/1;")
    assert b.as_dict()["epsilon_upper"] == load(BRACKET8)["result"]["epsilon_hi"]


def test_an_epsilon_bracket_is_a_lower_end_where_it_has_one():
    both = bracket(load(BRACKET8), load(UPPER8)).as_dict()
    assert both["epsilon_lower"] == load(BRACKET8)["result"]["epsilon_lo"]
    assert both["epsilon_upper"] == load(UPPER8)["result"]["epsilon"]
    pair = bracket(load(PAIR1000), load(PAIR1000)).as_dict()  # the product-pair route, γ = 0
    res = load(PAIR1000)["result"]
    assert (pair["epsilon_lower"], pair["epsilon_upper"], pair["gamma"]) == (res["epsilon_lo"], res["epsilon_hi"], "0")
    beyond = load(BRACKET8)          # as beyond C = 64: no target-zero line, ε_lo null with the reason
    beyond["result"].update(epsilon_lo=None, epsilon_lo_display=None, lower_witness=None,
                            lower_reason="no lower construction: the target-zero witness line reaches C <= 64")
    with pytest.raises(InputError, match=r"^lower: this epsilon-bracket/1 certificate has no lower end "
                                         r"\(no lower construction"):
        bracket(beyond, load(UPPER8))
    assert bracket(load(LOWER8), beyond).upper.value == bracket(load(LOWER8), load(BRACKET8)).upper.value


def test_an_epsilon_bracket_whose_witness_states_another_end_is_refused():
    upper = load(BRACKET8)
    upper["result"]["epsilon_hi"] = "4"
    with pytest.raises(InputError, match="disagrees with its input: upper_witness.result.epsilon"):
        bracket(load(LOWER8), upper)
    lower = load(PAIR1000)
    lower["result"]["epsilon_lo"] = "99"
    with pytest.raises(InputError, match="lower_witness.input.epsilons"):
        bracket(lower, load(PAIR1000))


def test_a_list_of_releases_is_refused_in_one_line():
    with pytest.raises(InputError, match="^upper: this epsilon-bracket/1 certificate is about a list of releases"):
        bracket(load(PAIR1000), load(RELEASES))


def test_the_cli_takes_an_epsilon_bracket():
    run = subprocess.run([sys.executable, "-m", "producer", "bracket", str(LOWER8), str(BRACKET8)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.startswith("4.834164 ≤ ε*_8(1/10000) ≤ 4.867767"), run.stderr


def test_a_laplace_epsilon_bracket_answers_the_laplace_question():
    calibration = load(CERTS / "plain" / "calibration-plain-laplace-t2-c2-delta1e-6.json")
    pair = producer.epsilon_bracket("0", 2, "1e-6", laplace=2, width="1e-3")
    b = producer.bracket(calibration, pair)
    assert "discrete Laplace t = 2" in b.claim and b.upper.kind == "epsilon-bracket/1"
    assert b.lower.value <= b.upper.value


# ---- reading a certificate file -----------------------------------------------------------------------------------

@pytest.mark.parametrize("data, message", [
    (b'{"schema": "calibration/1", "schema": "epsilon-bracket/1"}', "it has the key 'schema' twice in one object$"),
    (b"[" * 100000, "it is nested too deep to read$"),
])
def test_a_certificate_that_json_would_read_by_its_last_key_or_not_at_all_is_one_line(tmp_path, data, message):
    from producer.brackets import read_certificate
    path = tmp_path / "cert.json"
    path.write_bytes(data)
    with pytest.raises(InputError, match=message):
        read_certificate(str(path))


def test_a_certificate_is_read_only_up_to_the_limit(tmp_path, monkeypatch):
    from producer import brackets
    from producer.errors import LimitError
    monkeypatch.setattr(brackets, "MAX_CERTIFICATE_BYTES", 16)  # /dev/zero once filled the memory
    path = tmp_path / "cert.json"
    path.write_bytes(b'{"schema": "x/1"}')
    with pytest.raises(LimitError, match="is larger than the limit of 16 bytes$"):
        brackets.read_certificate(str(path))
    path.write_bytes(b'{"schema":"x/1"}')
    assert brackets.read_certificate(str(path)) == {"schema": "x/1"}
