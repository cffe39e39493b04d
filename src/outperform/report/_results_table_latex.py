r"""The LaTeX of a per-data-set results table: a ``table`` float holding a booktabs
``tabular`` (``\usepackage{booktabs}``), or siunitx ``S`` columns aligned on the decimal point
(``\usepackage{siunitx}`` too); the packages it needs are stated in a comment above it.
"""
from __future__ import annotations

from ._latex import latex_escape

#: The siunitx set-up of the S columns (given to each column, so the preamble needs only
#: ``\usepackage{siunitx}``): "mean \pm sd" printed as such, bold cells in bold digits.
SIUNITX_OPTIONS = ("separate-uncertainty, reset-text-series=false, "
                   "text-series-to-math, propagate-math-font, table-align-text-after=false")


def _text(text: str) -> str:
    """Escaped text with the dagger as a superscript."""
    return "\\ensuremath{^\\dagger}".join(latex_escape(part) for part in str(text).split("†"))


def _cell(c, siunitx: bool) -> str:
    if not c.mean:
        return "{}" if siunitx else ""
    if not c.numeric:
        return "{" + _text(c.mean) + "}" if siunitx else _text(c.mean)
    rank = f" ({c.rank})" if c.rank else ""
    mark = "$^\\dagger$" if c.mark else ""
    if siunitx:
        # the mark takes no width (\rlap): the column's table-format stays the numbers'
        number = c.mean if c.sd is None else f"{c.mean} \\pm {c.sd}"
        after = f"{{\\rlap{{{mark}}}}}" if mark else ""
        return ("\\bfseries " if c.bold else "") + number + after
    number = _signed(c.mean) if c.sd is None else f"{_signed(c.mean)} $\\pm$ {c.sd}"
    return (f"\\textbf{{{number}}}" if c.bold else number) + mark + rank


def _signed(text: str) -> str:
    """A true minus sign for a negative number."""
    return f"$-${text[1:]}" if text.startswith("-") else text


def _format(cells, siunitx: bool) -> str:
    """The ``table-format`` of an S column holding ``cells``: digits before and after the
    point of the means and sds, room for a minus sign."""
    def digits(texts):
        texts = [x for x in texts if x]
        whole = max((len(x.lstrip("-").split(".")[0]) for x in texts), default=1)
        frac = max((len(x.split(".")[1]) if "." in x else 0 for x in texts), default=0)
        sign = "-" if any(x.startswith("-") for x in texts) else ""
        return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"
    numbers = [c for c in cells if c.numeric and c.mean]
    spec = digits([c.mean for c in numbers])
    sds = [c.sd for c in numbers if c.sd]
    if sds:
        spec += f" +- {digits(sds)}"
    return f"S[table-format={spec}, {SIUNITX_OPTIONS}]"


def grid_latex(g, caption: str, label: str, notes, *, siunitx: bool = False) -> str:
    """A ``table`` float of the :class:`~._results_table.Grid` ``g``."""
    ncol = len(g.header)
    columns = [[cells[j] for _, cells in (*g.rows, *g.footer)] for j in range(ncol)]
    if siunitx:
        spec = "l" + "".join(
            _format(col, True) if any(c.numeric and c.mean for c in col) else "c"
            for col in columns)
        head = " & ".join(["{" + _text(g.corner) + "}",
                           *("{" + _text(h) + "}" for h in g.header)])
    else:
        spec = "l" + "r" * ncol
        head = " & ".join([_text(g.corner), *(_text(h) for h in g.header)])
    needs = "\\usepackage{booktabs}" + (" and \\usepackage{siunitx}" if siunitx else "")
    lines = [f"% outperform results table: needs {needs} in the preamble."]
    lines += [f"% note: {_text(n)}" for n in notes]
    lines += ["\\begin{table}[tbp]", "\\centering", "\\small", "\\setlength{\\tabcolsep}{4pt}",
              f"\\caption{{{_text(caption)}}}", f"\\label{{{label}}}",
              f"\\begin{{tabular}}{{{spec}}}", "\\toprule", head + " \\\\", "\\midrule"]
    lines += [" & ".join([_text(name), *(_cell(c, siunitx) for c in cells)]) + " \\\\"
              for name, cells in g.rows]
    if g.footer:
        lines.append("\\midrule")
        lines += [" & ".join([_text(name), *(_cell(c, siunitx) for c in cells)]) + " \\\\"
                  for name, cells in g.footer]
    if g.span_latex:
        name, numbers = g.span_latex
        lines += ["\\midrule",
                  f"\\multicolumn{{{ncol + 1}}}{{l}}{{{_text(name)}: {numbers}}} \\\\"]
    lines += ["\\bottomrule", "\\end{tabular}", "\\end{table}"]
    return "\n".join(lines) + "\n"
