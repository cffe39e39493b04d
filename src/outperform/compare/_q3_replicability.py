"""Q3, replicability over data sets (Dror, Baumer, Bogomolov & Reichart 2017).

When the per-fold results of each data set are there, each data set gets its own test of
the two models (the corrected resampled t-test on its folds, Nadeau & Bengio 2003, one-sided
in each direction) and :func:`outperform.stats.replicability` counts on how many data sets
each model is better: k̂ by Bonferroni and by Fisher, and Holm's list of which. The two
directions are two claims, each made at alpha / 2.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._validation import DegenerateDataError
from ..data._results_table import ResultsTable, ScoreMatrix
from ..results import ComparisonReport
from ..stats._correlated_ttest import corrected_resampled_ttest
from ..stats._replicability import replicability
from ._q3_bayes import fold_scores
from ._words import replicability_words


def add_replicability(report: ComparisonReport, scores: ScoreMatrix,
                      table: ResultsTable | None) -> ComparisonReport:
    """Return ``report`` with ``details["replicability"]`` and its sentence, for two models
    whose data sets carry per-fold results (else ``report`` unchanged).

    ``details["replicability"]``: ``{"a": name, "b": name, "a_better": Replicability.to_dict(),
    "b_better": ..., "test": ...}``, the p-values one-sided per data set, alpha / 2 each way.
    A data set whose fold differences are all equal has no t-test: the analysis is then left
    out, with a warning that says so.
    """
    if table is None or len(scores.models) != 2 or scores.missing_cells:
        return report
    folds = fold_scores(table, scores.metric)
    if folds is None:
        return report
    sign = 1.0 if scores.higher_is_better else -1.0
    a_name, b_name = table.models
    half = report.alpha / 2
    try:
        # one test per data set (each has its own folds and rho): a loop over data sets
        tests = [corrected_resampled_ttest(sign * f[:, 0], sign * f[:, 1], rho=float(r),
                                           alternative="greater")
                 for f, r in zip(folds[0], folds[1])]
    except DegenerateDataError as exc:
        return replace(report, warnings=report.warnings + (
            f"replicability over data sets left out: a data set's fold differences have no "
            f"spread ({exc}).",))
    p_a = np.array([t.pvalue for t in tests])
    # the "less" p-value of a continuous t statistic is 1 - the "greater" one
    p_b = 1.0 - p_a
    names = tuple(map(str, table.tasks))
    a_better = replicability(p_a, alpha=half, names=names)
    b_better = replicability(p_b, alpha=half, names=names)
    words = [replicability_words(a_name, b_name, a_better),
             replicability_words(b_name, a_name, b_better)]
    if (b_better.k_fisher, b_better.k_bonferroni) > (a_better.k_fisher, a_better.k_bonferroni):
        words.reverse()      # the direction with data sets to show first
    details = dict(report.details, replicability={
        "a": a_name, "b": b_name, "alpha": report.alpha,
        "test": "corrected resampled t-test on each data set's folds, one-sided",
        "a_better": a_better.to_dict(), "b_better": b_better.to_dict()})
    return replace(report, details=details, conclusions=report.conclusions + tuple(words))
