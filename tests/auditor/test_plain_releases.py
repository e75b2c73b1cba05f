"""The auditor on ``plain-composition/1``'s releases form and relative widths (:mod:`auditor.plain.releases`).

True certificates are hand-made inputs whose points come from an independent
brute force here: per draw, the masses of P = N and of Q = N(· − s) grouped
by the exact (Fraction) value of the privacy loss, convolved as dictionaries,
and δ(ε) = Σ_ℓ (P(ℓ) − e^ε Q(ℓ))_+ with mpmath at 400 bits (Q summed
directly, not through the tilt the auditor uses); the draws are truncated
where the mass left is far below every claimed width.  The claims are the
brute force widened outward onto a decimal grid, then resealed
(:mod:`tests.reseal`).  A corpus of wrong ones must each FAIL or be MALFORMED
as docs/plain-composition-audit.md §7 says.
"""

import copy
from fractions import Fraction
from functools import lru_cache

import mpmath
import pytest

from auditor.api import verify_certificate
from auditor.checks.common import outward_decimal
from auditor.outcomes import FAIL, MALFORMED, OK, UNCHECKED
from auditor.plain import releases
from auditor.rationals import write_rational
from tests.reseal import reseal, seal

PREC = 400
FAMILY = {"dg": "discrete-gaussian", "dl": "discrete-laplace"}
KEY = {"dg": "sigma2", "dl": "t"}
PRODUCER = {"name": "dp-certify-tests", "version": "0"}


def _mp(q):
    q = Fraction(q)
    return mpmath.mpf(q.numerator) / q.denominator


def _weight(family, scale, n):
    """The unnormalised mass of n: exp(−n²/(2σ²)) or exp(−|n|/t)."""
    if family == "dg":
        return mpmath.exp(-mpmath.mpf(n * n) / (2 * _mp(scale)))
    return mpmath.exp(-abs(n) / _mp(scale))


def _loss(family, scale, s, x):
    """log N(x)/N(x − s), exactly: (s² − 2sx)/(2σ²) or (|x − s| − |x|)/t."""
    if family == "dg":
        return Fraction(s * s - 2 * s * x) / (2 * scale)
    return Fraction(abs(x - s) - abs(x)) / scale


@lru_cache(maxsize=None)
def _draw(family, scale, s):
    """{loss (Fraction): (P mass, Q mass)} of one draw, by direct sums over a truncated range."""
    scale = Fraction(scale)
    with mpmath.workprec(PREC):
        radius = (int(mpmath.sqrt(2 * _mp(scale) * PREC)) if family == "dg" else int(PREC * scale)) + s + 5
        total = mpmath.fsum(_weight(family, scale, n) for n in range(-4 * radius, 4 * radius + 1))
        out = {}
        for x in range(-radius, radius + 1):
            key = _loss(family, scale, s, x)
            p, q = out.get(key, (0, 0))
            out[key] = (p + _weight(family, scale, x) / total, q + _weight(family, scale, x - s) / total)
    return out


@lru_cache(maxsize=None)
def _product(spec):
    acc = {Fraction(0): (mpmath.mpf(1), mpmath.mpf(1))}
    with mpmath.workprec(PREC):
        for family, scale, s, k in spec:
            one = _draw(family, scale, s)
            for _ in range(k):
                nxt = {}
                for la, (pa, qa) in acc.items():
                    for lb, (pb, qb) in one.items():
                        p, q = nxt.get(la + lb, (0, 0))
                        nxt[la + lb] = (p + pa * pb, q + qa * qb)
                acc = nxt
    return acc


def brute_delta(spec, epsilon):
    """δ(ε) of the product pair, by brute force (0 exactly where every release is a discrete Laplace and
    ε >= Σ k·s/t, the largest loss)."""
    if all(f == "dl" for f, *_ in spec) and epsilon >= sum(k * Fraction(s) / Fraction(t) for _, t, s, k in spec):
        return mpmath.mpf(0)
    with mpmath.workprec(PREC):
        e = mpmath.exp(_mp(epsilon))
        return mpmath.fsum(max(mpmath.mpf(0), p - e * q) for p, q in _product(spec).values())


