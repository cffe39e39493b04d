"""Aggregates over runs x tasks with stratified bootstrap intervals (Agarwal et al. 2021).

Agarwal, Schwarzer, Castro, Courville & Bellemare (2021), "Deep reinforcement learning at the
edge of the statistical precipice", NeurIPS; the formulas are those of their library rliable
(``rliable.metrics``, ``rliable.library``). Scores are arrays of shape (n_runs, n_tasks),
higher is better, usually normalised per task so that tasks are on one scale.

A bootstrap resample is a matrix of counts: how often each run of each task was drawn. Every
aggregate is then a weighted sum of the scores (the IQM a weighted trimmed mean over the
scores sorted once), so all resamples are computed at once, in chunks that bound the memory.
"""
from __future__ import annotations

import numpy as np

from .._parallel import progress_bar
from .._validation import InvalidInputError, check_random_state
from ..results._runs import IntervalEstimate, PerformanceProfile, _percentile_interval

STATISTICS = ("mean", "median", "iqm", "optimality_gap")
#: bound on the count entries held at once (resamples x runs x tasks), about 100 MB of floats
_CHUNK_CELLS = 4_000_000


def _check_scores(scores, name: str = "scores") -> np.ndarray:
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2 or min(x.shape) < 1:
        raise InvalidInputError(
            f"{name} must be a 2-D array of shape (n_runs, n_tasks) with at least one run and one "
            f"task, got shape {x.shape}. (rliable's axis order: runs first, tasks second.)")
    if not np.all(np.isfinite(x)):
        raise InvalidInputError(f"{name} has {int(np.sum(~np.isfinite(x)))} missing or infinite "
                                "scores; every run of every task needs a finite score.")
    return x


def _check_options(n_resamples, confidence_level) -> None:
    if not isinstance(n_resamples, (int, np.integer)) or isinstance(n_resamples, bool) \
            or n_resamples < 1:
        raise InvalidInputError(f"n_resamples must be a positive int, got {n_resamples!r}.")
    if not 0 < confidence_level < 1:
        raise InvalidInputError(f"confidence_level must be in (0, 1), got {confidence_level}.")


def _chunks(n_resamples: int, cells: int):
    size = max(1, _CHUNK_CELLS // max(cells, 1))
    return [min(size, n_resamples - start) for start in range(0, n_resamples, size)]


def _run_counts(rng, size: int, n_slots: int, n_runs: int) -> np.ndarray:
    """Counts (size, n_slots, n_runs): n_runs draws with replacement among the runs, per slot."""
    draws = rng.integers(0, n_runs, size=(size * n_slots, n_runs))
    offsets = (np.arange(size * n_slots) * n_runs)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=size * n_slots * n_runs)
    return counts.reshape(size, n_slots, n_runs).astype(float)


def _task_slots(rng, size: int, n_tasks: int, task_bootstrap: bool):
    """Which task fills each of the n_tasks slots of a resample, shape (size, n_tasks); None
    when the tasks are fixed (slot s is task s), which spares a gather of every score."""
    return rng.integers(0, n_tasks, size=(size, n_tasks)) if task_bootstrap else None


def _element_weights(counts: np.ndarray, slots: np.ndarray, n_tasks: int) -> np.ndarray:
    """Weights (size, n_tasks, n_runs) of the original scores: counts summed over the slots
    that drew each task (equal to ``counts`` when tasks are fixed)."""
    if slots is None:
        return counts
    size, n_slots, n_runs = counts.shape
    target = ((np.arange(size)[:, None] * n_tasks + slots)[:, :, None] * n_runs
              + np.arange(n_runs))
    return np.bincount(target.ravel(), weights=counts.ravel(),
                       minlength=size * n_tasks * n_runs).reshape(size, n_tasks, n_runs)


