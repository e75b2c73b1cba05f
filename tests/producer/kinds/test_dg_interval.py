"""producer.kinds.dg_interval: the DG interval end to end."""

import decimal
from fractions import Fraction

import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

import producer.kinds.dg_interval as dgi
from producer.rationals import decimal_outward
from producer.certificates.canonical import render
from producer.errors import InputError
from producer.game.values import GameValue
from producer.rationals import parse_rational
from tests.reference_game import ReferenceGame

# seed 004 §4.3 / SPEC 4: γ = 1/3, σ = 3, C = 2, ε = 2
PUBLISHED_C2 = (parse_rational("0.000084311988514885295528"), parse_rational("0.000084311988530665157923"))


def reference_solver(law, gamma, budget, x, y, method=None):
    """A stand-in for the engine: the plain reference game of tests/reference_game.py."""
    game = ReferenceGame([int(w) for w in law.weights], law.offset, gamma.a, gamma.B)
    value = game.G(budget, Fraction(int(x.numerator), int(x.denominator)),
                   Fraction(int(y.numerator), int(y.denominator)))
    return GameValue(mpq(value.numerator, value.denominator), {"action": "stop"}, "reference")


@settings(max_examples=12)
@given(st.sampled_from([mpq(1, 2), mpq(1), mpq(9, 4)]), st.sampled_from([mpq(0), mpq(1, 2), mpq(3, 2)]),
       st.integers(min_value=1, max_value=2), st.integers(min_value=8, max_value=2**12),
       st.sampled_from(["1/3", "1/2", "2/3"]))
def test_tiny_sources_match_the_plain_reference_game(sigma2, eps, radius, scale, gamma):
    check_against_reference(dgi.Request(gamma, sigma2, 1, eps, radius=radius, scale=scale))


def test_tiny_budget_two_source_matches_the_plain_reference_game():
    check_against_reference(dgi.Request("1/3", mpq(1, 2), 2, mpq(1, 2), radius=1, scale=64))


def check_against_reference(request):
    engine = dgi.evaluate(request)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dgi, "_solve", reference_solver)
        reference = dgi.evaluate(request)
    assert engine.finite.value == reference.finite.value
    assert (engine.lower, engine.upper) == (reference.lower, reference.upper)
    assert engine.v == engine.finite.value - engine.lam_lo
    assert engine.lower <= engine.v <= engine.upper


@pytest.mark.parametrize("budget", [1, 2])
def test_intervals_from_different_sources_intersect(budget):
    for eps in (mpq(0), mpq(1, 2), mpq(3, 2)):
        coarse = dgi.evaluate(dgi.Request("1/3", mpq(9), budget, eps, radius=10, scale=2**20))
        fine = dgi.evaluate(dgi.Request("1/3", mpq(9), budget, eps, width=mpq(1, 10**9)))
        assert coarse.lower <= fine.upper and fine.lower <= coarse.upper
        assert fine.width < mpq(1, 10**9) < coarse.width


def test_published_c2_interval_is_reproduced():
    result = dgi.evaluate(dgi.Request("1/3", mpq(9), 2, mpq(2), width=mpq(2, 10**14)))
    assert result.width <= mpq(2, 10**14)
    assert result.lower <= PUBLISHED_C2[1] and PUBLISHED_C2[0] <= result.upper
    assert result.source.radius == 24
    assert result.lam_lo <= result.lam_hi and result.lam_hi - result.lam_lo <= mpq(2, 10**14) / 64


def test_certificate_fields_and_determinism():
    request = dgi.Request("1/3", mpq(9), 1, mpq("4.91"), radius=8, scale=mpz(2) ** 30)
    cert = dgi.build(request)
    assert render(cert) == render(dgi.build(request))
    assert cert["schema"] == "dg-interval/1"
    assert cert["input"]["epsilon"] == "491/100"
    assert cert["input"]["source"] == {"radius": 8, "scale": str(2**30)}
    res = cert["result"]
    assert res["source"]["offset"] == -8 and len(res["source"]["weights"]) == 17
    assert sum(int(w) for w in res["source"]["weights"]) == 2**30
    lower, upper = mpq(res["interval"]["lower"]), mpq(res["interval"]["upper"])
    assert mpq(res["interval"]["width"]) == upper - lower
    assert Fraction(res["interval"]["lower_display"]) <= Fraction(res["interval"]["lower"])
    assert Fraction(res["interval"]["upper_display"]) >= Fraction(res["interval"]["upper"])


def test_budget_zero_gives_the_zero_interval():
    result = dgi.evaluate(dgi.Request("1/3", mpq(9), 0, mpq(1), radius=5, scale=1000))
    assert (result.lower, result.upper) == (0, 0)


@pytest.mark.parametrize("width", [mpq(1, 100), mpq(1, 10**6), mpq(1, 10**12)])
def test_width_mode_is_narrower_than_requested(width):
    result = dgi.evaluate(dgi.Request("1/2", mpq(1), 2, mpq(1), width=width))
    assert result.width < width


def test_decimal_display_rounds_outward_exactly():
    x = mpq(10**30 + 1, 3 * 10**31)
    with decimal.localcontext() as ctx:
        ctx.prec = 100
        exact = decimal.Decimal(10**30 + 1) / decimal.Decimal(3 * 10**31)
        down = exact.quantize(decimal.Decimal(1).scaleb(-40), rounding=decimal.ROUND_FLOOR)
        up = exact.quantize(decimal.Decimal(1).scaleb(-40), rounding=decimal.ROUND_CEILING)
    assert decimal_outward(x, 40, -1) == str(down)
    assert decimal_outward(x, 40, +1) == str(up)
    assert decimal_outward(-x, 40, +1) == "-" + str(down)
    assert decimal_outward(mpq(1, 4), 2, -1) == decimal_outward(mpq(1, 4), 2, +1) == "0.25"


@pytest.mark.parametrize("kwargs", [
    dict(radius=3, scale=10, width=mpq(1, 10)),
    dict(),
    dict(radius=3),
    dict(scale=10),
    dict(width=mpq(0)),
    dict(width=mpq(1, 10), method="fast"),
])
def test_bad_requests_are_refused(kwargs):
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), 2, mpq(2), **kwargs)


def test_bad_parameters_are_refused():
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), 2, mpq(-1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("2/6", mpq(9), 2, mpq(1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(0), 2, mpq(1), width=mpq(1, 10))
    with pytest.raises(InputError):
        dgi.Request("1/3", mpq(9), -1, mpq(1), width=mpq(1, 10))


# seed 004 F.5: γ = 1/3, σ = 3, C = 3, ε = 2, L = 24
PUBLISHED_C3 = (parse_rational("0.001471784810259119"), parse_rational("0.001471784810282800"))


@pytest.mark.reference
def test_published_c3_interval_is_reproduced_and_audited(tmp_path):
    from auditor.cli import verify_file
    cert = dgi.build(dgi.Request("1/3", mpq(9), 3, mpq(2), radius=24, scale=mpz(2) ** 80))
    iv = cert["result"]["interval"]
    lower, upper = mpq(iv["lower"]), mpq(iv["upper"])
    assert lower <= PUBLISHED_C3[1] and PUBLISHED_C3[0] <= upper
    assert upper - lower < mpq(2369, 10**17)
    path = tmp_path / "c3.json"
    path.write_bytes(render(cert))
    status, report = verify_file(str(path))
    assert status == 0, report.failures
