"""Terminal rendering of a ComparisonReport with rich tables."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..results import ComparisonReport
from ._format import headline
from ._pairs import pairwise_tables
from ._sections import bayesian_table, frequentist_table, marked_rows, rope_text, summary_table


def _is_text(cells: list[str]) -> bool:
    """Whether a column holds words (names, decisions) rather than numbers (inf included)."""
    return any(any(ch.isalpha() for ch in c.replace("e-", "").replace("e+", "").replace("inf", ""))
               for c in cells)


def _rich(t) -> Table:
    """A rich table of a report table: words left-aligned, numbers right-aligned."""
    title, rows = marked_rows(t)
    out = Table(title=escape(title))
    for c, name in enumerate(t.header):
        out.add_column(escape(name),
                       justify="left" if _is_text([r[c] for r in rows]) else "right")
    for row in rows:
        out.add_row(*(escape(cell) for cell in row))
    return out


def render_text(report: ComparisonReport, *, console: Console | None = None) -> None:
    """Print ``report`` as tables, conclusions and warnings on ``console`` (stdout).

    The tables are those of the HTML and LaTeX reports (:mod:`._sections`); the test the
    decision rests on is marked with "←", and the ROPE of the Bayesian tests is explained
    once, under the tables.
    """
    console = console or Console()
    console.print(f"[bold]{escape(headline(report))}[/bold]")
    if report.details.get("aggregation"):
        console.print(f"scores per cell: {escape(str(report.details['aggregation']))}")
    tables = [summary_table(report), frequentist_table(report), bayesian_table(report)]
    for t in tables + pairwise_tables(report):
        if t is not None:
            console.print(_rich(t))
    rope = rope_text(report)
    if rope:
        console.print(f"[dim]{escape(rope)}[/dim]")
    console.print("[bold]Conclusions[/bold]")
    for line in report.conclusions:
        console.print(f"  • {escape(line)}")
    console.print(f"[dim]Why these tests: {escape(report.rationale)}[/dim]")
    if report.warnings:
        console.print("[bold yellow]Warnings[/bold yellow]")
        for line in report.warnings:
            console.print(f"  ! {escape(line)}")
