"""Memory banks with exact rational coordinates.

A bank is n >= 1 points of Q^d.  Files are JSON ``{"points": [["x1", "y1"],
...]}`` (strings holding rationals ``p/q`` or decimals, read exactly) or CSV
with one point per row (same number syntax; a header row of non-numbers is
skipped).  Decimals are never read through floats.
"""

import csv
import json
import os

from gmpy2 import mpq

from producer.errors import InputError, LimitError
from producer.rationals import format_rational, parse_rational

MAX_BANK_SIZE = 20000  # documented limit: points in a bank
MAX_DIMENSION = 64  # documented limit: coordinates per point


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
            obj = json.loads(text)
        except ValueError as exc:
            raise InputError(f"{where}: not valid JSON ({exc})") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("points"), list):
            raise InputError(f'{where}: expected a JSON object {{"points": [[...], ...]}}')
        return cls.from_strings(obj["points"], where)

    @classmethod
    def from_csv_text(cls, text, where="bank"):
        rows = [r for r in csv.reader(text.splitlines()) if r and any(c.strip() for c in r)]
        if rows:
            try:
                [parse_rational(c) for c in rows[0]]
            except InputError:
                rows = rows[1:]  # a header row
        return cls.from_strings([[c.strip() for c in r] for r in rows], where)

    @classmethod
    def from_path(cls, path):
        """Read a ``.json`` or ``.csv`` bank file (format by extension, else sniffed)."""
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except OSError as exc:
            raise InputError(f"bank: cannot read {path}: {exc.strerror}") from None
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


def parse_point(text, dimension, what="query"):
    """A point written ``x1,x2,...`` (rationals or decimals), of the given dimension."""
    parts = [p for p in str(text).split(",")]
    if len(parts) != dimension:
        raise InputError(f"{what}: {text!r} has {len(parts)} coordinates, the bank has dimension {dimension}")
    return tuple(parse_rational(p.strip(), what) for p in parts)
