"""What the command line does with errors, warnings and flags, once for every command.

:class:`Group` is the typer group of ``outperform``: every command runs inside its
:meth:`Group.invoke`, which turns an exception into one line on stderr and an exit code
(DESIGN.md, "The command line"):

* 1 - input the user can fix: an :class:`~outperform.OutperformError`, a file that cannot be
  read or written (``OSError``, undecodable bytes, a table pandas or pyarrow cannot parse),
  data too large for the memory, or a missing optional dependency, named with the extra that
  installs it (``pip install 'outperform[bayes]'``);
* 3 - an internal error: one line, and the traceback in a file of the system's temporary
  folder; ``outperform --debug ...`` prints the traceback instead;
* 130 - interrupted (Ctrl-C): one line saying what was written before (each file whole, as
  :mod:`._output` writes them) or that nothing was.

A full disk (``ENOSPC``) is named as such, with the file being written (:class:`Writes`).

Python warnings raised by a command are printed as one ``warning:`` line each, without the
source line that :func:`warnings.showwarning` adds.
"""
from __future__ import annotations

import csv
import errno
import sys
import tempfile
import traceback
import warnings

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperGroup

from .. import __version__
from .._validation import EXTRAS, MissingDependencyError, OutperformError

#: The exit codes of ``outperform``, one table (``--help`` of the app and of ``gate``, and
#: docs/tutorial-gate.md, show it).
EXIT_OK = 0
EXIT_INPUT = 1
EXIT_USAGE = 2           # click's own
EXIT_INTERNAL = 3
EXIT_REGRESSION = 10     # outperform gate: a task is a regression
EXIT_INCONCLUSIVE = 11   # outperform gate: no regression, but a task cannot tell at this n
EXIT_INTERRUPTED = 130   # 128 + SIGINT, what shells report for Ctrl-C
EXIT_CODES = {EXIT_OK: "success (gate: pass)",
              EXIT_INPUT: "bad input (the message says what to fix)",
              EXIT_USAGE: "usage error",
              EXIT_INTERNAL: "internal error (the traceback is in a file)",
              EXIT_REGRESSION: "gate: regression",
              EXIT_INCONCLUSIVE: "gate: inconclusive (no regression found, none ruled out)",
              EXIT_INTERRUPTED: "interrupted (Ctrl-C)"}

err = Console(stderr=True)


class Writes:
    """The files a command is writing (``current``) and has written whole (``done``), for
    the messages of an interruption or a full disk; :mod:`._output` keeps them."""

    current: str | None = None
    done: list = []

    @classmethod
    def reset(cls) -> None:
        cls.current, cls.done = None, []


def interrupted_message() -> str:
    """One line for Ctrl-C: what was written before it, or that nothing was."""
    if Writes.current is not None:
        before = f" after writing {', '.join(Writes.done)}" if Writes.done else ""
        return (f"interrupted while writing {Writes.current}{before}; what is there may be "
                "incomplete: run the command again.")
    if not Writes.done:
        return "interrupted; nothing was written."
    names = ", ".join(Writes.done[:5]) + (f" and {len(Writes.done) - 5} more"
                                         if len(Writes.done) > 5 else "")
    return f"interrupted; written before: {names} (each whole); nothing else was written."


def input_error_message(exc: BaseException) -> str | None:
    """The one-line message for an error the user can fix, or None for an internal error.

    Parameters
    ----------
    exc : BaseException
        The exception a command raised.

    Returns
    -------
    str or None
        What was wrong and what to do; None when ``exc`` is not an input error (a bug).
    """
    if isinstance(exc, OutperformError):
        return str(exc)
    if isinstance(exc, ModuleNotFoundError):
        top = (exc.name or "").split(".")[0]
        # an optional dependency imported without outperform._validation.require: the same
        # message as MissingDependencyError's (the one table of extras is _validation.EXTRAS)
        return str(MissingDependencyError(top)) if top in EXTRAS else None
    if isinstance(exc, UnicodeDecodeError):
        return (f"the file is not {exc.encoding} text (byte {exc.object[exc.start]:#04x} at "
                f"position {exc.start}): save it as UTF-8 (in a spreadsheet: 'CSV UTF-8').")
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        target = exc.filename if exc.filename is not None else Writes.current
        what = f" {str(target)!r}" if target is not None else " the output"
        return (f"disk full while writing{what}: free some space, or write to another disk "
                "(--out); nothing was left half-written.")
    if isinstance(exc, OSError):
        where = f" {str(exc.filename)!r}" if exc.filename is not None else ""
        return (f"cannot use{where}: {exc.strerror or exc}. Check the path, that it names a "
                "file (or a folder where one is expected), and its permissions.")
    if isinstance(exc, csv.Error):
        return (f"cannot read the table: {_clause(exc)}. Give a CSV file with a header line and "
                "one row per result, separated by commas, semicolons or tabs.")
    if isinstance(exc, MemoryError):
        return ("out of memory: the data are too large for this machine; compare fewer models "
                "or data sets at a time, or use a machine with more memory.")
    # Checked only when the library is loaded: otherwise it cannot have raised.
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(exc, (pandas.errors.EmptyDataError,
                                               pandas.errors.ParserError)):
        return (f"cannot read the table: {_clause(exc)}. Check that the file is a complete "
                "CSV table.")
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(exc, pyarrow.ArrowInvalid):
        return (f"cannot read the file: {_clause(exc)}. A .parquet file must be written by a "
                "Parquet writer; rename a CSV file to .csv.")
    return None


