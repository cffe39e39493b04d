"""Q3 by the repeated-measures ANOVA and paired t-tests (``compare(..., omnibus="anova")``).

Demšar (2006) §3.2.1: the repeated-measures ANOVA tests whether k models have equal mean
scores over N data sets (the data sets as blocks); after it rejects, pairs are compared by
paired t-tests on the data sets, here with Holm's step-down correction (against a control:
its k - 1 pairs only). Demšar advises against it for classifiers: it assumes normally
distributed scores and sphericity (equal variances of all pairwise differences), which scores
over different data sets rarely satisfy; the report says so, gives the Greenhouse–Geisser
corrected p-value beside it, and warns when sphericity looks violated. The Friedman test,
compare()'s default (``omnibus="friedman"``), makes none of these assumptions.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._validation import InvalidInputError, TooFewError
from ..results import ComparisonReport, PairwiseResult
from ..stats._anova import repeated_measures_anova
from ..stats._cliques import nonsignificant_groups
from ..stats._multipletests import adjust_pvalues
from ..stats._pairwise_ttest import pairwise_ttest
from ._pair_choice import report_pairs, said_pairs, shown_pairs
from ._words import conclusion

OMNIBUS = ("friedman", "anova")
#: Greenhouse–Geisser epsilon below which sphericity is in doubt (Girden 1992's 0.75, the
#: usual threshold for preferring the corrected p-value).
SPHERICITY_EPSILON = 0.75


def check_omnibus(omnibus: str, procedures: list[str], k: int, missing: bool) -> None:
    """Refuse combinations the ANOVA route does not run."""
    if omnibus not in OMNIBUS:
        raise InvalidInputError(f"omnibus must be one of {OMNIBUS}, got {omnibus!r}.")
    if omnibus == "friedman":
        return
    if missing:
        raise InvalidInputError(
            "omnibus='anova' needs every (task, model) cell: the repeated-measures ANOVA has "
            "no form for missing cells here. Complete the runs, or use the default "
            "omnibus='friedman' (Skillings–Mack on incomplete tables).")
    if k < 3:
        raise InvalidInputError(
            "omnibus='anova' compares k >= 3 models; with two, the paired t-test over the "
            "data sets is already reported beside the Wilcoxon test.")
    if len(procedures) != 1 or procedures[0] not in ("auto", "holm", "none"):
        raise InvalidInputError(
            f"posthoc={procedures if len(procedures) > 1 else procedures[0]!r} is a rank "
            "test of the Friedman route; after omnibus='anova' the post-hoc test is paired "
            "t-tests with Holm's correction: use posthoc='auto' (or 'holm'), or 'none'.")


def compare_anova(scores, summary, *, alpha: float, control: str | None, procedure: str,
                  warnings: list[str], pairs: str | None = None) -> ComparisonReport:
    """The ANOVA route of :func:`outperform.compare._q3.compare_many_tasks` (k >= 3, no
    missing cell): the omnibus F test, then paired t-tests with Holm's correction.

    Raises
    ------
    TooFewError
        Fewer than 3 data sets (the paired t-tests need 2 degrees of freedom to say anything).
    DegenerateDataError
        Zero residual variance (see :func:`outperform.stats.repeated_measures_anova`).
    """
    values, hib, names = scores.values, scores.higher_is_better, scores.models
    n, k = values.shape
    if n < 3:
        raise TooFewError(f"{n} data sets: the repeated-measures ANOVA and paired t-tests need "
                          "at least 3.")
    anova = repeated_measures_anova(values)
    means = values.mean(axis=0)
    summary = tuple(sorted(summary, key=lambda row: -row["mean_score"] if hib
                           else row["mean_score"]))
    post = {} if procedure == "none" else {
        "paired_t_holm": _paired_posthoc(values, names, hib, alpha, control)}
    eps = anova.details["greenhouse_geisser_epsilon"]
    warnings = list(warnings) + [
        "repeated-measures ANOVA, as asked (omnibus='anova'): it assumes normally distributed "
        "scores and sphericity, which scores over different data sets rarely satisfy; "
        "Demšar (2006 §3.2.1) advises the Friedman test instead (omnibus='friedman', the "
        "default)."]
    if eps < SPHERICITY_EPSILON:
        warnings.append(
            f"sphericity is in doubt (Greenhouse–Geisser epsilon = {eps:.3g} < "
            f"{SPHERICITY_EPSILON}): read the corrected p-value, "
            f"{anova.details['pvalue_greenhouse_geisser']:.3g}, rather than {anova.pvalue:.3g}.")
    if anova.pvalue >= alpha and any(r.reject.any() for r in post.values()):
        warnings.append("the ANOVA is not significant but a paired t-test rejects some pair: "
                        "such post-hoc claims are not supported (Demšar 2006 §3.2.1).")
    decided = anova.pvalue < alpha
    words = [(f"The algorithms differ in mean {scores.metric}" if decided else
              f"No significant difference among the mean {scores.metric} of the {k} "
              "algorithms")
             + f" (repeated-measures ANOVA F = {anova.statistic:.3f} on {anova.df[0]} and "
               f"{anova.df[1]} df, p = {anova.pvalue:.3g} " + ("<" if decided else ">=")
             + f" {alpha}; Greenhouse–Geisser p = "
               f"{anova.details['pvalue_greenhouse_geisser']:.3g})."]
    chosen = report_pairs([row["model"] for row in summary], names, post, control=control,
                          pairs=pairs)
    for res in post.values():
        hits, count = said_pairs(res.method, res, shown_pairs(names, chosen))
        words += [conclusion(res.method, names[i], names[j], decision=True,
                             values=(means[i], means[j]), quantity=f"mean {scores.metric}",
                             higher_is_better=hib,
                             evidence=f"Holm-adjusted p = {res.pvalue_adjusted[i, j]:.3g}")
                  for i, j in hits]
        if not (hits or count):
            words.append(f"{res.method} finds no significantly different pair at α = {alpha}.")
        words += [count] if count else []
    order = -means if hib else means   # for the groups: best first, as ranks
    groups = {key: [tuple(names[i] for i in g)
                    for g in nonsignificant_groups(np.argsort(np.argsort(order)) + 1.0,
                                                   res.reject)]
              for key, res in post.items() if res.control is None}
    then = {"none": "no post-hoc test (posthoc='none')"}.get(
        procedure, "paired t-tests on the data sets with Holm's correction"
        + (" against the control" if control else " on all pairs"))
    return ComparisonReport(
        question="Q3", metric=scores.metric, higher_is_better=hib, models=names, n_tasks=n,
        alpha=alpha, summary=summary, tests={"repeated_measures_anova": anova},
        recommended="repeated_measures_anova",
        rationale="k >= 3 algorithms over data sets, omnibus='anova' as asked: the "
                  "repeated-measures ANOVA of the scores (data sets as blocks) followed by "
                  f"{then} (Demšar 2006 §3.2.1).",
        posthoc=post, groups=groups, conclusions=tuple(words), warnings=tuple(warnings),
        control=control, details={"aggregation": scores.aggregation, "omnibus": "anova",
                                   "posthoc": "none" if procedure == "none" else
                                   "paired t-test, Holm", "pairs": chosen})


def _paired_posthoc(values, names, hib, alpha, control) -> PairwiseResult:
    """Paired t-tests of all pairs (or of the control's k - 1 pairs), Holm-adjusted."""
    res = replace(pairwise_ttest(values, names=names, higher_is_better=hib,
                                 adjustment="holm", alpha=alpha),
                  method="paired t-test, Holm-adjusted")
    if control is None:
        return res
    c, k = names.index(control), len(names)
    others = [j for j in range(k) if j != c]
    adj = np.full((k, k), np.nan)
    adj[c, others] = adj[others, c] = adjust_pvalues(res.pvalue[c, others], "holm")
    reject = np.nan_to_num(adj, nan=1.0) < alpha
    pvalue = np.full((k, k), np.nan)
    pvalue[c, others] = pvalue[others, c] = res.pvalue[c, others]
    return PairwiseResult(method=res.method, names=res.names, statistic=res.statistic,
                          pvalue=pvalue, pvalue_adjusted=adj, reject=reject, alpha=alpha,
                          adjustment="holm", control=control, details=res.details)

