"""producer.kinds.epsilon_bracket: ε*_C(δ) by the product pair and by hierarchy + witness line.

The product-pair ends are compared with the exact game's calibration/1 (small C),
with an independent mpmath reference (a direct sum over Z^2 and the discrete
Laplace's binomial form, then a float-free bisection in mpmath), and every
embedded certificate with what ``producer plain`` writes for the same ε.
"""

import json
from fractions import Fraction
import os

import jsonschema
import mpmath
import pytest
from gmpy2 import mpq

from producer.certificates.canonical import render
from producer.errors import InputError, LimitError
from producer.kinds import calibration, epsilon_bracket as kind, plain_composition
from producer.plain.enclose import SingleEpsilon, points
from producer.plain.inverse import bisect_grid
from tests.producer.kinds.embedded_schemas import SCHEMAS, embedded_defs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCHEMA = json.loads((SCHEMAS / "epsilon-bracket-1.schema.json").read_text(encoding="utf-8"))


def bracket(gamma="0", budget=2, delta="1e-4", **kw):
    return kind.build(kind.Request.from_strings(gamma, budget, delta, **kw))


def ends(cert):
    res = cert["result"]
    return (None if res["epsilon_lo"] is None else mpq(res["epsilon_lo"])), mpq(res["epsilon_hi"])


def check_product_pair(cert):
    """What the auditor will check, restated: the witnesses, the question, the width."""
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    lo, hi = ends(cert)
    delta = mpq(inp["delta"])
    assert res["route"] == "product-pair" and lo <= hi and hi - lo <= mpq(inp["width"])
    up = res["upper_witness"]
    assert up["input"]["noise"] == inp["noise"] and up["input"]["budget"] == inp["budget"]
    assert up["input"]["epsilons"] == [res["epsilon_hi"]] and mpq(up["result"]["points"][0]["upper"]) <= delta
    if res["lower_witness"] is None:
        assert lo == 0 and res["lower_reason"]
    else:
        low = res["lower_witness"]
        assert low["input"]["epsilons"] == [res["epsilon_lo"]] and mpq(low["result"]["points"][0]["lower"]) > delta
    for witness in (res["upper_witness"], res["lower_witness"]):  # byte for byte what producer plain writes
        if witness is not None:
            i = witness["input"]
            noise = i["noise"]
            again = plain_composition.Request.from_strings(i["budget"], i["epsilons"], i["width"],
                                                           sigma2=noise.get("sigma2"), laplace=noise.get("t"))
            assert render(witness) == render(plain_composition.build(again))
    return lo, hi


# ---- independent references -------------------------------------------------------------------------------


def dg_delta_c2(sigma2, epsilon, radius=60):
    """δ(ε) of the 2-fold discrete Gaussian product pair by a direct sum over [−L, L]^2 (mpmath, 60 digits)."""
    with mpmath.workdps(60):
        s2 = mpmath.mpf(sigma2.numerator) / sigma2.denominator
        f = {n: mpmath.exp(-mpmath.mpf(n) ** 2 / (2 * s2)) for n in range(-radius - 1, radius + 2)}
        z = mpmath.fsum(f[n] for n in range(-radius, radius + 1))
        e = mpmath.exp(mpmath.mpf(epsilon.numerator) / epsilon.denominator)
        return mpmath.fsum(max(0, f[x] * f[y] - e * f[x - 1] * f[y - 1]) for x in range(-radius, radius + 1)
                           for y in range(-radius, radius + 1)) / z ** 2


def dl_delta(t, budget, epsilon):
    """δ(ε) of the C-fold discrete Laplace product pair, sum over K = #{x_i <= 0} (mpmath, 60 digits)."""
    with mpmath.workdps(60):
        a = mpmath.exp(-1 / (mpmath.mpf(t.numerator) / t.denominator))
        e = mpmath.exp(mpmath.mpf(epsilon.numerator) / epsilon.denominator)
        total = mpmath.fsum(mpmath.binomial(budget, k) * max(0, a ** (budget - k) - e * a ** k)
                            for k in range(budget + 1))
        return total / (1 + a) ** budget


