"""One self-contained HTML file of a ComparisonReport, in the order of Williams' checklist.

The page needs nothing but itself: the style sheet is inline, the plots are inline SVG drawn
by matplotlib, there is no script, and a Content-Security-Policy forbids every request, so it
opens the same offline, in a mail attachment or in a CI artefact. Every string that comes from
the data (model names, metric, task) is escaped.
"""
from __future__ import annotations

from html import escape

from .. import __version__
from ..results import SCHEMA_VERSION, ComparisonReport
from ._figures import figure_svg, report_figures
from ._format import headline
from ._pairs import pairwise_tables
from ._sections import (SECTIONS, THINK, Table, bayesian_table, design_text, frequentist_table,
                        metric_text, question_text, settings_text, summary_table, test_notes)

_CSS = """
:root { --ink: #1d2733; --muted: #5b6675; --rule: #d5dbe3; --accent: #1f5fa8;
        --warn: #8a5a00; --warn-bg: #fff6e0; --mark: #eef4fb; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 1.6em; margin: 0 0 .3em; }
h2 { font-size: 1.25em; margin: 1.8em 0 .5em; padding-bottom: .2em;
     border-bottom: 2px solid var(--rule); }
h3 { font-size: 1.05em; margin: 1.4em 0 .4em; color: var(--accent); }
p.lead { color: var(--muted); margin-top: 0; }
nav ol { columns: 2; color: var(--muted); padding-left: 1.4em; }
nav a, a { color: var(--accent); text-decoration: none; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: .93em;
        font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
th, td { padding: .3em .8em; text-align: right; border-bottom: 1px solid var(--rule); }
th { border-bottom: 2px solid var(--ink); font-weight: 600; }
thead th { border-top: 2px solid var(--ink); }
tbody tr:last-child td { border-bottom: 2px solid var(--ink); }
th:first-child, td:first-child, td.text, th.text { text-align: left; }
td:not(.text) { white-space: nowrap; }
tr.decides td { background: var(--mark); font-weight: 600; }
.table-wrap { overflow-x: auto; }
ul.conclusions li { margin: .3em 0; }
ul.warnings { list-style: none; padding: 0; }
ul.warnings li { background: var(--warn-bg); color: var(--warn); border-left: 4px solid #e0a526;
                 padding: .4em .8em; margin: .4em 0; }
figure { margin: 1em 0 1.6em; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: .9em; margin-top: .3em; max-width: 60em; }
.views { display: grid; grid-template-columns: 1fr; gap: 0 2em; }
.note { color: var(--muted); font-size: .92em; }
footer { margin-top: 3em; color: var(--muted); font-size: .88em;
         border-top: 1px solid var(--rule); padding-top: .8em; }
@media print { main { max-width: none; padding: 0; } h2 { break-after: avoid; }
               figure, table { break-inside: avoid; } }
"""

# No request of any kind: styles are inline, figures are inline SVG, there is no script.
_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"


def _table(t: Table) -> str:
    # A column of words is left-aligned, a column of numbers right-aligned (as in a paper).
    text = [any(_is_text(row[c]) for row in t.rows) for c in range(len(t.header))]
    cls = [' class="text"' if x else "" for x in text]
    head = "".join(f'<th scope="col"{c}>{escape(h)}</th>' for h, c in zip(t.header, cls))
    body = []
    for n, row in enumerate(t.rows):
        mark = ' class="decides"' if n in t.marked else ""
        cells = "".join(f"<td{c}>{escape(v)}</td>" for v, c in zip(row, cls))
        body.append(f"<tr{mark}>{cells}</tr>")
    return (f'<div class="table-wrap"><table id="table-{escape(t.key)}" data-view="{t.view}">'
            f"<caption>{escape(t.title)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


def _is_text(cell: str) -> bool:
    """Whether a cell holds words (names, decisions) rather than a number."""
    return any(ch.isalpha() for ch in cell.replace("e-", "").replace("e+", ""))


def _list(items, cls: str) -> str:
    return f'<ul class="{cls}">' + "".join(f"<li>{escape(i)}</li>" for i in items) + "</ul>"


def _figure(fig) -> str:
    svg = figure_svg(fig, scale=1.4 if fig.kind == "cd" else 1.0)   # CD diagrams are small
    return (f'<figure id="figure-{escape(fig.key)}" data-kind="{fig.kind}">{svg}'
            f"<figcaption>{escape(fig.caption)}</figcaption></figure>")


def render_html(report: ComparisonReport, *, figures: bool = True, title: str | None = None) -> str:
    """Return ``report`` as one self-contained HTML document.

    The sections follow the checklist of Williams (2026) §7: the question (Q1–Q3), the loss
    or metric, the design (fixed and random factors), the tests with their assumptions, the
    inferences (summary table, frequentist tests with estimates, 95% confidence intervals and
    effect sizes, post-hoc tables and critical-difference diagrams, then the Bayesian tests
    with their posterior plots), and the warnings.

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
    q_title, q_text = question_text(report)
    head = headline(report)
    figs = report_figures(report) if figures else []
    cd_figs = [f for f in figs if f.kind == "cd"]
    bayes_figs = [f for f in figs if f.kind != "cd"]
    parts = {}

    parts["question"] = f"<p><strong>{escape(q_title)}</strong>. {escape(q_text)}</p>"
    parts["metric"] = f"<p>{escape(metric_text(report))}</p>"
    parts["design"] = _list(design_text(report), "design")

    notes = Table("assumptions", "Tests run and what they assume", ["test", "role", "assumes"],
                  [list(n) for n in test_notes(report)], "summary")
    parts["tests"] = (
        f"<p>{escape(report.rationale)}</p>" + _list(settings_text(report), "settings")
        + _table(notes)
        + (f'<p class="note">{len(report.warnings)} warning(s) on assumptions and data: see '
           '<a href="#warnings">Warnings</a>.</p>' if report.warnings else ""))

    freq = [t for t in (frequentist_table(report),) if t]
    bayes = [t for t in (bayesian_table(report),) if t]
    for t in pairwise_tables(report):
        (bayes if t.view == "bayesian" else freq).append(t)
    inferences = [_list(report.conclusions, "conclusions"), _table(summary_table(report))]
    if freq or cd_figs:
        inferences.append("<h3>Frequentist view</h3>")
        inferences += [_table(t) for t in freq] + [_figure(f) for f in cd_figs]
    if bayes or bayes_figs:
        inferences.append("<h3>Bayesian view</h3>")
        inferences += [_table(t) for t in bayes] + [_figure(f) for f in bayes_figs]
    parts["inferences"] = "".join(inferences)
    parts["warnings"] = (_list(report.warnings, "warnings") if report.warnings
                         else "<p>None.</p>")

    nav = "".join(f'<li><a href="#{key}">{escape(name)}</a></li>' for key, name in SECTIONS)
    body = "".join(
        f'<section id="{key}"><h2>{n}. {escape(name)}</h2>{parts[key]}</section>'
        for n, (key, name) in enumerate(SECTIONS, start=1))
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="outperform {escape(__version__)}">'
        f"<title>{escape(title or head)}</title><style>{_CSS}</style></head>\n"
        f"<body><main><header><h1>{escape(title or q_title)}</h1>"
        f'<p class="lead">{escape(head)}</p></header>'
        f'<nav aria-label="sections"><ol>{nav}</ol></nav>\n{body}\n'
        f"<footer><p>{escape(THINK)}</p><p>Made by outperform {escape(__version__)}; "
        f"JSON schema version {SCHEMA_VERSION}.</p></footer>"
        "</main></body></html>\n")
