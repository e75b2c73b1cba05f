"""The resource-law kinds never write a certificate the auditor cannot check (docs/certificates.md limits).

At each limit the producer restates (B <= 1000, σ² ∈ [1/100, 10⁴], the rate
LP's 6BN + 2N <= 1000): at the limit the producer writes a certificate that
``auditor verify`` accepts; one step beyond, the producer refuses (one line,
exit 2, no file).  The work limits (reward enclosures, rows, source radius,
potential denominators) cannot be reached within the requests' own limits, so
their estimates are compared with the auditor's own code, each check is shown
to refuse one step beyond (and the auditor to answer UNCHECKED there), and the
refusal is shown to come before the work.
"""

from fractions import Fraction

import pytest

from producer import api
from producer.errors import LimitError
from producer.resource import auditability
from tests.producer.kinds.edges import edge_verifies as _edge_verifies, refused as _refused

KINDS = {
    "rate": ["rate", "--period", 1],
    "frontier": ["frontier", "--radius", 2, "--tau", 2],
    "window": ["window", "--tau", "1/1000", "--bits", 1],     # the recipe radius stays <= 40 at σ² = 10⁴
    "finite-budget": ["finite-budget", "--budget", 1, "--deadline", 1, "--delta", "1/2", "--radius", 2],
}


def _request(kind, gamma, sigma2):
    return [*KINDS[kind], "--gamma", gamma, "--sigma2", sigma2]


# ---- the limits on B and σ², every kind --------------------------------------------------

@pytest.mark.parametrize("kind", ["frontier", "window", "finite-budget"])
def test_window_kinds_at_the_largest_B_and_sigma2_verify(kind, tmp_path):
    _edge_verifies(_request(kind, "1/1000", 10 ** 4), tmp_path / "edge.json")


@pytest.mark.parametrize("kind", ["frontier", "window", "finite-budget"])
def test_window_kinds_at_the_smallest_sigma2_verify(kind, tmp_path):
    _edge_verifies(_request(kind, "999/1000" if kind != "window" else "1/1000", "1/100"), tmp_path / "edge.json")


def test_rate_at_the_largest_B_and_the_smallest_sigma2_verifies(tmp_path):
    # B = 166 is the largest with 6B + 2 <= 1000 columns at N = 1 (the echo rows at every k mod 166)
    _edge_verifies(_request("rate", "165/166", "1/100"), tmp_path / "edge.json")


def test_rate_at_the_largest_sigma2_verifies(tmp_path):
    _edge_verifies(_request("rate", "2/3", 10 ** 4), tmp_path / "edge.json")


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("gamma, sigma2, words", [("1/1001", 1, "B <= 1000"), ("1/2", 10 ** 4 + 1, "limits"),
                                                  ("1/2", "1/101", "limits")])
def test_one_step_beyond_B_or_sigma2_is_refused(kind, gamma, sigma2, words, tmp_path):
    _refused(_request(kind, gamma, sigma2), tmp_path / "beyond.json", words)


def test_rate_one_column_beyond_is_refused(tmp_path):
    _refused(_request("rate", "1/167", 1), tmp_path / "beyond.json", "6B + 2 <= 1000")   # 6·167 + 2 = 1004
    _refused(["rate", "--gamma", "1/2", "--sigma2", 1, "--period", 128], tmp_path / "beyond.json", "6BN + 2N")


@pytest.mark.slow
def test_rate_at_the_largest_period_verifies(tmp_path):
    # B = 2, N = 64: 6·2·64 + 2·64 = 896 <= 1000 (N = 128 is refused above)
    _edge_verifies(["rate", "--gamma", "1/2", "--sigma2", 1, "--period", 64], tmp_path / "edge.json")