REFERENCE_TOLERANCE = mpq(1, 10**9)


def reference_epsilon(delta_of, delta, hi, tolerance=REFERENCE_TOLERANCE):
    """ε* with δ(ε*) = δ by bisection of the mpmath reference to ``tolerance`` (δ(ε) is non-increasing)."""
    lo = mpq(0)
    while hi - lo > tolerance:
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if delta_of(mid) > delta else (lo, mid)
    return lo, hi


def test_product_pair_contains_the_direct_sum_reference():
    cert = bracket(budget=2, delta="1e-4", sigma2="9", width="1e-4")
    lo, hi = check_product_pair(cert)
    ref_lo, ref_hi = reference_epsilon(lambda e: dg_delta_c2(mpq(9), e), mpmath.mpf("1e-4"), hi=mpq(4))
    assert lo <= ref_hi and ref_lo <= hi


@pytest.mark.parametrize("budget", [1, 5, 40])
def test_product_pair_contains_the_binomial_reference_for_the_discrete_laplace(budget):
    cert = bracket(budget=budget, delta="1e-6", laplace="2", width="1e-5")
    lo, hi = check_product_pair(cert)
    ref_lo, ref_hi = reference_epsilon(lambda e: dl_delta(mpq(2), budget, e), mpmath.mpf("1e-6"), hi=mpq(budget))
    assert lo <= ref_hi and ref_lo <= hi


@pytest.mark.parametrize("sigma2, budget, delta, game_width, method", [
    (9, 2, mpq(1, 10**4), mpq(1, 10**3), "reduced"),
    (4, 3, mpq(1, 10**3), mpq(1, 10**2), "enumerate"),
])
def test_product_pair_overlaps_the_exact_game(sigma2, budget, delta, game_width, method):
    game = calibration.build(calibration.Request("0", mpq(sigma2), budget, delta, width=game_width, method=method))
    lo, hi = check_product_pair(bracket(budget=budget, delta=delta, sigma2=sigma2, width="1e-3"))
    g_lo, g_hi = mpq(game["result"]["epsilon_lo"]), mpq(game["result"]["epsilon_hi"])
    assert lo <= g_hi and g_lo <= hi


def test_product_pair_overlaps_the_stored_laplace_game_calibration():
    path = os.path.join(ROOT, "certificates", "plain", "calibration-plain-laplace-t2-c2-delta1e-6.json")
    game = json.load(open(path, encoding="utf-8"))["result"]
    lo, hi = check_product_pair(bracket(budget=2, delta="1e-6", laplace="2", width="1e-6"))
    assert lo <= mpq(game["epsilon_hi"]) and mpq(game["epsilon_lo"]) <= hi


def test_bisection_over_producer_plain_agrees():
    """A scan of producer plain on the grid k/10: ε* lies between the last point certified above δ and the
    first certified below, so both ends of the bracket are within its width of that gap."""
    cert = bracket(budget=64, delta="1e-5", sigma2="1", width="1e-2")
    lo, hi = check_product_pair(cert)
    grid = [mpq(k, 10) for k in range(0, 1000)]
    pts = plain_composition.build(plain_composition.Request(64, grid, mpq(1, 10**15), sigma2=mpq(1)))
    below = [mpq(p["epsilon"]) for p in pts["result"]["points"] if mpq(p["upper"]) <= mpq(1, 10**5)]
    above = [mpq(p["epsilon"]) for p in pts["result"]["points"] if mpq(p["lower"]) > mpq(1, 10**5)]
    assert above and below and max(above) < min(below) <= max(above) + mpq(2, 10)
    assert max(above) < hi and lo < min(below) and max(above) <= lo + mpq(1, 100) and hi <= min(below) + mpq(1, 100)


# ---- the route's parts -------------------------------------------------------------------------------------


