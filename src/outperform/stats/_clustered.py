"""Cluster-robust standard errors of item means (Miller 2024, "Adding error bars to evals").

Items of an evaluation often come in groups (questions about one passage, turns of one
conversation); their scores are correlated within a group, and the standard error that
treats them as independent is too small. The cluster-robust (sandwich) variance of a mean
sums the residuals within each cluster before squaring.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ..results._clustered import ClusteredMean


def clustered_mean(values, clusters=None, *, small_sample: bool = True) -> ClusteredMean:
    """Means of the columns of ``values`` with cluster-robust standard errors.

    Parameters
    ----------
    values : array_like, shape (n,) or (n, m)
        Per-item scores (or per-item paired differences a − b) of m models; no NaN.
    clusters : array_like, shape (n,), optional
        Cluster label of each item (any hashable values). None: every item is its own
        cluster, and the standard error is the usual sd / sqrt(n) (ddof = 1).
    small_sample : bool
        Multiply the variance by G / (G − 1) (G clusters), the finite-cluster correction
        statsmodels applies by default; False gives Miller's (2024) eq. 4 exactly.

    Returns
    -------
    ClusteredMean
        ``mean``, ``standard_error``, ``naive_standard_error``, ``design_effect`` of shape
        (m,) (shape (1,) for a 1-D input).

    Raises
    ------
    InvalidInputError
        Non-finite values, fewer than 2 items or clusters, ``clusters`` of the wrong length.

    Notes
    -----
    With residuals u_i = x_i − x̄ and cluster sums U_g = Σ_{i∈g} u_i,
    Var(x̄) = c · Σ_g U_g² / n², with c = G / (G − 1) when ``small_sample`` (c = 1 else).
    This equals statsmodels' ``OLS(x, ones).fit(cov_type="cluster",
    cov_kwds={"groups": clusters})`` standard error of the constant (its default correction
    (G/(G−1))·((n−1)/(n−K)) with K = 1 is G/(G−1)). Sources: Miller (2024), arXiv:2411.00640,
    §2.2, eq. 4; Cameron & Miller (2015), J. Human Resources 50: 317–372, eq. 11.

    Examples
    --------
    >>> x = [1, 1, 1, 0, 0, 0, 1, 0]
    >>> res = clustered_mean(x, clusters=[0, 0, 0, 1, 1, 1, 2, 2])
    >>> round(float(res.mean[0]), 3), round(float(res.standard_error[0]), 4)  # statsmodels: 0.3248
    (0.5, 0.3248)
    >>> round(float(res.naive_standard_error[0]), 4), round(float(res.design_effect[0]), 2)
    (0.189, 2.95)
    """
    x = np.asarray(values, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2:
        raise InvalidInputError(f"values must have shape (n,) or (n, m), got {x.shape}.")
    n = x.shape[0]
    if n < 2:
        raise InvalidInputError(f"a standard error needs at least 2 items, got {n}.")
    if not np.isfinite(x).all():
        raise InvalidInputError("values contain NaN or infinite scores; drop or fill them first.")
    mean = x.mean(axis=0)
    u = x - mean
    naive = x.std(axis=0, ddof=1) / np.sqrt(n)
    if clusters is None:
        sums, g = u, n
    else:
        labels = np.asarray(clusters)
        if labels.shape != (n,):
            raise InvalidInputError(f"clusters must have one label per item ({n}), "
                                    f"got shape {labels.shape}.")
        _, codes = np.unique(labels, return_inverse=True)
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(codes[order]) != 0])
        # One reduceat over the items sorted by cluster: the cluster sums of every column at once.
        sums, g = np.add.reduceat(u[order], starts, axis=0), len(starts)
    if g < 2:
        raise InvalidInputError("a cluster-robust standard error needs at least 2 clusters; "
                                "all items are in one cluster.")
    factor = g / (g - 1) if small_sample else 1.0
    se = np.sqrt(factor * (sums ** 2).sum(axis=0)) / n
    with np.errstate(divide="ignore", invalid="ignore"):
        deff = np.where(naive > 0, (se / naive) ** 2, np.nan)
    return ClusteredMean(mean=mean, standard_error=se, naive_standard_error=naive,
                         design_effect=deff, n_items=n, n_clusters=g, small_sample=small_sample)
