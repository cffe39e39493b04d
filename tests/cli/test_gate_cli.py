"""``outperform gate``: exit codes, JUnit XML (validated against Jenkins' junit-10.xsd),
the Markdown summary, JSON against the shipped schema, --plan, --save-baseline, --aa, and
the pytest helper."""
import json
from xml.etree import ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.cli._errors import EXIT_CODES, EXIT_INCONCLUSIVE, EXIT_REGRESSION
from outperform.report import validate_output
from _paths import FIXTURES

runner = CliRunner()
LM_EVAL = FIXTURES / "evals" / "lm_eval"
BASE, CAND = str(LM_EVAL / "EleutherAI__pythia-160m"), str(LM_EVAL / "EleutherAI__pythia-410m")
XSD = FIXTURES / "real" / "junit" / "junit-10.xsd"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Three tasks: 'same' (no change), 'worse' (the candidate loses 20 of 300 items),
    'close' (a few items each way: inconclusive within a margin of 0.02)."""
    d = tmp_path_factory.mktemp("gate")
    rng = np.random.default_rng(0)
    rows_b, rows_c = [], []
    for task, (lose, gain) in {"same": (0, 0), "worse": (20, 0), "close": (6, 4)}.items():
        y = (rng.random(300) < 0.8).astype(int)
        y[:30] = 1
        y[30:60] = 0
        c = y.copy()
        c[:lose] = 0
        c[30:30 + gain] = 1
        rows_b += [("v1", task, i, s) for i, s in enumerate(y)]
        rows_c += [("v2", task, i, s) for i, s in enumerate(c)]
    cols = ["model", "task", "item", "score"]
    pd.DataFrame(rows_b, columns=cols).to_csv(d / "base.csv", index=False)
    pd.DataFrame(rows_c, columns=cols).to_csv(d / "cand.csv", index=False)
    return d


def _gate(*args):
    return runner.invoke(app, ["gate", *map(str, args)])


def test_exit_codes_pass_regression_inconclusive(tables):
    b, c = tables / "base.csv", tables / "cand.csv"
    assert _gate(b, c, "--task", "same", "--margin", "0.05").exit_code == 0
    res = _gate(b, c, "--margin", "0.02")
    assert res.exit_code == EXIT_REGRESSION == 10, res.output
    assert "REGRESSION" in res.stdout
    res = _gate(b, c, "--task", "close", "--task", "same", "--margin", "0.02")
    assert res.exit_code == EXIT_INCONCLUSIVE == 11, res.output
    assert set(EXIT_CODES) == {0, 1, 2, 3, 10, 11, 130}


def test_the_help_documents_the_exit_codes():
    res = runner.invoke(app, ["gate", "--help"])
    text = " ".join(res.stdout.split())
    assert "10 regression" in text and "11 inconclusive" in text
    assert "10 gate: regression" in " ".join(runner.invoke(app, ["--help"]).stdout.split())


def test_junit_validates_against_the_jenkins_schema(tables):
    res = _gate(tables / "base.csv", tables / "cand.csv", "--margin", "0.02", "--format", "junit")
    assert res.exit_code == 10
    root = ET.fromstring(res.stdout.split("\n", 1)[1])
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"same", "worse", "close"}
    assert cases["worse"].find("failure") is not None
    assert cases["close"].find("skipped") is not None
    assert cases["same"].find("failure") is None and cases["same"].find("skipped") is None
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("3", "1", "1")
    xmlschema = pytest.importorskip("xmlschema")
    xmlschema.XMLSchema(str(XSD)).validate(res.stdout.encode())


def test_markdown_summary_and_json(tables):
    res = _gate(tables / "base.csv", tables / "cand.csv", "--margin", "0.02", "--format",
                "markdown")
    lines = res.stdout.splitlines()
    assert any(line.startswith("| worse |") and "regression" in line for line in lines)
    assert "Gate: REGRESSION" in res.stdout and "┃" not in res.stdout
    pytest.importorskip("jsonschema")
    res = _gate(BASE, CAND, "--margin", "0.02", "--format", "json")
    assert res.exit_code == 0, res.output
    data = validate_output(json.loads(res.stdout))
    assert data["kind"] == "gate" and data["verdict"] == "pass"
    assert [t["task"] for t in data["tasks"]] == ["mini_arc", "mini_gsm"]


def test_plan_answers_how_many_items(tmp_path):
    res = runner.invoke(app, ["gate", "--plan", "--margin", "0.02", "--discordance", "0.1"])
    assert res.exit_code == 0, res.output
    assert "1,629" in res.stdout          # the exact test's n (tests/plan/test_gate_power.py)
    res = runner.invoke(app, ["gate", "--plan", "--margin", "0.05", "--sd", "0.4", "--repeats",
                              "4", "--within-variance", "0.12", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["kind"] == "gate-plan" and data["sd"] == pytest.approx(0.07 ** 0.5)
    pytest.importorskip("jsonschema")
    validate_output(data)


@pytest.mark.slow
def test_save_baseline_then_gate_the_folder(tmp_path):
    res = _gate(BASE, "--save-baseline", tmp_path / "baseline")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "baseline" / "items.parquet").is_file()
    again = _gate(tmp_path / "baseline", CAND, "--margin", "0.02", "--format", "json")
    direct = _gate(BASE, CAND, "--margin", "0.02", "--format", "json")
    strip = lambda r: [{k: v for k, v in t.items()} for t in json.loads(r.stdout)["tasks"]]  # noqa: E731
    assert strip(again) == strip(direct)


def test_aa_reports_the_flip_rate(tables):
    res = _gate(tables / "base.csv", tables / "base.csv", "--task", "close", "--aa",
                "--n-resamples", "200")
    assert res.exit_code == 0, res.output
    assert "A/A: the gate calls a regression on" in " ".join(res.stdout.split())


def test_pytest_helper_raises_with_the_markdown_summary(tables):
    from outperform.testing import assert_no_regression

    b = pd.read_csv(tables / "base.csv")
    c = pd.read_csv(tables / "cand.csv")
    with pytest.raises(AssertionError, match=r"\| worse \|"):
        assert_no_regression(b, c, margin=0.02)
    same = assert_no_regression(b[b.task == "same"], c[c.task == "same"], margin=0.05)
    assert same.verdict == "pass"
    close = (b[b.task == "close"], c[c.task == "close"])
    with pytest.raises(AssertionError, match="INCONCLUSIVE"):
        assert_no_regression(*close, margin=0.02)
    assert assert_no_regression(*close, margin=0.02,
                                inconclusive_fails=False).verdict == "inconclusive"


@pytest.mark.parametrize("fmt, mark", [("html", "<table"), ("latex", "\\toprule")])
def test_html_and_latex(fmt, mark):
    res = _gate(BASE, CAND, "--margin", "0.02", "--format", fmt)
    assert res.exit_code == 0 and mark in res.stdout and "mini" in res.stdout


def test_out_writes_the_file_and_keeps_the_exit_code(tables, tmp_path):
    res = _gate(tables / "base.csv", tables / "cand.csv", "--margin", "0.02", "--format",
                "junit", "--out", tmp_path / "gate.xml")
    assert res.exit_code == 10 and res.stdout == ""
    assert "<testsuites" in (tmp_path / "gate.xml").read_text()
