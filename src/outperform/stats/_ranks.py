"""Ranks of k models on each of N data sets (Demšar 2006, §3.2.2).

Rank 1 is the best model on a data set; tied scores share the average of the ranks they
span ("midranks"), as in Demšar's Table 6. Also: ranking with a tolerance for values equal
up to rounding, and the default tolerance of near-ties in paired differences.
"""
from __future__ import annotations

from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy.stats import rankdata

from .._validation import InvalidInputError, TooFewError, as_score_matrix

#: Default tolerance of near-ties in paired differences, relative to the magnitude of the
#: scores, see :func:`paired_tie_tolerance`.
RELATIVE_TIE_TOLERANCE = 1e-10


def rank_scores(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Rank the models on each data set, 1 = best, ties getting their average rank.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets, columns are models.
    higher_is_better : bool, default True
        True for scores such as accuracy or AUC, False for losses or error rates.

    Returns
    -------
    ndarray, shape (N, k)
        ``ranks[i, j]`` is the rank of model ``j`` on data set ``i``; each row sums to
        k(k+1)/2.

    Raises
    ------
    InvalidInputError
        Non-numeric values, NaN or infinities, or ``scores`` not 2-D.
    TooFewError
        Fewer than 1 data set or 2 models.

    Notes
    -----
    Demšar (2006), §3.2.2: "the best performing algorithm getting the rank of 1, the second
    best rank 2, ...; in case of ties, average ranks are assigned".

    Examples
    --------
    >>> rank_scores([[0.90, 0.80, 0.80], [0.70, 0.75, 0.60]])
    array([[1. , 2.5, 2.5],
           [2. , 1. , 3. ]])
    >>> rank_scores([[0.10, 0.20, 0.30]], higher_is_better=False)
    array([[1., 2., 3.]])
    """
    arr = as_score_matrix(scores, min_tasks=1)
    # rankdata ranks ascending, so negate scores for which higher is better.
    return rankdata(-arr if higher_is_better else arr, axis=1)


def average_ranks(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Average rank of each model over the data sets (Demšar's R_j), 1 = best.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns are models.
    higher_is_better : bool, default True
        False for losses or error rates.

    Returns
    -------
    ndarray, shape (k,)
        R_j = (1/N) sum_i r_ij; the values sum to k(k+1)/2.

    Raises
    ------
    InvalidInputError, TooFewError
        As :func:`rank_scores`.

    Examples
    --------
    >>> average_ranks([[0.90, 0.80, 0.80], [0.70, 0.75, 0.60]])
    array([1.5 , 1.75, 2.75])
    """
    return rank_scores(scores, higher_is_better=higher_is_better).mean(axis=0)


@dataclass(frozen=True)
class RankedScores:
    """The ranks of an (N, k) score matrix, computed once and shared by the rank tests.

    Build it with :func:`ranked_scores`. The Friedman and Iman–Davenport tests, the Nemenyi,
    Bonferroni–Dunn and rank z post-hoc tests accept it in place of ``scores`` (with the same
    ``higher_is_better``), so that a pipeline ranks the matrix once instead of once per test.

    Attributes
    ----------
    ranks : ndarray, shape (N, k)
        ``rank_scores(scores, higher_is_better=higher_is_better)``: 1 = best, midranks.
    average : ndarray, shape (k,)
        Average rank of each model, ``ranks.mean(axis=0)`` (Demšar's R_j).
    row_spread : ndarray, shape (N,)
        Per data set, sum_j (r_ij - (k + 1)/2)^2 = (k^3 - k)/12 - sum_g (t_g^3 - t_g)/12 over
        its groups of t_g tied models: the tie structure Friedman's tie correction uses.
        The ranks are multiples of 1/2, so these sums are exact in floating point in any
        order; a data set has ties exactly when its value is below (k^3 - k)/12.
    higher_is_better : bool
    """

    ranks: np.ndarray
    average: np.ndarray
    row_spread: np.ndarray
    higher_is_better: bool

    @property
    def tied_rows(self) -> np.ndarray:
        """Boolean (N,): the data sets on which some models tie."""
        k = self.ranks.shape[1]
        return self.row_spread < (k ** 3 - k) / 12.0


def ranked_scores(scores, *, higher_is_better: bool = True, min_tasks: int = 1
                  ) -> RankedScores:
    """Rank ``scores`` once for several rank tests; a :class:`RankedScores` passes through.

    Parameters
    ----------
    scores : array_like, shape (N, k), or RankedScores
    higher_is_better : bool, default True
    min_tasks : int
        Fewest data sets (rows) accepted.

    Raises
    ------
    InvalidInputError
        As :func:`rank_scores`; a ``RankedScores`` ranked in the other direction.
    TooFewError
        Fewer than ``min_tasks`` data sets or 2 models.

    Examples
    --------
    >>> r = ranked_scores([[0.90, 0.80, 0.80], [0.70, 0.75, 0.60]])
    >>> r.average, r.tied_rows
    (array([1.5 , 1.75, 2.75]), array([ True, False]))
    """
    if isinstance(scores, RankedScores):
        if scores.higher_is_better != higher_is_better:
            raise InvalidInputError(
                f"these ranks were computed with higher_is_better={scores.higher_is_better}, "
                f"but higher_is_better={higher_is_better} was asked for: rank the scores "
                "again in that direction.")
        n = scores.ranks.shape[0]
        if n < min_tasks:   # the message of as_score_matrix
            raise TooFewError(f"scores has {n} data set(s) (rows); this procedure needs at "
                              f"least {min_tasks}.")
        return scores
    arr = as_score_matrix(scores, min_tasks=min_tasks)
    ranks = _midranks(-arr if higher_is_better else arr)   # = rank_scores(scores)
    k = ranks.shape[1]
    return RankedScores(ranks=ranks, average=ranks.mean(axis=0),
                        row_spread=np.sum((ranks - (k + 1) / 2.0) ** 2, axis=1),
                        higher_is_better=higher_is_better)



def _midranks(a: np.ndarray) -> np.ndarray:
    """``scipy.stats.rankdata(a, axis=1)`` of a finite 2-D array, the same numbers faster.

    One unstable argsort per row (tied values get one rank whatever their order; scipy's
    stable sort costs twice as much), then the midrank (first + last position of a run of
    equal sorted values) / 2 + 1 of each run: half-integers, exact in floating point.
    """
    n, k = a.shape
    order = np.argsort(a, axis=1)
    ordered = np.take_along_axis(a, order, axis=1)
    starts = np.empty((n, k), dtype=bool)
    starts[:, 0] = True   # a run never spans two rows
    np.not_equal(ordered[:, 1:], ordered[:, :-1], out=starts[:, 1:])
    flat = starts.ravel()
    first = np.flatnonzero(flat)
    if first.size == n * k:   # no ties
        mid = np.broadcast_to(np.arange(1.0, k + 1), (n, k))
    else:
        last = np.empty_like(first)
        last[:-1] = first[1:] - 1
        last[-1] = n * k - 1
        run_mid = (first + last) * 0.5 - (first // k) * k + 1.0
        mid = run_mid[np.cumsum(flat) - 1].reshape(n, k)
    ranks = np.empty((n, k))
    np.put_along_axis(ranks, order, mid, axis=1)
    return ranks

def rank_with_tolerance(values, *, atol=0.0, keep=None) -> np.ndarray:
    """Ascending midranks along the last axis, treating values closer than ``atol`` as ties.

    Computed quantities such as aligned scores (score minus the data set's mean), ranges
    (best minus worst score) or paired differences can differ by a rounding error where they
    are mathematically equal (0.3 - 0.1 != 0.4 - 0.2 in floating point), which would break
    ties arbitrarily.

    Rule: sorted values whose gap to the previous one is at most ``atol`` (the larger of the
    two values' tolerances) join its tie group, *as long as the whole group spans at most
    ``atol``* (the largest tolerance in it). Rounding errors are far smaller than the
    tolerance, so a group of true near-ties is much narrower; a chain such as 0.1,
    0.1 + atol/2, 0.1 + atol, 0.1 + 3 atol/2, ... that spans more than ``atol`` is made of
    genuinely different values, and its values are compared exactly instead of being merged
    into one ever-wider tie. The rule is symmetric: ranking ``-values`` reverses the ranks.

    Parameters
    ----------
    values : ndarray, shape (..., m)
        Each row (along the last axis) is ranked on its own; a row gets the same ranks
        alone or in a batch.
    atol : float or ndarray broadcastable to ``values``, default 0.0
        Largest gap that still counts as a tie; per value if an array (a gap uses the larger
        tolerance of its two ends). 0 compares exactly, as :func:`scipy.stats.rankdata`.
    keep : ndarray of bool broadcastable to ``values``, optional
        Values to rank; the others (e.g. dropped zero differences) are left out of their
        row's ranking and get NaN, as ``scipy.stats.rankdata(..., nan_policy="omit")``.

    Returns
    -------
    ndarray, shape of ``values``
        Rank 1 for the smallest value of a row; a tie group gets the average of its ranks.

    Examples
    --------
    >>> rank_with_tolerance(np.array([0.3 - 0.1, 0.4 - 0.2, 0.1]), atol=1e-12)
    array([2.5, 2.5, 1. ])
    >>> rank_with_tolerance(np.array([0.0, 0.5, 1.0, 1.5]), atol=0.6)  # a chain: not merged
    array([1., 2., 3., 4.])
    >>> rank_with_tolerance(np.array([[3.0, 0.0, 1.0], [2.0, 2.0, 5.0]]),
    ...                     keep=np.array([[True, False, True], [True, True, True]]))
    array([[2. , nan, 1. ],
           [1.5, 1.5, 3. ]])
    """
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return np.empty(values.shape)
    m = values.shape[-1]
    rows = values.reshape(-1, m)
    kept = np.ones(rows.shape, dtype=bool) if keep is None else \
        np.broadcast_to(keep, values.shape).reshape(rows.shape)
    # Left-out values go last, each alone (+inf, tolerance 0): the others' ranks stay.
    rows = np.where(kept, rows, np.inf)
    tol = np.where(kept, np.broadcast_to(np.asarray(atol, dtype=float), values.shape)
                   .reshape(rows.shape), 0.0)
    order = np.argsort(rows, axis=-1, kind="stable")
    v = np.take_along_axis(rows, order, axis=-1)
    t = np.take_along_axis(tol, order, axis=-1)
    with np.errstate(invalid="ignore"):     # inf - inf between left-out values: no tie
        gaps = np.diff(v, axis=-1)
        joined = gaps <= np.maximum(t[:, :-1], t[:, 1:])
        # The rows laid end to end: the first value of a row always starts a group.
        starts = np.concatenate((np.ones((v.shape[0], 1), dtype=bool), ~joined), axis=1)
        flat_v, flat_t = v.ravel(), t.ravel()
        first = np.flatnonzero(starts)
        last = np.concatenate((first[1:], [flat_v.size])) - 1
        too_wide = flat_v[last] - flat_v[first] > np.maximum.reduceat(flat_t, first)
    group = (np.cumsum(starts) - 1).reshape(v.shape)      # group of each sorted value
    # Inside a chain wider than its tolerance, every nonzero gap separates values.
    new_group = ~joined | ((gaps > 0) & too_wide[group[:, 1:]])
    groups = np.empty(v.shape, dtype=np.int64)
    np.put_along_axis(groups, order, np.concatenate(
        (np.zeros((v.shape[0], 1), dtype=np.int64), np.cumsum(new_group, axis=-1)), axis=-1),
        axis=-1)
    ranks = np.where(kept, rankdata(groups, axis=-1), np.nan)
    return ranks.reshape(values.shape)


def paired_tie_tolerance(x: np.ndarray, y: np.ndarray, tie_tolerance=None) -> np.ndarray:
    """Per pair, the largest difference ``x_i - y_i`` that is a rounding error, not a win.

    Parameters
    ----------
    x, y : ndarray, shape (n,)
        Paired measurements (already validated).
    tie_tolerance : float >= 0 or None
        ``None``: ``RELATIVE_TIE_TOLERANCE * max(|x_i|, |y_i|)`` (scale-free; see Notes).
        A number: that absolute tolerance, in the units of the measurements, for every pair.
        0 compares exactly.

    Returns
    -------
    ndarray, shape (n,)

    Raises
    ------
    InvalidInputError
        ``tie_tolerance`` negative, NaN, infinite or not a number.

    Notes
    -----
    Scores stored as decimals (0.1, 0.3, ...) are the nearest doubles, off by up to half an
    ulp, about 1.1e-16 of their magnitude; a difference of two of them inherits that error
    (0.3 - 0.1 = 0.19999999999999998, 0.1 + 0.2 - 0.3 = 5.6e-17). Scores computed by sums or
    means carry a few more ulps. The default, 1e-10 of the larger magnitude of the pair,
    leaves a margin of about 10**5 over those errors, yet is below the difference of any two
    distinct scores written with up to 9 significant digits (at least 1e-9 of their
    magnitude). Being relative, it does not change when the scores are rescaled (accuracy in
    % or as a fraction). The aligned-ranks and Quade tests use the same relative tolerance.
    Differences genuinely smaller than 1e-10 of the scores count as ties: pass
    ``tie_tolerance=0`` for exact comparison.

    Examples
    --------
    >>> x, y = np.array([0.1 + 0.2, 30.0]), np.array([0.3, 10.0])
    >>> bool((x - y)[0] != 0), bool(abs(x - y)[0] <= paired_tie_tolerance(x, y)[0])
    (True, True)
    >>> paired_tie_tolerance(x, y, 0.001)
    array([0.001, 0.001])
    """
    if tie_tolerance is None:
        return RELATIVE_TIE_TOLERANCE * np.maximum(np.abs(x), np.abs(y))
    if (isinstance(tie_tolerance, (bool, np.bool_)) or not isinstance(tie_tolerance, Real)
            or not np.isfinite(tie_tolerance) or tie_tolerance < 0):
        raise InvalidInputError(
            f"tie_tolerance must be a finite number >= 0 (the largest difference, in the units "
            f"of the scores, counted as a tie; 0 compares exactly as scipy does) or None for "
            f"the default relative tolerance, got {tie_tolerance!r}.")
    return np.full(x.shape, float(tie_tolerance))
