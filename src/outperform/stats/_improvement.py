"""The average probability of improvement P(X > Y) of Agarwal et al. (2021), for many pairs.

On each task, P(X > Y) is the probability that a random run of X scores above a random run of
Y (ties count one half); the estimate is its mean over tasks (``rliable.metrics.
probability_of_improvement``). A stratified-bootstrap resample draws, on each task slot, the
runs of each model with replacement: a matrix of counts c (how often each run was drawn), and
the resampled P(X > Y) of a task is the quadratic form cx' W cy / (nx ny) of the counts and the
task's 0 / 1/2 / 1 matrix W of run-against-run wins.

Many pairs share the draws. Paired (run i of every model drawn together), one count matrix per
resample serves every model, and every pair's totals over the tasks are one matrix product of
the resamples' count outer products (size, tasks x runs x runs) with the pairs' wins; the
counts and the wins are integers and halves, so float32 sums them exactly (below 2^23). A
pair's numbers are then those of the one-pair call with the same seed, whatever other pairs are
asked. Unpaired, the models share a pool of draws rotated by one resample per model (as
:func:`outperform.stats.aggregate_runs` does), so resample k of two models comes from two
different, independent draws.
"""
from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._deprecation import renamed
from .._parallel import progress_bar
from .._validation import InvalidInputError, check_random_state
from ..results._runs import IntervalEstimate, _percentile_interval
from ._runs import _check_options, _check_scores, _check_tasks, _interval, runs_cost
from ._runs_kernel import _COUNT_CELLS, _chunks, _exact_dtype, _run_counts, _task_slots

#: most cells of the pairs' wins held at once as one matrix (T x runs x runs x pairs): 64 MB
_WIN_CELLS = 16_000_000
#: from this many pairs on, paired draws go through the shared product of the count outer
#: products (its cost, tasks x runs^2 per resample, is paid once; a pair then costs ~1/10 of
#: its own quadratic forms; measured on 50 models x 100 tasks x 20 runs)
_SHARED_PRODUCT_PAIRS = 16


def _wins(x: np.ndarray, y: np.ndarray, dtype=float) -> np.ndarray:
    """(n_tasks, nx, ny): run i of X against run j of Y on each task (1 above, 1/2 tie, 0)."""
    xt, yt = x.T[:, :, None], y.T[:, None, :]
    return ((xt > yt) + 0.5 * (xt == yt)).astype(dtype, copy=False)


def _pools(models, arrays, paired: bool, shared: bool, n_resamples: int):
    """Which pool of draws each model uses and by how many resamples it is rotated.

    Paired: one pool, no rotation. Unpaired and shared (at least as many resamples as models):
    one pool per run count, model j rotated by j. Otherwise one pool per model."""
    if paired:
        return {m: (0, 0) for m in models}, [arrays[models[0]].shape[0]]
    if shared and n_resamples >= len(models):
        runs = list(dict.fromkeys(arrays[m].shape[0] for m in models))
        return {m: (runs.index(arrays[m].shape[0]), j) for j, m in enumerate(models)}, runs
    return {m: (j, 0) for j, m in enumerate(models)}, [arrays[m].shape[0] for m in models]


def _draw(rng, sizes, n_tasks: int, runs: list[int], task_bootstrap: bool):
    """Counts (n_resamples, n_tasks, n_runs) of every pool and the task slots, drawn chunk by
    chunk in the order of the one-pair function: the pools, then the slots."""
    counts = [[] for _ in runs]
    slots = []
    for size in sizes:
        for pool, n_runs in enumerate(runs):
            counts[pool].append(_run_counts(rng, size, n_tasks, n_runs, np.min_scalar_type(n_runs)))
        slots.append(_task_slots(rng, size, n_tasks, task_bootstrap))
    return ([np.concatenate(c) for c in counts],
            np.concatenate(slots) if task_bootstrap else None)


def _rows(start: int, stop: int, shift: int, total: int) -> np.ndarray | slice:
    return slice(start, stop) if shift == 0 else (np.arange(start, stop) - shift) % total


