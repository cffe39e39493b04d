"""ROPE region probabilities and the decision rule of Williams (2026) §5.2."""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import check_choice, check_threshold

SIDES = ("left", "right")


def decide(p_left, p_rope, p_right, *, a_better_side: str, threshold: float = 0.95):
    """Decision of Williams (2026) §5.2 from the three region probabilities.

    If at least ``threshold`` of the posterior mass lies in one region, that region is the
    decision; otherwise the comparison is ``"undecided"``. The arguments follow the field
    order of :class:`~outperform.results.BayesianResult`.

    Parameters
    ----------
    p_left, p_rope, p_right : float or array_like, broadcastable
        P(parameter < low), P(low <= parameter <= high), P(parameter > high).
    a_better_side : {"left", "right"}
        The region in which model A is practically better (the result's field).
    threshold : float in (0.5, 1)
        Smallest posterior mass that decides. Above 0.5 at most one region can reach it; at
        or below, two could, and the decision would be an arbitrary order of the regions, so
        such thresholds are refused (Williams 2026 §5.2 uses 0.95).

    Returns
    -------
    str or ndarray of object
        ``"A better"``, ``"B better"``, ``"practically equivalent"`` or ``"undecided"``: a
        str for scalar probabilities, an array of the broadcast shape otherwise.

    Raises
    ------
    InvalidInputError
        ``a_better_side`` not "left" or "right", ``threshold`` outside (0.5, 1).

    Examples
    --------
    >>> decide(0.326, 0.660, 0.014, a_better_side="right")   # Williams §6.1, LgR vs MLP
    'undecided'
    >>> decide(0.996, 0.004, 0.000005, a_better_side="right")
    'B better'
    >>> decide([0.996, 0.01], [0.004, 0.98], [0.0, 0.01], a_better_side="left")
    array(['A better', 'practically equivalent'], dtype=object)
    """
    check_choice(a_better_side, "a_better_side", SIDES)
    check_threshold(threshold)
    if all(isinstance(p, (float, int)) for p in (p_left, p_rope, p_right)):
        # One comparison (the single-pair tests): the same rule without numpy's overhead.
        a, b = (p_right, p_left) if a_better_side == "right" else (p_left, p_right)
        for p, word in ((a, "A better"), (b, "B better"), (p_rope, "practically equivalent")):
            if p >= threshold:
                return word
        return "undecided"
    left, rope, right = np.broadcast_arrays(*(np.asarray(p, dtype=float)
                                              for p in (p_left, p_rope, p_right)))
    a, b = (right, left) if a_better_side == "right" else (left, right)
    decision = np.select([a >= threshold, b >= threshold, rope >= threshold],
                         ["A better", "B better", "practically equivalent"], "undecided")
    decision = decision.astype(object)
    return str(decision[()]) if decision.ndim == 0 else decision


def student_regions(df, loc, scale, rope: tuple[float, float]) -> np.ndarray:
    """Region probabilities of Student t(df, loc, scale) distributions, batched.

    Parameters
    ----------
    df, loc, scale : array_like, broadcastable
        Degrees of freedom, location and scale (> 0) of each posterior.
    rope : (float, float)

    Returns
    -------
    ndarray, shape (..., 3)
        P(< low), P(low..high), P(> high) per posterior, from the Student cdf in each tail
        (so that tiny tail probabilities, 1e-12, keep their precision); NaN where df or
        scale is not positive.
    """
    low, high = rope
    df, loc, scale = (np.asarray(v, dtype=float) for v in (df, loc, scale))
    # scipy.stats.t.cdf / .sf reduce to these ufuncs (same arithmetic, same bits) after
    # ~100 us of argument checking per call, which dominated tests called in loops.
    bad = ~((df > 0) & (scale > 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        left = np.where(bad, np.nan, special.stdtr(df, (low - loc) / scale))
        right = np.where(bad, np.nan, special.stdtr(df, -((high - loc) / scale)))
    # left and right already have the broadcast shape of all the arguments.
    return np.stack([left, np.maximum(0.0, 1.0 - left - right), right], axis=-1)


def student_regions_1d(df: float, loc: float, scale: float,
                       rope: tuple[float, float]) -> tuple[float, float, float]:
    """:func:`student_regions` of one posterior (df > 0, scale > 0) as three floats.

    The same arithmetic on Python floats (the same bits), without the array overhead.
    """
    low, high = rope
    left = float(special.stdtr(df, (low - loc) / scale))
    right = float(special.stdtr(df, -((high - loc) / scale)))
    return left, max(0.0, 1.0 - left - right), right


def region_probabilities_from_samples(samples: np.ndarray, rope: tuple[float, float]
                                      ) -> tuple[float, float, float]:
    """Share of ``samples`` (1-D) below, inside and above the ROPE."""
    low, high = rope
    s = np.asarray(samples, dtype=float)
    p_left = float(np.mean(s < low))
    p_right = float(np.mean(s > high))
    return p_left, 1.0 - p_left - p_right, p_right
