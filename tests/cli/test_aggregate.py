"""`outperform aggregate`: the runs x tasks table with intervals, from a file."""
import json

import numpy as np
import pytest
import pandas as pd
from typer.testing import CliRunner

from outperform.cli import app
from outperform.compare import compare_runs

runner = CliRunner()


def _csv(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "run": r,
                           "error": 0.3 - 0.05 * i + rng.normal(0, 0.05)}
                          for t in range(5) for i, m in enumerate(("base", "new"))
                          for r in range(4)])
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_aggregate_prints_the_table_of_compare_runs(tmp_path):
    path, frame = _csv(tmp_path)
    res = runner.invoke(app, ["aggregate", str(path), "--normalize", "min-max", "--seed", "3",
                              "--n-resamples", "300", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    expected = compare_runs(frame, normalize="min-max", n_resamples=300, random_state=3)
    assert got["aggregates"]["new"]["iqm"]["low"] == expected.aggregates["new"]["iqm"].low
    assert "min-max" in got["normalization"]


def test_aggregate_tasks_random_reference_and_plot(tmp_path):
    path, _ = _csv(tmp_path)
    ref = tmp_path / "ref.csv"
    pd.DataFrame({"task": [f"t{t}" for t in range(5)], "zero": 1.0, "one": 0.0}).to_csv(ref)
    out = tmp_path / "fig.png"
    res = runner.invoke(app, ["aggregate", str(path), "--normalize", f"reference:{ref}",
                              "--tasks-random", "--n-resamples", "200", "--plot", str(out),
                              "--control", "base"])
    assert res.exit_code == 0, res.output
    assert "two-level bootstrap" in res.stdout and "P(new > base)" in res.stdout
    assert out.stat().st_size > 0


def test_aggregate_bad_input_is_one_line(tmp_path):
    path, _ = _csv(tmp_path)
    for args, message in ((["--normalize", "zscore"], "use none, min-max"),
                          ([], "lower-is-better")):
        res = runner.invoke(app, ["aggregate", str(path), *args])
        assert res.exit_code == 1 and message in res.output and "Traceback" not in res.output


def test_aggregate_with_learning_curves_prints_and_draws_sample_efficiency(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "run": r, "step": s,
                           "accuracy": 0.5 + rate * s + rng.normal(0, 0.02)}
                          for t in range(4) for m, rate in (("a", 1e-3), ("b", 2e-3))
                          for r in range(3) for s in (0, 50, 100)])
    path, out = tmp_path / "curves.csv", tmp_path / "curves.png"
    frame.to_csv(path, index=False)
    res = runner.invoke(app, ["aggregate", str(path), "--n-resamples", "200", "--seed", "0",
                              "--curves", str(out)])
    assert res.exit_code == 0, res.output
    assert "sample efficiency" in res.stdout and "step        100" in res.stdout
    assert out.stat().st_size > 0
    res = runner.invoke(app, ["aggregate", str(_csv(tmp_path)[0]), "--lower-is-better",
                              "--curves", str(out)])
    assert res.exit_code == 1 and "'step' column" in res.output


def test_report_of_a_runs_table_has_the_runs_section(tmp_path):
    """`outperform report` on runs x tasks: the Q3 report plus a section with the aggregates,
    the paired differences and P(X > Y), the same numbers as compare_runs (min-max, seed 0)."""
    rng = np.random.default_rng(2)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "run": r,
                           "accuracy": 0.7 + 0.03 * i + rng.normal(0, 0.03)}
                          for t in range(8) for i, m in enumerate(("a", "b", "c"))
                          for r in range(4)])
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    res = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "rep"),
                              "--formats", "md,json,txt", "--no-bayesian"])
    assert res.exit_code == 0, res.output
    md = (tmp_path / "rep" / "report.md").read_text()
    expected = compare_runs(frame, normalize="min-max", random_state=0)
    iqm = expected.aggregates["c"]["iqm"]
    assert "Runs over tasks: interval estimates" in md and "Paired design" in md
    assert f"{iqm.estimate:.3f} [{iqm.low:.3f}, {iqm.high:.3f}]" in md
    details = json.loads((tmp_path / "rep" / "report.json").read_text())["details"]["runs"]
    assert details["paired"] is True
    assert "Probability of improvement" in (tmp_path / "rep" / "report.txt").read_text()


def test_report_without_runs_has_no_runs_section(tmp_path):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "accuracy": rng.uniform(0.6, 0.9)}
                          for t in range(8) for m in ("a", "b", "c")])
    path = tmp_path / "plain.csv"
    frame.to_csv(path, index=False)
    res = runner.invoke(app, ["report", str(path), "--out", str(tmp_path / "rep"),
                              "--formats", "md", "--no-bayesian"])
    assert res.exit_code == 0, res.output
    assert "Runs over tasks" not in (tmp_path / "rep" / "report.md").read_text()


@pytest.mark.slow
def test_aggregate_of_many_models_prints_a_ranking_under_100_lines(tmp_path):
    """50 models: the neighbours in the ranking, not 1,225 pairs (issue 31, item 2)."""
    rng = np.random.default_rng(5)
    frame = pd.DataFrame([{"task": f"t{t}", "model": f"m{i}", "run": r,
                           "accuracy": 0.5 + 0.002 * i + rng.normal(0, 0.03)}
                          for t in range(4) for i in range(50) for r in range(3)])
    path = tmp_path / "many.csv"
    frame.to_csv(path, index=False)
    res = runner.invoke(app, ["aggregate", str(path), "--n-resamples", "100"])
    assert res.exit_code == 0, res.output
    assert len(res.stdout.splitlines()) < 100
    assert "49 of 1,225 pairs are shown" in res.stdout
    every = runner.invoke(app, ["aggregate", str(path), "--n-resamples", "100", "--pairs", "all",
                                "--format", "json"])
    assert every.exit_code == 0, every.output
    assert len(json.loads(every.stdout)["improvements"]) == 1225
    bad = runner.invoke(app, ["aggregate", str(path), "--pairs", "control"])
    assert bad.exit_code == 1 and "needs a control model" in bad.output


def test_aggregate_prints_its_time_on_stderr(tmp_path):
    """Issue 31: the command says how long it took (stderr: the output stays the table)."""
    path, _ = _csv(tmp_path)
    for extra in ([], ["--pairs", "all"]):
        res = runner.invoke(app, ["aggregate", str(path), "--normalize", "min-max",
                                  "--n-resamples", "100", *extra])
        assert res.exit_code == 0, res.output
        line = " ".join(res.stderr.split())
        assert "aggregate: done in " in line
        assert "(2 models x 5 tasks, 100 resamples, 1 of 1 pairs in full)" in line
        assert "done in" not in res.stdout
