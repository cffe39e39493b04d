"""Markdown rendering of a ComparisonReport."""
from __future__ import annotations

from ..results import ComparisonReport
from ._format import (BAYES_PAIR_HEADER, POSTHOC_HEADER, bayes_pairwise_rows, is_bayesian,
                      bayes_rows, fmt_num, headline, posthoc_rows, summary_columns, tests_rows)


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def render_markdown(report: ComparisonReport) -> str:
    """Return ``report`` as a Markdown document (tables, conclusions, warnings)."""
    parts = [f"# {headline(report)}"]
    cols = summary_columns(report)
    parts.append("## Models, best first\n\n" + _table(
        [c.replace("_", " ") for c in cols],
        [[fmt_num(r[c]) if c != "model" else r[c] for c in cols] for r in report.summary]))
    if tests_rows(report):
        parts.append("## Tests\n\n" + _table(["test", "statistic", "df", "p-value", "effect size"],
                                             tests_rows(report)))
    if bayes_rows(report):
        a, b = report.models[:2] if len(report.models) == 2 else ("A", "B")
        parts.append("## Bayesian tests\n\n" + _table(
            ["test", f"P({a} better)", "P(equivalent)", f"P({b} better)", "ROPE", "decision"],
            bayes_rows(report)))
    for res in report.posthoc.values():
        cd = f" (CD = {res.critical_difference:.3f})" if res.critical_difference else ""
        if is_bayesian(res):
            parts.append(f"## {res.method}\n\n" + _table(BAYES_PAIR_HEADER,
                                                          bayes_pairwise_rows(res)))
        else:
            parts.append(f"## Post-hoc: {res.method}{cd}\n\n" + _table(POSTHOC_HEADER,
                                                                       posthoc_rows(res)))
    parts.append("## Conclusions\n\n" + "\n".join(f"- {c}" for c in report.conclusions)
                 + f"\n\n*Why these tests:* {report.rationale}")
    if report.warnings:
        parts.append("## Warnings\n\n" + "\n".join(f"- {w}" for w in report.warnings))
    return "\n\n".join(parts) + "\n"
