"""Writing an output file without destroying what the path names.

One helper, :func:`write_output`, for every output flag (``audit --curve``,
``figure --out``, ``oracle export --out``, the sweep CSVs). It writes *through* the
path the user gave:

* a symlink is followed, and the file it points at is written (the link stays);
* a character device or a named pipe (``/dev/stdout``, ``/dev/null``, a FIFO) is opened
  for writing and written directly, never renamed over; a pipe with no reader is
  waited for a few seconds, then refused;
* a regular file (existing or new) is replaced atomically: the data goes to a temporary
  file in the same directory, which is renamed over the target only once it is
  complete. A new file gets the mode a plain ``open()`` would give (``0666`` less the
  umask); an existing file keeps its mode. On any error (a full disk included) the
  temporary file is removed and the target is left as it was;
* a directory, a block device, a socket, a read-only file, a missing directory or an
  empty path is refused with :class:`~pdpsym.core.errors.InputError` naming the flag.

:func:`check_output` makes the same refusals without writing, so a command can refuse
a bad destination before its computation.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from pathlib import Path

from pdpsym.app.text import shown
from pdpsym.core.errors import InputError

PIPE_WAIT_S = 10.0  # how long a named pipe may go without a reader


def _show(path: str) -> str:
    return shown(path, 120)


def _target(path: str | os.PathLike[str], flag: str) -> tuple[str, os.stat_result | None]:
    """The path symlinks lead to, and its stat (None: it does not exist yet)."""
    raw = os.fspath(path)
    if raw == "":
        raise InputError(flag, "empty path")
    if "\0" in raw:
        raise InputError(flag, "a path cannot contain a NUL character")
    try:
        real = os.path.realpath(raw)
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    except OSError as err:  # a name the OS refuses (too long, a symlink loop, ...)
        raise InputError(flag, f"unusable path {_show(raw)}: {err.strerror}") from None
    if st is None:
        parent = os.path.dirname(real) or "."
        try:
            pst = os.stat(parent)
        except OSError:
            raise InputError(flag, f"no such directory: {_show(parent)}") from None
        if not stat.S_ISDIR(pst.st_mode):
            raise InputError(flag, f"not a directory: {_show(parent)}")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise InputError(flag, f"cannot create a file in {_show(parent)}: permission denied")
        return real, None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(flag, f"is a directory: {_show(raw)}")
    if stat.S_ISREG(st.st_mode):
        if not os.access(real, os.W_OK):
            raise InputError(flag, f"not writable: {_show(raw)}")
        parent = os.path.dirname(real) or "."
        if not os.access(parent, os.W_OK | os.X_OK):
            raise InputError(flag, f"cannot replace a file in {_show(parent)}: permission denied")
        return real, st
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return real, st
    raise InputError(flag, f"not a file, a character device or a pipe: {_show(raw)}")


def check_output(path: str | os.PathLike[str], flag: str) -> None:
    """Refuse an unusable output path before any work (see the module docstring).

    Args:
        path: the path the user gave.
        flag: the flag to name in the error (``--out``).

    Raises:
        InputError: naming ``flag``.
    """
    _target(path, flag)


def write_output(path: str | os.PathLike[str], data: str | bytes, flag: str = "--out") -> None:
    """Write ``data`` (text as UTF-8) through ``path`` (see the module docstring).

    Args:
        path: the path the user gave (a symlink is followed).
        data: the whole output.
        flag: the flag to name in an error.

    Raises:
        InputError: naming ``flag``; the target and its directory are then as they were.
    """
    blob = data.encode("utf-8") if isinstance(data, str) else data
    real, st = _target(path, flag)
    shown = _show(os.fspath(path))
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_stream(real, st, blob, flag, shown)
        return
    _replace(real, st, blob, flag, shown)


def _write_stream(real: str, st: os.stat_result, blob: bytes, flag: str, shown: str) -> None:
    """A character device or a named pipe: open it and write, no rename."""
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
    deadline = time.monotonic() + PIPE_WAIT_S
    while True:
        try:
            fd = os.open(real, flags | (os.O_NONBLOCK if stat.S_ISFIFO(st.st_mode) else 0))
            break
        except OSError as err:
            if err.errno == errno.ENXIO and time.monotonic() < deadline:
                time.sleep(0.02)  # a pipe with no reader yet
                continue
            why = "no reader on the pipe" if err.errno == errno.ENXIO else err.strerror
            raise InputError(flag, f"cannot write {shown}: {why}") from None
    try:
        if stat.S_ISFIFO(st.st_mode):
            os.set_blocking(fd, True)
        view = memoryview(blob)
        while view:
            k = os.write(fd, view)
            view = view[k:]
    except OSError as err:
        raise InputError(flag, f"cannot write {shown}: {err.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            os.close(fd)


def _replace(real: str, st: os.stat_result | None, blob: bytes, flag: str, shown: str) -> None:
    """A regular file: a complete temporary file renamed over it, or nothing."""
    target = Path(real)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name[:40]}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise InputError(
            flag, f"cannot write in {_show(str(target.parent))}: {err.strerror}"
        ) from None
    try:
        try:
            view = memoryview(blob)
            while view:
                k = os.write(fd, view)
                view = view[k:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if st is not None:
            mode = stat.S_IMODE(st.st_mode)
        else:  # mkstemp makes 0600; give the mode a plain open() would have
            umask = os.umask(0o022)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException as err:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(err, OSError):
            raise InputError(flag, f"cannot write {shown}: {err.strerror}") from None
        raise