@pytest.mark.parametrize("noise", [dict(sigma2=mpq(9)), dict(laplace=mpq(3, 2))])
def test_single_epsilon_points_are_those_of_a_list(noise):
    request = plain_composition.Request(50, [mpq(1, 3), mpq(1), mpq(5, 2), mpq(7)], mpq(1, 10**15), **noise)
    single = SingleEpsilon(request)
    for expected in points(request):
        got = single.point(expected.epsilon)
        assert (got.epsilon, got.lower, got.upper) == (expected.epsilon, expected.lower, expected.upper)


def test_bisect_grid_decides_only_on_decided_points_and_crosses_an_undecided_zone():
    star = 1234

    def side(k):  # undecided within 3 of the true crossing
        return 0 if abs(k - star) <= 3 else (+1 if k < star else -1)

    lo, hi = bisect_grid(side, span=10, first=100, limit=10**6)
    assert side(hi) == -1 and side(lo) == +1 and hi - lo <= 10 and lo < star < hi
    with pytest.raises(LimitError, match="cannot separate"):
        bisect_grid(side, span=5, first=100, limit=10**6)
    assert bisect_grid(lambda k: -1, span=1, first=1, limit=10) == (0, 0)
    with pytest.raises(LimitError, match="ε limit"):
        bisect_grid(lambda k: +1, span=1, first=1, limit=64)


def test_plain_width_and_grid_step():
    assert kind.plain_width(mpq(1, 10**5), mpq(1, 10**3)) == mpq(1, 10**15)
    assert kind.plain_width(mpq(1, 10**20), mpq(1, 10**6)) == mpq(1, 10**29)
    assert kind.grid_step(mpq(1, 10**3)) == mpq(1, 10**4) and kind.grid_step(mpq(1, 10**6)) == mpq(1, 10**7)
    assert kind.grid_step(mpq(4)) == 1


def test_zero_status_and_a_trivial_lower_end():
    cert = bracket(budget=2, delta="1/2", sigma2="9")
    check_product_pair(cert)
    res = cert["result"]
    assert res["status"] == "zero" and ends(cert) == (0, 0) and res["lower_witness"] is None
    assert "status zero" in res["lower_reason"]
    assert kind.claim(cert).startswith("ε*_2(0.5) = 0")


def test_the_c1000_reference_is_reproduced():
    path = os.path.join(ROOT, "certificates", "plain", "epsilon-bracket-dg-sigma2_9-c1000-delta1e-5.json")
    cert = bracket(budget=1000, delta="1e-5", sigma2="9", width="1e-3")
    assert render(cert) == open(path, "rb").read()
    lo, hi = check_product_pair(cert)
    assert mpq(99) < lo < hi < mpq(100)
    line = kind.claim(cert)
    assert line.startswith("ε*_1000(1e-05) ∈ [") and line.endswith("(plain composition, σ² = 9; route product-pair)")


def test_default_width_is_that_of_calibration():
    cert = bracket(budget=8, delta="1e-5", laplace="2")
    assert cert["input"]["width"] == "1/1000000" and check_product_pair(cert)


# ---- hierarchy-witness: requests (the builds take a minute: the slow test below) -----------------------------


def test_hierarchy_witness_requests():
    request = kind.Request.from_strings("1/3", 8, "1e-4", sigma2="9")
    assert request.route == "hierarchy-witness" and request.width is None
    assert request.lower.budget == 8 and request.lower.CLAIM == "target-zero" and request.lower_reason is None
    assert request.as_json() == {"gamma": "1/3", "noise": {"family": "discrete-gaussian", "sigma2": "9"},
                                 "budget": 8, "delta": "1/10000", "width": None}
    wide = kind.Request.from_strings("1/3", 64, "1e-4", sigma2="9")
    assert wide.lower.budget == 64 and wide.lower_reason is None
    assert wide.lower.grid_first == mpq(1, 10 ** 6) and request.lower.grid_first == mpq(1, 10 ** 10)
    beyond = kind.Request.from_strings("1/3", 65, "1e-4", sigma2="9")
    assert beyond.lower is None and "C <= 64" in beyond.lower_reason


