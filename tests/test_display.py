"""Reports and result objects display as HTML in Jupyter (``_repr_html_``), figures inline.

The notebook test at the end runs a real kernel (nbclient + ipykernel) and is skipped when no
kernel can start.
"""
from __future__ import annotations

import base64
import re
import subprocess
import sys

import pytest
from scipy import stats

from _paths import ROOT
from _report_cases import report
from outperform.bayes import correlated_bayesian_ttest
from outperform.data import load_demsar_table2, load_demsar_table6
from outperform.report import render_html_fragment
from outperform.stats import nemenyi, paired_ttest

SRC = ROOT / "src"
IMG = re.compile(r'<img alt="[^"]*" src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)">')


def _images(html: str) -> list[str]:
    """The inline SVG documents of a fragment, decoded."""
    return [base64.b64decode(data).decode("utf-8") for data in IMG.findall(html)]


def _demsar_table2():
    wide = load_demsar_table2().frame.pivot(index="task", columns="model", values="auc")
    return wide["C4.5"].to_numpy(), wide["C4.5+m"].to_numpy()


def test_report_displays_its_sections_tables_and_inline_figures():
    rep = report("table6_010")
    html = rep._repr_html_()
    assert html.startswith('<div class="outperform-report">') and html.endswith("</div>")
    assert "<!DOCTYPE" not in html and "<script" not in html
    for n, title in enumerate(["Question", "Loss or metric", "Design: fixed and random factors",
                               "Tests and their assumptions", "Inferences", "Warnings"], 1):
        assert f"<h2>{n}. {title}</h2>" in html
    assert 'id="table-frequentist"' in html and "Iman-Davenport test" in html
    (cd,) = _images(html)
    assert cd.lstrip().startswith("<svg") or cd.lstrip().startswith("<?xml")
    labels = {c.strip() for c in re.findall(r"<!-- (.*?) -->", cd)}
    # Each name carries its compact letters, as in the report's table.
    assert {f"{row['model']} ({row['letters']})" for row in rep.summary} <= labels
    assert "CD = 1.12" in labels   # Demšar's CD for k = 4, N = 14, α = 0.10


def test_the_style_sheet_applies_inside_the_report_only():
    html = report("table6_005")._repr_html_()
    css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    selectors = [s.strip() for block in re.findall(r"([^{}]+)\{[^{}]*\}", css)
                 for s in block.split(",")]
    assert selectors and all(re.match(r"(div)?\.outperform-report\b", s) for s in selectors), \
        [s for s in selectors if not re.match(r"(div)?\.outperform-report\b", s)]


def test_a_frequentist_result_displays_its_row():
    a, b = _demsar_table2()
    html = paired_ttest(a, b)._repr_html_()
    ref = stats.ttest_rel(a, b)   # scipy.stats.ttest_rel, Demšar Table 2 C4.5 vs C4.5+m
    lo, hi = ref.confidence_interval(0.95)
    assert f"<td>{ref.pvalue:.3g}</td>" in html
    assert f"{(a - b).mean():.3g} [{lo:.3g}, {hi:.3g}]" in html
    assert f"{ref.statistic:.3f}" in html and "<img" not in html


def test_a_bayesian_result_displays_its_probabilities_and_posterior():
    a, b = _demsar_table2()
    res = correlated_bayesian_ttest(a, b, rho=0.0, rope=0.01)
    html = res._repr_html_()
    cells = re.findall(r"<td[^>]*>(.*?)</td>", html)
    probabilities = [float(c) for c in cells[1:4]]
    assert sum(probabilities) == pytest.approx(1, abs=2e-3)   # the three regions
    assert cells[1:4] == [f"{res.p_a_better:.3f}", f"{res.p_rope:.3f}", f"{res.p_b_better:.3f}"]
    (posterior,) = _images(html)
    assert "<svg" in posterior


def test_a_posthoc_result_displays_its_pairs_and_cd_diagram():
    scores = load_demsar_table6().frame.pivot(index="task", columns="model", values="auc")
    res = nemenyi(scores.to_numpy(), names=list(scores.columns))
    html = res._repr_html_()
    assert "Nemenyi" in html and "CD = 1.25" in html   # Demšar (2006) §3.2.4: CD = 1.25
    body = re.search(r"<tbody>(.*?)</tbody>", html).group(1)
    assert body.count("<tr>") == 6   # every pair of 4 models
    (cd,) = _images(html)
    # No pair differs (largest rank difference 1.18 < CD), so every name carries letter a.
    labels = {c.strip() for c in re.findall(r"<!-- (.*?) -->", cd)}
    assert {f"{name} (a)" for name in scores.columns} <= labels


def test_anything_else_is_refused():
    with pytest.raises(TypeError, match="no document for a dict"):
        render_html_fragment({})


def test_the_renderer_is_loaded_on_the_first_display_only():
    code = ("import sys; from outperform.stats import sign_test; "
            "r = sign_test([1, 2, 3, 4, 5], [0, 1, 1, 2, 6]); "
            "print('outperform.report' in sys.modules, 'matplotlib' in sys.modules); "
            "html = r._repr_html_(); print('outperform.report' in sys.modules, '<table' in html)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(SRC), "PATH": ""}, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["False", "False", "True", "True"]


@pytest.mark.slow
def test_a_notebook_displays_a_q3_report_as_html(tmp_path):
    nbformat = pytest.importorskip("nbformat", reason="the notebook test needs nbformat")
    nbclient = pytest.importorskip("nbclient", reason="the notebook test needs nbclient")
    pytest.importorskip("ipykernel", reason="the notebook test needs ipykernel")
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        # The kernel imports this copy of the package, as the test process does.
        nbformat.v4.new_code_cell(f"import sys; sys.path.insert(0, {str(SRC)!r})"),
        nbformat.v4.new_code_cell("import outperform\n"
                                  "from outperform.data import load_demsar_table6\n"
                                  "outperform.compare(load_demsar_table6())"),
    ]
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.km = client.create_kernel_manager()
        client.start_new_kernel()
        client.start_new_kernel_client()
    except Exception as exc:   # no kernel on this machine: nothing to test here
        pytest.skip(f"no Jupyter kernel could start: {exc}")
    client.execute()
    (output,) = [o for o in nb.cells[1].outputs if o.output_type == "execute_result"]
    html = output.data["text/html"]
    assert "text/plain" in output.data
    frequentist = re.search(r'<table id="table-frequentist".*?</table>', html, re.S).group(0)
    assert "Iman-Davenport test" in frequentist and "Friedman test" in frequentist
    assert "3.686" in frequentist   # Demšar (2006) §3.2.4: F_F = 3.69 on Table 6
    (cd,) = _images(html)
    assert "<svg" in cd
