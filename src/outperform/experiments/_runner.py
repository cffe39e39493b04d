"""Run a paired resampling experiment: every model on the same splits of every data set.

The result is the tidy table of DESIGN.md (one row per task, model, run and fold) that the
Q2 tests read, with ``n_train`` and ``n_test`` for the correlation correction, and on demand
a table of per-example predictions for the Q1 tests and the Poisson-binomial test.

Results survive interruption: each finished fit is appended at once as one JSON line to a
journal next to ``out`` (``<out>.journal``); when the run ends, normally or not, the journal
is merged into ``out`` (Parquet or CSV) by writing a temporary file and renaming it over
``out``, so ``out`` is always a complete, readable table. A torn last journal line (a killed
process) is ignored, and a journal left by a killed run is merged at the start of the next.
A rerun with the same ``out`` skips the fits already recorded and computes the rest.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.metrics import check_scoring

from .._parallel import joblib_backend, progress_bar
from .._validation import InvalidInputError
from ._datasets import load_datasets
from ._designs import Design, parse_design
from ._models import get_models

KEY = ["task", "model", "run", "fold"]
_FIXED = [*KEY, "n_train", "n_test", "fit_time", "score_time", "design", "random_state"]
_PRED_COLUMNS = [*KEY, "example", "y_true", "y_pred", "correct"]
_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}


def run_experiment(models, datasets, design, *, metrics=("accuracy",), n_jobs=1, out=None,
                   store_predictions=False, progress=True, backend=None):
    """Fit and score every model on the same resampling splits of every data set.

    The splits are computed once per data set by ``design`` and shared by all models, so
    the scores are paired by (task, run, fold) as the Q2 tests require. Each fit uses a
    fresh clone of the estimator.

    Parameters
    ----------
    models : str, sequence of str, or mapping
        ``"logreg,rf,nb,knn,svm,tree,dummy"`` names, or ``{name: estimator}``
        (see :func:`~outperform.experiments._models.get_models`).
    datasets : str, sequence of str, or mapping
        ``"sklearn"``, bundled names (``"iris,wine"``), or ``{name: (X, y)}`` / callables
        (see :func:`~outperform.experiments._datasets.load_datasets`).
    design : str or Design
        ``"10x10"``, ``"5x2"``, ``"holdout:30x0.2"`` (read by
        :func:`~outperform.experiments._designs.parse_design`, ``random_state=0``) or a
        design object.
    metrics : str, sequence of str, or mapping, default ("accuracy",)
        scikit-learn scorer names (``sklearn.metrics.get_scorer_names()``), or
        ``{column: scorer}``. Scorers are higher-is-better: losses come negated
        (``"neg_log_loss"``).
    n_jobs : int, default 1
        Number of fits run in parallel by joblib (-1: all cores). With the Dask backend
        joblib uses every thread of the cluster whatever ``n_jobs`` says; a cluster with
        a single thread in all runs the fits in this process.
    out : str or Path, optional
        ``.parquet`` (or ``.pq``) or ``.csv`` file the results are saved to as they come
        and resumed from (see the module docstring). With ``store_predictions`` the
        predictions go to :func:`predictions_path` of ``out``.
    store_predictions : bool, default False
        Also return the per-example predictions on the test folds.
    progress : bool, default True
        Show a progress bar on standard error when it is a terminal.
    backend : None, str or dask.distributed.Client, default None
        joblib backend: None uses the current joblib configuration (loky by default);
        ``"loky"``, ``"threading"``, or ``"dask"`` (with the current Dask client); a
        ``dask.distributed.Client`` runs the fits on that client's cluster.

    Returns
    -------
    scores : DataFrame
        One row per (task, model, run, fold), sorted in the order the tasks and models were
        given, with columns ``task, model, run, fold, n_train, n_test``, one column per
        metric, ``fit_time, score_time`` (seconds), ``design`` (e.g. ``"10x10"``) and
        ``random_state`` of the design. ``scores.attrs["design"]`` describes the design.
        With ``out``, this includes the fits done by earlier runs of the same experiment.
    predictions : DataFrame
        Only with ``store_predictions``: returned as ``(scores, predictions)``, one row per
        (task, model, run, fold, example) with columns ``task, model, run, fold, example``
        (row position in the data set, from 0), ``y_true, y_pred, correct``. In a
        Parquet file, the labels of tasks that mix numbers and text are stored as text.

    Notes
    -----
    Only one run at a time may write to a given ``out``.

    Raises
    ------
    InvalidInputError, TooFewError
        Unknown model, data set, metric, backend or file suffix; no model or data set;
        X and y of different lengths; a data set the design cannot split; an ``out`` that
        holds results of another design, random_state, metric set or data set size.
    Exception
        Whatever a model raises; a note says which (task, model, run, fold) failed. The
        fits finished before it are kept in ``out``.

    Examples
    --------
    >>> df = run_experiment("nb,dummy", "iris", "2x3", progress=False)
    >>> df.shape
    (12, 11)
    >>> df.groupby("model", sort=False)["accuracy"].mean().round(3).to_dict()
    {'nb': 0.957, 'dummy': 0.32}
    >>> df[["n_train", "n_test"]].iloc[0].tolist()
    [100, 50]
    """
    models = get_models(models)
    data = load_datasets(datasets)
    design = parse_design(design)
    metric_names, scorer = _scorer(metrics)
    store = _Store(out, store_predictions) if out is not None else None

    splits = {task: list(design.split(X, y)) for task, (X, y) in data.items()}
    done = store.done(design, metric_names, splits) if store else set()
    jobs = [(task, name, run, fold, train, test)
            for task, task_splits in splits.items() for name in models
            for run, fold, train, test in task_splits if (task, name, run, fold) not in done]

    records = []
    sink = store.append if store else records.append
    fixed = {"design": design.name, "random_state": design.random_state}
    try:
        with joblib_backend(backend), progress_bar(len(jobs), progress, "fitting") as advance:
            results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                delayed(_fit_and_score)(models[name], *data[task], train, test, scorer,
                                        store_predictions, (task, name, run, fold))
                for task, name, run, fold, train, test in jobs)
            for record in results:
                record["row"].update(fixed)
                sink(record)
                advance()
    finally:
        if store:
            store.consolidate()

    if store:
        scores, predictions = store.read()
    else:
        scores, predictions = _frames(records, store_predictions)
    scores = _select(scores, data, models)
    scores = scores.reindex(columns=[*KEY, "n_train", "n_test", *metric_names, *_FIXED[6:]])
    scores.attrs["design"] = design.to_dict()
    if not store_predictions:
        return scores
    return scores, _select(predictions, data, models)


def predictions_path(out) -> Path:
    """Where :func:`run_experiment` writes the predictions for results file ``out``.

    Examples
    --------
    >>> predictions_path("runs/results.parquet").as_posix()
    'runs/results.predictions.parquet'
    """
    out = Path(out)
    return out.with_name(f"{out.stem}.predictions{out.suffix}")


def _scorer(metrics):
    if isinstance(metrics, str):
        metrics = (metrics,)
    if not isinstance(metrics, Mapping):
        metrics = tuple(metrics)
    try:
        scorer = check_scoring(None, scoring=metrics)
    except (ValueError, TypeError) as exc:
        raise InvalidInputError(f"bad metrics {metrics!r}: {exc}") from None
    names = [str(m) for m in metrics]
    clash = sorted(set(names) & set(_FIXED))
    if clash:
        raise InvalidInputError(f"metric name(s) {clash} clash with the table's own columns.")
    return names, scorer


def _take(X, idx):
    return X.iloc[idx] if hasattr(X, "iloc") else X[idx]


def _fit_and_score(estimator, X, y, train, test, scorer, store_predictions, key):
    try:
        est = clone(estimator)
        X_test, y_test = _take(X, test), y[test]
        start = time.perf_counter()
        est.fit(_take(X, train), y[train])
        fit_end = time.perf_counter()
        scores = scorer(est, X_test, y_test)
        score_time = time.perf_counter() - fit_end
        pred = None
        if store_predictions:
            y_pred = np.asarray(est.predict(X_test))
            pred = {"example": test.tolist(), "y_true": y_test.tolist(),
                    "y_pred": y_pred.tolist(), "correct": (y_pred == y_test).tolist()}
    except Exception as exc:
        task, model, run, fold = key
        if hasattr(exc, "add_note"):  # Python >= 3.11
            exc.add_note(f"(while fitting model {model!r} on task {task!r}, run {run}, "
                         f"fold {fold})")
        raise
    row = dict(zip(KEY, key), n_train=len(train), n_test=len(test),
               **{k: float(v) for k, v in scores.items()},
               fit_time=fit_end - start, score_time=score_time)
    return {"row": row, "pred": pred}


def _frames(records, store_predictions):
    scores = pd.DataFrame([r["row"] for r in records], columns=None if records else _FIXED)
    if not store_predictions:
        return scores, None
    records = [r for r in records if r["pred"] is not None]
    sizes = [len(r["pred"]["example"]) for r in records]
    columns = {k: np.repeat([r["row"][k] for r in records], sizes) for k in KEY}
    for k in _PRED_COLUMNS[len(KEY):]:
        columns[k] = [v for r in records for v in r["pred"][k]]
    return scores, pd.DataFrame(columns, columns=_PRED_COLUMNS)


def _select(df, data, models):
    """Rows of the requested tasks and models, sorted in the order they were given."""
    order = {**{t: i for i, t in enumerate(data)}, **{m: i for i, m in enumerate(models)}}
    df = df[df["task"].isin(list(data)) & df["model"].isin(list(models))]
    by = [c for c in [*KEY, "example"] if c in df.columns]
    df = df.sort_values(by, key=lambda s: s.map(order) if s.name in ("task", "model") else s,
                        kind="stable")
    return df.reset_index(drop=True)


class _Store:
    """Results file ``out`` (+ predictions file) and the journal of fits not merged yet."""

    def __init__(self, out, store_predictions):
        self.path = Path(out)
        suffix = self.path.suffix.lower()
        if suffix not in _FORMATS:
            raise InvalidInputError(
                f"out must end in {sorted(_FORMATS)} to choose the file format, got {out!r}."
            )
        self.format = _FORMATS[suffix]
        self.pred_path = predictions_path(self.path)
        self.journal = self.path.with_name(self.path.name + ".journal")
        self.store_predictions = store_predictions
        self._fh = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.consolidate()  # a journal left by a killed run

    def done(self, design: Design, metric_names, splits) -> set:
        """Keys already computed, after checking ``out`` holds the same experiment."""
        scores = self._read(self.path)
        if scores.empty:
            return set()
        seen = scores[["design", "random_state"]].drop_duplicates()
        if (len(seen) != 1 or seen.iloc[0, 0] != design.name
                or seen.iloc[0, 1] != design.random_state):
            found = ", ".join(f"{d!r} random_state={r}" for d, r in seen.itertuples(index=False))
            raise InvalidInputError(
                f"{self.path} holds results of design {found}, not {design.name!r} "
                f"random_state={design.random_state}; use the same design or another out."
            )
        found = [c for c in scores.columns if c not in _FIXED]
        if sorted(found) != sorted(metric_names):
            raise InvalidInputError(
                f"{self.path} holds metrics {found}, not {list(metric_names)}; use the same "
                "metrics or another out."
            )
        self._check_sizes(scores, splits)
        keys = set(scores[KEY].itertuples(index=False, name=None))
        if self.store_predictions:
            predictions = self._read(self.pred_path)
            keys &= set(predictions[KEY].drop_duplicates().itertuples(index=False, name=None))
        return keys

    def _check_sizes(self, scores, splits):
        sizes = pd.DataFrame([(t, r, f, len(tr), len(te)) for t, s in splits.items()
                              for r, f, tr, te in s],
                             columns=["task", "run", "fold", "n_train_now", "n_test_now"])
        both = scores.merge(sizes, on=["task", "run", "fold"])
        bad = both[(both["n_train"] != both["n_train_now"]) | (both["n_test"] != both["n_test_now"])]
        if len(bad):
            raise InvalidInputError(
                f"{self.path} holds results for data set {bad['task'].iloc[0]!r} with other "
                "split sizes than now: the data set changed; use another out."
            )

    def append(self, record):
        if self._fh is None:
            self._fh = open(self.journal, "a", encoding="utf-8")
        # One write per record, so a killed process leaves at most one torn last line.
        self._fh.write(json.dumps(record, default=str) + "\n")
        self._fh.flush()

    def _read_journal(self):
        if not self.journal.exists():
            return []
        records = []
        with open(self.journal, encoding="utf-8") as fh:
            for line in fh:
                if not line.endswith("\n"):
                    break  # torn by a killed process: that fit is redone
                records.append(json.loads(line))
        return records

    def consolidate(self):
        """Merge the journal into the results files (atomically) and delete it."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        records = self._read_journal()
        if records:
            has_preds = any(r["pred"] is not None for r in records)
            new_scores, new_preds = _frames(records, has_preds)
            old_scores, old_preds = self.read()
            if has_preds:
                self._write(_replace(old_preds, new_preds), self.pred_path)
            self._write(_replace(old_scores, new_scores), self.path)
        self.journal.unlink(missing_ok=True)

    def read(self):
        return self._read(self.path), self._read(self.pred_path)

    def _read(self, path):
        if not path.exists():
            return pd.DataFrame(columns=_PRED_COLUMNS if path == self.pred_path else _FIXED)
        if self.format == "parquet":
            return pd.read_parquet(path)
        return pd.read_csv(path, dtype={"task": str, "model": str, "design": str})

    def _write(self, df, path):
        tmp = path.with_name(path.name + ".tmp")
        if self.format == "parquet":
            _storable_labels(df).to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)


def _replace(old, new):
    """``old`` without the fits present in ``new``, then ``new`` (a redone fit wins)."""
    if old.empty:
        return new
    redone = pd.MultiIndex.from_frame(new[KEY].drop_duplicates())
    keep = ~pd.MultiIndex.from_frame(old[KEY]).isin(redone)
    return pd.concat([old[keep], new], ignore_index=True)


def _storable_labels(df):
    # Parquet needs one type per column; labels of different tasks may mix ints and text.
    for col in ("y_true", "y_pred"):
        if col in df.columns and df[col].dtype == object and df[col].map(type).nunique() > 1:
            df = df.assign(**{col: df[col].astype(str)})
    return df

