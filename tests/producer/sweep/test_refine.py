"""producer.sweep.refine: the rounds that take a sweep point to a relative width.

A stand-in ``certify`` (a known δ, the interval a width rule would give) counts
the rounds and the widths asked; one real point, the README's ε = 4, runs the
producer and the auditor.
"""

from fractions import Fraction

import pytest
from gmpy2 import mpq

from auditor import api as auditor_api
from producer.errors import LimitError
from producer.sweep import refine as rf
from producer.sweep.grid import LAPLACE, GridPoint
from producer.sweep.run import certificate_of, row_of

R = mpq(1, 1000)
FLOOR = mpq(1, 10 ** 30)


class FakeCertificate:
    """What refine reads of a dg-interval certificate: the interval and the finite game's value v."""

    def __init__(self, lower, upper, v):
        self.result = {"interval": {"lower": str(lower), "upper": str(upper)}, "finite": {"hockey_stick": str(v)}}


class Certifier:
    """A certify(point, width) for a true value δ: v = δ, interval [max(0, δ − w/2), δ + w/2]; records widths.

    ``refuse_below``: widths below it raise LimitError, as the auditor's work limit does.
    """

    def __init__(self, delta, refuse_below=None, estimate=None):
        self.delta, self.refuse_below, self.estimate, self.widths = mpq(delta), refuse_below, estimate, []

    def __call__(self, point, width):
        if self.refuse_below is not None and width < self.refuse_below:
            raise LimitError(f"width {width}: beyond the limit")
        self.widths.append(width)
        v = self.delta if self.estimate is None else self.estimate(width)
        return FakeCertificate(max(mpq(0), self.delta - width / 2), self.delta + width / 2, v)


def _point(epsilon="1", rel_width=R, width=FLOOR, law="sigma2", law_value=9, budget=2, kind="dg"):
    return GridPoint(kind, mpq(1, 3), mpq(law_value), budget, mpq(epsilon), width, law, rel_width)


def test_power_of_ten_at_most_is_exact():
    assert rf.power_of_ten_at_most(mpq(1)) == 1
    assert rf.power_of_ten_at_most(mpq(999, 1000)) == mpq(1, 10)
    assert rf.power_of_ten_at_most(mpq(1, 10 ** 12)) == mpq(1, 10 ** 12)
    assert rf.power_of_ten_at_most(mpq(10 ** 12 - 1, 10 ** 24)) == mpq(1, 10 ** 13)
    assert rf.power_of_ten_at_most(mpq(12345)) == 10000


@pytest.mark.parametrize("lower, estimate, expected", [
    (mpq(3, 10 ** 4), mpq(3, 10 ** 4), mpq(1, 10 ** 8)),   # R·lower/8 = 3.75e-8 -> 1e-8
    (mpq(0), mpq(15, 10 ** 12), mpq(1, 10 ** 15)),          # lower 0: the game's v aims, 1.9e-15 -> 1e-15
    (mpq(0), mpq(0), mpq(1, 10 ** 12)),                      # nothing to aim at: w²
])
def test_next_width(lower, estimate, expected):
    assert rf.next_width(mpq(1, 10 ** 6), lower, estimate, R) == expected


def test_next_width_always_halves_at_least():
    assert rf.next_width(mpq(1, 2), mpq(0), mpq(0), R) <= mpq(1, 4)
    assert rf.next_width(mpq(2), mpq(0), mpq(0), R) <= 1


def test_a_large_delta_meets_r_in_the_first_round_at_r_squared():
    certify = Certifier("7/100")
    refined = rf.refine(_point(), certify)
    assert (refined.rounds, refined.stop, certify.widths) == (1, rf.MET, [mpq(1, 10 ** 6)])


def test_a_positive_lower_end_meets_r_in_the_next_round():
    certify = Certifier("3/10000")
    refined = rf.refine(_point(), certify)
    assert refined.stop == rf.MET and refined.rounds == 2
    assert certify.widths == [mpq(1, 10 ** 6), mpq(1, 10 ** 8)]


def test_lower_end_zero_aims_at_the_game_estimate():
    """The README's ε = 4 in miniature: δ ≈ 1.5e-11 is below the first width, v points straight at it."""
    certify = Certifier("15/1000000000000")
    refined = rf.refine(_point(), certify)
    lower, upper = rf.ends("dg", refined.certificate)
    assert lower > 0 and upper - lower <= R * lower
    assert refined.stop == rf.MET and certify.widths == [mpq(1, 10 ** 6), mpq(1, 10 ** 15)]


