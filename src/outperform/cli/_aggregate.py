"""``outperform aggregate``: rliable-style aggregates of many runs (seeds) over many tasks.

Bad input raises :class:`InvalidInputError`, which the shared handler of :mod:`._errors`
turns into one line and exit code 1.
"""
from __future__ import annotations

import time
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
                                "step (learning curve: the last step all runs reached is used); "
                                "or a folder of TensorBoard runs (event files, one folder per "
                                "run: see --pattern, --tag; needs the 'tensorboard' extra)."),
    normalize: str = typer.Option("none", help="none, min-max (per task: best run 1, worst 0) "
                                  "or reference:FILE (a table with columns task, zero, one, e.g. "
                                  "random and human scores)."),
    n_resamples: int = opt.n_resamples("Bootstrap resamples (rliable uses 50,000).",
                                       default=2000),
    tasks_random: bool = typer.Option(False, "--tasks-random", help="Also resample tasks (the "
                                      "two-level bootstrap): intervals for a larger population "
                                      "of tasks, not only new seeds on these tasks."),
    control: Optional[str] = opt.control("Give P(model > control) for every other model "
                                         "instead of every pair."),
    pairs: Optional[str] = opt.pairs(),
    metric: Optional[str] = opt.metric(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    alpha: float = opt.alpha("Intervals at the level 1 - alpha."),
    confidence_level: Optional[float] = opt.old("--confidence-level", "--alpha (1 - level)"),
    seed: int = opt.seed("Seed of the bootstrap (the output is reproducible)."),
    variance: bool = typer.Option(False, "--variance", help="Also print the variance "
                                  "components (task, model x task, seed, split) by REML."),
    aso: bool = typer.Option(False, "--aso", help="Also almost stochastic order (Dror et al. "
                             "2019): ε_min of every pair of models on every task, Bonferroni "
                             "over pairs and tasks, and which model should get the next seed."),
    aso_pooled: bool = typer.Option(False, "--aso-pooled", help="--aso over all tasks' runs "
                                    "pooled (on the --normalize scale) instead of per task."),
    tau: float = typer.Option(0.2, "--tau", help="--aso: a model is almost stochastically "
                              "better when ε_min < tau (0.2, Ulmer et al. 2022; Dror et al. "
                              "2019 use 0.5)."),
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
    tag: Optional[str] = typer.Option(None, "--tag", help="TensorBoard runs: the scalar tag to "
                                      "read (needed when the runs log several)."),
    pattern: str = typer.Option("{model}/{task}/{seed}", "--pattern", help="TensorBoard runs: "
                                "the run folders' paths under FILE, with {model}, {task}, "
                                "{seed} and {} for a part to skip (CleanRL: "
                                "'{task}__{model}__{seed}__{}')."),
    steps: str = typer.Option("exact", "--steps", help="TensorBoard runs: exact (every run of "
                              "a model scored at the same steps) or common (keep the steps "
                              "all its runs have)."),
) -> None:
    """Runs x tasks (deep learning, RL): IQM, mean, median, optimality gap with stratified
    bootstrap intervals, and the probability of improvement (Agarwal et al. 2021, rliable);
    with --aso, almost stochastic order of every pair (Dror et al. 2019).
    With a step column (learning curves) the aggregates use the last step all runs reached, and the IQM
    at every step (sample efficiency) is printed too.
    """
    started = time.perf_counter()
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
    from ..data._files import _holds_parquet
    from ..data._tensorboard import DEFAULT_PATTERN, is_tensorboard_logdir, read_tensorboard

    if file.is_dir() and (is_tensorboard_logdir(file) or not _holds_parquet(file)):
        frame = read_tensorboard(file, tag=tag, pattern=pattern, steps=steps)
    else:
        given = [f for f, v in (("--tag", tag is not None), ("--pattern", pattern != DEFAULT_PATTERN),
                                ("--steps", steps != "exact")) if v]
        if given:
            raise InvalidInputError(f"{', '.join(given)} appl{'y' if len(given) > 1 else 'ies'} "
                                    "to a folder of TensorBoard runs, not to a results table.")
        frame = read_table(file, encoding=encoding)
    has_steps = "step" in frame.columns
    if curves is not None and not has_steps:
        raise InvalidInputError("--curves needs a 'step' column (learning curves).")
    options = dict(metric=metric, higher_is_better=direction, normalize=rule,
                   n_resamples=n_resamples, alpha=alpha,
                   task_bootstrap=tasks_random, random_state=seed, progress=True)
    result = compare_runs(frame, control=control, pairs=pairs, **options)
    efficiency = sample_efficiency(frame, **options) if has_steps else None
    components = (variance_components(frame, metric=metric, higher_is_better=direction)
                  if variance else None)
    found = None
    if aso or aso_pooled:
        from ..compare import compare_aso

        found = compare_aso(frame, metric=metric, higher_is_better=direction,
                            pooled=aso_pooled, normalize=rule if aso_pooled else None,
                            alpha=alpha, n_resamples=n_resamples, tau=tau, random_state=seed)
    elif tau != 0.2:
        raise InvalidInputError("--tau is the threshold of almost stochastic order: add --aso.")
    emit_output(runs_output(result, efficiency, components, found), fmt, out, fragment)
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
    err.print(_done(result, n_resamples, time.perf_counter() - started), highlight=False,
              soft_wrap=True)


def _done(result, n_resamples: int, seconds: float) -> str:
    """The one line on stderr saying what was computed and how long it took (the command's
    work from reading to writing; Python's start and the CLI's imports come before it)."""
    k = len(result.models)
    shown = result.pair_summary.get("shown", len(result.improvements))
    return (f"aggregate: done in {seconds:.1f} s ({k} models x {len(result.tasks)} tasks, "
            f"{n_resamples:,} resamples, {shown:,} of {k * (k - 1) // 2:,} pairs in full).")
