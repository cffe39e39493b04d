"""Aggregates over runs x tasks with stratified bootstrap intervals (Agarwal et al. 2021).

Agarwal, Schwarzer, Castro, Courville & Bellemare (2021), "Deep reinforcement learning at the
edge of the statistical precipice", NeurIPS; the formulas are those of their library rliable
(``rliable.metrics``, ``rliable.library``). Scores are arrays of shape (n_runs, n_tasks),
higher is better, usually normalised per task so that tasks are on one scale.

The four aggregates are computed on chunks of resamples at once by ``_runs_kernel``. For the
probability of improvement and the performance profiles a resample is a matrix of counts (how
often each run of each task was drawn), and each is a weighted sum of the scores.
"""
from __future__ import annotations

import warnings
from collections.abc import Mapping

import numpy as np

from .._parallel import progress_bar
from .._cost import check_cost
from .._deprecation import renamed
from .._validation import InvalidInputError, OutperformWarning, check_alpha, check_random_state
from ..results._runs import IntervalEstimate, PerformanceProfile, _percentile_interval
from ._runs_kernel import (_COUNT_CELLS, _chunks, _draws, _element_weights, _exact_dtype,
                           _Kernel, _run_counts, _task_slots)

STATISTICS = ("mean", "median", "iqm", "optimality_gap")


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


def _check_options(n_resamples, alpha) -> float:
    """Check the options; return the level of the intervals, 1 - alpha."""
    if not isinstance(n_resamples, (int, np.integer)) or isinstance(n_resamples, bool) \
            or n_resamples < 1:
        raise InvalidInputError(f"n_resamples must be a positive int, got {n_resamples!r}.")
    return 1.0 - check_alpha(alpha)


def runs_cost(n_resamples: int, bytes_per_resample: float, seconds_per_resample: float,
              work: str) -> None:
    """The cost guard (:func:`outperform._validation.check_cost`) of a runs x tasks bootstrap:
    the resampled statistics are kept (bytes per resample), the work per resample is timed."""
    check_cost("n_resamples (--n-resamples)", n_resamples, work=work,
               bytes_per_unit=bytes_per_resample, seconds_per_unit=seconds_per_resample)


def _check_tasks(arrays, task_bootstrap: bool) -> None:
    """The two-level bootstrap resamples tasks: it needs at least two of them."""
    n_tasks = min(x.shape[1] for x in arrays)
    if task_bootstrap and n_tasks < 2:
        raise InvalidInputError(
            "task_bootstrap=True (--tasks-random) resamples the tasks, and there is only 1 "
            "task: nothing to resample, and one task says nothing about a population of "
            "tasks. Drop task_bootstrap (the stratified bootstrap over runs) or add tasks.")


def _no_spread(x: np.ndarray, task_bootstrap: bool) -> bool:
    """One run per task and fixed tasks: every resample is the data itself."""
    return x.shape[0] == 1 and not task_bootstrap


def _interval(dist, level, x, task_bootstrap, name=None):
    """Percentile interval, NaN (with a warning) when the resamples cannot vary."""
    if not _no_spread(x, task_bootstrap):
        return _percentile_interval(dist, level)
    who = "" if name is None else f" of {name!r}"
    warnings.warn(
        f"one run per task{who}: the stratified bootstrap redraws that one run every time, so "
        "the resamples have no spread and a zero-width interval would claim certainty; the "
        "interval is NaN. Add runs (seeds), or resample tasks (task_bootstrap=True, "
        "--tasks-random) to ask how the aggregate varies over tasks.", OutperformWarning,
        stacklevel=3)
    nan = np.full(dist.shape[1:], np.nan)
    return nan, nan.copy()


