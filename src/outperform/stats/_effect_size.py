"""Effect sizes for paired comparisons: Cohen's d, Cohen's g, rank-biserial correlation.

A p-value says whether a difference is detectable, not how large it is; Williams (2026, §5.1)
recommends reporting an effect size with every test. Sign convention as everywhere in the
package: a positive effect size favours model A (for Cohen's g this is the negative of
Williams' phi - 1/2, see :func:`cohens_g`).

References
----------
Cohen, J. (1988). *Statistical Power Analysis for the Behavioral Sciences*, 2nd ed.
Williams, C. K. I. (2026). A review of best practices for comparing ML models, §5.1, §6.
Kerby, D. S. (2014). The simple difference formula: an approach to teaching nonparametric
correlation. *Comprehensive Psychology* 3, 11.IT.3.1.
"""
from __future__ import annotations

import numpy as np

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_counts,
                           as_float_array, as_paired, check_choice)

#: Lower bounds of |value| for "small", "medium" and "large" (below the first: "negligible").
#: d: Cohen (1988, p. 40) as quoted by Williams (2026, §5.1); g: Williams (2026, §5.1).
EFFECT_SIZE_THRESHOLDS = {
    "d": (0.2, 0.5, 0.8),
    "g": (0.05, 0.15, 0.25),
}
EFFECT_SIZE_LABELS = ("negligible", "small", "medium", "large")


def cohens_d(a, b=None) -> float:
    """Cohen's d for paired measurements: mean difference over its standard deviation.

    ``d = mean(a - b) / sd(a - b)`` with the sample standard deviation (ddof = 1), i.e. the
    paired-t statistic without its sqrt(n): ``t = d * sqrt(n)`` (Williams 2026, §5.1,
    "d = m/s"). This is the standardised mean of the *differences*, not the two-sample d with
    a pooled standard deviation.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Paired scores of models A and B (higher is better; for losses pass them swapped).
        If ``b`` is omitted, ``a`` holds the differences themselves.

    Returns
    -------
    float
        Positive when A is better on average.

    Raises
    ------
    InvalidInputError
        NaN, non-numeric values or different lengths.
    TooFewError
        Fewer than 2 pairs.
    DegenerateDataError
        All differences are equal (zero standard deviation), so d is undefined.

    Examples
    --------
    >>> round(cohens_d([0.81, 0.74, 0.90, 0.66], [0.78, 0.75, 0.85, 0.61]), 4)
    1.0607
    """
    d = as_float_array(a, "a", ndim=1) if b is None else np.subtract(*as_paired(a, b))
    if d.size < 2:
        raise TooFewError(f"Cohen's d needs at least 2 paired values, got {d.size}.")
    sd = np.std(d, ddof=1)
    if not sd > 0:
        raise DegenerateDataError(
            "Cohen's d is undefined: all differences are equal (standard deviation 0).")
    return float(np.mean(d) / sd)


