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


@pytest.mark.parametrize("make", ["long", "loop"])
def test_a_folder_the_system_cannot_look_up_is_refused_before_the_work(tmp_path, make):
    """A name longer than the system allows, or a loop of links: refused in one line (--out of a sweep with such
    a name used to end in an internal error after the work)."""
    if make == "long":
        folder = tmp_path / ("y" * 300)
    else:
        (tmp_path / "a").symlink_to(tmp_path / "b")
        (tmp_path / "b").symlink_to(tmp_path / "a")
        folder = tmp_path / "a" / "x"
    with pytest.raises(OutputError, match=r"^output: cannot make the folder .*: (File name too long|Too many levels)"):
        output.check_output_folder(folder)


class _FullStream:
    """A standard output whose device is full (as /dev/full)."""

    class buffer:
        @staticmethod
        def write(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        @staticmethod
        def flush():
            pass

    @staticmethod
    def fileno():
        raise ValueError("no descriptor")


@pytest.mark.parametrize("stream, fragment", [(None, "standard output is closed"),
                                              (_FullStream(), "cannot write to standard output: No space left")])
def test_a_standard_output_that_cannot_take_the_certificate_is_an_output_error(monkeypatch, stream, fragment):
    monkeypatch.setattr(output.sys, "stdout", stream)
    with pytest.raises(OutputError, match=fragment + ".*give -o FILE"):
        output.write_output(b"{}\n")