def _paired_totals(counts, slots, arrays, pairs, n_tasks: int) -> np.ndarray:
    """(n_resamples, n_pairs): sum over task slots of c' W c, one product per chunk and group."""
    n_runs = counts.shape[2]
    cells = n_tasks * n_runs * n_runs
    dtype = _exact_dtype(cells)
    from threadpoolctl import threadpool_limits

    total = np.empty((counts.shape[0], len(pairs)))
    group = max(1, _WIN_CELLS // cells)
    # one BLAS thread: products of ~100 rows run at ~60 GFLOP/s on one core, and two threads
    # spin-waiting on a busy 2-core machine ran them 20x slower (measured, load 8)
    with threadpool_limits(limits=1):
        _paired_groups(counts, slots, arrays, pairs, n_tasks, total, group, dtype)
    return total


def _paired_groups(counts, slots, arrays, pairs, n_tasks, total, group, dtype) -> None:
    n_runs = counts.shape[2]
    cells = n_tasks * n_runs * n_runs
    for g in range(0, len(pairs), group):
        wins = np.stack([_wins(arrays[x], arrays[y], dtype).ravel()
                         for x, y in pairs[g:g + group]], axis=1)     # (cells, G)
        for start in range(0, counts.shape[0], max(1, _COUNT_CELLS // cells)):
            c = counts[start:start + max(1, _COUNT_CELLS // cells)].astype(dtype)
            size = c.shape[0]
            outer = (c[:, :, :, None] * c[:, :, None, :]).reshape(size, -1)
            if slots is not None:            # the products summed into the tasks drawn
                target = ((np.arange(size)[:, None] * n_tasks + slots[start:start + size])
                          [:, :, None] * n_runs * n_runs + np.arange(n_runs * n_runs))
                outer = np.bincount(target.ravel(), weights=outer.ravel(),
                                    minlength=size * cells).reshape(size, cells).astype(dtype)
            total[start:start + size, g:g + wins.shape[1]] = outer @ wins


def _unpaired_total(cx, cy, slots, wins) -> np.ndarray:
    """(n,): sum over task slots of cx' W cy, for one pair (rows of its rotated draws)."""
    dtype = wins.dtype
    if slots is None:
        u = np.matmul(cx.transpose(1, 0, 2).astype(dtype), wins)     # (T, n, ny)
        return (u * cy.transpose(1, 0, 2)).sum(axis=(0, 2), dtype=float)
    return np.einsum("bsi,bsij,bsj->b", cx.astype(dtype), wins[slots], cy.astype(dtype),
                     optimize=True).astype(float)


def probabilities_of_improvement(scores: Mapping, pairs, *, n_resamples: int = 2000,
                                 alpha: float = 0.05, task_bootstrap: bool = False,
                                 paired: bool = False, random_state=0, progress: bool = False,
                                 shared: bool = True) -> dict:
    """P(X > Y) with its percentile interval for several pairs of models, on shared draws.

    Parameters
    ----------
    scores : mapping of str -> array_like of shape (n_runs, n_tasks)
        The models' scores (higher is better), the same tasks in the same order.
    pairs : sequence of (str, str)
        The pairs (X, Y), names of ``scores``.
    paired : bool
        True: run i of every model is drawn together (every model the same n_runs); each
        pair's resamples are then those of :func:`probability_of_improvement` with
        ``paired=True`` and the same seed. False: independent draws for X and Y.
    shared : bool
        Unpaired only: True (and at least as many resamples as models) draws one pool per run
        count, model j's resamples rotated by j places, so two models' resample k come from
        different draws; False draws each model on its own, in the order of ``scores``.
    n_resamples, alpha, task_bootstrap, random_state, progress
        As in :func:`outperform.stats.aggregate_runs`.

    Returns
    -------
    dict of (str, str) -> IntervalEstimate
        In the order of ``pairs``.

    Raises
    ------
    InvalidInputError
        Scores not 2-D or not finite, different task counts, ``paired`` with different run
        counts, an unknown model in ``pairs``, bad options, or more resamples than fit
        (:func:`outperform._cost.check_cost`).
    """
    arrays = {m: _check_scores(a, f"scores[{m!r}]") for m, a in scores.items()}
    pairs = [tuple(p) for p in pairs]
    unknown = sorted({str(m) for p in pairs for m in p if m not in arrays})
    if unknown:
        raise InvalidInputError(f"pairs name unknown models {unknown[:5]}; the models are "
                                f"{list(arrays)[:10]}.")
    if len({a.shape[1] for a in arrays.values()}) > 1:
        raise InvalidInputError("every model needs the same tasks in the same order; got task "
                                f"counts {sorted({a.shape[1] for a in arrays.values()})}.")
    if paired and len({a.shape for a in arrays.values()}) > 1:
        raise InvalidInputError("paired=True draws run i of every model together, so every "
                                "model needs the same runs; got run counts "
                                f"{sorted({a.shape[0] for a in arrays.values()})}.")
    confidence_level = _check_options(n_resamples, alpha)
    _check_tasks(arrays.values(), task_bootstrap)
    models = list(arrays)
    n_tasks = arrays[models[0]].shape[1]
    where, runs = _pools(models, arrays, paired, shared, n_resamples)
    largest = max((arrays[x].shape[0] * arrays[y].shape[0] for x, y in pairs), default=1)
    work = n_tasks * largest * max(len(pairs), 1)
    runs_cost(n_resamples, 8 * len(pairs) + n_tasks * (sum(runs) + 8 * task_bootstrap),
              3e-11 * work if paired and not task_bootstrap else 1.5e-10 * work,
              f"{len(pairs)} pair(s) x {n_tasks} tasks x {largest} run pairs")
    rng = check_random_state(random_state)
    sizes = _chunks(n_resamples, n_tasks * largest, _COUNT_CELLS)
    with progress_bar(len(pairs) + 1, progress, "stratified bootstrap, P(X > Y)") as advance:
        counts, slots = _draw(rng, sizes, n_tasks, runs, task_bootstrap)
        advance()
        if paired and len(pairs) >= _SHARED_PRODUCT_PAIRS:
            total = _paired_totals(counts[0], slots, arrays, pairs, n_tasks)
            advance(len(pairs))
        else:        # pair by pair (the same sums: the numbers do not depend on the path)
            total = np.empty((n_resamples, len(pairs)))
            for k, (x, y) in enumerate(pairs):
                (px, sx), (py, sy) = where[x], where[y]
                wins = _wins(arrays[x], arrays[y], _exact_dtype(n_tasks * arrays[x].shape[0]
                                                                * arrays[y].shape[0]))
                step = max(1, _COUNT_CELLS // (n_tasks * wins.shape[1] * wins.shape[2]))
                for start in range(0, n_resamples, step):
                    stop = min(start + step, n_resamples)
                    total[start:stop, k] = _unpaired_total(
                        counts[px][_rows(start, stop, sx, n_resamples)],
                        counts[py][_rows(start, stop, sy, n_resamples)],
                        None if slots is None else slots[start:stop], wins)
                advance()
    out = {}
    for k, (x, y) in enumerate(pairs):
        nx, ny = arrays[x].shape[0], arrays[y].shape[0]
        dist = total[:, k] / (nx * ny) / n_tasks
        estimate = float(_wins(arrays[x], arrays[y]).mean(axis=(1, 2)).mean())
        if nx == 1 and ny == 1:
            low, high = _interval(dist, confidence_level, arrays[x], task_bootstrap)
        else:
            low, high = _percentile_interval(dist, confidence_level)
        out[(x, y)] = IntervalEstimate("probability_of_improvement", estimate, float(low),
                                       float(high), confidence_level, task_bootstrap, dist)
    return out


@renamed(confidence_level="alpha")
def probability_of_improvement(scores_x, scores_y, *, n_resamples: int = 2000,
                               alpha: float = 0.05, task_bootstrap: bool = False,
                               paired: bool = False, random_state=0,
                               progress: bool = False) -> IntervalEstimate:
    """Average probability of improvement P(X > Y) of Agarwal et al. (2021), with its CI.

    On each task m, P(X_m > Y_m) is the probability that a random run of X scores above a
    random run of Y, ties counting one half: the Mann-Whitney U of X over Y divided by
    n_runs_x * n_runs_y. The estimate is its mean over tasks (``rliable.metrics.
    probability_of_improvement``). 0.5 means no difference; above 0.5 favours X.

    Parameters
    ----------
    scores_x, scores_y : array_like, shape (n_runs_x, n_tasks) and (n_runs_y, n_tasks)
        Scores of the two models on the same tasks in the same order; run counts may differ.
    paired : bool
        False (rliable's ``StratifiedIndependentBootstrap``): the runs of X and Y are
        resampled independently within each task. True: run i of X and run i of Y shared a
        seed or split and are drawn together (needs n_runs_x = n_runs_y). The estimate is the
        same; the interval reflects what the paired runs have in common.
    n_resamples, alpha, random_state, progress
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
        Different task counts, non-finite scores, ``paired`` with different run counts or bad
        options.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([[0.9, 0.6], [0.7, 0.8]])        # 2 runs x 2 tasks
    >>> y = np.array([[0.5, 0.6], [0.8, 0.4]])
    >>> probability_of_improvement(x, y, n_resamples=200).estimate    # (3/4 + 3.5/4) / 2
    0.8125
    """
    x, y = _check_scores(scores_x, "scores_x"), _check_scores(scores_y, "scores_y")
    if x.shape[1] != y.shape[1]:
        raise InvalidInputError(f"scores_x has {x.shape[1]} tasks and scores_y {y.shape[1]}; "
                                "both need the same tasks in the same order.")
    if paired and x.shape != y.shape:
        raise InvalidInputError(f"paired=True draws run i of X and Y together, so both need the "
                                f"same runs; got {x.shape[0]} and {y.shape[0]}.")
    return probabilities_of_improvement(
        {"x": x, "y": y}, [("x", "y")], n_resamples=n_resamples, alpha=alpha,
        task_bootstrap=task_bootstrap, paired=paired, random_state=random_state,
        progress=progress, shared=False)[("x", "y")]
