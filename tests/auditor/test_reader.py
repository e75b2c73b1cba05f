"""The strict reader (auditor.reader) and the number reader (auditor.rationals).

Every limit is exercised on both sides of its boundary, and the digit limits
are shown not to depend on Python's own int/str limit.
"""

import io
import json
import os
import sys
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from auditor import reader
from auditor.rationals import MAX_DIGITS, MalformedNumber, read_integer, read_rational, show, write_rational
from auditor.reader import (MAX_DEPTH, MAX_JSON_INT_DIGITS, MAX_STRING_CHARS, Unreadable, nesting_depth,
                            parse, read_bytes)


def _refused(data, phrase):
    with pytest.raises(Unreadable) as info:
        parse(data)
    assert phrase in str(info.value)
    return str(info.value)


@pytest.fixture
def low_int_str_limit():
    """Python's int/str digit limit far below the reader's: the reader must not need it."""
    saved = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    yield
    sys.set_int_max_str_digits(saved)


# ---- JSON -----------------------------------------------------------------------

def test_plain_object_is_read():
    assert parse(b'{"a": [1, -2, "3/4", true, null], "b": {"c": "\\u00e9"}}') == {
        "a": [1, -2, "3/4", True, None], "b": {"c": "é"}}


@pytest.mark.parametrize("text", ['{"a": 1, "a": 1}', '{"x": {"b": 1, "c": 2, "b": 3}}',
                                  '{"l": [{"k": 0}, {"k": 1, "k": 1}]}'])
def test_duplicate_keys_are_refused(text):
    _refused(text.encode(), "duplicate key")


def test_depth_limit_boundary():
    inside = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert parse(('{"a": ' + inside + "}").encode())  # depth MAX_DEPTH exactly
    _refused(('{"a": [' + inside + "]}").encode(), f"nested {MAX_DEPTH + 1} levels deep")


def test_ten_thousand_deep_is_refused_by_the_scan_not_by_recursion():
    data = ("[" * 10_000 + "]" * 10_000).encode()
    saved = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # a parser that recursed would hit this first
    try:
        message = _refused(data, "nested 10000 levels deep")
    finally:
        sys.setrecursionlimit(saved)
    assert "limit of 64" in message


def test_brackets_inside_strings_do_not_count():
    text = '{"a": "' + "[" * 5000 + '", "b": "\\"[[[[", "c": []}'
    assert parse(text.encode())["c"] == []


def _naive_depth(text):
    depth = best = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


@given(st.text(alphabet='[]{}"\\ab,', max_size=300))
def test_depth_scan_agrees_with_a_character_by_character_scan(text):
    naive = _naive_depth(text)
    found = nesting_depth(text, limit=3)
    if naive > 3:
        assert found == naive
    else:
        assert found <= 3


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=30)


