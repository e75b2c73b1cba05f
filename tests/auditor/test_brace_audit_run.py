"""The auditor on brace-run certificates: accepts true ones, rejects a corpus
of wrong ones (every result number mutated, gates, brackets, variances, gamma,
flags, dropped entries, digest, version, malformed JSON)."""

import copy
import json

import pytest

from auditor.cli import verify_file
from tests.auditor.brace_corpus import mutations, produce, reseal, write


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("brace")
    return {
        "inactive": produce(tmp, "brace", name="a.json"),
        "fallback": produce(tmp, "brace", name="b.json", kappa="1/1000"),
        "history": produce(tmp, "brace", name="h.json", kappa="6", horizon="3"),
        "uncal": produce(tmp, "brace", ["--gamma", "1/4", "--allow-uncalibrated"], name="c.json"),
        "quiet": produce(tmp, "brace", ["--noise-multiplier", "1/2", "--allow-uncalibrated"], name="d.json"),
    }


@pytest.mark.parametrize("which", ["inactive", "fallback", "history", "uncal", "quiet"])
def test_true_certificates_verify(certs, which, tmp_path):
    status, report = verify_file(write(tmp_path, certs[which]))
    assert status == 0, report.failures


def test_reference_certificate_verifies(tmp_path):
    from producer.references import brace
    for path in brace.generate(str(tmp_path)):
        status, report = verify_file(path)
        assert status == 0, report.failures


@pytest.mark.parametrize("which", ["inactive", "fallback", "history"])
def test_every_result_mutation_rejected(certs, which, tmp_path):
    accepted = []
    n = 0
    for pointer, m in mutations(certs[which]):
        if which == "fallback" and pointer.endswith("scale_bits"):
            continue  # the rounding precision p is unused when every step is a fallback
        n += 1
        status, _ = verify_file(write(tmp_path, m))
        if status == 0:
            accepted.append(pointer)
    assert n > 60
    assert not accepted, f"mutations accepted: {accepted}"


def _mutate(cert, fn):
    m = copy.deepcopy(cert)
    fn(m)
    return reseal(m)


def _steps(c):
    return c["result"]["steps"]


CASES = {
    "gate dropped": lambda c: _steps(c)[0]["released_gate"].pop(),
    "gate added": lambda c: _steps(c)[0]["clean_gate"].append(len(c["input"]["bank"]["points"]) - 1),
    "bracket hi halved": lambda c: _steps(c)[0]["bracket"].__setitem__("hi", "1/1000"),
    "bracket swapped": lambda c: _steps(c)[0]["bracket"].update(lo=_steps(c)[0]["bracket"]["hi"],
                                                             hi=_steps(c)[0]["bracket"]["lo"]),
    "variance lowered": lambda c: _steps(c)[1].__setitem__("variance", "1/1000"),
    "gamma raised": lambda c: c["result"].__setitem__("gamma", "1/4"),
    "input gamma changed": lambda c: c["input"].__setitem__("gamma", "1/100"),
    "H forced": lambda c: _steps(c)[0].__setitem__("H", 1),
    "step dropped": lambda c: _steps(c).pop(),
    "input epsilon raised": lambda c: c["input"].__setitem__("epsilon", "256"),
    "input delta lowered": lambda c: c["input"].__setitem__("delta", "1/1000000"),
    "r2 changed": lambda c: c["input"].__setitem__("r2", "1"),
    "method relabelled": lambda c: _steps(c)[1]["bracket"].__setitem__("method", "history-non-activation"),
    "kappa lowered": lambda c: c["input"].__setitem__("kappa", "1"),
    "bracket lo zero": lambda c: _steps(c)[0]["bracket"].__setitem__("lo", "0"),
    "rho lo zero": lambda c: c["result"]["constants"]["rho"].__setitem__(0, "0"),
    "gamma zero": lambda c: c["result"].__setitem__("gamma", "0"),
    "seed changed": lambda c: c["input"].__setitem__("seed", c["input"]["seed"] + 1),
}


def test_history_certificate_uses_all_three_rules(certs):
    methods = [s["bracket"]["method"] for s in _steps(certs["history"])]
    assert methods == ["non-activation", "history-non-activation", "fallback"]


@pytest.mark.parametrize("case", sorted(CASES))
def test_targeted_mutations_rejected(certs, case, tmp_path):
    status, _ = verify_file(write(tmp_path, _mutate(certs["inactive"], CASES[case])))
    assert status != 0


def test_uncalibrated_run_cannot_claim_privacy(certs, tmp_path):
    """Forging the claim of an uncalibrated run (and every flag) is rejected."""
    def forge(c):
        c["result"]["claim"]["status"] = "private"
        c["result"]["calibration"]["gamma_admissible"] = True
        c["result"]["calibration"]["eq8_holds"] = True
        for s in _steps(c):
            s["eq8"] = True
    for which in ("uncal", "quiet"):
        status, report = verify_file(write(tmp_path, _mutate(certs[which], forge)))
        assert status == 1
    quiet = _mutate(certs["quiet"], lambda c: c["result"]["claim"].__setitem__("status", "private"))
    assert verify_file(write(tmp_path, quiet))[0] == 1


def test_digest_version_and_malformed(certs, tmp_path):
    c = copy.deepcopy(certs["inactive"])
    c["digest"] = "0" * 64
    assert verify_file(write(tmp_path, c))[0] == 1
    c = reseal(_mutate(certs["inactive"], lambda c: c.__setitem__("schema", "brace-run/2")))
    assert verify_file(write(tmp_path, c))[0] == 2
    c = _mutate(certs["inactive"], lambda c: c["result"].pop("claim"))
    assert verify_file(write(tmp_path, c))[0] == 2
    c = _mutate(certs["inactive"], lambda c: _steps(c)[0].__setitem__("scale", "3/6"))
    assert verify_file(write(tmp_path, c))[0] == 2  # non-reduced rational
    p = tmp_path / "bad.json"
    p.write_text(json.dumps(certs["inactive"])[:-10])
    assert verify_file(str(p))[0] == 2


from fractions import Fraction  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_coord = st.fractions(min_value=-2, max_value=2, max_denominator=20)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(_coord, _coord), min_size=1, max_size=7), st.tuples(_coord, _coord),
       st.sampled_from([Fraction(1, 2), Fraction(16, 25), Fraction(3, 7)]),
       st.sampled_from([Fraction(1, 100), Fraction(9, 2), Fraction(128)]),
       st.integers(min_value=1, max_value=3), st.integers(min_value=0, max_value=10 ** 6))
def test_random_runs_verify(tmp_path_factory, pts, q, r2, kappa, T, seed):
    """Producer runs on random tiny banks (irrational r, both regimes, empty
    gates, projections) all verify with the independent auditor."""
    from gmpy2 import mpq

    from producer.brace.bank import Bank
    from producer.kinds.brace_run import Request
    from producer.commands.brace import certificate_for

    def m(x):
        return mpq(x.numerator, x.denominator)

    req = Request(Bank([tuple(m(c) for c in p) for p in pts]), tuple(m(c) for c in q), m(r2), T,
                  m(kappa), mpq(64), mpq(1, 100000), "auto", seed, grid_bits=20)
    cert = certificate_for(req)
    tmp = tmp_path_factory.mktemp("rand")
    status, report = verify_file(write(tmp, cert))
    assert status == 0, report.failures
    for s in cert["result"]["steps"]:
        Y = [Fraction(c) for c in s["Y"]]
        assert sum((y - Fraction(c)) ** 2 for y, c in zip(Y, cert["input"]["query"])) <= (s["t"] + 1) ** 2 * r2
