"""The model confidence set of Hansen, Lunde & Nason (2011, Econometrica 79(2), 453-497).

Which models could be the best? The MCS at level 1 - alpha is the set of models that
contains the best model (the one with the smallest expected loss) with probability at
least 1 - alpha (HLN 2011, Theorem 1, as n grows). It is found by a sequence of equivalence
tests, each eliminating the worst model while the test rejects; a model's MCS p-value is the
largest p-value of the tests up to its elimination (HLN 2011 Definition 2), so the set at
1 - alpha is the models whose MCS p-value exceeds alpha.

Resampling: the bootstrap indices come from :mod:`arch.bootstrap` (its stationary or
circular block bootstrap, seeded as ``arch.bootstrap.MCS`` seeds them), so that this set
and these p-values equal ``arch.bootstrap.MCS`` on the same losses and seed exactly
(``tests/stats/test_mcs.py``). The statistics are computed here, vectorised over the
resamples, because ``arch.bootstrap.MCS`` gives neither the statistic of each elimination
step nor a bootstrap of whole clusters of items (evaluation logs resampled by passage or
conversation), both of which the reports need.
"""
from __future__ import annotations

import numpy as np

from .._cost import check_cost
from .._errors import require
from .._validation import (InvalidInputError, TooFewError, as_float_array, check_alpha,
                           check_choice, check_random_state)
from ..results._mcs import ModelConfidenceSet

__all__ = ["model_confidence_set", "mcs_bootstrap_indices", "mcs_from_indices"]

STATISTICS = ("R", "max")
BOOTSTRAPS = ("stationary", "circular")
#: Resampled units x resamples held at once when the resampled means are formed.
_CHUNK = 1 << 22


def mcs_bootstrap_indices(n_units: int, n_resamples: int, *, block_size: int = 1,
                          bootstrap: str = "stationary", random_state=0) -> np.ndarray:
    """Bootstrap indices of ``n_units`` units, drawn by arch's block bootstraps.

    Parameters
    ----------
    n_units : int
        Units resampled (items, tasks or clusters), in their order (blocks are runs of
        consecutive units).
    n_resamples : int
    block_size : int
        Mean block length (stationary bootstrap, Politis & Romano 1994) or block length
        (circular block bootstrap); 1 is the ordinary bootstrap of independent units.
    bootstrap : {"stationary", "circular"}
    random_state : int, Generator or None
        An int seeds ``numpy.random.default_rng`` as ``arch.bootstrap.MCS(seed=...)`` does.

    Returns
    -------
    ndarray of int, shape (n_resamples, n_units)
        Row b: the units of resample b, the same rows ``arch.bootstrap.MCS`` draws with this
        seed (``arch.bootstrap.StationaryBootstrap`` / ``CircularBlockBootstrap``,
        ``update_indices`` once per resample).

    Raises
    ------
    MissingDependencyError
        arch is not installed (``pip install 'outperform[mcs]'``).
    """
    require("arch", "the model confidence set's block bootstrap")
    from arch.bootstrap import CircularBlockBootstrap, StationaryBootstrap

    kind = StationaryBootstrap if bootstrap == "stationary" else CircularBlockBootstrap
    seed = random_state if isinstance(random_state, np.random.Generator) \
        else check_random_state(random_state)
    bs = kind(int(block_size), np.arange(n_units), seed=seed)
    out = np.empty((int(n_resamples), int(n_units)), dtype=np.int64)
    for b in range(out.shape[0]):     # arch draws one resample at a time: its stream, kept
        out[b] = bs.update_indices()
    return out


