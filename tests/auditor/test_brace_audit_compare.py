"""The auditor on brace-compare certificates."""

import copy

import pytest

from auditor.cli import verify_file
from tests.auditor.brace_corpus import mutations, produce, reseal, write


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    return produce(tmp_path_factory.mktemp("cmp"), "brace-compare", name="cmp.json")


def test_true_compare_verifies(cert, tmp_path):
    status, report = verify_file(write(tmp_path, cert))
    assert status == 0, report.failures


def test_baseline_and_error_mutations_rejected(cert, tmp_path):
    accepted, n = [], 0
    for pointer, m in mutations(cert):
        if pointer.startswith("/result/brace/"):
            continue  # the run checks are exercised in test_brace_run.py
        n += 1
        if verify_file(write(tmp_path, m))[0] == 0:
            accepted.append(pointer)
    assert n > 30
    assert not accepted, accepted


def test_embedded_run_mutation_rejected(cert, tmp_path):
    m = copy.deepcopy(cert)
    m["result"]["brace"]["steps"][0]["variance"] = "1/7"
    assert verify_file(write(tmp_path, reseal(m)))[0] == 1


def test_swapped_baselines_rejected(cert, tmp_path):
    m = copy.deepcopy(cert)
    b = m["result"]["baselines"]
    b["naive"], b["global"] = b["global"], b["naive"]
    assert verify_file(write(tmp_path, reseal(m)))[0] == 1
