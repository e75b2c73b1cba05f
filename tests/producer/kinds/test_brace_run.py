"""producer.kinds.brace_run (and brace_compare, the same request): the limits at their edge, and a value left out or
not a switch refused in one line.

Just inside a limit the certificate verifies; one step beyond, the producer refuses with one line.
"""

import json

import pytest

from producer.certificates.readability import value_bound
from producer.errors import InputError
from producer.kinds.brace_run import Request
from tests.producer.kinds.edges import ROOT, edge_verifies, refused


# ---- the reader's value limit, γ, T and d at their edge ------------------------------------


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
    refused(_brace(command, _bank(tmp_path, 20000, 5), 5), tmp_path / "beyond.json", "JSON values")


@pytest.mark.slow
def test_a_bank_near_the_readers_value_limit_verifies(tmp_path):
    # 16,000 points × 5 values, plus the steps: about 93,000 values; the steps grow with the bank too,
    # so a larger bank is refused when sealed (the exact count), never written
    edge_verifies(_brace("brace", _bank(tmp_path, 16000, 4), 4), tmp_path / "edge.json")
    assert 85_000 < value_bound((tmp_path / "edge.json").read_text()) <= 100_000


@pytest.mark.slow
def test_a_bank_whose_steps_pass_the_readers_value_limit_is_refused_when_sealed(tmp_path):
    refused(_brace("brace", _bank(tmp_path, 19000, 4), 4), tmp_path / "beyond.json", "JSON values")


def test_brace_gamma_at_the_limit_verifies_and_beyond_is_refused(tmp_path):
    # e^-γ is published with 128-bit dyadic ends: at γ = 64 the lower end is still positive
    bank = ROOT / "data" / "brace" / "synthetic.json"
    run = ["brace", "--bank", bank, "--query", "0.3,0.2", "--r2", "16/25", "--horizon", 3, "--kappa", 128,
           "--epsilon", 128, "--delta", "1/100000", "--seed", 5, "--allow-uncalibrated", "--gamma"]
    edge_verifies(run + [64], tmp_path / "edge.json")
    for beyond in ("64.000001", "1e12"):
        refused(run + [beyond], tmp_path / "beyond.json", "exceeds the limit 64")


@pytest.mark.parametrize("option, edge", [("--horizon", 64), ("--dimension", 64)])
def test_brace_horizon_and_dimension_at_the_limit_verify_and_beyond_are_refused(option, edge, tmp_path):
    dimension = edge if option == "--dimension" else 2
    bank = _bank(tmp_path, 3, dimension)
    run = _brace("brace", bank, dimension)
    if option == "--horizon":
        run[run.index("--horizon") + 1] = edge
        edge_verifies(run, tmp_path / "edge.json")
        run[run.index("--horizon") + 1] = edge + 1
        refused(run, tmp_path / "beyond.json", "1..64")
    else:
        edge_verifies(run, tmp_path / "edge.json")
        wide = _bank(tmp_path, 3, edge + 1)
        refused(_brace("brace", wide, edge + 1), tmp_path / "beyond.json", "64")


# ---- values left out and switches ----------------------------------------------------------

BANK = [["0", "0"], ["1", "0"], ["0", "1"]]
KW = dict(r2="16/25", horizon=2, kappa=2, epsilon=128, delta="1e-3", seed=1)


def test_a_query_left_out_is_refused_in_one_line():
    with pytest.raises(InputError, match="^query: give one value, a comma-separated text or a list$"):
        Request.from_strings(BANK, None, **KW)
    assert Request.from_strings(BANK, ["0.3", "0.2"], **KW).query == Request.from_strings(BANK, "0.3,0.2", **KW).query


@pytest.mark.parametrize("allow", ["no", "false", 0, None])
def test_allow_uncalibrated_is_true_or_false_never_a_text_read_as_true(allow):
    with pytest.raises(InputError, match="^allow_uncalibrated: expected True or False, got "):
        Request.from_strings(BANK, "0.3,0.2", allow_uncalibrated=allow, **KW)
    assert Request.from_strings(BANK, "0.3,0.2", allow_uncalibrated=True, **KW).allow_uncalibrated is True
