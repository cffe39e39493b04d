"""Means of k models over the same items, and the standard errors of all their differences.

The shared front end of :func:`outperform.stats.rank_sets` and
:func:`outperform.stats.pairwise_ttest`: an n x k score matrix (items x models), optionally
with a cluster label per item, becomes the models' means, every pairwise difference with its
standard error (cluster-robust with clusters, Miller 2024), and the residual sums of the
resampled units that the bootstrap multiplies by its weights.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import InvalidInputError, TooFewError
from ._leaderboard import pairwise_discordance

#: Squared standard errors of a difference below this fraction of the two variances are
#: rounding noise of v_j + v_m - 2 c_jm: the two models' scores differ by a constant.
_ZERO_VARIANCE = 1e-10
#: Elements of a float64 block of rows (bounds the temporaries whatever n x k is).
_BLOCK = 1 << 22


def as_scores(scores) -> np.ndarray:
    """An n x k score matrix, checked: bool is kept (0/1 correctness), others are float64.

    Raises
    ------
    InvalidInputError
        Not 2-D, not numeric, NaN or infinite values.
    TooFewError
        Fewer than 2 models (columns) or items (rows).
    """
    x = np.asarray(scores)
    if x.ndim != 2:
        raise InvalidInputError(f"scores must be a 2-D items x models matrix, got shape {x.shape}.")
    if x.dtype.kind not in "biuf":
        raise InvalidInputError(f"scores must be numeric, got dtype {x.dtype}.")
    n, k = x.shape
    if k < 2:
        raise TooFewError(f"scores has {k} model(s) (columns); ranking needs at least 2.")
    if n < 2:
        raise TooFewError(f"scores has {n} item(s) (rows); a bootstrap needs at least 2.")
    if x.dtype == bool:
        return x
    x = x.astype(float, copy=False)
    if not np.isfinite(x).all():
        raise InvalidInputError("scores contain NaN or infinite values; every model needs a "
                                "score on every item.")
    return x


def cluster_codes(clusters, n: int) -> tuple[np.ndarray, int]:
    """Codes 0..G-1 of the cluster labels, numbered in order of first appearance.

    So singleton clusters listed in item order get the codes 0..n-1, and resampling them
    draws the same weights as resampling the items.
    """
    labels = np.asarray(clusters)
    if labels.shape != (n,):
        raise InvalidInputError(f"clusters must have one label per item ({n}), got shape "
                                f"{labels.shape}.")
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    relabel = np.empty(first.size, dtype=np.int64)
    relabel[np.argsort(first, kind="stable")] = np.arange(first.size)
    return relabel[inverse.ravel()], int(first.size)


class PairedMeans(NamedTuple):
    """Output of :func:`paired_means` (scores oriented so that higher is better).

    Attributes
    ----------
    mean : ndarray (k,)
    diff : ndarray (k, k)
        ``mean[j] - mean[m]``.
    se : ndarray (k, k)
        Standard error of ``diff``; 0 where two models' scores differ by a constant.
    mean_se : ndarray (k,)
        Standard error of ``mean`` (as :func:`outperform.stats.clustered_mean`).
    sums : ndarray of float32 (G, k)
        Residual sums U_g of each resampled unit (cluster, or item).
    sizes : ndarray (G,)
        Items per unit.
    n_units : int
        G.
    """

    mean: np.ndarray
    diff: np.ndarray
    se: np.ndarray
    mean_se: np.ndarray
    sums: np.ndarray
    sizes: np.ndarray
    n_units: int


def _item_sums(x, sign, mean, binary):
    """Residuals of every item (float32) and their Gram matrix sum_i u_i u_i^T (float64)."""
    n, k = x.shape
    sums = np.empty((n, k), dtype=np.float32)
    gram = np.zeros((k, k))
    rows = max(1, _BLOCK // k)
    for r0 in range(0, n, rows):  # blocks of items: float64 temporaries stay small
        u = sign * x[r0:r0 + rows] - mean
        sums[r0:r0 + rows] = u
        if not binary:
            gram += u.T @ u
    if binary:
        # Exact integer counts of the items both models get right (bit-packed AND +
        # popcount): sum_i u_ij u_im = both_jm - n xbar_j xbar_m, with no rounding.
        counts = pairwise_discordance(x.T == 1)
        both = counts.n_correct[None, :] - counts.n01
        xbar = counts.n_correct / n
        gram = both - n * np.outer(xbar, xbar)
    return sums, gram


def paired_means(x: np.ndarray, *, higher_is_better: bool = True,
                 clusters=None) -> PairedMeans:
    """Means, paired differences and their standard errors, from one Gram matrix.

    Parameters
    ----------
    x : ndarray, shape (n, k)
        Checked scores (:func:`as_scores`).
    higher_is_better : bool
        False negates the scores first.
    clusters : array_like, shape (n,), optional

    Returns
    -------
    PairedMeans

    Raises
    ------
    InvalidInputError
        Bad clusters.
    TooFewError
        Fewer than 2 clusters.

    Notes
    -----
    Var(d_jm) = c sum_g (U_gj - U_gm)^2 / n^2, U the residual sums of the G clusters (every
    item its own cluster without ``clusters``) and c = G / (G - 1): the variance of
    :func:`outperform.stats.clustered_mean` applied to the column y_j - y_m (Miller 2024,
    eq. 4 with statsmodels' small-sample factor; without clusters, sd^2 / n with ddof = 1).
    For 0/1 scores of independent items the Gram matrix comes from exact integer counts.
    """
    n, k = x.shape
    sign = 1.0 if higher_is_better else -1.0
    mean = sign * x.mean(axis=0, dtype=np.float64)
    if clusters is None:
        binary = x.dtype == bool or bool(((x == 0) | (x == 1)).all())
        sums, gram = _item_sums(x, sign, mean, binary)
        sizes, g = np.ones(n), n
    else:
        codes, g = cluster_codes(clusters, n)
        if g < 2:
            raise TooFewError("all items are in one cluster: at least 2 clusters are needed.")
        order = np.argsort(codes, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(codes[order]) != 0])
        # One reduceat over the items sorted by cluster: all clusters' sums of all columns.
        sums64 = np.add.reduceat(sign * x[order] - mean, starts, axis=0)
        gram = sums64.T @ sums64
        sums, sizes = sums64.astype(np.float32), np.bincount(codes, minlength=g).astype(float)
    gram *= g / (g - 1) / n ** 2
    v = np.diag(gram)
    var = v[:, None] + v[None, :] - 2 * gram
    var[var <= _ZERO_VARIANCE * (v[:, None] + v[None, :])] = 0.0
    return PairedMeans(mean, mean[:, None] - mean[None, :], np.sqrt(var), np.sqrt(v), sums,
                       sizes, g)
