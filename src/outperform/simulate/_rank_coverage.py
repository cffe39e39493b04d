"""Coverage of rank confidence sets on simulated benchmarks with known true means.

Each replication draws a benchmark of n items on which k models with known mean accuracies
are right or wrong, computes the rank sets of :func:`outperform.stats.rank_sets` and checks
whether each set holds its model's true ranks. Items differ in difficulty, shared by all
models (so the models' scores are correlated, as on a real benchmark): model j is right on
item i when a_j + sigma z_i + e_ij > 0 with z_i, e_ij independent N(0, 1), so its mean
accuracy is Phi(a_j / sqrt(1 + sigma^2)), and a_j is set to give the requested means.
With ``scores="normal"`` the score itself is mu_j + sigma z_i + e_ij (a continuous score,
such as one AUC per task of a per-task table); with ``cluster_size`` m > 1 the items come in
clusters of m that share one difficulty z (a passage hard for every model) and are
resampled whole.
"""
from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .._parallel import progress_bar
from .._validation import (InvalidInputError, check_choice, check_probability,
                           check_random_state)
from ..results._rank_coverage import RankSetCoverage
from ..results._rank_sets import KINDS
from ..stats._rank_sets import rank_sets

__all__ = ["RANK_COVERAGE_MEANS", "rank_set_coverage"]

#: Ten models, some tied: true mean accuracies of the default design.
RANK_COVERAGE_MEANS = (0.60, 0.62, 0.62, 0.64, 0.65, 0.65, 0.65, 0.68, 0.70, 0.74)


def _true_ranks(means: np.ndarray) -> np.ndarray:
    better = (means[None, :] > means[:, None]).sum(axis=1)
    worse = (means[None, :] < means[:, None]).sum(axis=1)
    return np.column_stack([1 + better, len(means) - worse])


def rank_set_coverage(means=RANK_COVERAGE_MEANS, *, n_items: int = 1000,
                      n_replications: int = 1000, n_resamples: int = 1000,
                      alpha: float = 0.05, difficulty: float = 1.0, scores: str = "binary",
                      cluster_size: int = 1, random_state=0,
                      progress: bool = False) -> RankSetCoverage:
    """Joint coverage of simultaneous, marginal and percentile rank sets in simulation.

    Parameters
    ----------
    means : sequence of float
        True mean score of each model (equal values are tied models): accuracies in (0, 1)
        for ``scores="binary"``, any real numbers for ``"normal"`` (in units of the
        model-by-item noise's standard deviation, 1).
    n_items : int
        Items (or tasks) of each simulated benchmark; a multiple of ``cluster_size``.
    n_replications : int
        Simulated benchmarks.
    n_resamples, alpha :
        Settings of :func:`outperform.stats.rank_sets`.
    difficulty : float >= 0
        sigma, the spread of the items' difficulty shared by all models (0: independent).
    scores : {"binary", "normal"}
        0/1 correctness (default) or the continuous score mu_j + sigma z_i + e_ij.
    cluster_size : int >= 1
        Items per cluster; with more than 1 a cluster's items share their difficulty and
        :func:`~outperform.stats.rank_sets` resamples the n_items / cluster_size clusters.
    random_state : None, int, SeedSequence or Generator
    progress : bool

    Returns
    -------
    RankSetCoverage
        ``coverage("simultaneous")`` should be at least 1 - alpha (asymptotically, Mogstad et
        al. 2024); the percentile intervals have no such guarantee.

    Raises
    ------
    InvalidInputError
        Means outside (0, 1) for binary scores, fewer than 2 models, bad counts, alpha or
        scores, n_items not a multiple of cluster_size.

    Examples
    --------
    >>> res = rank_set_coverage([0.6, 0.6, 0.7], n_items=300, n_replications=20,
    ...                         n_resamples=200, random_state=1)
    >>> res.true_ranks.tolist()
    [[2, 3], [2, 3], [1, 1]]
    >>> 0 <= res.coverage("simultaneous") <= 1
    True
    """
    check_choice(scores, "scores", ("binary", "normal"))
    mu = np.asarray(means, dtype=float)
    binary = scores == "binary"
    if mu.ndim != 1 or mu.size < 2 or not np.all(((mu > 0) & (mu < 1)) if binary
                                                  else np.isfinite(mu)):
        raise InvalidInputError("means must be at least 2 accuracies strictly between 0 and 1"
                                if binary else "means must be at least 2 finite numbers.")
    for name, value in (("n_items", n_items), ("n_replications", n_replications)):
        if not isinstance(value, (int, np.integer)) or value < 2:
            raise InvalidInputError(f"{name} must be an int >= 2, got {value!r}.")
    if not isinstance(cluster_size, (int, np.integer)) or cluster_size < 1 \
            or n_items % cluster_size or n_items // cluster_size < 2:
        raise InvalidInputError(f"cluster_size must be an int >= 1 dividing n_items into at "
                                f"least 2 clusters, got {cluster_size!r} for {n_items} items.")
    check_probability(alpha, "alpha")
    if not difficulty >= 0:
        raise InvalidInputError(f"difficulty must be >= 0, got {difficulty!r}.")
    rng = check_random_state(random_state)
    ability = ndtri(mu) * np.sqrt(1 + difficulty ** 2) if binary else mu
    n_clusters = n_items // cluster_size
    clusters = np.repeat(np.arange(n_clusters), cluster_size) if cluster_size > 1 else None
    truth = _true_ranks(mu)
    covered = {kind: np.zeros((n_replications, mu.size), dtype=bool) for kind in KINDS}
    sizes = {kind: np.zeros((n_replications, mu.size), dtype=int) for kind in KINDS}
    with progress_bar(n_replications, progress, "rank-set coverage") as advance:
        for r in range(n_replications):  # one simulated benchmark per step
            z = np.repeat(rng.standard_normal((n_clusters, 1)), cluster_size, axis=0)
            y = ability + difficulty * z + rng.standard_normal((n_items, mu.size))
            res = rank_sets((y > 0).astype(float) if binary else y, clusters=clusters,
                            alpha=alpha, n_resamples=n_resamples, random_state=rng)
            for kind in KINDS:
                sets = getattr(res, kind)
                covered[kind][r] = (sets[:, 0] <= truth[:, 0]) & (truth[:, 1] <= sets[:, 1])
                sizes[kind][r] = sets[:, 1] - sets[:, 0] + 1
            advance()
    design = ((f"0/1 items, P(right) = Phi(a_j + {difficulty:g} z_i), item difficulty shared"
               if difficulty else "independent 0/1 items") if binary else
              f"normal scores mu_j + {difficulty:g} z_i + e_ij")
    if cluster_size > 1:
        design += f", {n_clusters} clusters of {cluster_size} items sharing z, resampled whole"
    return RankSetCoverage(means=mu, true_ranks=truth, covered=covered, sizes=sizes,
                           n_items=int(n_items), n_resamples=int(n_resamples),
                           alpha=float(alpha), design=design)