def write_traceback(exc: BaseException) -> str | None:
    """Write the traceback of ``exc`` to a new file in the temporary folder; return its path.

    Returns None when the file cannot be written (the caller then prints the traceback).
    """
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        with tempfile.NamedTemporaryFile("w", prefix="outperform-error-", suffix=".txt",
                                         delete=False, encoding="utf-8") as fh:
            fh.write(f"outperform {__version__}, Python {sys.version.split()[0]}\n"
                     f"command: {' '.join(sys.argv)}\n\n{text}")
            return fh.name
    except OSError:
        return None


def report_exception(exc: BaseException, *, debug: bool = False) -> int:
    """Print ``exc`` as one line on stderr (its traceback too with ``debug``); return the exit code.

    The traceback of an internal error goes to :func:`write_traceback`'s file, or to stderr
    with ``debug`` or when that file cannot be written.
    """
    message = input_error_message(exc)
    if debug:
        _print_traceback(exc)
    if message is not None:
        err.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True, highlight=False)
        return EXIT_INPUT
    where = None if debug else write_traceback(exc)
    if where is None and not debug:
        _print_traceback(exc)
    hint = (f"The traceback is in {where}: please attach it to a bug report (or rerun with "
            "outperform --debug ...)." if where else "Please report it with the traceback above.")
    err.print(f"[red]internal error[/red] (a bug in outperform, not in your input): "
              f"{escape(f'{type(exc).__name__}: {_clause(exc)}. {hint}')}", soft_wrap=True,
              highlight=False)
    return EXIT_INTERNAL


def _clause(exc: BaseException) -> str:
    # The exception's text without its final period, to go on with a sentence of ours.
    return " ".join(str(exc).split()).rstrip(".")


def _print_traceback(exc: BaseException) -> None:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    err.print(escape(text), soft_wrap=True, highlight=False, end="")


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    err.print(f"[yellow]warning:[/yellow] {escape(str(message))}", soft_wrap=True,
              highlight=False)


def _from_the_framework(exc: BaseException) -> bool:
    # typer/click's own exceptions (usage errors, --help, Exit, Abort) and a closed pipe
    # (`outperform ... | head`) are handled by typer's main loop.
    top = type(exc).__module__.split(".")[0]
    return top in ("typer", "click") or isinstance(exc, BrokenPipeError)


def _plain_flags(params):
    # typer >= 0.2x prints "<bool>" as the type of every flag; a flag takes no value.
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
    return params


class PlainFlagsGroup(TyperGroup):
    """A command group whose help shows flags without a ``<bool>`` type (sub-groups use it)."""

    def get_params(self, ctx):
        return _plain_flags(super().get_params(ctx))

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None:
            _plain_flags(cmd.get_params(ctx))
        return cmd


class Group(PlainFlagsGroup):
    """The ``outperform`` group: exit codes for exceptions, one-line warnings, plain flags.

    The group's ``--debug`` option (a parameter named ``debug`` of its callback) prints
    tracebacks instead of writing them to a file.
    """

    def invoke(self, ctx):
        Writes.reset()
        try:
            with warnings.catch_warnings():
                warnings.showwarning = _show_warning
                return super().invoke(ctx)
        except KeyboardInterrupt:
            err.print(f"[red]{escape(interrupted_message())}[/red]", soft_wrap=True,
                      highlight=False)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except Exception as exc:
            if _from_the_framework(exc):
                raise
            raise typer.Exit(report_exception(exc, debug=bool(ctx.params.get("debug")))) from None