def _outward(v, places, direction):
    scaled = v * mpmath.mpf(10) ** places
    n = int(mpmath.floor(scaled)) - 1 if direction < 0 else int(mpmath.ceil(scaled)) + 1
    return max(Fraction(0), Fraction(n, 10 ** places))


def point(epsilon, lower, upper):
    return {"epsilon": write_rational(epsilon), "lower": write_rational(lower), "upper": write_rational(upper),
            "lower_display": outward_decimal(lower, 20, -1), "upper_display": outward_decimal(upper, 20, +1)}


def noise(family, scale):
    return {"family": FAMILY[family], KEY[family]: write_rational(Fraction(scale))}


def make(spec, epsilons, width=Fraction(1, 10 ** 40), rel_width=None, relative=False):
    """A true certificate of the releases form (or of the single-law form for one release (dg|dl, x, 1, C)
    when spec is a tuple ('single', family, x, C)); relative: claims on a relative grid of 10^-6."""
    epsilons = [Fraction(e) for e in epsilons]
    if spec[0] == "single":
        _, family, scale, budget = spec
        inp = {"noise": noise(family, scale), "budget": budget}
        spec = ((family, scale, 1, budget),)
    else:
        inp = {"releases": [{"noise": noise(f, x), "sensitivity": s, "count": k} for f, x, s, k in spec]}
    inp.update({"epsilons": [write_rational(e) for e in epsilons],
                "width": None if width is None else write_rational(width)})
    if rel_width is not None or width is None:
        inp["rel_width"] = None if rel_width is None else write_rational(rel_width)
    points = []
    for e in epsilons:
        v = brute_delta(spec, e)
        if v == 0:
            points.append(point(e, Fraction(0), Fraction(0)))
            continue
        if relative:
            places = int(-mpmath.floor(mpmath.log10(v))) + 8
            lo, hi = _outward(v * (1 - mpmath.mpf(10) ** -7), places, -1), _outward(v * (1 + mpmath.mpf(10) ** -7),
                                                                                    places, +1)
        else:
            lo, hi = _outward(v - mpmath.mpf(10) ** -60, 45, -1), _outward(v + mpmath.mpf(10) ** -60, 45, +1)
        points.append(point(e, lo, min(Fraction(1), hi)))
    cert = {"schema": "plain-composition/1", "producer": dict(PRODUCER), "input": inp,
            "result": {"points": points}}
    return seal(cert)


MIXED = (("dg", 2, 1, 2), ("dg", 3, 2, 1), ("dl", 1, 1, 2), ("dl", 2, 3, 1))
SMALL = (("dg", 1, 3, 1), ("dl", Fraction(1, 2), 2, 2))
LAPLACE = (("dl", 1, 1, 1), ("dl", 2, 2, 1))          # largest loss 1 + 1 = 2
TINY = (("dg", 1, 1, 1), ("dg", 1, 2, 1))             # δ(50) about 10^-100


@lru_cache(maxsize=None)
def _built(name):
    return {
        "mixed": lambda: make(MIXED, ["0", "1/2", "2", "5"]),
        "small": lambda: make(SMALL, ["1", "4"]),
        "laplace": lambda: make(LAPLACE, ["1/2", "2", "3"]),
        "tiny-relative": lambda: make(TINY, ["40", "50"], width=None, rel_width=Fraction(1, 1000), relative=True),
        "single-relative": lambda: make(("single", "dg", 1, 3), ["30"], width=None, rel_width=Fraction(1, 1000),
                                        relative=True),
        "single-both": lambda: make(("single", "dl", 1, 4), ["1"], width=Fraction(1, 10 ** 30),
                                    rel_width=Fraction(1, 1000)),
    }[name]()


def built(name):
    return copy.deepcopy(_built(name))


def status(cert):
    report = verify_certificate(cert)
    return report.status, {f["pointer"] for f in report.failures}, report


def edited(cert, edit):
    bad = copy.deepcopy(cert)
    edit(bad)
    return reseal(bad)


