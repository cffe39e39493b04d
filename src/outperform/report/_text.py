"""Terminal rendering of a ComparisonReport with rich tables."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ..results import ComparisonReport
from ._format import (BAYES_PAIR_HEADER, POSTHOC_HEADER, bayes_pairwise_rows, is_bayesian,
                      bayes_rows, fmt_num, headline, posthoc_rows, summary_columns, tests_rows)


def render_text(report: ComparisonReport, *, console: Console | None = None) -> None:
    """Print ``report`` as tables, conclusions and warnings on ``console`` (stdout)."""
    console = console or Console()
    console.print(f"[bold]{headline(report)}[/bold]")
    if report.details.get("aggregation"):
        console.print(f"scores per cell: {report.details['aggregation']}")

    summary = Table(title="Models, best first")
    cols = summary_columns(report)
    for c in cols:
        summary.add_column(c.replace("_", " "), justify="left" if c == "model" else "right")
    for row in report.summary:
        summary.add_row(*(fmt_num(row[c]) if c != "model" else row[c] for c in cols))
    console.print(summary)

    if tests_rows(report):
        tests = Table(title="Tests (← the one the decision rests on)")
        for c in ("test", "statistic", "df", "p-value", "effect size"):
            tests.add_column(c, justify="left" if c in ("test", "effect size") else "right")
        for row in tests_rows(report):
            tests.add_row(*row)
        console.print(tests)
    if bayes_rows(report):
        bayes = Table(title="Bayesian tests (posterior probabilities)")
        a, b = report.models[:2] if len(report.models) == 2 else ("A", "B")
        for c in ("test", f"P({a} better)", "P(equivalent)", f"P({b} better)", "ROPE", "decision"):
            bayes.add_column(c, justify="left" if c in ("test", "decision") else "right")
        for row in bayes_rows(report):
            bayes.add_row(*row)
        console.print(bayes)

    for key, res in report.posthoc.items():
        title = res.method if is_bayesian(res) else f"Post-hoc: {res.method}"
        if res.critical_difference:
            title += f" (CD = {res.critical_difference:.3f})"
        t = Table(title=title)
        header, rows = ((BAYES_PAIR_HEADER, bayes_pairwise_rows(res)) if is_bayesian(res)
                        else (POSTHOC_HEADER, posthoc_rows(res)))
        for c in header:
            t.add_column(c, justify="left" if c in ("A", "B", "decision") else "right")
        for row in rows:
            t.add_row(*row)
        console.print(t)

    console.print("[bold]Conclusions[/bold]")
    for line in report.conclusions:
        console.print(f"  • {line}")
    console.print(f"[dim]Why these tests: {report.rationale}[/dim]")
    if report.warnings:
        console.print("[bold yellow]Warnings[/bold yellow]")
        for line in report.warnings:
            console.print(f"  ! {line}")
