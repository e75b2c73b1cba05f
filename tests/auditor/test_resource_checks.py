"""The resource-law checks (rate/1, frontier/1, window-request/1, finite-budget/1).

Every reference certificate verifies; every certificate of the corpus of wrong
ones (tests/auditor/resource_corpus.py: one claim tampered, resealed) is
rejected at the tampered claim; hostile parameters are refused within a
second; the auditor's KL rewards and fixed-point logarithms agree with mpmath
(an independent reference, used only here); a reward bound too close to the
truth to be decided is UNCHECKED, never FAIL.
"""

import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from auditor.api import verify_certificate
from auditor.outcomes import FAIL, OK, UNCHECKED
from auditor.report import Report
from auditor.resource.fixed import FixedLog
from auditor.resource.kl import RewardEnclosures
from auditor.resource.model import Parameters
from auditor.resource.rewards import Entry, check_rewards
from tests.auditor.resource_corpus import CORPUS
from tests.reseal import resealed
from tests.untimed import HANG_GUARD_SECONDS, check_calls

ROOT = Path(__file__).resolve().parents[2] / "certificates" / "resource"
REFERENCES = sorted(p.name for p in ROOT.glob("*.json"))
_CACHE = {}


def load(name):
    if name not in _CACHE:
        _CACHE[name] = json.loads((ROOT / name).read_text(encoding="utf-8"))
    return _CACHE[name]


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_verifies(name):
    report = verify_certificate(load(name))
    assert report.status == OK, (report.failures[:3], report.error, report.unchecked)
    assert report.claim and report.kind.split("/")[0] in name


@pytest.mark.parametrize("label, name, edit, statuses, pointer", CORPUS, ids=[c[0] for c in CORPUS])
def test_wrong_certificate_is_rejected(label, name, edit, statuses, pointer):
    report = verify_certificate(resealed(load(name), edit))
    assert report.status in statuses, (label, report.outcome, report.failures[:2], report.error)
    if report.status == FAIL:
        assert any(f["pointer"].startswith(pointer) for f in report.failures), report.failures[:3]


def test_corpus_covers_every_kind():
    kinds = {name.split("-published")[0].split("-gamma")[0] for _, name, *_ in CORPUS}
    assert kinds == {"rate", "frontier", "window-request", "finite-budget"}


HOSTILE = [
    ("rate", "rate-gamma1_3-sigma2_2.json", lambda c: c["input"].update(gamma="1/100003")),
    ("rate", "rate-gamma1_3-sigma2_2.json", lambda c: c["input"].update(sigma2="100000000")),
    ("rate", "rate-gamma1_3-sigma2_2.json", lambda c: c["input"].update(period=3 ** 60)),
    ("frontier", "frontier-published-gamma1_2-sigma2_1_4-m12.json",
     lambda c: c["result"]["source"].update(radius=10 ** 9)),
    ("window", "window-request-published-gamma1_2-tau2-b4.json",
     lambda c: c["result"].update(reward_error="1/" + "1" + "0" * 9000)),
    ("budget", "finite-budget-published-c100000.json", lambda c: c["input"].update(sigma2="1/1000000")),
    ("budget", "finite-budget-published-c100000.json",
     lambda c: c["result"]["source"].update(scale="1" + "0" * 5000)),
]


@pytest.mark.parametrize("kind, name, edit", HOSTILE, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(HOSTILE)])
def test_hostile_parameters_are_refused_before_the_work(kind, name, edit):
    cert = resealed(load(name), edit)
    with check_calls() as work:
        report = verify_certificate(cert)
    assert report.status in (UNCHECKED, FAIL, 2), report.outcome
    assert work.before_the_work, (report.outcome, report.unchecked or report.error, work)


