"""HTML of a ComparisonReport: a walk of the report's document, as a page or a fragment.

The page (:func:`render_html`) needs nothing but itself: the style sheet is inline, the plots
are inline SVG drawn by matplotlib, there is no script, and a Content-Security-Policy forbids
every request, so it opens the same offline, in a mail attachment or in a CI artefact.

The fragment (:func:`render_html_fragment`) is what Jupyter shows for a report or a result
(``_repr_html_``): the same sections in a ``<div>`` whose style sheet applies inside it only,
and each figure as an ``<img>`` of base64 SVG, a document of its own, so that the ids of two
figures, or of two reports in one notebook, cannot collide and no style leaks into the page.

Every string that comes from the data (model names, metric, task) is escaped.
"""
from __future__ import annotations

import base64
from html import escape

from .. import __version__
from ..results import SCHEMA_VERSION, ComparisonReport
from ._document import (
    Bullets,
    Document,
    Figure,
    Paragraph,
    Section,
    build_document,
    result_document,
    text_columns,
)
from ._figures import figure_svg
from ._sections import Table

# Every rule applies inside the report's element only (the page's <main>, or the <div> in a
# notebook), so that the fragment does not restyle the notebook around it.
_CSS = """
.outperform-report { --ink: #1d2733; --muted: #5b6675; --rule: #d5dbe3; --accent: #1f5fa8;
        --warn: #8a5a00; --warn-bg: #fff6e0; --mark: #eef4fb;
        color: var(--ink); background: #fff;
        font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
.outperform-report * { box-sizing: border-box; }
.outperform-report h1 { font-size: 1.6em; margin: 0 0 .3em; }
.outperform-report h2 { font-size: 1.25em; margin: 1.8em 0 .5em; padding-bottom: .2em;
     border-bottom: 2px solid var(--rule); }
.outperform-report h3 { font-size: 1.05em; margin: 1.4em 0 .4em; color: var(--accent); }
.outperform-report p.lead { color: var(--muted); margin-top: 0; }
.outperform-report nav ol { columns: 2; color: var(--muted); padding-left: 1.4em; }
.outperform-report a { color: var(--accent); text-decoration: none; }
.outperform-report table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: .93em;
        font-variant-numeric: tabular-nums; }
.outperform-report caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
.outperform-report th, .outperform-report td { padding: .3em .8em; text-align: right;
        border-bottom: 1px solid var(--rule); }
.outperform-report th { border-bottom: 2px solid var(--ink); font-weight: 600; }
.outperform-report thead th { border-top: 2px solid var(--ink); }
.outperform-report tbody tr:last-child td { border-bottom: 2px solid var(--ink); }
.outperform-report th:first-child, .outperform-report td:first-child,
.outperform-report td.text, .outperform-report th.text { text-align: left; }
.outperform-report td:not(.text) { white-space: nowrap; }
.outperform-report tr.decides td { background: var(--mark); font-weight: 600; }
.outperform-report .table-wrap { overflow-x: auto; }
.outperform-report ul.conclusions li { margin: .3em 0; }
.outperform-report ul.warnings { list-style: none; padding: 0; }
.outperform-report ul.warnings li { background: var(--warn-bg); color: var(--warn);
        border-left: 4px solid #e0a526; padding: .4em .8em; margin: .4em 0; }
.outperform-report figure { margin: 1em 0 1.6em; }
.outperform-report figure svg, .outperform-report figure img { max-width: 100%; height: auto;
        display: block; }
.outperform-report figcaption { color: var(--muted); font-size: .9em; margin-top: .3em;
        max-width: 60em; }
.outperform-report .note { color: var(--muted); font-size: .92em; }
.outperform-report footer { margin-top: 3em; color: var(--muted); font-size: .88em;
         border-top: 1px solid var(--rule); padding-top: .8em; }
"""
_PAGE_CSS = """
body { margin: 0; background: #fff; }
main.outperform-report { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
@media print { main.outperform-report { max-width: none; padding: 0; }
               h2 { break-after: avoid; } figure, table { break-inside: avoid; } }
"""
_FRAGMENT_CSS = "div.outperform-report { padding: 8px 4px; }"