def _aggregates(xt, order, counts, slots, statistics, gamma) -> np.ndarray:
    """Each statistic on each resample, shape (size, n_statistics); ``xt`` is (n_tasks, n_runs)."""
    n_tasks, n_runs = xt.shape

    def slot_means(values):   # (size, n_slots): mean of the drawn runs in each slot
        if slots is None:
            return np.einsum("bsr,sr->bs", counts, values) / n_runs
        return np.einsum("bsr,bsr->bs", counts, values[slots]) / n_runs

    out = []
    if {"mean", "median"} & set(statistics):
        means = slot_means(xt)
    for name in statistics:
        if name == "mean":
            out.append(means.mean(axis=1))
        elif name == "median":
            out.append(np.median(means, axis=1))
        elif name == "optimality_gap":
            out.append(gamma - slot_means(np.minimum(xt, gamma)).mean(axis=1))
        else:   # iqm: scipy.stats.trim_mean(0.25) of the resample, with integer weights
            n = n_tasks * n_runs
            low = int(0.25 * n)
            high = n - low
            w = _element_weights(counts, slots, n_tasks).reshape(len(counts), n)[:, order]
            after = np.cumsum(w, axis=1)
            before = after - w
            # kept copies of each score = |[before, after) & [low, high)|; in place, as
            # np.clip is several times slower on these arrays
            for bound in (after, before):
                np.maximum(bound, low, out=bound)
                np.minimum(bound, high, out=bound)
            after -= before
            out.append(after @ xt.ravel()[order] / (high - low))
    return np.column_stack(out)


def aggregate_runs(scores, *, statistics=STATISTICS, gamma: float = 1.0,
                   n_resamples: int = 2000, confidence_level: float = 0.95,
                   task_bootstrap: bool = False, random_state=None,
                   progress: bool = False) -> dict[str, IntervalEstimate]:
    """Mean, median, interquartile mean and optimality gap of runs x tasks, with bootstrap CIs.

    Parameters
    ----------
    scores : array_like, shape (n_runs, n_tasks)
        One model's (normalised) scores, higher is better; runs first, tasks second.
    statistics : sequence of str
        Any of ``"mean"`` (mean over tasks of the mean over runs), ``"median"`` (median over
        tasks of the mean over runs), ``"iqm"`` (mean of the middle 50 % of all
        n_runs x n_tasks scores: ``scipy.stats.trim_mean(scores, 0.25, axis=None)``) and
        ``"optimality_gap"`` (``gamma - mean(min(scores, gamma))``; lower is better).
    gamma : float
        Target of the optimality gap (1 for scores normalised to [0, 1]).
    n_resamples : int
        Bootstrap resamples (rliable uses 50,000 for its figures).
    confidence_level : float
        Level of the percentile intervals.
    task_bootstrap : bool
        False: stratified bootstrap, runs resampled within each task and tasks fixed. True: the
        two-level bootstrap of rliable's ``task_bootstrap=True``, which also resamples tasks.
    random_state : None, int, SeedSequence or Generator
        Seed of the resampling (``_validation.check_random_state``).
    progress : bool
        Show a progress bar over the chunks of resamples.

    Returns
    -------
    dict of str -> IntervalEstimate
        One estimate per statistic, in the order asked; all share the same resamples.

    Raises
    ------
    InvalidInputError
        Scores not 2-D or not finite, an unknown statistic, or bad options.
    """
    x = _check_scores(scores)
    unknown = [s for s in statistics if s not in STATISTICS]
    if unknown or not statistics:
        raise InvalidInputError(f"statistics must be among {STATISTICS}, got {list(statistics)}.")
    _check_options(n_resamples, confidence_level)
    rng = check_random_state(random_state)
    xt = x.T.copy()
    n_tasks, n_runs = xt.shape
    order = np.argsort(xt.ravel(), kind="stable")
    whole = _aggregates(xt, order, np.ones((1, n_tasks, n_runs)), None, statistics, gamma)[0]
    parts = []
    sizes = _chunks(n_resamples, x.size)
    with progress_bar(len(sizes), progress, "stratified bootstrap") as advance:
        for size in sizes:
            counts = _run_counts(rng, size, n_tasks, n_runs)
            parts.append(_aggregates(xt, order, counts,
                                     _task_slots(rng, size, n_tasks, task_bootstrap),
                                     statistics, gamma))
            advance()
    dist = np.concatenate(parts)
    low, high = _percentile_interval(dist, confidence_level)
    return {name: IntervalEstimate(name, float(whole[i]), float(low[i]), float(high[i]),
                                   confidence_level, task_bootstrap, dist[:, i])
            for i, name in enumerate(statistics)}