def test_the_limits_are_the_auditors():
    from auditor.resource import limits, model, potentials, rewards, source
    from producer.kinds import rate, resource_common
    assert resource_common.MAX_B == model.MAX_DENOMINATOR
    assert (resource_common.MIN_SIGMA2, resource_common.MAX_SIGMA2) == (model.MIN_SIGMA2, model.MAX_SIGMA2)
    assert rate.MAX_COLUMNS == limits.MAX_PERIOD_COLUMNS
    assert auditability.MAX_REWARD_BITS == limits.MAX_REWARD_BITS
    assert auditability.MAX_REWARD_WORK == limits.MAX_REWARD_WORK
    assert auditability.MAX_ROW_WORK == limits.MAX_ROW_WORK
    assert auditability.MAX_SOURCE_RADIUS == source.MAX_RADIUS
    assert auditability.MAX_DENOMINATOR_BITS == potentials.MAX_DENOMINATOR_BITS
    assert auditability.REWARD_START_BITS == rewards.START_BITS


# ---- the work limits: the auditor's estimates, one step beyond, before the work ---------

def _auditor_params(B, sigma2):
    from auditor.resource.model import Parameters
    return Parameters(1, B, Fraction(sigma2))


@pytest.mark.parametrize("B, sigma2, residues, bits", [
    (2, 1, 2, 160), (166, 10 ** 4, 166, 160), (1000, 10 ** 4, 65, 160), (7, Fraction(1, 100), 7, 640),
    (1000, 3, 1000, 4096), (13, Fraction(22, 7), 13, 111)])
def test_reward_work_estimate_is_the_auditors(B, sigma2, residues, bits):
    from auditor.resource.limits import reward_work
    assert auditability.reward_work(B, sigma2, residues, bits) == reward_work(_auditor_params(B, sigma2), residues,
                                                                              bits)