@given(json_values)
def test_depth_scan_of_valid_json_is_its_true_depth(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0
    text = json.dumps(value)
    found = nesting_depth(text, limit=0)
    assert found == depth(value)


@pytest.mark.parametrize("number", ["2.0", "1.0", "-1.0", "0.0", "1e3", "1E-2", "0.5"])
def test_fractional_json_numbers_are_refused(number):
    _refused(f'{{"budget": {number}}}'.encode(), f"JSON number {number} is not an integer")


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_constants_are_refused(constant):
    _refused(f'{{"x": {constant}}}'.encode(), constant)


def test_json_integer_digit_limit_is_checked_before_conversion(low_int_str_limit):
    ok = "9" * MAX_JSON_INT_DIGITS
    assert parse(f'{{"n": {ok}, "m": -{ok}}}'.encode())["n"] == 10 ** MAX_JSON_INT_DIGITS - 1
    _refused(f'{{"n": {ok}9}}'.encode(), f"{MAX_JSON_INT_DIGITS + 1} digits exceeds the limit")
    # far beyond Python's own limit: still our message, not Python's
    _refused(('{"n": ' + "1" * 100_000 + "}").encode(), "100000 digits exceeds the limit")


def test_negative_zero_json_integer_is_refused():
    _refused(b'{"k": -0}', "-0")


def test_lone_surrogates_are_refused_and_pairs_accepted():
    _refused(b'{"x": "\\ud800"}', "lone surrogate U+D800")
    _refused(b'{"x": "a\\udfffb"}', "lone surrogate U+DFFF")
    _refused(b'{"\\ud800": 1}', "lone surrogate")
    assert parse(b'{"x": "\\ud83d\\ude00"}')["x"] == "\U0001F600"


@pytest.mark.parametrize("escape", ["\\n", "\\t", "\\u0000", "\\u007f"])
def test_control_characters_in_strings_are_refused(escape):
    _refused(f'{{"gamma": "1/3{escape}"}}'.encode(), "control character")


def test_string_length_limit():
    assert parse(('{"s": "' + "1" * MAX_STRING_CHARS + '"}').encode())
    _refused(('{"s": "' + "1" * (MAX_STRING_CHARS + 1) + '"}').encode(), "exceeds the limit")


@pytest.mark.parametrize("data, phrase", [
    (b"\xef\xbb\xbf{}", "byte-order mark"),
    (b'{"a": "\xff"}', "not UTF-8"),
    (b'{"a": "\xed\xa0\x80"}', "not UTF-8"),  # an encoded surrogate (CESU-8)
    ('{"a": 1}'.encode("utf-16"), "not UTF-8"),
    (b"[]", "not a JSON object but a JSON array"),
    (b'"x"', "not a JSON object"),
    (b"", "not valid JSON"),
    (b'{"a": 1} {}', "not valid JSON"),
    (b'{"a": 01}', "not valid JSON"),
    (b'{"a": "1\n"}', "not valid JSON"),  # a raw newline inside a string
])
def test_encoding_and_framing_errors(data, phrase):
    _refused(data, phrase)


def test_unterminated_strings_keep_the_scan_linear():
    text = '{"a": "' + '\\"' * 200_000 + "\\"
    _refused(text.encode(), "not valid JSON")


# ---- files ----------------------------------------------------------------------

def test_regular_file_within_the_cap(tmp_path):
    p = tmp_path / "c.json"
    p.write_bytes(b"x" * 100)
    assert read_bytes(str(p), cap=100) == b"x" * 100
    with pytest.raises(Unreadable, match="larger than the limit of 99 bytes"):
        read_bytes(str(p), cap=99)


def test_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(Unreadable, match="a named pipe, not a regular file"):
        read_bytes(str(fifo))


@pytest.mark.parametrize("path, phrase", [("/dev/zero", "a character device"),
                                          ("/dev/null", "a character device")])
def test_devices_are_refused(path, phrase):
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    with pytest.raises(Unreadable, match=phrase):
        read_bytes(path)


def test_directory_and_missing_file(tmp_path):
    with pytest.raises(Unreadable, match="a directory"):
        read_bytes(str(tmp_path))
    with pytest.raises(Unreadable, match="No such file"):
        read_bytes(str(tmp_path / "missing.json"))


def test_sparse_100_megabyte_file_is_refused_by_size(tmp_path):
    p = tmp_path / "big.json"
    with open(p, "wb") as fh:
        fh.truncate(100 * 1024 * 1024)
    with pytest.raises(Unreadable, match="larger than the limit of 67108864 bytes"):
        read_bytes(str(p))


def test_standard_input_is_capped(monkeypatch):
    class Stdin:
        buffer = io.BytesIO(b"y" * 50)
    monkeypatch.setattr(sys, "stdin", Stdin)
    with pytest.raises(Unreadable, match="larger than the limit of 49 bytes"):
        read_bytes("-", cap=49)
    Stdin.buffer = io.BytesIO(b'{"a": 1}')
    assert reader.read_certificate("-") == {"a": 1}


# ---- number strings ---------------------------------------------------------------

@pytest.mark.parametrize("text", ["1/3\n", "1/3 ", " 1/3", "-0", "+1", "01", "1/03", "1/0", "0/1",
                                  "2/4", "3/1", "1/-3", "1.5", "", "/3", "1/", "1//3", "\u0661",
                                  "1/3\x00", "--1"])
def test_non_canonical_number_strings_are_malformed(text):
    with pytest.raises(MalformedNumber):
        read_rational(text, "/x")


@pytest.mark.parametrize("value", [None, 1, 1.5, True, ["1"]])
def test_non_strings_are_malformed_numbers(value):
    with pytest.raises(MalformedNumber, match="expected a rational string"):
        read_rational(value, "/x")


def test_digit_limit_is_independent_of_python_int_limit(low_int_str_limit):
    num = "7" * MAX_DIGITS
    value = read_rational(num + "/2", "/x")
    assert value.denominator == 2 and value.numerator.bit_length() > 33_000
    with pytest.raises(MalformedNumber, match=f"{MAX_DIGITS + 1} digits exceed the limit"):
        read_rational("7" * (MAX_DIGITS + 1), "/x")
    with pytest.raises(MalformedNumber, match="exceed the limit"):
        read_rational("1/" + "3" * (MAX_DIGITS + 1), "/x")
    with pytest.raises(MalformedNumber, match="characters exceeds the limit"):
        read_rational("1" * 100_000, "/x")


def test_integers():
    assert read_integer("-12", "/x") == -12
    with pytest.raises(MalformedNumber, match="not an integer"):
        read_integer("1/2", "/x")


@given(st.fractions(max_denominator=10**30))
def test_canonical_round_trip(q):
    assert read_rational(write_rational(q), "/x") == q


@given(st.text(alphabet="-0123456789/\n ", max_size=12))
def test_every_accepted_string_is_the_canonical_one(text):
    try:
        value = read_rational(text, "/x")
    except MalformedNumber:
        return
    assert write_rational(value) == text


def test_show_is_bounded_and_exact_when_short(low_int_str_limit):
    huge = Fraction(10**20_000 + 1, 3)
    text = show(huge)
    assert len(text) < 250 and "(20001 digits)" in text and text.endswith("/3")
    assert show(Fraction(-4, 3)) == "-4/3"
    assert write_rational(huge).startswith("1000")  # exact, however long
    assert "(5000 digits)" in show("x " + "1" * 5000 + " y")


def test_value_count_limit_is_checked_before_parsing():
    from auditor.reader import MAX_VALUES, value_bound
    assert value_bound('{"a": [1, 2, {"b": "x,y"}]}') == 6  # exactly its 6 values
    ok = '{"a": [' + ",".join(["1"] * (MAX_VALUES - 2)) + "]}"
    assert len(parse(ok.encode())["a"]) == MAX_VALUES - 2
    from auditor.outcomes import Unchecked
    with pytest.raises(Unchecked) as info:  # a limit of the checker: UNCHECKED, not MALFORMED
        parse(('{"a": [' + ",".join(["1"] * MAX_VALUES) + "]}").encode())
    assert info.value.limit == MAX_VALUES and info.value.estimate > MAX_VALUES
