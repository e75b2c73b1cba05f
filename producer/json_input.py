"""JSON text as the producer's readers take it: strict about what :func:`json.loads` lets pass.

Two things the standard reader does silently are refused here: an object
that repeats a key (json keeps the last value, so one file could be read two
ways) and nesting deep enough to exhaust Python's stack (a RecursionError,
which is no way to tell a person that the file is bad).  Optionally a JSON
float is kept as its literal text, for readers that read numbers exactly:
``0.0100000000000000001`` and ``1e-400`` would otherwise become the binary
floats 0.01 and 0.0.

The errors are :class:`ValueError` subclasses whose message completes a
sentence starting with the file's name ("FILE has the key 'x' twice in one
object"), so each reader words its own one-line refusal.
"""

import json
import sys

from producer.rationals import MAX_DIGITS

__all__ = ["JSONInputError", "DuplicateKeyError", "NestingError", "loads"]


class JSONInputError(ValueError):
    """Valid JSON syntax that the producer still refuses to read."""


class DuplicateKeyError(JSONInputError):
    """An object names the same key twice."""


class NestingError(JSONInputError):
    """Arrays and objects nested deeper than the reader's stack."""


def _unique_keys(pairs):
    """The object_pairs_hook: a dict, unless a key repeats (json itself would keep the last value)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(f"has the key {_shown(key)} twice in one object")
            seen.add(key)
    return obj


def _integer(text):
    """The parse_int hook: Python refuses to convert an integer of more digits than its limit with a bare
    ValueError, which would read as an internal error; name the limit instead."""
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()   # Python 3.10 has no such limit
    if limit and len(text.lstrip("-")) > limit:
        raise JSONInputError(f"has an integer of {len(text.lstrip('-'))} digits, more than {limit} (the limit)")
    return int(text)


def _literal_integer(text):
    """The parse_int hook of the exact readers: an integer longer than they read stays text, which they refuse
    by its length in one line, instead of a conversion whose time grows with the square of its digits."""
    return text if len(text.lstrip("-")) > MAX_DIGITS else _integer(text)


def _shown(key, limit=60):
    text = repr(key)
    return text if len(text) <= limit else f"{text[:limit - 5]}...{text[-4:]}"


def loads(text, *, literal_floats=False, parse_constant=None):
    """The value of the JSON ``text`` (str or bytes).

    ``literal_floats`` keeps every JSON number with a fraction or an exponent
    as its text (integers stay ints, bar those longer than the exact readers
    take), for readers that read strings exactly.
    ``parse_constant`` is json's hook for NaN and Infinity.  Raises
    :class:`json.JSONDecodeError` for bad syntax and :class:`JSONInputError`
    for a repeated key, too deep a nesting or too long an integer.
    """
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_float=str if literal_floats else None,
                          parse_int=_literal_integer if literal_floats else _integer,
                          parse_constant=parse_constant)
    except RecursionError:
        # json's scanner recurses once per level; the stack, not the file, sets the limit
        raise NestingError("is nested too deep to read") from None
