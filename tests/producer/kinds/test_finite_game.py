"""producer.kinds.finite_game: the auditor's finite-game limits restated at their edge, and the producer's own
size limit, at which the auditor still verifies.

The largest radius the producer accepts per root method (uniform law on [-r, r], γ = 86/257, C = 2) is found
by bisection over the producer CLI's refusals only (a refused request exits 2 with "exceeds its limit" before
any work; an accepted probe, the same command line run in this process, is stopped where the game's first value
would be computed), then the certificate at that radius is produced and must verify (auditor exit 0).
"""

import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from tests.producer.kinds.edges import BIN, edge_verifies, refused
from tests.untimed import HANG_GUARD_SECONDS, reaches


# ---- the auditor's limits, restated (docs/certificates.md) ----------------------------------


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
    refused(_game(_uniform(20), "86/257", 2, [f"{i}/7" for i in range(1, 10)], "--method", "compiled"),
             tmp_path / "beyond.json", "ask at most 8 queries")


@pytest.mark.slow
def test_finite_game_queries_at_the_auditors_work_limit_verify(tmp_path):
    edge_verifies(_game(_uniform(20), "86/257", 2, [f"{i}/7" for i in range(1, 9)], "--method", "compiled"),
                   tmp_path / "edge.json")


def test_finite_game_one_query_beyond_the_auditors_work_limit_is_refused(tmp_path):
    # γ = 2/5, C = 4, radius 14: the producer's own engine would take this one, the auditor not (1.58·10⁸ units)
    refused(_game(_uniform(14), "2/5", 4, ["2"]), tmp_path / "beyond.json", "of the auditor for one query")


@pytest.mark.slow
def test_finite_game_one_query_at_the_auditors_work_limit_verifies(tmp_path):
    from producer.game.auditability import MAX_WORK, query_work
    from producer.laws import FiniteLaw, Gamma
    largest = max(r for r in range(1, 13) if query_work(FiniteLaw([1] * (2 * r + 1), -r), Gamma(2, 5), 4) <= MAX_WORK)
    edge_verifies(_game(_uniform(largest), "2/5", 4, ["2"]), tmp_path / "edge.json")


def test_more_queries_than_the_auditor_reads_are_refused(tmp_path):
    refused(_game("1,2,1", "1/3", 1, [f"{i}/10001" for i in range(1, 10002)]), tmp_path / "beyond.json", "10000")


# ---- the producer's own limit: the auditor verifies what it writes there -----------------------
GAMMA, BUDGET, THRESHOLD = "86/257", 2, "7"


def _args(radius, method, out):
    weights = ",".join(["1"] * (2 * radius + 1))
    return [str(BIN / "producer"), "game", "--gamma", GAMMA, "--weights", weights,
            "--budget", str(BUDGET), "--threshold", THRESHOLD, "--method", method, "--quiet", "-o", str(out)]


def _refused(radius, method, tmp_path, capsys):
    """Whether ``producer game`` refuses the radius by a size limit (exit 2) before any game value."""
    from producer import cli
    from producer.game.engine import FiniteGame
    accepted, status = reaches(FiniteGame, "g_value", lambda: cli.main(_args(radius, method, tmp_path / "p.json")[1:]))
    err = capsys.readouterr().err
    if accepted:
        return False
    assert status == 2 and ("exceeds the limit" in err or "exceeds its limit" in err), (status, err)
    return True


def largest_accepted_radius(method, tmp_path, capsys, hi=256):
    """Largest r in [0, hi] the producer accepts, assuming acceptance is monotone in r."""
    if _refused(1, method, tmp_path, capsys):
        return 0
    lo = 1                                # accepted
    assert _refused(hi, method, tmp_path, capsys), f"the producer accepts radius {hi}; raise hi"
    while hi - lo > 1:                    # invariant: lo accepted, hi refused
        mid = (lo + hi) // 2
        if _refused(mid, method, tmp_path, capsys):
            hi = mid
        else:
            lo = mid
    return lo


# At B = 257, C = 2 the producer accepts radius 27 (enumerate), 50 (reduced) and
# 52 (compiled).  The auditor's estimate counts the distinct F_1 point values the
# root can reach (root outputs of one likelihood ratio share them: a uniform law has
# one such group per sign), about 5e7 units at radius 52, within its limit 1.5e8.
@pytest.mark.slow
@pytest.mark.parametrize("method", ["enumerate", "reduced", "compiled"])
def test_auditor_verifies_the_producers_largest_certificate(method, tmp_path, capsys):
    radius = largest_accepted_radius(method, tmp_path, capsys)
    assert radius >= 1
    cert = tmp_path / f"{method}-r{radius}.json"
    subprocess.run(_args(radius, method, cert), check=True, timeout=HANG_GUARD_SECONDS)
    done = subprocess.run([str(BIN / "auditor"), "verify", str(cert)], capture_output=True,
                          text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 0, f"radius {radius}: {done.stdout}{done.stderr}"


def test_the_api_reads_threshold_lists_none_and_switches_like_the_other_kinds():
    from producer import api
    from producer.errors import InputError
    game = api.finite_game("1/3", "1,2,1", 2, thresholds="1/2,1")
    assert game.as_dict()["input"]["thresholds"] == ["1/2", "1"]
    assert api.finite_game("1/3", "1,2,1", 2, thresholds=None, points=None, curve=True).as_dict()["input"]["curve"]
    with pytest.raises(InputError, match="^thresholds: an empty value in '1/2,'"):
        api.finite_game("1/3", "1,2,1", 2, thresholds="1/2,")
    with pytest.raises(InputError, match="^curve: expected True or False, got 'no'"):   # "no" was read as true
        api.finite_game("1/3", "1,2,1", 2, thresholds="1/2", curve="no")
