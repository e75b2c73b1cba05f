"""Issue 19, item 5: every parameter that drives the auditor's work is estimated before the work.

Each case edits a reference certificate (or a small one made here with the
producer's command line, a black box), reseals it (:mod:`tests.reseal`) and
asserts the outcome - UNCHECKED beyond a documented limit, MALFORMED outside
the kind's domain, never ERROR - and that it comes before the work: the kind's
checks make no more calls than an estimate from the sizes takes
(:func:`tests.untimed.check_calls`).  No time is asserted; a guard stops a
regression that would hang instead (:func:`tests.untimed.hang_guard`).

Edits set a key *everywhere* it occurs (input, result and embedded
certificates alike) where a kind keeps one question in several places, so
that the check reaches the work instead of stopping at a disagreement; the
cases keep working when a kind moves a field between ``input`` and
``result``.
"""

import functools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from auditor.api import verify_certificate
from tests.reseal import get_at, reseal
from tests.untimed import HANG_GUARD_SECONDS, check_calls, cpu_bound, hang_guard, must_not_call

ROOT = Path(__file__).resolve().parents[2]


def reference(name):
    return json.loads((ROOT / "certificates" / name).read_text(encoding="utf-8"))


def everywhere(node, key, value):
    """Set ``key`` to ``value`` in every object of ``node`` that has it (in place); return how many."""
    count = 0
    if isinstance(node, dict):
        if key in node and not isinstance(node[key], (dict, list)):
            node[key] = value
            count += 1
        for item in node.values():
            count += everywhere(item, key, value)
    elif isinstance(node, list):
        for item in node:
            count += everywhere(item, key, value)
    return count


def checked(cert):
    """(report, the checks' work) of the in-process verification of the resealed ``cert``."""
    reseal(cert)
    with hang_guard(), check_calls() as work:
        report = verify_certificate(cert)
    return report, work


@functools.lru_cache(maxsize=None)
def honest_calls(name):
    """The Python calls of the checks verifying the untouched reference ``name`` (OK)."""
    report, work = checked(reference(name))
    assert report.outcome == "OK", (name, report.failures[:2], report.error)
    return work.calls


def refused(cert, outcome, pointer=None, phrase=None, within=None):
    """``outcome`` with the line naming ``pointer`` and ``phrase``, before the work: by default the checks
    make no more calls than an estimate from the sizes takes; a refusal that comes after cheaper checks
    no more than ``within`` (the calls of verifying the untouched reference, :func:`honest_calls`)."""
    report, work = checked(cert)
    text = report.unchecked or report.error or ""
    assert report.outcome == outcome, (report.outcome, text, report.failures[:2])
    if within is None:
        assert work.before_the_work, (work, text)
    else:
        assert work.calls <= within, (work, within, text)
    if pointer is not None:
        assert text.startswith(pointer + ":"), text
    if phrase is not None:
        assert phrase in text, text
    return report


BIG_B = "1/" + str(2 ** 256 + 1)          # a 257-bit denominator
LONG = "1" + "0" * 3000                   # 3001 digits


# ---- γ = a/B: the denominator's size, in every kind ---------------------------------------------

@pytest.mark.parametrize("name", [
    "finite-game-c2-121-g1_3.json", "dg-interval-gamma1_2-sigma2_1-c2.json", "calibration-c2-zero.json",
    "deadline-witness-d2-law.json", "calibration-lower-k2-capped-c4.json", "separation-offset-dg-c2-eps2.json",
    "separation-binary-pair-eps2.json", "workload-published-static.json",
])
def test_a_huge_gamma_denominator_is_unchecked_in_every_kind(name):
    """Rows count over B hidden draws with numbers over B·S: B beyond 256 bits is refused before any row."""
    cert = reference(name)
    assert everywhere(cert, "gamma", BIG_B)
    refused(cert, "UNCHECKED", phrase="bits of the denominator B of gamma 257 exceeds the limit 256")


def _near(text):
    """The same number times (1 + 10^-3000): numerator and denominator of about 10,000 bits."""
    x = Fraction(text) * (1 + Fraction(1, 10 ** 3000))
    return f"{x.numerator}/{x.denominator}"


def _near_everywhere(node, key):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key and isinstance(v, str):
                node[k] = _near(v)
            else:
                _near_everywhere(v, key)
    elif isinstance(node, list):
        for item in node:
            _near_everywhere(item, key)
    return node


