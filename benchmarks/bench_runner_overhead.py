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

from outperform.experiments import (get_models, load_datasets, parse_design, predictions_path,
                                    run_experiment)

REPEATS = 7  # best of, interleaved, to keep other load on the machine out of the figures


def bare_loop(data, estimators, design, scorer):
    """The same fits and scores without the runner; returns the summed fit + score time."""
    inside = 0.0
    for X, y in data.values():
        for _, _, train, test in design.split(X, y):
            for est in estimators.values():
                fitted, X_test = clone(est), X[test]
                start = time.perf_counter()  # timed as the runner times fit_time + score_time
                fitted.fit(X[train], y[train])
                scorer(fitted, X_test, y[test])
                inside += time.perf_counter() - start
    return inside


def main() -> None:
    data = load_datasets("sklearn")
    estimators = get_models("dummy,nb")
    design = parse_design("10x10")
    scorer = check_scoring(None, scoring=["accuracy"])
    n_fits = len(data) * len(estimators) * design.n_runs * design.n_folds
    print(f"Python {platform.python_version()}: 10x10 CV, {len(data)} data sets x "
          f"{len(estimators)} models = {n_fits} fits, best of {REPEATS} interleaved runs")

    with tempfile.TemporaryDirectory() as tmp:
        def run(name):
            out = None
            if name:
                out = Path(tmp) / name
                for p in (out, predictions_path(out)):
                    p.unlink(missing_ok=True)  # a fresh run, not a resume
            table = run_experiment(estimators, data, design, out=out, progress=False)
            return (table["fit_time"] + table["score_time"]).sum()

        cases = {"bare loop": lambda: bare_loop(data, estimators, design, scorer),
                 "runner": lambda: run(None), "runner, out=.csv": lambda: run("r.csv"),
                 "runner, out=.parquet": lambda: run("r.parquet")}
        best = {label: (float("inf"), 0.0) for label in cases}
        cpu = {label: float("inf") for label in cases}
        for _ in range(REPEATS):
            for label, fn in cases.items():
                start, start_cpu = time.perf_counter(), time.process_time()
                inside = fn()
                wall = time.perf_counter() - start
                best[label] = min(best[label], (wall, inside))
                cpu[label] = min(cpu[label], time.process_time() - start_cpu)

    bare_wall, bare_inside = best["bare loop"]
    bare_outside = bare_wall - bare_inside  # cloning, indexing, looping: any loop pays it
    print(f"{'':<22}{'wall':>8}  {'outside fit+score':>18}  {'runner overhead per fit':>24}")
    for label, (wall, inside) in best.items():
        line = f"{label:<22}{wall:7.3f}s  {1e6 * (wall - inside) / n_fits:13.1f} us/fit"
        if label != "bare loop":
            extra = (wall - inside) - bare_outside
            line += f"  {1e6 * extra / n_fits:+9.1f} us = {100 * extra / bare_wall:+5.1f} %"
        print(line)
    print("overhead = (wall - fit - score) of the runner minus that of the bare loop, as a "
          "share of the bare loop's wall time; goal < 5 %")
    for label, (wall, _) in best.items():
        if label != "bare loop":
            print(f"ratio {label} / bare loop (wall): {wall / bare_wall:.3f}")
    # CPU time of this process (the fits run in it): on a machine shared with other jobs,
    # the steadier figure, as others' load stretches wall time but not our CPU time.
    for label, seconds in cpu.items():
        if label != "bare loop":
            print(f"ratio {label} / bare loop (CPU time of the process, best of "
                  f"{REPEATS}): {seconds / cpu['bare loop']:.3f}")


if __name__ == "__main__":
    main()
