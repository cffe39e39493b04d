"""Every file the package writes is written atomically: whole, or not at all.

The content goes to a temporary file in the target's folder (same file system, so the rename
is atomic), is flushed to disk (``fsync``), and only then renamed over the target with
:func:`os.replace`. A failure on the way (a full disk, a killed process, an exception while
drawing a figure) leaves the previous file intact and no partial or empty file behind: the
temporary file is removed. A reader sees the old file or the new one, never half of one.

Errors of the operating system are raised as the :class:`OSError` subclass of their errno
(``PermissionError``, ...; ``errno.ENOSPC`` for a full disk) with the *target's* path as
``filename``, not the temporary file's, so a message built from it names the file the user
asked for.
"""
from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


def _temporary_beside(path: Path) -> Path:
    """A new, empty file next to ``path`` (hidden, unique), created with the usual mode."""
    while True:
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
        try:
            # 0o666 minus the umask, like open(path, "w"): mkstemp would make it 0o600.
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return tmp
        except FileExistsError:  # pragma: no cover - 2^32 names per process
            continue


def _fsync(path: Path, directory: bool = False) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        if directory:  # Windows opens no folder: the rename is as durable as it gets there
            return
        raise
    try:
        os.fsync(fd)
    except OSError:
        if not directory:
            raise
    finally:
        os.close(fd)


def _naming_target(exc: OSError, path: Path, tmp: Path | None = None) -> OSError:
    """The same error (same subclass, errno, message) with the target's path as filename.

    Only for an error about the file being written (no file named, or the temporary one):
    an error about another file, raised inside the block, is passed on as it is.
    """
    if exc.errno is None or exc.filename not in (None, str(tmp), tmp):
        return exc
    return OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path))


@contextlib.contextmanager
def atomic_path(path):
    """Context manager yielding a temporary path to write ``path``'s new content to.

    Write the whole content to the yielded path (by name: ``df.to_parquet(tmp)``,
    ``figure.savefig(tmp, format="svg")``). On leaving the block normally, the file is
    fsynced and renamed over ``path``; if the block raises, the temporary file is deleted
    and ``path`` is left as it was.

    Parameters
    ----------
    path : str or path-like
        The file to (re)place. Its folder must exist. An existing file's permission bits are
        kept.

    Yields
    ------
    pathlib.Path
        A new empty file beside ``path`` (``.<name>.<pid>-<random>.tmp``).

    Raises
    ------
    OSError
        From the file system (errno ``ENOSPC`` on a full disk, ``EACCES``, ...), with
        ``filename`` set to ``path``; whatever the block raises, unchanged.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     target = pathlib.Path(d) / "table.csv"
    ...     with atomic_path(target) as tmp:
    ...         _ = tmp.write_text("a,b\\n1,2\\n")
    ...     target.read_text(), sorted(p.name for p in pathlib.Path(d).iterdir())
    ('a,b\\n1,2\\n', ['table.csv'])
    """
    path = Path(path)
    try:
        tmp = _temporary_beside(path)
    except OSError as exc:
        raise _naming_target(exc, path) from exc
    try:
        try:
            yield tmp
            with contextlib.suppress(FileNotFoundError):
                os.chmod(tmp, stat.S_IMODE(os.stat(path).st_mode))
            _fsync(tmp)
            os.replace(tmp, path)
        except OSError as exc:
            raise _naming_target(exc, path, tmp) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
    _fsync(path.parent, directory=True)  # the rename itself reaches the disk


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", *, encoding: str | None = None, newline: str | None = None):
    """Context manager: :func:`open` for writing, but atomic (see :func:`atomic_path`).

    ``mode`` is ``"w"`` (text; ``encoding`` default UTF-8) or ``"wb"``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with atomic_open(pathlib.Path(d) / "a.txt") as f:
    ...         _ = f.write("whole")
    ...     (pathlib.Path(d) / "a.txt").read_text()
    'whole'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', got {mode!r}")
    if mode == "w" and encoding is None:
        encoding = "utf-8"
    with atomic_path(path) as tmp, open(tmp, mode, encoding=encoding, newline=newline) as f:
        yield f


def write_text(path, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically; return ``path`` as a :class:`~pathlib.Path`."""
    with atomic_open(path, "w", encoding=encoding) as f:
        f.write(text)
    return Path(path)


def write_bytes(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; return ``path`` as a :class:`~pathlib.Path`."""
    with atomic_open(path, "wb") as f:
        f.write(data)
    return Path(path)


def save_figure(figure, path, *, format: str | None = None, **savefig_kwargs) -> Path:
    """``figure.savefig(path, ...)``, atomically: a failed save leaves no truncated image.

    ``format`` defaults to the suffix of ``path`` (matplotlib would read the temporary
    file's ``.tmp``).
    """
    path = Path(path)
    fmt = format or path.suffix.lstrip(".").lower() or None
    with atomic_path(path) as tmp:
        figure.savefig(tmp, format=fmt, **savefig_kwargs)
    return path
