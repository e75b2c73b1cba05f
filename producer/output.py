"""Writing results: atomic files and standard output.

A file is written to a temporary file in the same folder and then moved into
place with ``os.replace``, so a reader never sees a partial file and a failed
write leaves nothing behind.  Failures become :class:`OutputError` naming the
path; a closed standard output (``producer ... | head``) becomes one too.
"""

import os
import stat
import sys
import tempfile

from producer.errors import OutputError


def stderr_progress(prefix=None):
    """A progress callback printing ``prefix: message`` (or the bare message) on stderr, flushed."""
    def report(message):
        if sys.stderr is not None:  # None when started with stderr closed
            print(message if prefix is None else f"{prefix}: {message}", file=sys.stderr, flush=True)
    return report


def write_file_atomic(path, data):
    """Write the bytes ``data`` to ``path`` atomically (temp file + os.replace).

    A symbolic link is followed (its target is replaced, not the link); an
    existing non-regular file (``/dev/null``, a named pipe) is written to
    directly, since it cannot be replaced - and must not be.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        raise OutputError(f"output: {path} is a directory, not a file name")
    if os.path.islink(path):
        path = os.path.realpath(path)
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        _write_special(path, data)
        return
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        problem = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise OutputError(f"output: cannot write {path}: {folder} {problem}")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".part", dir=folder)
    except OSError as exc:
        raise OutputError(f"output: cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        _remove_quietly(tmp)
        raise OutputError(f"output: cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        _remove_quietly(tmp)
        raise


def _write_special(path, data):
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise OutputError(f"output: cannot write {path}: {exc.strerror or exc}") from None


def write_stdout(data):
    """Write the bytes ``data`` to standard output and flush."""
    out = sys.stdout.buffer
    out.write(data)
    out.flush()


def write_output(data, path=None):
    """To ``path`` atomically, or to standard output when ``path`` is None (or "-")."""
    if path is None or os.fspath(path) == "-":
        write_stdout(data)
    else:
        write_file_atomic(path, data)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove_quietly(path):
    try:
        os.unlink(path)
    except OSError:
        pass
