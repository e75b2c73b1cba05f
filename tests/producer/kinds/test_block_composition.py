"""block-composition/1: Table 2's decisions, deadline curves against a brute force, composition, refinement order."""

import json
import subprocess
import sys
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
from gmpy2 import mpq, mpz
from hypothesis import given, settings, strategies as st

from producer import api
from producer.blocks.composition import atoms, compose, hockey_stick, product_hockey_stick
from producer.blocks.deadline import DeadlineCurves
from producer.blocks.work import check_block_work
from producer.curves import TestingCurve
from producer.errors import InputError, LimitError
from producer.kinds.block_composition import (DEFAULT_SCALE, MAX_B, MAX_BLOCK_WORK, MAX_SUPPORT, Request,
                                              all_splits, block_types)
from producer.laws import FiniteLaw, Gamma
from producer.references import paper
from tests.untimed import HANG_GUARD_SECONDS

ROOT = Path(__file__).resolve().parents[3]
SCHEMA = json.loads((ROOT / "schemas" / "block-composition-1.schema.json").read_text())
REFERENCE = ROOT / "certificates" / "paper" / "block-composition-table2-g1_2-sigma2_4-c3-eps5.json"


# ---- an independent brute force: integer states, rows counted over the hidden U -------------------

def brute_value(weights, offset, a, B, n, x, y):
    """W_n(0, 0; x, y) by direct recursion over integer states (rows by counting U; docs/mechanism.md)."""
    S = sum(weights)

    def nu(z):
        i = z - offset
        return Fraction(weights[i], S) if 0 <= i < len(weights) else Fraction(0)

    def count(z, h):
        return max(0, min(B, (h + 1) * B - z) - max(0, h * B - z))

    @lru_cache(maxsize=None)
    def row(k):
        out = {}
        for h in range(-2 * (abs(a * k) // B + 2), 2 * (abs(a * k) // B + 2) + 1):
            c = count(a * k, h)
            if c:
                for z in range(offset, offset + len(weights)):
                    if nu(z):
                        out[z - h] = out.get(z - h, 0) + Fraction(c, B) * nu(z)
        return out

    def value(m, kp, kq, x, y):
        best = max(x, y)
        if m == 0:
            return best
        for j in (-1, 0, 1):
            rp, rq = row(kp), row(kq)
            total = 0
            for out in set(o + j for o in rp) | set(rq):
                p, q = rp.get(out - j, 0), rq.get(out, 0)
                if p or q:
                    total += value(m - 1, out - j, out, x * p, y * q)
            best = max(best, total)
        return best

    return value(n, 0, 0, Fraction(x), Fraction(y))


@st.composite
def laws(draw):
    B = draw(st.sampled_from([1, 2, 3]))
    a = 0 if B == 1 else draw(st.sampled_from(range(1, B)))
    weights = draw(st.lists(st.integers(0, 3), min_size=2, max_size=3).filter(lambda w: sum(w) > 0))
    return weights, draw(st.integers(-2, 0)), a, B


@settings(max_examples=12, deadline=None)
@given(laws(), st.integers(1, 3), st.fractions(min_value=0, max_value=4, max_denominator=7))
def test_deadline_curve_equals_the_brute_force(law, n, lam):
    weights, offset, a, B = law
    curves = DeadlineCurves(FiniteLaw(weights, offset), Gamma(a, B))
    unit = curves.D ** n
    got = Fraction(int(curves.curve(n, 0, 0)(mpz(lam.denominator), mpz(lam.numerator))), int(unit))
    assert got == brute_value(weights, offset, a, B, n, lam.denominator, lam.numerator)


def test_periodicity_and_the_dominating_curve_cover_every_state():
    """W_k is the same from states shifted by B^k, and the 'any' block is above every explicit start state."""
    law, gamma = FiniteLaw([1, 2, 3, 1], -1), Gamma(2, 3)
    curves = DeadlineCurves(law, gamma)
    fresh = DeadlineCurves(law, gamma)
    for k in (1, 2):
        dominating = curves.dominating(k, "any")
        for kq in range(-12, 13):
            for d in (-1, 0, 1):
                # a fresh cache keyed by the shifted representative: equal curves
                assert fresh._build(k, kq + d, kq) == curves.curve(k, kq + d, kq)
                for lam in (Fraction(1, 3), Fraction(2), Fraction(7)):
                    assert curves.curve(k, kq + d, kq)(mpz(lam.denominator), mpz(lam.numerator)) <= \
                        dominating(mpz(lam.denominator), mpz(lam.numerator))


def test_composition_is_the_product_pair():
    p1, q1 = [mpz(3), mpz(1), mpz(0), mpz(2)], [mpz(1), mpz(1), mpz(3), mpz(1)]
    p2, q2 = [mpz(1), mpz(4)], [mpz(2), mpz(3)]
    c1, c2 = TestingCurve.from_measures(p1, q1), TestingCurve.from_measures(p2, q2)
    assert sorted(atoms(c1)) == sorted(zip(p1, q1))  # distinct likelihood ratios: one atom each
    composed = compose([c1, c2])
    for lam in (mpq(0), mpq(1, 2), mpq(1), mpq(3)):
        brute = sum(max(mpq(a * b) - lam * c * d, 0) for a, c in zip(p1, q1) for b, d in zip(p2, q2)) / 30
        assert hockey_stick(composed, 30, lam) == brute


def _values(cert):
    return {tuple(m["split"]): (mpq(m["finite_upper"]), mpq(m["finite_lower"])) for m in cert.result["methods"]}


def _refines(fine, coarse):
    cuts = {sum(fine[:i]) for i in range(len(fine) + 1)}
    return {sum(coarse[:i]) for i in range(len(coarse) + 1)} <= cuts


@settings(max_examples=8, deadline=None)
@given(laws())
def test_finer_splits_never_certify_less(law):
    """Cutting a block further can only loosen the bound (domination is monotone under composition)."""
    weights, offset, a, B = law
    cert = api.block_composition(f"{a}/{B}" if a else "0", 3, "1", weights=weights, offset=offset)
    values = _values(cert)
    for fine in values:
        for coarse in values:
            if _refines(fine, coarse):
                assert values[fine][0] >= values[coarse][0] and values[fine][1] >= values[coarse][1]
    assert cert.result["tau"] == "0" and cert.result["transfer"] == "0"


def test_without_feedback_block_accounting_is_exact():
    """γ = 0 and a symmetric law: the product of single-release pairs is the adaptive value itself."""
    cert = api.block_composition("0", 3, "1/2", weights=[1, 2, 1])
    assert len(set(_values(cert).values())) == 1


def test_table_two_decisions():
    cert = json.loads(REFERENCE.read_text())
    jsonschema.validate(cert, SCHEMA)
    methods = {tuple(m["split"]): m for m in cert["result"]["methods"]}
    assert [t for t in cert["input"]["targets"]] == [{"low": "1/10000", "high": "1/10000"},
                                                     {"low": "1/25000", "high": "3/50000"}]
    assert methods[(1, 1, 1)]["decisions"] == ["fails", "fails"]
    assert methods[(2, 1)]["decisions"] == ["certifies", "fails"]
    assert methods[(1, 2)]["decisions"] == ["certifies", "fails"]
    assert methods[(3,)]["decisions"] == ["certifies", "certifies"]
    bounds = {s: mpq(m["bound"]) for s, m in methods.items()}
    assert bounds[(3,)] <= mpq(4, 10 ** 5) < mpq(6, 10 ** 5) < min(bounds[(2, 1)], bounds[(1, 2)])
    assert max(bounds[(2, 1)], bounds[(1, 2)]) <= mpq(1, 10 ** 4) < bounds[(1, 1, 1)]
    deadline = cert["result"]["deadline"]
    assert mpq(deadline["lower"]) <= mpq(deadline["upper"]) == bounds[(3,)]
    assert mpq(deadline["upper"]) - mpq(deadline["lower"]) < mpq(1, 10 ** 9)


def test_reference_regenerates_byte_identically(tmp_path):
    (path,) = paper.generate(str(tmp_path), {REFERENCE.name})
    assert Path(path).read_bytes() == REFERENCE.read_bytes()


def test_default_splits_are_every_split():
    assert all_splits(3) == [(1, 1, 1), (2, 1), (1, 2), (3,)]
    assert len(all_splits(4)) == 8


def test_limits_are_refused_before_the_work():
    with pytest.raises(LimitError, match="1..4"):
        api.block_composition("1/2", 5, "1", sigma2="4")
    with pytest.raises(LimitError, match="support"):
        api.block_composition("1/2", 2, "1", sigma2="4", radius=40)
    with pytest.raises(LimitError, match="curve terms"):
        api.block_composition("1/2", 4, "1", sigma2="4", radius=20)
    with pytest.raises(InputError, match="summing to T = 3"):
        api.block_composition("1/2", 3, "1", weights=[1, 1], splits="1+1")
    with pytest.raises(InputError, match="exactly one"):
        api.block_composition("1/2", 3, "1")
    with pytest.raises(InputError, match="low <= high"):
        api.block_composition("1/2", 1, "1", weights=[1, 1], targets="2e-4:1e-4")


def test_command_line_refuses_with_one_line():
    done = subprocess.run([sys.executable, "-m", "producer", "blocks", "--gamma", "1/2", "--sigma2", "4",
                           "--budget", "9", "--epsilon", "5"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "T = C must lie in 1..4" in done.stderr


def test_finite_law_certificate_validates():
    cert = api.block_composition("1/3", 2, "1/2", weights="1,2,1", targets="1/10")
    jsonschema.validate(cert.as_dict(), SCHEMA)
    assert cert.result["source"] is None and cert.result["draws"] == 2


@settings(max_examples=8, deadline=None)
@given(laws(), st.sampled_from([(1, 1, 1, 1), (2, 1, 1), (1, 2, 1), (1, 1, 2), (2, 2), (3, 1), (1, 3), (4,)]),
       st.fractions(min_value=0, max_value=9, max_denominator=7))
def test_the_product_value_is_the_composed_curves(law, split, lam):
    """H_λ of a split from the product's value at one point (no product curve) equals that of the composed
    curve, whichever of the last two curves product_value composes first."""
    weights, offset, a, B = law
    curves = DeadlineCurves(FiniteLaw(weights, offset), Gamma(a, B))
    chain = [curves.dominating(k, "zero" if i == 0 else "any") for i, k in enumerate(split)]
    unit = curves.D ** 4
    assert product_hockey_stick(chain, unit, mpq(lam)) == hockey_stick(compose(chain), unit, mpq(lam))


def test_the_numbers_sizes_bound_the_work_before_the_curves():
    """The curves' cost grows with the limbs of D^k: S = 2^4000 (within the source limits) ran for minutes and
    is refused from the request; S = 2^2000 is not, and no request within the term limit at the default
    scale reaches the producer's limit."""
    with pytest.raises(LimitError, match=r"^blocks: the block curves need about 3\.41e\+07 term-limbs .*"
                                         r"above the producer's limit 2e\+07; use a smaller scale"):
        Request.from_strings("1/3", 3, 2, sigma2=9, scale="2^4000")
    Request.from_strings("1/3", 3, 2, sigma2=9, scale="2^2000")
    for B in range(1, MAX_B + 1):
        for support in range(1, MAX_SUPPORT + 1):
            bits = (B * DEFAULT_SCALE).bit_length()
            types = [(k, 1 if start == "zero" else 3 * B ** k) for k, start in block_types(all_splits(4))]
            within = [(k, c) for k, c in types if c * (support + 2) ** k <= MAX_BLOCK_WORK]
            assert check_block_work(within, support, bits) <= 15 * 10 ** 6


def test_a_scale_exponent_beyond_the_limit_is_refused_before_the_power():
    """2^(10^15) used to be built (gmp aborts the process); now the scale's 2^k limit refuses it."""
    done = subprocess.run([sys.executable, "-m", "producer", "blocks", "--gamma", "1/3", "--sigma2", "9",
                           "--budget", "3", "--epsilon", "2", "--scale", "2^1000000000000000"],
                          capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "outside 2^0..2^4096" in done.stderr


def test_long_weights_in_a_list_are_read_without_str():
    """A 4401-digit weight (within the 10,000-digit input limit) was joined with str(), a ValueError under
    Python's default 4300-digit limit (kept here, as in any library's caller)."""
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        request = Request.from_strings("1/3", 2, 2, weights=[10 ** 4400, 1])
    finally:
        sys.set_int_max_str_digits(saved)
    assert request.law.weights == (mpz(10) ** 4400, 1)
