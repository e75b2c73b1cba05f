"""producer.kinds.noise: the noise that meets (ε, δ) after C releases, and the grid point below that misses.

Every answer is checked three ways: the embedded certificates are rebuilt by
the plain-composition (or dg-interval) builder byte for byte and re-read
(upper <= δ at the noise, lower > δ below, the gap within R); they verify
with the auditor; and, on small cases, an mpmath reference computed here
(the discrete Laplace's binomial form, a direct sum over Z for the discrete
Gaussian at C = 1) puts δ_C(ε) on the same sides of δ.
"""

import json
import re
from fractions import Fraction

import jsonschema
import mpmath
import pytest
from gmpy2 import mpq

from producer.certificates.canonical import render
from producer.errors import InputError, LimitError, ReachError
from producer.kinds import dg_interval, noise as kind, plain_composition
from producer.rationals import describe_rational
from tests.producer.kinds.embedded_schemas import SCHEMAS

SCHEMA = json.loads((SCHEMAS / "noise-1.schema.json").read_text(encoding="utf-8"))


def build(budget, epsilon, delta, **kw):
    return kind.build(kind.Request.from_strings(budget, epsilon, delta, **kw))


def check(cert):
    """What the auditor will check, restated; returns (noise, below)."""
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    key = "sigma2" if inp["family"] == "discrete-gaussian" else "laplace"
    noise, below = mpq(res[key]), mpq(res[f"{key}_below"])
    assert 0 < below < noise <= below * (1 + mpq(inp["precision"]))
    delta = mpq(inp["delta"])
    meets, misses = res["meets"], res["misses"]
    if res["route"] == "product-pair":
        assert inp["gamma"] == "0"
        for cert_, at in ((meets, noise), (misses, below)):
            i = cert_["input"]
            assert i["budget"] == inp["budget"] and i["epsilons"] == [inp["epsilon"]]
            assert i["noise"]["family"] == inp["family"]
            assert mpq(i["noise"]["sigma2" if key == "sigma2" else "t"]) == at
            again = plain_composition.Request.from_strings(i["budget"], i["epsilons"], i["width"],
                                                           sigma2=i["noise"].get("sigma2"),
                                                           laplace=i["noise"].get("t"))
            assert render(cert_) == render(plain_composition.build(again))  # what producer plain writes
        assert mpq(meets["result"]["points"][0]["upper"]) <= delta
        assert mpq(misses["result"]["points"][0]["lower"]) > delta
    else:
        assert inp["gamma"] != "0"
        for cert_, at in ((meets, noise), (misses, below)):
            i = cert_["input"]
            assert (i["gamma"], i["budget"], i["epsilon"], i["method"]) == \
                (inp["gamma"], inp["budget"], inp["epsilon"], None)
            value = i["sigma2"] if key == "sigma2" else i["noise"]["t"]
            assert mpq(value) == at
            again = dg_interval.Request.from_strings(i["gamma"], i["sigma2"], i["budget"], i["epsilon"],
                                                     width=i["source"]["width"],
                                                     laplace=i.get("noise", {}).get("t"))
            assert render(cert_) == render(dg_interval.build(again))
        assert mpq(meets["result"]["interval"]["upper"]) <= delta
        assert mpq(misses["result"]["interval"]["lower"]) > delta
    return noise, below


def embedded_verify(cert, folder):
    """Both embedded certificates, written as files, verify with the auditor's command line."""
    from auditor.cli import verify_file
    for name in ("meets", "misses"):
        path = folder / f"{name}.json"
        path.write_bytes(render(cert["result"][name]))
        status, report = verify_file(str(path))
        assert status == 0, report.failures


def laplace_delta(t, budget, epsilon, dps=60):
    """δ_C(ε) of the discrete Laplace product pair in mpmath: the privacy loss is ±1/t, binomially."""
    with mpmath.workdps(dps):
        t, eps = mpmath.mpf(t.numerator) / t.denominator, mpmath.mpf(epsilon.numerator) / epsilon.denominator
        p = 1 / (1 + mpmath.exp(-1 / t))
        total = mpmath.mpf(0)
        for k in range(budget + 1):
            loss = (2 * k - budget) / t
            if loss > eps:
                total += mpmath.binomial(budget, k) * p ** k * (1 - p) ** (budget - k) * (1 - mpmath.exp(eps - loss))
        return total


