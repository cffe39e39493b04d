"""``outperform benchmark``: a paired cross-validation experiment, then Q2 and Q3."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .._validation import OutperformError
from . import _options as opt
from ._errors import err
from ._options import Format
from ._output import _backend, _exit_on_bad_input, emit_reports, writing


def benchmark(
    models: str = typer.Option("logreg,rf,nb,knn,svm", help="Comma-separated model names: "
                               "logreg, rf, nb, knn, svm, tree, dummy, lda, bagging, et, "
                               "linear_svm, mlp, adaboost."),
    datasets: str = typer.Option("sklearn", help="'sklearn' (iris, wine, breast_cancer, digits) "
                                 "or a comma-separated subset."),
    cv: str = typer.Option("10x10", help="Design: RxK (R repeats of stratified K-fold), 5x2, or "
                           "holdout:RxFRACTION (R >= 2)."),
    metric: Optional[str] = opt.metric("A scikit-learn scorer name (default: accuracy)."),
    out: Optional[Path] = opt.out("Results file (.parquet or .csv), written "
                                       "before the analysis; default "
                                       "outperform-benchmark-<cv>-<metric>-seed<seed>.parquet in "
                                       "the working directory. A rerun with the same file "
                                       "resumes where it stopped."),
    n_jobs: int = opt.n_jobs("Parallel fits (joblib; -1: all cores)."),
    scheduler: Optional[str] = opt.scheduler(),
    seed: int = opt.seed("random_state of the splits (recorded in the output)."),
    rope: Optional[float] = opt.rope(),
    alpha: float = opt.alpha(),
    fmt: Format = opt.format_("Format of the analysis printed after the fits (text, markdown, "
                              "json, html, latex): every Q2 report, then the Q3 one."),
    fragment: bool = opt.fragment(),
    predictions: bool = typer.Option(False, "--predictions", help="Also write every test "
                                     "example's prediction to <out>.predictions.<suffix> "
                                     "(columns task, model, run, fold, example, y_true, "
                                     "y_pred, correct): with one run (--cv 1xK) `outperform "
                                     "leaderboard` ranks the models on it."),
) -> None:
    """Run a paired cross-validation experiment on bundled data, then compare (Q2 and Q3).

    Every model sees the same splits. The per-fold table is written to --out as the fits
    finish (a progress bar on a terminal); the command then prints the Q2 comparison
    (correlated t-tests) on each data set and the Q3 comparison (Friedman and post-hoc tests)
    across them.
    """
    import re
    import time

    from .._validation import TooFewError
    from ..compare import compare
    from ..experiments import (check_run_options, get_models, load_datasets, parse_design,
                               run_experiment)

    # OSError: the results file cannot be written (permissions, a full disk).
    metric = metric or "accuracy"
    with _exit_on_bad_input((OutperformError, ValueError, OSError)):
        opt.check_fragment(fragment, fmt)
        # every option checked before the first fit (--alpha 1 or --rope -1 used to run
        # every fit and then skip the analysis)
        check_run_options(metrics=(metric,), n_jobs=n_jobs, out=out, alpha=alpha, rope=rope)
        design = parse_design(cv, random_state=seed)
        n_splits = design.n_runs * design.n_folds
        if n_splits < 2:
            raise TooFewError(
                f"--cv {cv} gives one train/test split per data set, and the Q2 tests "
                "(corrected resampled t-test, correlated Bayesian t-test) need at least 2: use "
                "holdout:RxF with R >= 2 (e.g. holdout:30x0.2) or k-fold CV (e.g. 10x10). On "
                "one test set, compare per-example predictions with `outperform "
                "compare-predictions` (McNemar).")
        _cost(models, datasets, n_splits, n_jobs, scheduler)  # before scikit-learn loads
        estimators, data = get_models(models), load_datasets(datasets)
        if out is None:
            name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{design.name}-{metric}-seed{seed}")
            out = Path(f"outperform-benchmark-{name}.parquet")
        with _backend(scheduler, n_jobs) as backend:
            err.print(f"{len(estimators)} models x {len(data)} data sets x {n_splits} splits "
                      f"({design.name}) = {len(estimators) * len(data) * n_splits} fits; "
                      f"results go to {out} as they finish.")
            started = time.perf_counter()
            try:
                with writing(out):     # a full disk names the results file
                    table = run_experiment(estimators, data, design, metrics=(metric,),
                                           n_jobs=n_jobs, out=out, backend=backend,
                                           store_predictions=predictions)
            except KeyboardInterrupt:
                err.print(f"interrupted: the finished fits are kept in {out}; the same "
                          "command resumes from there.")
                raise typer.Exit(130)
    err.print(f"per-fold results written to {out} ({time.perf_counter() - started:.0f} s).")
    if predictions:
        from ..experiments import predictions_path

        table = table[0]
        err.print(f"per-example predictions written to {predictions_path(out)}.")
    parts = {}      # name -> report, or why it was not run
    for task in table["task"].unique():
        try:
            parts[f"Q2 on {task}"] = compare(table[table["task"] == task], metric=metric,
                                             rope=rope, alpha=alpha)
        except OutperformError as exc:
            parts[f"Q2 on {task}"] = str(exc)
    if table["task"].nunique() > 1:
        try:
            parts["Q3 across data sets"] = compare(table, metric=metric, alpha=alpha)
        except OutperformError as exc:
            parts["Q3 across data sets"] = str(exc)
    emit_reports(f"outperform benchmark ({out})", parts, fmt, fragment)


def _cost(models: str, datasets: str, n_splits: int, n_jobs: int, scheduler) -> None:
    """Announce the fits' time before the first (:func:`outperform._cost.check_cost`) from
    each named model's measured time on each built-in data set
    (:data:`outperform._cost.FIT_SECONDS`), from the options as given (scikit-learn is not
    loaded yet); names it does not know are not estimated (get_models and load_datasets
    refuse them after)."""
    import os

    from .._cost import FIT_DATASETS, FIT_SECONDS, check_cost

    names = {m.strip() for m in models.split(",")}
    sets = {d.strip() for d in datasets.split(",")}
    sets = (sets - {"sklearn"}) | (set(FIT_DATASETS) if "sklearn" in sets else set())
    known = [FIT_SECONDS[m][FIT_DATASETS.index(d)] for m in names for d in sets
             if m in FIT_SECONDS and d in FIT_DATASETS]
    if not known:
        return
    workers = 1 if scheduler is not None else max(
        1, n_jobs if n_jobs > 0 else (os.cpu_count() or 1) + 1 + n_jobs)
    fits = len(known) * n_splits
    check_cost("fits", fits, work=f"{fits:,} fits of the built-in models on {workers} "
               "worker(s)", bytes_per_unit=0.0, max_seconds=float("inf"),
               seconds_per_unit=sum(known) / len(known) / workers,
               advice="fewer repeats in --cv (e.g. 2x5), fewer --models or --datasets; "
                      "--n-jobs -1 or --scheduler shares the fits")