def test_window_reward_bits_are_the_auditors():
    from producer.resource.window_request import reward_error, reward_grid
    for tau, bits in ((2, 4), (Fraction(1, 1000), 64), (1000, 64), (Fraction(3, 2), 10)):
        eta = Fraction(str(reward_error(reward_grid(tau, bits))))
        # the auditor's starting precision (auditor/checks/window_request.py): log2(1/η_g) + 16
        assert auditability.reward_bits(eta) == (eta.denominator // eta.numerator).bit_length() + 16


def _largest_within(f, limit, lo, hi):
    """The largest n in [lo, hi] with f(n) <= limit (f nondecreasing)."""
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if f(mid) <= limit else (lo, mid)
    return lo


def test_reward_work_at_the_limit_passes_and_one_step_beyond_is_refused():
    from auditor.outcomes import Unchecked
    from auditor.resource.limits import refuse_rewards
    B, residues, bits = 1000, 1000, 160
    # σ² = n/100: the largest n whose estimate is within 10^8 (far above the request limit 10^4)
    n = _largest_within(lambda n: auditability.reward_work(B, Fraction(n, 100), residues, bits),
                        auditability.MAX_REWARD_WORK, 1, 10 ** 9)
    edge, beyond = Fraction(n, 100), Fraction(n + 1, 100)
    auditability.check_rewards(B, edge, residues, bits)
    refuse_rewards(_auditor_params(B, edge), residues, bits, "/p")
    with pytest.raises(LimitError, match="auditor"):
        auditability.check_rewards(B, beyond, residues, bits)
    with pytest.raises(Unchecked):
        refuse_rewards(_auditor_params(B, beyond), residues, bits, "/p")
    auditability.check_rewards(2, 1, 2, auditability.MAX_REWARD_BITS)
    with pytest.raises(LimitError, match="bits"):
        auditability.check_rewards(2, 1, 2, auditability.MAX_REWARD_BITS + 1)


def test_row_work_at_the_limit_passes_and_one_step_beyond_is_refused():
    from auditor.outcomes import Unchecked
    from auditor.resource.limits import refuse_rows
    states, radius = 4000, 2499                      # 4000 · 4999 = 19,996,000 <= 2·10⁷
    auditability.check_rows(states, radius, "radius")
    refuse_rows(states, radius, "/p")
    with pytest.raises(LimitError, match="auditor"):
        auditability.check_rows(states + 1, radius, "radius")   # 20,000,999
    with pytest.raises(Unchecked):
        refuse_rows(states + 1, radius, "/p")
    auditability.check_source_radius(auditability.MAX_SOURCE_RADIUS)
    with pytest.raises(LimitError, match="auditor"):
        auditability.check_source_radius(auditability.MAX_SOURCE_RADIUS + 1)


def test_denominators_at_the_limit_pass_and_one_bit_beyond_is_refused():
    from gmpy2 import mpq
    from auditor.outcomes import Unchecked
    from auditor.resource.potentials import common_denominator
    bits = auditability.MAX_DENOMINATOR_BITS
    edge = [mpq(1, 3), mpq(5, 2 ** (bits - 2)), mpq(2, 3)]    # lcm 3·2^(bits−2): exactly `bits` bits
    beyond = edge + [mpq(1, 2 ** (bits - 1))]                 # 3·2^(bits−1): one bit more
    auditability.check_denominators({"h": edge}, "use less")
    common_denominator([Fraction(int(v.numerator), int(v.denominator)) for v in edge], "/p")
    with pytest.raises(LimitError, match="h: .* auditor"):
        auditability.check_denominators({"h": beyond}, "use less")
    with pytest.raises(Unchecked):
        common_denominator([Fraction(int(v.numerator), int(v.denominator)) for v in beyond], "/p")
    assert auditability.layer_denominator_bits([None, mpq(1, 4)]) == 3


def test_the_largest_requests_are_within_the_work_limits():
    """Within the requests' own limits the reward and row estimates stay below the auditor's limits."""
    from producer.resource.source import default_source
    from producer.resource.window_request import reward_error, reward_grid
    L = default_source(10 ** 4).radius                       # the largest default source (σ² = 10⁴)
    assert auditability.reward_work(166, 10 ** 4, 166, 160) < auditability.MAX_REWARD_WORK   # rate, B = 166
    assert auditability.reward_work(1000, 10 ** 4, 65, 160) < auditability.MAX_REWARD_WORK   # M = 32, B = 1000
    assert (2 * 32 + 1) * (2 * L + 1) < auditability.MAX_ROW_WORK
    assert (166 + 2 * 200 + 1) * (2 * L + 1) < auditability.MAX_ROW_WORK     # rate at N = 1 with the widest descent
    # window requests: the finest reward grid (τ = 1000, b = 64) and the largest recipe radius 40 (81 residues)
    bits = auditability.reward_bits(reward_error(reward_grid(1000, 64)))
    assert bits < auditability.MAX_REWARD_BITS
    assert auditability.reward_work(1000, 10 ** 4, 81, bits) < auditability.MAX_REWARD_WORK


@pytest.mark.parametrize("call", [lambda: api.rate("1/3", "2", period=1), lambda: api.frontier("1/3", "2", radius=2),
                                  lambda: api.window_request("1/3", "2", "2", 4),
                                  lambda: api.finite_budget("1/3", "2", 1, 1, "1/2", radius=2)])
def test_work_limits_are_checked_before_the_rewards(call, monkeypatch):
    import producer.kinds.finite_budget
    import producer.kinds.frontier
    import producer.kinds.rate
    import producer.resource.window_request

    def no_work(*_args, **_kwargs):
        raise AssertionError("the rewards were computed before the limit check")
    for module in (producer.kinds.rate, producer.kinds.frontier, producer.kinds.finite_budget):
        monkeypatch.setattr(module, "RewardTable", no_work)
    monkeypatch.setattr(producer.resource.window_request, "rounded_rewards", no_work)
    monkeypatch.setattr(auditability, "MAX_ROW_WORK", 10)
    with pytest.raises(LimitError, match="row limit 10"):
        call()
