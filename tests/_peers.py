"""Independent computations the tests compare the package with (peers written in the tests).

``tests`` is on pytest's ``pythonpath``: ``from _peers import friedman_brute_force``.
"""
from __future__ import annotations

import itertools

import numpy as np
from scipy import stats


def friedman_brute_force(x) -> float:
    """Exact permutation p-value of Friedman's statistic by enumeration.

    P(sum_j R_j^2 >= observed) over every arrangement of every row's (mid)ranks of ``x``
    (rows: data sets; columns: models; higher is better), each arrangement equally likely
    under the null hypothesis. The rows' permutations (from :func:`itertools.permutations`)
    are combined by broadcasting, one step per row, so no Python loop runs over the
    prod(k!) combinations.
    """
    ranks = stats.rankdata(-np.asarray(x, float), axis=1)
    observed = np.sum(ranks.sum(axis=0) ** 2)
    sums = np.zeros((1, ranks.shape[1]))
    for r in ranks.tolist():
        perms = np.array(sorted(set(itertools.permutations(r))))
        sums = (sums[:, None, :] + perms[None, :, :]).reshape(-1, ranks.shape[1])
    return float(np.mean((sums ** 2).sum(axis=1) >= observed - 1e-9))
