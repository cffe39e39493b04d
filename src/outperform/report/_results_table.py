"""A paper's per-data-set results table: one row per data set, one column per method, mean ±
sd, the best of each row in bold, a mark on the methods significantly worse than it, and a
footer of average ranks, wins/ties/losses against a control and the test over data sets.

:func:`results_table` computes it (:func:`outperform.compare.task_table`) and renders it as
LaTeX (booktabs, optionally siunitx; :mod:`._results_table_latex`), Markdown, HTML, text or
JSON (kind ``"results_table"`` of ``output.schema.json``). The cells and captions are laid
out once here (:class:`Grid`), so every format shows the same table.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape as html_escape

import numpy as np

from .._validation import InvalidInputError
from ._document import Document, Paragraph, Section
from ._outputs import FORMATS, Output, render_output

#: Decimals of the means and standard deviations when neither ``decimals`` nor
#: ``sd_digits`` is given (Demšar 2006, Table 6, prints three).
DEFAULT_DECIMALS = 3
DAGGER = "†"


@dataclass(frozen=True)
class Cell:
    """One cell: the mean and sd as printed (sd None for a single value), in bold, marked,
    its rank within the row as printed (None: not shown); ``mean`` "" for a missing cell."""

    mean: str
    sd: str | None = None
    bold: bool = False
    mark: bool = False
    rank: str | None = None
    numeric: bool = True


@dataclass(frozen=True)
class Grid:
    """The table laid out: the corner heading, the column headings, the body rows
    ``(label, cells)``, the footer rows ``(label, cells)`` and the last row, the test over
    data sets, ``(name, numbers)`` (``span_latex``: its numbers in LaTeX), or None."""

    corner: str
    header: tuple
    rows: tuple
    footer: tuple
    span: tuple | None
    span_latex: tuple | None = None

    def transposed(self, corner: str) -> "Grid":
        """Rows become columns; each footer row becomes a column after the body's."""
        header = tuple(label for label, _ in self.rows) + tuple(lab for lab, _ in self.footer)
        rows = tuple((name, tuple(cells[j] for _, cells in self.rows)
                      + tuple(cells[j] for _, cells in self.footer))
                     for j, name in enumerate(self.header))
        return Grid(corner, header, rows, (), self.span, self.span_latex)


def _number(value: float, decimals: int) -> str:
    if not math.isfinite(value):
        return ""
    rounded = round(value, decimals)
    text = f"{rounded:.{max(decimals, 0)}f}"
    return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


def _decimals_of(sd: float, sd_digits: int | None, decimals: int | None) -> int:
    """Decimals of a cell: ``decimals``, or those that give its sd ``sd_digits``
    significant digits (the table default when the sd is missing or zero)."""
    if sd_digits is None:
        return DEFAULT_DECIMALS if decimals is None else decimals
    if not math.isfinite(sd) or sd <= 0:
        return DEFAULT_DECIMALS
    return sd_digits - 1 - math.floor(math.log10(sd))


def _check_digits(decimals, sd_digits) -> None:
    if decimals is not None and sd_digits is not None:
        raise InvalidInputError("give decimals= (--decimals) or sd_digits= (--sd-digits), not "
                                "both: they set the same thing two ways.")
    for name, value, low in (("decimals", decimals, 0), ("sd_digits", sd_digits, 1)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))
                                  or value < low or value > 15):
            raise InvalidInputError(f"{name} must be a whole number from {low} to 15, got "
                                    f"{value!r}.")


def build_grid(t, *, decimals=None, sd_digits=None, ranks=False) -> Grid:
    """The cells of a :class:`~outperform.results.TaskTable` as printed."""
    _check_digits(decimals, sd_digits)
    k = len(t.models)
    rows = []
    for i, task in enumerate(t.tasks):
        cells = []
        for j in range(k):
            if t.n[i, j] == 0 or not math.isfinite(t.mean[i, j]):
                cells.append(Cell(""))
                continue
            d = _decimals_of(t.sd[i, j], sd_digits, decimals)
            sd = _number(t.sd[i, j], d) if t.n[i, j] > 1 else None
            cells.append(Cell(_number(t.mean[i, j], d), sd or None, bool(t.best[i, j]),
                              bool(t.worse[i, j]), f"{t.ranks[i, j]:g}" if ranks else None))
        rows.append((task, tuple(cells)))
    footer = [("Average rank", tuple(Cell(_number(r, 3)) for r in t.average_ranks))]
    if t.control is not None:
        footer.append((f"W/T/L vs {t.control}", tuple(
            Cell("–", numeric=False) if m == t.control else
            Cell(f"{w}/{ti}/{lo}", numeric=False)
            for m, w, ti, lo in zip(t.models, t.wins, t.ties, t.losses))))
    return Grid("Data set", tuple(t.models), tuple(rows), tuple(footer), omnibus_line(t),
                omnibus_line(t, latex=True))


