"""The width rules of plain-composition/1: W (absolute), R (relative), both; the rounds that meet R."""

from fractions import Fraction
from pathlib import Path

import pytest
from gmpy2 import mpq

from producer import api
from producer.errors import LimitError
from producer.kinds.plain_composition import Request
from producer.plain import targets
from producer.plain.enclose import Point

ROOT = Path(__file__).resolve().parents[3]


def ends(cert, index=0):
    point = cert.result["points"][index]
    return Fraction(point["lower"]), Fraction(point["upper"])


@pytest.mark.parametrize("lower, upper, width, rel_width, expected", [
    (0, 0, None, mpq(1, 1000), True),                     # lower = upper = 0 meets R
    (0, mpq(1, 10**90), None, mpq(1, 1000), False),        # upper-only: never meets R
    (1000, 1001, None, mpq(1, 1000), True), (1000, 1002, None, mpq(1, 1000), False),
    (0, mpq(1, 10), mpq(1, 10), None, True), (0, mpq(1, 10), mpq(1, 11), mpq(1, 2), False),
    (0, mpq(1, 10), mpq(1, 10), mpq(1, 1000), True),      # W met, R not: the point meets one of them
])
def test_a_point_meets_w_or_r(lower, upper, width, rel_width, expected):
    assert targets.meets(Point(1, lower, upper), width, rel_width) is expected


def test_the_tiny_delta_comes_back_with_both_ends_positive_within_r():
    # σ² = 100, C = 1, ε = 2: δ ≈ 4.16e-91, which an absolute width of 10^-60 can only bound by [0, 3.9e-62]
    absolute = api.plain_composition(100, 1, "2", width="1e-60")
    assert ends(absolute) == (0, Fraction(1, 2**204))
    relative = api.plain_composition(100, 1, "2")                     # the relative default R = 1/1000
    lower, upper = ends(relative)
    assert 0 < lower <= upper <= lower * Fraction(1001, 1000)
    assert Fraction(41, 10**92) < lower < Fraction(42, 10**92)
    assert lower <= Fraction(1, 2**204) and absolute.input["width"] == "1/" + "1" + "0" * 60
    point = relative.result["points"][0]
    assert Fraction(point["lower_display"]) <= lower and upper <= Fraction(point["upper_display"])
    assert point["lower_display"].startswith("0." + "0" * 90 + "4159")       # the display shows the digits


@pytest.mark.parametrize("rel_width", ["1/10", "1/1000", "1/1000000"])
def test_every_point_meets_r_for_a_heterogeneous_composition(rel_width):
    cert = api.plain_composition(None, None, "0,1,4,8", releases=["dg:4x3", "dl:1x2", "dg:2:2x1"],
                                 rel_width=rel_width)
    R = Fraction(rel_width)
    assert cert.input["width"] is None and cert.input["rel_width"] == rel_width
    for index in range(4):
        lower, upper = ends(cert, index)
        assert 0 < lower and upper - lower <= R * lower


def test_both_widths_r_first_w_the_floor():
    cert = api.plain_composition(9, 4, "1,6", width="1e-10", rel_width="1/1000")
    for index in range(2):                      # R reachable at both: each point meets R, both ends positive
        lower, upper = ends(cert, index)
        assert 0 < lower and upper - lower <= lower / 1000
    tiny = api.plain_composition(9, 1, "2,20", width="1e-50", rel_width="1/1000")
    (l2, u2), (l20, u20) = ends(tiny, 0), ends(tiny, 1)
    assert 0 < l2 and u2 - l2 <= l2 / 1000
    assert u20 - l20 <= Fraction(1, 10**50) and not (0 < l20 and u20 - l20 <= l20 / 1000)


def test_the_default_answers_an_astronomically_small_delta_under_the_floor():
    # δ(20) at σ² = 9, C = 1 is about e^{−1800}: R cannot be reached (see below); the floor W = 10^-60 holds
    cert = api.plain_composition(9, 1, "20")
    assert cert.input["width"] == "1/1" + "0" * 60 and cert.input["rel_width"] == "1/1000"
    lower, upper = ends(cert)
    assert 0 <= lower <= upper <= Fraction(1, 10**300)
    point = cert.result["points"][0]
    assert Fraction(point["lower_display"]) <= lower and upper <= Fraction(point["upper_display"])
    assert Fraction(point["upper_display"]) <= Fraction(1, 10**60)


def test_a_relative_width_below_what_can_be_reached_names_the_absolute_width():
    # δ(20) at σ² = 9, C = 1 is about e^{−1800}: below the 10^-400 floor of the rounds
    request = Request(1, [mpq(20)], None, sigma2=mpq(9), rel_width=mpq(1, 1000))
    with pytest.raises(LimitError, match="width=W"):  # the command line: --width W
        targets.points(request)


def test_the_relative_points_do_not_depend_on_the_other_epsilons_asked_in_a_round():
    together = api.plain_composition(9, 8, "1,2,4")
    for index, epsilon in enumerate(("1", "2", "4")):
        alone = api.plain_composition(9, 8, epsilon)
        lower, upper = ends(alone)
        both = ends(together, index)
        assert max(lower, both[0]) <= min(upper, both[1])


def test_the_relative_reference_is_reproduced_byte_for_byte():
    name = "plain-composition-dg-sigma2_100-c1-rel1e-3.json"
    cert = api.plain_composition(100, 1, "2", rel_width="1/1000")
    assert cert.to_json() == (ROOT / "certificates" / "plain" / name).read_bytes()


def test_single_epsilon_releases_points_are_those_of_one_epsilon_requests():
    request = Request(None, [mpq(0)], mpq(1, 10**15), releases=["dg:4:2x3", "dl:2x2", "dg:9x5"])
    single = targets.SingleEpsilonReleases(request)
    for epsilon in (mpq(0), mpq(1, 3), mpq(2), mpq(9), mpq(40)):
        expected = targets.points(request.with_epsilons([epsilon]))[0]
        got = single.point(epsilon)
        assert (got.epsilon, got.lower, got.upper) == (expected.epsilon, expected.lower, expected.upper)
    for bad in (Request(3, [mpq(1)], mpq(1, 10**15), sigma2=mpq(9)),
                Request(None, [mpq(1)], None, releases=["dg:4:2x3"], rel_width=mpq(1, 1000))):
        with pytest.raises(ValueError, match="absolute width only"):
            targets.SingleEpsilonReleases(bad)
