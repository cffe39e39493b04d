"""The PairwiseResult of a Bayesian all-pairs comparison, shared by the Bayesian tests."""
from __future__ import annotations

import numpy as np

from ..results import PairwiseResult
from ._cycles import find_cycles
from ._rope import decide


def bayesian_pairwise_result(method: str, names: tuple[str, ...], p_better: np.ndarray,
                   p_rope: np.ndarray, threshold: float, cycle_threshold: float,
                   details: dict) -> PairwiseResult:
    """PairwiseResult of a Bayesian all-pairs comparison, with decisions and cycles.

    ``p_better[i, j]`` = P(model i practically better than model j), ``p_rope`` symmetric.
    Same layout as the other Bayesian all-pairs results: no p-values (NaN),
    ``adjustment="none"``, ``alpha = 1 - threshold``, ``reject[i, j]`` True when a
    difference was decided in either direction.
    """
    k = len(names)
    eye = np.eye(k, dtype=bool)
    p_better = np.where(eye, np.nan, p_better)
    p_rope = np.where(eye, np.nan, p_rope)
    # Row model i is A, column model j is B: P(A better) = p_better[i, j] on the right.
    decision = decide(p_better.T, p_rope, p_better, a_better_side="right",
                      threshold=threshold)
    decision[eye] = ""
    cycles = find_cycles(p_better, threshold=cycle_threshold, names=names)
    details = dict(details, p_rope=p_rope, decision=decision, threshold=threshold,
                   cycle_threshold=cycle_threshold, cycles=[list(c) for c in cycles])
    nan = np.full((k, k), np.nan)
    return PairwiseResult(
        method=method, names=names, statistic=p_better, pvalue=nan, pvalue_adjusted=nan.copy(),
        reject=(decision == "A better") | (decision == "B better"),
        alpha=round(1.0 - threshold, 12), adjustment="none", details=details)