def test_claim_with_no_lower_end():
    cert = {"input": {"gamma": "1/3", "noise": {"family": "discrete-gaussian", "sigma2": "9"}, "budget": 32,
                      "delta": "1/10000", "width": None},
            "result": {"route": "hierarchy-witness", "status": "enclosed", "epsilon_lo": None,
                       "epsilon_lo_display": None, "epsilon_hi": "10", "epsilon_hi_display": "10.000000000000",
                       "lower_witness": None, "lower_reason": "no lower construction: why",
                       "upper_witness": {"input": {"model": {"game": "depth", "depth": 2}}}}}
    assert kind.claim(cert) == ("ε*_32(0.0001) ≤ 10.000000000 (lower end: no lower construction: why) "
                                "(γ = 1/3, σ² = 9; route hierarchy-witness: hierarchy P_2 upper, no lower witness)")


@pytest.mark.slow
def test_hierarchy_witness_at_c8_embeds_the_reference_certificates():
    cert = bracket(gamma="1/3", budget=8, delta="1e-4", sigma2="9")
    jsonschema.validate(cert, SCHEMA)
    res = cert["result"]
    for witness, path in ((res["upper_witness"], "hierarchy/hierarchy-c8-p4-delta1e-4.json"),
                          (res["lower_witness"], "slow/calibration-lower-target-zero-c8.json")):
        assert render(witness) == open(os.path.join(ROOT, "certificates", path), "rb").read()
    path = os.path.join(ROOT, "certificates", "slow",
                        "epsilon-bracket-hierarchy-witness-g1_3-sigma2_9-c8-delta1e-4.json")
    assert render(cert) == open(path, "rb").read()
    assert kind.claim(cert) == ("ε*_8(0.0001) ∈ [4.8341641956, 4.8677670000] (γ = 1/3, σ² = 9; route "
                                "hierarchy-witness: hierarchy P_4 upper, target-zero witness lower)")


# ---- refusals (before any work) ----------------------------------------------------------------------------


@pytest.mark.parametrize("args, kw, error, fragment", [
    (("0", 2000, "1e-5"), dict(sigma2="9"), LimitError, "route product-pair"),
    (("0", 8, "0"), dict(sigma2="9"), InputError, "0 < δ < 1"),
    (("0", 8, "1"), dict(sigma2="9"), InputError, "0 < δ < 1"),
    (("0", 8, "1e-70"), dict(sigma2="9"), LimitError, "width limit"),
    (("0", 8, "1e-5"), dict(sigma2="9", width="0"), InputError, "width"),
    (("0", 8, "1e-5"), dict(sigma2="1/1000"), LimitError, "sigma2"),
    (("1/3", 8, "1e-4"), dict(laplace="2"), InputError, "give sigma2=Q"),
    (("1/3", 8, "1e-4"), dict(sigma2="9", width="1e-3"), InputError, "cannot aim at a width.*; omit width$"),
    (("1/3", 8, "1e-4"), dict(), InputError, "exactly one noise law"),
    (("1/2", 0, "1e-4"), dict(sigma2="9"), InputError, "budget"),
])
def test_refusals(args, kw, error, fragment):
    with pytest.raises(error, match=fragment):
        kind.Request.from_strings(*args, **kw)


def test_the_schema_embeds_the_three_kinds_schemas_unchanged():
    defs = SCHEMA["$defs"]
    for name, subschema in embedded_defs().items():
        assert defs[name] == subschema, f"{name}: run python -m tests.producer.kinds.embedded_schemas"


def test_calibrate_routes_by_the_request(monkeypatch):
    """api.calibrate: the game's size refusal (ReachError) goes on to the hierarchy; other refusals stand."""
    from producer import api
    calls = []
    bracket = api.epsilon_bracket("1/3", 1, "1e-4", sigma2=9)   # a stand-in of the route's certificate
    monkeypatch.setattr(api, "epsilon_bracket", lambda *a, **kw: calls.append((a, kw)) or bracket)
    refused = api.calibrate("1/3", 9, 6, "1e-4")                  # the game refuses its size (C = 6, σ² = 9)
    assert refused.to_json() == bracket.to_json() and "; not the exact game: " in refused.claim
    assert api.calibrate("1/3", 9, 8, "1e-4") == bracket          # beyond C = 6
    assert api.calibrate("0", 9, 2, "1e-4") == bracket            # γ = 0 without a method
    assert len(calls) == 3
    with pytest.raises(LimitError, match="8C/σ²"):                # an input limit, not the game's reach
        api.calibrate("1/3", "1/1251", 5, "1/1000")
    assert len(calls) == 3


