"""Banks, gates, Φ and the exact truncated projections."""

import json

import mpmath
import pytest
from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from producer.brace.bank import Bank, parse_point
from producer.brace.projection import project_and_round, project_internal
from producer.brace.retrieval import clean_trajectory, gate, phi, squared_distance, squared_norm, sub
from producer.errors import InputError

rats = st.fractions(min_value=-3, max_value=3, max_denominator=50).map(lambda f: mpq(f.numerator, f.denominator))
points = st.tuples(rats, rats)


def test_bank_reads_decimals_exactly(tmp_path):
    p = tmp_path / "b.json"
    p.write_text(json.dumps({"points": [["0.1", "1/3"], ["-2.5e-1", "7"]]}))
    b = Bank.from_path(str(p))
    assert b.points[0] == (mpq(1, 10), mpq(1, 3)) and b.points[1][0] == mpq(-1, 4)
    c = tmp_path / "b.csv"
    c.write_text("x,y\n0.1,1/3\n-0.25,7\n")
    assert Bank.from_path(str(c)).points == b.points


@pytest.mark.parametrize("text", ['{"points": []}', '{"points": [["1", "2"], ["1"]]}', '{"pts": 1}', "nonsense{"])
def test_bank_rejects_bad_files(tmp_path, text):
    p = tmp_path / "b.json"
    p.write_text(text)
    with pytest.raises(InputError):
        Bank.from_path(str(p))


def test_query_dimension_checked():
    with pytest.raises(InputError):
        parse_point("1,2,3", 2)


def test_gate_is_closed_and_empty_gate_keeps_state():
    pts = [(mpq(3, 5), mpq(4, 5)), (mpq(2), mpq(0))]
    assert gate(pts, (mpq(0), mpq(0)), mpq(1)) == (0,)  # distance exactly r is inside
    g, z = phi(pts, (mpq(10), mpq(10)), mpq(1))
    assert g == () and z == (mpq(10), mpq(10))


@settings(max_examples=40, deadline=None)
@given(st.lists(points, min_size=1, max_size=8), points)
def test_clean_trajectory_moves_at_most_r_per_step(pts, q):
    r2 = mpq(1, 2)
    zs = clean_trajectory(pts, q, r2, 4)
    for t in range(1, 5):
        assert squared_distance(zs[t], zs[t - 1]) <= r2
        assert squared_distance(zs[t], q) <= t * t * r2  # ||z_t - q|| <= t r


@settings(max_examples=60, deadline=None)
@given(points, points, st.integers(min_value=1, max_value=30))
def test_projection_stays_in_ball_and_is_close(c, p, g):
    R2 = mpq(2, 3)
    Y, projected = project_and_round(c, p, R2, g)
    assert squared_distance(Y, c) <= R2
    Q, qp = project_internal(c, p, R2, g)
    assert squared_distance(Q, c) <= R2
    assert projected == qp == (squared_distance(p, c) > R2)
    if not qp:
        assert Q == p
    # compare with a 200-bit projection: error at most sqrt(d) 2^-g per coordinate
    mpmath.mp.prec = 200  # restored to 53 at the end of the test
    w = [mpmath.mpf(int(x.numerator)) / int(x.denominator) for x in sub(p, c)]
    nrm = mpmath.sqrt(sum(x * x for x in w))
    R = mpmath.sqrt(mpmath.mpf(2) / 3)
    f = R / nrm if nrm > R else 1
    for i in range(2):
        exact = f * w[i]
        got = mpmath.mpf(int((Y[i] - c[i]).numerator)) / int((Y[i] - c[i]).denominator)
        assert abs(got - exact) <= mpmath.mpf(2) ** (-g) * (1 + mpmath.mpf(2) ** -100)
    mpmath.mp.prec = 53


def test_squared_norm():
    assert squared_norm((mpq(3), mpq(4))) == 25
