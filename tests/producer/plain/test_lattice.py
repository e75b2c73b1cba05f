"""Heterogeneous plain composition (producer.plain.lattice) against brute force over Z^C.

The reference enumerates the product pair itself: every x in a box of Z^C,
P(x) = Π N_r(x_r), Q(x) = Π N_r(x_r − s_r), δ(ε) = Σ_x (P(x) − e^ε Q(x))₊, in mpmath
at 60 digits.  It uses none of the producer's reductions (no loss lattice, no
clamping of the Laplace coordinates); the box is wide enough that the mass outside
it, which bounds what the box misses ((P − e^ε Q)₊ <= P), is below 10^-25.
"""

import itertools
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import mpmath
import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import LimitError
from producer.plain import lattice
from producer.plain.outward import ball_lower, ball_upper
from producer.plain.releases import Release

ROOT = Path(__file__).resolve().parents[3]

TOLERANCE = mpmath.mpf(10) ** -24     # the box's missing mass (< 10^-25) and mpmath's rounding (10^-40)
mpmath.mp.dps = 40
EPSILONS = (0, Fraction(1, 2), 1, Fraction(5, 2))


def kernel(family, scale):
    """(n ↦ unnormalised mass, box radius) of one law, the box holding all but < 10^-26 of the mass."""
    scale = mpmath.mpf(Fraction(scale).numerator) / Fraction(scale).denominator
    if family == "dg":
        radius = int(mpmath.ceil(mpmath.sqrt(2 * scale * 62))) + 2       # e^{−L²/(2σ²)} < e^{−62}
        return (lambda n: mpmath.exp(-mpmath.mpf(n * n) / (2 * scale))), radius
    radius = int(mpmath.ceil(62 * scale)) + 2                           # e^{−L/t} < e^{−62}
    return (lambda n: mpmath.exp(-mpmath.mpf(abs(n)) / scale)), radius


def brute_delta(releases, epsilon):
    return brute_deltas(tuple(releases), (Fraction(epsilon),))[0]


@lru_cache(maxsize=None)
def brute_deltas(releases, epsilons=EPSILONS):
    """δ(ε) of the product pair for each ε, enumerated over the box (one coordinate per released output)."""
    coordinates = []
    for family, scale, sensitivity, count in releases:
        f, radius = kernel(family, scale)
        z = mpmath.fsum(f(n) for n in range(-radius - sensitivity, radius + sensitivity + 1))
        support = range(-radius, radius + sensitivity + 1)
        coordinates += [[(f(n) / z, f(n - sensitivity) / z) for n in support]] * count
    es = [mpmath.exp(mpmath.mpf(Fraction(e).numerator) / Fraction(e).denominator) for e in epsilons]
    totals = [mpmath.mpf(0)] * len(es)
    for cell in itertools.product(*coordinates):
        p = q = mpmath.mpf(1)
        for pn, qn in cell:
            p, q = p * pn, q * qn
        for i, e in enumerate(es):
            if p > e * q:
                totals[i] += p - e * q
    return totals


def texts(releases):
    return [f"{f}:{Fraction(s)}{'' if k == 1 else f':{k}'}x{c}" for f, s, k, c in releases]


CASES = [
    (("dg", 1, 1, 1), ("dl", Fraction(1, 2), 1, 1)),
    (("dg", Fraction(1, 2), 2, 1), ("dl", Fraction(1, 4), 2, 1), ("dg", 1, 1, 1)),
    (("dl", Fraction(1, 3), 3, 1), ("dl", Fraction(1, 4), 1, 2)),
    (("dg", Fraction(1, 2), 1, 2), ("dg", Fraction(2, 3), 3, 1)),
]


@pytest.mark.parametrize("releases", CASES, ids=lambda r: "+".join(texts(r)))
def test_heterogeneous_enclosures_contain_the_brute_force_value(releases):
    cert = api.plain_composition(None, None, EPSILONS, releases=texts(releases), width="1e-26")
    assert "releases" in cert.input
    for point, reference in zip(cert.result["points"], brute_deltas(releases), strict=True):
        lower, upper = (mpmath.mpf(Fraction(point[k]).numerator) / Fraction(point[k]).denominator
                        for k in ("lower", "upper"))
        assert reference > 10**-6
        assert lower - TOLERANCE <= reference <= upper + TOLERANCE
        assert Fraction(point["upper"]) - Fraction(point["lower"]) <= Fraction(1, 10**26)


