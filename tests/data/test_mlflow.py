"""Reading MLflow runs: the URIs, and which param plays which role (data/_mlflow.py).

The roles are read by ``runs_table`` from the runs' ids, params, tags and metrics as the
MLflow client gives them (plain dicts), so these tests need no server; the end-to-end test
against a real tracking server is tests/data/test_mlflow_server.py.
"""
from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError, MissingDependencyError, OutperformWarning
from outperform.data._mlflow import read_mlflow, runs_table
from outperform.data._mlflow_uri import MlflowURI, is_mlflow_uri, parse_mlflow_uri, public_uri


def _runs(params, metrics, tags=None):
    n = len(params)
    records = pd.DataFrame({"run_id": [f"r{i:02d}" for i in range(n)],
                            "run_name": [f"run-{i}" for i in range(n)],
                            "status": ["FINISHED"] * n})
    return records, params, tags or [{} for _ in range(n)], pd.DataFrame(metrics)


def _table(params, metrics, tags=None, metric=None, **options):
    records, params, tags, metrics = _runs(params, metrics, tags)
    return runs_table(records, params, tags, metrics, options, metric, "'sweep'")


def _grid(models=("A", "B"), tasks=("iris", "wine"), folds=3, names=("model", "task", "fold")):
    params = [{names[0]: m, names[1]: t, names[2]: str(f)}
              for m in models for t in tasks for f in range(folds)]
    metrics = [{"accuracy": 0.5 + 0.01 * i} for i in range(len(params))]
    return params, metrics


@pytest.mark.parametrize("uri, tracking, name, options", [
    ("mlflow://127.0.0.1:5000/sweep", "http://127.0.0.1:5000", "sweep", {}),
    ("mlflow+https://mlflow.example.org/a/b?model=algo", "https://mlflow.example.org", "a/b",
     {"model": "algo"}),
    ("mlflow://h:1/x?task=dataset&metric=f1", "http://h:1", "x",
     {"task": "dataset", "metric": "f1"}),
    ("mlflow://h:1?experiment=my%20sweep", "http://h:1", "my sweep", {}),
    ("mlflow:///tmp/a/mlflow.db/sweep", "sqlite:////tmp/a/mlflow.db", "sweep", {}),
    ("mlflow:runs/store.sqlite/sweep", "sqlite:///runs/store.sqlite", "sweep", {}),
])
def test_an_mlflow_uri_names_the_store_and_the_experiment(uri, tracking, name, options):
    assert is_mlflow_uri(uri)
    assert parse_mlflow_uri(uri) == MlflowURI(tracking, name, options)


def test_a_run_uri_names_the_run():
    got = parse_mlflow_uri("mlflow://h:1/0a1b2c", what="run")
    assert (got.tracking_uri, got.name) == ("http://h:1", "0a1b2c")


