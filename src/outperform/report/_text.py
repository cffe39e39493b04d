"""Terminal rendering of a ComparisonReport with rich: a walk of the report's document."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..results import ComparisonReport
from ._document import Bullets, Paragraph, build_document, marked_rows, text_columns
from ._sections import Table


def _rich(t: Table) -> RichTable:
    """A rich table of a report table: words left-aligned, numbers right-aligned."""
    title, rows = marked_rows(t)
    out = RichTable(title=escape(title))
    for name, words in zip(t.header, text_columns(t)):
        out.add_column(escape(name), justify="left" if words else "right")
    for row in rows:
        out.add_row(*(escape(cell) for cell in row))
    return out


def render_text(report: ComparisonReport, *, console: Console | None = None) -> None:
    """Print ``report`` on ``console`` (stdout): the sections of every format, as rich tables
    and text.

    The sections, tables and sentences are those of the Markdown, HTML and LaTeX reports
    (:func:`outperform.report._document.build_document`), in the order of Williams' (2026) §7
    checklist; the figures are left to the formats that draw them. The test the decision rests
    on is marked with "←".
    """
    console = console or Console()
    doc = build_document(report, figures=False)
    console.print(f"[bold]{escape(doc.title)}[/bold]")
    console.print(escape(doc.headline))
    number = 0
    for depth, section in doc.walk():
        if depth == 0:
            number += 1
            console.print()
            console.rule(f"[bold]{number}. {escape(section.title)}[/bold]", align="left")
        else:
            console.print(f"\n[bold]{escape(section.title)}[/bold]")
        for block in section.blocks:
            if isinstance(block, Paragraph):
                text = escape(block.text)
                if block.see:
                    text += f" {escape(doc.title_of(block.see))}."
                if block.lead:
                    text = f"[bold]{escape(block.lead)}.[/bold] {text}"
                console.print(f"[dim]{text}[/dim]" if block.note else text)
            elif isinstance(block, Bullets):
                mark = ("  [yellow]![/yellow] " if block.kind == "warnings" else "  • ")
                for item in block.items:
                    console.print(mark + escape(item))
            elif isinstance(block, Table):
                console.print(_rich(block))
    console.print()
    console.print(f"[dim]{escape(doc.closing)}[/dim]")
