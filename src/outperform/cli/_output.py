"""Writing what the commands produce: the rendered output on stdout or to ``--out`` (whole
or not at all), file checks before any work, the Dask backend, a report's critical-difference
diagram."""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from .._validation import InvalidInputError, OutperformError
from ._errors import Writes, err, input_error_message
from ._options import Format

FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


@contextmanager
def _exit_on_bad_input(errors=OutperformError):
    """Print the message of a bad-input error and exit with code 1 (no traceback)."""
    try:
        yield
    except errors as exc:
        err.print(f"[red]error:[/red] {escape(input_error_message(exc) or str(exc))}",
                  soft_wrap=True)
        raise typer.Exit(1)


@contextmanager
def writing(path):
    """Mark ``path`` as being written (a full disk names it) and, when the block ends
    without error, as written (an interruption lists it)."""
    Writes.current = str(path)
    yield              # an exception leaves ``current`` set: its message names the file
    Writes.current = None
    Writes.done.append(str(path))


def _output_file(path: Path, option: str, suffixes: tuple[str, ...]) -> Path:
    """Check, before any work, that ``path`` can be written as a file of one of ``suffixes``.

    Raises
    ------
    InvalidInputError
        Unknown suffix, an existing folder of that name, or no writable folder to hold it.
    """
    if path.suffix.lower() not in suffixes:
        raise InvalidInputError(f"{option} {str(path)!r}: cannot tell the format; use a name "
                                f"ending in {', '.join(suffixes)}.")
    return _writable(path, option)


def _writable(path: Path, option: str) -> Path:
    """``path`` if it can be written as a file: not a folder, in a writable folder."""
    if path.is_dir():
        raise InvalidInputError(f"{option} {str(path)!r} is a folder; give a file name.")
    # The nearest existing ancestor must be a writable folder (missing ones are created).
    folder = next(p for p in path.absolute().parents if p.exists())
    if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
        raise InvalidInputError(f"{option} {str(path)!r}: {str(folder)!r} is not a writable "
                                "folder; choose another place for the file.")
    return path




@contextmanager
def _backend(scheduler: Optional[str], n_jobs: int):
    """The joblib backend of ``--scheduler``: None (local), or a Dask client closed at the end.

    Raises
    ------
    InvalidInputError
        dask.distributed missing, or no usable cluster at ``scheduler`` (see
        :func:`outperform._parallel.dask_scheduler`).
    """
    if scheduler is None:
        yield None
        return
    from .._parallel import dask_scheduler

    with dask_scheduler(scheduler) as client:
        threads = sum(client.nthreads().values())
        err.print(f"running on the Dask cluster at {escape(scheduler)} "
                  f"({len(client.nthreads())} workers, {threads} threads).", highlight=False,
                  soft_wrap=True)
        if n_jobs != 1:
            # joblib's Dask backend sizes itself from the cluster, whatever n_jobs says.
            err.print(f"[yellow]warning:[/yellow] --n-jobs {n_jobs} is ignored with "
                      f"--scheduler: the work uses the cluster's {threads} threads.",
                      soft_wrap=True)
        yield client


def _no_diagram_reason(report) -> str:
    """Why a report has no critical-difference diagram to draw, and what to do."""
    if report.question != "Q3":
        return (f"it draws average ranks over several data sets, and these results are "
                f"{report.question} (one {'test set' if report.question == 'Q1' else 'task'}).")
    if len(report.models) < 3:
        return ("it draws a post-hoc test, which runs on three or more models; two models are "
                "compared by the tests above.")
    posthoc = report.details.get("posthoc")
    if posthoc == "none":
        return ("--posthoc none runs no post-hoc test; choose one (e.g. --posthoc nemenyi, or "
                "--control with --posthoc holm) to draw it.")
    return (f"the post-hoc test {posthoc} has no average ranks to draw; choose nemenyi, or "
            "--control with holm or bonferroni-dunn.")


def write_output(text: str, out: Optional[Path] = None) -> None:
    """Print ``text`` on stdout, or write it to ``out`` atomically
    (:func:`outperform._atomic.write_text`): a full disk or an interruption leaves the old
    file (or none), never a truncated one."""
    if out is None:
        typer.echo(text)
        return
    from .._atomic import write_text

    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with writing(out):
        write_text(out, text if text.endswith("\n") else text + "\n")
    err.print(f"wrote {escape(str(out))}", highlight=False, soft_wrap=True)


def save_figure(figure, path: Path, **kwargs) -> None:
    """Save a matplotlib figure to ``path`` whole or not at all
    (:func:`outperform._atomic.save_figure`): a full disk leaves no truncated figure."""
    from .._atomic import save_figure as atomic_save_figure

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with writing(path):
        atomic_save_figure(figure, path, bbox_inches="tight", **kwargs)