def probability_of_improvement(scores_x, scores_y, *, n_resamples: int = 2000,
                               confidence_level: float = 0.95, task_bootstrap: bool = False,
                               random_state=None, progress: bool = False) -> IntervalEstimate:
    """Average probability of improvement P(X > Y) of Agarwal et al. (2021), with its CI.

    On each task m, P(X_m > Y_m) is the probability that a random run of X scores above a
    random run of Y, ties counting one half: the Mann-Whitney U of X over Y divided by
    n_runs_x * n_runs_y. The estimate is its mean over tasks (``rliable.metrics.
    probability_of_improvement``). 0.5 means no difference; above 0.5 favours X.

    Parameters
    ----------
    scores_x, scores_y : array_like, shape (n_runs_x, n_tasks) and (n_runs_y, n_tasks)
        Scores of the two models on the same tasks in the same order; run counts may differ.
        The runs of X and Y are resampled independently within each task (rliable's
        ``StratifiedIndependentBootstrap``), i.e. the runs are not treated as paired.
    n_resamples, confidence_level, random_state, progress
        As in :func:`aggregate_runs`.
    task_bootstrap : bool
        Also resample tasks (the same drawn tasks for X and Y, since tasks are shared).

    Returns
    -------
    IntervalEstimate
        ``statistic="probability_of_improvement"``.

    Raises
    ------
    InvalidInputError
        Different task counts, non-finite scores or bad options.
    """
    x, y = _check_scores(scores_x, "scores_x"), _check_scores(scores_y, "scores_y")
    if x.shape[1] != y.shape[1]:
        raise InvalidInputError(f"scores_x has {x.shape[1]} tasks and scores_y {y.shape[1]}; "
                                "both need the same tasks in the same order.")
    _check_options(n_resamples, confidence_level)
    rng = check_random_state(random_state)
    (nx, n_tasks), ny = x.shape, y.shape[0]
    # wins[m, i, j]: run i of X against run j of Y on task m (1 above, 1/2 tie, 0 below)
    wins = (x.T[:, :, None] > y.T[:, None, :]) + 0.5 * (x.T[:, :, None] == y.T[:, None, :])
    estimate = float(wins.mean(axis=(1, 2)).mean())
    parts = []
    sizes = _chunks(n_resamples, n_tasks * nx * ny)
    with progress_bar(len(sizes), progress, "stratified bootstrap") as advance:
        for size in sizes:
            cx = _run_counts(rng, size, n_tasks, nx)
            cy = _run_counts(rng, size, n_tasks, ny)
            slots = _task_slots(rng, size, n_tasks, task_bootstrap)
            pairs = wins[None] if slots is None else wins[slots]
            per_task = np.einsum("bsi,bsij,bsj->bs", cx, pairs, cy, optimize=True) / (nx * ny)
            parts.append(per_task.mean(axis=1))
            advance()
    dist = np.concatenate(parts)
    low, high = _percentile_interval(dist, confidence_level)
    return IntervalEstimate("probability_of_improvement", estimate, float(low), float(high),
                            confidence_level, task_bootstrap, dist)


def performance_profile(scores, taus=None, *, n_resamples: int = 2000,
                        confidence_level: float = 0.95, task_bootstrap: bool = False,
                        random_state=None, progress: bool = False) -> PerformanceProfile:
    """Performance profile (run-score distribution) with a pointwise bootstrap band.

    tau -> fraction of all n_runs x n_tasks scores strictly above tau (``rliable.library.
    create_performance_profile`` with ``use_score_distribution=True``).

    Parameters
    ----------
    scores : array_like, shape (n_runs, n_tasks)
    taus : array_like, shape (n_taus,), optional
        Thresholds; by default 101 points from the lowest to the highest score.
    n_resamples, confidence_level, task_bootstrap, random_state, progress
        As in :func:`aggregate_runs`.

    Returns
    -------
    PerformanceProfile
    """
    x = _check_scores(scores)
    _check_options(n_resamples, confidence_level)
    rng = check_random_state(random_state)
    taus = (np.linspace(x.min(), x.max(), 101) if taus is None
            else np.asarray(taus, dtype=float).ravel())
    xt = x.T.copy()
    n_tasks, n_runs = xt.shape
    above = (xt.ravel()[:, None] > taus[None, :]).astype(float)   # (n_scores, n_taus)
    parts = []
    sizes = _chunks(n_resamples, x.size)
    with progress_bar(len(sizes), progress, "stratified bootstrap") as advance:
        for size in sizes:
            counts = _run_counts(rng, size, n_tasks, n_runs)
            w = _element_weights(counts, _task_slots(rng, size, n_tasks, task_bootstrap),
                                 n_tasks).reshape(size, x.size)
            parts.append(w @ above / x.size)
            advance()
    low, high = _percentile_interval(np.concatenate(parts), confidence_level)
    return PerformanceProfile(taus, above.mean(axis=0), low, high, confidence_level,
                              task_bootstrap, n_resamples)
