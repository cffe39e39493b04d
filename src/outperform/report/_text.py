"""Terminal rendering of a ComparisonReport with rich: a walk of the report's document."""
from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..results import ComparisonReport
from ._document import Bullets, Document, Paragraph, build_document, marked_rows, text_columns
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


#: columns of the plain text :func:`render_text` returns when no console is given
TEXT_WIDTH = 110


def render_text(report: ComparisonReport, *, console: Console | None = None,
                width: int = TEXT_WIDTH) -> str:
    """The report as plain text; printed (with colours) only when ``console`` is given.

    The sections, tables and sentences are those of the Markdown, HTML and LaTeX reports
    (:func:`outperform.report._document.build_document`), in the order of Williams' (2026) §7
    checklist; the figures are left to the formats that draw them. The test the decision rests
    on is marked with "←".

    Parameters
    ----------
    report : ComparisonReport
    console : rich.console.Console, optional
        Print the report there too (``Console()`` is the terminal, with colours where it
        has them), as the command line does. Without it nothing is printed:
        ``print(render_text(report))``.
    width : int
        Columns of the returned text when ``console`` is not given (the console's width
        otherwise).

    Returns
    -------
    str
        The text without colours or styles, as every other ``render_*`` returns its format.
    """
    import io

    # recorded, not shown: the text is exported without styles
    buffer = Console(file=io.StringIO(), width=width if console is None else console.width,
                     color_system=None, record=True)
    doc = build_document(report, figures=False)
    for out in (buffer, console) if console is not None else (buffer,):
        _print(doc, out)
    return buffer.export_text()


def _print(doc: Document, console: Console) -> None:
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