# No request of any kind: styles are inline, figures are inline SVG, there is no script.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _table(t: Table) -> str:
    # A column of words is left-aligned, a column of numbers right-aligned (as in a paper).
    cls = [' class="text"' if words else "" for words in text_columns(t)]
    head = "".join(f'<th scope="col"{c}>{escape(h)}</th>' for h, c in zip(t.header, cls))
    body = []
    for n, row in enumerate(t.rows):
        mark = ' class="decides"' if n in t.marked else ""
        cells = "".join(f"<td{c}>{escape(v)}</td>" for v, c in zip(row, cls))
        body.append(f"<tr{mark}>{cells}</tr>")
    return (f'<div class="table-wrap"><table id="table-{escape(t.key)}" data-view="{t.view}">'
            f"<caption>{escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _svg(fig) -> str:
    return figure_svg(fig, scale=1.4 if fig.kind == "cd" else 1.0)   # CD diagrams are small


def _img(fig) -> str:
    data = base64.b64encode(_svg(fig).encode("utf-8")).decode("ascii")
    return f'<img alt="{escape(fig.caption)}" src="data:image/svg+xml;base64,{data}">'


def _blocks(doc: Document, section: Section, figure) -> str:
    out = []
    for block in section.blocks:
        if isinstance(block, Paragraph):
            text = escape(block.text)
            if block.see:
                text += f' <a href="#{escape(block.see)}">{escape(doc.title_of(block.see))}</a>.'
            lead = f"<strong>{escape(block.lead)}</strong>. " if block.lead else ""
            cls = ' class="note"' if block.note else ""
            out.append(f"<p{cls}>{lead}{text}</p>")
        elif isinstance(block, Bullets):
            out.append(f'<ul class="{block.kind}">'
                       + "".join(f"<li>{escape(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Table):
            out.append(_table(block))
        elif isinstance(block, Figure):
            fig = block.figure
            out.append(f'<figure id="figure-{escape(fig.key)}" data-kind="{fig.kind}">'
                       f"{figure(fig)}<figcaption>{escape(fig.caption)}</figcaption></figure>")
    for sub in section.subsections:   # a view of the inferences: a heading, not a <section>
        out.append(f"<h3>{escape(sub.title)}</h3>" + _blocks(doc, sub, figure))
    return "".join(out)


def _body(doc: Document, figure) -> str:
    """The sections of ``doc``, each a ``<section>`` with a numbered heading."""
    out = []
    for n, section in enumerate(doc.sections, start=1):
        heading = (f"<h2>{n}. {escape(section.title)}</h2>" if doc.numbered and section.title
                   else f"<h2>{escape(section.title)}</h2>" if section.title else "")
        out.append(f'<section id="{section.key}">{heading}{_blocks(doc, section, figure)}'
                   "</section>")
    return "".join(out)


def render_html(report: ComparisonReport, *, figures: bool = True, title: str | None = None) -> str:
    """Return ``report`` as one self-contained HTML document.

    The sections follow the checklist of Williams (2026) §7: the question (Q1–Q3), the loss
    or metric, the design (fixed and random factors), the tests with their assumptions, the
    inferences (summary table, frequentist tests with estimates, 95% confidence intervals and
    effect sizes, post-hoc tables and critical-difference diagrams, then the Bayesian tests
    with their posterior plots), and the warnings: the sections, tables and sentences of every
    format (:func:`outperform.report._document.build_document`).

    Parameters
    ----------
    report : ComparisonReport
        From :func:`outperform.compare`.
    figures : bool, default True
        Inline the plots as SVG (CD diagrams of rank-based post-hoc tests, posteriors of
        Bayesian tests, simplex plots of Dirichlet-process tests, distributions of wins).
        False gives a smaller page of tables and words only.
    title : str, optional
        Page title; by default the report's headline.

    Returns
    -------
    str
        A complete HTML5 document (UTF-8). It loads nothing: no script, no external style
        sheet, font or image; a Content-Security-Policy forbids requests.

    Examples
    --------
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> page = render_html(compare(load_demsar_table6()), figures=False)
    >>> page.startswith("<!DOCTYPE html>"), "finds no significantly different pair" in page
    (True, True)
    """
    doc = build_document(report, figures=figures)
    nav = "".join(f'<li><a href="#{s.key}">{escape(s.title)}</a></li>' for s in doc.sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="outperform {escape(__version__)}">'
        f"<title>{escape(title or doc.headline)}</title><style>{_CSS}{_PAGE_CSS}</style></head>\n"
        f'<body><main class="outperform-report"><header><h1>{escape(title or doc.title)}</h1>'
        f'<p class="lead">{escape(doc.headline)}</p></header>'
        f'<nav aria-label="sections"><ol>{nav}</ol></nav>\n{_body(doc, _svg)}\n'
        f"<footer><p>{escape(doc.closing)}</p><p>Made by outperform {escape(__version__)}; "
        f"JSON schema version {SCHEMA_VERSION}.</p></footer>"
        "</main></body></html>\n")


def render_html_fragment(result, *, figures: bool = True) -> str:
    """Return ``result`` as an HTML fragment for a notebook (its Jupyter ``_repr_html_``).

    Parameters
    ----------
    result : ComparisonReport, FrequentistResult, BayesianResult, PairwiseResult or Leaderboard
        A report shows every section of :func:`render_html`; a result shown alone shows its
        table and its figures (:func:`outperform.report._document.result_document`).
    figures : bool, default True
        Show the figures, each an ``<img>`` of base64 SVG.

    Returns
    -------
    str
        One ``<div class="outperform-report">`` with a style sheet that applies inside it only.

    Raises
    ------
    TypeError
        ``result`` is none of these types.
    """
    doc = result_document(result, figures=figures)
    head = (f'<header><h1>{escape(doc.title)}</h1><p class="lead">{escape(doc.headline)}</p>'
            "</header>" if doc.title else "")
    foot = f"<footer><p>{escape(doc.closing)}</p></footer>" if doc.closing else ""
    return (f'<div class="outperform-report"><style>{_CSS}{_FRAGMENT_CSS}</style>{head}'
            f"{_body(doc, _img)}{foot}</div>")
