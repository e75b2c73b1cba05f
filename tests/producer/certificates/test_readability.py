"""producer/certificates/readability.py: every kind's certificate is checked against the auditor's reader
limits when it is sealed (string length, digits, value count, nesting)."""

import pytest

from producer.certificates.canonical import canonical_json, make_certificate
from producer.certificates.readability import MAX_NUMBER_DIGITS, MAX_STRING_CHARS, check_readable, value_bound
from producer.errors import LimitError



def test_value_bound_is_the_readers():
    from auditor.reader import value_bound as readers_bound
    text = canonical_json({"a": [1, "x,[{", {"b": [[], {}]}], "c": "\"q\",", "d": None})
    assert value_bound(text) == readers_bound(text)


@pytest.mark.parametrize("length", [MAX_STRING_CHARS, MAX_STRING_CHARS + 1])
def test_a_string_longer_than_the_reader_reads_is_refused(length):
    result = {"note": "x" * length}
    if length <= MAX_STRING_CHARS:
        make_certificate("k", 1, {}, result)
    else:
        with pytest.raises(LimitError, match="characters"):
            make_certificate("k", 1, {}, result)


@pytest.mark.parametrize("digits", [MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS + 1])
def test_a_number_longer_than_the_reader_reads_is_refused(digits):
    number = f"1/{'7' * digits}"
    if digits <= MAX_NUMBER_DIGITS:
        check_readable({"v": number}, canonical_json({"v": number}))
    else:
        with pytest.raises(LimitError, match="denominator has"):
            check_readable({"v": number}, canonical_json({"v": number}))


def test_too_many_values_and_too_deep_nesting_are_refused():
    with pytest.raises(LimitError, match="JSON values"):
        make_certificate("k", 1, {}, {"v": [0] * 100_000})
    deep = []
    for _ in range(70):
        deep = [deep]
    with pytest.raises(LimitError, match="nesting"):
        make_certificate("k", 1, {}, {"v": deep})
