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


def _header(text: str) -> str:
    """A long column heading set on two lines (a nested tabular, as booktabs tables do)."""
    words = text.split(" ")
    if len(text) <= 18 or len(words) < 2:
        return latex_escape(text)
    cut = min(range(1, len(words)),
              key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return (r"\begin{tabular}[b]{@{}c@{}}" + latex_escape(" ".join(words[:cut])) + r"\\"
            + latex_escape(" ".join(words[cut:])) + r"\end{tabular}")


def _tabular(t: Table, label: str) -> str:
    text = [any(is_text(r[c]) for r in t.rows) for c in range(len(t.header))]
    # Long words (test names, decisions) wrap in X columns that share the line width, instead
    # of widening the table past the margin.
    wide = [x and max((len(r[c]) for r in t.rows), default=0) > 24
            for c, x in enumerate(text)]
    spec = "".join(r">{\raggedright\arraybackslash}X" if w else "l" if x else "r"
                   for x, w in zip(text, wide))
    env, width = ("tabularx", r"{\linewidth}") if any(wide) else ("tabular", "")
    lines = [r"\begin{table}[htbp]", r"\centering", r"\small",
             f"\\caption{{{latex_escape(t.title)}}}", f"\\label{{tab:{label}-{_slug(t.key)}}}",
             f"\\begin{{{env}}}{width}{{@{{}}{spec}@{{}}}}", r"\toprule",
             " & ".join(_header(h) for h in t.header) + r" \\", r"\midrule"]
    for n, row in enumerate(t.rows):
        cells = [_cell(c) for c in row]
        if n in t.marked:   # the test the decision rests on
            cells = [f"\\textbf{{{c}}}" if not c.startswith("$") else c for c in cells]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", f"\\end{{{env}}}", r"\end{table}"]
    return "\n".join(lines)


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
\begin{document}
"""


def render_latex(report: ComparisonReport, *, figure_path=None, standalone: bool = False,
                 label: str = "outperform") -> str:
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
    doc = build_document(report, figures=figure_path is not None)
    # Only the critical-difference diagrams and the rank-set plot are written (as PDF).
    files = (file_paths([f for f in doc.figures() if f.kind in FILE_KINDS], figure_path)
             if figure_path is not None else {})
    parts = [f"% {latex_escape(doc.headline)}",
             f"% Written by outperform {__version__}; needs "
             "\\usepackage{booktabs,array,tabularx,graphicx}."]
    for depth, section in doc.walk():
        command = "paragraph" if depth == 0 else "subparagraph"
        # A run-in heading waits for the next line of text; before a table (a float) or a
        # list there is none, so an empty box sets the heading here, above them.
        runs_in = bool(section.blocks) and isinstance(section.blocks[0], Paragraph)
        parts.append(f"\\{command}{{{latex_escape(section.title)}.}}"
                     + ("" if runs_in else r"\mbox{}"))
        parts += [_block(doc, block, files, label) for block in section.blocks]
    parts.append(f"% {latex_escape(doc.closing)}")
    body = "\n\n".join(p for p in parts if p) + "\n"
    return _PREAMBLE + body + "\\end{document}\n" if standalone else body


def _block(doc: Document, block, files: dict, label: str) -> str:
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
        return "\n".join([
            r"\begin{figure}[htbp]", r"\centering",
            f"\\includegraphics{size}{{{Path(path).name}}}",
            f"\\caption{{{latex_escape(fig.caption)}}}",
            f"\\label{{fig:{label}-{_slug(fig.key)}}}", r"\end{figure}"])
    return ""
