"""5x2 cross-validation tests: Dietterich's paired t-test and Alpaydın's combined F-test.

Both take the score differences p_i^(j) = a - b of repetition i (of 5) and fold j (of 2)
of five replications of 2-fold cross-validation, with the per-repetition variance estimate
s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2, pbar_i = (p_i^(1) + p_i^(2)) / 2
(Dietterich 1998, §3.5; Alpaydın 1999).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import DegenerateDataError, InvalidInputError, as_float_array, check_alternative
from ..results import FrequentistResult


def _differences(diffs) -> tuple[np.ndarray, np.ndarray]:
    """Return the (r, 2) differences and the r per-repetition variances s_i^2."""
    p = as_float_array(diffs, "diffs")
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] < 2:
        raise InvalidInputError(
            "diffs must have shape (5, 2): one row per repetition of 2-fold cross-validation, "
            f"one column per fold, holding score(A) - score(B); got shape {p.shape}."
        )
    s2 = np.sum((p - p.mean(axis=1, keepdims=True)) ** 2, axis=1)
    if np.all(np.ptp(p, axis=1) == 0):
        raise DegenerateDataError(
            "the two folds of every repetition have the same difference, so all variance "
            "estimates s_i^2 are 0 and the 5x2cv statistics are undefined."
        )
    return p, s2


def dietterich_5x2cv_ttest(diffs, *, alternative: str = "two-sided") -> FrequentistResult:
    """Dietterich's 5x2cv paired t-test (Dietterich 1998, §3.5).

    t = p_1^(1) / sqrt((1/5) sum_i s_i^2), Student t with 5 degrees of freedom. Only the
    first fold of the first repetition enters the numerator, as published, so the
    statistic depends on which repetition is listed first.

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        Score differences a - b (positive favours A; higher-is-better scores such as
        accuracy, or pass error rates of B minus A), row i = repetition, column j = fold.
        Other numbers r >= 2 of repetitions are accepted (t with r degrees of freedom), but
        only r = 5 was studied by Dietterich.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A better.

    Returns
    -------
    FrequentistResult
        ``statistic`` t, ``pvalue``, ``df`` = 5, ``estimate`` p_1^(1); ``details`` holds the
        variances ``s2`` and the mean difference over all 10 folds.

    Raises
    ------
    InvalidInputError
        Wrong shape, NaN or non-numeric values.
    DegenerateDataError
        All s_i^2 are 0.

    Examples
    --------
    >>> diffs = [[24, 26], [26, 20], [25, 33], [24, 25], [24, 26]]
    >>> res = dietterich_5x2cv_ttest([[v / 75 for v in row] for row in diffs])
    >>> round(res.statistic, 4), round(res.pvalue, 6), res.df
    (7.2694, 0.00077, 5.0)
    """
    check_alternative(alternative)
    p, s2 = _differences(diffs)
    r = p.shape[0]
    t = p[0, 0] / np.sqrt(np.mean(s2))
    pvalue = {"two-sided": 2 * special.stdtr(r, -abs(t)), "greater": special.stdtr(r, -t),
              "less": special.stdtr(r, t)}[alternative]
    return FrequentistResult(
        statistic=float(t), pvalue=float(pvalue), method="Dietterich 5x2cv paired t-test",
        alternative=alternative, df=float(r), estimate=float(p[0, 0]),
        details={"s2": s2.tolist(), "mean_difference": float(p.mean()), "repetitions": r})


def alpaydin_5x2cv_ftest(diffs) -> FrequentistResult:
    """Alpaydın's combined 5x2cv F-test (Alpaydın 1999).

    f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2), F-distributed with (10, 5) degrees of
    freedom under the null hypothesis of equal expected scores. It uses all ten
    differences, so unlike Dietterich's t it does not depend on the order of the
    repetitions, and it is two-sided (the squares lose the sign).

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        Score differences a - b, row = repetition, column = fold (see
        :func:`dietterich_5x2cv_ttest`); r >= 2 repetitions give F(2r, r).

    Returns
    -------
    FrequentistResult
        ``statistic`` f, ``pvalue``, ``df`` = (10, 5), ``estimate`` mean of the ten
        differences (positive favours A), ``alternative`` "two-sided".

    Raises
    ------
    InvalidInputError
        Wrong shape, NaN or non-numeric values.
    DegenerateDataError
        All s_i^2 are 0.

    Examples
    --------
    >>> diffs = [[24, 26], [26, 20], [25, 33], [24, 25], [24, 26]]
    >>> res = alpaydin_5x2cv_ftest([[v / 75 for v in row] for row in diffs])
    >>> round(res.statistic, 4), round(res.pvalue, 7), res.df
    (59.5872, 0.0001447, (10.0, 5.0))
    """
    p, s2 = _differences(diffs)
    r = p.shape[0]
    f = np.sum(p**2) / (2 * np.sum(s2))
    pvalue = special.fdtrc(2 * r, r, f)
    return FrequentistResult(
        statistic=float(f), pvalue=float(pvalue), method="Alpaydin combined 5x2cv F-test",
        alternative="two-sided", df=(float(2 * r), float(r)), estimate=float(p.mean()),
        details={"s2": s2.tolist(), "repetitions": r})
