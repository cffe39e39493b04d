"""Runs x tasks: almost stochastic order of every pair of algorithms (Dror et al. 2019).

A table with several runs (seeds) of each model on each task is read as
:func:`outperform.compare.compare_runs` reads it (folds averaged within a run, learning
curves at their last common step); each task's runs go to :func:`outperform.stats.multi_aso`,
or, pooled, every (task, run) score of a model (on the scale ``normalize`` gives).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .._validation import InvalidInputError, check_random_state
from ..data._columns import MODEL, TASK
from ..results._aso import AlmostStochasticOrder
from ..stats._aso import TAU, aso_next_seed, multi_aso
from ._runs import _normalise, _read_runs

__all__ = ["compare_aso"]


def compare_aso(data, *, metric: str | None = None, higher_is_better: bool | None = None,
                pooled: bool = False, normalize=None, alpha: float = 0.05,
                n_resamples: int = 1000, tau: float = TAU,
                random_state=0) -> tuple[AlmostStochasticOrder, ...]:
    """ε_min of every pair of models on every task (or pooled over tasks).

    Parameters
    ----------
    data : DataFrame, str or Path
        Long table: ``task``, ``model``, ``run`` (seed), a metric, optional ``fold`` and
        ``step`` (as :func:`outperform.compare.compare_runs`).
    metric, higher_is_better :
        As in :func:`outperform.data.read_results`; a lower-is-better metric is negated, so
        "almost stochastically better" always means better.
    pooled : bool
        One comparison of every model's scores over all tasks and runs, instead of one per
        task. The scores of different tasks are then mixed: put them on one scale with
        ``normalize`` (as :func:`compare_runs`' ``normalize``), or the task with the widest
        spread decides.
    normalize : None, "min-max", mapping or DataFrame/path
        Only for ``pooled`` (ε_W2 of one task does not change with its scale).
    alpha : float
        Family-wise level: Bonferroni over the k (k − 1) / 2 pairs and, per task, the tasks.
    n_resamples, tau, random_state :
        As :func:`outperform.stats.multi_aso`; one random stream serves every task.

    Returns
    -------
    tuple of AlmostStochasticOrder
        One per task in the table's order (``task`` set), or one with ``task=None`` pooled.

    Raises
    ------
    InvalidInputError
        No ``run`` column, several metrics and none chosen, fewer than 2 runs of a model on
        a task (ε_min needs a spread), ``normalize`` without ``pooled``.
    TooFewError
        Fewer than 2 models.
    """
    table, frame, metric, _ = _read_runs(
        data, metric, higher_is_better,
        no_run="almost stochastic order compares runs (seeds): the table needs a 'run' (or "
               "'seed') column, one row per run of each model on each task.")
    hib = table.metrics[metric]
    if normalize is not None and not pooled:
        raise InvalidInputError("--normalize changes nothing in almost stochastic order on one "
                                "task (the violation ratio does not depend on the scale): it "
                                "applies to --aso-pooled.")
    models, tasks = table.models, table.tasks
    if pooled and normalize is not None:
        values, _ = _normalise(frame, metric, hib, normalize)
        frame, hib = frame.assign(**{metric: values}), True
    rng = check_random_state(random_state)
    n_pairs = len(list(combinations(models, 2)))
    groups = [(None, frame)] if pooled else [(t, frame[frame[TASK].astype(str) == str(t)])
                                             for t in tasks]
    out = []
    for task, part in groups:     # one multi_aso per task: its pairs are batched inside
        scores = {m: part.loc[part[MODEL] == m, metric].to_numpy(float) for m in models}
        few = [m for m, v in scores.items() if v.size < 2]
        if few:
            where = f" on task {task!r}" if task is not None else ""
            raise InvalidInputError(
                f"model {few[0]!r} has {scores[few[0]].size} run(s){where}: almost stochastic "
                "order compares score distributions over runs (seeds) and needs at least 2 "
                "runs of every model (Dror et al. 2019 use 5 or more).")
        out.append(multi_aso(scores, alpha=alpha, n_comparisons=n_pairs * len(groups),
                             n_resamples=n_resamples, tau=tau, higher_is_better=hib,
                             task=None if task is None else str(task), random_state=rng))
    return tuple(out)


def next_seed_note(result: AlmostStochasticOrder) -> str | None:
    """Which model's next run tightens ε_min most (:func:`outperform.stats.aso_next_seed`),
    or None when every model has as many runs (then any one does as well)."""
    if np.unique(result.n_runs).size == 1:
        return None
    best = aso_next_seed(dict(zip(result.names, (int(n) for n in result.n_runs))))
    where = f" on {result.task}" if result.task is not None else ""
    return (f"next seed{where}: {best} (one more run of it tightens the ε_min bounds of its "
            "pairs the most; aso_uncertainty_reduction).")
