"""``outperform leaderboard FILE --battles``: Bradley–Terry ratings of pairwise battles.

Called by the leaderboard command (:mod:`._leaderboard`) with its options; bad input
raises :class:`~outperform.InvalidInputError` (or another ``OutperformError``), which the
shared handler of :mod:`._errors` turns into one line and exit code 1. The tables and
sentences are :func:`outperform.report.battles_output`'s.
"""
from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.markup import escape

from .._validation import InvalidInputError
from ._errors import err
from ._options import Format
from ._output import FIGURE_SUFFIXES, _output_file, emit_output


def check_battle_options(fmt, alpha: float, n_resamples: int, plot) -> Format:
    """The options every battles command checks before it reads: ``--alpha``,
    ``--n-resamples`` and a ``--plot`` file name; returns the format."""
    if not 0 < alpha < 1:
        raise InvalidInputError(f"--alpha must lie in (0, 1), got {alpha!r}.")
    if n_resamples < 0:
        raise InvalidInputError(f"--n-resamples must be 0 or more, got {n_resamples!r}.")
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)
    return Format(fmt)


def leaderboard_battles(path: Path, *, alpha: float = 0.05, n_resamples: int = 1000,
                        random_state: int | None = 0, anchor: str | None = None,
                        fmt: Format | str = Format.text, ties: str = "davidson",
                        plot: Path | None = None, console: Console | None = None,
                        out: Path | None = None, fragment: bool = False,
                        anony_only: bool = False, drop_ties: str = "none", language=None,
                        encoding: str | None = None) -> None:
    """Read a battles file, fit Bradley–Terry, print the ratings table on stdout.

    Parameters
    ----------
    path : Path
        Battles table (.csv, .tsv, .parquet): model_a, model_b, winner (a, b, tie) and
        optional weight, or a Chatbot Arena battle log (.json, .jsonl)
        (:func:`outperform.data.read_battles`).
    alpha : float
        1 - the level of the rating intervals.
    n_resamples : int
        Bootstrap resamples of the battles for percentile intervals; 0 gives the normal
        intervals of the sandwich covariance instead.
    random_state : int, optional
        Seed of the bootstrap.
    anchor : str, optional
        Model placed at 1000 on the Elo scale; None: the mean rating is 1000.
    fmt : {"text", "markdown", "json", "html", "latex"}
    ties : {"davidson", "half"}
    plot : Path, optional
        Also draw the ratings with their intervals into this figure file.
    console : rich Console, optional
        Where the text goes (stdout by default).
    out : Path, optional
        Write the output to this file instead.
    anony_only, drop_ties, language, encoding
        The reader's filters and the file's encoding (:func:`outperform.data.read_battles`).

    Raises
    ------
    InvalidInputError
        alpha outside (0, 1), a negative n_resamples, a bad figure name, and every error of
        :func:`outperform.compare.bradley_terry`.
    """
    from ..compare import bradley_terry
    from ..report import battles_output, battles_table, battle_lines

    fmt = check_battle_options(fmt, alpha, n_resamples, plot)
    result = bradley_terry(path, ties=ties, anchor=anchor, alpha=alpha,
                           interval="bootstrap" if n_resamples else "sandwich",
                           n_resamples=max(n_resamples, 2), random_state=random_state,
                           progress=True, anony_only=anony_only, drop_ties=drop_ties,
                           language=language, encoding=encoding)
    if fmt is Format.text and out is None:
        # On a terminal the styles of rich: the table as rich draws it, the notes dimmed.
        console = console or Console()
        lines = battle_lines(result)
        console.print(f"[bold]{escape(lines[0])}[/bold]", soft_wrap=True)
        console.print(battles_table(result))
        for line in lines[1:]:
            console.print(f"[dim]{escape(line)}[/dim]", soft_wrap=True)
    else:
        emit_output(battles_output(result), fmt, out, fragment)
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_bradley_terry
        from ._output import save_figure

        save_figure(plot_bradley_terry(result).figure, plot)
        err.print(f"figure written to {escape(str(plot))}")
