"""MLflow end to end, against a real tracking server started here (issue 27, item 2).

``mlflow server`` with a SQLite backend runs on a free port of localhost for the module; a
3-model x 5-task x 10-fold experiment is logged with the MLflow client (params model, task,
fold; metric accuracy). ``compare("mlflow://...")`` must give the report the same data give
as a CSV file (the JSON identical but for ``details.source``, which says where the runs came
from), on the command line too; and ``report --log-to`` must leave the report's files as
artifacts and its p-value as a metric of the run, as the MLflow client reads them back.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

pytest.importorskip("mlflow")

from outperform import compare  # noqa: E402
from outperform.cli import app  # noqa: E402

pytestmark = pytest.mark.slow

MODELS = {"logreg": 0.80, "forest": 0.83, "knn": 0.78}   # mean accuracy of each model
TASKS = ("adult", "bank", "credit", "diabetes", "spam")
FOLDS = 10
MLFLOW = Path(sys.executable).parent / "mlflow"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, proc, timeout: float = 180.0) -> None:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if proc.poll() is not None:
            raise RuntimeError(f"mlflow server exited with code {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"mlflow server at {url} did not answer within {timeout:.0f} s")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The URL of a tracking server (SQLite backend, artifacts served from a temporary
    folder); the server's process group is killed at the end."""
    if not MLFLOW.exists():
        pytest.skip(f"no mlflow executable beside {sys.executable}")
    folder = tmp_path_factory.mktemp("mlflow-server")
    port = _free_port()
    log = open(folder / "server.log", "wb")
    proc = subprocess.Popen(
        [str(MLFLOW), "server", "--backend-store-uri", f"sqlite:///{folder / 'mlflow.db'}",
         "--artifacts-destination", str(folder / "artifacts"), "--host", "127.0.0.1",
         "--port", str(port), "--workers", "1"],
        cwd=folder, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(url, proc)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def logged(server, tmp_path_factory):
    """(experiment name, the same results as a CSV file): 150 runs logged with the client,
    one ``log_batch`` each (params model, task, fold; metric accuracy)."""
    from mlflow import MlflowClient
    from mlflow.entities import Metric, Param

    rng = np.random.default_rng(27)
    rows = [(m, t, f, round(float(np.clip(mu + rng.normal(0, 0.02), 0, 1)), 4))
            for m, mu in MODELS.items() for t in TASKS for f in range(FOLDS)]
    client = MlflowClient(server)
    experiment = "uci-sweep"
    eid = client.create_experiment(experiment)

    def log(row):
        model, task, fold, accuracy = row
        run = client.create_run(eid, run_name=f"{model}-{task}-{fold}")
        client.log_batch(run.info.run_id,
                         metrics=[Metric("accuracy", accuracy, int(time.time() * 1000), 0)],
                         params=[Param("model", model), Param("task", task),
                                 Param("fold", str(fold))])

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(log, rows))
    # The CSV's rows in the reader's order (models, tasks, folds sorted; the runs were logged
    # in parallel, in no order): the order in which models first appear is their order in a
    # report, and that of the sums of the statistics.
    csv = tmp_path_factory.mktemp("csv") / "results.csv"
    frame = pd.DataFrame(rows, columns=["model", "task", "fold", "accuracy"])
    frame.sort_values(["model", "task", "fold"]).to_csv(csv, index=False)
    return experiment, csv


def _without_source(report: dict) -> dict:
    report = dict(report)
    report["details"] = {k: v for k, v in report["details"].items() if k != "source"}
    return report


def test_compare_of_the_server_runs_is_the_compare_of_the_csv(server, logged):
    experiment, csv = logged
    uri = "mlflow://" + server.removeprefix("http://") + "/" + experiment
    from_server = compare(uri).to_dict()
    from_csv = compare(csv).to_dict()
    assert from_server["question"] == "Q3" and from_server["n_tasks"] == len(TASKS)
    assert _without_source(from_server) == from_csv
    source = from_server["details"]["source"]
    assert source["reader"] == "mlflow" and source["tracking_uri"] == server
    assert source["experiments"] == [experiment] and source["n_runs"] == 150
    assert source["params"] == {"model": "model", "task": "task", "fold": "fold"}


def test_compare_command_reads_the_uri(server, logged):
    experiment, csv = logged
    uri = "mlflow://" + server.removeprefix("http://") + "/" + experiment
    runner = CliRunner()
    a = runner.invoke(app, ["compare", uri, "--format", "json"])
    b = runner.invoke(app, ["compare", str(csv), "--format", "json"])
    assert a.exit_code == 0, a.output
    assert b.exit_code == 0, b.output
    assert _without_source(json.loads(a.stdout)) == json.loads(b.stdout)


def test_report_logs_its_files_and_numbers_to_the_run(server, logged, tmp_path):
    from mlflow import MlflowClient

    experiment, csv = logged
    client = MlflowClient(server)
    eid = client.get_experiment_by_name(experiment).experiment_id
    # the comparison's own run, in the experiment it compares: it has none of the params
    # that name a model, task or fold, so reading the experiment leaves it out
    run_id = client.create_run(eid, run_name="outperform comparison").info.run_id
    host = server.removeprefix("http://")
    result = CliRunner().invoke(app, [
        "report", f"mlflow://{host}/{experiment}", "--out", str(tmp_path / "rep"),
        "--format", "md,json", "--log-to", f"mlflow://{host}/{run_id}"])
    assert result.exit_code == 0, result.output
    artifacts = {a.path for a in client.list_artifacts(run_id, "outperform")}
    written = {f"outperform/{p.name}" for p in (tmp_path / "rep").iterdir()}
    assert {"outperform/report.md", "outperform/report.json"} <= artifacts
    assert artifacts == written
    report = json.loads((tmp_path / "rep" / "report.json").read_text())
    test = report["tests"][report["recommended"]]
    run = client.get_run(run_id).data
    assert run.metrics["outperform.pvalue"] == test["pvalue"]
    assert run.metrics["outperform.statistic"] == test["statistic"]
    assert run.tags["outperform.test"] == report["recommended"]
    assert report["details"]["source"]["skipped_runs"] == 1
    # the same report as from the CSV file
    again = CliRunner().invoke(app, ["report", str(csv), "--out", str(tmp_path / "csv"),
                                     "--format", "json"])
    assert again.exit_code == 0, again.output
    assert _without_source(report) == json.loads((tmp_path / "csv" / "report.json").read_text())
