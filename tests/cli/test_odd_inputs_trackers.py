"""Odd inputs of the experiment trackers' readers (issue 27, items 2, 3 and 6): MLflow runs
(``mlflow://`` URIs) and TensorBoard log folders, each with its exact outcome through the
command line (exit code of cli/_errors.py and a message naming what to fix, no traceback)
or in Python (exception class and message)."""
from __future__ import annotations

import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from outperform import InvalidInputError, MissingDependencyError
from outperform.cli import app

runner = CliRunner()


def _write(folder, steps, values, tag="eval/return"):
    from tensorboard.summary import Writer

    writer = Writer(str(folder))
    for step, value in zip(steps, values):
        writer.add_scalar(tag, value, step)
    writer.close()


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Log folders of TensorBoard runs and a CSV file, each odd in one way."""
    pytest.importorskip("tensorboard")
    root = tmp_path_factory.mktemp("trackers")
    (root / "empty").mkdir()
    (root / "empty" / "notes.txt").write_text("no events here")
    for model in ("a", "b"):
        for seed in (0, 1):
            _write(root / "ok" / model / "t" / str(seed), [0, 10], [1.0, 2.0])
            _write(root / "two" / model / "t" / str(seed), [0, 10], [1.0, 2.0])
            _write(root / "two" / model / "t" / str(seed), [0, 10], [5.0, 6.0], tag="loss")
            steps = [0, 10] if seed == 0 else [0, 12]
            _write(root / "apart" / model / "t" / str(seed), steps, [1.0, 2.0])
            _write(root / "apart2" / model / "t" / str(seed), [seed, 10 + seed], [1.0, 2.0])
    _write(root / "flat" / "a", [0, 10], [1.0, 2.0])
    (root / "r.csv").write_text("task,model,run,score\nt,a,0,1\nt,b,0,2\n")
    return root


# (id, arguments ({dir} is the folder of the files), exit code, substrings of the output)
CLI_CASES = [
    ("mlflow server unreachable", ["compare", "mlflow://127.0.0.1:9/sweep"], 1,
     ["cannot reach the MLflow tracking server at http://127.0.0.1:9", "mlflow server"]),
    ("mlflow report unreachable", ["report", "mlflow://127.0.0.1:9/sweep", "--out", "{dir}/o"],
     1, ["cannot reach the MLflow tracking server"]),
    ("mlflow uri without experiment", ["compare", "mlflow://127.0.0.1:9"], 1,
     ["names no experiment", "mlflow://HOST:PORT/EXPERIMENT"]),
    ("mlflow uri unknown query", ["compare", "mlflow://127.0.0.1:9/x?algo=svc"], 1,
     ["unknown query key(s) ['algo']", "?model=algo"]),
    ("mlflow local store not sqlite", ["compare", "mlflow:///tmp/mlruns/x"], 1,
     ["named by its SQLite file"]),
    ("log-to not an mlflow run", ["report", "{dir}/r.csv", "--out", "{dir}/o2", "--log-to",
                                  "runs/abc"], 1, ["--log-to 'runs/abc': name an MLflow run"]),
    ("tensorboard empty logdir", ["aggregate", "{dir}/empty"], 1,
     ["no TensorBoard event files (events.out.tfevents.*) under"]),
    ("tensorboard tag absent", ["aggregate", "{dir}/ok", "--tag", "reward"], 1,
     ["no run logs the tag 'reward'; tags present: 'eval/return'"]),
    ("tensorboard several tags", ["aggregate", "{dir}/two"], 1,
     ["the runs log 2 scalar tags: name one with tag= (--tag); tags: 'eval/return', 'loss'"]),
    ("tensorboard steps apart", ["aggregate", "{dir}/apart", "--n-resamples", "50"], 1,
     ["runs of model 'a' were not scored at the same steps", "differ at step(s) 10, 12",
      "--steps common"]),
    ("tensorboard steps apart, common", ["aggregate", "{dir}/apart", "--steps", "common",
                                         "--n-resamples", "50"], 0,
     ["steps not common to all runs of a model were left out ('a': 2; 'b': 2)"]),
    ("tensorboard no step in common", ["aggregate", "{dir}/apart2", "--steps", "common"], 1,
     ["no step is common to all of them", "evaluate all runs at the same steps."]),
    ("tensorboard pattern mismatch", ["aggregate", "{dir}/flat"], 1,
     ["the run folder 'a' does not match the pattern '{model}/{task}/{seed}'", "--pattern"]),
    ("tensorboard bad steps option", ["aggregate", "{dir}/ok", "--steps", "some"], 1,
     ["steps must be one of ('exact', 'common')"]),
    ("tensorboard options on a csv", ["aggregate", "{dir}/r.csv", "--tag", "x"], 1,
     ["--tag applies to a folder of TensorBoard runs, not to a results table"]),
]


@pytest.mark.parametrize("args, code, expected", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
def test_cli_odd_input(files, args, code, expected):
    result = runner.invoke(app, [a.replace("{dir}", str(files)) for a in args])
    output = " ".join(result.output.split())
    assert result.exit_code == code, result.output
    for text in expected:
        assert text in output, (text, result.output)
    assert "Traceback" not in result.output


def test_without_tensorboard_the_refusal_names_the_extra(files, monkeypatch):
    from outperform.data import read_tensorboard

    monkeypatch.setitem(sys.modules, "tensorboard", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'outperform\[tensorboard\]'"):
        read_tensorboard(files / "ok")


def test_without_mlflow_the_cli_names_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "mlflow", None)
    result = runner.invoke(app, ["compare", f"mlflow://{tmp_path}/x.db/sweep"])
    assert result.exit_code == 1
    assert "pip install 'outperform[mlflow]'" in " ".join(result.output.split())


# --- MLflow stores with odd runs: a local SQLite store (MLflow's import and the store's
# creation take a few seconds) -------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """A SQLite MLflow store whose experiments are each odd in one way."""
    pytest.importorskip("mlflow")
    from mlflow import MlflowClient
    from mlflow.entities import Metric, Param

    folder = tmp_path_factory.mktemp("mlflow-store")
    db = folder / "mlflow.db"
    client = MlflowClient(f"sqlite:///{db}")

    def log(experiment, runs):
        eid = client.create_experiment(experiment, artifact_location=str(folder / experiment))
        for params, metrics in runs:
            run = client.create_run(eid)
            client.log_batch(run.info.run_id, params=[Param(k, v) for k, v in params.items()],
                             metrics=[Metric(k, v, 0, 0) for k, v in metrics.items()])

    grid = [({"model": m, "task": f"t{t}"}, {"accuracy": 0.5 + 0.01 * i + 0.003 * (i * i % 5)})
            for i, (m, t) in enumerate((m, t) for m in "AB" for t in range(6))]
    log("complete", grid)
    log("missing-metric", grid[:-1] + [(grid[-1][0], {"loss": 0.3})])
    log("configurations", [(dict(p, lr=lr), m) for p, m in grid for lr in ("0.1", "0.01")])
    log("empty", [])
    return db


STORE_CASES = [
    ("experiment not found", "nope", [], 1,
     ["MLflow experiment 'nope' not found at sqlite:///", "its experiments:", "'complete'"]),
    ("runs missing a metric", "missing-metric", ["--metric", "accuracy"], 1,
     ["1 of the 12 runs of 'missing-metric' have no metric 'accuracy'", "mlflow runs delete"]),
    ("a param varying within a model", "configurations", [], 1,
     ["2 runs have model 'A', task 't0'", "differ in param(s) 'lr'",
      "model=['model', 'lr']"]),
    ("configurations named by the model param list", "configurations?model=lr", [], 1,
     ["2 runs have model '0.01', task 't0'", "differ in param(s) 'model'"]),
    ("experiment without runs", "empty", [], 1, ["hold no runs"]),
    ("the metric named twice", "complete?metric=accuracy", ["--metric", "f1"], 1,
     ["names the metric 'accuracy' and --metric 'f1': give one of them"]),
    ("complete", "complete", ["--format", "json"], 0, ['"reader": "mlflow"', '"n_runs": 12']),
]


@pytest.mark.slow
@pytest.mark.parametrize("experiment, extra, code, expected", [c[1:] for c in STORE_CASES],
                         ids=[c[0] for c in STORE_CASES])
def test_odd_mlflow_runs(store, experiment, extra, code, expected):
    result = runner.invoke(app, ["compare", f"mlflow://{store}/{experiment}", *extra])
    output = " ".join(result.output.split())
    assert result.exit_code == code, result.output
    for text in expected:
        assert text in output, (text, result.output)
    assert "Traceback" not in result.output


@pytest.mark.slow
def test_a_run_to_log_to_that_does_not_exist_is_named(store):
    from outperform import compare
    from outperform.report import log_mlflow

    report = compare(f"mlflow://{store}/complete")
    with pytest.raises(InvalidInputError, match="MLflow run 'f00' not found at sqlite:///"):
        log_mlflow(report, f"mlflow://{store}/f00")
    assert np.isfinite(report.tests[report.recommended].pvalue)
