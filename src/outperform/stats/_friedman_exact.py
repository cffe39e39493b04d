"""Friedman's test by its permutation distribution: exact for small tables, else Monte Carlo.

Under the null hypothesis each data set's ranks are a uniformly random arrangement of the
observed ranks (midranks of ties kept), independently across data sets. The p-value is the
probability of a Friedman statistic at least as large as the observed one under that
distribution (Friedman 1937; Hollander, Wolfe & Chicken 2014 §7.1, whose Table A.22 tabulates
it). Friedman's chi2_F, its tie-corrected version and the Iman–Davenport F are increasing
functions of sum_j R_j^2 (R_j the rank sums) for a fixed table size and tie structure, so one
permutation p-value serves all three.

Exact: the distribution of the rank-sum vector is built data set by data set (a convolution
over the distinct arrangements of each data set's ranks, the first data set fixed since a
common relabelling of the models leaves the statistic unchanged), while the number of
distinct rank-sum vectors times arrangements stays within :data:`EXACT_BUDGET`. Beyond, a
Monte Carlo sample of :data:`MC_RESAMPLES` permutations with a fixed seed, p = (1 + #{S_b >=
S}) / (B + 1) (Phipson & Smyth 2010), and its Monte Carlo standard error.
"""
from __future__ import annotations

import math
from itertools import permutations

import numpy as np
from scipy.special import chdtrc

from .._validation import InvalidInputError, check_random_state
from ..results import FrequentistResult
from ._ranks import ranked_scores

__all__ = ["friedman_permutation"]

#: Largest (distinct rank-sum vectors x arrangements of one data set) the exact convolution
#: handles in one step by default (about 0.1 s and 30 MB at the limit), and with exact=True.
EXACT_BUDGET = 500_000
EXACT_LIMIT = 20_000_000
#: Most models whose arrangements are enumerated (8! = 40,320).
EXACT_MAX_MODELS = 8
#: Monte Carlo permutations when the exact distribution is too large: the standard error of
#: a p-value near 0.05 is then sqrt(0.05 * 0.95 / 20000) = 0.0015.
MC_RESAMPLES = 20_000
_CHUNK = 2_000_000   # (resamples x data sets x models) drawn at once


def _arrangements(row: np.ndarray) -> np.ndarray:
    """Distinct orderings of one data set's (doubled, integer) ranks, shape (m, k)."""
    return np.unique(np.array(list(permutations(row.tolist())), dtype=np.int64), axis=0)


def _count(row: np.ndarray) -> int:
    """Number of distinct orderings of a row: k! / prod(t!) over its groups of ties."""
    _, counts = np.unique(row, return_counts=True)
    return math.factorial(row.size) // math.prod(math.factorial(int(c)) for c in counts)


def _exact(doubled: np.ndarray, observed: int, budget: int = EXACT_BUDGET) -> float | None:
    """P(sum_j R_j^2 >= observed) by convolution over data sets, or None past the budget.

    ``doubled`` holds twice the ranks (integers); ``observed`` is sum_j (2 R_j)^2.
    """
    n, k = doubled.shape
    if k > EXACT_MAX_MODELS:
        return None
    states = doubled[:1].copy()            # the first data set fixed (see module docstring)
    prob = np.ones(1)
    base = int(doubled.max()) * n + 1      # each doubled rank sum lies in [0, base)
    packable = k * math.log2(base) < 62
    for row in doubled[1:]:
        if len(states) * _count(row) > budget:
            return None
        arr = _arrangements(row)
        sums = (states[:, None, :] + arr[None, :, :]).reshape(-1, k)
        weights = np.repeat(prob / len(arr), len(arr))
        if packable:
            keys = sums @ (base ** np.arange(k, dtype=np.int64))
            _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        else:
            _, first, inverse = np.unique(sums, axis=0, return_index=True, return_inverse=True)
        states = sums[first]
        prob = np.bincount(inverse.ravel(), weights=weights, minlength=len(first))
    return float(min(1.0, prob[np.sum(states * states, axis=1) >= observed].sum()))