def test_a_laplace_only_composition_is_exactly_zero_from_its_largest_loss():
    # the largest losses: s/t = 9 for the output at t = 1/3, s = 3, and 1/t = 4 per output at t = 1/4: 9 + 8 = 17
    releases = ["dl:1/3:3x1", "dl:1/4x2"]
    cert = api.plain_composition(None, None, ["17", "171/10"], releases=releases, rel_width="1/1000")
    assert [(p["lower"], p["upper"]) for p in cert.result["points"]] == [("0", "0"), ("0", "0")]
    below = api.plain_composition(None, None, ["169/10"], releases=releases, rel_width="1/1000")
    point = below.result["points"][0]
    assert 0 < Fraction(point["lower"]) <= Fraction(point["upper"]) <= Fraction(point["lower"]) * Fraction(1001, 1000)
    reference = brute_delta((("dl", Fraction(1, 3), 3, 1), ("dl", Fraction(1, 4), 1, 2)), Fraction(169, 10))
    low, high = (mpmath.mpf(Fraction(point[k]).numerator) / Fraction(point[k]).denominator for k in ("lower", "upper"))
    assert low - TOLERANCE <= reference <= high + TOLERANCE


@pytest.mark.parametrize("family, parameter, budget", [
    ("discrete-gaussian", mpq(9), 8), ("discrete-laplace", mpq(2), 8), ("discrete-gaussian", mpq(1, 2), 3)])
def test_one_block_on_the_lattice_meets_the_single_law_route(family, parameter, budget):
    law = dict(sigma2=parameter) if family == "discrete-gaussian" else dict(sigma2=None, laplace=parameter)
    single = api.plain_composition(budget=budget, epsilons="1/2,1,2,4", width="1e-20", **law)
    plan = lattice.LatticePlan((Release(family, parameter, 1, budget),), mpq(1, 10**20))
    law = lattice.LossLaw(plan, 200)
    for point in single.result["points"]:
        lower, missing = law.at(mpq(point["epsilon"]))
        if lower is None:
            assert point["upper"] == "0" and (missing is None) == (family == "discrete-laplace")
            continue
        low, high = ball_lower(lower), ball_upper(lower) + (0 if missing is None else ball_upper(missing))
        assert high - low <= mpq(1, 10**19)                  # both enclose δ(ε): they must overlap
        assert max(low, mpq(point["lower"])) <= min(high, mpq(point["upper"]))


@pytest.mark.parametrize("steps, expected", [
    ((("discrete-gaussian", mpq(9), 1),), mpq(1, 9)),
    ((("discrete-gaussian", mpq(9), 1), ("discrete-laplace", mpq(2), 1), ("discrete-gaussian", mpq(4), 2)),
     mpq(1, 18)),
    ((("discrete-laplace", mpq(2, 3), 5), ("discrete-laplace", mpq(4, 5), 1)), mpq(1, 2)),
])
def test_the_lattice_step_divides_every_block_step(steps, expected):
    releases = [Release(f, p, s, 1) for f, p, s in steps]
    g = lattice.lattice_step(releases)
    assert g == expected
    for release in releases:
        step = mpq(release.sensitivity) / release.parameter if release.family == "discrete-gaussian" \
            else 2 / release.parameter
        assert (step / g).denominator == 1


def test_an_incommensurable_composition_is_refused_before_the_work():
    # steps 1000/1000003 and 1000/999983: their gcd is 1000/(1000003·999983), about 10^9 lattice points
    with pytest.raises(LimitError, match="lattice points"):
        api.plain_composition(None, None, [1], releases=["dg:1000003/1000x100", "dg:999983/1000x100"])


def test_the_releases_reference_is_reproduced_byte_for_byte():
    name = "plain-composition-releases-dg9x100-dl2x5-dg4s2x20.json"
    cert = api.plain_composition(None, None, "4,2,1", releases=["dl:2x5", "dg:4:2x20", "dg:9x100"], width="1e-15")
    assert cert.to_json() == (ROOT / "certificates" / "plain" / name).read_bytes()