def set_point(cert, i, lower, upper):
    return edited(cert, lambda c: c["result"]["points"].__setitem__(
        i, point(Fraction(c["result"]["points"][i]["epsilon"]), lower, upper)))


def ends(cert, i):
    p = cert["result"]["points"][i]
    return Fraction(p["lower"]), Fraction(p["upper"])


# ---- true certificates -------------------------------------------------------------------

@pytest.mark.parametrize("name", ["mixed", "small", "laplace", "tiny-relative", "single-relative", "single-both"])
def test_true_certificate_is_ok(name):
    code, failed, report = status(built(name))
    assert (code, failed) == (OK, set()), (report.failures, report.unchecked, report.error)


def test_relative_claim_far_below_any_absolute_width():
    """δ(50) about 10^-100 with both ends positive, within R = 1/1000 of lower."""
    lo, hi = ends(built("tiny-relative"), 1)
    assert 0 < lo < hi < Fraction(1, 10 ** 90) and hi - lo <= lo / 1000


def test_claim_summary_names_every_release():
    claim = verify_certificate(built("small")).claim
    assert claim.startswith("delta(eps) of the plain composition of 1 x the discrete Gaussian sigma^2 = 1 "
                            "(sensitivity 3), 2 x the discrete Laplace t = 1/2 (sensitivity 2): eps = 1: delta in [")


def test_enclosure_contains_the_brute_force():
    rs = [releases.Release(FAMILY[f], x, s, k) for f, x, s, k in MIXED]
    for e, (lo, hi) in zip([0, 2, 5], releases.delta_bounds(rs, [Fraction(0), Fraction(2), Fraction(5)], 100)):
        v = brute_delta(MIXED, Fraction(e))
        assert _mp(lo) <= v <= _mp(hi) and hi - lo < Fraction(1, 10 ** 25)


def test_single_release_matches_the_single_law_route():
    """One discrete Gaussian release with sensitivity 1 through the lattice = the convolution of the sum."""
    from auditor.plain import gaussian
    rs = [releases.Release("discrete-gaussian", 9, 1, 8)]
    for (a, b), (c, d) in zip(releases.delta_bounds(rs, [Fraction(1, 2), Fraction(2)], 80),
                              gaussian.delta_bounds(9, 8, [Fraction(1, 2), Fraction(2)], 80)):
        assert max(a, c) <= min(b, d)


def test_lattice_is_exact():
    """h is the gcd of the steps: every β_r = d_r·h with integers d_r whose gcd is 1."""
    from math import gcd
    rs = [releases.Release("discrete-gaussian", Fraction(9, 2), 2, 1), releases.Release("discrete-laplace", 3, 1, 1),
          releases.Release("discrete-gaussian", 4, 3, 1)]
    h, d, A = releases.loss_lattice(rs)
    assert [r.step for r in rs] == [k * h for k in d] and gcd(*d) == 1
    assert A == Fraction(4, 9) - Fraction(1, 3) + Fraction(9, 8)


# ---- false claims and malformed inputs -----------------------------------------------------

@pytest.mark.parametrize("name,i", [("mixed", 2), ("small", 0), ("tiny-relative", 1)])
def test_lower_above_the_truth_fails(name, i):
    cert = built(name)
    _, hi = ends(cert, i)
    d = min(hi / 10 ** 12, Fraction(1, 10 ** 42))      # within either width claim
    bad = set_point(cert, i, hi + d, hi + 2 * d)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {f"/result/points/{i}/lower"}


@pytest.mark.parametrize("name,i", [("mixed", 3), ("small", 1), ("tiny-relative", 0)])
def test_upper_below_the_truth_fails(name, i):
    cert = built(name)
    lo, _ = ends(cert, i)
    d = min(lo / 10 ** 12, Fraction(1, 10 ** 42))
    bad = set_point(cert, i, lo - 2 * d, lo - d)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {f"/result/points/{i}/upper"}


def test_positive_upper_in_the_pure_region_fails_exactly():
    bad = set_point(built("laplace"), 2, Fraction(0), Fraction(1, 10 ** 50))
    assert status(bad)[0] == OK                       # upper >= 0 = δ: true
    bad = set_point(built("laplace"), 1, Fraction(1, 10 ** 50), Fraction(1, 10 ** 49))
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {"/result/points/1/lower"}


