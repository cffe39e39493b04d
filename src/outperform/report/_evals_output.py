"""An :class:`~outperform.results.EvalComparison` in every format: the mean score per task,
the paired differences, the per-task leaderboards, conclusions and notes."""
from __future__ import annotations

import re

from ._document import Bullets, Document, Paragraph, Section
from ._output_kinds import TOP_ALL, TOP_DEFAULT
from ._outputs import Output, rich_text
from ._sections import Table


def _level(result) -> tuple[float, str]:
    alpha = next(iter(result.per_task.values()))[0].alpha
    return alpha, f"{1 - alpha:.0%}"


def eval_tables(result) -> tuple[Table, Table]:
    """The mean score per task and the paired differences A − B, as report tables."""
    from ..compare._words import favoured

    alpha, level = _level(result)
    scores, diffs, decided = [], [], set()
    for task, reports in result.per_task.items():
        info = result.pairing[task]
        items = str(info["n_items"]) + (f" ({info['n_clusters']} clusters)"
                                        if info["n_clusters"] else "")
        rows = {r["model"]: r for rep in reports for r in rep.summary}
        for model, row in rows.items():
            interval = (f"[{row['wilson_low']:.4f}, {row['wilson_high']:.4f}]"
                        if "wilson_low" in row else "")
            epochs = str(row["epochs"]) + (f" (within-item var {row['within_item_variance']:.3g})"
                                           if "within_item_variance" in row else "")
            scores.append([task, reports[0].metric, model, f"{row['mean_score']:.4f}", interval,
                           items, epochs])
        for rep in reports:
            d = rep.tests["paired_difference"]
            lo, hi = d.confidence_interval(1 - alpha)
            a, b = rep.models
            # the pair's one verdict (compare_evals: Holm-adjusted leaderboard tests with more
            # than two models), the same the sentences state
            better = rep.details.get("better")
            if better is None:
                side = favoured(d.estimate, higher_is_better=rep.higher_is_better) \
                    if d.pvalue < alpha else 0
                better = {1: a, -1: b}.get(side, "")
            # the criterion, without the pair's own p-value (the same for every pair)
            decided.add(re.sub(r" p = \S+ ", " ", rep.details.get("decided_by")
                               or f"{d.method}, unadjusted p"))
            diffs.append([task, f"{a} vs {b}", f"{d.estimate:+.4f}", f"[{lo:+.4f}, {hi:+.4f}]",
                          f"{d.details['standard_error']:.4f}",
                          f"{d.details['unpaired_standard_error']:.4f}",
                          "< 1e-300" if d.pvalue == 0 else f"{d.pvalue:.3g}",
                          better or "neither"])
    return (Table("scores", "Mean score per task",
                  ["task", "metric", "model", "mean", f"{level} interval (Wilson)", "items",
                   "epochs"], scores, "summary"),
            Table("differences", f"Paired differences A − B ({level} CI, p unadjusted); "
                  f"better decided by {'; '.join(sorted(decided))}",
                  ["task", "A vs B", "A − B", "CI", "SE", "SE unpaired", "p (unadjusted)",
                   "better"], diffs,
                  "frequentist"))


def _rich(t: Table):
    from rich.markup import escape
    from rich.table import Table as RichTable

    words = {"task", "metric", "model", "A vs B", "better", "coefficient"}
    out = RichTable(title=escape(t.title), title_justify="left")
    for name in t.header:
        out.add_column(escape(name), justify="left" if name in words else "right",
                       overflow="fold")
    for row in t.rows:
        out.add_row(*(escape(c) for c in row))
    return out


SE_NOTE = ("SE: standard error of the paired difference (cluster-robust with --cluster); "
           "SE unpaired: what ignoring the pairing would give.")


def board_lines(result, top: int | None = None) -> list[str]:
    """Each task's leaderboard as text; ``top`` rows (None: all up to TOP_ALL models, else
    TOP_DEFAULT; 0: all)."""
    out = []
    for task, board in result.leaderboards.items():
        k = len(board.names)
        shown = (None if k <= TOP_ALL else TOP_DEFAULT) if top is None else (top or None)
        out.append(f"{task}: " + board.format(top=shown))
    return out


def provenance_line(result) -> str:
    harnesses = sorted({f"{r['harness']} {r['harness_version'] or ''}".strip()
                        for r in result.provenance})
    return f"read {len(result.provenance)} run(s) ({', '.join(harnesses)})."


def evals_output(result, *, top: int | None = None, width: int | None = None) -> Output:
    """The comparison's tables, leaderboards, conclusions and notes (its warnings are the
    caller's to print, on stderr)."""
    from ._judges_output import N_EFF_NOTE, judge_tables

    scores, diffs = eval_tables(result)
    judged = judge_tables(result)
    boards = board_lines(result, top)
    notes = [f"note: {line}" for line in result.notes]
    text = rich_text(_rich(scores), _rich(diffs), SE_NOTE, *(_rich(t) for t in judged),
                     *((N_EFF_NOTE,) if judged else ()), *boards, *result.conclusions,
                     *notes, provenance_line(result), width=width)
    sections = (Section("tables", "", (scores, diffs, Paragraph(SE_NOTE, note=True))),
                *((Section("judge", "Judge corrected by human labels",
                           (*judged, Paragraph(N_EFF_NOTE, note=True))),) if judged else ()),
                Section("leaderboards", "Leaderboards", tuple(Paragraph(b) for b in boards)),
                Section("conclusions", "Conclusions", (
                    Bullets(tuple(result.conclusions), "conclusions"),
                    *((Bullets(tuple(result.notes)),) if result.notes else ()),
                    *((Bullets(eval_warnings(result), "warnings"),)
                      if eval_warnings(result) else ()),
                    Paragraph(provenance_line(result), note=True))))
    doc = Document("Comparison of evaluation logs", "", sections, numbered=False)
    return Output("evals", result.to_dict, doc, text)


def eval_warnings(result) -> tuple[str, ...]:
    """The comparison's warnings and those of its per-task reports."""
    return result.warnings + tuple(w for reps in result.per_task.values() for r in reps
                                   for w in r.warnings)
