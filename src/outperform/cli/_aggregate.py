"""``outperform aggregate``: rliable-style aggregates of many runs (seeds) over many tasks.

Bad input raises :class:`InvalidInputError`, which the shared handler of :mod:`._errors`
turns into one line and exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import err
from ._options import Format
from ._output import FIGURE_SUFFIXES, _output_file, check_out, emit_output, save_figure


def aggregate_cmd(
    file: Path = typer.Argument(..., help="Long results table (.csv, .tsv or .parquet) with "
                                "columns task, model, run (seed), a metric, optional fold and "
                                "step (learning curve: the last step all runs reached is used)."),
    normalize: str = typer.Option("none", help="none, min-max (per task: best run 1, worst 0) "
                                  "or reference:FILE (a table with columns task, zero, one, e.g. "
                                  "random and human scores)."),
    n_resamples: int = typer.Option(2000, "--n-resamples", help="Bootstrap resamples (rliable "
                                    "uses 50,000)."),
    tasks_random: bool = typer.Option(False, "--tasks-random", help="Also resample tasks (the "
                                      "two-level bootstrap): intervals for a larger population "
                                      "of tasks, not only new seeds on these tasks."),
    control: Optional[str] = opt.control("Give P(model > control) for every other model "
                                         "instead of every pair."),
    metric: Optional[str] = opt.metric(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    alpha: float = opt.alpha("Intervals at the level 1 - alpha."),
    confidence_level: Optional[float] = opt.old("--confidence-level", "--alpha (1 - level)"),
    seed: int = opt.seed("Seed of the bootstrap (the output is reproducible)."),
    variance: bool = typer.Option(False, "--variance", help="Also print the variance "
                                  "components (task, model x task, seed, split) by REML."),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    json_out: bool = opt.old("--json", "--format json", default=False),
    out: Optional[Path] = opt.out(),
    encoding: Optional[str] = opt.encoding(),
    plot: Optional[Path] = opt.plot("Write the interval-estimates figure here (.png, .svg or "
                                    ".pdf)."),
    curves: Optional[Path] = typer.Option(None, help="With a step column: write the "
                                          "sample-efficiency figure (IQM against step, with "
                                          "bands) here (.png, .svg or .pdf)."),
) -> None:
    """Runs x tasks (deep learning, RL): IQM, mean, median, optimality gap with stratified
    bootstrap intervals, and the probability of improvement (Agarwal et al. 2021, rliable).
    With a step column (learning curves) the aggregates use the last step all runs reached, and the IQM
    at every step (sample efficiency) is printed too.
    """
    opt.check_fragment(fragment, fmt)
    from ..compare import compare_runs, sample_efficiency, variance_components
    from ..data import read_table
    from ..report import runs_output

    fmt = opt.json_format(json_out, fmt)
    if confidence_level is not None:
        opt.deprecated("--confidence-level", "--alpha (1 - level)")
        if alpha != 0.05 and abs((1 - alpha) - confidence_level) > 1e-12:
            raise InvalidInputError(f"--alpha {alpha:g} and --confidence-level "
                                    f"{confidence_level:g} disagree; give --alpha only.")
        alpha = 1 - confidence_level
    direction = opt.direction(lower_is_better, higher_is_better)
    check_out(out)
    for path, flag in ((plot, "--plot"), (curves, "--curves")):
        if path is not None:
            _output_file(path, flag, FIGURE_SUFFIXES)
    if normalize == "none":
        rule = None
    elif normalize == "min-max":
        rule = "min-max"
    elif normalize.startswith("reference:"):
        rule = Path(normalize.removeprefix("reference:"))
    else:
        raise InvalidInputError(f"--normalize {normalize!r}: use none, min-max or "
                                "reference:FILE.")
    frame = read_table(file, encoding=encoding)
    has_steps = "step" in frame.columns
    if curves is not None and not has_steps:
        raise InvalidInputError("--curves needs a 'step' column (learning curves).")
    options = dict(metric=metric, higher_is_better=direction, normalize=rule,
                   n_resamples=n_resamples, alpha=alpha,
                   task_bootstrap=tasks_random, random_state=seed, progress=True)
    result = compare_runs(frame, control=control, **options)
    efficiency = sample_efficiency(frame, **options) if has_steps else None
    components = (variance_components(frame, metric=metric, higher_is_better=direction)
                  if variance else None)
    emit_output(runs_output(result, efficiency, components), fmt, out, fragment)
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_run_aggregates

        save_figure(plot_run_aggregates(result), plot)
        err.print(f"figure written to {escape(str(plot))}")
    if curves is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_sample_efficiency

        save_figure(plot_sample_efficiency(efficiency).figure, curves)
        err.print(f"figure written to {escape(str(curves))}")
