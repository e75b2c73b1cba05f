"""The auditor's reader limits, checked on every certificate before it is written.

The auditor reads every file through one strict reader (docs/certificates.md,
"How the auditor reads a file"); a file beyond its limits is MALFORMED (exit 2)
or, for the value count, UNCHECKED (exit 3), whatever it claims.  The producer
restates those limits here and refuses, with one line naming the limit, to
seal a certificate that breaks one, so it never writes a file the auditor
cannot read:

- file size <= 64 MiB;
- nesting of arrays and objects <= 64 levels;
- JSON values (bounded as the reader does: 1 + commas + opening brackets
  outside strings) <= 100,000;
- every string (key or value) <= 20,002 characters; a number string has at
  most 10,000 digits in its numerator and in its denominator;
- a JSON integer has at most 100 digits.

This is the backstop after the work; the per-kind checks (e.g.
:mod:`producer.sources.auditability`) refuse earlier, from the request alone.
"""

import re

from producer.errors import LimitError

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 64
MAX_VALUES = 100_000
MAX_STRING_CHARS = 20_002
MAX_NUMBER_DIGITS = 10_000
MAX_JSON_INT_DIGITS = 100

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(/([1-9][0-9]*))?")

__all__ = ["check_readable", "value_bound"]


def value_bound(text):
    """The reader's bound on the JSON values of canonical ``text``: 1 + commas + openers outside strings.

    The text is canonical JSON (``ensure_ascii=False``), so a quote inside a
    string is always escaped and strings are the spans between unescaped quotes.
    """
    return _value_bound(_STRING.sub("", text))


def _value_bound(outside):
    return 1 + outside.count(",") + outside.count("[") + outside.count("{")


def _depth(outside):
    depth = deepest = 0
    for ch in re.sub(r"[^\[\]{}]", "", outside):
        depth += 1 if ch in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _check_scalars(value, path):
    """Strings, number strings and JSON integers within the reader's limits (depth-first)."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            for key, sub in item.items():
                _check_string(key, where)
                stack.append((sub, f"{where}/{key}"))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, f"{where}/{i}") for i, sub in enumerate(item))
        elif isinstance(item, str):
            _check_string(item, where)
        elif isinstance(item, int) and not isinstance(item, bool) and len(str(abs(item))) > MAX_JSON_INT_DIGITS:
            raise LimitError(f"{where or '/'}: a JSON integer of {len(str(abs(item)))} digits exceeds the "
                             f"auditor's reader limit of {MAX_JSON_INT_DIGITS} digits")


def _check_string(text, where):
    if len(text) > MAX_STRING_CHARS:
        raise LimitError(f"{where or '/'}: a string of {len(text)} characters exceeds the auditor's reader limit "
                         f"of {MAX_STRING_CHARS} (the exact number is too long to certify; use smaller sizes)")
    number = _NUMBER.fullmatch(text)
    if number:
        for part, digits in (("numerator", number.group(1)), ("denominator", number.group(3) or "")):
            if len(digits) > MAX_NUMBER_DIGITS:
                raise LimitError(f"{where or '/'}: the {part} has {len(digits)} digits, above the auditor's "
                                 f"limit of {MAX_NUMBER_DIGITS} (use smaller sizes)")


def check_readable(certificate, text):
    """LimitError (one line) unless the auditor's reader accepts ``certificate``, whose canonical JSON is ``text``.

    ``text`` may be the body without the digest: the digest adds one key, one
    value and 71 bytes, which the bounds below include.
    """
    size = len(text.encode("utf-8")) + 80
    if size > MAX_FILE_BYTES:
        raise LimitError(f"certificate: about {size} bytes exceed the auditor's file limit of {MAX_FILE_BYTES} "
                         f"bytes (use smaller sizes)")
    outside = _STRING.sub("", text)
    values = _value_bound(outside)
    if values + 1 > MAX_VALUES:
        raise LimitError(f"certificate: {values + 1} JSON values exceed the auditor's limit of {MAX_VALUES} "
                         f"(use smaller sizes)")
    if _depth(outside) > MAX_DEPTH:
        raise LimitError(f"certificate: nesting deeper than the auditor's limit of {MAX_DEPTH} levels")
    _check_scalars(certificate, "")
