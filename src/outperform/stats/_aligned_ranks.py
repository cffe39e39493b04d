"""Friedman aligned ranks test (Hodges & Lehmann 1962; García et al. 2010)."""
from __future__ import annotations

import numpy as np
from scipy.stats import chi2

from .._validation import DegenerateDataError, as_score_matrix
from ..results import FrequentistResult
from ._ranks import RELATIVE_TIE_TOLERANCE, rank_with_tolerance


def friedman_aligned_ranks(scores, *, higher_is_better: bool = True) -> FrequentistResult:
    """Friedman aligned ranks test that k models perform equally over N data sets.

    Each data set's mean score is subtracted from its scores (alignment), and the N*k
    aligned values are ranked together, so that a large win on one data set weighs more
    than a small win on another, unlike Friedman's within-data-set ranks.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets, columns are models. Scores
        must be commensurable across data sets (same metric and scale), since aligned
        values of different data sets are compared with each other.
    higher_is_better : bool, default True
        False for losses or error rates. Only the reported aligned ranks depend on it.

    Returns
    -------
    FrequentistResult
        ``statistic`` T = (k - 1) sum_j (Rhat_j - N(kN+1)/2)^2 /
        (sum_ij rhat_ij^2 - (1/k) sum_i Rhat_i^2), with rhat_ij the aligned rank (1 = best)
        of model j on data set i, Rhat_j its column total and Rhat_i the row total;
        ``pvalue`` from chi-square with ``df`` = k - 1. ``details``: ``average_aligned_ranks``
        (Rhat_j / N, 1 = best), ``n_datasets``, ``n_models``.

    Raises
    ------
    InvalidInputError
        Non-numeric values, NaN, or ``scores`` not 2-D.
    TooFewError
        Fewer than 2 data sets or 2 models.
    DegenerateDataError
        All models tie on every data set.

    Notes
    -----
    Hodges & Lehmann (1962) aligned ranks; statistic as in García, Fernández, Luengo &
    Herrera (2010), Information Sciences 180, §3 ("Friedman aligned ranks test"), whose
    denominator is [kN(kN+1)(2kN+1)/6] - (1/k) sum_i Rhat_i^2. That form assumes no ties
    among the aligned values; here the sum of squared aligned (mid)ranks replaces
    kN(kN+1)(2kN+1)/6, which is equal without ties and is the exact within-data-set
    permutation variance with ties (e.g. data sets where all models score the same).
    Aligned values within 1e-10 * max|score| of each other count as tied, so that rounding
    errors of the alignment do not break ties.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]
    >>> res = friedman_aligned_ranks(scores)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (7.13, 0.0283, 2)
    """
    x = as_score_matrix(scores)
    n, k = x.shape
    aligned = x - x.mean(axis=1, keepdims=True)
    # Aligned values equal up to rounding (from different data sets) are ties.
    atol = RELATIVE_TIE_TOLERANCE * max(np.max(np.abs(x)), np.finfo(float).tiny)
    ranks = rank_with_tolerance((-aligned if higher_is_better else aligned).ravel(),
                                atol=atol).reshape(n, k)
    col_totals = ranks.sum(axis=0)
    row_totals = ranks.sum(axis=1)
    denominator = np.sum(ranks ** 2) - np.sum(row_totals ** 2) / k
    if denominator <= 1e-9 * np.sum(ranks ** 2):
        raise DegenerateDataError(
            "every data set ties all models (all scores equal within each row): the aligned "
            "ranks carry no information, so the test is undefined.")
    stat = (k - 1) * np.sum((col_totals - n * (k * n + 1) / 2.0) ** 2) / denominator
    return FrequentistResult(
        statistic=float(stat), pvalue=float(chi2.sf(stat, k - 1)),
        method="Friedman aligned ranks test", df=k - 1,
        details={"average_aligned_ranks": (col_totals / n).tolist(), "n_datasets": n,
                 "n_models": k, "higher_is_better": higher_is_better})
