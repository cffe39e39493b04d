"""The command line: demo, compare, formats, exit codes."""
import json

import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import __version__
from outperform.cli import app
from outperform.data import load_demsar_table6

runner = CliRunner()


def _table6_csv(tmp_path):
    path = tmp_path / "t6.csv"
    load_demsar_table6().frame.to_csv(path, index=False)
    return path


def test_version():
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and __version__ in res.output


def test_demo_writes_diagrams(tmp_path):
    res = runner.invoke(app, ["demo", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "C4.5+m+cf" in res.output and "Nemenyi" in res.output
    assert (tmp_path / "cd_nemenyi.png").stat().st_size > 1000
    assert (tmp_path / "cd_bonferroni_dunn.png").stat().st_size > 1000


def test_compare_json_and_plot(tmp_path):
    path = _table6_csv(tmp_path)
    res = runner.invoke(app, ["compare", str(path), "--format", "json", "--alpha", "0.1",
                              "--plot", str(tmp_path / "cd.svg")])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert payload["question"] == "Q3" and payload["alpha"] == 0.1
    assert (tmp_path / "cd.svg").read_text().lstrip().startswith("<?xml")


def test_compare_markdown_with_control(tmp_path):
    res = runner.invoke(app, ["compare", str(_table6_csv(tmp_path)), "--control", "C4.5",
                              "--format", "markdown"])
    assert res.exit_code == 0, res.output
    assert "| C4.5" in res.stdout and "Holm" in res.stdout


def test_bad_input_exits_1_with_one_line(tmp_path):
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"task": ["a", "a"], "model": ["A", "A"], "score": [1, 2]}).to_csv(bad, index=False)
    res = runner.invoke(app, ["compare", str(bad)])
    assert res.exit_code == 1
    assert "error" in res.output.lower()


def test_usage_error_exits_2():
    assert runner.invoke(app, ["compare"]).exit_code == 2


def test_benchmark_runs_q2_and_q3_and_resumes(tmp_path):
    out = tmp_path / "r.parquet"
    args = ["benchmark", "--models", "nb,dummy", "--datasets", "iris,wine", "--cv", "2x3",
            "--out", str(out)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Q2 on iris" in res.output and "Q3 across data sets" in res.output
    first = pd.read_parquet(out)
    assert len(first) == 2 * 2 * 2 * 3  # tasks x models x runs x folds
    again = runner.invoke(app, args)  # everything recorded: nothing refitted, same table
    assert again.exit_code == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out), first)


def test_benchmark_bad_model_exits_1():
    res = runner.invoke(app, ["benchmark", "--models", "nb,nonsense", "--datasets", "iris"])
    assert res.exit_code == 1 and "nonsense" in res.output


def test_compare_predictions(tmp_path):
    y = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1] * 10
    a = [1, 0, 1, 1, 0, 1, 0, 1, 1, 1] * 10
    b = [1, 1, 0, 1, 0, 0, 0, 1, 1, 1] * 10
    path = tmp_path / "preds.csv"
    pd.DataFrame({"label": y, "A": a, "B": b}).to_csv(path, index=False)
    res = runner.invoke(app, ["compare-predictions", str(path), "--y-true", "label",
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    payload = json.loads(res.stdout)
    assert payload["question"] == "Q1" and "bayesian_mcnemar" in payload["tests"]
    bad = runner.invoke(app, ["compare-predictions", str(path)])
    assert bad.exit_code == 1 and "y_true" in bad.output


@pytest.mark.slow
def test_simulate_writes_table_and_figure(tmp_path):
    res = runner.invoke(app, ["simulate", "demsar-replicability", "--table", str(tmp_path / "t.csv"),
                              "--out", str(tmp_path / "f.png")])
    assert res.exit_code == 0, res.output
    assert pd.read_csv(tmp_path / "t.csv").shape[0] > 0
    assert (tmp_path / "f.png").stat().st_size > 1000
    assert runner.invoke(app, ["simulate", "nonsense"]).exit_code == 1


def test_report_writes_all_formats(tmp_path):
    res = runner.invoke(app, ["report", str(_table6_csv(tmp_path)), "--out", str(tmp_path / "r"),
                              "--alpha", "0.1"])
    assert res.exit_code == 0, res.output
    names = {p.name for p in (tmp_path / "r").iterdir()}
    assert {"report.html", "report.md", "report.tex", "report.json"} <= names
    assert "not sufficient" in (tmp_path / "r" / "report.md").read_text()