@pytest.mark.parametrize("name, key", [
    ("dg-interval-gamma1_2-sigma2_1-c2.json", "sigma2"), ("calibration-c2-zero.json", "sigma2"),
    ("deadline-witness-d2-law.json", "sigma2"), ("calibration-lower-k2-capped-c4.json", "sigma2"),
    ("workload-published-static.json", "sigma2"), ("separation-offset-event-eps2.json", "sigma2"),
    ("separation-renyi-cover.json", "sigma2"), ("hierarchy/hierarchy-c3-p2-eps2-small.json", "sigma2"),
    ("plain/plain-composition-dg-sigma2_9-c8.json", "sigma2"), ("plain/plain-composition-dl-t2-c8.json", "t"),
    ("plain/dg-interval-plain-laplace-t2-c2-eps1_2.json", "t"),
])
def test_a_noise_parameter_with_long_digits_is_unchecked_in_every_kind(name, key):
    """σ² (or t) times (1 + 10^-3000), everywhere it stands: every kernel enclosure divides by it, so its
    10,000-bit numerator and denominator would enter every Taylor term (the survey measured 3-5 s)."""
    cert = _near_everywhere(reference(name), key)
    refused(cert, "UNCHECKED", phrase=f"bits of the numerator or denominator of {key}")


def test_a_gamma_denominator_at_the_limit_is_checked():
    cert = reference("finite-game-c2-121-g1_3.json")
    everywhere(cert, "gamma", "1/" + str(2 ** 256 - 1))
    report, _ = checked(cert)
    assert report.outcome == "FAIL"         # checked, not refused (the values are those of γ = 1/3)


# ---- brace-run/1 and brace-compare/1 ---------------------------------------------------------------

def test_brace_gamma_of_ten_to_the_twelve_is_unchecked_not_a_memory_error():
    """The issue's case: γ = 10^12 in input and result used to end in ERROR internal: MemoryError."""
    cert = reference("brace-synthetic.json")
    cert["input"]["gamma"] = cert["result"]["gamma"] = "1000000000000"
    refused(cert, "UNCHECKED", "/result/gamma", "gamma (the exponent of e^-gamma) 1000000000000 exceeds")


def test_brace_gamma_in_the_result_alone_is_unchecked():
    cert = reference("brace-synthetic.json")
    cert["result"]["gamma"] = "1000000000000"
    refused(cert, "UNCHECKED", "/result/gamma")


def test_brace_compare_gamma_is_unchecked():
    cert = reference("brace-synthetic-compare.json")
    cert["result"]["brace"]["gamma"] = "1000000000000"
    refused(cert, "UNCHECKED", "/result/brace/gamma")


@pytest.mark.parametrize("end", [0, 1])
def test_brace_long_exp_neg_gamma_ends_are_unchecked(end):
    """The count envelope raises the stored ends of e^-γ to powers up to the bank size: with 2,000
    points an end of 10,000 digits is beyond 2·10^7 bits."""
    cert = reference("brace-synthetic.json")
    points = cert["input"]["bank"]["points"]
    points.extend([points[0]] * (2_000 - len(points)))
    cert["result"]["constants"]["exp_neg_gamma"][end] = "1" + "0" * 9999 if end else "1/1" + "0" * 9998
    refused(cert, "UNCHECKED", f"/result/constants/exp_neg_gamma/{end}", "envelope's powers")


def test_brace_long_exp_neg_gamma_end_with_a_small_bank_is_checked():
    """Within the envelope's limit the 3001-digit end is checked (about 0.5 CPU s; the bound is 20 times
    that: the cost of the powers within the limit is the claim, and no counter states it)."""
    cert = reference("brace-synthetic.json")
    cert["result"]["constants"]["exp_neg_gamma"][1] = LONG
    with cpu_bound(10):
        report, _ = checked(cert)
    assert report.outcome == "FAIL"         # the envelope from that end is far above hi


@pytest.mark.parametrize("field", ["z", "a", "R", "Q", "Y", "xi", "zeta"])
def test_brace_step_vector_of_another_dimension_is_malformed(field):
    """Y of 3000 coordinates used to end in ERROR (IndexError), zeta of 3000 in minutes of draws."""
    cert = reference("brace-synthetic.json")
    step = cert["result"]["steps"][0]
    step[field] = [step[field][0]] * 3000
    refused(cert, "MALFORMED", f"/result/steps/0/{field}", "the bank's dimension is 2")