@renamed(confidence_level="alpha")
def aggregate_runs(scores, *, statistics=STATISTICS, gamma: float = 1.0,
                   n_resamples: int = 2000, alpha: float = 0.05,
                   task_bootstrap: bool = False, paired: bool = False, random_state=0,
                   progress: bool = False) -> dict:
    """Mean, median, interquartile mean and optimality gap of runs x tasks, with bootstrap CIs.

    Parameters
    ----------
    scores : array_like of shape (n_runs, n_tasks), or mapping of str -> such arrays
        One model's (normalised) scores, higher is better; runs first, tasks second. A mapping
        (rliable's ``score_dict``) gives several models, resampled in one pass.
    statistics : sequence of str
        Any of ``"mean"`` (mean over tasks of the mean over runs), ``"median"`` (median over
        tasks of the mean over runs), ``"iqm"`` (mean of the middle 50 % of all
        n_runs x n_tasks scores: ``scipy.stats.trim_mean(scores, 0.25, axis=None)``) and
        ``"optimality_gap"`` (``gamma - mean(min(scores, gamma))``; lower is better).
    gamma : float
        Target of the optimality gap (1 for scores normalised to [0, 1]).
    n_resamples : int
        Bootstrap resamples (rliable uses 50,000 for its figures).
    alpha : float
        1 − the level of the intervals (default 0.05: 95% intervals). ``confidence_level=`` is
        its deprecated name (``alpha = 1 - confidence_level``).
    task_bootstrap : bool
        False: stratified bootstrap, runs resampled within each task and tasks fixed. True: the
        two-level bootstrap of rliable's ``task_bootstrap=True``, which also resamples tasks.
    paired : bool
        Mappings only. False (rliable's way): resample k of two models comes from
        independent draws (for speed the models share a pool of draws, rotated by one place
        per model, which keeps them independent). True: run i of every model is drawn together (and the same tasks, with
        ``task_bootstrap``), the paired bootstrap for runs that share a seed or data split
        across models; ``a.distribution - b.distribution`` is then the bootstrap distribution
        of the paired difference. Each model's own interval has the same distribution either
        way. Needs arrays of one shape.
    random_state : None, int, SeedSequence or Generator
        Seed of the resampling (``_validation.check_random_state``).
    progress : bool
        Show a progress bar over the chunks of resamples.

    Returns
    -------
    dict of str -> IntervalEstimate, or (mapping input) dict of model -> that dict
        One estimate per statistic, in the order asked; all share the same resamples.

    Raises
    ------
    InvalidInputError
        Scores not 2-D or not finite, an unknown statistic, arrays of different shapes with
        ``paired=True``, bad options, ``task_bootstrap`` with a single task, or more
        resamples than fit in memory or in an hour (the message names the largest
        ``n_resamples`` that fits; :func:`outperform._validation.check_cost`).

    Warns
    -----
    UserWarning
        One run per task with the tasks fixed: every resample is the data itself, so the
        interval is NaN (not a zero width that would read as certainty).

    Notes
    -----
    Scores beyond float32's range (above ~1e30 or below ~1e-30 in magnitude) are divided
    by their largest magnitude before resampling, and the results multiplied back: every
    aggregate is homogeneous of degree 1 (with ``gamma`` scaled alike).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.2, 0.5, 0.9], [0.4, 0.6, 0.7]])     # 2 runs x 3 tasks
    >>> r = aggregate_runs(x, n_resamples=1000, random_state=0)
    >>> round(r["mean"].estimate, 4), round(r["iqm"].estimate, 4)
    (0.55, 0.55)
    >>> r["iqm"].low <= r["iqm"].estimate <= r["iqm"].high
    True
    """
    single = not isinstance(scores, Mapping)
    arrays = {None: _check_scores(scores)} if single else {
        m: _check_scores(a, f"scores[{m!r}]") for m, a in scores.items()}
    unknown = [s for s in statistics if s not in STATISTICS]
    if unknown or not statistics:
        raise InvalidInputError(f"statistics must be among {STATISTICS}, got {list(statistics)}.")
    if not arrays:
        raise InvalidInputError("scores is an empty mapping: give at least one model.")
    if paired and len({a.shape for a in arrays.values()}) > 1:
        raise InvalidInputError(
            "paired=True draws run i of every model together, so every model needs the same "
            f"(n_runs, n_tasks); got {sorted({a.shape for a in arrays.values()})}.")
    confidence_level = _check_options(n_resamples, alpha)
    _check_tasks(arrays.values(), task_bootstrap)
    cells = sum(x.size for x in arrays.values())
    runs_cost(n_resamples, len(arrays) * len(statistics) * 24, 5e-9 * cells,
              f"{len(arrays)} model(s) x {len(statistics)} statistics")
    rng = check_random_state(random_state)
    kernels = {m: _Kernel(x, gamma) for m, x in arrays.items()}
    parts = {m: [] for m in arrays}
    # Models of one shape share each chunk's draws (drawing dominates the cost). Unpaired,
    # model j's resamples are then rotated by j places, so that resample k of two models comes
    # from two different, independent draws: rliable's independent bootstrap, each model's
    # interval unchanged. With fewer resamples than models each model draws its own.
    share = paired or n_resamples >= len(arrays)
    sizes = _chunks(n_resamples, max(x.size for x in arrays.values()))
    with progress_bar(len(sizes), progress, "stratified bootstrap") as advance:
        for size in sizes:
            drawn = {}
            for m, x in arrays.items():
                if x.shape not in drawn or not share:
                    drawn[x.shape] = _draws(rng, size, x.shape[1], x.shape[0], task_bootstrap)
                parts[m].append(kernels[m](drawn[x.shape], statistics))
            advance()
    out = {}
    for j, (m, x) in enumerate(arrays.items()):
        whole = _Kernel(x, gamma, np.float64)(np.arange(x.size)[None], statistics)[0]
        dist = np.concatenate(parts[m]).astype(float) * kernels[m].scale
        if share and not paired:
            dist = np.roll(dist, j, axis=0)
        low, high = _interval(dist, confidence_level, x, task_bootstrap, m)
        out[m] = {name: IntervalEstimate(name, float(whole[i]), float(low[i]), float(high[i]),
                                         confidence_level, task_bootstrap, dist[:, i])
                  for i, name in enumerate(statistics)}
    return out[None] if single else out


