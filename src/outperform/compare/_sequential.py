"""Sequential evaluation: paired comparisons monitored after every item, and racing.

An evaluation that is looked at after every batch and stopped when its answer is clear needs
intervals valid at every look at once — confidence sequences
(:func:`outperform.stats.betting_confidence_sequence`). Here they are applied to the paired
difference ``candidate − baseline`` of bounded per-item scores: the decision after any look
(superior / non-inferior / regression / continue) has error probability at most ``alpha``
however many looks were taken (Waudby-Smith & Ramdas 2024; Howard et al. 2021 for the
principle). A fixed-n interval checked after every item does not: with 5,000 looks its
error rate is several times alpha (``tests/compare/test_sequential.py`` prints both).
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ..results._sequential import ConfidenceSequence, Race, SequentialComparison
from ..stats._confseq import BettingConfidenceSequence, betting_crossing_times


def _margin(margin: float, width: float) -> float:
    margin = float(margin)
    if not np.isfinite(margin) or margin < 0:
        raise InvalidInputError(f"margin must be a number ≥ 0 (the largest loss tolerated, in the "
                                f"units of the score), got {margin!r}.")
    if margin >= width:
        raise InvalidInputError(f"margin {margin:g} is not smaller than the range of the scores "
                                f"({width:g}): every candidate would pass. Is it in percent?")
    return margin


def _paired(baseline, candidate, bounds) -> np.ndarray:
    base = np.asarray(baseline, dtype=float)
    cand = np.asarray(candidate, dtype=float)
    if base.ndim != 1 or cand.shape != base.shape:
        raise InvalidInputError(
            f"baseline and candidate must be per-item scores of the same items in the same "
            f"order (1-D, equal length); got shapes {base.shape} and {cand.shape}.")
    lo, hi = bounds
    for name, values in (("baseline", base), ("candidate", cand)):
        if values.size and (not np.isfinite(values).all() or values.min() < lo or values.max() > hi):
            raise InvalidInputError(
                f"{name} has scores outside the bounds [{lo:g}, {hi:g}] or missing: a sequential "
                "comparison needs every item scored within known bounds (pass bounds=).")
    return cand - base


def decide(lower: np.ndarray, upper: np.ndarray, margin: float) -> np.ndarray:
    """The decision at each look from the interval ``[lower, upper]`` of candidate − baseline.

    "superior" if ``lower > 0``; else "non-inferior" if ``margin > 0`` and ``lower > −margin``;
    "regression" if ``upper < −margin`` (``upper < 0`` when ``margin = 0``); else "continue".

    >>> decide(np.array([0.01, -0.02, -0.2, -0.1]), np.array([0.2, 0.1, -0.06, 0.1]), 0.05).tolist()
    ['superior', 'non-inferior', 'regression', 'continue']
    """
    out = np.full(lower.shape, "continue", dtype=object)
    out[upper < -margin] = "regression"
    if margin > 0:
        out[lower > -margin] = "non-inferior"
    out[lower > 0] = "superior"
    return out.astype(str)


class SequentialGate:
    """A paired comparison fed batch by batch; stops being "continue" once decided.

    Parameters
    ----------
    margin : float
        Non-inferiority margin in the units of the score (≥ 0); 0 tests superiority and
        regression only.
    alpha : float
        Probability of any wrong decision over all looks.
    bounds : (float, float)
        Known bounds of one item's score (0/1 correctness: the default).
    population : int, optional
        Size N of the benchmark when its items are evaluated in a random order: the decision
        is then about the mean over all N items (sampling without replacement).
    grid : int
        Resolution of the confidence sequence (its bounds are conservative by at most
        ``2 · (upper − lower) / grid``).

    Examples
    --------
    >>> gate = SequentialGate(margin=0.05, alpha=0.05)
    >>> rng = np.random.default_rng(1)
    >>> base = rng.binomial(1, 0.8, 3000)
    >>> cand = np.where(rng.random(3000) < 0.9, base, rng.binomial(1, 0.8, 3000))
    >>> result = gate.update(base[:1000], cand[:1000])
    >>> result = gate.update(base[1000:], cand[1000:])
    >>> result.decision, result.stopped_at
    ('non-inferior', 176)
    """

    def __init__(self, *, margin: float = 0.0, alpha: float = 0.05,
                 bounds: tuple[float, float] = (0.0, 1.0), population: int | None = None,
                 grid: int = 1000, baseline: str = "baseline", candidate: str = "candidate"):
        lo, hi = (float(b) for b in bounds)
        if not lo < hi:
            raise InvalidInputError(f"bounds must be lower < upper, got {bounds!r}.")
        self.bounds = (lo, hi)
        self.margin = _margin(margin, hi - lo)
        self.names = (str(baseline), str(candidate))
        self._stream = BettingConfidenceSequence(alpha=alpha, bounds=(lo - hi, hi - lo), grid=grid,
                                                 population=population)

    def update(self, baseline, candidate) -> SequentialComparison:
        """Add the next items' scores (same items, same order in both); returns the comparison so far."""
        difference = _paired(baseline, candidate, self.bounds)
        sequence = self._stream.update(difference) if difference.size else self._stream.result()
        return _comparison(sequence, self.margin, self.names)