def render_report(report, fmt: Format, fragment: bool = False) -> str:
    """A :class:`~outperform.results.ComparisonReport` as ``fmt``, a string."""
    from ..report import (render_html, render_json, render_latex, render_markdown,
                          render_text)

    fmt = Format(fmt)
    if fmt is Format.json:
        return render_json(report)
    if fmt is Format.markdown:
        return render_markdown(report)
    if fmt is Format.html:
        return render_html(report)
    if fmt is Format.latex:
        return render_latex(report, fragment=fragment)
    from rich.console import Console

    import io

    console = Console(record=True, file=io.StringIO(), width=Console().width)
    render_text(report, console=console)
    return console.export_text().rstrip("\n")


def _emit(report, fmt: Format, out: Optional[Path] = None, fragment: bool = False) -> None:
    """Print (or write to ``out``) a report as ``fmt``; text on a terminal keeps its styles.
    A report of many models is costed first (its tables grow with the pairs of models)."""
    from ..report import render_text

    _check_render_cost(report, fmt)
    if Format(fmt) is Format.text and out is None:
        from rich.console import Console

        render_text(report, console=Console())
        return
    write_output(render_report(report, fmt, fragment), out)


def _check_render_cost(report, fmt: Format) -> None:
    from .._cost import RENDER_SECONDS_PER_PAIR, check_cost

    k = len(getattr(report, "models", ()) or ())
    if k < 3:
        return
    text = Format(fmt) is Format.text
    total = k * (k - 1) // 2
    # the pairs written: those the report shows (the one rule, details["pairs"]), except in
    # JSON, which keeps every pair's matrices
    shown = (getattr(report, "details", None) or {}).get("pairs", {}).get("shown", total)
    n = total if Format(fmt) is Format.json else min(shown, total)
    check_cost("pairs of models", n, work=f"the {Format(fmt).value} output of {k:,} models'"
               f" {n:,} pairs", bytes_per_unit=0.0,
               seconds_per_unit=RENDER_SECONDS_PER_PAIR["text" if text else "other"],
               advice=("--format json or markdown writes it faster; " if text else "")
               + "--pairs neighbours, --control (each model against one) or --posthoc none "
               "prints fewer pairs")


def emit_output(output, fmt: Format, out: Optional[Path] = None, fragment: bool = False) -> None:
    """Print (or write to ``out``) an :class:`outperform.report.Output` as ``fmt``."""
    from ..report import render_output

    write_output(render_output(output, Format(fmt).value, fragment=fragment), out)


def check_out(out: Optional[Path]) -> None:
    """Refuse, before any work, an ``--out`` that is a folder or cannot be created."""
    if out is not None:
        _writable(Path(out), "--out")


def _plot(report, path: Path) -> None:
    """Write the report's first critical-difference diagram to ``path``.

    With a control that is the Bonferroni–Dunn diagram (Demšar 2006 Figure 1(b)), the only
    post-hoc test against a control with one critical difference; without, the all-pairs
    diagram of the post-hoc test (Nemenyi by default). The choice and the file are the
    report's (``report_figures``, ``save_figure_file``), so ``outperform report`` draws the same.
    """
    import matplotlib

    matplotlib.use("Agg")
    from ..report import report_figures, save_figure_file

    figures = report_figures(report, kinds=("cd",))
    if not figures:
        err.print(f"[yellow]no critical-difference diagram: "
                  f"{escape(_no_diagram_reason(report))}[/yellow]")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with writing(path):
        save_figure_file(figures[0], path)
    posthoc = figures[0].key.removeprefix("cd-")
    err.print(f"critical-difference diagram ({escape(posthoc)}) written to {escape(str(path))}")


def emit_reports(title: str, parts: dict, fmt: Format, fragment: bool = False) -> None:
    """Several reports, ``parts`` {name: report, or the message of why it was not run}: on the
    terminal one after the other (a rule naming each, the reason in yellow for one not run),
    else one output of kind "reports" (:func:`outperform.report.reports_output`) whose notes
    say which were not run."""
    reports = {name: r for name, r in parts.items() if not isinstance(r, str)}
    notes = [f"{name} not run: {r}" for name, r in parts.items() if isinstance(r, str)]
    if Format(fmt) is not Format.text:
        from ..report import reports_output

        emit_output(reports_output(title, reports, notes=notes), fmt, fragment=fragment)
        return
    from rich.console import Console

    for name, part in parts.items():
        Console().rule(name)
        if isinstance(part, str):
            err.print(f"[yellow]{escape(name)} not run:[/yellow] {escape(part)}")
        else:
            _emit(part, Format.text)
