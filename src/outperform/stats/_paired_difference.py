"""Difference of two models' mean scores on the same items, with a (cluster-robust) SE.

Miller (2024), "Adding error bars to evals", arXiv:2411.00640, §4.1: when two models answer
the same questions, the standard error of the difference of their means is that of the mean
of the per-item differences; the variance the two models share (hard and easy items)
cancels, so it is smaller than the unpaired sqrt(SE_A² + SE_B²) whenever their scores are
positively correlated. With clustered items the standard error is cluster-robust (§2.2).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import as_paired
from ..results import FrequentistResult
from ..results._intervals import LocationInterval
from ._clustered import clustered_mean

#: Below this many clusters the cluster-robust statistic is referred to Student's t with
#: G − 1 degrees of freedom instead of the normal (Cameron & Miller 2015, §VI.C: with few
#: clusters the normal makes tests over-reject; t(G − 1) is statsmodels' ``use_t=True``).
#: From 10 clusters on, the normal, as statsmodels' cluster OLS gives by default.
FEW_CLUSTERS = 10


def paired_difference(a, b, clusters=None) -> FrequentistResult:
    """Difference of mean scores A − B on paired items, with a (cluster-robust) SE.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Scores of models A and B on the same n items (item i of ``a`` is item i of ``b``).
    clusters : array_like, shape (n,), optional
        Cluster label of each item (passage, conversation); None: independent items.

    Returns
    -------
    FrequentistResult
        ``estimate`` = mean(a) − mean(b) (positive favours A when higher is better),
        ``statistic`` = estimate / SE (z; NaN, and the p-value too, when every difference is
        the same non-zero value), two-sided ``pvalue``, ``confidence_interval()``
        estimate ± z·SE; with ``clusters`` and fewer than :data:`FEW_CLUSTERS` (10) of them,
        the statistic is referred to Student's t with G − 1 degrees of freedom (``df``) for
        the p-value and the interval; ``details``: ``standard_error``, ``naive_standard_error``,
        ``design_effect``, ``n_items``, ``n_clusters``, ``unpaired_standard_error``,
        ``unpaired_pvalue``.

    Raises
    ------
    InvalidInputError
        Unpaired lengths, NaN, fewer than 2 items or clusters.

    The standard error is that of the mean of the per-item differences, so the variance the
    two models share cancels (Miller 2024 §4.1); with ``clusters`` it is cluster-robust
    (:func:`outperform.stats.clustered_mean`). The z statistic and the interval use the normal
    distribution (Miller 2024; statsmodels' cluster OLS). ``details`` keeps the naive and the
    unpaired standard errors (sqrt(SE_A² + SE_B²), what a comparison of the two means
    reported separately assumes) and the unpaired p-value.

    Examples
    --------
    Ten items; A right on 9, B on 6, B never right where A is wrong:

    >>> res = paired_difference([1] * 9 + [0], [1] * 6 + [0] * 4)
    >>> round(res.estimate, 2), round(res.details["standard_error"], 4)   # sd(d) / sqrt(10)
    (0.3, 0.1528)
    >>> round(res.details["unpaired_standard_error"], 4)   # sqrt(0.1² + 0.1633²)
    0.1915
    """
    a, b = as_paired(a, b)
    diff = clustered_mean(a - b, clusters)
    each = clustered_mean(np.column_stack([a, b]), clusters)
    d, se = float(diff.mean[0]), float(diff.standard_error[0])
    unpaired = float(np.hypot(*each.standard_error))
    # Every item (cluster) with the same difference: no spread to weigh it against, so no
    # z statistic (0/0 when the difference is 0, which is no evidence of one: p = 1).
    z = d / se if se > 0 else (0.0 if d == 0 else np.nan)
    zu = d / unpaired if unpaired > 0 else (0.0 if d == 0 else np.nan)
    method = ("paired difference of means, cluster-robust SE" if clusters is not None
              else "paired difference of means")
    df = diff.n_clusters - 1 if clusters is not None and diff.n_clusters < FEW_CLUSTERS \
        else None
    if df is None:
        p = 2 * special.ndtr(-abs(z))
    else:
        p = 2 * special.stdtr(df, -abs(z))
        method += f", t with G − 1 = {df} df"
    return FrequentistResult(
        statistic=float(z), pvalue=float(p), method=method, estimate=d, df=df,
        details={"standard_error": se, "naive_standard_error": float(diff.naive_standard_error[0]),
                 "design_effect": float(diff.design_effect[0]), "n_items": diff.n_items,
                 "n_clusters": diff.n_clusters, "unpaired_standard_error": unpaired,
                 "unpaired_pvalue": float(2 * special.ndtr(-abs(zu)))},
        _interval=LocationInterval(d, se, df=df))
