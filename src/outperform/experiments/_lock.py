"""One writer per results file: an advisory lock file next to it, holding the writer's PID.

The lock is an OS lock (``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows) on
``<out>.lock``: the operating system releases it when the process ends, however it ends, so
a lock can never outlive its writer and block later runs. The file's text (``pid@host``)
only serves the messages: a second writer is told which process holds the file, and a run
that finds the text of a writer that died without cleaning up says it takes over.
"""
from __future__ import annotations

import contextlib
import os
import socket
import warnings
from pathlib import Path

from .._validation import InvalidInputError, OutperformWarning

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

# Windows locks byte ranges and forbids reading a locked range: lock a byte past the text.
_WINDOWS_LOCK_OFFSET = 1 << 20


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _text(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 200).decode("utf-8", "replace").strip()


class WriterLock:
    """Exclusive lock on ``path`` (the lock file), taken at once or refused.

    Parameters
    ----------
    path : Path
        The lock file, e.g. ``results.parquet.lock``.
    guarded : Path
        The file the lock protects, named in the messages.

    Raises
    ------
    InvalidInputError
        On entering, when another process (or another run in this process) holds the lock:
        the message names the results file, the lock file and the holder's ``pid@host``.

    Warns
    -----
    UserWarning
        When the lock file still names a writer that ended without removing it (a killed
        run); the lock is taken over.
    """

    def __init__(self, path: Path, guarded: Path):
        self.path, self.guarded = Path(path), Path(guarded)
        self._fd = None

    def __enter__(self) -> WriterLock:
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if not _try_lock(fd):
                holder = _text(fd) or "unknown"
                os.close(fd)
                raise InvalidInputError(
                    f"{self.guarded} is being written by another run (process {holder}, lock "
                    f"file {self.path}); wait for it to end, or write to another file. Two "
                    "runs writing one file would lose or duplicate results."
                )
            # A writer that just released the lock deleted the file we opened: lock the new
            # file at that path instead, or two runs could each hold a lock on another file.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        self._fd = fd
        me = f"{os.getpid()}@{socket.gethostname()}"
        left = _text(fd)
        if left and left != me:
            warnings.warn(
                f"{self.path} names process {left}, which ended without removing it (killed or "
                f"crashed); taking over the lock of {self.guarded}.", OutperformWarning,
                stacklevel=4)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, me.encode())
        return self

    def __exit__(self, *exc) -> None:
        fd, self._fd = self._fd, None
        if fcntl is not None:
            # Remove the file while holding the lock, then release it (see __enter__).
            self.path.unlink(missing_ok=True)
            os.close(fd)
            return
        os.close(fd)  # Windows deletes no open file, so a new holder's file stays
        with contextlib.suppress(OSError):
            self.path.unlink()
