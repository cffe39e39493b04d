"""Odd inputs of the paper outputs (issue 28): --fragment without LaTeX, a methods paragraph in
an unknown format, a fragment asked of a whole document, a bib key nobody wrote. Each row is an
input and its exact outcome."""
import pytest
from typer.testing import CliRunner

from outperform._validation import InvalidInputError
from outperform.cli import app
from outperform.data import load_demsar_table6
from outperform.report import bibtex, methods_paragraph, render_latex

runner = CliRunner()


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    d = tmp_path_factory.mktemp("paper")
    load_demsar_table6().frame.to_csv(d / "t6.csv", index=False)
    return d


CASES = [
    ("fragment-markdown", "compare {d}/t6.csv --format markdown --fragment", 1,
     "--fragment writes LaTeX tables and figures; it needs --format latex, not --format "
     "markdown"),
    ("fragment-text", "compare {d}/t6.csv --fragment", 1, "it needs --format latex, not "
     "--format text"),
    ("fragment-report-no-latex", "report {d}/t6.csv --format markdown --fragment --out {d}/r",
     1, "--fragment writes LaTeX tables and figures; add latex to --format (given: md)"),
    ("fragment-latex", "compare {d}/t6.csv --format latex --fragment", 0,
     "% \\usepackage{booktabs,array,tabularx}"),
]


@pytest.mark.parametrize("argv, code, message", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_odd_cli_input(d, argv, code, message):
    result = runner.invoke(app, argv.format(d=d).split())
    assert result.exit_code == code, result.output
    assert message in " ".join(result.output.split()), result.output


def _report():
    from outperform import compare

    return compare(load_demsar_table6())


@pytest.mark.parametrize("call, error, message", [
    (lambda: methods_paragraph(_report(), "html"),
     InvalidInputError, "format must be one of latex, markdown, text, got 'html'"),
    (lambda: render_latex(_report(), standalone=True, fragment=True),
     InvalidInputError, "fragment=True writes tables and figures to paste into a paper"),
    (lambda: bibtex(["nobody2099"]),
     KeyError, "no entry 'nobody2099' in outperform/report/references.bib"),
])
def test_odd_python_input(call, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_fragment_reaches_the_reports_of_evaluation_logs(tmp_path):
    # `outperform report` on per-item scores writes one report per task: --fragment too
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    pd.DataFrame([{"model": m, "item": i, "score": int(rng.random() < p)}
                  for m, p in (("A", .8), ("B", .6)) for i in range(100)]
                 ).to_csv(tmp_path / "items.csv", index=False)
    result = runner.invoke(app, ["report", str(tmp_path / "items.csv"), "--format", "latex",
                                 "--fragment", "--out", str(tmp_path / "r")])
    assert result.exit_code == 0, result.output
    texts = [p.read_text(encoding="utf-8") for p in (tmp_path / "r").glob("*.tex")]
    assert texts and all("\\documentclass" not in t and "\\begin{table*}" in t for t in texts)
