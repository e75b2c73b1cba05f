"""producer.input_files: bounded reads, refused in one line led by what was being read."""

import io
import sys

import pytest

from producer.errors import InputError, LimitError
from producer.input_files import read_limited


def test_a_file_at_the_limit_is_read_and_one_byte_more_is_refused(tmp_path):
    path = tmp_path / "f.json"
    path.write_bytes(b"0123456789")
    assert read_limited(str(path), 10, "queries") == b"0123456789"
    with pytest.raises(LimitError, match=rf"^queries: {path} is larger than the limit of 9 bytes$"):
        read_limited(str(path), 9, "queries")


def test_a_missing_file_names_what_and_why(tmp_path):
    with pytest.raises(InputError, match=r"^bank: cannot read .*missing.csv: No such file or directory$"):
        read_limited(str(tmp_path / "missing.csv"), 10, "bank")


def test_standard_input_is_read_bounded_too(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x" * 100)))
    with pytest.raises(LimitError, match="^certificate: standard input is larger than the limit of 50 bytes$"):
        read_limited("-", 50, "certificate")
