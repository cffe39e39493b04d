"""Confidence sets for ranks: Mogstad, Romano, Shaikh & Wilhelm (2024), by paired bootstrap.

Input is an n x k matrix of scores: n items (test examples, or tasks of a per-task table)
scored for each of k models. The rank of a model is decided by its mean score; a confidence
set for the ranks follows from simultaneous confidence statements about the k (k - 1) ordered
differences of means (Mogstad, Romano, Shaikh & Wilhelm 2024, "Inference for ranks", Review
of Economic Studies, doi:10.1093/restud/rdad006):
model j is *significantly better* than model m when the studentised difference
t_jm = (mean_j - mean_m) / se_jm exceeds a bootstrap critical value, and the rank set of j is
``[1 + #{m significantly better than j}, k - #{m significantly worse than j}]``.

The bootstrap resamples items (or whole clusters of items) jointly for all models, so the
pairing is kept: each resample is a vector of weights over the resampled units, and the
resampled means of all models are one matrix product (weights x unit sums of the centred
scores), batch by batch. The maximum over pairs of the studentised bootstrap differences is
taken over blocks of pairs with a running maximum, so memory is bounded by
k x n_resamples floats plus one batch of weights. The procedure is the one of the R package
csranks (``csranks``, ``csdiffmeans``: one-sided hypotheses for all ordered pairs, max-t
critical value, Romano–Wolf step-down), with a nonparametric paired bootstrap in place of
its parametric (normal) one.
"""
from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from .._names import model_names
from .._parallel import progress_bar, scheduler_client
from .._validation import InvalidInputError, check_choice, check_probability, check_random_state
from ..results._rank_sets import RankSets
from ._bootstrap_batches import bootstrap_deviations, poisson_table
from ._clustered import clustered_mean
from ._chunked_means import chunked_deviations, chunked_paired_means, is_dask
from ._paired_means import as_scores, paired_means

__all__ = ["rank_sets"]

WEIGHTS = ("multinomial", "poisson")
#: Bytes of one block of studentised differences (rows of pairs x resamples): L2-sized.
_BLOCK_BYTES = 1 << 20


def _check_dask(clusters, weights) -> None:
    if clusters is not None:
        raise InvalidInputError("clusters are not supported with a Dask array of scores: "
                                "give a numpy array, or the cluster means as the items.")
    if weights != "poisson":
        raise InvalidInputError(
            "a Dask array of scores is resampled chunk by chunk, which needs independent "
            "weights: pass weights='poisson' (the multinomial bootstrap needs all items at "
            "once).")


def _pair_factors(inv: np.ndarray, up: np.ndarray, down: np.ndarray):
    """Factors (P, Q), float32, so that max(D P, D Q) is the largest tested statistic of a pair.

    ``up[j, m]``: the ordered pair (j, m) is still tested, statistic +D_jm / se_jm;
    ``down[j, m]``: (m, j) is, statistic -D_jm / se_jm. At least one of the two is true (a
    pair is rejected in one direction at most, as the critical value is positive).
    """
    return (np.where(up, inv, -inv).astype(np.float32),
            np.where(down, -inv, inv).astype(np.float32))