def gaussian_delta_one(sigma2, epsilon, dps=60):
    """δ_1(ε) of the discrete Gaussian pair (N, N(· − 1)) by a direct sum over Z in mpmath."""
    with mpmath.workdps(dps):
        s2 = mpmath.mpf(sigma2.numerator) / sigma2.denominator
        eps = mpmath.mpf(epsilon.numerator) / epsilon.denominator
        radius = int(mpmath.sqrt(s2) * 30) + 30
        weight = [mpmath.exp(-mpmath.mpf(n * n) / (2 * s2)) for n in range(-radius - 1, radius + 2)]
        total = mpmath.fsum(weight)
        return mpmath.fsum(max(weight[i] - mpmath.exp(eps) * weight[i - 1], 0) for i in range(1, len(weight))) / total


@pytest.mark.parametrize("budget, epsilon, delta, precision", [(1, "1", "1e-3", None), (30, "2", "1e-6", "1/100")])
def test_the_laplace_noise_meets_and_the_one_below_misses_by_an_independent_sum(budget, epsilon, delta, precision):
    cert = build(budget, epsilon, delta, laplace=True, precision=precision)
    t, below = check(cert)
    assert laplace_delta(t, budget, mpq(epsilon)) <= mpmath.mpf(mpq(delta).numerator) / mpq(delta).denominator
    assert laplace_delta(below, budget, mpq(epsilon)) > mpmath.mpf(mpq(delta).numerator) / mpq(delta).denominator


def test_the_gaussian_noise_at_one_release_by_a_direct_sum():
    cert = build(1, "1", "1e-4", precision="1/100")
    sigma2, below = check(cert)
    target = mpmath.mpf(1) / 10**4
    assert gaussian_delta_one(sigma2, mpq(1)) <= target < gaussian_delta_one(below, mpq(1))


def test_the_gaussian_noise_at_a_hundred_releases():
    sigma2, below = check(build(100, "2", "1e-5"))
    assert below == sigma2 - mpq(1, 10)  # four significant digits in [100, 1000)


def test_the_exact_game_route():
    cert = build(1, "1", "1e-2", gamma="1/2", precision="1/10")
    check(cert)
    assert "at γ = 1/2" in kind.claim(cert) and cert["result"]["route"] == "exact-game"


def test_every_embedded_certificate_verifies_with_the_auditor(tmp_path):
    for cert in (build(4, "1", "1e-3", laplace=True), build(1, "1", "1e-2", gamma="1/2", precision="1/10")):
        embedded_verify(cert, tmp_path)


def test_deterministic():
    assert render(build(10, "1", "1e-4", laplace=True)) == render(build(10, "1", "1e-4", laplace=True))


def test_the_answer_line():
    cert = build(100, "2", "1e-5")
    res = cert["result"]
    line = kind.claim(cert)
    noise, below = (describe_rational(mpq(res[k])) for k in ("sigma2", "sigma2_below"))
    assert "/" not in noise + below  # short decimals
    assert line.startswith(f"σ² = {noise} suffices for ε*_100(1e-05) ≤ 2 ")
    assert line.endswith(f"(the grid point below, σ² = {below}, does not; precision 0.001); route product-pair")


@pytest.mark.parametrize("args, kw", [
    ((1024, "1", "1e-5"), {}),                   # C at the plain limit
    ((6, "1", "1e-5"), dict(gamma="1/3")),       # C at the game's limit
    ((1, "10000", "1e-5"), {}),                  # ε at the plain limit
    ((1, "64", "1e-5"), dict(gamma="1/3")),      # ε at dg-interval's limit
    ((1, "1", "1e-45"), {}),                     # the smallest δ the plain widths reach
    ((1, "1", "1e-5"), dict(precision="1e-12")),  # the smallest R
    ((1, "0", "1/2"), dict(precision="999/1000")),
])
def test_just_inside_every_limit_the_request_is_taken(args, kw):
    kind.Request.from_strings(*args, **kw)


