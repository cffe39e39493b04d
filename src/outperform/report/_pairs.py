"""Post-hoc tables: every tested pair with the better model first, and by how much.

A pair's order comes from the pair's estimate, through the one rule that names a better
model (:func:`outperform.compare._words.favoured`): the difference of error rates or mean
scores (Q1, Q2), of average ranks (rank tests), the rank-biserial correlation (pairwise
Wilcoxon), or the posterior probabilities (Bayesian tables).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Mapping

import numpy as np

from ..compare._words import decision_label, favoured
from ..results._runs import NEIGHBOURS
from ._format import fmt_column, fmt_p, is_bayesian
from ._sections import Table, without_empty_columns


@dataclass(frozen=True)
class PairContext:
    """What a pair table takes from its report; the defaults describe a result shown alone.

    ``means`` maps a model to its summary mean (score or loss), the fallback estimate of a
    pair; ``rope`` is the report's one ROPE width, if it has one.
    """

    means: Mapping[str, float] = field(default_factory=dict)
    higher_is_better: bool = True
    mean_name: str = "mean"
    metric: str = ""
    rope: float | None = None
    #: the report's ``details["pairs"]`` (:func:`outperform.compare._pair_choice.report_pairs`):
    #: the pairs shown in full; None shows every pair
    chosen: Mapping | None = None

    def shown(self, res, pairs) -> list[tuple[int, int]]:
        """The pairs (i, j) of ``res`` among the chosen ones: in the order given, or for
        neighbours in the ranking in the ranking's order."""
        if not self.chosen:
            return list(pairs)
        index = {m: j for j, m in enumerate(res.names)}
        rank = {frozenset((index[x], index[y])): n for n, (x, y) in
                enumerate(self.chosen["chosen"])}
        out = [(i, j) for i, j in pairs if frozenset((i, j)) in rank]
        if self.chosen["rule"] == NEIGHBOURS:
            out.sort(key=lambda ij: rank[frozenset(ij)])
        return out

    def title(self, res, shown: int) -> str:
        """What the table holds when it shows only some of the pairs ``res`` tests."""
        tested = len(res.pairs())
        if not self.chosen or shown == tested:
            return ""
        return (f" — {shown} of {tested} pairs shown ({self.chosen['rule']}; every pair "
                "with --pairs all)")


def pair_context(report) -> PairContext:
    """The :class:`PairContext` of ``report``: its summary means, metric and ROPE."""
    if report.question == "Q1":   # an error rate for 0/1 losses of single examples
        name = ("error rate" if report.loss == "zero-one" and not report.details.get("groups")
                else "mean loss")
    else:
        name = f"mean {report.metric}"
    means = {row["model"]: row.get("mean_loss", row.get("mean_score")) for row in report.summary}
    rope = report.rope
    return PairContext({m: v for m, v in means.items() if v is not None},
                       report.higher_is_better, name, report.metric,
                       rope if isinstance(rope, (int, float)) and not isinstance(rope, bool)
                       else None, report.details.get("pairs"))


def _pair_differences(res, ctx: PairContext):
    """(k x k differences row − column, higher_is_better, name) of the pairs of ``res``.

    The test's own estimate where it has one (posterior probabilities, rank-biserial
    correlations, average ranks), else the difference of the summary's means (Q1, Q2).
    """
    if is_bayesian(res):
        p = np.asarray(res.statistic, dtype=float)
        return p - p.T, True, "P(better)"
    if res.rank_biserial is not None:
        return np.asarray(res.rank_biserial, dtype=float), True, "rank-biserial r"
    if res.average_ranks is not None:
        r = np.asarray(res.average_ranks, dtype=float)
        return r[:, None] - r[None, :], False, "average rank"
    v = np.array([ctx.means.get(m, np.nan) for m in res.names], dtype=float)
    return v[:, None] - v[None, :], ctx.higher_is_better, ctx.mean_name


def _oriented(pairs, diff, higher_is_better) -> list[tuple[int, int, float]]:
    """Each pair as (better, worse, how much better), in the order given; ties keep it."""
    out = []
    for i, j in pairs:
        side = favoured(diff[i, j], higher_is_better=higher_is_better)
        out.append((j, i, abs(diff[i, j])) if side < 0 else (i, j, abs(diff[i, j])))
    return out


BAYES_PAIR_HEADER = ["A", "B", "P(A better)", "P(equivalent)", "P(B better)"]


