"""Markdown rendering of a ComparisonReport."""
from __future__ import annotations

from ..results import ComparisonReport
from ._format import fmt_num, posthoc_rows, tests_rows


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def render_markdown(report: ComparisonReport) -> str:
    """Return ``report`` as a Markdown document (tables, conclusions, warnings)."""
    direction = "higher is better" if report.higher_is_better else "lower is better"
    parts = [f"# {report.question}: {len(report.models)} models over {report.n_tasks} data sets",
             f"Metric **{report.metric}** ({direction}), α = {report.alpha}."]
    cols = [c for c in ("model", "average_rank", "mean_score", "median_score", "wins")
            if c in report.summary[0]]
    parts.append("## Models, best first\n\n" + _table(
        [c.replace("_", " ") for c in cols],
        [[fmt_num(r[c]) if c != "model" else r[c] for c in cols] for r in report.summary]))
    parts.append("## Tests\n\n" + _table(["test", "statistic", "df", "p-value", "effect size"],
                                         tests_rows(report)))
    for res in report.posthoc.values():
        cd = f" (CD = {res.critical_difference:.3f})" if res.critical_difference else ""
        parts.append(f"## Post-hoc: {res.method}{cd}\n\n" + _table(
            ["A", "B", "rank diff", "statistic", "adj. p", "significant"], posthoc_rows(res)))
    parts.append("## Conclusions\n\n" + "\n".join(f"- {c}" for c in report.conclusions)
                 + f"\n\n*Why these tests:* {report.rationale}")
    if report.warnings:
        parts.append("## Warnings\n\n" + "\n".join(f"- {w}" for w in report.warnings))
    return "\n\n".join(parts) + "\n"
