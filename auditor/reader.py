"""The strict reader every certificate goes through, whatever its kind.

A certificate file is accepted by the reader only if all of these hold; the
first that does not is reported as one line and the file is MALFORMED
(exit status 2).  Every limit is checked before the work it bounds.

* **A regular file of at most** :data:`MAX_FILE_BYTES` **= 64 MiB.**  The file
  is opened with ``O_NONBLOCK`` and ``fstat``-ed before anything is read, so
  a named pipe, a device such as ``/dev/zero`` or a directory is refused at
  once, never waited on; at most ``MAX_FILE_BYTES + 1`` bytes are ever read
  (also from standard input, ``-``).
* **Strict UTF-8**, no byte-order mark.
* **Strict JSON** (RFC 8259): no ``NaN``/``Infinity``, no trailing data, no
  raw control characters in strings.
* **Nesting at most** :data:`MAX_DEPTH` **= 64** arrays/objects deep, found by a
  linear scan of the text *before* parsing (the parser never recurses deeper).
* **At most** :data:`MAX_VALUES` **= 100,000 JSON values** (arrays, objects and
  scalars; keys not counted), bounded by the same scan from its commas and
  brackets, so that the schema and the checks never face an unbounded count.
  This one is a limit of the checker, not of the format: a larger file is
  UNCHECKED (exit 3), not MALFORMED.  Schema validation costs 15-75 µs a
  value, so the cap keeps it to a few seconds; the largest reference
  certificate holds about 15,000 values.
* **No duplicate key** in any object (two readers of the file could otherwise
  disagree about what it claims).
* **JSON numbers are integers of at most** :data:`MAX_JSON_INT_DIGITS` **= 100
  digits**, checked on the digit string before conversion, and never ``-0``.
  No certificate format has a fractional JSON number: exact values are
  strings, so ``2.0``, ``1e3`` or ``-1.0`` are refused wherever they stand.
* **Strings are valid Unicode text of at most** :data:`MAX_STRING_CHARS`
  **characters** (the longest canonical rational, see
  :mod:`auditor.rationals`): no lone surrogate (``"\\ud800"``), no control
  character (so ``"1/3\\n"`` never reaches a pattern).
* The top level is a JSON object.

Number strings (``"p/q"``) are read later by :func:`auditor.rationals.read_rational`
with its own digit limit (10,000 per numerator and denominator).
"""

import json
import os
import re
import stat
import sys
from array import array
from itertools import accumulate

from auditor.outcomes import MalformedInput, Unchecked
from auditor.rationals import MAX_NUMBER_CHARS

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Largest certificate file read, in bytes."""

MAX_DEPTH = 64
"""Deepest nesting of arrays and objects."""

MAX_VALUES = 100_000
"""Most JSON values (arrays, objects, scalars) in one certificate."""

MAX_JSON_INT_DIGITS = 100
"""Most digits in a JSON integer (budgets, offsets, counts, indices, seeds)."""

MAX_STRING_CHARS = MAX_NUMBER_CHARS
"""Longest JSON string (key or value), in characters."""

STDIN = "-"


class Unreadable(MalformedInput):
    """The file cannot be read, or is not a strict JSON certificate within the limits."""


# ---- reading bytes -----------------------------------------------------------

def _read_capped(read, cap):
    """Bytes from ``read(n)`` until EOF; refuse once more than ``cap`` arrive."""
    chunks, total = [], 0
    while total <= cap:
        chunk = read(min(1 << 20, cap + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    if total > cap:
        raise Unreadable(f"larger than the limit of {cap} bytes")
    return b"".join(chunks)


def _kind_of(mode):
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def read_bytes(path, cap=MAX_FILE_BYTES):
    """The bytes of the regular file ``path`` (``"-"``: standard input), at most ``cap``."""
    if path == STDIN:
        stdin = getattr(sys.stdin, "buffer", None)
        if stdin is None:
            raise Unreadable("cannot read: no standard input")
        return _read_capped(stdin.read, cap)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror}") from None
    except ValueError as exc:  # e.g. an embedded NUL byte in the path
        raise Unreadable(f"cannot read: {exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(f"cannot read: {_kind_of(info.st_mode)}, not a regular file")
        if info.st_size > cap:
            raise Unreadable(f"larger than the limit of {cap} bytes ({info.st_size} bytes)")
        with os.fdopen(fd, "rb", closefd=True) as fh:
            fd = None
            return _read_capped(fh.read, cap)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror}") from None
    finally:
        if fd is not None:
            os.close(fd)


# ---- decoding ------------------------------------------------------------------

def decode(data):
    """Strict UTF-8 text of ``data``; a byte-order mark is refused."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise Unreadable("not valid JSON: starts with a UTF-8 byte-order mark")
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8: invalid byte at offset {exc.start}") from None


# ---- nesting depth, before parsing -------------------------------------------

