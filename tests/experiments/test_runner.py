"""The experiment runner: paired splits, scores against scikit-learn, predictions, resume,
parallel backends (joblib loky, Dask LocalCluster), and bad input."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from threadpoolctl import threadpool_info

from outperform._validation import InvalidInputError, TooFewError
from outperform.experiments import load_datasets
from outperform.experiments import RepeatedKFoldDesign
from outperform.experiments import MODELS, get_models
from outperform.experiments import predictions_path, run_experiment

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
DESIGN = "2x3"
NUMERIC = ["n_train", "n_test", "accuracy"]


class Recorder(BaseEstimator, ClassifierMixin):
    """Majority-class classifier that records which rows it was trained on, and where.

    Column 0 of X holds the row number, so the recorded set identifies the training set.
    """

    log: list = []

    def __init__(self, tag="a"):
        self.tag = tag

    def fit(self, X, y):
        try:
            from distributed import get_worker
            get_worker()
            on_worker = True
        except (ImportError, ValueError):
            on_worker = False
        Recorder.log.append((self.tag, frozenset(np.asarray(X)[:, 0].astype(int)), on_worker))
        values, counts = np.unique(y, return_counts=True)
        self.classes_, self.majority_ = values, values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.majority_)


class FailAfter(BaseEstimator, ClassifierMixin):
    """Gaussian naive Bayes that raises once ``calls`` (shared by all clones) reaches ``n``."""

    calls = [0]

    def __init__(self, n=4):
        self.n = n

    def fit(self, X, y):
        FailAfter.calls[0] += 1
        if FailAfter.calls[0] > self.n:
            raise RuntimeError("simulated crash")
        self.nb_ = GaussianNB().fit(X, y)
        self.classes_ = self.nb_.classes_
        return self

    def predict(self, X):
        return self.nb_.predict(X)


def _no_times(df):
    return df.drop(columns=["fit_time", "score_time"])


# --- the table --------------------------------------------------------------------------------

def test_table_columns_and_recorded_design():
    df = run_experiment("nb,dummy", "iris", DESIGN, progress=False)
    assert list(df.columns) == ["task", "model", "run", "fold", "n_train", "n_test", "accuracy",
                                "fit_time", "score_time", "design", "random_state"]
    assert len(df) == 2 * 2 * 3
    assert df["model"].tolist() == ["nb"] * 6 + ["dummy"] * 6
    assert (df["n_train"] + df["n_test"] == 150).all() and (df["n_test"] == 50).all()
    assert set(df["design"]) == {"2x3"} and set(df["random_state"]) == {0}
    assert df.attrs["design"]["random_state"] == 0
    assert (df[["fit_time", "score_time"]] > 0).all().all()


def test_scores_equal_sklearn_cross_validate():
    # Independent implementation: sklearn's cross_validate on the same splitter and seed.
    metrics = ["accuracy", "balanced_accuracy", "neg_log_loss"]
    df = run_experiment({"nb": GaussianNB()}, {"iris": (X_IRIS, Y_IRIS)},
                        RepeatedKFoldDesign(2, 3, random_state=5), metrics=metrics,
                        progress=False)
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=5)
    ref = cross_validate(GaussianNB(), X_IRIS, Y_IRIS, cv=cv, scoring=metrics)
    for m in metrics:
        np.testing.assert_allclose(df[m], ref[f"test_{m}"], rtol=1e-12)
    assert (df["neg_log_loss"] < 0).all()  # scorers are higher-is-better


def test_every_model_gets_identical_splits():
    Recorder.log = []
    X = np.column_stack([np.arange(150), X_IRIS])
    design = RepeatedKFoldDesign(2, 3, random_state=1)
    run_experiment({"a": Recorder("a"), "b": Recorder("b")}, {"iris": (X, Y_IRIS)}, design,
                   progress=False)
    train_a = [rows for tag, rows, _ in Recorder.log if tag == "a"]
    train_b = [rows for tag, rows, _ in Recorder.log if tag == "b"]
    expected = [frozenset(train) for _, _, train, _ in design.split(X, Y_IRIS)]
    assert train_a == train_b == expected


def test_predictions_table():
    data = {"iris": (X_IRIS, Y_IRIS), "wine": load_datasets("wine")["wine"]}
    scores, pred = run_experiment("nb,dummy", data, DESIGN, store_predictions=True,
                                  progress=False)
    assert list(pred.columns) == ["task", "model", "run", "fold", "example", "y_true",
                                  "y_pred", "correct"]
    # each run of each model predicts every example of every task exactly once
    assert len(pred) == 2 * 2 * (150 + 178)
    counts = pred.groupby(["task", "model", "run"])["example"].agg(["nunique", "size"])
    assert (counts["nunique"] == counts["size"]).all()
    # same test examples for both models, per fold
    by_model = {m: g.drop(columns=["model", "y_pred", "correct"]).reset_index(drop=True)
                for m, g in pred.groupby("model")}
    pd.testing.assert_frame_equal(by_model["nb"], by_model["dummy"])
    # y_true is the data set's label of that example; correct is y_pred == y_true
    iris = pred[pred["task"] == "iris"]
    np.testing.assert_array_equal(iris["y_true"], Y_IRIS[iris["example"]])
    np.testing.assert_array_equal(pred["correct"], pred["y_true"] == pred["y_pred"])
    # the accuracy column is the mean of correct per fold
    acc = pred.groupby(["task", "model", "run", "fold"], sort=False)["correct"].mean()
    merged = scores.set_index(["task", "model", "run", "fold"])["accuracy"]
    np.testing.assert_allclose(merged.loc[acc.index], acc)


def test_dataframe_input_with_text_labels_and_parquet(tmp_path):
    frame = pd.DataFrame(X_IRIS, columns=list("abcd"))
    labels = pd.Series(np.array(["setosa", "versicolor", "virginica"])[Y_IRIS])
    out = tmp_path / "r.parquet"
    data = {"text": (frame, labels), "numbers": (X_IRIS, Y_IRIS)}
    scores, pred = run_experiment("nb", data, DESIGN, out=out, store_predictions=True,
                                  progress=False)
    assert predictions_path(out).exists()
    text = pred[pred["task"] == "text"]
    assert set(text["y_pred"]) <= {"setosa", "versicolor", "virginica"}
    # same splits, same model: text labels change nothing in the scores
    a, b = (scores[scores["task"] == t]["accuracy"].to_numpy() for t in ("text", "numbers"))
    np.testing.assert_array_equal(a, b)


@pytest.mark.slow
def test_named_models_fit(tmp_path):
    df = run_experiment(list(MODELS), "iris", "1x2", progress=False)
    means = df.groupby("model")["accuracy"].mean()
    assert means["dummy"] < 0.4 and (means.drop("dummy") > 0.85).all()


# --- resume -----------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_interrupted_run_resumes(tmp_path, suffix):
    out = tmp_path / f"results{suffix}"
    FailAfter.calls[0] = 0
    models = {"nb": GaussianNB(), "flaky": FailAfter(n=4)}
    with pytest.raises(RuntimeError, match="simulated crash") as info:
        run_experiment(models, "iris", DESIGN, out=out, store_predictions=True,
                       progress=False)
    assert "model 'flaky' on task 'iris', run 1, fold 1" in info.value.__notes__[0]
    saved = pd.read_csv(out) if suffix == ".csv" else pd.read_parquet(out)
    assert len(saved) == 6 + 4  # nb's six fits, then flaky's four before the crash
    assert not out.with_name(out.name + ".journal").exists()

    FailAfter.calls[0] = 0
    models["flaky"] = FailAfter(n=100)
    scores, pred = run_experiment(models, "iris", DESIGN, out=out, store_predictions=True,
                                  progress=False)
    assert FailAfter.calls[0] == 2  # only the two missing fits were run
    full = run_experiment({"nb": GaussianNB(), "flaky": FailAfter(n=100)}, "iris", DESIGN,
                          store_predictions=True, progress=False)
    pd.testing.assert_frame_equal(_no_times(scores), _no_times(full[0]), check_dtype=False)
    pd.testing.assert_frame_equal(pred, full[1], check_dtype=False)

    FailAfter.calls[0] = 0  # a third run has nothing left to do
    again = run_experiment(models, "iris", DESIGN, out=out, progress=False)
    assert FailAfter.calls[0] == 0
    pd.testing.assert_frame_equal(again, scores)


def test_journal_of_a_killed_run_is_merged_and_a_torn_line_ignored(tmp_path):
    out = tmp_path / "r.csv"
    whole = run_experiment("nb", "iris", DESIGN, progress=False)
    # What a process killed during its third fit leaves: two records and a torn line.
    journal = out.with_name(out.name + ".journal")
    lines = [json.dumps({"row": row, "pred": None})
             for row in whole.head(2).to_dict(orient="records")]
    journal.write_text("\n".join(lines) + "\n" + lines[0][:25])
    FailAfter.calls[0] = 0
    df = run_experiment({"nb": FailAfter(n=100)}, "iris", DESIGN, out=out, progress=False)
    assert FailAfter.calls[0] == 4
    pd.testing.assert_frame_equal(_no_times(df), _no_times(whole), check_dtype=False)
    assert not journal.exists()


def test_predictions_requested_later_are_computed(tmp_path):
    out = tmp_path / "r.parquet"
    run_experiment("nb", "iris", DESIGN, out=out, progress=False)
    scores, pred = run_experiment("nb", "iris", DESIGN, out=out, store_predictions=True,
                                  progress=False)
    assert len(scores) == 6 and len(pred) == 2 * 150


@pytest.mark.parametrize("change, message", [
    (dict(design="3x3"), "holds results of design '2x3'"),
    (dict(design=RepeatedKFoldDesign(2, 3, random_state=9)), "random_state=0"),
    (dict(metrics=("accuracy", "f1_macro")), "holds metrics"),
    (dict(datasets={"iris": (X_IRIS[:120], Y_IRIS[:120])}), "data set changed"),
])
def test_resume_refuses_another_experiment(tmp_path, change, message):
    out = tmp_path / "r.csv"
    run_experiment("nb", "iris", DESIGN, out=out, progress=False)
    kwargs = dict(models="nb", datasets="iris", design=DESIGN, out=out, progress=False) | change
    with pytest.raises(InvalidInputError, match=message):
        run_experiment(**kwargs)


# --- parallel backends ----------------------------------------------------------------------

@pytest.mark.parametrize("backend", [
    "threading",
    # worker processes start in seconds on a busy machine
    pytest.param("loky", marks=pytest.mark.slow),
])
def test_parallel_fits_give_the_same_table(backend):
    serial = run_experiment("nb,tree", "iris,wine", DESIGN, progress=False)
    parallel = run_experiment("nb,tree", "iris,wine", DESIGN, n_jobs=2, backend=backend,
                              progress=False)
    pd.testing.assert_frame_equal(_no_times(serial), _no_times(parallel))


@pytest.fixture
def dask_client():
    distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")
    # Two threads: with one, joblib sees one worker slot and runs the fits in this process.
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            yield client


def test_dask_local_cluster(dask_client, tmp_path):
    Recorder.log = []
    X = np.column_stack([np.arange(150), X_IRIS])
    data = {"iris": (X, Y_IRIS)}
    models = {"nb": GaussianNB(), "rec": Recorder()}
    out = tmp_path / "r.parquet"
    on_dask = run_experiment(models, data, DESIGN, backend=dask_client, out=out,
                             progress=False)
    assert len(Recorder.log) == 6 and all(on_worker for *_, on_worker in Recorder.log)
    assert threading.current_thread() is threading.main_thread()
    serial = run_experiment(models, data, DESIGN, progress=False)
    pd.testing.assert_frame_equal(_no_times(on_dask), _no_times(serial), check_dtype=False)
    by_name = run_experiment(models, data, "1x2", backend="dask", progress=False)
    assert len(by_name) == 4


# --- bad input --------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    (dict(models="nb,xgboost"), InvalidInputError, "unknown model 'xgboost'"),
    (dict(models="nb,nb"), InvalidInputError, "more than once"),
    (dict(models=""), TooFewError, "no model"),
    (dict(models={"x": object()}), InvalidInputError, "fit and predict"),
    (dict(datasets={}), TooFewError, "no data set"),
    (dict(datasets="iris,mnist"), InvalidInputError, "unknown data set"),
    (dict(datasets={"d": (X_IRIS, Y_IRIS[:-1])}), InvalidInputError,
     "150 rows in X but 149 labels"),
    (dict(datasets={"d": (X_IRIS[:, 0], Y_IRIS)}), InvalidInputError, "must be 2-D"),
    (dict(datasets={"d": (X_IRIS, np.where(Y_IRIS == 1, np.nan, Y_IRIS))}),
     InvalidInputError, "missing label"),
    (dict(datasets={"d": (X_IRIS, np.zeros(150))}), InvalidInputError, "single value"),
    (dict(datasets={"d": X_IRIS}), InvalidInputError, "must be a pair"),
    (dict(datasets={"d": (X_IRIS[::30], Y_IRIS[::30])}), InvalidInputError, "cannot split"),
    (dict(design="ten by ten"), InvalidInputError, "cannot read design"),
    (dict(metrics=("accuracy", "accurasy")), InvalidInputError, "not a valid scoring"),
    (dict(metrics=("fold",)), InvalidInputError, "not a valid scoring"),
    (dict(out="results.xlsx"), InvalidInputError, "out must end in"),
    (dict(backend="spark"), InvalidInputError, "backend must be one of"),
    (dict(backend=42), InvalidInputError, "backend must be None"),
])
def test_bad_input(kwargs, error, message):
    args = dict(models="nb", datasets="iris", design=DESIGN, progress=False) | kwargs
    with pytest.raises(error, match=message):
        run_experiment(**args)


def test_metric_names_must_not_clash_with_columns():
    with pytest.raises(InvalidInputError, match="clash"):
        run_experiment("nb", "iris", DESIGN, metrics={"fold": "accuracy"}, progress=False)


def test_dask_backend_without_a_client():
    distributed = pytest.importorskip("distributed")
    try:
        distributed.get_client()
        pytest.skip("a Dask client is running")
    except ValueError:
        pass
    with pytest.raises(InvalidInputError, match="running dask.distributed Client"):
        run_experiment("nb", "iris", DESIGN, backend="dask", progress=False)


def test_a_loader_is_called_and_names_keep_order():
    data = load_datasets({"z": lambda: (X_IRIS, Y_IRIS), "a": load_iris})
    assert list(data) == ["z", "a"]
    df = run_experiment(get_models(["dummy"]), data, DESIGN, progress=False)
    assert df["task"].unique().tolist() == ["z", "a"]


def test_bundled_data_sets():
    # Sizes documented by scikit-learn's dataset descriptions (toy datasets section).
    data = load_datasets(["sklearn"])
    shapes = {name: (X.shape, len(np.unique(y))) for name, (X, y) in data.items()}
    assert shapes == {"iris": ((150, 4), 3), "wine": ((178, 13), 3),
                      "breast_cancer": ((569, 30), 2), "digits": ((1797, 64), 10)}


# --- one writer per file, readable journals ---------------------------------------------------

_SLOW_WRITER = """
import sys, time
from sklearn.naive_bayes import GaussianNB
from outperform.experiments import run_experiment

