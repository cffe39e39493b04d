"""LaTeX rendering of a ComparisonReport, for a paper: a walk of the report's document, with
booktabs tables and the CD diagram.

The fragment needs ``\\usepackage{booktabs,array,tabularx,graphicx}``; ``standalone=True``
wraps it in a complete ``article`` that compiles with pdflatex. Text from the data (model names,
metric) is escaped, and the Unicode symbols of the report's sentences (α, ≥, ×, Greek letters, ...)
are written as LaTeX commands, so pdflatex needs no Unicode font.
"""
from __future__ import annotations

import re
from pathlib import Path

from .. import __version__
from ..results import ComparisonReport
from ._document import Bullets, Document, Figure, Paragraph, build_document, is_text
from ._figures import FILE_KINDS, file_paths, save_figure_file
from ._sections import Table

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}
_MATH = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon",
    "θ": r"\theta", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "π": r"\pi",
    "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "φ": r"\phi", "χ": r"\chi", "ψ": r"\psi",
    "ω": r"\omega", "Δ": r"\Delta", "Σ": r"\Sigma", "Φ": r"\Phi", "Ω": r"\Omega",
    "≥": r"\geq", "≤": r"\leq", "≠": r"\neq", "≈": r"\approx", "±": r"\pm", "×": r"\times",
    "−": "-", "→": r"\rightarrow", "←": r"\leftarrow", "⇒": r"\Rightarrow", "∞": r"\infty",
    "√": r"\surd", "·": r"\cdot", "²": "^2", "³": "^3", "₀": "_0", "₁": "_1", "₂": "_2",
}
_TEXT = {
    "–": "--", "—": "---", "…": r"\ldots{}", "§": r"\S{}", "•": r"\textbullet{}",
    "‘": "`", "’": "'", "“": "``", "”": "''", "\u00a0": "~",
}
_CHARS = {**_SPECIAL, **{k: f"\\ensuremath{{{v}}}" for k, v in _MATH.items()}, **_TEXT}
_NUMBER = re.compile(r"^(-?)(\d+(?:\.\d+)?)(?:e([+-]?\d+))?$")
_MINUS = re.compile(r"(?<!\w)-(?=\d)")   # a minus sign, not a hyphen inside a name


def latex_escape(text) -> str:
    r"""Escape ``text`` for LaTeX: special characters and the Unicode symbols of the reports.

    Examples
    --------
    >>> print(latex_escape("C4.5+m_cf & 100% #1 $x^2 {a}"))
    C4.5+m\_cf \& 100\% \#1 \$x\textasciicircum{}2 \{a\}
    >>> print(latex_escape("~b \\ α ≥ 0.05"))
    \textasciitilde{}b \textbackslash{} \ensuremath{\alpha} \ensuremath{\geq} 0.05
    """
    text = str(text).replace(">=", "≥").replace("<=", "≤")
    return "".join(_CHARS.get(ch, ch) for ch in text)


def _cell(text: str) -> str:
    """A number in math mode (true minus sign, ×10^k for scientific notation), else text."""
    m = _NUMBER.match(text.strip())
    if not m:
        return _MINUS.sub(r"\\ensuremath{-}", latex_escape(text))
    sign, mantissa, exponent = m.groups()
    if exponent is None:
        return f"${sign}{mantissa}$" if sign else mantissa
    return f"${sign}{mantissa}\\times 10^{{{int(exponent)}}}$"


def _header(text: str, limit: int = 18) -> str:
    """A long column heading set on two lines (a nested tabular, as booktabs tables do)."""
    lines = _header_lines(text, limit)
    if len(lines) == 1:
        return latex_escape(text)
    return (r"\begin{tabular}[b]{@{}c@{}}" + latex_escape(lines[0]) + r"\\"
            + latex_escape(lines[1]) + r"\end{tabular}")


#: About how many characters of \small text a line of an article's text block holds; a table
#: estimated wider wraps its longest text columns (tabularx X columns) instead of running
#: into the margin.
_LINE_CHARS = 88


