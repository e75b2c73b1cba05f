"""The stored banks are what the generators produce."""

import json
import os

import pytest

from producer.brace import data
from producer.brace.bank import Bank

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "..", "data", "brace")


def test_synthetic_bank_regenerates_byte_for_byte():
    with open(os.path.join(DATA, "synthetic.json"), encoding="utf-8") as fh:
        assert fh.read() == data.synthetic_json()


def test_synthetic_bank_shape():
    b = Bank.from_path(os.path.join(DATA, "synthetic.json"))
    assert len(b) == 256 and b.dimension == 2
    left = sum(1 for p in b.points if p[0] < -0.5)
    right = sum(1 for p in b.points if p[0] > 0.5)
    assert left > 80 and right > 80  # two dominant modes at (+-1, 0)


def test_digits_bank_stored():
    b = Bank.from_path(os.path.join(DATA, "digits2d.json"))
    assert len(b) == 1797 and b.dimension == 2


@pytest.mark.slow
def test_digits_bank_regenerates():
    pytest.importorskip("sklearn")
    with open(os.path.join(DATA, "digits2d.json"), encoding="utf-8") as fh:
        stored = json.load(fh)["points"]
    fresh = json.loads(data.digits_json())["points"]
    # the PCA runs in floating point (LAPACK): allow one unit in the 4th decimal
    from fractions import Fraction
    assert len(fresh) == len(stored)
    for a, b in zip(fresh, stored):
        assert all(abs(Fraction(x) - Fraction(y)) <= Fraction(1, 10 ** 4) for x, y in zip(a, b))