def omnibus_line(t, *, latex: bool = False) -> tuple[str, str] | None:
    """The test over data sets: its name and its numbers (LaTeX math with ``latex``), or
    None when there is nothing to say; not run: the reason is among the notes."""
    o = t.omnibus
    if o is None:
        return ("Test over data sets", "not run (see the note)") if t.omnibus_note else None
    m = (lambda x: f"${x}$") if latex else (lambda x: x)
    p, d = m(_p(o["pvalue"])), o["details"]
    chi = "\\chi^2_F" if latex else "χ²_F"
    stat = o["statistic"]
    if o["key"] == "iman_davenport":
        df1, df2 = o["df"]
        return ("Friedman, Iman–Davenport",
                m(f"{chi} = {d['friedman_statistic']:.2f}") + ", "
                + m(f"F_F({df1}, {df2}) = {stat:.2f}") + f", {p}")
    if o["key"] == "wilcoxon":
        plus, minus = ("R^+", "R^-") if latex else ("R+", "R−")
        return ("Wilcoxon signed-rank", m(f"{plus} = {d['R_plus']:g}") + ", "
                + m(f"{minus} = {d['R_minus']:g}") + f", {p}")
    if o["key"] == "friedman_permutation":
        how = "exact" if d.get("exact") else "Monte Carlo"
        return (f"Friedman ({how} permutation)", m(f"{chi} = {stat:.2f}") + f", {p}")
    df = f", df = {o['df']}" if o["df"] is not None else ""
    return (o["method"], f"statistic = {stat:.3g}{df}, {p}")