@pytest.mark.parametrize("uri, message", [
    ("mlflow://h:1/", "names no experiment"),
    ("mlflow:///tmp/mlruns/sweep", "named by its SQLite file"),
    ("mlflow://h:1/x?algo=svc", "unknown query key(s) ['algo']"),
])
def test_a_bad_uri_is_refused(uri, message):
    with pytest.raises(InvalidInputError, match=message.replace("(", r"\(").replace(
            ")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        parse_mlflow_uri(uri)


def test_paths_and_other_strings_are_not_mlflow_uris():
    assert not any(is_mlflow_uri(s) for s in ("results.csv", "mlflow.csv", "C:/x.csv", None))


def test_credentials_are_kept_out_of_the_provenance():
    assert public_uri("https://me:secret@host:8443") == "https://host:8443"
    assert public_uri("http://host:5000") == "http://host:5000"


def test_the_roles_are_read_from_the_params_names():
    frame, used = _table(*_grid())
    assert list(frame.columns) == ["model", "task", "fold", "accuracy"]
    assert used == {"skipped_runs": 0, "model": "model", "task": "task", "fold": "fold"}
    assert frame["fold"].dtype == np.int64   # as a CSV reads them
    assert frame[["model", "task", "fold"]].to_records(index=False).tolist() == sorted(
        (m, t, f) for m in "AB" for t in ("iris", "wine") for f in range(3))


def test_aliases_are_roles_too_and_a_seed_is_a_run():
    params, metrics = _grid(names=("algorithm", "dataset", "seed"))
    frame, used = _table(params, metrics)
    assert list(frame.columns) == ["model", "task", "run", "accuracy"]
    assert used["model"] == "algorithm" and used["run"] == "seed"


def test_the_options_name_params_or_tags():
    params, metrics = _grid(names=("algo", "problem_name", "fold"))
    tags = [{"family": p["algo"]} for p in params]
    frame, used = _table(params, metrics, tags, model="family", task="problem_name")
    assert used["model"] == "family" and set(frame["task"]) == {"iris", "wine"}


def test_two_params_that_could_name_the_model_are_refused_naming_both():
    params, metrics = _grid()
    for p in params:
        p["classifier"] = p["model"]
    with pytest.raises(InvalidInputError, match="'model', 'classifier' could each name the "
                                                "model.*model='...'"):
        _table(params, metrics)
    frame, _ = _table(params, metrics, model="classifier")
    assert set(frame["model"]) == {"A", "B"}


def test_no_model_param_is_refused_naming_the_params():
    params, metrics = _grid(names=("algo", "task", "fold"))
    with pytest.raises(InvalidInputError, match=r"names the model \(params: 'algo', 'task', "
                                                "'fold'\\): name it with model="):
        _table(params, metrics)


def test_a_named_param_no_run_has_is_refused():
    with pytest.raises(InvalidInputError, match="model='algo': no run of 'sweep' has a param"):
        _table(*_grid(), model="algo")


def test_runs_without_the_model_param_are_refused_naming_one():
    params, metrics = _grid()
    del params[4]["model"]
    with pytest.raises(InvalidInputError, match="1 of the 12 runs of 'sweep' have no param "
                                                "'model' \\(e.g. run r04 'run-4'"):
        _table(params, metrics)


def test_runs_without_any_role_param_are_left_out_and_counted():
    params, metrics = _grid()
    params.append({"note": "the comparison's own run"})
    metrics.append({"outperform.pvalue": 0.01})
    frame, used = _table(params, metrics, metric="accuracy")
    assert len(frame) == 12 and used["skipped_runs"] == 1


def test_a_run_missing_the_metric_is_refused():
    params, metrics = _grid()
    metrics[7] = {}
    with pytest.raises(InvalidInputError, match="1 of the 12 runs of 'sweep' have no metric "
                                                "'accuracy' \\(e.g. run r07"):
        _table(params, metrics, metric="accuracy")
    with pytest.raises(InvalidInputError, match="have no metric 'accuracy'"):
        _table(params, metrics)   # the only metric


def test_a_metric_only_some_runs_have_is_left_out_with_a_warning():
    params, metrics = _grid()
    metrics[0]["train_loss"] = 0.3
    with pytest.warns(OutperformWarning, match="'train_loss' are missing in some runs"):
        frame, _ = _table(params, metrics)
    assert list(frame.columns)[-1] == "accuracy" and "train_loss" not in frame


def test_an_unknown_metric_is_refused_naming_the_metrics():
    with pytest.raises(InvalidInputError, match="no run of 'sweep' has a metric 'f1'; "
                                                "metrics: 'accuracy'"):
        _table(*_grid(), metric="f1")


def test_configurations_under_one_model_name_are_refused_naming_the_param():
    params, metrics = _grid()
    extra = [dict(p, lr="0.01") for p in params]
    params = [dict(p, lr="0.1") for p in params] + extra
    metrics = metrics + metrics
    with pytest.raises(InvalidInputError, match="2 runs have model 'A', task 'iris', fold 0 "
                                                ".*differ in param\\(s\\) 'lr'.*"
                                                "model=\\['model', 'lr'\\]"):
        _table(params, metrics)
    frame, used = _table(params, metrics, model=["model", "lr"])
    assert sorted(set(frame["model"])) == ["A (lr=0.01)", "A (lr=0.1)", "B (lr=0.01)",
                                           "B (lr=0.1)"]
    assert used["model"] == ["model", "lr"]


def test_a_param_that_varies_within_a_model_on_a_task_is_warned_of():
    params, metrics = _grid()
    params[1]["lr"], params[0]["lr"], params[2]["lr"] = "0.1", "0.1", "0.5"
    for p in params[3:]:
        p["lr"] = "0.1"
    with pytest.warns(OutperformWarning, match="param 'lr' takes 2 values within model 'A' on "
                                               "task 'iris' \\(0.1, 0.5\\)"):
        _table(params, metrics)


def test_a_seed_that_varies_is_not_warned_of(recwarn):
    params, metrics = _grid()
    for p in params:
        p["random_state"] = p["fold"]
    _table(params, metrics)
    assert not [w for w in recwarn if issubclass(w.category, OutperformWarning)]


def test_without_mlflow_the_refusal_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mlflow", None)
    with pytest.raises(MissingDependencyError, match=r"pip install 'outperform\[mlflow\]'"):
        read_mlflow("sweep", "sqlite:///nowhere.db")


def test_an_unreachable_server_is_named():
    with pytest.raises(InvalidInputError, match="cannot reach the MLflow tracking server at "
                                                "http://127.0.0.1:9"):
        read_mlflow("sweep", "http://127.0.0.1:9")
