"""Overhead of the experiment runner per fit, excluding model time, for 10x10 CV.

The runner is timed against a bare loop doing the same work on the same splits (clone the
estimator, index the fold, fit, score): the difference is what the runner adds per fit
(job dispatch, timing, bookkeeping, journal writes, final table). Models are trivially fast
(DummyClassifier, GaussianNB) so that the overhead is as visible as it can be; with real
models it is a smaller share still. Goal: under 5 % of the bare loop without ``out``.

Run:  .venv/bin/python benchmarks/bench_runner_overhead.py
"""
from __future__ import annotations

import platform
import tempfile
import time
from pathlib import Path

from sklearn.base import clone
from sklearn.metrics import check_scoring

from outperform.experiments import datasets, designs, models, runner

REPEATS = 5  # best of, to keep other load on the machine out of the figures


def bare_loop(data, estimators, design, scorer):
    for X, y in data.values():
        for _, _, train, test in design.split(X, y):
            for est in estimators.values():
                fitted = clone(est).fit(X[train], y[train])
                scorer(fitted, X[test], y[test])


def best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    data = datasets.load_datasets("sklearn")
    estimators = models.get_models("dummy,nb")
    design = designs.parse_design("10x10")
    scorer = check_scoring(None, scoring=["accuracy"])
    n_fits = len(data) * len(estimators) * design.n_runs * design.n_folds
    print(f"{platform.python_version()} on {platform.machine()}: 10x10 CV, "
          f"{len(data)} data sets x {len(estimators)} models = {n_fits} fits, best of {REPEATS}")

    bare = best(lambda: bare_loop(data, estimators, design, scorer))
    print(f"{'bare loop':<28}{bare:8.3f} s  {1e6 * bare / n_fits:7.1f} us/fit")

    with tempfile.TemporaryDirectory() as tmp:
        cases = {"runner": None, "runner, out=.csv": "r.csv",
                 "runner, out=.parquet": "r.parquet"}
        for label, name in cases.items():
            def run(name=name):
                out = None
                if name:
                    out = Path(tmp) / name
                    for p in (out, runner.predictions_path(out)):
                        p.unlink(missing_ok=True)  # a fresh run, not a resume
                return runner.run_experiment(estimators, data, design, out=out,
                                             progress=False)
            wall = best(run)
            table = run()
            inside = (table["fit_time"] + table["score_time"]).sum()
            over = wall - bare
            print(f"{label:<28}{wall:8.3f} s  overhead {1e6 * over / n_fits:7.1f} us/fit = "
                  f"{100 * over / bare:5.1f} % of the bare loop; fit+score times "
                  f"{100 * inside / wall:5.1f} % of wall time")


if __name__ == "__main__":
    main()