@pytest.mark.parametrize("kind", ["naive", "global", "endpoint"])
def test_brace_compare_baseline_vector_of_another_dimension_is_malformed(kind):
    """Found while the baselines are checked, after the embedded run: no more work than the honest file's."""
    name = "brace-synthetic-compare.json"
    cert = reference(name)
    step = cert["result"]["baselines"][kind]["steps"][0]
    step["Y"] = step["Y"] * 2
    refused(cert, "MALFORMED", f"/result/baselines/{kind}/steps/0/Y", within=honest_calls(name))


def test_brace_envelope_equals_the_loop_over_every_k():
    """The three-candidate envelope (log-convex terms) against the plain maximum over k = 0..n."""
    import random

    from auditor.brace.sensitivity import envelope

    def loop(m, n, r, e):
        best, arg = 2 * r / n, -1
        for k in range(n + 1):
            term = e ** k * 2 * r / max(1, m - k)
            if term > best:
                best, arg = term, k
        return best, arg
    rng = random.Random(19)
    for _ in range(2000):
        n = rng.randint(1, 40)
        m = rng.randint(0, n)
        e = rng.choice([Fraction(rng.randint(1, 200), rng.randint(1, 200)), Fraction(1), Fraction(99, 100)])
        r = Fraction(rng.randint(1, 9), rng.randint(1, 9))
        assert envelope(m, n, r, e) == loop(m, n, r, e), (m, n, r, e)


# ---- calibration-lower/1 ---------------------------------------------------------------------------

def test_calibration_lower_huge_draws_are_unchecked():
    """r >= 1 − (1 − τ)^draws is exact: draws × bits(τ) beyond the limit is refused before the source."""
    cert = reference("calibration-lower-k2-capped-c4.json")
    everywhere(cert, "horizon", 10 ** 12)
    refused(cert, "UNCHECKED", "/input/horizon", "(1 − τ)^draws")


