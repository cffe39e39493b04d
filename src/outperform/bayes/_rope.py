"""ROPE region probabilities and the decision rule of Williams (2026) §5.2."""
from __future__ import annotations

import numpy as np

from .._validation import check_probability


def decide(p_a_better: float, p_equivalent: float, p_b_better: float,
           threshold: float = 0.95) -> str:
    """Decision of Williams (2026) §5.2 from the three region probabilities.

    If at least ``threshold`` of the posterior mass lies in one region, that region is the
    decision; otherwise the comparison is ``"undecided"``.

    Returns
    -------
    str
        ``"A better"``, ``"B better"``, ``"practically equivalent"`` or ``"undecided"``.

    Examples
    --------
    >>> decide(0.014, 0.660, 0.326)   # Williams §6.1, LgR vs MLP
    'undecided'
    >>> decide(0.000005, 0.004, 0.996)
    'B better'
    """
    check_probability(threshold, "threshold")
    if p_a_better >= threshold:
        return "A better"
    if p_b_better >= threshold:
        return "B better"
    if p_equivalent >= threshold:
        return "practically equivalent"
    return "undecided"


def region_probabilities(posterior, rope: tuple[float, float]) -> tuple[float, float, float]:
    """P(parameter < low), P(low <= parameter <= high), P(parameter > high).

    ``posterior`` is a scipy frozen continuous distribution; the tails use ``cdf`` and ``sf``
    so that tiny probabilities (1e-12) keep their precision.
    """
    low, high = rope
    p_left = float(posterior.cdf(low))
    p_right = float(posterior.sf(high))
    p_rope = max(0.0, 1.0 - p_left - p_right)
    return p_left, p_rope, p_right


def region_probabilities_from_samples(samples: np.ndarray, rope: tuple[float, float]
                                      ) -> tuple[float, float, float]:
    """Share of ``samples`` (1-D) below, inside and above the ROPE."""
    low, high = rope
    s = np.asarray(samples, dtype=float)
    p_left = float(np.mean(s < low))
    p_right = float(np.mean(s > high))
    return p_left, 1.0 - p_left - p_right, p_right