@renamed(confidence_level="alpha")
def performance_profile(scores, taus=None, *, n_resamples: int = 2000,
                        alpha: float = 0.05, task_bootstrap: bool = False,
                        random_state=0, progress: bool = False) -> PerformanceProfile:
    """Performance profile (run-score distribution) with a pointwise bootstrap band.

    tau -> fraction of all n_runs x n_tasks scores strictly above tau (``rliable.library.
    create_performance_profile`` with ``use_score_distribution=True``).

    Parameters
    ----------
    scores : array_like, shape (n_runs, n_tasks)
    taus : array_like, shape (n_taus,), optional
        Thresholds; by default 101 points from the lowest to the highest score.
    n_resamples, alpha, task_bootstrap, random_state, progress
        As in :func:`aggregate_runs`.

    Returns
    -------
    PerformanceProfile
    """
    x = _check_scores(scores)
    return performance_profiles(x[None], taus, n_resamples=n_resamples, alpha=alpha,
                                task_bootstrap=task_bootstrap, random_state=random_state,
                                progress=progress)[0]


def performance_profiles(stack, taus=None, *, n_resamples: int = 2000, alpha: float = 0.05,
                         task_bootstrap: bool = False, random_state=0,
                         progress: bool = False) -> list[PerformanceProfile]:
    """:func:`performance_profile` of k models with the same runs and tasks, in one pass.

    ``stack`` has shape (k, n_runs, n_tasks). Every model's band is the same stratified
    bootstrap as :func:`performance_profile`; the k models share each resample's draws of
    runs (and tasks), which draws the random numbers once instead of k times. For k = 1 it is
    :func:`performance_profile`, number for number.
    """
    stack = np.asarray(stack, dtype=float)
    if stack.ndim != 3:
        raise InvalidInputError(f"stack must have shape (k, n_runs, n_tasks), got {stack.shape}.")
    for x in stack:
        _check_scores(x)
    confidence_level = _check_options(n_resamples, alpha)
    _check_tasks((stack[0],), task_bootstrap)
    k, n_runs, n_tasks = stack.shape
    size_one = n_runs * n_tasks
    taus = (np.linspace(stack.min(), stack.max(), 101) if taus is None
            else np.asarray(taus, dtype=float).ravel())
    runs_cost(n_resamples, 16 * taus.size * k, 2.5e-11 * size_one * taus.size * k,
              f"{k} x {size_one} scores x {taus.size} thresholds")
    rng = check_random_state(random_state)
    # (n_scores, k * n_taus): scores in task-major order as the counts are, then one product
    # per chunk for all models; counts and 0/1 are integers, exact in float32 up to 2^24
    dtype = _exact_dtype(size_one)
    above = (stack.transpose(2, 1, 0).reshape(size_one, k)[:, :, None] > taus).astype(dtype)
    above = above.reshape(size_one, k * taus.size)
    parts = []
    sizes = _chunks(n_resamples, size_one, _COUNT_CELLS)
    with progress_bar(len(sizes), progress, "stratified bootstrap") as advance:
        for size in sizes:
            counts = _run_counts(rng, size, n_tasks, n_runs, dtype)
            w = _element_weights(counts, _task_slots(rng, size, n_tasks, task_bootstrap),
                                 n_tasks).reshape(size, size_one).astype(dtype, copy=False)
            parts.append((w @ above).reshape(size, k, taus.size))
            advance()
    totals = np.concatenate(parts) if len(parts) > 1 else parts[0]      # (B, k, taus)
    fraction = above.reshape(size_one, k, taus.size).mean(axis=0, dtype=float)
    out = []
    for j in range(k):        # one model's fractions in float64 at a time (memory)
        dist = totals[:, j].astype(float)
        dist /= size_one
        low, high = _interval(dist, confidence_level, stack[j], task_bootstrap)
        out.append(PerformanceProfile(taus, fraction[j], low, high, confidence_level,
                                      task_bootstrap, n_resamples))
    return out