@pytest.fixture(scope="module")
def target_zero(tmp_path_factory):
    """A small target-{0} certificate (C = 2, 1001 priors), made by the producer's command line."""
    out = tmp_path_factory.mktemp("tz") / "tz.json"
    done = subprocess.run([sys.executable, "-m", "producer", "calibrate-lower", "--claim", "target-zero",
                           "--budget", "2", "--radius", "6", "--priors", "1001", "--scale", "2^30",
                           "-o", str(out), "--quiet"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


def _copy(cert):
    return json.loads(json.dumps(cert))


def test_target_zero_reference_verifies(target_zero):
    report, _ = checked(_copy(target_zero))
    assert report.outcome == "OK", report.failures or report.error


def test_target_zero_huge_scale_bits_are_unchecked(target_zero):
    cert = _copy(target_zero)
    everywhere(cert, "scale_bits", 10 ** 9)
    refused(cert, "UNCHECKED", "/input/scale_bits")


def test_target_zero_long_grid_ratio_is_unchecked(target_zero):
    """The snapping rule compares with β^{−n−1} .. β^{n+1} exactly: a β of 3000 digits is refused."""
    cert = _copy(target_zero)
    everywhere(cert, "grid_ratio", f"{10 ** 3000 + 1}/{10 ** 3000}")
    refused(cert, "UNCHECKED", "/input/grid_ratio", "grid ratio")


def test_target_zero_many_priors_of_a_long_ratio_are_unchecked(target_zero):
    """(n + 2) × bits(β) beyond 10^6: a 60-bit β with 20,000 priors (the actions widened to match)."""
    cert = _copy(target_zero)
    n = 20_000
    everywhere(cert, "grid_ratio", f"{2 ** 30 + 1}/{2 ** 30}")
    everywhere(cert, "grid_count", n)
    refused(cert, "UNCHECKED", "/input/grid_count", "grid's powers")


# ---- separation/1: the Rényi cover -------------------------------------------------------------

RENYI = "separation-renyi-cover.json"


def no_moments(monkeypatch):
    """The orders are refused after the layer weights (check 1) and before any moment: the calls of the
    untouched reference's check (measured first, as a bound), and every moment made to raise."""
    from auditor.lower.renyi import Layers
    honest = honest_calls(RENYI)
    must_not_call(monkeypatch, Layers, "moment_lower")
    must_not_call(monkeypatch, Layers, "moment_upper")
    return honest


@pytest.mark.parametrize("where", [("top", "order"), ("bands", 0, "right")])
def test_renyi_huge_order_is_unchecked(where, monkeypatch):
    honest = no_moments(monkeypatch)
    cert = reference(RENYI)
    node = cert["result"]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = "1000000000000"
    refused(cert, "UNCHECKED", "/result/" + "/".join(map(str, where)), "Rényi order", within=honest)


def test_renyi_order_with_long_digits_is_unchecked(monkeypatch):
    honest = no_moments(monkeypatch)
    cert = reference(RENYI)
    cert["result"]["top"]["order"] = f"{16 * 10 ** 30 + 1}/{10 ** 30}"
    refused(cert, "UNCHECKED", "/result/top/order", "bits of a Rényi order", within=honest)


def test_renyi_box_beyond_the_limit_is_unchecked():
    """The moments sum over box³: a box wider than 400 (high − low) is refused before the layer weights."""
    cert = reference("separation-renyi-cover.json")
    cert["input"]["box"] = {"low": -200, "high": 201}
    refused(cert, "UNCHECKED", "/input/box", "box width")


@pytest.mark.parametrize("name", ["p", "q"])
def test_renyi_binary_pair_with_long_digits_is_unchecked(name):
    cert = reference("separation-renyi-cover.json")
    everywhere(cert, name, "1/" + LONG)
    refused(cert, "UNCHECKED", f"/input/{name}", "binary pair")


def test_renyi_largest_dyadic_order_takes_the_cheap_route(monkeypatch):
    """16383/256 (just below the order limit, with 8 square roots): no 10^6-bit exact powers."""
    from auditor.lower import renyi
    powers = []                             # (order, bits of x, taken by exact powers) of every power

    def route(a, size):
        taken = choose(a, size)
        powers.append((a, size, taken))
        return taken
    choose = renyi._exact_root_path
    monkeypatch.setattr(renyi, "_exact_root_path", route)
    cert = reference("separation-renyi-cover.json")
    cert["result"]["top"]["order"] = "16383/256"
    report, _ = checked(cert)
    assert report.outcome == "FAIL"         # the bands no longer end at the top order
    assert Fraction(16383, 256) in {a for a, _, _ in powers}
    assert max((a.numerator * size for a, size, taken in powers if taken), default=0) < 10 ** 6


# ---- plain-composition/1 -------------------------------------------------------------------------

def test_plain_beyond_the_windowed_limit_is_unchecked_at_once():
    """σ² = 10^6, C = 1024, W = 10^-60: about 1.6·10^6 coefficients (plain-composition-audit.md §6)."""
    cert = json.loads((ROOT / "certificates" / "plain" / "plain-composition-dg-sigma2_9-c8.json").read_text())
    cert["input"]["noise"]["sigma2"] = "1000000"
    cert["input"]["budget"] = 1024
    cert["input"]["width"] = "1/1" + "0" * 60
    for point in cert["result"]["points"]:
        point.update(lower="0", upper="1/1" + "0" * 61, lower_display="0.0", upper_display="0.1")
    report = refused(cert, "UNCHECKED", "/input/noise", "coefficients")
    assert not report.failures


def test_plain_huge_epsilon_costs_nothing_more():
    """ε = 10^4 with σ² = 1/100, C = 1024 (e^ε has 14,427 bits) is checked, not refused: the tilt keeps
    e^ε out of every size estimate (it used to be UNCHECKED, 8.3·10^8 product bits)."""
    from tests.auditor.plain_corpus import certificate
    cert = certificate("dg", Fraction(1, 100), 1024, [Fraction(1000), Fraction(10 ** 4)], Fraction(1, 10 ** 15))
    report, _ = checked(cert)
    assert report.outcome == "OK", (report.unchecked, report.failures[:2])


def test_every_edited_reference_starts_true():
    """Control: the untouched references of this file verify."""
    for name in ("finite-game-c2-121-g1_3.json", "brace-synthetic.json", "calibration-lower-k2-capped-c4.json",
                 "separation-renyi-cover.json", "deadline-witness-d2-law.json"):
        report, _ = checked(reference(name))
        assert report.outcome == "OK", (name, report.failures[:2], report.error)
    assert get_at(reference("brace-synthetic.json"), ("input", "gamma")) == "auto"
