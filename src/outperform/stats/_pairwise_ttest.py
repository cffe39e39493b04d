"""All pairs of k models compared by paired t-tests on per-item scores, cluster-robust.

The leaderboard's tiers for real-valued scores, or for 0/1 scores of clustered items (where
McNemar's test, which assumes independent items, does not apply): every pair's mean
difference over the same items divided by its standard error (cluster-robust when clusters
are given, Miller 2024), with a multiplicity adjustment over the k (k - 1) / 2 pairs.
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._names import model_names
from .._validation import check_choice, check_probability
from ..results import PairwiseResult
from ._leaderboard import _pairs_result
from ._multipletests import ADJUSTMENTS
from ._paired_means import as_scores, paired_means

__all__ = ["pairwise_ttest"]


def pairwise_ttest(scores, *, clusters=None, names=None, higher_is_better: bool = True,
                   adjustment: str = "holm", alpha: float = 0.05) -> PairwiseResult:
    """Paired t-test of every pair of models on the same items, adjusted for multiplicity.

    Parameters
    ----------
    scores : array_like, shape (n_items, n_models)
        Score of each model (column) on each item (row); no NaN.
    clusters : array_like, shape (n_items,), optional
        Cluster label of each item: the standard errors are cluster-robust and the t
        distribution has G - 1 degrees of freedom (G clusters; Cameron & Miller 2015 §VI);
        without clusters n - 1, the ordinary paired t-test.
    names : sequence of str, optional
    higher_is_better : bool
        Direction of the score: ``statistic[i, j] > 0`` means model i is better.
    adjustment : str
        Any method of :func:`outperform.stats.adjust_pvalues` (default Holm).
    alpha : float
        Family-wise level for ``reject``.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]``: t of row minus column, in the better direction (antisymmetric);
        ``pvalue`` two-sided (symmetric, NaN on the diagonal); ``details``: ``difference``
        (k x k mean differences, metric units, row minus column), ``standard_error``,
        ``df``, ``n_items``, ``n_clusters``. A pair whose scores differ by the same constant
        on every item has standard error 0: p = 0 if the constant is not 0, else p = 1.

    Raises
    ------
    InvalidInputError
        Bad matrix, clusters, adjustment or alpha.
    TooFewError
        Fewer than 2 models, items or clusters.

    Examples
    --------
    Without clusters each pair is scipy's paired t-test:

    >>> x = [[0.2, 0.5, 0.1], [0.4, 0.6, 0.3], [0.3, 0.9, 0.2], [0.5, 0.7, 0.2]]
    >>> res = pairwise_ttest(x, names=["a", "b", "c"])
    >>> round(float(res.pvalue[0, 1]), 4)   # scipy.stats.ttest_rel([.2,.4,.3,.5], [.5,.6,.9,.7])
    0.0414
    >>> res.pvalue_adjusted[1, 2].round(4)   # statsmodels multipletests(..., method="holm")
    np.float64(0.0344)
    >>> res.reject.astype(int).tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 0]]
    """
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    check_probability(alpha, "alpha")
    x = as_scores(scores)
    labels = model_names(names, x.shape[1])
    pm = paired_means(x, higher_is_better=higher_is_better, clusters=clusters)
    diff, se, g = pm.diff, pm.se, pm.n_units
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    df = g - 1
    p = 2 * stats.t.sf(np.abs(t), df)
    np.fill_diagonal(t, 0.0)
    np.fill_diagonal(p, np.nan)
    details = {"difference": diff if higher_is_better else -diff, "standard_error": se,
               "df": df, "n_items": x.shape[0],
               "n_clusters": None if clusters is None else g}
    method = ("paired t-test, cluster-robust standard errors, all pairs" if clusters is not None
              else "paired t-test, all pairs")
    return _pairs_result(method, labels, t, p, adjustment, alpha, details)