@pytest.mark.parametrize("args, kw, error, fragment", [
    ((1025, "1", "1e-5"), {}, LimitError, "C <= 1024"),
    ((7, "1", "1e-5"), dict(gamma="1/3"), ReachError, "producer.calibrate"),
    ((0, "1", "1e-5"), {}, InputError, "at least 1"),
    ((1, "10001", "1e-5"), {}, LimitError, "10^4"),
    ((1, "65", "1e-5"), dict(gamma="1/3"), LimitError, "limit 64"),
    ((1, "-1", "1e-5"), {}, InputError, "epsilon"),
    ((1, "1", "1e-46"), {}, LimitError, "10^-45"),
    ((1, "1", "0"), {}, InputError, "0 < δ < 1"),
    ((1, "1", "1"), {}, InputError, "0 < δ < 1"),
    ((1, "1", "1e-5"), dict(precision="1"), InputError, "0 < R < 1"),
    ((1, "1", "1e-5"), dict(precision="0"), InputError, "0 < R < 1"),
    ((1, "1", "1e-5"), dict(precision="1e-13"), LimitError, "10^-12"),
    ((1, "1", "1e-5"), dict(gamma="2/4"), InputError, "gamma"),
    ((None, "1", "1e-5"), {}, InputError, "budget: give C, the number of releases (budget=C), or a list of releases"),
    ((None, "1", "1e-5"), dict(gamma="1/3"), InputError, "budget: give C, the number of releases (budget=C)"),
    ((1, "1", "1e-5"), dict(laplace="false"), InputError, "laplace: expected True or False, got 'false'"),
    ((1, "1", "1e-5"), dict(laplace=None), InputError, "laplace: expected True or False, got None"),
    ((None, "1", "1e-5"), dict(releases=[("dg", 9, 2)]), InputError, "release: ('dg', 9, 2) is not of the form"),
])
def test_one_step_beyond_every_limit_the_request_is_refused(args, kw, error, fragment):
    with pytest.raises(error, match=re.escape(fragment)) as info:
        kind.Request.from_strings(*args, **kw)
    assert "\n" not in str(info.value)


def test_one_release_text_is_one_release():
    one = kind.Request.from_strings(None, "1", "1e-5", releases=["dg:9x100"])
    assert kind.Request.from_strings(None, "1", "1e-5", releases="dg:9x100").as_json() == one.as_json()


def test_no_noise_meets_at_epsilon_zero():
    with pytest.raises(LimitError, match="total variation") as info:
        build(1, "0", "1e-5")
    assert "no σ² up to 1000000" in str(info.value)


def test_the_smallest_noise_already_meets():
    with pytest.raises(LimitError, match="already certifies"):
        build(2, "500", "1e-5", laplace=True)


@pytest.mark.parametrize("args, kw, where", [
    ((1000, "0", "1e-5"), {}, "producer.plain_composition: at σ² = 1000000"),
    pytest.param((4, "2", "1e-4"), dict(gamma="1/3", precision="1/100"), "the exact game (`producer.calibrate`",
                 marks=pytest.mark.slow),      # about 50 s of CPU on the 2-core machine: `make references`
])
def test_beyond_the_embedded_kinds_reach_is_one_line(args, kw, where):
    with pytest.raises(LimitError) as info:
        build(*args, **kw)
    assert where in str(info.value) and "\n" not in str(info.value) and "; reduce" not in str(info.value)


def test_at_the_budget_limit_the_certificate_is_made_and_its_embedded_certificates_verify(tmp_path):
    cert = build(1024, "2", "1e-5", laplace=True)
    check(cert)
    embedded_verify(cert, tmp_path)


def test_the_schema_wants_exactly_the_familys_pair():
    cert = json.loads((SCHEMAS.parent / "certificates" / "plain" / "noise-dg-c100-eps2-delta1e-5.json").read_text())
    jsonschema.validate(cert, SCHEMA)
    both = json.loads(json.dumps(cert))
    both["result"]["laplace"] = both["result"]["sigma2"]
    half = json.loads(json.dumps(cert))
    del half["result"]["sigma2_below"]
    other = json.loads(json.dumps(cert))
    other["result"]["meets"]["schema"] = "calibration/1"
    for bad in (both, half, other):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)


# ---- the releases form: one common factor f on every release's scale ---------------------------------------