def _p(p: float) -> str:
    """A p-value as papers print it: three significant digits, or "p < 0.001"."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


def span_text(span) -> str | None:
    return None if span is None else f"{span[0]}: {span[1]}"


def caption_text(t, caption: str | None, *, ranks: bool) -> str:
    """The caption: the user's (or a description of the cells), then what bold, the mark,
    the ranks and the footer mean, and which test made the marks (or why there are none)."""
    direction = "higher is better" if t.higher_is_better else "lower is better"
    what = ("one value per data set" if t.aggregation == "one value per cell" else
            f"mean ± standard deviation over the {t.aggregation.replace(' per cell', '')}")
    parts = [caption.strip() if caption else f"Results ({t.metric}, {direction}) of each "
             f"method on each data set: {what}."]
    parts.append("Bold: the best of each row (ties: all of them).")
    if t.test == "corrected_t_holm":
        parts.append(f"{DAGGER}: significantly worse than the best of its row by the corrected "
                     "resampled t-test (Nadeau & Bengio 2003), two-sided, Holm-adjusted over "
                     f"the methods of the row, α = {t.alpha:g}.")
    elif t.aggregation == "one value per cell":
        parts.append("No significance marks: one value per cell, so no test within a data set; "
                     "the methods are compared over the data sets in the last row.")
    else:
        parts.append("No significance marks: no test within data sets was asked for.")
    if ranks:
        parts.append("In parentheses: the rank within the row (1 = best, ties averaged).")
    if t.control is not None:
        parts.append(f"W/T/L: the data sets on which the method's mean is better than, equal "
                     f"to or worse than the mean of {t.control}.")
    return " ".join(parts)


def _payload(t, grid_caption: str, label: str, decimals, sd_digits) -> dict:
    return {**t.to_dict(), "caption": grid_caption, "label": label,
            "decimals": decimals, "sd_digits": sd_digits,
            "omnibus_line": span_text(omnibus_line(t))}


# -- Markdown, HTML, text ---------------------------------------------------------------------

def _plain(c: Cell, bold: str = "**") -> str:
    if not c.mean:
        return ""
    text = c.mean if c.sd is None else f"{c.mean} ± {c.sd}"
    text = f"{bold}{text}{bold}" if c.bold and bold else text
    return text + (DAGGER if c.mark else "") + (f" ({c.rank})" if c.rank else "")


def grid_markdown(g: Grid, caption: str, notes) -> str:
    def row(cells):
        return "| " + " | ".join(str(c).replace("|", "\\|") for c in cells) + " |"

    lines = [f"Table: {caption}", "", row((g.corner, *g.header)),
             "|---|" + "---:|" * len(g.header)]
    lines += [row((label, *(_plain(c) for c in cells))) for label, cells in g.rows]
    lines += [row((f"*{label}*", *(_plain(c) for c in cells))) for label, cells in g.footer]
    if g.span:
        lines += ["", span_text(g.span)]
    lines += [""] + [f"- note: {n}" for n in notes] if notes else []
    return "\n".join(lines).rstrip("\n") + "\n"


def _html_cell(c: Cell) -> str:
    if not c.mean:
        return "<td></td>"
    text = html_escape(c.mean if c.sd is None else f"{c.mean} ± {c.sd}")
    text = f"<strong>{text}</strong>" if c.bold else text
    text += f"<sup>{DAGGER}</sup>" if c.mark else ""
    text += f" ({html_escape(c.rank)})" if c.rank else ""
    return f'<td class="num">{text}</td>'


def grid_html(g: Grid, caption: str, notes) -> str:
    head = "".join(f"<th>{html_escape(h)}</th>" for h in (g.corner, *g.header))
    body = "".join(f"<tr><th>{html_escape(label)}</th>{''.join(map(_html_cell, cells))}</tr>"
                   for label, cells in g.rows)
    foot = "".join(f"<tr><th>{html_escape(label)}</th>{''.join(map(_html_cell, cells))}</tr>"
                   for label, cells in g.footer)
    if g.span:
        foot += (f"<tr><th>{html_escape(g.span[0])}</th><td colspan=\"{len(g.header)}\">"
                 f"{html_escape(g.span[1])}</td></tr>")
    items = "".join(f"<li>{html_escape(n)}</li>" for n in notes)
    style = ("table{border-collapse:collapse;font-family:sans-serif}caption{caption-side:top;"
             "text-align:left;max-width:60em;margin-bottom:.5em}th,td{padding:.2em .6em}"
             "thead tr{border-top:2px solid;border-bottom:1px solid}tbody tr:last-child"
             "{border-bottom:1px solid}tfoot tr:last-child{border-bottom:2px solid}"
             ".num{text-align:right;font-variant-numeric:tabular-nums}th{text-align:left}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Results"
            f"</title><style>{style}</style></head><body>\n<table>"
            f"<caption>{html_escape(caption)}</caption><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody><tfoot>{foot}</tfoot></table>\n"
            + (f"<ul>{items}</ul>\n" if items else "") + "</body></html>\n")


def grid_text(g: Grid, caption: str, notes) -> str:
    from rich.markup import escape
    from rich.table import Table as RichTable

    from ._outputs import rich_text

    table = RichTable(title=escape(caption), title_justify="left", show_footer=False)
    for n, name in enumerate((g.corner, *g.header)):
        table.add_column(escape(name), justify="left" if n == 0 else "right")
    for label, cells in g.rows:
        table.add_row(escape(label), *(escape(_plain(c)) for c in cells))
    if g.footer:
        table.add_section()
        for label, cells in g.footer:
            table.add_row(escape(label), *(escape(_plain(c)) for c in cells))
    shown = [table, *([span_text(g.span)] if g.span else []), *(f"note: {n}" for n in notes)]
    widths = [max(len(x) for x in column) for column in zip(
        (g.corner, *g.header), *((label, *map(_plain, cells)) for label, cells in (*g.rows,
                                                                                    *g.footer)))]
    return rich_text(*shown, width=max(80, sum(widths) + 3 * len(widths) + 1))


# -- the public function ------------------------------------------------------------------------

def results_table_output(t, *, decimals=None, sd_digits=None, ranks: bool = False,
                         transpose: bool = False, caption: str | None = None,
                         label: str | None = None, siunitx: bool = False) -> Output:
    """The :class:`~outperform.report.Output` (kind ``"results_table"``) of a
    :class:`~outperform.results.TaskTable`: LaTeX, Markdown, HTML, text and JSON.

    Raises
    ------
    InvalidInputError
        ``decimals`` and ``sd_digits`` both given, or either not a whole number in range;
        ``sd_digits`` on a table with one value per cell (no standard deviation).
    """
    from ._results_table_latex import grid_latex

    if sd_digits is not None and not (t.n > 1).any():
        raise InvalidInputError("sd_digits= (--sd-digits) sets the digits of the standard "
                                "deviation, and every cell holds one value (no standard "
                                "deviation): use decimals= (--decimals).")
    if siunitx and ranks:
        raise InvalidInputError("siunitx=True (--siunitx) aligns each column on the decimal "
                                "point of its numbers, and the ranks in parentheses would break "
                                "that alignment: give one of the two.")
    grid = build_grid(t, decimals=decimals, sd_digits=sd_digits, ranks=ranks)
    if transpose:
        grid = grid.transposed("Method")
    text_caption = caption_text(t, caption, ranks=ranks)
    label = label or "tab:results"
    notes = list(t.notes) + ([f"test over data sets not run: {t.omnibus_note}"]
                             if t.omnibus_note else [])
    latex = grid_latex(grid, text_caption, label, notes, siunitx=siunitx)
    doc = Document("Results table", "", (Section("table", "", (Paragraph(text_caption),)),),
                   numbered=False)
    return Output("results_table", _payload(t, text_caption, label, decimals, sd_digits), doc,
                  grid_text(grid, text_caption, notes),
                  markdown=grid_markdown(grid, text_caption, notes),
                  html=grid_html(grid, text_caption, notes), latex=latex)


def results_table(results, *, metric: str | None = None, higher_is_better: bool | None = None,
                  control: str | None = None, alpha: float = 0.05, test: str = "auto",
                  rho: float | None = None, decimals: int | None = None,
                  sd_digits: int | None = None, ranks: bool = False, transpose: bool = False,
                  columns=None, caption: str | None = None, label: str | None = None,
                  siunitx: bool = False, format: str = "latex") -> str:
    r"""A paper's per-data-set results table, as a string in ``format``.

    One row per data set, one column per method: the mean ± standard deviation (ddof = 1)
    of the folds or runs of each cell (the value alone when a cell holds one), the best of
    each row in bold (the largest, or the smallest for a loss; ties all bold), ``†`` on the
    methods significantly worse than the best of their row, and a footer: the average rank
    of each method (1 = best, ties averaged; Demšar 2006 §3.2.2), its wins/ties/losses
    against ``control``, and the test over data sets (Friedman with the Iman–Davenport F,
    its permutation form on at most 10 data sets, Skillings–Mack with missing cells,
    Wilcoxon for two methods), as :func:`outperform.compare.compare` runs them. The caption
    says which test made the marks, or why there are none. The numbers are those of
    :func:`outperform.compare.task_table`.

    Parameters
    ----------
    results : ResultsTable, DataFrame or path
        As :func:`outperform.data.read_results` reads them (long or wide; missing cells
        allowed and left empty).
    metric, higher_is_better, control, alpha, test, rho, columns :
        As :func:`outperform.compare.task_table`: the mark is the corrected resampled
        t-test (Nadeau & Bengio 2003) of each method against its row's best, Holm-adjusted
        over the row, when cells hold several folds or runs (``test="auto"``); ``columns``
        chooses the methods shown and their order.
    decimals : int, optional
        Decimals of the means and sds (default 3).
    sd_digits : int, optional
        Instead: significant digits of each cell's sd, its mean rounded to the same place.
    ranks : bool
        Also print each cell's rank within its row, in parentheses (as Demšar's Table 6).
    transpose : bool
        One row per method and one column per data set (the footer rows become columns).
    caption : str, optional
        The caption's first sentences; what bold, the mark and the footer mean follows.
    label : str, optional
        LaTeX ``\label`` (default ``tab:results``).
    siunitx : bool
        LaTeX: siunitx ``S`` columns aligned on the decimal point (needs
        ``\usepackage{siunitx}``).
    format : {"latex", "markdown", "html", "text", "json"}
        LaTeX: a ``table`` float with a booktabs ``tabular`` (``\usepackage{booktabs}``, stated
        in a comment above it), to paste into a paper. JSON: the kind ``"results_table"`` of
        ``output.schema.json``.

    Returns
    -------
    str

    Raises
    ------
    InvalidInputError
        Unknown format; and as :func:`outperform.compare.task_table` and
        :func:`results_table_output`.
    TooFewError
        As :func:`outperform.compare.task_table`.

    Examples
    --------
    >>> from outperform.data import load_demsar_table6
    >>> md = results_table(load_demsar_table6(), format="markdown")
    >>> print(md.splitlines()[4])
    | adult (sample) | 0.763 | 0.768 | 0.771 | **0.798** |
    """
    from ..compare._table_marks import task_table

    if format not in FORMATS:
        raise InvalidInputError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}.")
    _check_digits(decimals, sd_digits)
    t = task_table(results, metric=metric, higher_is_better=higher_is_better, control=control,
                   alpha=alpha, test=test, rho=rho, columns=columns)
    out = results_table_output(t, decimals=decimals, sd_digits=sd_digits, ranks=ranks,
                               transpose=transpose, caption=caption, label=label,
                               siunitx=siunitx)
    return render_output(out, format)


__all__ = ["results_table", "results_table_output"]
