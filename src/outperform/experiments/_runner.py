"""Run a paired resampling experiment: every model on the same splits of every data set.

The result is the tidy table of docs/design.md (one row per task, model, run and fold) that the
Q2 tests read, with ``n_train`` and ``n_test`` for the correlation correction, and on demand
a table of per-example predictions for the Q1 tests and the Poisson-binomial test.

Results survive interruption: each finished fit is appended to a journal next to ``out``
(``<out>.journal``; fits quicker than a second together, once a second), merged into ``out``
(Parquet or CSV) when the run ends, normally or not, by an atomic rename, so ``out`` is
always a complete, readable table. A rerun with the same ``out`` skips the fits already
recorded; unreadable journal lines are skipped with a warning naming them, records of another
experiment or conflicting records of one fit are refused naming the line, and a damaged
``out`` is set aside and rebuilt from the journal (see :mod:`._store`). A lock file
``<out>.lock`` keeps a second run from writing the same ``out`` at the same time. Worker
processes end with the run, however it ends (:func:`outperform._parallel.end_with_parent`).
"""
from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from sklearn.base import clone
from sklearn.metrics import check_scoring
from threadpoolctl import threadpool_limits

from .._parallel import joblib_backend, progress_bar
from .._validation import InvalidInputError
from ._journal import Experiment
from ._store import FIXED, KEY, ResultsStore, frames
from ._datasets import load_datasets
from ._designs import parse_design
from ._options import check_run_options
from ._models import get_models


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
    One run at a time writes to a given ``out``: it holds the lock file ``<out>.lock``
    (with its process id) while it runs, and a second run fails at once. The operating
    system releases the lock of a killed run; the next run takes it over with a warning.
    While fits run in parallel (``n_jobs != 1`` or a backend), each uses one BLAS thread.

    Raises
    ------
    InvalidInputError, TooFewError
        Before any fit (:func:`check_run_options`): an unknown metric, ``n_jobs`` 0, an
        ``out`` with another suffix, in a missing or read-only folder. Then: unknown model,
        data set or backend; no model or data set;
        X and y of different lengths; a data set the design cannot split; an ``out`` that
        holds results of another design, random_state, metric set or data set size, or that
        another run is writing; a journal line holding a fit of another experiment, or two
        lines holding one fit with different results (the message names the lines).
    OSError
        ``out`` cannot be written (``errno.ENOSPC``: a full disk); ``out`` keeps its previous
        content and the journal the new fits, for the next run.
    Exception
        Whatever a model raises; a note says which (task, model, run, fold) failed. The
        fits finished before it are kept in ``out``.

    Warns
    -----
    UserWarning
        Lines of the journal that cannot be read (the line numbers are named) are skipped
        and their fits computed again; a lock left by a killed run is taken over; an ``out``
        (or predictions file) that cannot be read is moved to ``<out>.damaged`` and rebuilt
        from the journal.

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
    check_run_options(metrics=metrics, n_jobs=n_jobs, out=out)   # before any work
    models = get_models(models)
    data = load_datasets(datasets)
    design = parse_design(design)
    metric_names, scorer = _scorer(metrics)
    splits = {task: list(design.split(X, y)) for task, (X, y) in data.items()}
    # nullcontext() gives store = None: the records stay in memory.
    experiment = Experiment.of(design, metric_names, splits)
    results_file = (ResultsStore(out, store_predictions, experiment) if out is not None
                    else contextlib.nullcontext())
    with results_file as store:
        done = store.done() if store else set()
        jobs = [(task, name, run, fold, train, test)
                for task, task_splits in splits.items() for name in models
                for run, fold, train, test in task_splits if (task, name, run, fold) not in done]
        records = []
        sink = store.append if store else records.append
        fixed = {"design": design.name, "random_state": design.random_state}
        in_process = _in_process(n_jobs, backend)
        # The backend only for parallel fits: set in this process, it would also send the
        # fits' own joblib calls (a forest's n_jobs, threads by default) to processes.
        workers = contextlib.nullcontext() if in_process else joblib_backend(backend)
        try:
            with workers, _blas_limit(n_jobs, backend), \
                    progress_bar(len(jobs), progress, "fits") as advance:
                calls = ((_fit_and_score, (models[name], *data[task], train, test, scorer,
                                           store_predictions, (task, name, run, fold)))
                         for task, name, run, fold, train, test in jobs)
                if in_process:
                    # joblib's sequential path costs ~0.1 ms of bookkeeping per fit.
                    results = (call(*args) for call, args in calls)
                else:
                    results = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                        delayed(call)(*args) for call, args in calls)
                for record in results:
                    record["row"].update(fixed)
                    sink(record)
                    advance()
        finally:
            if store:
                store.consolidate()
        scores, predictions = store.read() if store else frames(records, store_predictions)

    scores = _select(scores, data, models)
    scores = scores.reindex(columns=[*KEY, "n_train", "n_test", *metric_names, *FIXED[6:]])
    scores.attrs["design"] = design.to_dict()
    if not store_predictions:
        return scores
    return scores, _select(predictions, data, models)


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
    clash = sorted(set(names) & set(FIXED))
    if clash:
        raise InvalidInputError(f"metric name(s) {clash} clash with the table's own columns.")
    return names, scorer


def _blas_limit(n_jobs, backend):
    """One BLAS/OpenMP thread per fit while fits run in parallel.

    Several fits at once, each with as many BLAS threads as cores, oversubscribe the CPU: a
    LogisticRegression on ``digits`` took 80x longer with 2 OpenBLAS threads than with 1 on a
    busy 2-core machine. joblib's loky workers already get ``cores // n_jobs`` threads; the
    limit set here, in this process, covers the threading backend and in-process Dask
    workers (threadpoolctl limits are per process, so they are not set per fit, where
    concurrent threads would restore each other's limits).
    """
    if _in_process(n_jobs, backend):
        return contextlib.nullcontext()
    return threadpool_limits(limits=1)


def _in_process(n_jobs, backend) -> bool:
    """Whether the fits run one after the other in this process (no joblib workers)."""
    return backend is None and effective_n_jobs(n_jobs) == 1


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


def _select(df, data, models):
    """Rows of the requested tasks and models, sorted in the order they were given."""
    order = {**{t: i for i, t in enumerate(data)}, **{m: i for i, m in enumerate(models)}}
    df = df[df["task"].isin(list(data)) & df["model"].isin(list(models))]
    by = [c for c in [*KEY, "example"] if c in df.columns]
    df = df.sort_values(by, key=lambda s: s.map(order) if s.name in ("task", "model") else s,
                        kind="stable")
    return df.reset_index(drop=True)