def _comparison(sequence: ConfidenceSequence, margin: float, names) -> SequentialComparison:
    decisions = decide(sequence.lower, sequence.upper, margin)
    decided = decisions != "continue"
    stopped = int(np.argmax(decided)) + 1 if decided.any() else 0
    return SequentialComparison(
        baseline=names[0], candidate=names[1], sequence=sequence, margin=margin,
        decisions=decisions, decision=str(decisions[stopped - 1]) if stopped else "continue",
        stopped_at=stopped, n_items=sequence.n)


def sequential_compare(baseline, candidate, *, margin: float = 0.0, alpha: float = 0.05,
                       bounds: tuple[float, float] = (0.0, 1.0), population: int | None = None,
                       grid: int = 1000, names: tuple[str, str] = ("baseline", "candidate")
                       ) -> SequentialComparison:
    """Paired comparison of two runs monitored after every item (anytime-valid).

    Parameters
    ----------
    baseline, candidate : array_like, shape (n,)
        Per-item scores of the same items, in the order they were evaluated (higher is
        better; negate a loss), within ``bounds``.
    margin, alpha, bounds, population, grid
        As in :class:`SequentialGate`.
    names : (str, str)

    Returns
    -------
    SequentialComparison
        The confidence sequence of the mean of ``candidate − baseline`` after every item, the
        decision at each look, the first decision reached and the look that reached it.

    Raises
    ------
    InvalidInputError
        Arrays of different lengths, scores outside ``bounds``, a negative margin or one as
        large as the range of the scores (a percentage given for a proportion).

    Notes
    -----
    Items must arrive in a random order (or be a random sample): the sequence is for the mean
    of the distribution they are drawn from — with ``population=N``, of the N items of the
    benchmark. A benchmark evaluated in the order of its file (often sorted by subtask) breaks
    this; shuffle it once, with a seed, before evaluating.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.binomial(1, 0.85, 2000)
    >>> cand = np.where(rng.random(2000) < 0.95, base, 0)       # 4 points worse
    >>> result = sequential_compare(base, cand, margin=0.01)
    >>> result.decision, result.stopped_at, result.n_items
    ('regression', 295, 2000)
    """
    gate = SequentialGate(margin=margin, alpha=alpha, bounds=bounds, population=population,
                          grid=grid, baseline=names[0], candidate=names[1])
    return gate.update(baseline, candidate)


def race(scores, *, models=None, alpha: float = 0.05,
         bounds: tuple[float, float] = (0.0, 1.0)) -> Race:
    """Race several models on the same items: drop each as soon as it cannot be the best.

    Model ``i`` is dropped at the first look at which, for some model ``j``, the confidence
    sequence of the mean of ``score_j − score_i`` lies above 0 (``j`` is better, anytime-
    valid). Every pair's sequence is at level ``alpha / (k (k − 1) / 2)`` (Bonferroni), so the
    survivors contain every best model with probability at least ``1 − alpha`` at all looks.
    Uses the grid-free betting test (:func:`outperform.stats.betting_crossing_times`), all
    pairs at once.

    Parameters
    ----------
    scores : array_like, shape (n_items, k)
        Per-item scores of k models on the same items, in evaluation order, within ``bounds``;
        higher is better.
    models : sequence of str, optional
        Names (default ``model_0`` ...).

    Returns
    -------
    Race

    Examples
    --------
    >>> rng = np.random.default_rng(3)
    >>> truth = rng.random(1500)
    >>> scores = np.column_stack([truth < p for p in (0.6, 0.75, 0.9)]).astype(float)
    >>> result = race(scores, models=["small", "medium", "large"])
    >>> result.survivors, result.dropped_at.tolist()
    (('large',), [39, 73, 0])
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or scores.shape[1] < 2:
        raise InvalidInputError(f"scores must be a table of items × models with at least two "
                                f"models; got shape {scores.shape}.")
    k = scores.shape[1]
    models = tuple(f"model_{i}" for i in range(k)) if models is None else tuple(map(str, models))
    if len(models) != k or len(set(models)) != k:
        raise InvalidInputError(f"models must be {k} distinct names, got {models!r}.")
    lo, hi = (float(b) for b in bounds)
    _paired(scores.ravel(), scores.ravel(), (lo, hi))
    i, j = np.triu_indices(k, 1)
    difference = (scores[:, j] - scores[:, i]).T                     # (pairs, n): j − i
    times = betting_crossing_times(difference, 0.0, alpha=alpha / i.size,
                                   bounds=(lo - hi, hi - lo), signed=True)
    j_better, i_better = np.maximum(times, 0), np.maximum(-times, 0)
    loser = np.concatenate([i, j])
    winner = np.concatenate([j, i])
    when = np.concatenate([j_better, i_better])
    dropped = np.zeros(k, dtype=int)
    by: list[str | None] = [None] * k
    order = np.argsort(np.where(when > 0, when, np.iinfo(int).max), kind="stable")
    for pair in order[when[order] > 0]:                       # at most k(k−1) events, sorted
        if dropped[loser[pair]] == 0:
            dropped[loser[pair]] = when[pair]
            by[loser[pair]] = models[winner[pair]]
    survivors = tuple(m for m, d in zip(models, dropped) if d == 0)
    return Race(models=models, dropped_at=dropped, dropped_by=tuple(by), survivors=survivors,
                alpha=float(alpha), n_items=scores.shape[0])
