"""``outperform aggregate``: rliable-style aggregates of many runs (seeds) over many tasks.

Registered on the application by :mod:`outperform.cli`; bad input raises
:class:`InvalidInputError`, which the shared handler of :mod:`._cli` turns into one line and
exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from ._errors import err
from ._output import FIGURE_SUFFIXES, _output_file
from .._validation import InvalidInputError


def aggregate_cmd(
    file: Path = typer.Argument(..., help="Long results table (.csv, .tsv or .parquet) with "
                                "columns task, model, run (seed), a metric, optional fold and "
                                "step (learning curve: each run's last step is used)."),
    normalize: str = typer.Option("none", help="none, min-max (per task: best run 1, worst 0) "
                                  "or reference:FILE (a table with columns task, zero, one, e.g. "
                                  "random and human scores)."),
    n_resamples: int = typer.Option(2000, "--n-resamples", help="Bootstrap resamples (rliable "
                                    "uses 50,000)."),
    tasks_random: bool = typer.Option(False, "--tasks-random", help="Also resample tasks (the "
                                      "two-level bootstrap): intervals for a larger population "
                                      "of tasks, not only new seeds on these tasks."),
    control: Optional[str] = typer.Option(None, help="Give P(model > control) for every other "
                                          "model instead of every pair."),
    metric: Optional[str] = typer.Option(None, help="Metric column, when there are several."),
    lower_is_better: bool = typer.Option(False, "--lower-is-better",
                                         help="The metric is a loss or error (lower is better)."),
    confidence_level: float = typer.Option(0.95, "--confidence-level", help="Level of the "
                                           "intervals."),
    seed: Optional[int] = typer.Option(None, help="Seed of the bootstrap (reproducible output)."),
    variance: bool = typer.Option(False, "--variance", help="Also print the variance "
                                  "components (task, model x task, seed, split) by REML."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of the table."),
    plot: Optional[Path] = typer.Option(None, help="Write the interval-estimates figure here "
                                        "(.png, .svg or .pdf)."),
    curves: Optional[Path] = typer.Option(None, help="With a step column: write the "
                                          "sample-efficiency figure (IQM against step, with "
                                          "bands) here (.png, .svg or .pdf)."),
) -> None:
    """Runs x tasks (deep learning, RL): IQM, mean, median, optimality gap with stratified
    bootstrap intervals, and the probability of improvement (Agarwal et al. 2021, rliable).
    With a step column (learning curves) the aggregates use each run's last step, and the IQM
    at every step (sample efficiency) is printed too.
    """
    import json

    from ..compare import compare_runs, sample_efficiency, variance_components
    from ..data import read_table

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
    frame = read_table(file)
    has_steps = "step" in frame.columns
    if curves is not None and not has_steps:
        raise InvalidInputError("--curves needs a 'step' column (learning curves).")
    options = dict(metric=metric, higher_is_better=False if lower_is_better else None,
                   normalize=rule, n_resamples=n_resamples, confidence_level=confidence_level,
                   task_bootstrap=tasks_random, random_state=seed, progress=True)
    result = compare_runs(frame, control=control, **options)
    efficiency = sample_efficiency(frame, **options) if has_steps else None
    components = (variance_components(frame, metric=metric, higher_is_better=False
                                      if lower_is_better else None) if variance else None)
    if json_out:
        typer.echo(json.dumps({**result.to_dict(), **({"variance_components":
                   components.to_dict()} if components else {}), **({"sample_efficiency":
                   efficiency.to_dict()} if efficiency else {})}, indent=1))
    else:
        typer.echo("\n\n".join(str(r) for r in (result, efficiency, components) if r))
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_run_aggregates

        plot.parent.mkdir(parents=True, exist_ok=True)
        plot_run_aggregates(result).savefig(plot, bbox_inches="tight")
        err.print(f"figure written to {escape(str(plot))}")
    if curves is not None:
        import matplotlib

        matplotlib.use("Agg")
        from ..plot import plot_sample_efficiency

        curves.parent.mkdir(parents=True, exist_ok=True)
        plot_sample_efficiency(efficiency).figure.savefig(curves, bbox_inches="tight")
        err.print(f"figure written to {escape(str(curves))}")
