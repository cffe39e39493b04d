"""Quade's test for k models over N data sets, weighting data sets by their range (Quade 1979)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.stats import f as f_dist, t as t_dist

from .._names import model_names
from .._validation import DegenerateDataError, as_score_matrix, check_choice, check_probability
from ..results import FrequentistResult, PairwiseResult
from ._multipletests import ADJUSTMENTS, adjust_pvalues
from ._posthoc import _pairs_result, _symmetric, _tested_pairs
from ._friedman import _identical_rankings_pvalue
from ._ranks import RELATIVE_TIE_TOLERANCE, rank_scores, rank_with_tolerance


def quade(scores, *, higher_is_better: bool = True) -> FrequentistResult:
    """Quade's test that k models perform equally over N data sets.

    Like Friedman's test it ranks the models within each data set, but weights each data
    set by the rank of its range (best minus worst score), so that data sets on which the
    models differ more count more.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets, columns are models. Ranges
        are compared across data sets, so scores should be on a common scale.
    higher_is_better : bool, default True
        False for losses or error rates. Only the reported rankings depend on it.

    Returns
    -------
    FrequentistResult
        ``statistic`` F = (N - 1) B / (A - B) with S_ij = Q_i (r_ij - (k+1)/2),
        A = sum_ij S_ij^2, B = (1/N) sum_j (sum_i S_ij)^2, r_ij the rank of model j on data
        set i (1 = best) and Q_i the rank of data set i's range (midranks for ties);
        ``pvalue`` from F with ``df`` = (k - 1, (k - 1)(N - 1)). ``details``:
        ``quade_rankings`` T_j = sum_i Q_i r_ij / (N(N+1)/2) (García et al. 2010; 1 = best),
        ``average_ranks``, ``n_datasets``, ``n_models``, ``perfect_agreement``. If A = B
        (every data set ranks the models identically with equal weights), F is infinite
        and the p-value is the exact permutation probability (k!)^(1 - N) (Conover 1999,
        p. 374), as in R's ``quade.test``.

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
    Quade (1979), J. Amer. Statist. Assoc. 74, 680-683; Conover (1999), Practical
    Nonparametric Statistics, 3rd ed., pp. 373-380; García, Fernández, Luengo & Herrera
    (2010), Information Sciences 180, §3. A uses the actual squared S_ij, so ties are
    handled as in R's ``quade.test``, which this matches. Ranges within 1e-10 * max|score|
    of each other count as tied, so that rounding errors do not break ties.

    Examples
    --------
    R's ``quade.test`` help page (Conover 1999, p. 375: five brands of hand lotion sold in
    seven stores; rows are stores):

    >>> sales = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35],
    ...          [5, 4, 3, 5, 4], [10, 9, 7, 13, 10], [19, 18, 28, 37, 58],
    ...          [10, 7, 6, 8, 7]]
    >>> res = quade(sales)
    >>> round(res.statistic, 4), round(res.pvalue, 5), res.df
    (3.8293, 0.01519, (4, 24))
    """
    x, ranks, weights, s, a, b = _quade_core(scores, higher_is_better)
    n, k = x.shape
    df1, df2 = k - 1, (k - 1) * (n - 1)
    perfect = a - b <= 1e-12 * a
    if perfect:
        stat, pvalue = np.inf, _identical_rankings_pvalue(ranks)
    else:
        stat = (n - 1) * b / (a - b)
        pvalue = float(f_dist.sf(stat, df1, df2))
    return FrequentistResult(
        statistic=float(stat), pvalue=pvalue, method="Quade test", df=(df1, df2),
        details={
            "quade_rankings": ((weights @ ranks) / (n * (n + 1) / 2.0)).tolist(),
            "average_ranks": ranks.mean(axis=0).tolist(),
            "n_datasets": n, "n_models": k, "perfect_agreement": bool(perfect),
            "higher_is_better": higher_is_better,
        })


def _quade_core(scores, higher_is_better: bool):
    """Scores, ranks, range weights Q_i, S_ij, A and B of Quade's test (see :func:`quade`)."""
    x = as_score_matrix(scores)
    n, k = x.shape
    ranks = rank_scores(x, higher_is_better=higher_is_better)
    # Ranges equal up to rounding (0.3 - 0.1 vs 0.4 - 0.2) are ties.
    atol = RELATIVE_TIE_TOLERANCE * max(np.max(np.abs(x)), np.finfo(float).tiny)
    weights = rank_with_tolerance(x.max(axis=1) - x.min(axis=1), atol=atol)
    s = weights[:, None] * (ranks - (k + 1) / 2.0)
    a = np.sum(s ** 2)
    if a == 0:
        raise DegenerateDataError(
            "every data set ties all models (all scores equal within each row): Quade's "
            "test is undefined.")
    b = np.sum(s.sum(axis=0) ** 2) / n
    return x, ranks, weights, s, a, b


def quade_posthoc(scores, *, adjustment: str = "holm", alpha: float = 0.05,
                  higher_is_better: bool = True,
                  names: Sequence[str] | None = None) -> PairwiseResult:
    """All-pairs comparisons after Quade's test (Conover 1999, pp. 374-375).

    Parameters
    ----------
    scores : array_like, shape (N, k)
        As :func:`quade`.
    adjustment : str, default "holm"
        Any method of :func:`~outperform.stats._multipletests.adjust_pvalues`.
    alpha : float
        Family-wise level of ``reject``.
    higher_is_better : bool
        False for losses or error rates.
    names : sequence of str, optional

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = (S_j − S_i) / sqrt(2N(A − B) / ((N − 1)(k − 1))) with
        S_j = Σ_i Q_i (r_ij − (k + 1)/2) and ranks 1 = best (positive: row model better); two-sided p-values from Student's t on (N − 1)(k − 1)
        degrees of freedom, as scikit-posthocs' ``posthoc_quade(dist="t")``; adjusted over
        the k(k − 1)/2 pairs. ``average_ranks``: Friedman average ranks (for the CD diagram).

    Raises
    ------
    InvalidInputError, TooFewError, DegenerateDataError
        As :func:`quade`; unknown adjustment.
    """
    alpha = check_probability(alpha, "alpha")
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    x, ranks, _, s, a, b = _quade_core(scores, higher_is_better)
    n, k = x.shape
    sums = s.sum(axis=0)
    rows, cols = _tested_pairs(k, None)
    with np.errstate(divide="ignore"):   # A = B: identical rankings, infinite t
        t = (sums[cols] - sums[rows]) / np.sqrt(2 * n * (a - b) / ((n - 1) * (k - 1)))
    p = 2 * t_dist.sf(np.abs(t), (n - 1) * (k - 1))
    p_adj = adjust_pvalues(p, adjustment)
    return _pairs_result(
        f"Quade all-pairs test ({adjustment})", model_names(names, k), rows, cols,
        _symmetric(k, rows, cols, t, antisymmetric=True), p, p_adj, p_adj <= alpha,
        alpha=alpha, adjustment=adjustment, average_ranks=ranks.mean(axis=0),
        details={"df": (n - 1) * (k - 1), "higher_is_better": higher_is_better})
