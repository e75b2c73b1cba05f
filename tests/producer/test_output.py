"""producer.output: atomic writes leave either the whole new file or nothing new."""

import errno
import os

import pytest

from producer import output
from producer.errors import OutputError


def test_a_failing_rename_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "x.json"
    target.write_bytes(b"old")

    def refuse(src, dst):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(output.os, "replace", refuse)
    with pytest.raises(OutputError) as info:
        output.write_file_atomic(target, b"new")
    assert "cannot write" in str(info.value) and "Permission denied" in str(info.value)
    assert target.read_bytes() == b"old" and os.listdir(tmp_path) == ["x.json"]


def test_no_permission_for_the_temporary_file(tmp_path, monkeypatch):
    def refuse(**kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(output.tempfile, "mkstemp", refuse)
    with pytest.raises(OutputError) as info:
        output.write_file_atomic(tmp_path / "x.json", b"new")
    assert "Permission denied" in str(info.value) and os.listdir(tmp_path) == []


def test_an_interrupted_write_removes_the_temporary(tmp_path, monkeypatch):
    real_fdopen = os.fdopen

    class Exploding:
        def __init__(self, fd, mode):
            self.fh = real_fdopen(fd, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            raise KeyboardInterrupt
    monkeypatch.setattr(output.os, "fdopen", Exploding)
    with pytest.raises(KeyboardInterrupt):
        output.write_file_atomic(tmp_path / "x.json", b"new")
    assert os.listdir(tmp_path) == []


def test_the_new_file_gets_ordinary_permissions(tmp_path):
    output.write_file_atomic(tmp_path / "x.json", b"data")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "x.json").stat().st_mode & 0o777 == 0o666 & ~mask
    assert (tmp_path / "x.json").read_bytes() == b"data"
