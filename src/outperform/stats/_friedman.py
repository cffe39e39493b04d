"""Friedman's test and the Iman-Davenport F statistic (Demšar 2006, §3.2.2).

Both test the null hypothesis that k models perform equally well over N data sets, from
the ranks of the models on each data set (1 = best). Friedman's chi2_F is compared with a
chi-square distribution on k - 1 degrees of freedom; Iman & Davenport (1980) showed it to be
conservative and derived F_F, compared with F on (k - 1, (k - 1)(N - 1)) degrees of freedom.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import chdtrc, fdtrc, gammaln

from .._validation import DegenerateDataError
from ..results import FrequentistResult
from ._ranks import ranked_scores


def _identical_rankings_pvalue(ranks: np.ndarray) -> float:
    """Permutation probability that N data sets all rank the models the same way.

    Under the null hypothesis each data set's ranking is a uniformly random arrangement of
    its (tied) ranks, with M = k! / prod(t_g!) distinct arrangements for tie groups of sizes
    t_g; all N coincide with probability M^-(N-1) (Conover 1999, p. 374, for no ties:
    (k!)^(1-N)). Used when the F approximation degenerates (zero denominator).
    """
    n, k = ranks.shape
    _, counts = np.unique(ranks[0], return_counts=True)
    log_arrangements = gammaln(k + 1) - gammaln(counts + 1).sum()
    return float(math.exp(-(n - 1) * log_arrangements))


def _friedman_core(scores, higher_is_better: bool, tie_correction: bool) -> dict:
    ranked = ranked_scores(scores, higher_is_better=higher_is_better, min_tasks=2)
    ranks = ranked.ranks
    n, k = ranks.shape
    # sum of (r - (k + 1)/2)^2 over the matrix, exact in any order (multiples of 1/4)
    within = np.sum(ranked.row_spread)
    if within == 0:
        raise DegenerateDataError(
            "every data set ties all models (all scores equal within each row): the ranks "
            "carry no information, so Friedman's test is undefined.")
    avg = ranked.average
    # Demšar's chi2_F: 12N / (k(k+1)) [sum_j R_j^2 - k(k+1)^2 / 4].
    stat = 12.0 * n / (k * (k + 1)) * (np.sum(avg ** 2) - k * (k + 1) ** 2 / 4.0)
    if tie_correction:
        # 1 - sum(t^3 - t) / (N k (k^2 - 1)) equals the within-row rank variance relative
        # to its untied value (k^3 - k) / 12 per data set.
        stat /= within / (n * (k ** 3 - k) / 12.0)
    stat = float(max(stat, 0.0))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    id_den = n * (k - 1) - stat
    if id_den <= 1e-12 * n * (k - 1):
        # Identical rankings on every data set: F_F is infinite and the F approximation
        # gives no p-value, so use the exact permutation probability of that event.
        id_stat, id_p, perfect = math.inf, _identical_rankings_pvalue(ranks), True
    else:
        id_stat = (n - 1) * stat / id_den
        # scipy.stats.f.sf(x, df1, df2) is fdtrc(df1, df2, x) (1 below the support), without
        # the distribution object's per-call checks
        id_p, perfect = float(fdtrc(df1, df2, max(id_stat, 0.0))), False
    return dict(
        chi2=stat, chi2_pvalue=float(chdtrc(df1, max(stat, 0.0))), df1=df1, df2=df2,
        f=float(id_stat), f_pvalue=id_p, kendalls_w=stat / (n * (k - 1)),
        details={
            "average_ranks": avg.tolist(),
            "n_datasets": n,
            "n_models": k,
            "tie_correction": tie_correction,
            "higher_is_better": higher_is_better,
            # Demšar: the chi-square approximation needs N > 10 and k > 5 as a rule of thumb.
            "small_sample": not (n > 10 and k > 5),
            "perfect_agreement": perfect,
        },
    )


def friedman(scores, *, higher_is_better: bool = True,
             tie_correction: bool = False) -> FrequentistResult:
    """Friedman's test that k models perform equally over N data sets.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets, columns are models.
        Also a ``RankedScores`` from :func:`~outperform.stats._ranks.ranked_scores` (the
        ranks computed once for several tests; same ``higher_is_better``).
    higher_is_better : bool, default True
        False for losses or error rates. Only the reported average ranks depend on it.
    tie_correction : bool, default False
        False gives Demšar's chi2_F, which has no correction for ties (as in the paper).
        True divides it by 1 - sum(t^3 - t) / (N k (k^2 - 1)) over the groups of t tied
        models, as ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` do.

    Returns
    -------
    FrequentistResult
        ``statistic`` chi2_F = 12N / (k(k+1)) [sum_j R_j^2 - k(k+1)^2 / 4] with R_j the
        average rank of model j (1 = best); ``pvalue`` from chi-square with ``df`` = k - 1;
        ``effect_size`` Kendall's W = chi2_F / (N(k - 1)) (0 = no agreement among data
        sets, 1 = identical rankings). ``details``: ``average_ranks``, ``n_datasets``,
        ``n_models``, ``iman_davenport_statistic``, ``iman_davenport_pvalue``,
        ``iman_davenport_df``, ``small_sample`` (True unless N > 10 and k > 5, Demšar's
        rule of thumb for the chi-square approximation; exact tables are then better),
        ``perfect_agreement``.

    Raises
    ------
    InvalidInputError
        Non-numeric values, NaN, or ``scores`` not 2-D.
    TooFewError
        Fewer than 2 data sets or 2 models.
    DegenerateDataError
        All models tie on every data set.

    See Also
    --------
    iman_davenport : the less conservative F version (Demšar recommends it).

    Notes
    -----
    Demšar (2006), §3.2.2; Friedman (1937, 1940). Table 6 of Demšar: with the paper's
    ranking chi2_F = 9.28 (average ranks 3.143, 2.000, 2.893, 1.964); ranking the printed
    AUCs, which tie on "voting", gives 9.857.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]
    >>> res = friedman(scores)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (6.4, 0.0408, 2)
    >>> res.details["average_ranks"]
    [1.2, 2.0, 2.8]
    """
    core = _friedman_core(scores, higher_is_better, tie_correction)
    details = dict(core["details"],
                   iman_davenport_statistic=core["f"], iman_davenport_pvalue=core["f_pvalue"],
                   iman_davenport_df=(core["df1"], core["df2"]))
    method = "Friedman test" + (" (tie-corrected)" if tie_correction else "")
    return FrequentistResult(
        statistic=core["chi2"], pvalue=core["chi2_pvalue"], method=method, df=core["df1"],
        effect_size=core["kendalls_w"], effect_size_name="Kendall's W", details=details)


def iman_davenport(scores, *, higher_is_better: bool = True,
                   tie_correction: bool = False) -> FrequentistResult:
    """Iman-Davenport F test that k models perform equally over N data sets.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns are models.
        Also a ``RankedScores`` from :func:`~outperform.stats._ranks.ranked_scores` (the
        ranks computed once for several tests; same ``higher_is_better``).
    higher_is_better : bool, default True
        False for losses or error rates. Only the reported average ranks depend on it.
    tie_correction : bool, default False
        Whether Friedman's chi2_F is tie-corrected first (see :func:`friedman`).

    Returns
    -------
    FrequentistResult
        ``statistic`` F_F = (N - 1) chi2_F / (N(k - 1) - chi2_F); ``pvalue`` from F with
        ``df`` = (k - 1, (k - 1)(N - 1)); ``effect_size`` Kendall's W. ``details`` as in
        :func:`friedman` plus ``friedman_statistic`` and ``friedman_pvalue``. If every data
        set ranks the models identically, F_F is infinite and the p-value is the exact
        permutation probability of that event, (k!)^(1 - N) without ties
        (``details["perfect_agreement"]``).

    Raises
    ------
    InvalidInputError, TooFewError, DegenerateDataError
        As :func:`friedman`.

    Notes
    -----
    Iman & Davenport (1980); Demšar (2006), §3.2.2, who finds F_F = 3.69 on (3, 39)
    degrees of freedom for Table 6 (critical value 2.85 at alpha = 0.05).

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]
    >>> res = iman_davenport(scores)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (7.111, 0.0169, (2, 8))
    """
    core = _friedman_core(scores, higher_is_better, tie_correction)
    details = dict(core["details"], friedman_statistic=core["chi2"],
                   friedman_pvalue=core["chi2_pvalue"])
    method = "Iman-Davenport test" + (" (tie-corrected)" if tie_correction else "")
    return FrequentistResult(
        statistic=core["f"], pvalue=core["f_pvalue"], method=method,
        df=(core["df1"], core["df2"]), effect_size=core["kendalls_w"],
        effect_size_name="Kendall's W", details=details)
