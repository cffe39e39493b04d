"""Equivalence of two models by two one-sided t tests (TOST; Schuirmann 1987).

The frequentist twin of the region of practical equivalence: with the ROPE half-width as
margin δ (in the metric's units), the two models are declared equivalent at level α when
both H0: μ_d <= −δ and H0: μ_d >= δ are rejected by one-sided t tests at level α, μ_d being
the mean paired difference a − b. Equivalently, the (1 − 2α) confidence interval of μ_d lies
inside (−δ, δ).
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, as_paired
from ..results import FrequentistResult, LocationInterval
from ._correlated_ttest import corrected_resampled_ttest, resolve_rho
from ._ttest import paired_ttest


def tost(a, b, *, margin: float, rho=None, n_train=None, n_test=None) -> FrequentistResult:
    """Two one-sided t tests of equivalence of paired scores within ±``margin``.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Paired scores of models A and B: per example, per data set, or per fold.
    margin : float > 0
        Equivalence margin δ in the units of the scores (e.g. the ROPE half-width 0.01
        for accuracy).
    rho, n_train, n_test : optional
        Folds of a resampling design: the correlation of the fold differences (or the sizes
        that give it, ρ = n_test / (n_train + n_test)); the standard error is then the
        Nadeau–Bengio corrected one, sd · sqrt(1/n + ρ/(1 − ρ)) (see
        :func:`~outperform.stats.corrected_resampled_ttest`). Without them the scores are
        independent pairs (standard error sd / sqrt(n)).

    Returns
    -------
    FrequentistResult
        ``pvalue`` = max(p_lower, p_upper), the p-value of equivalence (equivalent at level
        α when below it); ``statistic`` the t of the larger of the two; ``estimate`` the mean
        of a − b; ``details``: ``margin``, ``t_lower`` = (d̄ + δ)/se with ``p_lower`` =
        P(T > t_lower), ``t_upper`` = (d̄ − δ)/se with ``p_upper`` = P(T < t_upper), ``df``,
        ``standard_error``, ``rho``. ``confidence_interval(1 − 2α)`` inside (−δ, δ) is the
        same decision.

    Raises
    ------
    InvalidInputError
        margin not positive and finite, unpaired or non-finite scores, bad rho.
    TooFewError, DegenerateDataError
        Fewer than 2 pairs, or all differences equal (as the t tests).

    Notes
    -----
    Schuirmann (1987), J. Pharmacokinet. Biopharm. 15: 657–680; Lakens (2017), Soc. Psychol.
    Personal. Sci. 8: 355–362. Without ``rho`` the numbers are statsmodels'
    ``ttost_paired(a, b, -margin, margin)``.

    Examples
    --------
    >>> a = [0.81, 0.79, 0.84, 0.80, 0.83, 0.82, 0.80, 0.81]
    >>> b = [0.80, 0.80, 0.83, 0.81, 0.82, 0.82, 0.81, 0.80]
    >>> res = tost(a, b, margin=0.02)   # statsmodels: ttost_paired(a, b, -0.02, 0.02)[0]
    >>> round(res.pvalue, 4), round(res.estimate, 4)
    (0.0005, 0.0013)
    """
    if not (isinstance(margin, (int, float, np.floating, np.integer))
            and not isinstance(margin, bool) and np.isfinite(margin) and margin > 0):
        raise InvalidInputError(f"margin must be a positive number in the units of the "
                                f"scores (e.g. the ROPE half-width), got {margin!r}.")
    x, y = as_paired(a, b)
    folds = rho is not None or n_train is not None or n_test is not None
    if folds:
        r = resolve_rho(rho, n_train, n_test)
        lower = corrected_resampled_ttest(x + margin, y, rho=r, alternative="greater")
        upper = corrected_resampled_ttest(x - margin, y, rho=r, alternative="less")
        se, df = lower.details["standard_error"], lower.df
    else:
        r = None
        lower = paired_ttest(x + margin, y, alternative="greater")
        upper = paired_ttest(x - margin, y, alternative="less")
        se, df = lower.details["se"], lower.df
    worse = lower if lower.pvalue >= upper.pvalue else upper
    mean = float(np.mean(x - y))
    return FrequentistResult(
        statistic=worse.statistic, pvalue=float(max(lower.pvalue, upper.pvalue)),
        method="TOST equivalence test" + (" (corrected resampled t)" if folds else
                                          " (paired t)"),
        alternative="equivalence", df=df, estimate=mean,
        details={"margin": float(margin), "t_lower": lower.statistic,
                 "p_lower": lower.pvalue, "t_upper": upper.statistic,
                 "p_upper": upper.pvalue, "standard_error": se, "rho": r, "n": int(x.size)},
        _interval=LocationInterval(mean, float(se), "two-sided", df=float(df)))