# ---- the releases form (a list of different releases) ---------------------------------------------------------


def check_releases(cert):
    """The releases form restated: the same releases in both witnesses, each what producer plain writes."""
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    assert set(inp) == {"gamma", "releases", "delta", "width"} and inp["gamma"] == "0"
    lo, hi = ends(cert)
    delta = mpq(inp["delta"])
    assert res["route"] == "product-pair" and lo <= hi and hi - lo <= mpq(inp["width"])
    for witness, epsilon in ((res["upper_witness"], res["epsilon_hi"]), (res["lower_witness"], res["epsilon_lo"])):
        if witness is None:
            assert lo == 0 and res["lower_reason"]
            continue
        i = witness["input"]
        assert i["releases"] == inp["releases"] and i["epsilons"] == [epsilon] and "rel_width" not in i
        again = plain_composition.Request(None, [mpq(epsilon)], mpq(i["width"]), releases=[
            ("dg" if r["noise"]["family"] == "discrete-gaussian" else "dl",
             mpq(r["noise"].get("sigma2", r["noise"].get("t"))), r["sensitivity"], r["count"])
            for r in i["releases"]])
        assert render(witness) == render(plain_composition.build(again))   # the full rounds, not the oracle
    assert mpq(res["upper_witness"]["result"]["points"][0]["upper"]) <= delta
    if res["lower_witness"] is not None:
        assert mpq(res["lower_witness"]["result"]["points"][0]["lower"]) > delta
    return lo, hi


TINY = (("dg", 1, 1, 1), ("dl", Fraction(1, 2), 2, 1))    # two coordinates: two laws, sensitivities 1 and 2


def test_releases_bracket_contains_the_brute_force_epsilon():
    """A small composition (three coordinates): ε*(δ) by bisection of the mpmath sum over the box."""
    from tests.producer.plain.test_lattice import brute_delta, texts
    cert = bracket(budget=None, delta="1e-3", releases=texts(TINY), width="1e-4")
    lo, hi = check_releases(cert)
    ref_lo, ref_hi = reference_epsilon(lambda e: brute_delta(TINY, Fraction(int(e.numerator), int(e.denominator))),
                                       mpmath.mpf("1e-3"), hi=mpq(16), tolerance=mpq(1, 10**4))
    assert 0 < lo and lo <= ref_hi and ref_lo <= hi


def test_the_releases_reference_is_reproduced_and_agrees_with_a_scan_of_producer_plain():
    path = os.path.join(ROOT, "certificates", "plain", "epsilon-bracket-releases-dg9x100-dl2x5-dg4s2x20-delta1e-5.json")
    releases = ["dg:9x100", "dl:2x5", "dg:4:2x20"]
    cert = bracket(budget=None, delta="1e-5", releases=releases)
    assert render(cert) == open(path, "rb").read()
    lo, hi = check_releases(cert)
    grid = [mpq(k, 10) for k in range(380, 420)]        # a scan on the grid 1/10 around ε*
    scan = plain_composition.build(plain_composition.Request.from_strings(None, grid, "1e-15", releases=releases))
    delta = mpq(1, 10**5)
    below = [mpq(p["epsilon"]) for p in scan["result"]["points"] if mpq(p["upper"]) <= delta]
    above = [mpq(p["epsilon"]) for p in scan["result"]["points"] if mpq(p["lower"]) > delta]
    assert above and below and max(above) < lo <= hi < min(below) == max(above) + mpq(1, 10)
    assert kind.claim(cert).startswith("ε*_125(1e-05) ∈ [39.6264") and "20 × σ² = 4 (sensitivity 2)" in kind.claim(cert)