def cohens_g(n01, n10):
    """Cohen's g for paired 0/1 outcomes (McNemar's discordant pairs), positive favours A.

    Williams (2026, §5.1) defines ``phi = n01 / (n01 + n10)`` and ``g = phi - 1/2`` (Cohen
    1988, pp. 147-149), with n01 the examples A gets wrong and B gets right. To keep the
    package-wide sign (positive favours model A) this function returns the same magnitude
    with the opposite sign::

        g = n10 / (n01 + n10) - 1/2 = 1/2 - phi = -(Williams' g)

    i.e. the share of the discordant pairs won by A, minus one half. It is also Cohen's g of
    the sign test (Cohen 1988, ch. 5) with n10 = wins of A and n01 = losses of A.

    Parameters
    ----------
    n01 : int or array_like of int
        Number of examples A gets wrong and B gets right (losses of A).
    n10 : int or array_like of int
        Number of examples A gets right and B gets wrong (wins of A).

    Returns
    -------
    float or ndarray
        In [-1/2, 1/2]; an array when arrays are given (element-wise, e.g. one per task).

    Raises
    ------
    InvalidInputError
        Negative, non-integer or NaN counts, or shapes that do not broadcast.
    DegenerateDataError
        ``n01 + n10 == 0``: there are no discordant pairs, g is undefined.

    Examples
    --------
    Williams (2026) §6.2 and Table 1, A = GNN, B = LLM: da-en |g| = 0.055, "small", in favour
    of the GNN (A); tr-en |g| = 0.18, "medium", in favour of the LLM (B).

    >>> round(cohens_g(159, 198), 4), round(cohens_g(64, 30), 4)
    (0.0546, -0.1809)
    >>> effect_size_label(cohens_g(159, 198), "g")
    'small'
    """
    lose, win = as_counts(n01, "n01"), as_counts(n10, "n10")
    try:
        total = lose + win
    except ValueError:
        raise InvalidInputError(
            f"n01 and n10 must have the same shape, got {lose.shape} and {win.shape}.") from None
    if np.any(total == 0):
        raise DegenerateDataError(
            "Cohen's g is undefined without discordant pairs (n01 + n10 = 0): the two models "
            "are right and wrong on exactly the same examples.")
    g = win / total - 0.5
    return float(g) if g.ndim == 0 else g


def rank_biserial(r_plus, r_minus) -> float:
    """Matched-pairs rank-biserial correlation ``(R+ - R-) / (R+ + R-)``.

    The effect size of the Wilcoxon signed-rank test (Kerby 2014, simple difference
    formula): the share of the rank sum favouring A minus the share favouring B. It lies in
    [-1, 1], positive when A is better (R+ is the rank sum where A is better).

    Parameters
    ----------
    r_plus, r_minus : float
        Rank sums of the differences favouring A and B (non-negative).

    Raises
    ------
    InvalidInputError
        Negative or non-finite rank sums.
    DegenerateDataError
        ``R+ + R- == 0`` (no ranked differences).

    Examples
    --------
    Demšar (2006) Table 2: R+ = 93, R- = 12.

    >>> round(rank_biserial(93, 12), 4)
    0.7714
    """
    rp = float(as_float_array(r_plus, "r_plus", ndim=0))
    rm = float(as_float_array(r_minus, "r_minus", ndim=0))
    if rp < 0 or rm < 0:
        raise InvalidInputError(f"rank sums must be non-negative, got R+={rp:g}, R-={rm:g}.")
    if rp + rm == 0:
        raise DegenerateDataError("rank-biserial correlation is undefined when R+ + R- = 0.")
    return (rp - rm) / (rp + rm)


def effect_size_label(value: float, kind: str) -> str:
    """Verbal label of an effect size: "negligible", "small", "medium" or "large".

    Uses |value| (the sign only says which model is favoured) against the thresholds of
    Williams (2026, §5.1):

    * ``kind="d"`` (Cohen's d; Cohen 1988, p. 40): |d| < 0.2 negligible, < 0.5 small,
      < 0.8 medium, else large. Williams §6 calls d = 0.066 "negligible" and 0.53 "medium".
    * ``kind="g"`` (Cohen's g): |g| < 0.05 negligible, < 0.15 small, < 0.25 medium, else
      large. Williams §6.2 calls |g| = 0.055 "small" and 0.18 "medium".

    A value exactly on a threshold gets the larger label (Cohen's benchmarks are the values
    *named* small, medium and large).

    Parameters
    ----------
    value : float
    kind : {"d", "g"}

    Raises
    ------
    InvalidInputError
        Unknown ``kind`` or non-finite ``value``.

    Examples
    --------
    >>> effect_size_label(0.53, "d"), effect_size_label(-0.18, "g")
    ('medium', 'medium')
    """
    check_choice(kind, "kind", EFFECT_SIZE_THRESHOLDS)
    size = abs(float(as_float_array(value, "value", ndim=0)))
    return EFFECT_SIZE_LABELS[int(np.searchsorted(EFFECT_SIZE_THRESHOLDS[kind], size, side="right"))]