def _resampled_means(sums: np.ndarray, sizes: np.ndarray, indices: np.ndarray) -> np.ndarray:
    """Mean loss of each model in each resample: (B, k), vectorised in chunks of resamples.

    ``sums[g]`` is the loss total of unit g per model, ``sizes[g]`` its number of items; a
    resample's mean is its units' totals over their items (whole clusters kept)."""
    n_res, n_units = indices.shape
    out = np.empty((n_res, sums.shape[1]))
    step = max(1, _CHUNK // max(n_units, 1))
    for start in range(0, n_res, step):
        idx = indices[start:start + step]
        rows = np.arange(idx.shape[0])[:, None] * n_units
        counts = np.bincount((idx + rows).ravel(), minlength=idx.shape[0] * n_units)
        counts = counts.reshape(idx.shape[0], n_units).astype(float)
        out[start:start + step] = (counts @ sums) / (counts @ sizes)[:, None]
    return out


def _safe_ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, with 0 where both are 0 (models indistinguishable) and +-inf where only
    den is."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = num / den
    return np.where((den == 0) & (num == 0), 0.0, out)


def mcs_from_indices(losses, indices, *, statistic: str = "R", sizes=None) -> dict:
    """The MCS eliminations from given bootstrap indices (the kernel; HLN 2011 §3).

    Parameters
    ----------
    losses : array_like, shape (n_units, k)
        Mean loss of each model on each unit (item, task or cluster); lower is better.
    indices : array_like of int, shape (B, n_units)
        The units of each resample (:func:`mcs_bootstrap_indices`).
    statistic : {"R", "max"}
        ``"R"``: T_R = max over pairs of |d̄_ij| / sd(d̄_ij), elimination of
        argmax_i max_j t_ij (HLN 2011 eq. 9-10, as ``arch``'s ``method="R"``); ``"max"``:
        T_max = max_i d̄_i. / sd(d̄_i.), d̄_i. the model's mean loss minus the mean over the
        models left, eliminating the models that attain it (HLN eq. 11, ``method="max"``).
        Standard deviations are the bootstrap's (root mean square of the recentred
        resampled statistics), as in ``arch``.
    sizes : array_like, shape (n_units,), optional
        Items in each unit (clusters): ``losses`` rows are then the clusters' mean losses
        and resampled means weight each cluster by its size. Default: all 1.

    Returns
    -------
    dict
        ``order`` (model indices, first eliminated first; the survivor last), ``step_pvalues``
        (each test's p-value, ``pvalues`` running maximum = MCS p-values by model index),
        ``statistics`` (T at each step), ``stopped`` (True when the models left had zero
        bootstrap variance: indistinguishable, kept with p-value 1).
    """
    losses = np.asarray(losses, dtype=float)
    indices = np.asarray(indices)
    n, k = losses.shape
    sizes = np.ones(n) if sizes is None else np.asarray(sizes, dtype=float)
    means = (sizes @ losses) / sizes.sum()
    boot = _resampled_means(losses * sizes[:, None], sizes, indices) - means   # (B, k)
    steps = _steps_r(means, boot) if statistic == "R" else _steps_max(means, boot)
    order, step_p, stats, stopped = steps
    pvalues = np.empty(k)
    pvalues[order] = np.maximum.accumulate(step_p)
    return {"order": order, "step_pvalues": step_p, "pvalues": pvalues,
            "statistics": stats, "stopped": stopped}


def _steps_max(means, boot):
    k = means.size
    included = np.ones(k, dtype=bool)
    order, step_p, stats = [], [], []
    stopped = False
    while included.sum() > 1:
        idx = np.flatnonzero(included)
        e = boot[:, idx] - boot[:, idx].mean(axis=1, keepdims=True)
        sd = np.sqrt((e ** 2).mean(axis=0))
        if not (sd > 0).any():
            stopped = True
            break
        d = means[idx] - means[idx].mean()
        t = _safe_ratio(d, sd)
        stat = t.max()
        star = _safe_ratio(e, sd).max(axis=1)
        p = float((stat < star).mean())
        out = idx[t == stat]
        order += out.tolist()
        step_p += [p] * out.size
        stats += [float(stat)] * out.size
        included[out] = False
    rest = np.flatnonzero(included)
    return (np.array(order + rest.tolist(), dtype=int),
            np.array(step_p + [1.0] * rest.size), np.array(stats + [np.nan] * rest.size),
            stopped)


def _steps_r(means, boot):
    k = means.size
    diff = means[:, None] - means[None, :]
    boot_diff = boot[:, :, None] - boot[:, None, :]                    # (B, k, k), recentred
    sd = np.sqrt((boot_diff ** 2).mean(axis=0))
    t = _safe_ratio(diff, sd)
    star = _safe_ratio(boot_diff, sd)
    included = np.ones(k, dtype=bool)
    order, step_p, stats = [], [], []
    stopped = False
    while included.sum() > 1:
        idx = np.flatnonzero(included)
        if not (sd[np.ix_(idx, idx)] > 0).any():
            stopped = True
            break
        sub = t[np.ix_(idx, idx)]
        stat = sub.max()
        p = float((stat < star[:, idx][:, :, idx].max(axis=(1, 2))).mean())
        worst = idx[np.argwhere(sub == stat)[0, 0]]
        order.append(int(worst))
        step_p.append(p)
        stats.append(float(stat))
        included[worst] = False
    rest = np.flatnonzero(included)
    return (np.array(order + rest.tolist(), dtype=int),
            np.array(step_p + [1.0] * rest.size), np.array(stats + [np.nan] * rest.size),
            stopped)


def model_confidence_set(losses, *, alpha: float = 0.05, statistic: str = "R",
                         bootstrap: str = "stationary", block_size: int = 1,
                         n_resamples: int = 1000, clusters=None, names=None,
                         higher_is_better: bool = False, unit: str = "item",
                         random_state=0) -> ModelConfidenceSet:
    """The model confidence set (Hansen, Lunde & Nason 2011) of k models.

    Parameters
    ----------
    losses : array_like, shape (n, k)
        Loss of each of k models on each of n units (test items, tasks); lower is better
        unless ``higher_is_better`` (scores are then negated). Paired: row i is unit i for
        every model.
    alpha : float
        The set holds the best model with probability >= 1 - alpha (asymptotically).
    statistic : {"R", "max"}
        T_R (pairwise, ``arch``'s default) or T_max (each model against the average of the
        models left); see :func:`mcs_from_indices`.
    bootstrap : {"stationary", "circular"}
        Politis & Romano's stationary bootstrap or the circular block bootstrap.
    block_size : int
        Mean (stationary) or fixed (circular) block length in units. 1 (default) is the
        ordinary bootstrap of independent items or tasks; give more for serially dependent
        losses (forecasts over time: ``arch`` uses sqrt(n) when it is not given).
    n_resamples : int
    clusters : array_like, shape (n,), optional
        Cluster of each item: whole clusters are resampled (then in blocks of clusters, in
        the order they first appear) and each resample's mean weights clusters by size.
        ``arch.bootstrap.MCS`` has no such option; without clusters the result equals it.
    names : sequence of str, optional
    higher_is_better : bool
        ``losses`` are scores (accuracy): the set is of the models with the highest mean.
    unit : str
        What the rows are (``"item"``, ``"task"``), for the reports.
    random_state : int, Generator or None
        Seed; an int gives the resamples of ``arch.bootstrap.MCS(..., seed=int)``.

    Returns
    -------
    ModelConfidenceSet
        ``included`` (the set at 1 - alpha), ``pvalues`` (each model's MCS p-value),
        ``elimination_order``.

    Raises
    ------
    InvalidInputError
        Not a 2-d table, NaN or infinite losses, alpha outside (0, 1), an unknown statistic
        or bootstrap, block size < 1 or larger than the number of units, clusters of the
        wrong length.
    TooFewError
        Fewer than 2 models or 2 units.
    MissingDependencyError
        arch is not installed (``pip install 'outperform[mcs]'``).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> loss = rng.normal(size=(300, 3)) + np.array([0.0, 0.05, 0.5])
    >>> mcs = model_confidence_set(loss, alpha=0.1, names=("a", "b", "c"))
    >>> mcs.included, mcs.elimination_order
    (('a', 'b'), ('c', 'b', 'a'))
    """
    alpha = check_alpha(alpha)
    statistic = check_choice(statistic, "statistic", STATISTICS)
    bootstrap = check_choice(bootstrap, "bootstrap", BOOTSTRAPS)
    x = as_float_array(losses, "losses", ndim=2)
    n, k = x.shape
    if k < 2:
        raise TooFewError(f"a model confidence set needs at least 2 models, got {k}.")
    if n < 2:
        raise TooFewError(f"a model confidence set needs at least 2 {unit}s, got {n}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 1:
        raise InvalidInputError(f"n_resamples must be a positive int, got {n_resamples!r}.")
    names = tuple(f"model {j}" for j in range(k)) if names is None else tuple(map(str, names))
    if len(names) != k:
        raise InvalidInputError(f"{len(names)} names for {k} models.")
    sizes = None
    n_units = n
    if clusters is not None:
        labels = np.asarray(clusters)
        if labels.shape != (n,):
            raise InvalidInputError(f"clusters must give one label per row ({n}), got shape "
                                    f"{labels.shape}.")
        _, first, codes = np.unique(labels, return_index=True, return_inverse=True)
        rank = np.argsort(np.argsort(first))          # clusters in order of appearance
        codes = rank[codes]
        n_units = first.size
        if n_units < 2:
            raise TooFewError(f"a model confidence set needs at least 2 clusters, got {n_units}.")
        sizes = np.bincount(codes, minlength=n_units).astype(float)
        x_units = np.zeros((n_units, k))
        np.add.at(x_units, codes, x)
        x_units /= sizes[:, None]
    else:
        x_units = x
    if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)) \
            or not 1 <= block_size <= n_units:
        raise InvalidInputError(
            f"block_size must be a whole number from 1 to the number of resampled units "
            f"({n_units}), got {block_size!r}: a block longer than the data repeats it.")
    y = -x_units if higher_is_better else x_units
    check_cost("n_resamples (--n-resamples)", n_resamples,
               work=f"{n_units:,} {unit if clusters is None else 'cluster'}s x {k} models",
               bytes_per_unit=8.0 * (n_units + (k * k if statistic == "R" else k) * 3),
               seconds_per_unit=3e-8 * n_units + 2e-9 * k ** 3)
    idx = mcs_bootstrap_indices(n_units, n_resamples, block_size=int(block_size),
                                bootstrap=bootstrap, random_state=random_state)
    res = mcs_from_indices(y, idx, statistic=statistic, sizes=sizes)
    means = (x_units * (sizes if sizes is not None else np.ones(n_units))[:, None]).sum(0) \
        / (sizes.sum() if sizes is not None else n_units)
    return ModelConfidenceSet(
        names=names, pvalues=res["pvalues"], elimination_order=tuple(names[j] for j in res["order"]),
        step_pvalues=res["step_pvalues"], statistics=res["statistics"], estimate=means,
        alpha=alpha, statistic=statistic, bootstrap=bootstrap, block_size=int(block_size),
        n_resamples=int(n_resamples), n_items=n, n_clusters=None if clusters is None else n_units,
        unit=unit, higher_is_better=bool(higher_is_better), indistinguishable=res["stopped"])
