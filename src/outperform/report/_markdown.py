"""Markdown rendering of a ComparisonReport."""
from __future__ import annotations

from ..results import ComparisonReport
from ._format import headline
from ._pairs import pairwise_tables
from ._sections import bayesian_table, frequentist_table, marked_rows, rope_text, summary_table


def _table(t) -> str:
    title, rows = marked_rows(t)
    lines = [f"## {title}", "", "| " + " | ".join(t.header) + " |", "|" + "---|" * len(t.header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def render_markdown(report: ComparisonReport) -> str:
    """Return ``report`` as a Markdown document (tables, conclusions, warnings).

    The tables are those of the HTML and LaTeX reports; "←" marks the test the decision
    rests on, and the ROPE of the Bayesian tests is explained once, under the tables.
    """
    parts = [f"# {headline(report)}"]
    tables = [summary_table(report), frequentist_table(report), bayesian_table(report)]
    parts += [_table(t) for t in tables + pairwise_tables(report) if t is not None]
    rope = rope_text(report)
    if rope:
        parts.append(f"*{rope}*")
    parts.append("## Conclusions\n\n" + "\n".join(f"- {c}" for c in report.conclusions)
                 + f"\n\n*Why these tests:* {report.rationale}")
    if report.warnings:
        parts.append("## Warnings\n\n" + "\n".join(f"- {w}" for w in report.warnings))
    return "\n\n".join(parts) + "\n"