def test_width_violated_fails():
    cert = built("mixed")
    lo, hi = ends(cert, 1)
    bad = set_point(cert, 1, lo - Fraction(1, 10 ** 39), hi)
    code, failed, _ = status(bad)
    assert code == FAIL and failed == {"/result/points/1"}


def test_rel_width_violated_fails():
    cert = built("tiny-relative")
    lo, hi = ends(cert, 0)
    bad = set_point(cert, 0, lo / 2, hi)              # still true, but wider than R·lower
    code, failed, report = status(bad)
    assert code == FAIL and failed == {"/result/points/0"}
    assert "R·lower" in str(report.failures[0])


def test_either_width_suffices():
    """W or R: a point wider than W but within R·lower meets the claim; one beyond both fails."""
    cert = built("single-both")
    lo, hi = ends(cert, 0)
    wide = set_point(cert, 0, lo - lo / 10 ** 5, hi)
    assert status(wide)[0] == OK
    too_wide = set_point(cert, 0, lo - lo / 100, hi)
    assert status(too_wide)[:2] == (FAIL, {"/result/points/0"})


def _releases_edit(edit):
    return lambda c: edit(c["input"]["releases"])


@pytest.mark.parametrize("edit,phrase", [
    (_releases_edit(lambda r: r.reverse()), "sorted by (family, scale, sensitivity)"),
    (_releases_edit(lambda r: r.insert(1, copy.deepcopy(r[0]))), "merged"),
    (_releases_edit(lambda r: r[0].__setitem__("sensitivity", 0)), "/input/releases/0/sensitivity"),
    (_releases_edit(lambda r: r[0].__setitem__("count", 1021)), "total count 1025 is above the limit 1024"),
    (_releases_edit(lambda r: r.__delitem__(slice(1, None))), "single-law form"),
    (lambda c: c["input"].update(width=None, rel_width=None), "/input/rel_width"),   # the schema: one non-null
    (lambda c: c["input"].update(budget=2), "/input"),
    (lambda c: c["input"].update(rel_width="1/" + "1" + "0" * 61), "below the limit"),
])
def test_malformed(edit, phrase):
    code, _, report = status(edited(built("mixed"), edit))
    assert code == MALFORMED and phrase in report.error, report.error


def test_unmerged_duplicate_of_a_single_release_is_malformed():
    cert = edited(built("small"), _releases_edit(lambda r: r.insert(0, copy.deepcopy(r[0]))))
    assert status(cert)[0] == MALFORMED


def test_beyond_the_work_limit_is_unchecked_before_work():
    """Incommensurable scales spread the lattice (d about 2000 each): refused with the estimate."""
    spec = (("dg", Fraction(2049, 100), 1, 500), ("dg", Fraction(2051, 100), 1, 500))
    cert = seal({"schema": "plain-composition/1", "producer": dict(PRODUCER),
                   "input": {"releases": [{"noise": noise(f, x), "sensitivity": s, "count": k} for f, x, s, k in spec],
                             "epsilons": ["1"], "width": "1/1000000000000000"},
                   "result": {"points": [point(Fraction(1), Fraction(1, 10), Fraction(1, 10))]}})
    code, _, report = status(cert)
    assert code == UNCHECKED
    assert "/input/releases" in str(report.unchecked)


def test_laplace_base_list_bounds_the_law_from_above():
    """The rounded-up law of m (module docstring, step 1) against mpmath, and its exact excess."""
    r = releases.Release("discrete-laplace", Fraction(3, 2), 4, 1)
    v, excess = releases._laplace_base(r, 80)
    law = _draw("dl", Fraction(3, 2), 4)
    # m = s − clamp(x, 0, s) ↔ loss −s/t + 2m/t
    for m, vm in enumerate(v):
        p = law[Fraction(-4 + 2 * m) / Fraction(3, 2)][0]
        assert p * 2 ** 80 <= vm <= p * 2 ** 80 + 2
    assert excess == sum(v) - 2 ** 80 and 0 <= excess <= len(v) + 1
