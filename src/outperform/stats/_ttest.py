"""Paired t-test on absolute or relative differences (Demšar 2006, §3.1.2; Williams 2026, §5.1).

Demšar warns that over data sets the t-test needs commensurable, normally distributed
differences and is sensitive to outliers; prefer the Wilcoxon test there. It suits paired
losses of two predictors on one large test set (Williams 2026, Q1).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_paired,
                           check_alternative)
from ..results import FrequentistResult
from ..results import LocationInterval
from ._effect_size import cohens_d

_EPS = np.finfo(float).eps


def paired_ttest(a, b, *, relative: bool = False,
                 alternative: str = "two-sided") -> FrequentistResult:
    """Paired t-test of whether the mean difference ``a - b`` is zero.

    ``t = mean(d) / (sd(d) / sqrt(n))`` with ``n - 1`` degrees of freedom (Demšar 2006,
    §3.1.2; Williams 2026, §5.1), where ``d = a - b`` favours A when positive.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Paired scores of models A and B (higher is better; for losses pass ``b, a``).
    relative : bool
        Test the relative differences ``d = (a - b) / ((a + b) / 2)``, the difference over
        the average score, which Demšar (2006, §3.1.2) proposes to compensate for data sets
        of different difficulty. Needs non-negative scores, not both zero.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: the mean difference is positive (A better).

    Returns
    -------
    FrequentistResult
        ``statistic`` t, ``df`` = n - 1, ``estimate`` = mean of ``d``, ``effect_size`` =
        Cohen's d of ``d`` (= t / sqrt(n)), ``confidence_interval(level)`` of the mean
        difference (one-sided for one-sided alternatives, as scipy), ``details``: ``n``,
        ``mean``, ``sd``, ``se``, ``relative``.

    Raises
    ------
    InvalidInputError
        NaN, non-numeric values, different lengths; with ``relative=True`` a negative score
        or a pair whose scores are both zero.
    TooFewError
        Fewer than 2 pairs.
    DegenerateDataError
        All differences are equal (zero variance; up to floating-point rounding), so t is
        undefined.

    Examples
    --------
    R's sleep data (Student 1908), ``t.test(extra ~ group, data = sleep, paired = TRUE)``:
    t = -4.0621, df = 9, p = 0.002833.

    >>> g1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
    >>> g2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
    >>> res = paired_ttest(g1, g2)
    >>> round(res.statistic, 4), res.df, round(res.pvalue, 6)
    (-4.0621, 9, 0.002833)
    >>> [round(v, 4) for v in res.confidence_interval(0.95)]
    [-2.4599, -0.7001]
    """
    check_alternative(alternative)
    x, y = as_paired(a, b)
    n = x.size
    if n < 2:
        raise TooFewError(f"the paired t-test needs at least 2 paired values, got {n}.")
    # Rounding error of each d_i is a few eps times this scale; below it, d has no spread.
    scale = np.maximum(np.abs(x), np.abs(y))
    d = x - y
    if relative:
        mid = (x + y) / 2
        if np.any(x < 0) or np.any(y < 0) or np.any(mid == 0):
            raise InvalidInputError(
                "relative differences (a - b) / ((a + b) / 2) need non-negative scores that are "
                "not both zero (e.g. accuracy, AUC); use relative=False otherwise.")
        d, scale = d / mid, scale / mid
    if np.ptp(d) <= 16 * _EPS * scale.max():
        raise DegenerateDataError(
            f"all {n} differences are equal ({d[0]:g}): their variance is zero and the t "
            "statistic is undefined.")

    mean, sd = float(np.mean(d)), float(np.std(d, ddof=1))
    se = sd / np.sqrt(n)
    t = mean / se
    df = n - 1
    if alternative == "two-sided":
        pvalue = 2 * special.stdtr(df, -abs(t))
    else:
        # stdtr is what scipy.stats.t.cdf/sf compute (sf(t) = stdtr(df, -t)), without the
        # second it takes to import scipy.stats.
        pvalue = special.stdtr(df, -t) if alternative == "greater" else special.stdtr(df, t)

    return FrequentistResult(
        statistic=float(t),
        pvalue=float(pvalue),
        method="paired t-test" + (" on relative differences" if relative else ""),
        alternative=alternative,
        df=df,
        estimate=mean,
        effect_size=cohens_d(d),
        effect_size_name="Cohen's d",
        details={"n": n, "mean": mean, "sd": sd, "se": float(se), "relative": relative},
        _interval=LocationInterval(mean, float(se), alternative, df=df),
    )
