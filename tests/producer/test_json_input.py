"""The producer's JSON reader: a repeated key and deep nesting are refused, floats kept as written on request."""

import json

import pytest

from producer import json_input
from producer.rationals import MAX_DIGITS


@pytest.mark.parametrize("text, key", [
    ('{"a": 1, "a": 2}', "'a'"),
    ('{"a": 1, "b": {"c": 1, "d": 2, "c": 3}}', "'c'"),  # at any depth
    ('[{"x": 1}, {"y": 2, "y": 2}]', "'y'"),             # even with equal values
])
def test_a_key_repeated_in_one_object_is_refused(text, key):
    with pytest.raises(json_input.DuplicateKeyError, match=f"^has the key {key} twice in one object$"):
        json_input.loads(text)


def test_the_same_key_in_different_objects_is_not_a_repetition():
    assert json_input.loads('[{"a": 1}, {"a": 2, "b": {"a": 3}}]') == [{"a": 1}, {"a": 2, "b": {"a": 3}}]


@pytest.mark.parametrize("text", ["[" * 100000, '{"a":' * 100000])
def test_too_deep_a_nesting_is_a_value_error_not_a_recursion_error(text):
    with pytest.raises(json_input.NestingError, match="^is nested too deep to read$"):
        json_input.loads(text)


def test_floats_are_binary_unless_asked_for_as_written():
    text = '[0.0100000000000000001, 1e-400, 2.0, 7, -3, "0.5"]'
    assert json_input.loads(text) == [0.01, 0.0, 2.0, 7, -3, "0.5"]
    assert json_input.loads(text, literal_floats=True) == ["0.0100000000000000001", "1e-400", "2.0", 7, -3, "0.5"]


def test_an_integer_longer_than_the_exact_readers_take_stays_text():
    long = "9" * (MAX_DIGITS + 1)
    assert json_input.loads(f"[{long}, -{long}]", literal_floats=True) == [long, f"-{long}"]
    assert json_input.loads("[99, -99]", literal_floats=True) == [99, -99]


def test_an_integer_beyond_pythons_conversion_limit_is_named(monkeypatch):
    monkeypatch.setattr("sys.get_int_max_str_digits", lambda: 50)  # Python's limit, when the CLI has not lifted it
    with pytest.raises(json_input.JSONInputError, match="^has an integer of 51 digits, more than 50 \\(the limit\\)$"):
        json_input.loads("1" * 51)
    assert json_input.loads("1" * 50) == int("1" * 50)


def test_syntax_errors_and_constants_are_jsons_own():
    with pytest.raises(json.JSONDecodeError):
        json_input.loads('{"a": ')
    assert json_input.loads(b'{"a": [1]}') == {"a": [1]}

    def refuse(name):
        raise ValueError(f"{name} refused")

    with pytest.raises(ValueError, match="NaN refused"):
        json_input.loads("[NaN]", parse_constant=refuse)