def _header_lines(text: str, limit: int = 18) -> list[str]:
    """A column heading on one line, or on two when longer than ``limit`` characters."""
    words = text.split(" ")
    if len(text) <= limit or len(words) < 2:
        return [text]
    cut = min(range(1, len(words)),
              key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def _widths(t: Table, limit: int = 18) -> list[int]:
    """Estimated width of each column in characters (the widest cell or heading line)."""
    return [max([len(x) for x in _header_lines(t.header[c], limit)]
                + [len(r[c]) for r in t.rows]) for c in range(len(t.header))]


def _total(widths, wide) -> int:
    return sum(10 if x else w for x, w in zip(wide, widths)) + 3 * len(widths)


def _tabular(t: Table, label: str) -> str:
    text = [any(is_text(r[c]) for r in t.rows) for c in range(len(t.header))]
    # Long words (test names, decisions) wrap in X columns that share the line width, instead
    # of widening the table past the margin; a table still estimated wider than the line
    # sets its headings on two lines and wraps its widest text columns of several words.
    limit = 18
    widths = _widths(t, limit)
    wide = [x and w > 24 for x, w in zip(text, widths)]
    if _total(widths, wide) > _LINE_CHARS:
        limit, widths = 8, _widths(t, 8)
    while _total(widths, wide) > _LINE_CHARS:
        rest = [c for c, x in enumerate(text) if x and not wide[c]
                and any(" " in r[c] for r in t.rows)]
        if not rest:
            break
        wide[max(rest, key=lambda c: widths[c])] = True
    spec = "".join(r">{\raggedright\arraybackslash}X" if w else "l" if x else "r"
                   for x, w in zip(text, wide))
    env, width = ("tabularx", r"{\linewidth}") if any(wide) else ("tabular", "")
    lines = [r"\begin{table}[htbp]", r"\centering", r"\small",
             f"\\caption{{{latex_escape(t.title)}}}", f"\\label{{tab:{label}-{_slug(t.key)}}}",
             f"\\begin{{{env}}}{width}{{@{{}}{spec}@{{}}}}", r"\toprule",
             " & ".join(_header(h, limit) for h in t.header) + r" \\", r"\midrule"]
    for n, row in enumerate(t.rows):
        cells = [_cell(c) for c in row]
        if n in t.marked:   # the test the decision rests on
            cells = [f"\\textbf{{{c}}}" if not c.startswith("$") else c for c in cells]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", f"\\end{{{env}}}", r"\end{table}"]
    return "\n".join(lines)


def _height(block) -> int:
    """About how many lines of text ``block`` (a table or a figure) takes on the page."""
    if isinstance(block, Table):
        widths = _widths(block)
        share = max(12, _LINE_CHARS // max(1, len(widths)))
        rows = sum(max(1, max(-(-len(c) // share) for c in r)) for r in block.rows)
        # caption (up to two lines), the rules and their padding, a heading of two lines,
        # and the float's separation from the text
        return rows + 10
    return 20                    # a figure of a report: at most about 3.5 in high


def needspace(lines: int) -> str:
    r"""Vertical material that starts a new page unless ``lines`` lines of text are left on
    this one (the mechanism of the needspace package, written out so that no package is
    needed): a heading set after it stays with the table or figure that follows it."""
    h = f"{min(lines, 40)}\\baselineskip"
    return (f"\\par\\vskip 0pt plus {h}\\penalty-100\\vskip 0pt plus -{h}"
            f"\\vskip {h}\\penalty9999\\vskip -{h}\\vskip 0pt")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def _items(items) -> str:
    return "\\begin{itemize}\n" + "\n".join(f"  \\item {latex_escape(i)}" for i in items) \
        + "\n\\end{itemize}"


_PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[utf8]{inputenc}
\usepackage[margin=2.5cm]{geometry}
\usepackage{booktabs}
\usepackage{array}
\usepackage{tabularx}
\usepackage{graphicx}
\setlength{\emergencystretch}{3em}
\usepackage{float}
% Tables and figures stay where the report puts them (float's [H]): a heading never waits
% alone at a page end for a float that moved to the next page.
\makeatletter
\let\outperform@table\table\renewcommand{\table}[1][]{\outperform@table[H]}
\let\outperform@figure\figure\renewcommand{\figure}[1][]{\outperform@figure[H]}
\makeatother
\begin{document}
"""


def render_latex(report: ComparisonReport, *, figure_path=None, standalone: bool = False,
                 label: str = "outperform", fragment: bool = False) -> str:
    r"""Return ``report`` as LaTeX: paragraphs in the order of Williams' checklist and tables.

    The sections, tables and sentences are those of every format
    (:func:`outperform.report._document.build_document`), in the order of Williams (2026) §7:
    question, loss or metric, design, tests and their assumptions, inferences (conclusions,
    summary table, then the frequentist view: tests with 95% confidence intervals and effect
    sizes, post-hoc tables, the critical-difference diagram; then the Bayesian view), warnings.
    Each section is a ``\paragraph``, each view a ``\subparagraph``. Tables use booktabs rules
    (``\toprule``, ``\midrule``, ``\bottomrule``); the row of the test the decision rests on
    is set in bold.

    Parameters
    ----------
    report : ComparisonReport
    figure_path : str or path-like, optional
        Where to write the critical-difference diagram as PDF (fonts embedded as TrueType).
        A figure environment then includes it by its *file name*: keep the PDF in the folder
        of the ``.tex`` file. When the report has several diagrams, the others are written
        next to it with the post-hoc key added to the name (``cd-bonferroni-dunn.pdf``).
        Reports without a rank-based post-hoc test have no diagram. A report with a
        leaderboard also gets its rank-set plot, as ``<name>-ranks.pdf`` beside it (the
        name of ``figure_path`` without a final ``-cd``).
    standalone : bool, default False
        False: a fragment to ``\input`` into a paper that loads booktabs, array, tabularx and
        graphicx.
        True: a complete ``article`` document that compiles with pdflatex.
    label : str
        Prefix of the ``\label`` of tables (``tab:<label>-<key>``) and figures.
    fragment : bool, default False
        True: only the ``table`` and ``figure`` environments, for a paper to ``\input`` or
        copy (no headings, no sentences, no preamble); a comment at the top states the
        ``\usepackage`` lines they need. Not with ``standalone``.

    Returns
    -------
    str

    Examples
    --------
    >>> from outperform import compare
    >>> from outperform.data import load_demsar_table6
    >>> tex = render_latex(compare(load_demsar_table6(), alpha=0.10))
    >>> "\\toprule" in tex, "C4.5+m+cf is significantly better than C4.5" in tex
    (True, True)
    """
    if fragment and standalone:
        from .._validation import InvalidInputError

        raise InvalidInputError("fragment=True writes tables and figures to paste into a "
                                "paper; standalone=True a whole document: choose one.")
    doc = build_document(report, figures=figure_path is not None)
    # Only the critical-difference diagrams and the rank-set plot are written (as PDF).
    files = (file_paths([f for f in doc.figures() if f.kind in FILE_KINDS], figure_path)
             if figure_path is not None else {})
    if fragment:
        return floats_only(doc, lambda block: _block(doc, block, files, label, fit=True))
    parts = [f"% {latex_escape(doc.headline)}",
             f"% Written by outperform {__version__}; needs "
             "\\usepackage{booktabs,array,tabularx,graphicx}."]
    for depth, section in doc.walk():
        command = "paragraph" if depth == 0 else "subparagraph"
        # A run-in heading waits for the next line of text; before a table (a float) or a
        # list there is none, so an empty box sets the heading here, above them.
        runs_in = bool(section.blocks) and isinstance(section.blocks[0], Paragraph)
        if section.blocks and isinstance(section.blocks[0], (Table, Figure)):
            # keep the heading on the page of the table or figure under it
            parts.append(needspace(_height(section.blocks[0])))
        parts.append(f"\\{command}{{{latex_escape(section.title)}.}}"
                     + ("" if runs_in else r"\mbox{}"))
        parts += kept_in_order(section, lambda block: _block(doc, block, files, label))
    parts.append(f"% {latex_escape(doc.closing)}")
    body = "\n\n".join(p for p in parts if p) + "\n"
    return _PREAMBLE + body + "\\end{document}\n" if standalone else body


def kept_in_order(section, render) -> list[str]:
    """The blocks of ``section`` rendered, each table or figure after it the first preceded
    by :func:`needspace` for its height: a float that does not fit starts the next page
    there, so it is placed where it is written ([htbp] finds room "here") and floats keep
    the order of the text."""
    out = []
    for n, block in enumerate(section.blocks):
        if n and isinstance(block, (Table, Figure)):
            out.append(needspace(_height(block)))
        out.append(render(block))
    return out


PACKAGES = ("booktabs", "array", "tabularx")


def floats_only(doc: Document, render) -> str:
    """The table and figure environments of ``doc`` (each block rendered by ``render``), after
    a comment naming the packages they need (graphicx only with a figure)."""
    blocks = [b for _, section in doc.walk() for b in section.blocks
              if isinstance(b, (Table, Figure))]
    # table* and figure*: the text width of a two-column paper (in one column, the same as
    # table and figure); the tables are laid out for a text width, not a column
    parts = [re.sub(r"\\(begin|end)\{(table|figure)\}(\[htbp\])?",
                    lambda m: f"\\{m.group(1)}{{{m.group(2)}*}}" + ("[tbp]" if m.group(3) else ""),
                    p) for p in (render(b) for b in blocks) if p]
    packages = PACKAGES + (("graphicx",) if any("\\includegraphics" in p for p in parts) else ())
    head = [f"% {latex_escape(doc.headline or doc.title)}",
            f"% Tables and figures written by outperform {__version__}, to \\input into a "
            "paper (table* and figure*: the text width of a two-column page) whose preamble "
            "has:",
            f"% \\usepackage{{{','.join(packages)}}}"]
    return "\n\n".join(["\n".join(head), *parts]) + "\n"


def _block(doc: Document, block, files: dict, label: str, fit: bool = False) -> str:
    """LaTeX of one block of the document; a figure only when it has a file."""
    if isinstance(block, Paragraph):
        text = latex_escape(block.text)
        if block.see:
            text += f" {latex_escape(doc.title_of(block.see))}."
        lead = f"\\emph{{{latex_escape(block.lead)}.}} " if block.lead else ""
        return lead + text
    if isinstance(block, Bullets):
        return _items(block.items)
    if isinstance(block, Table):
        return _tabular(block, label)
    if isinstance(block, Figure) and block.figure.key in files:
        fig, path = block.figure, files[block.figure.key]
        width = save_figure_file(fig, path, salt=label)
        size = r"[width=\linewidth]" if width > 6.0 else ""
        if fit:   # a paper's column may be narrower: its own width, or the line's
            size = (f"[width=\\ifdim {width:.2f}in>\\linewidth\\linewidth\\else "
                    f"{width:.2f}in\\fi]")
        return "\n".join([
            r"\begin{figure}[htbp]", r"\centering",
            f"\\includegraphics{size}{{{Path(path).name}}}",
            f"\\caption{{{latex_escape(fig.caption)}}}",
            f"\\label{{fig:{label}-{_slug(fig.key)}}}", r"\end{figure}"])
    return ""
