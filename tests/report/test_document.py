"""Text, Markdown, HTML and LaTeX show the same report: one document, four renderings.

For Q1, Q2 and Q3 reports the document's section titles (in order) and every cell of every
table (header and rows) are found in each rendering, read back in that format's own syntax.
"""
from __future__ import annotations

import html
import io
import re

import pytest
from rich.console import Console

from _report_cases import report
from outperform.report import (
    build_document,
    latex_escape,
    render_html,
    render_latex,
    render_markdown,
    render_text,
)

# Williams (2026) §7: the checklist every report follows, in order.
CHECKLIST = ["Question", "Loss or metric", "Design: fixed and random factors",
             "Tests and their assumptions", "Inferences", "Warnings"]
CASES = ["q1_labels", "q1_log", "q1_three", "q2_two", "q2_three", "table6_005", "table6_control",
         "table6_bayes", "table2_bayes", "q3_folds", "nasty"]


def _text(rep) -> str:
    buffer = io.StringIO()
    # Wide enough that rich wraps no cell: each table row stays on one line.
    render_text(rep, console=Console(file=buffer, width=4000, color_system=None))
    return buffer.getvalue()


def _rows(lines, bar):
    return [[c.strip() for c in line.strip().strip(bar).split(bar)] for line in lines
            if line.strip().startswith(bar)]


def _latex_cell(cell: str) -> str:
    """A LaTeX table cell read back: no bold, no math mode, scientific notation as 1e-05."""
    cell = re.sub(r"\\begin\{tabular\}\[b\]\{@\{\}c@\{\}\}(.*?)\\\\(.*?)\\end\{tabular\}",
                  r"\1 \2", cell)
    cell = re.sub(r"^\\textbf\{(.*)\}$", r"\1", cell.strip())
    cell = re.sub(r"\\times 10\^\{(-?\d+)\}", lambda m: f"e{int(m.group(1)):+03d}", cell)
    return re.sub(r"(?<!\\)\$", "", cell).replace(r"\ensuremath{-}", "-")   # math mode, not \$


def _renderings(rep):
    """(section headings in order, table rows) of each format, in the format's syntax."""
    doc = build_document(rep)
    text, md = _text(rep), render_markdown(rep)
    page, tex = render_html(rep, figures=False), render_latex(rep)
    # Headings as each format writes them: numbered sections, unnumbered views.
    heads = {"text": [], "md": [], "html": [], "tex": []}
    number = 0
    for depth, s in doc.walk():
        number += depth == 0
        title = f"{number}. {s.title}" if depth == 0 else s.title
        heads["text"].append(f"{title} ─" if depth == 0 else f"\n{s.title}\n")
        heads["md"].append(f"\n{'#' * (2 + depth)} {title}\n")
        heads["html"].append(f"<h{2 + depth}>{html.escape(title)}</h{2 + depth}>")
        heads["tex"].append(f"\\{'sub' * depth}paragraph{{{latex_escape(s.title)}.}}")
    plain_tr = re.sub(r"<(tr|td|th)\b[^>]*>", r"<\1>", page)
    tex_rows = [[_latex_cell(c) for c in line.rstrip()[:-2].split(" & ")]
                for line in tex.splitlines() if line.rstrip().endswith(r" \\") and " & " in line]
    return doc, {
        "text": (text, heads["text"], _rows(text.splitlines(), "│")
                 + _rows(text.splitlines(), "┃")),   # rows, then the header
        "md": (md, heads["md"], _rows(md.splitlines(), "|")),
        "html": (page, heads["html"], plain_tr),
        "tex": (tex, heads["tex"], tex_rows),
    }


def _in_order(text: str, needles: list[str]) -> list[str]:
    """The needles not found in ``text`` after the previous one."""
    missing, start = [], 0
    for needle in needles:
        at = text.find(needle, start)
        if at < 0:
            missing.append(needle)
        else:
            start = at + len(needle)
    return missing


@pytest.mark.parametrize("name", CASES)
def test_every_format_shows_the_checklist_sections_in_order(name):
    doc, formats = _renderings(report(name))
    assert [s.title for s in doc.sections] == CHECKLIST
    for fmt, (rendered, heads, _) in formats.items():
        assert _in_order(rendered, heads) == [], fmt


@pytest.mark.parametrize("name", CASES)
def test_every_format_shows_every_table_cell(name):
    doc, formats = _renderings(report(name))
    tables = doc.tables()
    assert {"assumptions", "summary"} <= {t.key for t in tables}
    for t in tables:
        rows = [list(t.header)] + [[r[0] + " ←"] + r[1:] if n in t.marked else list(r)
                                   for n, r in enumerate(t.rows)]
        for fmt, (rendered, _, found) in formats.items():
            if fmt == "html":
                for n, row in enumerate(rows):
                    tag = "th" if n == 0 else "td"
                    cells = row if n == 0 or n - 1 not in t.marked else t.rows[n - 1]
                    markup = "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells)
                    assert f"<tr>{markup}</tr>" in found, (fmt, t.key, cells)
            elif fmt == "tex":
                for n, row in enumerate(rows):
                    cells = row if n == 0 or n - 1 not in t.marked else t.rows[n - 1]
                    assert [latex_escape(c).replace(r"\ensuremath{-}", "-") for c in cells] \
                        in [[c.replace(r"\ensuremath{-}", "-") for c in r] for r in found], \
                        (fmt, t.key, cells)
            else:
                for row in rows:
                    assert row in found, (fmt, t.key, row)
        assert t.title in formats["md"][0] and html.escape(t.title) in formats["html"][0]


@pytest.mark.parametrize("name", ["table6_bayes", "q2_two", "q1_labels"])
def test_every_format_says_the_same_sentences(name):
    rep = report(name)
    doc, formats = _renderings(rep)
    text_no_wrap = formats["text"][0]
    for line in rep.conclusions + rep.warnings + (rep.rationale,):
        assert line in formats["md"][0] and html.escape(line) in formats["html"][0]
        assert latex_escape(line) in formats["tex"][0] and line in text_no_wrap


def test_written_markdown_shows_the_diagrams_written_beside_it(tmp_path):
    from outperform.report import write_report

    paths = write_report(report("table6_010"), tmp_path, formats=("md",))
    md = paths["md"].read_text(encoding="utf-8")
    images = re.findall(r"!\[Critical-difference diagram[^\]]*\]\(([^)]+)\)", md)
    assert images == ["report-cd.svg"] and (tmp_path / images[0]).stat().st_size > 1000
    # Under the frequentist view, after the post-hoc table it draws.
    assert md.index("### Frequentist view") < md.index("#### Post-hoc") < md.index("![")
    assert "![" not in render_markdown(report("table6_010"))   # no file, no image