def _columns(k: int, b: int) -> int:
    """Resamples per block, so that a block of k rows of differences stays in cache."""
    return int(np.clip(_BLOCK_BYTES // (4 * k), 64, max(b, 64)))


def _first_pass(dev: np.ndarray, inv32: np.ndarray) -> np.ndarray:
    """max over m of |T*_jm| for every model j and resample: (k, B), one sweep over pairs.

    Before any rejection every family is two-sided, so the marginal family of j has the
    maximum of row j, and the simultaneous family the maximum over all rows.
    """
    k, b = dev.shape
    fam = np.zeros((k, b), dtype=np.float32)
    cols = _columns(k, b)
    for c0 in range(0, b, cols):
        c = slice(c0, c0 + cols)
        for j in range(k - 1):  # pairs (j, m > j) of a block of resamples
            t = np.abs(dev[j, c] - dev[j + 1:, c])
            t *= inv32[j, j + 1:, None]
            np.maximum(fam[j, c], t.max(axis=0), out=fam[j, c])
            np.maximum(fam[j + 1:, c], t, out=fam[j + 1:, c])
    return fam


def _simultaneous_max(dev: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """max over the tested ordered pairs of T*, for each resample (column) of ``dev``."""
    k, b = dev.shape
    top = np.full(b, -np.inf, dtype=np.float32)
    cols = _columns(k, b)
    for c0 in range(0, b, cols):
        c = slice(c0, c0 + cols)
        for j in range(k - 1):
            d = dev[j, c] - dev[j + 1:, c]
            t = np.maximum(d * p[j, j + 1:, None], d * q[j, j + 1:, None])
            np.maximum(top[c], t.max(axis=0), out=top[c])
    return top


def _family_max(rows: np.ndarray, j: int, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """max over the tested pairs of model j's marginal family, for each resample.

    ``rows``: (resamples, k) deviations; ``p``, ``q``: row j of the factors.
    """
    d = rows[:, j:j + 1] - rows
    return np.maximum(d * p, d * q).max(axis=1)


def _upper_quantile(bound: np.ndarray, exact, level: float):
    """The ``level``-quantile (numpy's linear rule) of a statistic over the resamples.

    ``bound`` (B,) bounds the statistic from above (its value on a larger family);
    ``exact(idx)`` computes it on the resamples ``idx``. Only the resamples with the largest
    bounds are computed: once at least as many of them reach the smallest bound left out as
    the quantile needs order statistics, the others cannot change it. Returns the quantile
    and the new bounds (exact where computed).
    """
    b = bound.size
    need = b - int(np.floor(level * (b - 1)))  # top order statistics the quantile uses
    take = min(b, 2 * need)
    while True:
        idx = np.argpartition(-bound, take - 1)[:take] if take < b else np.arange(b)
        values = exact(idx)
        floor = -np.inf if take == b else float(bound[idx].min())
        if take == b or np.count_nonzero(values >= floor) >= need:
            # Left-out resamples keep their bounds (<= floor): below the order statistics
            # used, they leave the quantile unchanged, and they stay valid bounds.
            new = bound.copy()
            new[idx] = values
            return float(np.quantile(new, level)), new
        take = min(b, 2 * take)


def _stepdown(tstat, dev, inv, alpha, stepdown, advance):
    """Rejections of the simultaneous and the k marginal families (Romano–Wolf step-down).

    Returns ``reject`` (k, k): j significantly better than m in the simultaneous family;
    ``up``, ``down`` (k, k): in the marginal family of model j, j better than m / m better
    than j; and the simultaneous critical value of the last step.
    """
    k = tstat.shape[0]
    level = 1 - alpha
    off = ~np.eye(k, dtype=bool)
    fam = _first_pass(dev, inv.astype(np.float32))
    advance(1)
    top = fam.max(axis=0)
    crit = float(np.quantile(top, level))
    marg = np.quantile(fam, level, axis=1)[:, None]
    reject = off & (tstat > crit)
    up, down = off & (tstat > marg), off & (-tstat > marg)
    open_sim = stepdown and reject.any()
    open_fam = np.flatnonzero((up | down).any(axis=1)) if stepdown else np.array([], int)
    # Resamples as rows: a family's candidate resamples are gathered as whole rows.
    rows = np.ascontiguousarray(dev.T) if open_fam.size else None
    while open_sim or open_fam.size:
        if open_sim:
            p, q = _pair_factors(inv, ~reject & off, ~reject.T & off)
            crit, top = _upper_quantile(
                top, lambda idx: _simultaneous_max(np.ascontiguousarray(dev[:, idx]), p, q),
                level)
            # Never below 0 (it is far above in practice): no pair is rejected both ways.
            crit = max(crit, 0.0)
            new = off & (tstat > crit) & ~reject
            reject |= new
            open_sim = new.any()
        changed = []
        for j in open_fam:  # families whose last step rejected something
            p, q = _pair_factors(inv[j], ~up[j] & off[j], ~down[j] & off[j])
            c, fam[j] = _upper_quantile(fam[j], lambda idx: _family_max(rows[idx], j, p, q),
                                        level)
            c = max(c, 0.0)
            new_up, new_down = off[j] & (tstat[j] > c) & ~up[j], off[j] & (-tstat[j] > c) & ~down[j]
            up[j] |= new_up
            down[j] |= new_down
            if new_up.any() or new_down.any():
                changed.append(j)
        open_fam = np.array(changed, dtype=int)
    return reject, up, down, crit


def _percentile_ranks(y_mean, dev, alpha, scale):
    """Percentile bootstrap interval of each model's rank (rank 1 = best) over the resamples.

    Resampled means closer than 1e-4 of the smallest standard error are ties (float32
    rounding of means that are equal, e.g. two models right on as many resampled items).
    """
    theta = np.round((y_mean[:, None] + dev) / scale)
    ranks = rankdata(-theta, method="min", axis=0)
    return np.quantile(ranks, [alpha / 2, 1 - alpha / 2], axis=1,
                       method="inverted_cdf").T.astype(int)


def rank_sets(scores, *, clusters=None, names=None, higher_is_better: bool = True,
              alpha: float = 0.05, n_resamples: int = 1000, weights: str = "multinomial",
              stepdown: bool = True, unit: str = "item", random_state=0,
              progress: bool = False, scheduler=None) -> RankSets:
    """Simultaneous and marginal confidence sets for the ranks of k models.

    Parameters
    ----------
    scores : array_like or dask.array.Array, shape (n_items, n_models)
        Score of each model (column) on each item (row): 0/1 correctness, a per-item metric,
        or one score per task of a per-task table. Paired: row i of every model is the same
        item. No NaN. A Dask array (a table beyond memory) is read chunk of rows by chunk,
        twice, with ``weights="poisson"`` and without clusters.
    clusters : array_like, shape (n_items,), optional
        Cluster label of each item (passage, conversation, problem): whole clusters are
        resampled and the standard errors are cluster-robust. None: items are independent.
    names : sequence of str, optional
        Model names (default ``model 0``, ...).
    higher_is_better : bool
        Direction of the score; rank 1 is the best mean in this direction.
    alpha : float
        1 - confidence level of the sets.
    n_resamples : int
        Bootstrap resamples (>= 100; the simultaneous critical value is a (1 - alpha)-quantile
        of a maximum, so a few thousand for alpha = 0.05 give it to two digits).
    weights : {"multinomial", "poisson"}
        Resampling weights: multinomial counts (the ordinary bootstrap, n units drawn with
        replacement) or independent Poisson(1) counts (the Poisson bootstrap), drawn from a
        2^16-entry quantile table (about twice as fast; needed for Dask arrays).
    stepdown : bool
        Apply the Romano–Wolf step-down (default, as csranks): rejected pairs leave the
        family and the critical value is recomputed until no new pair is rejected. False:
        one step (max-|t| over all pairs, over pairs involving j for j's marginal set).
    unit : {"item", "task"}
        Name of what a row is, for the printed result (``"cluster"`` is implied by
        ``clusters``).
    random_state : None, int, SeedSequence or Generator
    progress : bool
        Show the shared progress bar (stderr, terminal only).
    scheduler : None, str or dask.distributed.Client
        Run the bootstrap's batches of resamples as tasks of this Dask cluster (a scheduler's
        address ``tcp://HOST:PORT``, or a client): the same rank sets, to the bit, as the
        local run with the same ``random_state`` (each batch's generator is started where
        the local run's reaches it; :mod:`outperform.stats._bootstrap_batches`). A batch
        holds 2^25 weights (1,677 resamples of 20,000 items), so the cluster runs
        ceil(n_resamples / batch) tasks at once at most. A Dask array of scores is read on
        the cluster. Needs ``outperform[dask]``.

    Returns
    -------
    RankSets
        Estimates, standard errors, the simultaneous, marginal and percentile rank sets and
        the simultaneous pairwise decisions (``better``).

    Raises
    ------
    InvalidInputError
        Not a 2-D numeric matrix, NaN, bad clusters, alpha, weights or n_resamples; no
        usable Dask cluster at ``scheduler`` (:func:`outperform._parallel.dask_scheduler`).
    TooFewError
        Fewer than 2 models, items or clusters.

    Notes
    -----
    With y = scores (negated when lower is better), d_jm = ybar_j - ybar_m and se_jm the
    standard error of d_jm (cluster-robust: Var = G/(G-1) sum_g (U_gj - U_gm)^2 / n^2 with U
    the residual sums of cluster g; plain: the same with every item its own cluster), each
    bootstrap resample b gives D*_jm = d*_jm - d_jm and T*_jm = D*_jm / se'_jm, with
    se' = se sqrt((G - 1) / G) the plug-in standard error that the bootstrap reproduces
    (so T* and the observed t have the same scale in small samples, such as 14 tasks). The
    simultaneous family holds the ordered pairs (j, m), j != m, with the one-sided
    statistic T_jm; its critical value c is the (1 - alpha)-quantile over b of
    max_(j,m) T*_jm (at the first step: max_{j<m} |T*_jm|, the max-|t| statistic), and
    (j, m) is rejected (j better than m) when d_jm / se_jm > c. With step-down, rejected
    ordered pairs leave the family and c is recomputed (the stepwise procedure of Mogstad
    et al. 2024, as csranks' ``stepdown=TRUE``; Romano & Wolf 2005). Rank sets: lower = 1 + #{m: m better than j},
    upper = k - #{m: j better than m}. Marginal set of j: the same with the family of the
    2 (k - 1) ordered pairs involving j. Two models whose scores differ by a constant on
    every item have se = 0: the difference is certain (significant unless 0).
    The percentile interval ranks the models within each resample and takes the alpha/2 and
    1 - alpha/2 quantiles of each model's ranks (the bootstrap loop of leaderboard notebooks
    such as Chatbot Arena's); it has no coverage guarantee and is shown for comparison. Bootstrap means are computed in float32 from centred unit sums (error
    ~1e-7 of the standard errors).

    Examples
    --------
    Four models on 2,000 items; the first two have the same true mean:

    >>> rng = np.random.default_rng(1)
    >>> scores = rng.normal([0.0, 0.0, 0.3, 0.6], 1.0, size=(2000, 4))
    >>> res = rank_sets(scores, names=["a", "b", "c", "d"], random_state=0)
    >>> res.simultaneous.tolist()
    [[3, 4], [3, 4], [2, 2], [1, 1]]
    >>> res.top_k(1), res.tiers().tolist()
    (('d',), [3, 3, 2, 1])
    """
    with scheduler_client(scheduler) as client:
        return _rank_sets(scores, clusters=clusters, names=names,
                          higher_is_better=higher_is_better, alpha=alpha,
                          n_resamples=n_resamples, weights=weights, stepdown=stepdown,
                          unit=unit, random_state=random_state, progress=progress,
                          client=client)


def _rank_sets(scores, *, clusters, names, higher_is_better, alpha, n_resamples, weights,
               stepdown, unit, random_state, progress, client) -> RankSets:
    check_probability(alpha, "alpha")
    check_choice(weights, "weights", WEIGHTS)
    check_choice(unit, "unit", ("item", "task"))
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 100:
        raise InvalidInputError(f"n_resamples must be an int >= 100, got {n_resamples!r}.")
    rng = check_random_state(random_state)
    chunked = is_dask(scores)
    if chunked:
        _check_dask(clusters, weights)
        x = scores
        pm = chunked_paired_means(x, higher_is_better=higher_is_better, client=client)
    else:
        x = as_scores(scores)
        pm = paired_means(x, higher_is_better=higher_is_better, clusters=clusters)
    n, k = (int(s) for s in x.shape)
    labels = model_names(names, k)
    se, g = pm.se, pm.n_units
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(se > 0, 1.0 / se, 0.0)
        tstat = np.where(se > 0, pm.diff * inv,
                         np.where(pm.diff == 0, 0.0, np.sign(pm.diff) * np.inf))
    np.fill_diagonal(tstat, 0.0)
    with progress_bar(n_resamples + 1, progress, "rank confidence sets") as advance:
        if chunked:
            dev = chunked_deviations(x, pm.mean, higher_is_better=higher_is_better,
                                     n_resamples=int(n_resamples), rng=rng,
                                     table=poisson_table(), advance=advance, client=client)
        else:
            dev = bootstrap_deviations(pm.sums, pm.sizes, int(n_resamples), weights, rng,
                                       advance, client=client)
        # The bootstrap variance of a mean is the plug-in one, (G - 1) / G times the
        # variance in se (ddof = 1, or Miller's G / (G - 1)): studentise the resamples by
        # the plug-in error, so that T* has the scale of the observed t (csranks' normal).
        boot_inv = inv * np.sqrt(g / (g - 1))
        reject, up, down, crit = _stepdown(tstat, dev, boot_inv, alpha, stepdown, advance)
    if clusters is None:   # (and a Dask array)
        standard_error, deff = pm.mean_se, np.ones(k)
    else:
        clustered = clustered_mean(x, clusters)
        standard_error, deff = clustered.standard_error, clustered.design_effect
    positive = standard_error[standard_error > 0]
    scale = 1e-4 * positive.min() if positive.size else 1e-12
    sign = 1.0 if higher_is_better else -1.0
    rank = 1 + (pm.mean[None, :] > pm.mean[:, None]).sum(axis=1)
    return RankSets(
        names=labels, estimate=sign * pm.mean, standard_error=standard_error,
        design_effect=deff, rank=rank,
        simultaneous=np.column_stack([1 + reject.sum(axis=0), k - reject.sum(axis=1)]),
        marginal=np.column_stack([1 + down.sum(axis=1), k - up.sum(axis=1)]),
        percentile=_percentile_ranks(pm.mean, dev, alpha, scale), better=reject,
        critical_value=crit, alpha=float(alpha), n_resamples=int(n_resamples), n_items=n,
        n_clusters=None if clusters is None else g,
        unit="cluster" if clusters is not None else unit, weights=weights,
        stepdown=bool(stepdown), higher_is_better=bool(higher_is_better))