class Slow(GaussianNB):
    def fit(self, X, y):
        time.sleep(1.0)
        return super().fit(X, y)

run_experiment({"slow": Slow()}, "iris", "10x10", out=sys.argv[1], progress=False)
"""


def _wait_for(condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the writer process did not start in time"
        time.sleep(0.05)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
@pytest.mark.slow
def test_a_second_writer_fails_at_once_and_a_dead_writers_lock_is_taken_over(tmp_path, suffix):
    # Item 6 of issue 12: two runs on one out left duplicate keys (CSV) or lost fits (Parquet).
    out = tmp_path / f"r{suffix}"
    journal = out.with_name(out.name + ".journal")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    writer = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(out)], env=env)
    try:
        _wait_for(lambda: journal.exists() and journal.read_text().count("\n") >= 2)
        with pytest.raises(InvalidInputError) as info:
            run_experiment({"slow": GaussianNB()}, "iris", "10x10", out=out, progress=False)
        message = str(info.value)
        assert str(out) in message and f"process {writer.pid}@" in message
        # At once, not after the other run: the writer (100 fits of a second each) is still
        # running, undisturbed. (No wall-clock bound: it failed on a loaded machine.)
        assert writer.poll() is None
    finally:
        writer.send_signal(signal.SIGKILL)  # dies holding the lock, leaving lock and journal
        writer.wait()
    assert out.with_name(out.name + ".lock").exists() and journal.exists()
    done = sum(1 for line in journal.read_text().splitlines() if line.endswith("}"))

    with pytest.warns(UserWarning, match=f"process {writer.pid}@.*ended without removing"):
        df = run_experiment({"slow": GaussianNB()}, "iris", "10x10", out=out, progress=False)
    assert len(df) == 100 and not df.duplicated(["run", "fold"]).any()
    assert done >= 2 and not out.with_name(out.name + ".lock").exists()
    fresh = run_experiment({"slow": GaussianNB()}, "iris", "10x10", progress=False)
    pd.testing.assert_frame_equal(_no_times(df), _no_times(fresh), check_dtype=False)


def test_a_run_in_progress_in_this_process_also_holds_the_file(tmp_path):
    out = tmp_path / "r.csv"

    class Reentrant(GaussianNB):
        def fit(self, X, y):
            with pytest.raises(InvalidInputError, match="being written by another run"):
                run_experiment("nb", "iris", DESIGN, out=out, progress=False)
            return super().fit(X, y)

    run_experiment({"nb": Reentrant()}, "iris", DESIGN, out=out, progress=False)
    run_experiment("nb", "iris", DESIGN, out=out, progress=False)  # released at the end


def test_corrupt_journal_lines_are_skipped_with_a_warning_naming_them(tmp_path):
    # Item 5 of issue 12: a bad line in the middle blocked every resume with
    # "Invalid control character".
    out = tmp_path / "r.csv"
    whole = run_experiment("nb", "iris", DESIGN, progress=False)
    lines = [json.dumps({"row": row, "pred": None})
             for row in whole.head(4).to_dict(orient="records")]
    lines[1] = lines[1].replace('"iris"', '"ir\x01is"')  # a raw control character
    lines[2] = lines[2][:40]                              # a line cut short mid-file
    journal = out.with_name(out.name + ".journal")
    journal.write_bytes(("\n".join(lines) + "\n").encode() + b"\xff\xfe not utf-8\n{}\n")
    FailAfter.calls[0] = 0
    with pytest.warns(UserWarning, match=r"skipped 4 corrupt line\(s\).*line 2, 3, 5, 6"):
        df = run_experiment({"nb": FailAfter(n=100)}, "iris", DESIGN, out=out, progress=False)
    assert FailAfter.calls[0] == 4  # lines 1 and 4 were kept, the other fits redone
    pd.testing.assert_frame_equal(_no_times(df), _no_times(whole), check_dtype=False)
    assert not journal.exists()


# --- long work: threads and progress ----------------------------------------------------------

class BlasThreads(GaussianNB):
    """Gaussian naive Bayes that records the BLAS threads available during its fit."""

    seen: list = []

    def fit(self, X, y):
        BlasThreads.seen += [i["num_threads"] for i in threadpool_info()
                             if i["user_api"] == "blas"]
        return super().fit(X, y)


def _blas_threads():
    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


def test_parallel_fits_use_one_blas_thread_each():
    if max(_blas_threads(), default=1) < 2:
        pytest.skip("BLAS runs one thread here: nothing to limit")
    before = _blas_threads()
    BlasThreads.seen = []
    run_experiment({"nb": BlasThreads()}, "iris", DESIGN, n_jobs=2, backend="threading",
                   progress=False)
    assert BlasThreads.seen and set(BlasThreads.seen) == {1}
    assert _blas_threads() == before  # restored after the run
    BlasThreads.seen = []
    run_experiment({"nb": BlasThreads()}, "iris", DESIGN, progress=False)
    assert set(BlasThreads.seen) == set(before)  # serial fits keep BLAS's own setting


@pytest.mark.parametrize("terminal, n_jobs", [("1", 1), ("1", 2), ("0", 1), (None, 1)])
def test_progress_bar_only_on_a_terminal(monkeypatch, capfd, terminal, n_jobs):
    # rich decides whether stderr is a terminal; TTY_COMPATIBLE is its switch for
    # force_terminal (https://rich.readthedocs.io/en/latest/console.html#environment-variables).
    for name in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    if terminal is not None:
        monkeypatch.setenv("TTY_COMPATIBLE", terminal)
    run_experiment("nb,dummy", "iris", DESIGN, n_jobs=n_jobs, progress=True,
                   backend="threading" if n_jobs > 1 else None)
    err = capfd.readouterr().err
    if terminal == "1":
        # fits done out of 2 models x 2 runs x 3 folds, and the estimated time remaining
        assert "fits" in err and "12/12" in err and "ETA" in err
    else:
        assert err == ""


@pytest.mark.slow
def test_a_fit_of_a_second_or_more_is_in_the_journal_before_the_next_fit(tmp_path):
    # Issue 14: quick fits are written to the journal together (once a second); a slow fit,
    # whose loss would cost more, is written out at once.
    out = tmp_path / "r.csv"
    journal = out.with_name(out.name + ".journal")
    seen = []

    class Slow(GaussianNB):
        def fit(self, X, y):
            seen.append(journal.read_text().count("\n") if journal.exists() else 0)
            time.sleep(1.05)
            return super().fit(X, y)

    run_experiment({"slow": Slow()}, "iris", "1x3", out=out, progress=False)
    assert seen == [0, 1, 2]