def _monte_carlo(doubled: np.ndarray, observed: int, n_resamples: int, rng) -> float:
    """(1 + #{permuted sum_j R_j^2 >= observed}) / (B + 1), in chunks."""
    n, k = doubled.shape
    hits, done = 0, 0
    step = max(1, _CHUNK // (n * k))
    while done < n_resamples:
        b = min(step, n_resamples - done)
        sums = rng.permuted(np.broadcast_to(doubled, (b, n, k)), axis=2).sum(axis=1)
        hits += int(np.count_nonzero(np.sum(sums * sums, axis=1) >= observed))
        done += b
    return (1 + hits) / (n_resamples + 1)


def friedman_permutation(scores, *, higher_is_better: bool = True,
                         n_resamples: int = MC_RESAMPLES, random_state=0,
                         exact: bool | None = None) -> FrequentistResult:
    """Friedman's test of k models over N data sets, p-value from the permutation distribution.

    Parameters
    ----------
    scores : array_like, shape (N, k), or RankedScores
        One score per (data set, model); rows are data sets.
    higher_is_better : bool
        Direction of the scores (only the reported average ranks depend on it).
    n_resamples : int
        Monte Carlo permutations when the exact distribution is not computed.
    random_state : int, Generator or None
        Seed of the Monte Carlo permutations (unused when exact).
    exact : bool, optional
        None: exact when the table is small enough (see the module docstring), else Monte
        Carlo; True: exact or an error; False: Monte Carlo.

    Returns
    -------
    FrequentistResult
        ``statistic``: Demšar's chi2_F (as :func:`friedman`), ``df`` k - 1, ``pvalue``
        P(chi2_F >= observed) under within-data-set permutation. ``details``: ``exact``,
        ``n_resamples`` and ``mc_standard_error`` (Monte Carlo), ``chi2_pvalue`` (the
        chi-square approximation, for comparison), ``average_ranks``, ``n_datasets``,
        ``n_models``.

    Raises
    ------
    InvalidInputError
        Bad scores or options; ``exact=True`` for a table too large to enumerate.
    TooFewError
        Fewer than 2 data sets or 2 models.

    References
    ----------
    Friedman (1937); Hollander, Wolfe & Chicken (2014), Nonparametric Statistical Methods,
    3rd ed., §7.1 and Table A.22; Phipson & Smyth (2010) for the Monte Carlo p-value.

    Examples
    --------
    Three data sets ranking three models 1-2-3, 1-2-3 and 1-3-2: chi2_F = 4.667, whose exact
    p-value is 12/36 = 0.194 (the chi-square approximation gives 0.097):

    >>> res = friedman_permutation([[3, 2, 1], [3, 2, 1], [3, 1, 2]])
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.details["exact"]
    (4.667, 0.1944, True)
    """
    ranked = ranked_scores(scores, higher_is_better=higher_is_better, min_tasks=2)
    ranks = ranked.ranks
    n, k = ranks.shape
    if int(n_resamples) != n_resamples or n_resamples < 1:
        raise InvalidInputError(f"n_resamples must be a positive integer, got {n_resamples!r}.")
    doubled = np.rint(2 * ranks).astype(np.int64)      # midranks are multiples of 1/2
    totals = doubled.sum(axis=0)
    observed = int(np.sum(totals * totals))
    avg = ranked.average
    stat = float(max(0.0, 12.0 * n / (k * (k + 1)) * (np.sum(avg ** 2) - k * (k + 1) ** 2 / 4)))
    p = None if exact is False else _exact(doubled, observed,
                                           EXACT_LIMIT if exact else EXACT_BUDGET)
    if p is None and exact:
        raise InvalidInputError(
            f"the exact permutation distribution of {n} data sets x {k} models is too large "
            "to enumerate: pass exact=None for a Monte Carlo p-value.")
    details = {"exact": p is not None, "chi2_pvalue": float(chdtrc(k - 1, stat)),
               "average_ranks": avg.tolist(), "n_datasets": n, "n_models": k,
               "higher_is_better": higher_is_better}
    if p is None:
        p = _monte_carlo(doubled, observed, int(n_resamples), check_random_state(random_state))
        details.update(n_resamples=int(n_resamples),
                       mc_standard_error=float(math.sqrt(p * (1 - p) / n_resamples)))
        method = f"Friedman test (Monte Carlo permutation, {int(n_resamples):,} resamples)"
    else:
        method = "Friedman test (exact permutation distribution)"
    return FrequentistResult(statistic=stat, pvalue=float(p), method=method, df=k - 1,
                             effect_size=stat / (n * (k - 1)), effect_size_name="Kendall's W",
                             details=details)
