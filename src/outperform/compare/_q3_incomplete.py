"""Q3 on a table with missing (data set, model) cells: incomplete block designs.

Decision logic:
- data sets with fewer than two results compare nothing: they are dropped and named;
- no hole left (e.g. two models: every remaining data set holds both): the complete-table
  analysis runs on the remaining data sets;
- k >= 3: the Durbin test when the holes form a balanced incomplete block design (Conover 1999
  §5.9, with its all-pairs post-hoc), else the Skillings–Mack test (Skillings & Mack 1981),
  followed by Wilcoxon signed-rank tests on each pair's common data sets with Holm's
  correction (Benavoli et al. 2016), against the control if one is given.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._validation import InvalidInputError, TooFewError
from ..data._results_table import ScoreMatrix
from ..results import ComparisonReport
from ..stats._cliques import nonsignificant_groups
from ..stats._incomplete import (durbin, durbin_posthoc, incomplete_ranks,
                                 is_balanced_incomplete, pairwise_wilcoxon_available,
                                 skillings_mack, sparse_rows)
from ._guards import unit_mismatch
from ._pair_choice import report_pairs, said_pairs, shown_pairs
from ._q3 import compare_many_tasks, with_letters
from ._q3_words import pair_conclusion as _pair_conclusion
from ._registry import choices, label

#: Post-hoc procedures that work on incomplete tables (others need every cell).
#: The values of ``posthoc=`` on a table with missing cells, from the registry.
INCOMPLETE_POSTHOC = choices("posthoc_missing")


def compare_incomplete(scores: ScoreMatrix, *, alpha: float, control: str | None,
                       posthoc: str, pairs: str | None = None) -> ComparisonReport:
    """Frequentist comparison of k algorithms over N data sets with missing cells.

    Parameters
    ----------
    scores : ScoreMatrix
        NaN in the missing cells.
    alpha, control, posthoc, pairs :
        As :func:`~outperform.compare._q3.compare_many_tasks`; ``posthoc`` is one of
        ``INCOMPLETE_POSTHOC`` (``"auto"``: Wilcoxon–Holm on common data sets; ``"durbin"``:
        Durbin–Conover, for balanced incomplete block designs only).

    Returns
    -------
    ComparisonReport
        ``details``: ``missing_cells`` (every (task, model) without a result),
        ``dropped_tasks`` (data sets with fewer than 2 results), ``incomplete_data`` True.
        Its warnings list the missing cells and say that the ranks come from incomplete data.

    Raises
    ------
    InvalidInputError
        A post-hoc procedure that needs a complete table, ``"durbin"`` on a design that is
        not a balanced incomplete block design, a model with no result left.
    TooFewError
        Fewer than 2 data sets with 2 results or more.
    """
    missing = scores.missing_cells
    if posthoc not in INCOMPLETE_POSTHOC:
        raise InvalidInputError(
            f"posthoc={posthoc!r} needs a result in every (task, model) cell, and "
            f"{len(missing)} are missing ({_cells(missing)}). On incomplete tables choose "
            f"one of {INCOMPLETE_POSTHOC}, or complete the runs.")
    sparse = sparse_rows(scores.values)
    dropped = [scores.tasks[i] for i in np.flatnonzero(sparse)]
    keep = ~sparse
    values, tasks = scores.values[keep], tuple(t for t, k in zip(scores.tasks, keep) if k)
    if len(tasks) < 2:
        raise TooFewError(
            f"only {len(tasks)} data set(s) hold results of 2 models or more (missing cells: "
            f"{_cells(missing)}): comparisons over data sets need at least 2.")
    empty = [m for m, n in zip(scores.models, np.sum(~np.isnan(values), axis=0)) if n == 0]
    if empty:
        raise InvalidInputError(
            f"model(s) {empty} have no result on any data set shared with another model: "
            "drop them or complete their runs.")
    # UNITS first, as on complete tables (compare() documents that order).
    notes = unit_mismatch({m: col[~np.isnan(col)] for m, col in zip(scores.models, values.T)})
    notes.append(f"MISSING: {len(missing)} (task, model) cell(s) have no result: "
                 f"{_cells(missing, limit=None)}.")
    if dropped:
        notes.append(f"data set(s) {dropped} hold fewer than 2 results and were dropped: "
                     "they compare nothing.")
    reduced = replace(scores, values=values, tasks=tasks)
    details = {"missing_cells": [list(c) for c in missing], "dropped_tasks": dropped,
               "incomplete_data": True}
    if not np.isnan(values).any():   # e.g. two models: the holes were in dropped rows only
        report = compare_many_tasks(reduced, alpha=alpha, control=control, posthoc=posthoc,
                                    pairs=pairs)
        return replace(report, warnings=tuple(notes) + report.warnings,
                       details={**report.details, **details})
    return _many(reduced, alpha, control, posthoc, notes, details, pairs)


def _cells(cells, limit: int | None = 5) -> str:
    shown = cells if limit is None else cells[:limit]
    text = ", ".join(f"({t!r}, {m!r})" for t, m in shown)
    return text + (f", ... ({len(cells)} in all)" if limit and len(cells) > limit else "")


def _many(scores: ScoreMatrix, alpha, control, posthoc, warnings, details,
          pairs=None) -> ComparisonReport:
    values, hib, names = scores.values, scores.higher_is_better, scores.models
    balanced = is_balanced_incomplete(values)
    if posthoc == "durbin" and not balanced:
        raise InvalidInputError(
            "posthoc='durbin' needs a balanced incomplete block design (the same number of "
            "models on every data set, of data sets per model and per pair); these holes are "
            "not: use posthoc='wilcoxon-holm' (the default).")
    if posthoc == "durbin" and control is not None:
        raise InvalidInputError("posthoc='durbin' compares all pairs: drop control=, or use "
                                "posthoc='wilcoxon-holm' against the control.")
    omnibus = durbin(values, higher_is_better=hib) if balanced else \
        skillings_mack(values, higher_is_better=hib)
    key = "durbin" if balanced else "skillings_mack"
    tests = {key: omnibus}
    if balanced:
        tests["skillings_mack"] = skillings_mack(values, higher_is_better=hib)
    post = {}
    if posthoc == "durbin":
        post["durbin"] = durbin_posthoc(values, adjustment="holm", alpha=alpha,
                                        higher_is_better=hib, names=names)
    elif posthoc != "none":
        post["wilcoxon-holm"] = pairwise_wilcoxon_available(
            values, control=control, adjustment="holm", alpha=alpha, higher_is_better=hib,
            names=names)
    ranks = np.nanmean(incomplete_ranks(values, higher_is_better=hib), axis=0)
    order = np.argsort(ranks, kind="stable")
    best = incomplete_ranks(values, higher_is_better=hib) == 1
    summary = tuple(
        {"model": names[i], "average_rank": float(ranks[i]),
         "mean_score": float(np.nanmean(values[:, i])),
         "median_score": float(np.nanmedian(values[:, i])), "wins": int(best[:, i].sum()),
         "n_results": int(np.sum(~np.isnan(values[:, i])))}
        for i in order)
    summary, letters = with_letters(summary, post, names)
    warnings.append(
        "the average ranks come from incomplete data: each model is ranked only among the "
        "models present on each data set and averaged over its own data sets, so ranks of "
        "models with different missing cells are not exactly comparable (Skillings & Mack "
        "1981).")
    groups = {k: [tuple(names[i] for i in g) for g in nonsignificant_groups(ranks, r.reject)]
              for k, r in post.items() if r.control is None}
    name = "Durbin" if balanced else "Skillings–Mack"
    verdict = (f"The algorithms differ ({name} test, chi-square = {omnibus.statistic:.3f}, "
               f"df = {omnibus.df}, p = {omnibus.pvalue:.3g} < {alpha})."
               if omnibus.pvalue < alpha else
               f"No significant difference among the {len(names)} algorithms ({name} test, "
               f"chi-square = {omnibus.statistic:.3f}, df = {omnibus.df}, p = "
               f"{omnibus.pvalue:.3g} >= {alpha}); post-hoc results below are descriptive.")
    conclusions = [verdict]
    chosen = report_pairs([row["model"] for row in summary], names, post, control=control,
                          pairs=pairs)
    for k, res in post.items():
        said, count = said_pairs(label(k), res, shown_pairs(names, chosen))
        if not (said or count):
            conclusions.append(f"{label(k)} finds no significantly different pair at "
                               f"α = {alpha}.")
        conclusions += [_pair_conclusion(label(k), res, i, j, ranks, names) for i, j in said]
        conclusions += [count] if count else []
        untested = res.untested_pairs
        if untested:
            warnings.append(f"pairs {untested} share no data set and were not tested.")
    rationale = (
        f"k >= 3 algorithms over data sets with missing cells: the {name} test "
        + ("(the holes form a balanced incomplete block design; Durbin 1951, Conover 1999 "
           "§5.9)" if balanced else
           "(Friedman's test for any pattern of missing cells; Skillings & Mack 1981)")
        + (", then no post-hoc test (posthoc='none')." if posthoc == "none" else
           ", then the Durbin–Conover all-pairs test with Holm's correction." if posthoc ==
           "durbin" else
           ", then Wilcoxon signed-rank tests on each pair's common data sets with Holm's "
           "correction" + (" against the control" if control else "")
           + " (Benavoli et al. 2016)."))
    return ComparisonReport(
        question="Q3", metric=scores.metric, higher_is_better=hib, models=names,
        n_tasks=len(scores.tasks), alpha=alpha, summary=summary, tests=tests,
        recommended=key, rationale=rationale, posthoc=post, groups=groups,
        conclusions=tuple(conclusions), warnings=tuple(warnings), control=control,
        details={"aggregation": scores.aggregation, **details, **letters, "pairs": chosen})