def _bayes_pair_table(key, res, ctx: PairContext) -> Table:
    diff, hib, _ = _pair_differences(res, ctx)
    p_rope = np.asarray(res.p_rope, dtype=float)
    decision = np.asarray(res.decision, dtype=object)
    # The Poisson test's remainder: no region holds a majority of the data sets.
    rest = (np.asarray(res.details["p_no_majority"], dtype=float)
            if "p_no_majority" in res.details else None)
    rows = []
    # A zero-width default ROPE (no spread) gives no region probabilities worth printing.
    cell = (lambda p: "–") if res.details.get("zero_rope") else (lambda p: f"{p:.3f}")
    shown = ctx.shown(res, res.pairs())
    for a, b, _ in _oriented(shown, diff, hib):
        d = decision_label(res.names[a], res.names[b], decision[a, b])
        rows.append([res.names[a], res.names[b], cell(res.statistic[a, b]),
                     cell(p_rope[a, b]), cell(res.statistic[b, a])]
                    + ([cell(rest[a, b])] if rest is not None else []) + [d])
    notes = f"; ROPE ±{ctx.rope:.3g} {ctx.metric}".rstrip() if ctx.rope is not None else ""
    header = BAYES_PAIR_HEADER + (["P(no majority)"] if rest is not None else []) + ["decision"]
    return Table(key, f"{res.method} (posterior probabilities{notes})"
                 + ctx.title(res, len(shown)), header, rows, "bayesian")


def pair_tables(key: str, res, ctx: PairContext = PairContext()) -> list[Table]:
    """The tables of one post-hoc result; Q2's Bayesian pair probabilities get their own.

    Each row puts first (as A) the model the pair's estimate favours, so that the "A better
    by" column is never negative: the difference of error rates or mean scores (Q1, Q2), of
    average ranks (rank tests), the rank-biserial correlation (pairwise Wilcoxon), or, in
    Bayesian tables, the model with the larger posterior probability of being better. Without
    an estimate (a result shown alone, without its report's means) the pairs keep their order
    and the column is left out.
    """
    if is_bayesian(res):
        return [_bayes_pair_table(key, res, ctx)]
    diff, hib, name = _pair_differences(res, ctx)
    pairs = ctx.shown(res, res.pairs())
    if not (ctx.chosen and ctx.chosen["rule"] == NEIGHBOURS):   # else the ranking's order
        pairs.sort(key=lambda ij: (math.isnan(res.pvalue[ij]), res.pvalue[ij]))
    oriented = _oriented(pairs, diff, hib)
    by = fmt_column([d for _, _, d in oriented])
    stat = fmt_column([res.statistic[a, b] for a, b, _ in oriented])
    rows = [[res.names[a], res.names[b], by[n], stat[n], fmt_p(res.pvalue_adjusted[a, b]),
             "yes" if res.reject[a, b] else "no"] for n, (a, b, _) in enumerate(oriented)]
    header, rows = without_empty_columns(
        ["A", "B", f"A better by ({name})", "statistic", "adj. p", "significant"], rows, keep=2)
    cd = f" (CD = {res.critical_difference:.3f})" if res.critical_difference else ""
    out = [Table(key, f"Post-hoc: {res.method}{cd}, α = {res.alpha}"
                 + ctx.title(res, len(pairs)), header, rows, "frequentist")]
    if res.p_row_better is not None and res.p_rope is not None:
        better = np.asarray(res.p_row_better, dtype=float)
        rope = np.asarray(res.p_rope, dtype=float)
        rows = [[res.names[a], res.names[b], f"{better[a, b]:.3f}", f"{rope[a, b]:.3f}",
                 f"{better[b, a]:.3f}"] for a, b, _ in oriented]
        header = list(BAYES_PAIR_HEADER)
        if res.rope is not None:   # each pair's own ROPE width
            width = np.asarray(res.rope, dtype=float)
            header.append(f"ROPE ({ctx.metric})" if ctx.metric else "ROPE")
            for row, (a, b, _) in zip(rows, oriented):
                row.append(f"±{width[a, b]:.3g}")
        out.append(Table(f"{key}-bayes", "Bayesian tests of the same pairs, in the same "
                         "order (posterior probabilities)", header, rows, "bayesian"))
    return out


def pairwise_tables(report) -> list[Table]:
    """The tables of every post-hoc result of ``report`` (:func:`pair_tables`), in order."""
    ctx = pair_context(report)
    return [t for key, res in report.posthoc.items() for t in pair_tables(key, res, ctx)]
