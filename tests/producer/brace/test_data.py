"""The stored banks are what the generators produce."""

import json
import os

import pytest
from gmpy2 import mpq

from producer.brace import bank, data
from producer.brace.bank import Bank
from producer.errors import InputError, LimitError

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


# ---- reading a bank file: every row counts, and bad files are one line ----------------------------------------

def _bank(tmp_path, data, name="bank.csv"):
    path = tmp_path / name
    path.write_bytes(data)
    return Bank.from_path(str(path))


@pytest.mark.parametrize("data", [b"\xef\xbb\xbf0,0\n1,0\n", b"x,y\n0,0\n1,0\n", b"\xef\xbb\xbfx,y\n0,0\n1,0\n"])
def test_a_byte_order_mark_is_dropped_and_only_a_row_of_names_is_a_header(tmp_path, data):
    assert _bank(tmp_path, data).points == ((0, 0), (1, 0))  # the BOM once hid row 0,0 as a "header"


@pytest.mark.parametrize("data, message", [
    (b"nan,0\n1,0\n", "^bank bank.csv: row 1: 'nan' is not a rational"),      # a number beside it: not a header
    (b"0\x00,0\n1,0\n", "^bank bank.csv: row 1 holds a NUL byte; a bank is text$"),
    (b"x,y\n0,0\n1,\x000\n", "^bank bank.csv: row 3 holds a NUL byte"),
    (b"0,0\n1," + b"1" * 200000 + b"\n", "^bank bank.csv: row 2 cannot be read as CSV \\(field larger than"),
    (b"x,y\n0,\xe9\n", "^bank: .*bank.csv is not UTF-8 text \\(byte 6 cannot be read\\); save it as UTF-8$"),
])
def test_a_bad_csv_row_is_refused_in_one_line_naming_it(tmp_path, data, message):
    with pytest.raises(InputError, match=message):
        _bank(tmp_path, data)


def test_a_bank_file_is_read_only_up_to_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(bank, "MAX_FILE_BYTES", 8)  # /dev/zero once filled the memory
    assert len(_bank(tmp_path, b"0,0\n1,1\n")) == 2
    with pytest.raises(LimitError, match="is larger than the limit of 8 bytes$"):
        _bank(tmp_path, b"0,0\n1,1\n2")


def test_a_json_bank_refuses_a_repeated_key_and_reads_floats_as_written(tmp_path):
    with pytest.raises(InputError, match="^bank bank.json: the JSON text has the key 'points' twice in one object$"):
        _bank(tmp_path, b'{"points": [["0"]], "points": [["1"]]}', "bank.json")
    points = _bank(tmp_path, b'{"points": [[1e-400], [0.1000000000000000001]]}', "bank.json").points
    assert points == ((mpq(1, 10**400),), (mpq(1000000000000000001, 10**19),))  # not 0 and 1/10
