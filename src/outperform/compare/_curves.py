"""Sample-efficiency curves: an aggregate of runs x tasks at each step of learning curves.

Agarwal et al. (2021), Fig. 9 and rliable's ``get_interval_estimates`` on (runs, tasks,
steps) arrays: at every step the aggregate of the runs' scores, with a stratified bootstrap
band. One resample draws the same runs at every step (a run is one learning curve), so the
band of a model moves smoothly from step to step, as in rliable.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .._deprecation import renamed
from .._validation import InvalidInputError, OutperformWarning, check_random_state
from ..data import read_results, read_table
from ..data._schema import EXAMPLE, FOLD, MODEL, RUN, TASK
from ..results import SampleEfficiency
from ..stats import aggregate_runs
from ._runs import STEP, _normalise, _one_run


def _curves(frame, tasks, model) -> tuple[np.ndarray, np.ndarray]:
    """Steps (n_steps,) and scores (n_steps, n_runs, n_tasks) of one model, refusing curves
    that skip steps of the model's grid or tasks with fewer runs."""
    part = frame[frame[MODEL] == model].sort_values(RUN)
    part = part.assign(_place=part.groupby([TASK, STEP], observed=True).cumcount())
    cube = part.pivot_table(index=[STEP, "_place"], columns=TASK, values="_score",
                            observed=True).reindex(columns=list(tasks))
    steps = cube.index.get_level_values(0).unique().to_numpy()
    runs = cube.index.get_level_values(1).nunique()
    if cube.isna().to_numpy().any() or len(cube) != len(steps) * runs:
        raise InvalidInputError(
            f"model {model!r}: every run on every task needs a score at each of the model's "
            f"{len(steps)} steps, with as many runs on every task; evaluate all runs at the "
            "same steps, or drop the incomplete ones.")
    return steps, cube.to_numpy(float).reshape(len(steps), runs, len(tasks))


@renamed(confidence_level="alpha")
def sample_efficiency(data, *, metric: str | None = None, higher_is_better: bool | None = None,
                      normalize=None, statistic: str = "iqm", gamma: float = 1.0,
                      n_resamples: int = 2000, alpha: float = 0.05,
                      task_bootstrap: bool = False, random_state=0,
                      progress: bool = False) -> SampleEfficiency:
    """An aggregate of every model at each step of its learning curves, with bootstrap bands.

    Parameters
    ----------
    data : DataFrame, str or Path
        Long table with ``task``, ``model``, ``run``, ``step`` and a metric (optional ``fold``,
        averaged within each run and step). Every run of a model is scored at the same steps.
    metric, higher_is_better, normalize, gamma, n_resamples, alpha, task_bootstrap,
    random_state, progress
        As in :func:`compare_runs`; ``"min-max"`` normalises each task over all models, runs
        and steps.
    statistic : str
        ``"iqm"`` (rliable's choice), ``"mean"``, ``"median"`` or ``"optimality_gap"``.

    Returns
    -------
    SampleEfficiency

    Raises
    ------
    InvalidInputError
        No ``step`` or ``run`` column, curves with missing steps, or the errors of
        :func:`compare_runs`.
    """
    frame = data if isinstance(data, pd.DataFrame) else read_table(data)
    if STEP not in frame.columns or RUN not in frame.columns or EXAMPLE in frame.columns:
        raise InvalidInputError("sample-efficiency curves need 'run' and 'step' columns (one row "
                                "per run, task, model and step of a learning curve) and no "
                                "'example' column.")
    # read_results checks names, scores and duplicates; the step goes through it as a
    # replicate key (the 'example' slot, unused by learning curves), and runs may differ
    table = read_results(frame.rename(columns={STEP: EXAMPLE}), metric=metric,
                         higher_is_better=higher_is_better, paired=False)
    frame = table.frame.rename(columns={EXAMPLE: STEP})
    if metric is None:
        if len(table.metrics) != 1:
            raise InvalidInputError(f"several metrics {list(table.metrics)}: choose one with "
                                    "metric= (--metric).")
        metric = next(iter(table.metrics))
    notes = []
    if FOLD in frame.columns:
        frame = frame.groupby([TASK, MODEL, RUN, STEP], observed=True,
                              as_index=False)[metric].mean()
        notes.append("each run's score at a step is its mean over folds")
    values, rule = _normalise(frame, metric, table.metrics[metric], normalize)
    rule = rule.replace("over all models and runs", "over all models, runs and steps")
    frame = frame.assign(_score=values)
    rng = check_random_state(random_state)
    steps, estimate, low, high = {}, {}, {}, {}
    # canonical order (sorted tasks; the models drawn in sorted order): the order of the rows
    # in the table changes nothing
    tasks = sorted(table.tasks)
    grids = {model: _curves(frame, tasks, model) for model in table.models}
    single = [m for m, (_, g) in grids.items() if g.shape[1] == 1]
    if single and not task_bootstrap:
        notes.append(_one_run(single).replace("the intervals involving it", "its bands"))
        warnings.warn(notes[-1], OutperformWarning, stacklevel=2)
    for model in sorted(table.models):
        steps[model], grid = grids[model]
        # one paired pool per model: resample k draws the same runs at every step
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="one run per task", category=UserWarning)
            found = aggregate_runs({i: g for i, g in enumerate(grid)},
                                   statistics=(statistic,), gamma=gamma, n_resamples=n_resamples,
                                   alpha=alpha,
                                   task_bootstrap=task_bootstrap, paired=True,
                                   random_state=rng, progress=progress)
        estimate[model], low[model], high[model] = (
            np.array([getattr(found[i][statistic], k) for i in range(len(grid))])
            for k in ("estimate", "low", "high"))
    bootstrap = next(iter(found.values()))[statistic].bootstrap
    steps, estimate, low, high = ({m: d[m] for m in table.models}
                                  for d in (steps, estimate, low, high))
    return SampleEfficiency(tuple(table.models), metric, rule, statistic, steps, estimate, low,
                            high, 1.0 - alpha, bootstrap, n_resamples, tuple(notes))