def check_releases(cert):
    """The releases form restated: the embedded certificates are producer plain's at the scaled releases."""
    jsonschema.validate(cert, SCHEMA)
    inp, res = cert["input"], cert["result"]
    assert set(inp) == {"gamma", "releases", "epsilon", "delta", "precision"} and inp["gamma"] == "0"
    assert set(res) == {"route", "factor", "factor_below", "meets", "misses"} and res["route"] == "product-pair"
    factor, below = mpq(res["factor"]), mpq(res["factor_below"])
    assert 0 < below < factor <= below * (1 + mpq(inp["precision"]))
    for cert_, at in ((res["meets"], factor), (res["misses"], below)):
        scaled = [("dg" if r["noise"]["family"] == "discrete-gaussian" else "dl",
                   mpq(r["noise"].get("sigma2", r["noise"].get("t"))) * at, r["sensitivity"], r["count"])
                  for r in inp["releases"]]
        i = cert_["input"]
        assert i["epsilons"] == [inp["epsilon"]]
        again = plain_composition.Request(None, [mpq(inp["epsilon"])], mpq(i["width"]), releases=scaled)
        assert render(cert_) == render(plain_composition.build(again))   # what producer plain writes
    delta = mpq(inp["delta"])
    assert mpq(res["meets"]["result"]["points"][0]["upper"]) <= delta
    assert mpq(res["misses"]["result"]["points"][0]["lower"]) > delta
    return factor, below


def scaled_brute(releases, factor, epsilon):
    from tests.producer.plain.test_lattice import brute_delta
    return brute_delta(tuple((f, s * factor, k, c) for f, s, k, c in releases), epsilon)


TINY = (("dg", Fraction(1), 1, 1), ("dl", Fraction(1, 2), 2, 1))   # two laws, sensitivities 1 and 2


def test_the_releases_factor_meets_and_the_one_below_misses_by_brute_force():
    """Two coordinates enumerated over Z² in mpmath: δ at f·scales <= δ < δ at f_below·scales."""
    from tests.producer.plain.test_lattice import texts
    cert = build(None, "1", "1e-2", releases=texts(TINY), precision="1/100")
    factor, below = check_releases(cert)
    target = mpmath.mpf(1) / 100
    ff, fb = (Fraction(int(x.numerator), int(x.denominator)) for x in (factor, below))
    assert scaled_brute(TINY, ff, 1) <= target < scaled_brute(TINY, fb, 1)


def test_the_releases_reference_is_reproduced():
    path = SCHEMAS.parent / "certificates" / "plain" / "noise-releases-dg9x100-dl2x5-dg4s2x20-eps2-delta1e-5.json"
    cert = build(None, "2", "1e-5", releases=["dg:9x100", "dl:2x5", "dg:4:2x20"])
    assert render(cert) == path.read_bytes()
    factor, below = check_releases(cert)
    assert below == factor - mpq(1, 10)   # four significant digits in [100, 1000)
    line = kind.claim(cert)
    assert line.startswith(f"factor f = {describe_rational(factor)} on every release's scale suffices for "
                           f"ε*_125(1e-05) ≤ 2 (the grid point below, f = {describe_rational(below)}, does not")
    assert "20 × σ² = 4 (sensitivity 2), 100 × σ² = 9, 5 × discrete Laplace t = 2" in line


def test_one_release_agrees_with_the_single_law_answer():
    """dl:2x8 asks for f with t = 2f; the single-law t* for the same target brackets the same crossing."""
    single = build(8, "1", "1e-4", laplace=True, precision="1/100")
    t, t_below = check(single)
    cert = build(None, "1", "1e-4", releases=["dl:2x8"], precision="1/100")
    factor, below = check_releases(cert)
    assert "noise" in cert["result"]["meets"]["input"]       # one release of sensitivity 1: the single-law form
    assert max(2 * below, t_below) < min(2 * factor, t)      # both intervals hold the crossing (δ falls with t)


def test_the_releases_are_canonical():
    a = build(None, "1", "1e-3", releases=["dl:2x2", "dg:4:2x1", "dl:2x1"], precision="1/100")
    b = build(None, "1", "1e-3", releases=["dg:4:2x1", "dl:2x3"], precision="1/100")
    assert render(a) == render(b)
    assert [r["count"] for r in a["input"]["releases"]] == [1, 3]


