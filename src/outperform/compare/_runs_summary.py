"""Runs x tasks: over all k(k - 1)/2 pairs of models, how many differences' intervals exclude 0.

The count the report prints beside the pairs it shows in full (issue 31): the percentile
interval of every pair's resampled difference of each aggregate (Agarwal et al. 2021), decided
from the numbers of resamples below and at 0, vectorised over the pairs.
"""
from __future__ import annotations

import numpy as np

from ..results._runs import _percentile_interval


#: most resampled pair differences held at once by _pair_summary
_SUMMARY_CELLS = 5_000_000


def _pair_summary(aggregates, models, rule: str, shown: int) -> dict:
    """Over all pairs: how many differences' intervals exclude 0, per statistic (vectorised)."""
    models = list(models)
    i, j = np.triu_indices(len(models), 1)
    first = aggregates[models[0]]
    differing = {}
    for statistic, estimate in first.items():
        draws = np.stack([aggregates[m][statistic].distribution for m in models])
        usable = np.array([np.isfinite(aggregates[m][statistic].low) for m in models])
        step = max(1, _SUMMARY_CELLS // max(draws.shape[1], 1))
        count = 0
        for start in range(0, i.size, step):
            a, b = i[start:start + step], j[start:start + step]
            differ = _excludes_zero((draws[a] - draws[b]).T, estimate.confidence_level)
            count += int((differ & usable[a] & usable[b]).sum())
        differing[statistic] = count
    return {"rule": rule, "shown": int(shown), "total": int(i.size), "differing": differing}


def _excludes_zero(d: np.ndarray, level: float) -> np.ndarray:
    """Whether the percentile interval (:func:`_percentile_interval`) of each column of ``d``
    (resamples, columns) excludes 0, the same answer as the percentiles at two comparisons a
    value: an end interpolates between two neighbouring order statistics, so the numbers of
    values below and at 0 decide it, except for columns where 0 may lie between those two
    order statistics (one rank of margin either side), which get the percentiles."""
    n = d.shape[0]
    k_low = int(np.floor((n - 1) * (1 - level) / 2))    # order statistic of the lower end
    k_high = int(np.floor((n - 1) * (1 + level) / 2))
    at_most, below = (d <= 0).sum(axis=0), (d < 0).sum(axis=0)
    low_above, low_not = at_most <= k_low - 1, at_most >= k_low + 3
    high_below, high_not = below >= k_high + 3, below <= k_high - 1
    nan = np.isnan(d).any(axis=0)
    out = (low_above | high_below) & ~nan
    unsure = ~(low_above | high_below | (low_not & high_not)) & ~nan
    if unsure.any():
        low, high = _percentile_interval(d[:, unsure], level)
        out[unsure] = (low > 0) | (high < 0)
    return out