def test_one_release_of_sensitivity_1_is_the_single_law_bracket_byte_for_byte():
    single = bracket(budget=8, delta="1e-5", laplace="2", width="1e-4")
    for releases in (["dl:2x8"], ["dl:2x3", "dl:2x5"]):
        assert render(bracket(budget=None, delta="1e-5", releases=releases, width="1e-4")) == render(single)
    shifted = bracket(budget=None, delta="1e-5", releases=["dl:2:2x8"], width="1e-4")   # sensitivity 2: releases
    assert "releases" in shifted["input"] and check_releases(shifted)
    assert ends(shifted)[0] > ends(single)[1]           # twice the shift: a larger ε*


def test_the_releases_are_canonical_in_the_bracket():
    a = bracket(budget=None, delta="1e-4", releases=["dl:2x2", "dg:4:2x1", "dl:2x1"], width="1e-3")
    b = bracket(budget=None, delta="1e-4", releases=["dg:4:2x1", "dl:2x3"], width="1e-3")
    assert render(a) == render(b)
    assert [r["count"] for r in a["input"]["releases"]] == [1, 3]


@pytest.mark.parametrize("kw, error, fragment", [
    (dict(gamma="1/3"), InputError, "sigma2=Q"),
    (dict(budget=4), InputError, "not both"),
    (dict(sigma2="9"), InputError, "not both"),
    (dict(releases=["dg:9x1000", "dl:2x100"]), LimitError, "route product-pair"),
    (dict(releases=["dq:9x10"]), InputError, "release"),
    (dict(delta="1"), InputError, "0 < δ < 1"),
    (dict(width="0"), InputError, "width"),
])
def test_releases_refusals(kw, error, fragment):
    fields = dict(gamma="0", budget=None, delta="1e-5", releases=["dg:9x10", "dl:2x5"])
    fields.update(kw)
    with pytest.raises(error, match=fragment):
        kind.Request.from_strings(fields.pop("gamma"), fields.pop("budget"), fields.pop("delta"), **fields)


def test_calibrate_with_releases_goes_to_the_bracket(monkeypatch):
    from producer import api
    calls = []
    monkeypatch.setattr(api, "epsilon_bracket", lambda *a, **kw: calls.append(kw) or "bracket")
    assert api.calibrate("0", None, None, "1e-4", releases=["dg:9x10"]) == "bracket"
    assert calls[0]["releases"] == ["dg:9x10"]
    with pytest.raises(InputError, match="omit method"):
        api.calibrate("0", None, None, "1e-4", releases=["dg:9x10"], method="reduced")


def test_beyond_24_the_upper_numerics_hold_the_prior_and_the_transfer():
    """Up to C = 24 the published defaults (the references stay); beyond, the grid reaches logit −ε and
    (C > 32) the source is fine enough that (1 + e^19)·2C·τ is far below δ = 10^-4."""
    from producer.sources.discrete_gaussian import DiscreteGaussianSource
    assert kind.wide_numerics(8) == kind.wide_numerics(24) == {} and kind.wide_cuts(24) is None
    assert kind.wide_numerics(32)["logit_range"] >= 13 and kind.wide_cuts(32) is None
    n64 = kind.wide_numerics(64)
    assert n64["logit_range"] >= 20
    source = DiscreteGaussianSource.from_radius_scale(9, n64["radius"], n64["source_scale"])
    assert (1 + mpmath.e ** 19) * 128 * mpmath.mpf(float(source.tau)) < mpmath.mpf("1e-6")
    cuts = kind.wide_cuts(64)
    assert cuts == list(range(0, 63, 2))     # S_all minus the odd cuts: blocks of at most two digits
    assert all(b - a <= 2 for a, b in zip([-1] + cuts, cuts + [63]))


# ---- the auditor's budget of one file: both witnesses together ------------------------------------

