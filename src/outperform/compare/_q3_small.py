"""Q3 over few data sets: the Friedman test by its permutation distribution decides.

Demšar (2006) §3.2.2 asks for N > 10 data sets (and k > 5 models) before the chi-square
approximation of Friedman's statistic is trusted; the Iman–Davenport F is closer but still an
approximation, and below it is anticonservative: with N = 3 and k = 5 it rejects at
chi2_F >= 7.89 where the exact 5% critical value is 8.53 (Hollander, Wolfe & Chicken 2014,
Table A.22). With at most :data:`SMALL_N` data sets the omnibus decision therefore rests on
the exact permutation distribution (Monte Carlo with a fixed seed when too large to
enumerate), :func:`outperform.stats._friedman_exact.friedman_permutation`; and, as Demšar's
procedure runs the post-hoc tests only after the omnibus test rejects, their rejections are
withheld when it does not (the Bayesian tests likewise decide nothing below 5 data sets).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..results import FrequentistResult, PairwiseResult
from ..stats._friedman_exact import EXACT_MAX_MODELS, MC_RESAMPLES, friedman_permutation

#: Most data sets for which the Friedman test's permutation distribution decides (Demšar
#: 2006 §3.2.2: the chi-square approximation needs N > 10).
SMALL_N = 10
#: Work of the Monte Carlo permutations (resamples x data sets x models) the omnibus test may
#: take: about a second here. Larger tables get fewer resamples, down to
#: :data:`MIN_RESAMPLES`; beyond that (thousands of models) the Iman–Davenport F decides, its
#: approximation being closest with many models (k - 1 and (k - 1)(N - 1) degrees of freedom).
PERMUTATION_BUDGET = 10 ** 8
#: Fewest Monte Carlo resamples worth a decision (Monte Carlo SE of p = 0.05 about 0.005).
MIN_RESAMPLES = 2_000


def small_sample_omnibus(ranked, *, random_state=0) -> FrequentistResult | None:
    """The permutation Friedman test of a table of at most :data:`SMALL_N` data sets, or None
    (more data sets, or a Monte Carlo test beyond :data:`PERMUTATION_BUDGET`)."""
    n, k = ranked.ranks.shape
    if n > SMALL_N:
        return None
    resamples = min(MC_RESAMPLES, PERMUTATION_BUDGET // (n * k))
    if k > EXACT_MAX_MODELS and resamples < MIN_RESAMPLES:
        return None
    return friedman_permutation(ranked, higher_is_better=ranked.higher_is_better,
                                random_state=random_state, n_resamples=max(resamples, 1))


def small_sample_warning(result: FrequentistResult) -> str:
    """What the permutation test replaces, and why."""
    d = result.details
    how = ("its exact permutation distribution" if d["exact"] else
           f"a Monte Carlo permutation distribution ({d['n_resamples']:,} resamples, fixed "
           f"seed; Monte Carlo standard error of p {d['mc_standard_error']:.2g})")
    return (f"with N = {d['n_datasets']} data sets (at most {SMALL_N}) the chi-square and "
            "Iman–Davenport F approximations of the Friedman statistic are unreliable "
            "(Demšar 2006 §3.2.2 asks for N > 10): the omnibus decision uses " + how
            + f", p = {result.pvalue:.3g} (chi-square approximation: "
            f"{d['chi2_pvalue']:.3g}).")


def withhold_posthoc(post: dict[str, PairwiseResult], omnibus: FrequentistResult,
                     alpha: float) -> tuple[dict[str, PairwiseResult], list[str]]:
    """Post-hoc results with their rejections withheld when the permutation test does not
    reject (Demšar 2006 §3.2.2 runs post-hoc tests only after the omnibus test rejects)."""
    if omnibus.pvalue < alpha or not any(r.reject.any() for r in post.values()):
        return post, []
    reason = (f"the Friedman test by its permutation distribution does not reject (p = "
              f"{omnibus.pvalue:.3g} >= {alpha}) on {omnibus.details['n_datasets']} data sets")
    out = {key: replace(res, reject=np.zeros_like(res.reject),
                        details=dict(res.details, decision_withheld=reason))
           for key, res in post.items()}
    return out, [f"post-hoc decisions withheld: {reason}, and with so few data sets the "
                 "post-hoc tests' normal approximations would make claims it does not support; "
                 "add data sets."]