def test_the_factor_grid_is_bounded_by_every_scaled_scale():
    request = kind.Request.from_strings(None, "1", "1e-3", releases=["dg:1/50x1", "dl:10000x1"])
    low, high = (request.grid.value(n) for n in (request.bottom, request.top))
    assert low * mpq(1, 50) >= mpq(1, 100) > request.grid.value(request.bottom - 1) * mpq(1, 50)
    assert high * 10000 <= 10**6 < request.grid.value(request.top + 1) * 10000


@pytest.mark.parametrize("kw, error, fragment", [
    (dict(budget=4), InputError, "not both"),
    (dict(laplace=True), InputError, "not both"),
    (dict(gamma="1/3"), InputError, "γ = 0"),
    (dict(releases=["dg:9x1000", "dl:2x25"]), LimitError, "1024"),
    (dict(releases=["dg:1/1000000x1", "dg:1000000x1"]), LimitError, "too far apart"),
    (dict(releases=["dg:0x1"]), InputError, "positive"),
    (dict(releases=["dg:9"]), InputError, "form"),
])
def test_bad_releases_requests_are_refused_in_one_line(kw, error, fragment):
    fields = {"budget": None, "releases": ["dg:9x10"], **kw}
    with pytest.raises(error, match=re.escape(fragment)) as info:
        kind.Request.from_strings(fields.pop("budget"), "1", "1e-5", **fields)
    assert "\n" not in str(info.value)


def test_the_releases_form_is_deterministic_and_its_embedded_certificates_verify(tmp_path):
    cert = build(None, "1", "1e-3", releases=["dg:4x3", "dl:1:2x2"], precision="1/100")
    assert render(cert) == render(build(None, "1", "1e-3", releases=["dl:1:2x2", "dg:4x3"], precision="1/100"))
    check_releases(cert)
    embedded_verify(cert, tmp_path)


def test_the_answer_is_a_grid_crossing_not_the_smallest_noise():
    """δ_C(ε) is not monotone in σ² for the discrete Gaussian at small σ²: at C = 1, ε = 2, δ = 0.12 the
    search answers σ² = 0.5637 (0.5636 misses), yet σ² = 1/4 also meets the target.  The claim states a
    level that suffices and the grid point below that does not, never that the level is the smallest."""
    cert = build(1, "2", "0.12")
    noise, below = check(cert)
    assert (noise, below) == (mpq("0.5637"), mpq("0.5636"))
    smaller = plain_composition.build(plain_composition.Request.from_strings(1, ["2"], "1e-6", sigma2="1/4"))
    assert mpq(smaller["result"]["points"][0]["upper"]) < mpq("0.12")  # a quarter of the noise meets too
    line = kind.claim(cert)
    assert "smallest" not in line and "the grid point below, σ² = 0.5636, does not" in line


# ---- the auditor's budget of one file ---------------------------------------------------------------

def test_both_embedded_certificates_count_and_the_notice_follows(monkeypatch):
    from producer import api
    from tests.producer.kinds.edges import least_auditor_budget, scaled_budget
    cert = api.noise(1, "1e-3", 2, gamma="1/2", precision="1/10")
    cost = kind.auditor_cost(cert.as_dict())
    parts = [dg_interval.auditor_cost(cert.result[k]) for k in ("meets", "misses")]
    assert cost.work == sum(p.work for p in parts)
    scaled_budget(monkeypatch, cost.work - 1)
    again = api.noise(1, "1e-3", 2, gamma="1/2", precision="1/10")
    assert again == cert and again.auditor_budget == 2
    least_auditor_budget(cert.as_dict(), 2)


def test_a_product_pair_probe_beyond_eight_budgets_is_refused_before_its_work(monkeypatch):
    from producer import api
    from tests.producer.kinds.edges import scaled_budget
    cert = api.noise(2, "1e-5", 100)
    witness = plain_composition.auditor_cost(cert.result["meets"])
    scaled_budget(monkeypatch, 2 * witness.work // 9)

    def never(*args, **kwargs):
        raise AssertionError("a probe was computed")
    monkeypatch.setattr(kind, "points", never)
    with pytest.raises(LimitError) as info:
        api.noise(2, "1e-5", 100)
    text = str(info.value)
    assert text.startswith("noise: the search for the σ² that meets ε*_100(1e-05) ≤ 2 went beyond the reach of "
                           "producer.plain_composition: at σ² = ")
    assert "the auditor's estimate for the plain enclosure" in text and "\n" not in text
