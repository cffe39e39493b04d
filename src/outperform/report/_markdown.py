"""Markdown rendering of a ComparisonReport: a walk of the report's document."""
from __future__ import annotations

from typing import Mapping

from ..results import ComparisonReport
from ._document import Bullets, Figure, Paragraph, build_document, marked_rows
from ._sections import Table


def _cell(text: str) -> str:
    # A bar would end the cell; a line break would end the table.
    return text.replace("|", "\\|").replace("\n", " ")


def _table(t: Table, level: int) -> str:
    title, rows = marked_rows(t)
    lines = [f"{'#' * level} {title}", "", "| " + " | ".join(map(_cell, t.header)) + " |",
             "|" + "---|" * len(t.header)]
    lines += ["| " + " | ".join(map(_cell, r)) + " |" for r in rows]
    return "\n".join(lines)


def render_markdown(report: ComparisonReport, *,
                    figure_files: Mapping[str, str] | None = None) -> str:
    """Return ``report`` as a Markdown document.

    The sections, tables and sentences are those of the terminal, HTML and LaTeX reports
    (:func:`outperform.report._document.build_document`), in the order of Williams' (2026) §7
    checklist: ``## 1. Question`` ... ``## 6. Warnings``, the frequentist and Bayesian views
    as ``###`` subsections, each table under a heading of its own one level down. "←" marks
    the test the decision rests on.

    Parameters
    ----------
    report : ComparisonReport
    figure_files : mapping of str to str, optional
        Figure key (``"cd-nemenyi"``, ...) to the path of an image file of it, relative to
        the Markdown file; those figures are shown as images with their captions
        (:func:`write_report` passes the critical-difference diagrams it writes). Markdown
        draws no figure of its own, so the others are left out.

    Returns
    -------
    str
    """
    files = dict(figure_files or {})
    doc = build_document(report, figures=bool(files))
    parts = [f"# {doc.title}", f"*{doc.headline}*"]
    number = 0
    for depth, section in doc.walk():
        if depth == 0:
            number += 1
        parts.append(f"{'#' * (2 + depth)} "
                     + (f"{number}. {section.title}" if depth == 0 else section.title))
        for block in section.blocks:
            if isinstance(block, Paragraph):
                text = block.text + (f" {doc.title_of(block.see)}." if block.see else "")
                text = f"*{text}*" if block.note else text
                parts.append(f"**{block.lead}.** {text}" if block.lead else text)
            elif isinstance(block, Bullets):
                parts.append("\n".join(f"- {item}" for item in block.items))
            elif isinstance(block, Table):
                parts.append(_table(block, 3 + depth))
            elif isinstance(block, Figure) and block.figure.key in files:
                fig = block.figure
                parts.append(f"![{fig.caption}]({files[fig.key]})\n\n*{fig.caption}*")
    parts.append(f"*{doc.closing}*")
    return "\n\n".join(parts) + "\n"