def test_the_witnesses_together_need_the_budget_the_bracket_states(monkeypatch):
    """Hierarchy-witness at C = 2 (a hierarchy upper end and a target-zero line, about 4.8·10⁹ units), with
    both halves' budget scaled below it: written, its notice names the least budget the auditor checks it at."""
    from producer.api import Certificate
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    cert = bracket("1/3", 2, "1e-4", sigma2="9")
    cost = kind.auditor_cost(cert)
    upper = kind.hierarchy.auditor_cost(cert["result"]["upper_witness"])
    lower = kind.calibration_lower.auditor_cost(cert["result"]["lower_witness"])
    assert cost.work == upper.work + lower.work and cost.memory == max(upper.memory, lower.memory)
    scaled_budget(monkeypatch, (cost.work - 1) // 2)
    written = Certificate(bracket("1/3", 2, "1e-4", sigma2="9"))
    assert written.as_dict() == cert and written.auditor_budget == 3
    least_auditor_budget(cert, 3)


def test_a_lower_witness_beyond_the_files_budget_is_left_out_before_its_lines(monkeypatch):
    """The upper end alone within eight budgets, the two together beyond: the target-zero line is refused once
    its tree is known, before any line is computed, and the bracket says why."""
    from producer.lower import target_lines
    from tests.producer.kinds.edges import scaled_budget
    cert = bracket("1/3", 2, "1e-4", sigma2="9")
    upper = kind.hierarchy.auditor_cost(cert["result"]["upper_witness"])
    total = kind.auditor_cost(cert)
    scaled_budget(monkeypatch, max(upper.work // 8 + 1, total.work // 9 + 1))
    assert upper.work <= 8 * (total.work // 9 + 1) < total.work

    def never(*args, **kwargs):
        raise AssertionError("the lines were computed")
    monkeypatch.setattr(target_lines.TargetZeroGame, "choose", never)
    left = bracket("1/3", 2, "1e-4", sigma2="9")
    res = left["result"]
    assert res["lower_witness"] is None and res["epsilon_lo"] is None
    assert res["upper_witness"] == cert["result"]["upper_witness"]
    assert "the line tree with the rest of its file" in res["lower_reason"] and "needs 9 times" in res["lower_reason"]


def test_a_product_pair_beyond_eight_budgets_is_refused_before_any_point(monkeypatch):
    from tests.producer.kinds.edges import scaled_budget
    cert = bracket("0", 1000, "1e-5", sigma2="9", width="1e-3")
    witness = plain_composition.auditor_cost(cert["result"]["upper_witness"])
    scaled_budget(monkeypatch, 2 * witness.work // 9)

    def never(*args, **kwargs):
        raise AssertionError("a point was computed")
    monkeypatch.setattr(kind.SingleEpsilon, "point", never)
    with pytest.raises(LimitError, match=r"^budget: the auditor's estimate for the plain enclosure .* needs 9 times"):
        bracket("0", 1000, "1e-5", sigma2="9", width="1e-3")



def test_a_budget_beyond_the_hierarchy_s_pending_bound_is_refused_before_any_work():
    """C = 10^9 used to build a list of 5·10^8 cuts (S_all minus the odd cuts) before any limit was checked."""
    with pytest.raises(LimitError, match=r"^budget: C = 1000000000 gives the auditor's pending-node bound .* "
                                         r"C <= 33333 for this γ$"):
        kind.Request.from_strings("1/3", 10 ** 9, "1e-4", sigma2="9")


def test_a_budget_left_out_is_refused_in_one_line():
    with pytest.raises(InputError, match=r"^budget: give C, the number of releases \(budget=C\), or a list of "
                                         r"releases$"):
        kind.Request.from_strings("0", None, "1e-5", sigma2=9)
    with pytest.raises(InputError, match=r"^budget: give C, the number of releases \(budget=C\)$"):
        kind.Request.from_strings("1/3", None, "1e-5", sigma2=9)


def test_one_release_text_is_one_release():
    one = kind.Request.from_strings("0", None, "1e-5", releases=["dg:9x100"])
    assert kind.Request.from_strings("0", None, "1e-5", releases="dg:9x100").as_json() == one.as_json()
