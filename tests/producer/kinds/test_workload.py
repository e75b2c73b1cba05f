"""Static workload: published δ(2) bound, strategy algebra, the G.6 identity.

(*Exact Compilation and Resource Laws for Hidden Integer Feedback*, §7.4 and Appendices G.6, J.)
"""

import json
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq
from hypothesis import given, settings, strategies as st

from producer.cli import main as producer_main
from producer.errors import InputError, LimitError
from producer.kinds import workload
from producer.laws import FiniteLaw, Gamma
from producer.lower import workload as wl
from tests.producer.kinds.edges import edge_verifies, refused

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "workload-1.schema.json").read_text())


def test_published_static_workload_bound():
    cert = workload.build_reference(workload.PUBLISHED)
    jsonschema.validate(cert, SCHEMA)
    r = cert["result"]
    assert r["strategy"]["column_norm2"] == "355"
    assert r["source"]["radius"] == 230 and len(r["source"]["weights"]) == 461
    assert all(int(w) >= 1 for w in r["source"]["weights"])
    assert mpq(r["source"]["tau"]) <= mpq(277478014125, 10 ** 19)
    # rounded up, so the display must equal the published (upward) digits
    assert r["delta_upper_display"] == "0.000084068601494238"
    assert mpq(r["delta_upper"]) <= mpq(84068601494238, 10 ** 18)
    assert 1443 < mpq(r["variance"]) < 1444


def test_strategy_inverse_and_norm():
    n, d, e = 100, 15, 1
    alpha, beta = wl.inverse_coefficients(n, d, e)
    assert (alpha, beta) == (mpq(115, 1725), mpq(-1, 1725))
    # (dI + eJ)(αI + βJ) = dα I + (dβ + eα + n e β) J
    assert d * alpha == 1 and d * beta + e * alpha + n * e * beta == 0
    column = [d + e] + [e] * (n - 1)
    assert wl.column_norm2(n, d, e) == sum(x * x for x in column) == 355


symmetric_laws = st.lists(st.integers(0, 3), min_size=1, max_size=3).map(
    lambda half: half[:0:-1] + half).filter(lambda w: sum(w) > 0)


@settings(max_examples=25, deadline=None)
@given(symmetric_laws, st.sampled_from([Gamma(1, 2), Gamma(1, 3), Gamma(2, 5)]),
       st.lists(st.fractions(-2, 2, max_denominator=4), min_size=1, max_size=3))
def test_g6_identity_on_random_centred_laws(weights, gamma, h):
    law = FiniteLaw(weights, -(len(weights) // 2))
    h = [mpq(x.numerator, x.denominator) for x in h]
    _, _, _, rhs = wl.identity_right_side(law, gamma, h)
    assert wl.mean_square_by_paths(law, gamma, h) == rhs


def test_running_mean_coefficients():
    law, gamma, n = FiniteLaw([1, 2, 1], -1), Gamma(1, 2), 4
    c, residual, v, _ = wl.identity_right_side(law, gamma, [mpq(1, n)] * n)
    g = mpq(1, 2)
    assert c == [(1 - (-g) ** (n - j + 1)) / (n * (1 + g)) for j in range(1, n + 1)]
    assert v == mpq(1, 2) and residual[0] == 0 and all(0 <= r <= mpq(1, 4) for r in residual)


@pytest.mark.parametrize("identity", ["no", "false", 0, None])
def test_identity_is_true_or_false_never_a_text_read_as_true(identity):
    with pytest.raises(InputError, match="^identity: expected True or False, got "):
        workload.Request.from_strings(dimension=3, identity=identity)
    assert workload.Request.from_strings(dimension=3, identity=False).identity_cases == ()


def test_uncentred_law_is_refused(capsys):
    import pytest
    from producer.errors import InputError
    with pytest.raises(InputError, match="not centred"):
        wl.IdentityCase("1/2", [1, 1], 0, ["1"])
    status = producer_main(["workload", "--diagonal", "0"])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1


def test_analytic_gaussian_calibration_scale():
    # the paper's Appendix J.2: d_s(2) > 1e-4 at s = 1.73435098 and < 1e-4 at s = 1.73435099
    above = wl.analytic_gaussian_delta(mpq(173435098, 10 ** 8), 2)
    below = wl.analytic_gaussian_delta(mpq(173435099, 10 ** 8), 2)
    assert above.lo > mpq(1, 10 ** 4) > below.hi


# ---- the auditor's limits at their edge (docs/certificates.md) ------------------------------


def test_workload_at_the_largest_theta_verifies_and_the_next_is_refused(tmp_path):
    # with the published A, σ² and S the Gaussian term outgrows the auditor's working precision
    # (its bits + 48, retried at 4x, <= 16,384) after θ = 143
    edge_verifies(["workload", "--theta", 143], tmp_path / "edge.json")
    refused(["workload", "--theta", 144], tmp_path / "beyond.json", "auditor")


def test_workload_at_the_largest_epsilon_verifies_and_the_next_is_refused(tmp_path):
    """λ₊ >= e^ε within 2^-128 grows by two bits per bit of e^ε; its bits + 48, retried at 4x, stay within the
    auditor's 16,384 up to ε = 1357 (the estimate 2·⌈1.443·ε⌉ + 130 is safe: the auditor measured ε = 1357 below
    it).  ε = 10^6 ran without end before the check."""
    edge_verifies(["workload", "--epsilon", 1357, "--theta", 1, "--no-identity"], tmp_path / "edge.json")
    refused(["workload", "--epsilon", 1358, "--theta", 1, "--no-identity"], tmp_path / "beyond.json", "epsilon")
    refused(["workload", "--epsilon", 10 ** 6, "--no-identity"], tmp_path / "far.json", "epsilon")


@pytest.mark.parametrize("args", [["--dimension", 10 ** 9 + 1], ["--theta", 10 ** 4 + 1], ["--theta", 10 ** 4]])
def test_workload_beyond_the_auditors_limits_is_refused_before_work(args, tmp_path):
    refused(["workload", *args], tmp_path / "beyond.json", "auditor")


@pytest.mark.parametrize("scale", [2 ** 1000, 2 ** 4000])
def test_a_scale_whose_source_the_auditor_cannot_check_is_refused_naming_the_scale(scale):
    """The radius follows from σ² and S here, so the refusal names the scale (it named a radius the call lacks)."""
    with pytest.raises(LimitError) as caught:
        workload.Request.from_strings(scale=scale)
    message = str(caught.value)
    assert message.startswith("scale: ") and message.endswith("use a smaller scale") and "radius" not in message
