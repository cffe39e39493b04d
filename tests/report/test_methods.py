"""The methods paragraph of a paper (report/_methods.py): what it names, that every key it cites
is in the references.bib written beside it, and that the two compile with pdflatex, bibtex and
natbib (issue 28, item 2)."""
from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
import scipy

from _report_cases import CASES, report
from outperform import __version__
from outperform.compare._registry import procedure
from outperform.report import (bibtex, checklist_answer, methods_keys, methods_paragraph,
                               write_report)
from outperform.report._references import author_year
from outperform._validation import InvalidInputError

bibtexparser = pytest.importorskip("bibtexparser")
TOOLS = [shutil.which(t) for t in ("pdflatex", "bibtex")]
needs_latex = pytest.mark.skipif(not all(TOOLS), reason="pdflatex and bibtex are not installed "
                                 "(apt-get install texlive-latex-recommended texlive-bibtex-extra)")


def _cited(latex: str) -> list[str]:
    return [k for group in re.findall(r"\\cite[tp]\{([^}]*)\}", latex) for k in group.split(",")]


@pytest.mark.parametrize("name", CASES)
def test_every_key_cited_is_an_entry_of_the_bib_written_for_it(name):
    rep = report(name)
    latex = methods_paragraph(rep, "latex")
    cited = _cited(latex)
    assert cited, name
    library = bibtexparser.parse_string(bibtex(rep))
    assert not library.failed_blocks
    keys = {e.key for e in library.entries}
    assert set(cited) <= keys, set(cited) - keys
    assert set(methods_keys(rep)) == set(cited) == keys     # nothing cited twice or left out


@pytest.mark.parametrize("name", CASES)
def test_it_names_question_design_tests_alpha_and_software(name):
    rep = report(name)
    text = methods_paragraph(rep, "markdown", seed=7)
    assert f"question {rep.question}" in text
    assert "The design is paired" in text
    assert f"α = {rep.alpha:g}" in text
    if rep.recommended:
        assert f"The decision rests on {procedure(rep.recommended).phrase}" in text
        for key in procedure(rep.recommended).references:
            assert author_year(key) in text, key
    for key in rep.posthoc:              # the multiple comparison procedure, cited
        assert procedure(key).phrase in text
    assert f"outperform {__version__}" in text
    assert f"numpy {np.__version__}" in text and f"scipy {scipy.__version__}" in text
    # every author-year citation of the Markdown is a reference of the paragraph
    years = re.findall(r"[A-Z][^\s(;]+(?: et al\.| & [A-Z][^\s(;]+)? (?:\()?(\d{4})", text)
    assert years


def test_demsar_table6_paragraph():
    # Demšar (2006) §3.2.4: Table 6 is 4 algorithms on 14 data sets; Iman-Davenport decides,
    # Nemenyi compares all pairs.
    text = methods_paragraph(report("table6_005"), "latex")
    assert "4 learning algorithms" in text and "14 data sets" in text
    assert r"\citep{iman1980,friedman1937,demsar2006}" in text
    assert r"\citep{nemenyi1963,demsar2006}" in text
    assert r"\citet{williams2026}" in text


def test_rope_and_its_source_are_stated():
    # Benavoli et al. (2017) §4: a ROPE of 0.01 for accuracies; the report says where it came from.
    rep = report("q3_folds")
    text = methods_paragraph(rep, "latex", seed=3)
    assert r"region of practical equivalence (ROPE) of \ensuremath{\pm}0.01" in text
    assert r"\citep{benavoli2017}" in text
    assert "seed 3" in text
    text = methods_paragraph(report("table6_005"), "latex", seed=3)
    assert "ROPE" not in text and "seed" not in text   # no Bayesian test, no draws


def test_q2_states_folds_and_their_correlation():
    rep = report("q2_two")
    text = methods_paragraph(rep, "text")
    assert "10 folds per algorithm" in text        # cv_folds: 2 runs x 5 folds
    assert f"ρ = {rep.rho:.3g}" in text
    assert "Nadeau & Bengio 2003" in text


def test_checklist_answer_is_one_line():
    for name in CASES:
        line = checklist_answer(report(name), "markdown")
        assert "\n" not in line
        assert line.startswith("NeurIPS paper checklist, item 7 (experiment statistical "
                               "significance): Yes.")


def test_unknown_format_is_refused():
    with pytest.raises(InvalidInputError, match="format must be one of latex, markdown, text"):
        methods_paragraph(report("q2_two"), "html")


@pytest.mark.slow
def test_write_report_writes_methods_files_beside_the_report(tmp_path):
    paths = write_report(report("table6_005"), tmp_path, formats=("tex", "md"), seed=0,
                         methods=True)
    assert {"methods.tex", "methods.md", "references.bib"} <= set(paths)
    assert paths["methods.md"] == tmp_path / "paper" / "methods.md"
    md = (tmp_path / "paper" / "methods.md").read_text(encoding="utf-8")
    assert "## References" in md and "- Demšar, Janez (2006)." in md
    paths = write_report(report("table6_005"), tmp_path, formats=("md",), stem="t6",
                         methods=True)
    assert {"t6-methods.md", "t6-references.bib"} <= set(paths)
    assert "t6-methods.tex" not in paths


def _run(cmd, folder):
    run = subprocess.run(cmd, cwd=folder, capture_output=True, text=True, timeout=120)
    return run


@needs_latex
@pytest.mark.slow
@pytest.mark.parametrize("name", ["table6_control", "q3_folds", "q1_labels"])
def test_methods_and_bib_compile_with_natbib(tmp_path, name):
    write_report(report(name), tmp_path, formats=("tex",), seed=0, methods=True)
    tmp_path = tmp_path / "paper"          # where the methods files are
    (tmp_path / "paper.tex").write_text(
        "\\documentclass[10pt,twocolumn]{article}\n\\usepackage[utf8]{inputenc}\n"
        "\\usepackage[T1]{fontenc}\n\\usepackage{natbib}\n\\begin{document}\n"
        "\\section*{Methods}\n\\input{methods}\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{references}\n\\end{document}\n",
        encoding="utf-8")
    pdflatex = [TOOLS[0], "-interaction=nonstopmode", "-halt-on-error", "paper.tex"]
    assert _run(pdflatex, tmp_path).returncode == 0
    bib = _run([TOOLS[1], "paper"], tmp_path)
    blg = (tmp_path / "paper.blg").read_text(errors="replace")
    assert bib.returncode == 0 and "Warning--" not in blg and "error" not in blg.lower(), blg
    for _ in range(2):
        assert _run(pdflatex, tmp_path).returncode == 0
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert "undefined" not in log.lower(), log[-2000:]
    bbl = (tmp_path / "paper.bbl").read_text(encoding="utf-8")
    assert bbl.count("\\bibitem") == len(methods_keys(report(name)))
