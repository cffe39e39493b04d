"""``outperform gate --sequential``: exit codes, JSON, Markdown, JUnit XML (against Jenkins'
junit-10.xsd), and what does not apply to it."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from _paths import FIXTURES
from outperform.cli import app
from outperform.report import validate_output

runner = CliRunner()
XSD = FIXTURES / "real" / "junit" / "junit-10.xsd"


@pytest.fixture
def runs(tmp_path):
    """A benchmark of 1,500 items; candidates that lose nothing, lose 10 points, or are
    still running (60 items), each in a random order."""
    rng = np.random.default_rng(8)
    n = 1500
    right = rng.random(n) < 0.8
    order = rng.permutation(n)
    pd.DataFrame({"model": "v1", "item": np.arange(n), "score": right.astype(int)}).to_csv(
        tmp_path / "base.csv", index=False)
    same = np.where(rng.random(n) < 0.1, rng.random(n) < 0.8, right)     # answered anew
    worse = np.where(rng.random(n) < 0.125, False, right)
    for name, scores, k in (("same", same, n), ("worse", worse, n), ("running", same, 60)):
        pd.DataFrame({"model": "v2", "item": order[:k], "score": scores[order[:k]].astype(int)}
                     ).to_csv(tmp_path / f"{name}.csv", index=False)
    return tmp_path


@pytest.mark.parametrize("candidate, code, verdict", [
    ("same", 0, "PASS"), ("worse", 10, "REGRESSION"), ("running", 11, "INCONCLUSIVE")])
def test_exit_codes_follow_the_verdict(runs, candidate, code, verdict):
    res = runner.invoke(app, ["gate", str(runs / "base.csv"), str(runs / f"{candidate}.csv"),
                              "--margin", "0.03", "--sequential"])
    assert res.exit_code == code, res.output
    assert f"Sequential gate: {verdict}" in res.stdout


def test_json_and_markdown(runs):
    argv = ["gate", str(runs / "base.csv"), str(runs / "worse.csv"), "--margin", "0.03",
            "--sequential"]
    data = json.loads(runner.invoke(app, argv + ["--format", "json"]).stdout)
    validate_output(data)
    task = data["tasks"][0]
    assert data["kind"] == "gate-sequential" and task["decision"] == "regression"
    assert 0 < task["stopped_at"] < 1500 and task["high"] < -0.03
    md = runner.invoke(app, argv + ["--format", "markdown"]).stdout
    assert "| task |" in md and "regression" in md


def test_junit_validates_against_the_junit_schema(runs):
    xmlschema = pytest.importorskip("xmlschema")
    res = runner.invoke(app, ["gate", str(runs / "base.csv"), str(runs / "running.csv"),
                              "--margin", "0.03", "--sequential", "--format", "junit"])
    assert res.exit_code == 11
    xmlschema.XMLSchema(str(XSD)).validate(res.stdout.encode())
    assert "<skipped" in res.stdout


@pytest.mark.parametrize("extra, message", [
    (["--aa"], "--aa do not apply to --sequential"),
    (["--cluster", "item"], "--cluster do not apply to --sequential"),
    (["--margin", "5"], "In percentage points? Give 0.05 for 5 points."),
])
def test_what_does_not_apply_is_refused(runs, extra, message):
    res = runner.invoke(app, ["gate", str(runs / "base.csv"), str(runs / "same.csv"),
                              "--sequential", *extra])
    assert res.exit_code == 1, res.output
    assert message in " ".join(res.output.split()) and "Traceback" not in res.output
