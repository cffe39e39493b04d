"""``outperform leaderboard FILE --battles``: Bradley–Terry ratings of pairwise battles.

Called by the leaderboard command (:mod:`._leaderboard_cli`) with its options; bad input
raises :class:`~outperform.InvalidInputError` (or another ``OutperformError``), which the
shared handler of :mod:`._cli` turns into one line and exit code 1.
"""
from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._errors import err
from ._output import FIGURE_SUFFIXES, Format, _output_file
from .._validation import InvalidInputError


def _rows(result) -> list[list[str]]:
    """Rank, model, rating, interval, wins, losses, ties of each model, best first."""
    rows = []
    for rank, i in enumerate(result.order, 1):
        rows.append([str(rank), result.models[i], f"{result.ratings[i]:.1f}",
                     f"[{result.rating_low[i]:.1f}, {result.rating_high[i]:.1f}]",
                     f"{result.wins[i]:g}", f"{result.losses[i]:g}",
                     f"{result.ties_count[i]:g}"])
    return rows


def _header(result) -> list[str]:
    level = f"{100 * result.confidence_level:g}%"
    return ["rank", "model", "rating", f"{level} interval", "wins", "losses", "ties"]


def _lines(result) -> list[str]:
    """The sentences printed above and below the table: model, scale, interval, notes."""
    from ..results._ratings import ELO_PER_LOGIT, INTERVALS

    tie = {"davidson": f"ties as a third outcome (Davidson 1970), nu = "
                       f"{result.tie_parameter:.3f}" if result.tie_parameter is not None else "",
           "half": "a tie counts as half a win for each side",
           "none": "no ties in the battles"}[result.ties]
    lines = [f"Bradley-Terry ratings of {len(result.models)} models from "
             f"{result.battles.sum() / 2:g} battles; {tie}.",
             f"Elo scale: {ELO_PER_LOGIT:.1f} points per logit (400 points = 10:1 odds), "
             f"{result.anchor_rule}.",
             f"Intervals: {INTERVALS[result.interval]}"
             + (f", {result.bootstrap_ratings.shape[0]} resamples"
                if result.bootstrap_ratings is not None else "") + "."]
    if result.n_failed_resamples:
        lines.append(f"{result.n_failed_resamples} bootstrap resamples had no finite estimate "
                     "(a model never beaten or never winning in them) and were left out.")
    return lines + list(result.notes)


def leaderboard_battles(path: Path, *, alpha: float = 0.05, n_resamples: int = 1000,
                        random_state: int | None = None, anchor: str | None = None,
                        fmt: Format | str = Format.text, ties: str = "davidson",
                        plot: Path | None = None, console: Console | None = None) -> None:
    """Read a battles file, fit Bradley–Terry, print the ratings table on stdout.

    Parameters
    ----------
    path : Path
        Battles table (.csv, .tsv, .parquet): model_a, model_b, winner (a, b, tie) and
        optional weight (:func:`outperform.data.read_battles`).
    alpha : float
        1 - the level of the rating intervals.
    n_resamples : int
        Bootstrap resamples of the battles for percentile intervals; 0 gives the normal
        intervals of the sandwich covariance instead.
    random_state : int, optional
        Seed of the bootstrap.
    anchor : str, optional
        Model placed at 1000 on the Elo scale; None: the mean rating is 1000.
    fmt : {"text", "markdown", "json"}
    ties : {"davidson", "half"}
    plot : Path, optional
        Also draw the ratings with their intervals into this figure file.
    console : rich Console, optional
        Where the text table goes (stdout by default).

    Raises
    ------
    InvalidInputError
        alpha outside (0, 1), a negative n_resamples, a bad figure name, and every error of
        :func:`outperform.compare.bradley_terry`.
    """
    from ..compare import bradley_terry

    fmt = Format(fmt)
    if not 0 < alpha < 1:
        raise InvalidInputError(f"--alpha must lie in (0, 1), got {alpha!r}.")
    if n_resamples < 0:
        raise InvalidInputError(f"--n-resamples must be 0 or more, got {n_resamples!r}.")
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)
    result = bradley_terry(path, ties=ties, anchor=anchor, confidence_level=1 - alpha,
                           interval="bootstrap" if n_resamples else "sandwich",
                           n_resamples=max(n_resamples, 2), random_state=random_state,
                           progress=True)
    if fmt is Format.json:
        typer.echo(json.dumps(result.to_dict(), indent=1))
    elif fmt is Format.markdown:
        header = _header(result)
        out = ["## Bradley-Terry ratings", ""] + _lines(result) + [""]
        out += ["| " + " | ".join(header) + " |",
                "|" + "|".join("---:" if h not in ("model",) else "---" for h in header) + "|"]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
                for row in _rows(result)]
        typer.echo("\n".join(out))
    else:
        console = console or Console()
        lines = _lines(result)
        console.print(f"[bold]{escape(lines[0])}[/bold]", soft_wrap=True)
        table = Table()
        for name in _header(result):
            table.add_column(escape(name), justify="left" if name == "model" else "right")
        for row in _rows(result):
            table.add_row(*(escape(c) for c in row))
        console.print(table)
        for line in lines[1:]:
            console.print(f"[dim]{escape(line)}[/dim]", soft_wrap=True)
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_bradley_terry

        plot.parent.mkdir(parents=True, exist_ok=True)
        plot_bradley_terry(result).figure.savefig(plot, bbox_inches="tight")
        err.print(f"figure written to {escape(str(plot))}")
