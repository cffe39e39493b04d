"""The stratified bootstrap of the four run aggregates, vectorised over resamples.

A resample draws, for each task slot, n_runs runs with replacement among that task's runs
(Agarwal et al. 2021; rliable's ``StratifiedBootstrap``). It is held as the drawn cells' flat
indices, so the aggregates of a chunk of resamples are a gather of the drawn scores, two
matrix-vector products and a sort of each resample's row, with no loop over resamples.
"""
from __future__ import annotations

import numpy as np

#: resamples per chunk ~ _CHUNK_CELLS / cells: the drawn indices of a chunk (8 bytes each) stay
#: in the processor's cache, where gathers and sorts run several times faster than from memory
_CHUNK_CELLS = 1 << 17
#: bound on the count entries held at once (resamples x runs x tasks), about 100 MB of floats
_COUNT_CELLS = 4_000_000


def _chunks(n_resamples: int, cells: int, budget: int = _CHUNK_CELLS):
    size = max(1, budget // max(cells, 1))
    return [min(size, n_resamples - start) for start in range(0, n_resamples, size)]


def _draws(rng, size: int, n_tasks: int, n_runs: int, task_bootstrap: bool) -> np.ndarray:
    """Drawn cells (size, n_tasks * n_runs), each ``task * n_runs + run``: resample b puts in
    places s * n_runs ... s * n_runs + n_runs - 1 the n_runs runs drawn (with replacement) for
    its task slot s, which is task s (tasks fixed) or a drawn task (``task_bootstrap``)."""
    runs = rng.integers(0, n_runs, size=(size, n_tasks * n_runs),
                        dtype=np.uint8 if n_runs <= 256 else np.int64)
    if task_bootstrap:
        base = np.repeat(rng.integers(0, n_tasks, size=(size, n_tasks)) * n_runs, n_runs, axis=1)
    else:
        base = np.repeat(np.arange(n_tasks) * n_runs, n_runs)
    return np.add(runs, base, dtype=np.intp)


def _run_counts(rng, size: int, n_slots: int, n_runs: int, dtype=float) -> np.ndarray:
    """Counts (size, n_slots, n_runs): n_runs draws with replacement among the runs, per slot.

    The draws are ``rng.integers(0, n_runs, (size * n_slots, n_runs))``: numpy's stream of
    bounded integers does not depend on how it is cut, so chunks of resamples drawn one after
    the other give the counts of one call with all of them."""
    draws = rng.integers(0, n_runs, size=(size * n_slots, n_runs))
    offsets = (np.arange(size * n_slots) * n_runs)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=size * n_slots * n_runs)
    return counts.reshape(size, n_slots, n_runs).astype(dtype)


def _exact_dtype(largest: float):
    """float32 when every integer (or half-integer) sum up to ``largest`` is exact in it (the
    count products of the profiles and of P(X > Y)), else float64: the same numbers either
    way, float32's products about twice as fast."""
    return np.float32 if 2 * largest < 2 ** 24 else np.float64


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


class _Kernel:
    """The four aggregates of one (n_runs, n_tasks) score matrix on many resamples at once.

    Each resample's drawn scores are gathered task slot by task slot: per-slot means (for the
    median) are one matrix-vector product, the mean and the optimality gap one more, and the
    IQM the mean of the middle half of the row after an in-place row sort (numpy sorts float32
    rows with SIMD instructions). Resamples use float32 copies of the scores (their error,
    ~1e-7 relative, is far below the Monte Carlo error of an interval); the estimate float64.
    """

    def __init__(self, x: np.ndarray, gamma: float, dtype=np.float32):
        self.n_runs, self.n_tasks = x.shape
        flat = x.T.ravel()                    # cell task * n_runs + run
        # The aggregates are homogeneous (f(c x; c gamma) = c f(x; gamma), c > 0): scores
        # beyond float32's range (~3e38) or near its smallest normal numbers are divided by
        # their largest magnitude, and the caller multiplies the results by ``scale``.
        top = float(np.max(np.abs(flat)))
        self.scale = top if np.dtype(dtype) == np.float32 and (top > 1e30 or 0 < top < 1e-30) \
            else 1.0
        flat, gamma = flat / self.scale, gamma / self.scale
        n = flat.size
        self.flat = flat.astype(dtype)
        self.gamma = gamma
        # no score above gamma: min(x, gamma) = x and the optimality gap is gamma - mean
        # (rescaled scores keep min(x, gamma) in float64: gamma / scale may be below float32's
        # smallest numbers, e.g. gamma = 1 against scores of 1e300)
        self.clipped = None if flat.max() <= gamma else np.minimum(flat, gamma).astype(
            dtype if self.scale == 1.0 else np.float64)
        self.low = int(0.25 * n)             # scipy.stats.trim_mean(..., 0.25) cuts int(0.25 n)
        self.run_weights = np.full(self.n_runs, 1 / self.n_runs, dtype)
        self.cell_weights = np.full(n, 1 / n, dtype)
        self.middle_weights = np.full(n - 2 * self.low, 1 / (n - 2 * self.low), dtype)

    def __call__(self, cells: np.ndarray, statistics) -> np.ndarray:
        """Statistics (size, n_statistics) of the resamples ``cells`` (from ``_draws``)."""
        size, n = cells.shape
        values = self.flat.take(cells)
        found = {}
        if "median" in statistics:   # np.median's middle pair of the sorted slot means
            slots = np.sort((values.reshape(-1, self.n_runs) @ self.run_weights
                             ).reshape(size, self.n_tasks), axis=1)
            found["median"] = (slots[:, (self.n_tasks - 1) // 2] + slots[:, self.n_tasks // 2]) / 2
        mean = values @ self.cell_weights
        found["mean"] = mean
        if "optimality_gap" in statistics:
            if self.scale == 1.0:
                kept = mean if self.clipped is None else self.clipped.take(cells) @ self.cell_weights
            else:    # rescaled: gamma / scale may lie outside float32's range, so float64
                kept = (mean.astype(np.float64) if self.clipped is None else
                        self.clipped.take(cells).mean(axis=1))
            found["optimality_gap"] = self.gamma - kept
        if "iqm" in statistics:      # trim_mean(resample, 0.25, axis=None): sorted middle
            values.sort(axis=1)
            found["iqm"] = values[:, self.low:n - self.low] @ self.middle_weights
        return np.column_stack([found[name] for name in statistics])