def test_without_an_estimate_the_widths_square_down_to_the_floor():
    certify = Certifier(0, estimate=lambda width: 0)  # δ = 0: R is never met
    refined = rf.refine(_point(), certify)
    assert refined.stop == rf.FLOOR
    assert certify.widths == [mpq(1, 10 ** 6), mpq(1, 10 ** 12), mpq(1, 10 ** 24), FLOOR]
    assert rf.status_of(*rf.ends("dg", refined.certificate), R, refined.stop) == rf.UPPER_ONLY


def test_a_refused_round_keeps_the_previous_certificate():
    certify = Certifier("1/10000000000", refuse_below=mpq(1, 10 ** 8))
    refined = rf.refine(_point(), certify)
    assert refined.stop == rf.LIMIT and refined.rounds == 1 and certify.widths == [mpq(1, 10 ** 6)]
    assert rf.ends("dg", refined.certificate) == (0, mpq(1, 10 ** 10) + mpq(1, 2 * 10 ** 6))


def test_the_rounds_are_bounded():
    # an estimate that keeps the lower end at 0: each round aims 10^4 lower, never reaching δ = 0
    certify = Certifier(0, estimate=lambda width: width)
    refined = rf.refine(_point(width=mpq(1, 10 ** 300)), certify)
    assert refined.stop == rf.ROUNDS and refined.rounds == rf.MAX_ROUNDS == len(certify.widths)


def test_an_absolute_width_is_one_round_at_that_width():
    certify = Certifier("1/10000000000")
    refined = rf.refine(_point(rel_width=None, width=mpq(1, 10 ** 6)), certify)
    assert (refined.rounds, refined.stop, certify.widths) == (1, rf.ABSOLUTE, [mpq(1, 10 ** 6)])
    assert rf.status_of(*rf.ends("dg", refined.certificate), None, rf.ABSOLUTE) == rf.UPPER_ONLY


def test_a_floor_above_r_squared_is_the_only_round():
    certify = Certifier("3/10000")
    refined = rf.refine(_point(width=mpq(1, 10 ** 5)), certify)
    assert (refined.rounds, refined.stop, certify.widths) == (1, rf.FLOOR, [mpq(1, 10 ** 5)])


def test_a_laplace_point_at_the_pure_dp_bound_has_one_round():
    """Δ*_C(2C/t) = 0: no round would give a positive lower end."""
    certify = Certifier(0, estimate=lambda width: 0)
    refined = rf.refine(_point(epsilon="2", law=LAPLACE, law_value=2, budget=2), certify)
    assert (refined.rounds, refined.stop) == (1, rf.PURE)
    below = rf.refine(_point(epsilon="19/10", law=LAPLACE, law_value=2, budget=2), Certifier(0, estimate=lambda w: 0))
    assert below.stop == rf.FLOOR


@pytest.mark.parametrize("lower, upper, rel_width, stop, status", [
    (0, 0, R, rf.MET, rf.TWO_SIDED),
    (0, 0, None, rf.ABSOLUTE, rf.TWO_SIDED),
    (0, mpq(1, 10 ** 7), None, rf.ABSOLUTE, rf.UPPER_ONLY),
    (mpq(1, 10 ** 7), mpq(3, 10 ** 7), None, rf.ABSOLUTE, rf.TWO_SIDED),
    (mpq(1, 10 ** 7), mpq(3, 10 ** 7), R, rf.FLOOR, rf.UPPER_ONLY),
    (mpq(1, 10 ** 7), mpq(1, 10 ** 7) + mpq(1, 10 ** 12), R, rf.MET, rf.TWO_SIDED),
])
def test_status(lower, upper, rel_width, stop, status):
    assert rf.status_of(mpq(lower), mpq(upper), rel_width, stop) == status


def test_readme_last_point_becomes_two_sided_and_verifies(tmp_path):
    """ε = 4 of the README's grid (γ = 1/3, σ² = 9, C = 2): [0, 2.0e-7] at width 10^-6, two-sided within
    R = 10^-3 after the rounds; the kept certificate is a dg-interval/1 the auditor accepts."""
    point = _point(epsilon="4")
    absolute = certificate_of(point, mpq(1, 10 ** 6))
    assert rf.ends("dg", absolute)[0] == 0
    refined = rf.refine(point, certificate_of)
    lower, upper = rf.ends("dg", refined.certificate)
    assert refined.stop == rf.MET and 0 < lower and upper - lower <= R * lower
    assert Fraction(14, 10 ** 12) < lower < upper < Fraction(16, 10 ** 12)
    path = tmp_path / point.file_name()
    path.write_bytes(refined.certificate.to_json())
    assert auditor_api.verify_file(str(path)).ok
    row = row_of(point, refined)
    assert row["status"] == rf.TWO_SIDED and row["source_width"] == refined.certificate.input["source"]["width"]
    assert row["rounds"] == refined.rounds and row["epsilon_decimal"] == "4"