# A JSON string, or an unterminated one running to the end: always matches at
# a quote on its first (greedy) path, so the scan is linear whatever the text.
_STRING = re.compile(r'"[^"\\]*(?:\\.?[^"\\]*)*(?:"|\Z)', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = str.maketrans({"[": "\x01", "{": "\x01", "]": "\xff", "}": "\xff"})


def _outside_strings(text):
    """The text with every string literal removed (an unterminated one runs to the end)."""
    return _STRING.sub("", text)


def _depth(outside, limit):
    """Deepest nesting in string-free text, or 0 when it cannot exceed ``limit``."""
    if outside.count("[") + outside.count("{") <= limit:
        return 0
    brackets = _NOT_BRACKET.sub("", outside)
    # +1 per opener, -1 per closer (signed bytes); the running maximum is the depth
    return max(accumulate(array("b", brackets.translate(_STEP).encode("latin-1"))))


def _value_bound(outside):
    # every value but the first of each array or object follows a comma
    return 1 + outside.count(",") + outside.count("[") + outside.count("{")


def nesting_depth(text, limit=MAX_DEPTH):
    """The deepest bracket nesting outside strings, or 0 when it cannot exceed ``limit``.

    Linear in the text; no recursion.
    """
    return _depth(_outside_strings(text), limit)


def value_bound(text):
    """An upper bound on the number of JSON values in ``text``: 1 + commas + openers."""
    return _value_bound(_outside_strings(text))


# ---- parsing --------------------------------------------------------------------

def _clip(text, limit=40):
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _parse_int(digits):
    if len(digits.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise Unreadable(f"JSON integer of {len(digits.lstrip('-'))} digits exceeds the limit "
                         f"of {MAX_JSON_INT_DIGITS} digits (exact values are strings)")
    if digits == "-0":
        raise Unreadable("JSON integer -0 is not canonical (write 0)")
    return int(digits)


def _parse_float(text):
    raise Unreadable(f"JSON number {_clip(text)} is not an integer; certificates have no "
                     "fractional JSON numbers (exact values are strings such as \"p/q\")")


def _parse_constant(name):
    raise Unreadable(f"non-finite number {name} is not JSON")


def _object(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise Unreadable(f"duplicate key {_clip(key)!r} in one object")
            seen.add(key)
    return obj


_BAD_CHAR = re.compile(r"[\x00-\x1f\x7f\ud800-\udfff]")


def _check_string(text, where):
    if len(text) > MAX_STRING_CHARS:
        raise Unreadable(f"{where}: string of {len(text)} characters exceeds the limit of "
                         f"{MAX_STRING_CHARS}")
    bad = _BAD_CHAR.search(text)
    if bad:
        code = ord(bad.group())
        what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character"
        raise Unreadable(f"{where}: string holds {what} U+{code:04X}")


def _check_strings(value):
    """Every key and string value within limits and valid text (iterative walk)."""
    stack = [("", value)]
    while stack:
        pointer, node = stack.pop()
        if isinstance(node, str):
            _check_string(node, pointer or "/")
        elif isinstance(node, dict):
            for key, item in node.items():
                _check_string(key, f"{pointer}/{_clip(key)}")
                stack.append((f"{pointer}/{_clip(key)}", item))
        elif isinstance(node, list):
            stack.extend((f"{pointer}/{i}", item) for i, item in enumerate(node))


def parse(data):
    """The JSON object in ``data`` (bytes), read under every rule of this module.

    >>> parse(b'{"budget": 2, "gamma": "1/3"}')
    {'budget': 2, 'gamma': '1/3'}
    >>> parse(b'{"budget": 2.0}')  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    auditor.reader.Unreadable: JSON number 2.0 is not an integer; certificates have no fractional JSON numbers
    (exact values are strings such as "p/q")
    """
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(f"larger than the limit of {MAX_FILE_BYTES} bytes ({len(data)} bytes)")
    text = decode(data)
    outside = _outside_strings(text)
    values = _value_bound(outside)  # first: it also bounds the work of the depth scan
    if values > MAX_VALUES:
        raise Unchecked("", values, MAX_VALUES, "number of JSON values (bounded from the text)")
    depth = _depth(outside, MAX_DEPTH)
    if depth > MAX_DEPTH:
        raise Unreadable(f"nested {depth} levels deep, beyond the limit of {MAX_DEPTH}")
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_int=_parse_int,
                           parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    if not isinstance(value, dict):
        raise Unreadable(f"not a JSON object but a JSON {_json_type(value)}")
    _check_strings(value)
    return value


def _json_type(value):
    return {list: "array", str: "string", int: "number", bool: "boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


def read_certificate(path, cap=MAX_FILE_BYTES):
    """The JSON object in the file ``path`` (``"-"``: standard input), strictly read."""
    return parse(read_bytes(path, cap))
