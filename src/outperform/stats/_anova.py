"""Repeated-measures (within-subjects) ANOVA of k models over N data sets (Demšar 2006, §3.2.1)."""
from __future__ import annotations

import numpy as np
from scipy.stats import f as f_dist

from .._validation import DegenerateDataError, as_score_matrix
from ..results import FrequentistResult


def repeated_measures_anova(scores) -> FrequentistResult:
    """F test that k models have equal mean score over N data sets (data sets as blocks).

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets (the "subjects"), columns
        are models (the within-subject factor). The direction of the score (higher or
        lower is better) does not matter.

    Returns
    -------
    FrequentistResult
        ``statistic`` F = MS_models / MS_error with ``df`` = (k - 1, (k - 1)(N - 1)) and
        ``pvalue`` its upper tail; ``effect_size`` partial eta squared
        SS_models / (SS_models + SS_error). ``details``: sums of squares and mean squares,
        ``generalized_eta_squared`` SS_models / (SS_models + SS_datasets + SS_error)
        (Olejnik & Algina 2003; Bakeman 2005), ``model_means``, and the Greenhouse-Geisser
        sphericity correction ``greenhouse_geisser_epsilon`` (1/(k-1) <= eps <= 1, 1 under
        sphericity) with ``pvalue_greenhouse_geisser`` from F on (eps(k-1), eps(k-1)(N-1))
        degrees of freedom (Greenhouse & Geisser 1959).

    Raises
    ------
    InvalidInputError
        Non-numeric values, NaN, or ``scores`` not 2-D.
    TooFewError
        Fewer than 2 data sets or 2 models.
    DegenerateDataError
        Zero residual variance: the scores are exactly additive in data set and model
        (e.g. all equal), so the F ratio is undefined.

    Notes
    -----
    Demšar (2006), §3.2.1 divides the total variability into between-models, between-data
    sets and residual parts and compares the first with the last. He advises against the
    test for comparing classifiers: it assumes normality and sphericity (equal variances of
    all pairwise differences), which scores over different data sets rarely satisfy; the
    Greenhouse-Geisser p-value relaxes the second. Prefer :func:`friedman` unless these hold.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]
    >>> res = repeated_measures_anova(scores)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (9.642, 0.0074, (2, 8))
    """
    x = as_score_matrix(scores)
    n, k = x.shape
    grand = x.mean()
    model_means = x.mean(axis=0)
    data_means = x.mean(axis=1)
    ss_models = n * np.sum((model_means - grand) ** 2)
    ss_data = k * np.sum((data_means - grand) ** 2)
    residuals = x - data_means[:, None] - model_means[None, :] + grand
    ss_error = np.sum(residuals ** 2)
    ss_total = np.sum((x - grand) ** 2)
    if ss_error <= 1e-12 * ss_total or ss_total == 0:
        raise DegenerateDataError(
            "the residual variance is zero (each model's scores differ from the others' by "
            "the same amount on every data set, or all scores are equal): the ANOVA F ratio "
            "is undefined.")
    df1, df2 = k - 1, (k - 1) * (n - 1)
    ms_models, ms_error = ss_models / df1, ss_error / df2
    stat = ms_models / ms_error
    # Greenhouse-Geisser: eigenvalues of the double-centred covariance of the k models.
    centring = np.eye(k) - 1.0 / k
    s = centring @ np.cov(x, rowvar=False) @ centring
    eps = float(np.trace(s) ** 2 / ((k - 1) * np.sum(s * s)))
    return FrequentistResult(
        statistic=float(stat), pvalue=float(f_dist.sf(stat, df1, df2)),
        method="Repeated-measures ANOVA", df=(df1, df2),
        effect_size=float(ss_models / (ss_models + ss_error)),
        effect_size_name="partial eta squared",
        details={
            "ss_models": float(ss_models), "ss_datasets": float(ss_data),
            "ss_error": float(ss_error), "ms_models": float(ms_models),
            "ms_error": float(ms_error),
            "generalized_eta_squared": float(ss_models / (ss_models + ss_data + ss_error)),
            "model_means": model_means.tolist(),
            "greenhouse_geisser_epsilon": eps,
            "pvalue_greenhouse_geisser": float(f_dist.sf(stat, eps * df1, eps * df2)),
            "n_datasets": n, "n_models": k,
        })
