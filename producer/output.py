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
from pathlib import Path

from producer.errors import InputError, OutputError
from producer.names import option


def stderr_progress(prefix=None):
    """A progress callback printing ``prefix: message`` (or the bare message) on stderr, flushed."""
    def report(message):
        if sys.stderr is not None:  # None when started with stderr closed
            print(message if prefix is None else f"{prefix}: {message}", file=sys.stderr, flush=True)
    return report


def check_output_file(path):
    """The file ``path`` can be written (its folder exists and is writable): the same
    :class:`OutputError` :func:`write_file_atomic` would raise, before any work starts.

    Returns the path to write (a symbolic link resolved) and whether it is an
    existing non-regular file (``/dev/null``, a named pipe), written directly.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        raise OutputError(f"output: {path} is a directory, not a file name")
    if os.path.islink(path):
        path = os.path.realpath(path)
    if os.path.exists(path) and not stat.S_ISREG(os.stat(path).st_mode):
        return path, True
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        problem = "is not a folder" if os.path.exists(folder) else "does not exist"
        raise OutputError(f"output: cannot write {path}: {folder} {problem}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"output: cannot write {path}: {folder} is not writable (permission denied)")
    return path, False


def check_output_folder(path):
    """The folder ``path`` exists, or can be made: its nearest existing ancestor is a writable folder."""
    path = os.path.abspath(os.fspath(path))
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        mode = None
    except OSError as exc:  # a name too long, a loop of links: os.path.exists would call it missing
        raise OutputError(f"output: cannot make the folder {path}: {exc.strerror}") from None
    if mode is not None:
        if not stat.S_ISDIR(mode):
            raise OutputError(f"output: {path} exists and is not a folder")
        return
    ancestor = os.path.dirname(path)
    while not os.path.exists(ancestor):
        ancestor = os.path.dirname(ancestor)
    if not os.path.isdir(ancestor):
        raise OutputError(f"output: cannot make the folder {path}: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise OutputError(f"output: cannot make the folder {path}: {ancestor} is not writable (permission denied)")


def owned_files(folder, pattern, names):
    """The files in ``folder`` an earlier run of a command wrote (a name matching ``pattern`` or in ``names``),
    sorted: all that its ``overwrite`` may remove."""
    return sorted(p for p in Path(folder).iterdir()
                  if p.is_file() and (pattern.fullmatch(p.name) or p.name in names))


def check_fresh_folder(folder, overwrite, what, whose):
    """``folder`` is new or empty, or ``overwrite`` is given: refused before any work, so that no folder mixes
    two runs (``what`` names the parameter, ``whose`` the command: "sweep", "curve")."""
    folder = Path(folder)
    if overwrite or not folder.is_dir():
        return
    entries = sorted(os.listdir(folder))
    if entries:
        raise InputError(f"{what}: {folder} is not empty ({len(entries)} entries, e.g. {entries[0]}); choose a new "
                         f"or empty folder, or give {option('overwrite', True)} to remove an earlier {whose}'s "
                         f"files there first")


def write_file_atomic(path, data):
    """Write the bytes ``data`` to ``path`` atomically (temp file + os.replace).

    A symbolic link is followed (its target is replaced, not the link); an
    existing non-regular file (``/dev/null``, a named pipe) is written to
    directly, since it cannot be replaced - and must not be.
    """
    path, special = check_output_file(path)
    if special:
        _write_special(path, data)
        return
    folder = os.path.dirname(path) or "."
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


def write_stdout(data, instead="give -o FILE"):
    """Write the bytes ``data`` to standard output and flush; a standard output that is closed or cannot take
    them (a full disk, /dev/full) is an OutputError ending with ``instead`` (a broken pipe stays a
    BrokenPipeError)."""
    out = getattr(sys.stdout, "buffer", None)
    if out is None:
        raise OutputError(f"output: standard output is closed: {instead}")
    try:
        out.write(data)
        out.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as exc:     # ValueError: a stream closed from Python
        silence_stdout()
        raise OutputError(f"output: cannot write to standard output: {getattr(exc, 'strerror', None) or exc}; "
                          f"{instead}") from None


def silence_stdout():
    """Point standard output at /dev/null, so that the flush at exit cannot fail again after a failed write."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


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
