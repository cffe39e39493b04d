"""Ranks of k models on each of N data sets (Demšar 2006, §3.2.2).

Rank 1 is the best model on a data set; tied scores share the average of the ranks they
span ("midranks"), as in Demšar's Table 6.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from .._validation import as_score_matrix


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


def rank_with_tolerance(values, *, atol: float = 0.0) -> np.ndarray:
    """Ascending midranks of a 1-D array, treating values closer than ``atol`` as ties.

    Computed quantities such as aligned scores (score minus the data set's mean) or ranges
    (best minus worst score) can differ by a rounding error where they are mathematically
    equal (0.3 - 0.1 != 0.4 - 0.2 in floating point), which would break ties arbitrarily.
    Sorted values whose gap to the previous one is at most ``atol`` join its tie group.

    Parameters
    ----------
    values : ndarray, shape (m,)
    atol : float, default 0.0
        Largest gap between consecutive sorted values that still counts as a tie.

    Returns
    -------
    ndarray, shape (m,)
        Rank 1 for the smallest value; a tie group gets the average of its ranks.

    Examples
    --------
    >>> rank_with_tolerance(np.array([0.3 - 0.1, 0.4 - 0.2, 0.1]), atol=1e-12)
    array([2.5, 2.5, 1. ])
    """
    values = np.asarray(values, dtype=float)
    order = np.argsort(values, kind="stable")
    new_group = np.diff(values[order]) > atol
    groups = np.empty(values.size, dtype=np.int64)
    groups[order] = np.concatenate(([0], np.cumsum(new_group)))
    return rankdata(groups)
