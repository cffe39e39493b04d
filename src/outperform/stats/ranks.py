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
