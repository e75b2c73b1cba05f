"""Memory banks with exact rational coordinates.

A bank is n >= 1 points of Q^d.  Files are JSON ``{"points": [["x1", "y1"],
...]}`` (strings holding rationals ``p/q`` or decimals, read exactly) or CSV
with one point per row (same number syntax; a first row none of whose fields
is a number is a header, and skipped).  Decimals are never read through
floats, not even a JSON float (``1e-400`` is 10^-400, not 0).
"""

import csv
import os

from gmpy2 import mpq

from producer import json_input
from producer.errors import InputError, LimitError
from producer.input_files import read_limited
from producer.rationals import format_rational, parse_rational

MAX_BANK_SIZE = 20000  # documented limit: points in a bank
MAX_DIMENSION = 64  # documented limit: coordinates per point
MAX_FILE_BYTES = 64 * 2**20  # a bank file is read whole: /dev/zero must not fill the memory first


class Bank:
    """An immutable tuple of points in Q^d (each a tuple of ``mpq``)."""

    __slots__ = ("points", "dimension")

    def __init__(self, points):
        points = tuple(tuple(mpq(c) for c in p) for p in points)
        if not points:
            raise InputError("bank: it holds no points")
        if len(points) > MAX_BANK_SIZE:
            raise LimitError(f"bank: {len(points)} points exceed the limit of {MAX_BANK_SIZE} "
                             f"(a run scans every record twice per step and certifies a count "
                             f"envelope over up to n terms; estimated work ~ {len(points)} x T gate tests "
                             f"plus n multiplications of {len(points)}*128-bit rationals per step)")
        d = len(points[0])
        if d < 1 or d > MAX_DIMENSION:
            raise InputError(f"bank: dimension {d} is outside 1..{MAX_DIMENSION}")
        for i, p in enumerate(points):
            if len(p) != d:
                raise InputError(f"bank: point {i} has {len(p)} coordinates, point 0 has {d}")
        self.points = points
        self.dimension = d

    def __len__(self):
        return len(self.points)

    @classmethod
    def from_strings(cls, rows, where="bank"):
        """Read rows of number strings (rationals or decimals) exactly."""
        pts = []
        for i, row in enumerate(rows):
            if not isinstance(row, (list, tuple)):
                raise InputError(f"{where}: point {i} is not a list of coordinates")
            pts.append([parse_rational(c, f"{where}: point {i}") for c in row])
        return cls(pts)

    @classmethod
    def from_json_text(cls, text, where="bank"):
        try:
            obj = json_input.loads(text, literal_floats=True)  # floats as written: the points are read exactly
        except json_input.JSONInputError as exc:
            raise InputError(f"{where}: the JSON text {exc}") from None
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON ({exc})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("points"), list):
            raise InputError(f'{where}: expected a JSON object {{"points": [[...], ...]}}')
        return cls.from_strings(obj["points"], where)

    @classmethod
    def from_csv_text(cls, text, where="bank"):
        rows = _csv_rows(text, where)
        if rows and not any(_is_number(c) for c in rows[0][1]):
            rows = rows[1:]  # a header: a row that names columns; one number in it makes it a point
        return cls([[parse_rational(c, f"{where}: row {line}") for c in row] for line, row in rows])

    @classmethod
    def from_path(cls, path):
        """Read a ``.json`` or ``.csv`` bank file (format by extension, else sniffed)."""
        text = _read_text(path)
        where = f"bank {os.path.basename(path)}"
        if path.lower().endswith(".csv"):
            return cls.from_csv_text(text, where)
        if path.lower().endswith(".json") or text.lstrip().startswith("{"):
            return cls.from_json_text(text, where)
        return cls.from_csv_text(text, where)

    def to_strings(self):
        """The points as canonical rational strings (certificate form)."""
        return [[format_rational(c) for c in p] for p in self.points]

    def replaced(self, j, x):
        """The bank B^{j <- x}: record j replaced by the point x."""
        pts = list(self.points)
        pts[j] = tuple(mpq(c) for c in x)
        return Bank(pts)


def _read_text(path):
    """The text of a bank file, at most MAX_FILE_BYTES of UTF-8 (a byte-order mark dropped), or one line."""
    data = read_limited(path, MAX_FILE_BYTES, "bank")
    try:
        return data.decode("utf-8-sig")  # a spreadsheet's BOM would otherwise spoil the first field
    except UnicodeDecodeError as exc:
        raise InputError(f"bank: {path} is not UTF-8 text (byte {exc.start} cannot be read); "
                         f"save it as UTF-8") from None


def _csv_rows(text, where):
    """(line number, stripped fields) of each non-blank CSV row, or one line naming the row that cannot be read."""
    reader = csv.reader(text.splitlines())
    rows = []
    try:
        for row in reader:
            if any("\0" in c for c in row):  # csv keeps a NUL, but no number holds one: the file is not text
                raise InputError(f"{where}: row {reader.line_num} holds a NUL byte; a bank is text")
            if any(c.strip() for c in row):
                rows.append((reader.line_num, [c.strip() for c in row]))
    except csv.Error as exc:  # e.g. a field longer than the csv module reads
        raise InputError(f"{where}: row {reader.line_num} cannot be read as CSV ({exc})") from None
    return rows


def _is_number(text):
    try:
        parse_rational(text)
    except InputError:
        return False
    return True


def parse_point(text, dimension, what="query"):
    """A point written ``x1,x2,...`` (rationals or decimals), of the given dimension."""
    parts = [p for p in str(text).split(",")]
    if len(parts) != dimension:
        raise InputError(f"{what}: {text!r} has {len(parts)} coordinates, the bank has dimension {dimension}")
    return tuple(parse_rational(p.strip(), what) for p in parts)
