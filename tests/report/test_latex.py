"""LaTeX report: escaping, booktabs tables, the CD diagram as PDF, compilation with pdflatex."""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata

import pytest

from _report_cases import CASES, DEMSAR_SENTENCES, NASTY, report
from outperform.report import latex_escape, render_latex

PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex is not installed "
                                    "(apt-get install texlive-latex-recommended)")


def _compile(folder, name="doc.tex"):
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", name],
                         cwd=folder, capture_output=True, text=True, timeout=120)
    log = (folder / name).with_suffix(".log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    pdf = (folder / name).with_suffix(".pdf")
    assert pdf.read_bytes().startswith(b"%PDF")
    return log


@pytest.mark.parametrize("char, expected", [
    ("_", r"\_"), ("&", r"\&"), ("%", r"\%"), ("#", r"\#"), ("$", r"\$"), ("{", r"\{"),
    ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\textasciicircum{}"),
    ("\\", r"\textbackslash{}"), ("<", r"\textless{}"), (">", r"\textgreater{}"),
    ("α", r"\ensuremath{\alpha}"), ("≥", r"\ensuremath{\geq}"), ("§", r"\S{}"), ("–", "--"),
])
def test_escape_each_special_character(char, expected):
    assert latex_escape(f"x{char}y") == f"x{expected}y"


def test_escape_leaves_plain_text_and_accents():
    assert latex_escape("Demšar 2006, C4.5+m") == "Demšar 2006, C4.5+m"
    assert latex_escape("a >= b <= c") == r"a \ensuremath{\geq} b \ensuremath{\leq} c"


@pytest.mark.parametrize("name", CASES)
def test_tables_are_booktabs_with_consistent_columns(name):
    tex = render_latex(report(name))
    # The column specification is the rest of the \begin line: {@{}lrr...@{}}.
    tables = re.findall(
        r"^\\begin\{(tabularx?)\}(?:\{\\linewidth\})?\{([^\n]*)\}$\n(.*?)^\\end\{\1\}",
        tex, re.S | re.M)
    assert tables, tex
    assert tex.count(r"\toprule") == tex.count(r"\bottomrule") == len(tables)
    assert tex.count(r"\midrule") == len(tables)
    assert r"\hline" not in tex   # booktabs rules only
    for _, spec, body in tables:
        columns = re.sub(r">\{[^{}]*\}", "", spec.replace("@{}", ""))   # drop >{...} prefixes
        assert set(columns) <= set("lrcX"), spec
        ncol = len(columns)
        rows = [r for r in body.split("\\\\\n") if "&" in r.replace(r"\&", "")]
        for row in rows:
            # Column separators, not escaped ampersands nor those of a nested heading tabular.
            flat = re.sub(r"\\begin\{tabular\}.*?\\end\{tabular\}", "H", row, flags=re.S)
            assert len(re.findall(r"(?<!\\)&", flat)) == ncol - 1, row


@pytest.mark.parametrize("name", CASES)
def test_only_safe_characters_reach_pdflatex(name):
    tex = render_latex(report(name), standalone=True)
    for ch in set(tex):
        if ord(ch) > 127:
            assert unicodedata.category(ch).startswith("L") and ord(ch) < 0x180, repr(ch)


@pytest.mark.parametrize("name", sorted(DEMSAR_SENTENCES))
def test_demsar_table6_conclusions_as_in_the_paper(name):
    tex = render_latex(report(name))
    for sentence in DEMSAR_SENTENCES[name]:
        assert latex_escape(sentence) in tex


def test_hostile_names_are_escaped():
    tex = render_latex(report("nasty"))
    for name in NASTY:
        assert latex_escape(name) in tex
    assert "<script>" not in tex and "$d$" not in tex


def test_recommended_row_is_bold_and_numbers_are_math():
    tex = render_latex(report("table2_bayes"))
    assert r"\textbf{Wilcoxon signed-rank test" in tex
    assert "$-2.846$" in tex   # a negative statistic gets a true minus sign
    assert r"\ensuremath{-}0.771" in tex   # and so does a negative number inside words


def test_figure_is_written_as_pdf_and_included_by_name(tmp_path):
    target = tmp_path / "figs" / "cd.pdf"
    target.parent.mkdir()
    tex = render_latex(report("table6_010"), figure_path=target)
    pdf = target.read_bytes()
    assert pdf.startswith(b"%PDF")
    assert b"/FontFile2" in pdf and b"/Type3" not in pdf   # TrueType fonts, as publishers ask
    assert r"\includegraphics{cd.pdf}" in tex
    assert re.search(r"\\caption\{Critical-difference diagram, Nemenyi test at "
                     r"\\ensuremath\{\\alpha\} = 0.1, CD = 1.118", tex)
    assert r"\label{fig:outperform-cd-nemenyi}" in tex


def test_no_figure_without_a_rank_posthoc(tmp_path):
    tex = render_latex(report("q2_two"), figure_path=tmp_path / "cd.pdf")
    assert not (tmp_path / "cd.pdf").exists() and r"\includegraphics" not in tex


def test_fragment_and_standalone():
    fragment = render_latex(report("table6_005"))
    assert r"\documentclass" not in fragment and r"\begin{document}" not in fragment
    doc = render_latex(report("table6_005"), standalone=True)
    assert doc.startswith(r"\documentclass") and doc.rstrip().endswith(r"\end{document}")
    assert fragment in doc


@needs_pdflatex
@pytest.mark.parametrize("name", ["table6_010", "table2_bayes", "q2_three", "q1_log", "nasty"])
def test_standalone_compiles(tmp_path, name):
    (tmp_path / "doc.tex").write_text(
        render_latex(report(name), standalone=True, figure_path=tmp_path / "cd.pdf"),
        encoding="utf-8")
    log = _compile(tmp_path)
    assert "Undefined control sequence" not in log and "Missing character" not in log


@needs_pdflatex
def test_fragment_compiles_inside_a_paper(tmp_path):
    (tmp_path / "results.tex").write_text(render_latex(report("q2_two")), encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        "\\documentclass{article}\n\\usepackage{booktabs,array,tabularx,graphicx}\n"
        "\\begin{document}\n\\input{results}\n\\end{document}\n", encoding="utf-8")
    _compile(tmp_path)


# -- issue 28: fragments of tables and figures, headings kept with their floats --------------

@pytest.mark.parametrize("name", ["table6_010", "table2_bayes", "q2_three", "q1_log"])
def test_fragment_holds_only_tables_and_figures(tmp_path, name):
    tex = render_latex(report(name), fragment=True, figure_path=tmp_path / "cd.pdf")
    assert r"\documentclass" not in tex and r"\begin{document}" not in tex
    assert r"\paragraph" not in tex and r"\begin{itemize}" not in tex
    body = [ln for ln in tex.splitlines() if ln and not ln.startswith("%")]
    # every line belongs to a table or figure environment
    opened = 0
    for ln in body:
        opened += ln.startswith((r"\begin{table*}", r"\begin{figure*}"))
        assert opened, ln
        opened -= ln.startswith((r"\end{table*}", r"\end{figure*}"))
    # table* and figure*: a two-column paper's text width (the same as table in one column)
    assert tex.count(r"\begin{table*}[tbp]") == tex.count(r"\end{table*}") > 0
    packages = re.search(r"^% \\usepackage\{([^}]*)\}$", tex, re.M).group(1).split(",")
    assert {"booktabs", "array", "tabularx"} <= set(packages)
    assert ("graphicx" in packages) == (r"\includegraphics" in tex)


@needs_pdflatex
@pytest.mark.slow
@pytest.mark.parametrize("columns", ["onecolumn", "twocolumn"])
@pytest.mark.parametrize("name", ["table6_010", "q2_three"])
def test_fragment_compiles_with_the_packages_its_comment_names(tmp_path, name, columns):
    tex = render_latex(report(name), fragment=True, figure_path=tmp_path / "cd.pdf")
    usepackage = next(ln[2:] for ln in tex.splitlines() if ln.startswith("% \\usepackage"))
    (tmp_path / "tables.tex").write_text(tex, encoding="utf-8")
    (tmp_path / "doc.tex").write_text(
        f"\\documentclass[{columns}]{{article}}\n{usepackage}\n\\begin{{document}}\n"
        "\\input{tables}\n"
        "\\end{document}\n", encoding="utf-8")
    log = _compile(tmp_path)
    assert "Overfull \\hbox" not in log


@needs_pdflatex
@pytest.mark.slow
def test_a_16_by_6_report_compiles_without_overfull_lines_or_lonely_headings(tmp_path):
    # issue 28: the 16 x 6 results table (10 folds per cell) gave one overfull line and an
    # empty "Bayesian view." heading at a page end. Every heading now stands on the page of
    # what follows it: the page of each heading's line also holds the next table or text.
    import numpy as np
    import pandas as pd

    from outperform import compare

    rng = np.random.default_rng(1)
    models = ["Proposed", "RandomForest", "GradBoost", "SVM-RBF", "LogReg", "kNN"]
    rows = [dict(task=f"dataset{t:02d}", model=m, fold=f,
                 accuracy=0.75 + e + rng.normal(0, 0.015))
            for t in range(16) for f in range(10)
            for m, e in zip(models, (0.03, 0.02, 0.02, 0.0, -0.01, -0.03))]
    rep = compare(pd.DataFrame(rows), bayesian=True)
    (tmp_path / "doc.tex").write_text(
        render_latex(rep, standalone=True, figure_path=tmp_path / "cd.pdf"), encoding="utf-8")
    log = _compile(tmp_path)
    assert "Overfull" not in log
    pdftotext = shutil.which("pdftotext")
    if pdftotext is None:
        pytest.skip("pdftotext (poppler-utils) is needed to read the pages")
    pages = subprocess.run([pdftotext, "-layout", "doc.pdf", "-"], cwd=tmp_path,
                           capture_output=True, text=True).stdout.split("\f")
    for page in pages:
        lines = [ln.strip() for ln in page.splitlines() if ln.strip()]
        # the last line of a page is its number; the line above must not be a bare heading
        if len(lines) >= 2:
            assert not re.fullmatch(r"(Bayesian|Frequentist) view\.", lines[-2]), page[-400:]
