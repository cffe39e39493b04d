"""``outperform leaderboard``: many models ranked with rank confidence sets and tiers.

Registered on the application by :mod:`outperform.cli`; bad input raises
:class:`InvalidInputError`, which the shared handler of :mod:`._cli` turns into one line and
exit code 1. ``--battles`` hands pairwise battles to :mod:`._battles_cli` (Bradley–Terry).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ._output import FIGURE_SUFFIXES, Format, _direction, _output_file
from .._validation import InvalidInputError

#: Rows printed by default when there are more models than that (``--top 0``: all).
DEFAULT_TOP = 30


def _markdown(board, top: int | None) -> str:
    frame = board.to_frame()
    if top:
        frame = frame.head(top)
    level = f"{100 * board.rank_sets.confidence_level:g}%"
    lines = [f"| model | rank | simultaneous {level} | marginal {level} | percentile "
             f"(no guarantee) | tier | letters | {board.metric} | {level} interval |",
             "|---|---:|---|---|---|---:|---|---:|---|"]
    for r in frame.itertuples(index=False):
        lines.append(
            f"| {r.model} | {r.rank} | [{r.simultaneous_low}, {r.simultaneous_high}] | "
            f"[{r.marginal_low}, {r.marginal_high}] | [{r.percentile_low}, "
            f"{r.percentile_high}] | {r.tier} | {r.letters} | {r.estimate:.4g} | "
            f"[{r.ci_low:.4g}, {r.ci_high:.4g}] |")
    return "\n".join(lines)


def leaderboard_cmd(
    file: Path = typer.Argument(..., help="Per-item scores (columns model, example or id, a score, "
                                "optional cluster), per-example predictions (y_true and one "
                                "column per model), one score per (task, model), or with "
                                "--battles pairwise battles (model_a, model_b, winner)."),
    cluster: Optional[str] = typer.Option(None, help="Column of cluster labels of the items "
                                          "(passages, conversations): clusters are resampled "
                                          "whole, standard errors are cluster-robust. Default: "
                                          "a column named 'cluster' if there is one."),
    alpha: float = typer.Option(0.05, help="1 - confidence level of the rank sets; level of "
                                "the pairwise tests."),
    n_resamples: int = typer.Option(1000, "--n-resamples", help="Bootstrap resamples."),
    battles: bool = typer.Option(False, "--battles", help="FILE holds pairwise battles "
                                 "(model_a, model_b, winner in a/b/tie): Bradley–Terry ratings."),
    anchor: Optional[str] = typer.Option(None, help="--battles: the model rated 1000 on the "
                                         "Elo scale."),
    metric: Optional[str] = typer.Option(None, help="Score column, when there are several."),
    lower_is_better: bool = typer.Option(False, "--lower-is-better",
                                         help="The score is a loss or error (lower is better)."),
    higher_is_better: bool = typer.Option(False, "--higher-is-better",
                                          help="The score is higher-is-better (confirms a "
                                          "name outperform does not know)."),
    y_true: str = typer.Option("y_true", "--y-true", help="Predictions: column of the true "
                               "labels."),
    loss: str = typer.Option("zero-one", help="Predictions: zero-one (accuracy), log, squared "
                             "or absolute."),
    weights: str = typer.Option("multinomial", help="Bootstrap weights: multinomial (the "
                                "ordinary bootstrap) or poisson."),
    top: Optional[int] = typer.Option(None, help=f"Print the N best models only (default: all "
                                      f"up to 50 models, else {DEFAULT_TOP}; 0: all)."),
    top_k: int = typer.Option(1, "--top-k", help="Also list the models that may be among "
                              "the best K (their simultaneous rank set reaches K)."),
    seed: int = typer.Option(0, help="Seed of the bootstrap (the output is reproducible)."),
    task: Optional[str] = typer.Option(None, help="Rank on this task only, when the file holds "
                                       "several (e.g. benchmark --predictions over data "
                                       "sets)."),
    fmt: Format = typer.Option(Format.text, "--format", help="Output format."),
    encoding: Optional[str] = typer.Option(None, help="Encoding of a text file that is not "
                                           "UTF-8, e.g. cp1252."),
    plot: Optional[Path] = typer.Option(None, "--plot", help="Also draw the rank confidence "
                                        "sets of the models --top shows into this figure "
                                        "(.png, .svg, .pdf); with --battles, the ratings."),
) -> None:
    """Rank many models: rank confidence sets (simultaneous and marginal, Mogstad et al.
    2024), tiers, compact letters of the paired tests (McNemar or cluster-robust t, Holm),
    and each score with its interval.
    """
    import json

    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)   # before the bootstrap, not after
    if battles:
        from ._battles import leaderboard_battles

        leaderboard_battles(file, alpha=alpha, n_resamples=n_resamples, random_state=seed,
                            anchor=anchor, fmt=fmt, plot=plot)
        return
    if anchor is not None:
        raise InvalidInputError("--anchor applies to --battles (Bradley–Terry ratings) only.")
    if top_k < 1:
        raise InvalidInputError(f"--top-k must be at least 1, got {top_k}.")
    if top is not None and top < 0:
        raise InvalidInputError(f"--top must be 0 (all models) or a positive number, got {top}.")
    from ..compare import leaderboard

    board = leaderboard(file, cluster=cluster, metric=metric,
                        higher_is_better=_direction(lower_is_better, higher_is_better),
                        alpha=alpha, n_resamples=n_resamples, weights=weights,
                        random_state=seed, y_true=y_true, loss=loss, encoding=encoding,
                        progress=True, task=task)
    k = len(board.names)
    shown = (None if k <= 50 else DEFAULT_TOP) if top is None else (top or None)
    if fmt is Format.json:
        out = board.to_dict()
        out["top_k"] = {"k": top_k, "models": list(board.top_k(min(top_k, k)))}
        typer.echo(json.dumps(out, indent=1))
    elif fmt is Format.markdown:
        typer.echo(_markdown(board, shown))
    else:
        typer.echo(board.format(top=shown, top_k=top_k))
    if plot is not None:
        _save_rank_sets(board, shown, plot)


def _save_rank_sets(board, top: int | None, path: Path) -> None:
    """Write the rank-set plot of the ``top`` best-estimated models (None: all) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rich.markup import escape

    from ._errors import err
    from ..plot import plot_rank_sets

    figure = plot_rank_sets(board, top=top).figure
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, bbox_inches="tight", dpi=120)
    plt.close(figure)
    err.print(f"rank confidence sets written to {escape(str(path))}")