def _reference_kl(a, B, sigma2, k, d, j):
    """g(k, d, j) by mpmath: the full sum over y of K_k(y)·log(K_k(y)/K_{k−d}(y − j))."""
    s2 = mpmath.mpf(sigma2.numerator) / sigma2.denominator
    Z = mpmath.nsum(lambda n: mpmath.exp(-n * n / (2 * s2)), [-mpmath.inf, mpmath.inf])

    def row(state, y):
        return sum(mpmath.exp(-(y + (a * state + u) // B) ** 2 / (2 * s2)) for u in range(B)) / (B * Z)

    reach = int(30 * mpmath.sqrt(s2)) + 30
    total = mpmath.mpf(0)
    for y in range(-reach - abs(k) - 3, reach + abs(k) + 4):
        p = row(k, y)
        total += p * mpmath.log(p / row(k - d, y - j))
    return total


@pytest.mark.parametrize("a, B, sigma2", [(1, 2, Fraction(1)), (1, 3, Fraction(1, 4)), (3, 7, Fraction(2)),
                                          (2, 5, Fraction(1, 100))])
def test_rewards_enclose_mpmath(a, B, sigma2):
    mpmath.mp.dps = 70
    enc = RewardEnclosures(a, B, sigma2, 160, range(B))
    rng = random.Random(B)
    for _ in range(4):
        k, d, j = rng.randrange(B), rng.choice((-1, 0, 1)), rng.choice((-1, 1))
        lo, hi = enc.enclose(k, d, j)
        ref = _reference_kl(a, B, sigma2, k, d, j)
        slack = mpmath.mpf(10) ** -60
        assert mpmath.mpf(lo.numerator) / lo.denominator <= ref + slack
        assert ref - slack <= mpmath.mpf(hi.numerator) / hi.denominator
        assert hi - lo < Fraction(1, 1 << 150)


def test_published_reward_values():
    """γ = 1/2, σ = 1 (the paper's row values, k mod 2): g(0, 0, ±1) = 1/2 exactly, g(1, 1, 1) ≈ 1.1385783899739."""
    enc = RewardEnclosures(1, 2, 1, 160, range(2))
    lo, hi = enc.enclose(0, 0, 1)
    assert lo <= Fraction(1, 2) <= hi
    lo, hi = enc.enclose(1, 1, 1)
    assert lo <= Fraction(1138578389973895, 10 ** 15) + Fraction(1, 10 ** 15) and hi >= Fraction(1138578389973895,
                                                                                              10 ** 15)


def test_fixed_log_encloses_mpmath():
    mpmath.mp.dps = 80
    P = 200
    log = FixedLog(P)
    rng = random.Random(7)
    for _ in range(200):
        X = rng.randrange(1, 1 << (P + 40))
        ref = mpmath.log(mpmath.mpf(X) / mpmath.mpf(2) ** P) * mpmath.mpf(2) ** P
        assert log.lower(X) <= ref <= log.upper(X)
        assert log.upper(X) - log.lower(X) <= 128


def _table(params, hi):
    return {(0, 1, 1): Entry("/result/rewards/5", None, hi, None)}


def test_an_undecidable_reward_bound_is_unchecked_not_fail():
    params = Parameters(1, 2, Fraction(1))
    lo, hi = RewardEnclosures(1, 2, 1, 4000, range(2)).enclose(0, 1, 1)
    undecided, report = [], Report("t")
    check_rewards(_table(params, (lo + hi) / 2), params, report, undecided)
    assert report.ok and undecided == ["/result/rewards/5/hi"]
    undecided, report = [], Report("t")
    check_rewards(_table(params, lo - Fraction(1, 1 << 100)), params, report, undecided)
    assert not report.ok and not undecided
    undecided, report = [], Report("t")
    check_rewards(_table(params, hi + Fraction(1, 1 << 100)), params, report, undecided)
    assert report.ok and not undecided


UNPUBLISHED = [
    ("window", "--gamma", "2/7", "--sigma2", "3", "--tau", "5/2", "--bits", "6"),
    ("frontier", "--gamma", "3/5", "--sigma2", "1/2", "--radius", "6", "--tau", "1/2,3"),
    ("finite-budget", "--gamma", "1/4", "--sigma2", "2", "--budget", "1000", "--deadline", "1500",
     "--delta", "1/100", "--radius", "8"),
    ("rate", "--gamma", "2/5", "--sigma2", "3/2", "--period", "5"),
]


def _produce(tmp_path, args):
    out = tmp_path / "cert.json"
    done = subprocess.run([sys.executable, "-m", "producer", *args, "-o", str(out)], capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("args", UNPUBLISHED, ids=[a[0] for a in UNPUBLISHED])
def test_requests_the_paper_never_made_verify(tmp_path, args):
    report = verify_certificate(_produce(tmp_path, args))
    assert report.status == OK, (report.failures[:3], report.error, report.unchecked)


def test_rate_at_period_one_verifies(tmp_path):
    """N = 1 (the default at B > 32): h(0, e) must cover g_hi(k, e, 0) for every k mod B, not only k ≡ 0."""
    report = verify_certificate(_produce(tmp_path, ("rate", "--gamma", "1/33", "--sigma2", "1")))
    assert report.status == OK, report.failures[:2]


def test_echo_rows_are_checked_at_every_residue_when_the_period_is_one():
    """N = 1 < B: an h(0, e) that covers the echo at k = 0 mod B only is a false row elsewhere."""
    cert = load("rate-gamma1_3-sigma2_2.json")  # B = 3, N = 27: B | N, the t-rows are the k-rows
    assert cert["input"]["period"] % 3 == 0
    from auditor.checks.rate import _upper
    from auditor.resource.source import CommonSource
    B, N = 3, 1
    params = Parameters(1, B, Fraction(2))
    weights = [1, 2, 1]
    table = {(k, d, j): Entry("/r", Fraction(0), Fraction(k), None) for k in range(B) for d in (-1, 0, 1)
             for j in (-1, 0, 1)}
    block = {"r": "100", "h": {"minus": ["1"], "plus": ["1"]}, "span": "0", "value": "100"}
    report = Report("t")
    _upper(block, table, CommonSource(weights, 1, 4, Fraction(0)), params, N, B * 4, report)
    echo = [f for f in report.failures if "echo row" in f["reason"]]
    assert {f["reason"].split("k ≡ ")[1][0] for f in echo} == {"2"}  # g_hi(2, e, 0) = 2 > h = 1; k = 0, 1 hold
