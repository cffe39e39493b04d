"""``outperform leaderboard``: many models ranked with rank confidence sets and tiers.

Bad input raises :class:`InvalidInputError`, which the shared handler of :mod:`._errors`
turns into one line and exit code 1. ``--battles`` hands pairwise battles to
:mod:`._battles` (Bradley–Terry).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import _options as opt
from .._validation import InvalidInputError
from ._options import Format
from ._output import FIGURE_SUFFIXES, _backend, _output_file, check_out

#: Rows printed by default when there are more models than that (``--top 0``: all).
DEFAULT_TOP = 30


def leaderboard_cmd(
    file: Path = typer.Argument(..., help="Per-item scores (columns model, example or id, a score, "
                                "optional cluster), per-example predictions (y_true and one "
                                "column per model), one score per (task, model), a folder "
                                "of Hugging Face details files (lighteval; items pooled over "
                                "tasks, or --task), or with --battles pairwise battles "
                                "(model_a, model_b, winner)."),
    cluster: Optional[str] = opt.cluster("Column of cluster labels of the items (passages, "
                                         "conversations): clusters are resampled whole, "
                                         "standard errors are cluster-robust. Default: a column "
                                         "named 'cluster' if there is one."),
    alpha: float = opt.alpha("1 - confidence level of the rank sets; level of the pairwise "
                             "tests."),
    n_resamples: int = opt.n_resamples(),
    battles: bool = typer.Option(False, "--battles", help="FILE holds pairwise battles "
                                 "(model_a, model_b, winner in a/b/tie): Bradley–Terry ratings "
                                 "(implied by a .json/.jsonl file: Chatbot Arena's battle "
                                 "log)."),
    anchor: Optional[str] = typer.Option(None, help="--battles: the model rated 1000 on the "
                                         "Elo scale."),
    anony_only: bool = typer.Option(False, "--anony-only", help="--battles: rate the "
                                    "anonymous battles only (column anony true), as Chatbot "
                                    "Arena's leaderboard does."),
    drop_ties: str = typer.Option("none", "--drop-ties", help="--battles: drop no tie "
                                  "(none), every tie (all), or the 'tie (bothbad)' votes "
                                  "only (bothbad)."),
    language: Optional[list[str]] = typer.Option(None, "--language", help="--battles: keep "
                                                 "the battles in this language (column "
                                                 "language, e.g. English; repeat for "
                                                 "several)."),
    control_for: Optional[str] = typer.Option(
        None, "--control-for", help="--battles: style features to control for, "
        "comma-separated (LMArena's style control): length (columns sum_assistant_tokens_a/_b "
        "or tokens_a/_b), markdown (header_count, list_count, bold_count _a/_b), or any "
        "stem with columns <name>_a and <name>_b; shows the ratings with and without control "
        "and the rank change (--plot: the rank changes)."),
    l2: float = typer.Option(0.0, "--l2", help="--control-for: L2 penalty on the style "
                             "coefficients, per battle (arena-rank's reg; 0: maximum "
                             "likelihood)."),
    metric: Optional[str] = opt.metric("Score column, when there are several."),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    control: Optional[str] = opt.control("Also compare every model with this one (the "
                                         "leaderboard's paired tests, adjusted as its letters)."),
    pairs: Optional[str] = opt.pairs(),
    y_true: str = opt.y_true(),
    loss: str = opt.loss("Predictions: zero-one (accuracy), log, squared "
                             "or absolute."),
    weights: str = typer.Option("multinomial", help="Bootstrap weights: multinomial (the "
                                "ordinary bootstrap) or poisson."),
    top: Optional[int] = opt.top(f"Print the N best models only (default: all up to 50 models, "
                                 f"else {DEFAULT_TOP}; 0: all)."),
    top_k: int = typer.Option(1, "--top-k", help="Also list the models that may be among "
                              "the best K (their simultaneous rank set reaches K)."),
    seed: int = opt.seed("Seed of the bootstrap (the output is reproducible)."),
    task: Optional[str] = opt.task("Rank on this task only, when the file holds several (e.g. "
                                   "benchmark --predictions over data sets)."),
    mcs: bool = typer.Option(False, "--mcs", help="Also the model confidence set (Hansen, "
                             "Lunde & Nason 2011) at 1 - alpha: the models that could be the "
                             "best and each model's MCS p-value (needs arch: pip install "
                             "'outperform[mcs]')."),
    mcs_statistic: str = typer.Option("R", "--mcs-statistic", help="--mcs: R (pairwise "
                                      "T_R) or max (T_max, each model against the average)."),
    block_size: int = typer.Option(1, "--block-size", help="--mcs: block length of the "
                                   "bootstrap, in items or tasks (1: independent items; more "
                                   "for serially dependent losses)."),
    mcs_bootstrap: str = typer.Option("stationary", "--mcs-bootstrap", help="--mcs: "
                                      "stationary or circular block bootstrap."),
    scheduler: Optional[str] = opt.scheduler(
        "Run the rank sets' bootstrap on the Dask cluster of this scheduler (tcp://HOST:PORT, "
        "as `dask scheduler` prints it): the same leaderboard, to the bit, as a local run. "
        "Needs outperform\\[dask] here and the same outperform on the workers."),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    out: Optional[Path] = opt.out(),
    encoding: Optional[str] = opt.encoding(),
    plot: Optional[Path] = opt.plot("Also draw the rank confidence sets of the models --top "
                                    "shows into this figure (.png, .svg, .pdf); with "
                                    "--battles, the ratings."),
    matrix: Optional[Path] = typer.Option(None, "--matrix", metavar="FILE", help="Also draw "
                                          "the multiple comparison matrix of the models --top "
                                          "shows (every pair of the letters' tests, the pairs "
                                          "the text counts) into this figure (.png, .svg, "
                                          ".pdf)."),
) -> None:
    """Rank many models: rank confidence sets (simultaneous and marginal, Mogstad et al.
    2024), tiers, compact letters of the paired tests (McNemar or cluster-robust t, Holm),
    and each score with its interval; with --mcs, the model confidence set.
    """
    opt.check_fragment(fragment, fmt)
    check_out(out)
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)   # before the bootstrap, not after
    if matrix is not None:
        _output_file(matrix, "--matrix", FIGURE_SUFFIXES)
    from ..data._arena import ARENA_SUFFIXES

    battles = battles or file.name.lower().endswith(ARENA_SUFFIXES)  # Arena's battle logs
    if not battles and (anony_only or drop_ties != "none" or language):
        raise InvalidInputError("--anony-only, --drop-ties and --language filter pairwise "
                                "battles: add --battles.")
    if battles:
        if scheduler is not None:
            raise InvalidInputError("--scheduler runs the rank sets' bootstrap of scores on "
                                    "Dask; --battles (Bradley–Terry) runs here: leave it out.")
        if control is not None:
            raise InvalidInputError("--control applies to rankings of scores, not to --battles "
                                    "(use --anchor to rate a model at 1000).")
        if pairs is not None or matrix is not None:
            raise InvalidInputError("--pairs and --matrix show the paired tests of rankings "
                                    "of scores, not --battles (the ratings' intervals compare "
                                    "the models).")
        if mcs:
            raise InvalidInputError("--mcs applies to rankings of scores or losses, not to "
                                    "--battles (pairwise outcomes have no loss per item).")
        if control_for is not None:
            if anony_only or drop_ties != "none" or language:
                raise InvalidInputError("--anony-only, --drop-ties and --language are not "
                                        "applied with --control-for (the style-controlled fit "
                                        "reads every battle of the table): filter the table "
                                        "first.")
            from ._style_control import leaderboard_style

            leaderboard_style(file, control_for, l2=l2, alpha=alpha, n_resamples=n_resamples,
                              random_state=seed, anchor=anchor, fmt=fmt, plot=plot, out=out,
                              fragment=fragment, encoding=encoding)
            return
        if l2 != 0.0:
            raise InvalidInputError("--l2 penalises the style coefficients: add "
                                    "--control-for.")
        from ._battles import leaderboard_battles

        kwargs = dict(alpha=alpha, n_resamples=n_resamples, random_state=seed, anchor=anchor,
                      fmt=fmt, plot=plot, fragment=fragment)
        for key, value in (("anony_only", anony_only), ("drop_ties", drop_ties),
                           ("language", language or None), ("encoding", encoding)):
            if value not in (False, "none", None):      # the reader's filters, when set
                kwargs[key] = value
        if out is not None:
            kwargs["out"] = out
        leaderboard_battles(file, **kwargs)
        return
    if anchor is not None:
        raise InvalidInputError("--anchor applies to --battles (Bradley–Terry ratings) only.")
    if control_for is not None or l2 != 0.0:
        raise InvalidInputError("--control-for and --l2 apply to --battles (style-controlled "
                                "Bradley–Terry ratings) only.")
    if not mcs and (mcs_statistic != "R" or block_size != 1 or mcs_bootstrap != "stationary"):
        raise InvalidInputError("--mcs-statistic, --block-size and --mcs-bootstrap set up the "
                                "model confidence set: add --mcs.")
    if top_k < 1:
        raise InvalidInputError(f"--top-k must be at least 1, got {top_k}.")
    from ..compare._pair_choice import choose_pairs

    choose_pairs([], control=control, pairs=pairs)   # a bad --pairs refused before the work
    if top is not None and top < 0:
        raise InvalidInputError(f"--top must be 0 (all models) or a positive number, got {top}.")
    from ..compare import leaderboard
    from ..report import leaderboard_output
    from ._output import emit_output

    with _backend(scheduler, 1) as client:
        board = leaderboard(file, cluster=cluster, metric=metric,
                            higher_is_better=opt.direction(lower_is_better, higher_is_better),
                            alpha=alpha, n_resamples=n_resamples, weights=weights,
                            random_state=seed, y_true=y_true, loss=loss, encoding=encoding,
                            progress=True, task=task, mcs=mcs, mcs_statistic=mcs_statistic,
                            block_size=block_size, bootstrap=mcs_bootstrap, scheduler=client)
    if control is not None and control not in board.names:
        raise InvalidInputError(f"--control {control!r} is not among the models "
                                f"({', '.join(board.names)}).")
    k = len(board.names)
    shown = (None if k <= 50 else DEFAULT_TOP) if top is None else (top or None)
    emit_output(leaderboard_output(board, top=shown, top_k=top_k, control=control, pairs=pairs),
                fmt, out, fragment)
    if plot is not None:
        _save_rank_sets(board, shown, plot)
    if matrix is not None:
        _save_matrix(board, shown, matrix)


def _save_rank_sets(board, top: int | None, path: Path) -> None:
    """Write the rank-set plot of the ``top`` best-estimated models (None: all) to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rich.markup import escape

    from ..plot import plot_rank_sets
    from ._errors import err
    from ._output import save_figure

    figure = plot_rank_sets(board, top=top).figure
    save_figure(figure, path, dpi=120)
    plt.close(figure)
    err.print(f"rank confidence sets written to {escape(str(path))}")


def _save_matrix(board, top: int | None, path: Path) -> None:
    """Write the multiple comparison matrix of the ``top`` best-estimated models (None: all)
    to ``path``: every pair of the letters' tests
    (:func:`outperform.plot.plot_comparison_matrix`), the figure of the pairs the text
    counts but does not print."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rich.markup import escape

    from ..plot import plot_comparison_matrix
    from ._errors import err
    from ._output import save_figure

    figure = plot_comparison_matrix(board, top=top).figure
    save_figure(figure, path, dpi=120)
    plt.close(figure)
    err.print(f"multiple comparison matrix written to {escape(str(path))}")
