"""Stratified bootstrap aggregates over runs x tasks (issue 18's benchmark).

Times ``outperform.stats.aggregate_runs`` on rliable's score dict (mean, median, IQM and
optimality gap at once) for 20 models x 50 tasks x 10 runs with 50,000 stratified resamples
(goal: under 5 s), next to rliable's ``get_interval_estimates`` on the same arrays, alternating
ours / rliable / ours in one run. Ours is timed unpaired (rliable's independent resampling)
and paired. rliable loops in Python over the resamples (arch's bootstrap), about 20 s per
model here, so it is timed on ``--rliable-models`` models and scaled to all of them; the
intervals are printed side by side for the first model. Wall and CPU (process) times are
printed: the machine is shared, and the CPU time is the steadier of the two.

rliable is a peer outside the venv: ``pip install --no-deps --target /tmp/runs_peers rliable
arch absl-py``; rliable 1.2 passes ``random_state=`` that arch >= 6 refuses, which is dropped.

Run:  python benchmarks/bench_runs.py [--models 20] [--tasks 50] [--runs 10]
                                      [--resamples 50000] [--rliable-models 1]

``--command`` (issue 31): the whole ``outperform aggregate`` process on a long CSV of 50 models
x 100 tasks x 20 runs (``write_table``: the scores of ``make_scores``), by default (2,000
resamples, the neighbours' pairs) and with ``--pairs all``, as fresh processes (wall, and CPU
of the child), alternating with rliable doing the same work in this process: pandas reads and
pivots the CSV, then ``get_interval_estimates`` of the four aggregates per model, of
``probability_of_improvement`` per pair, and ``create_performance_profile`` (rliable's start
and imports are not counted; its bootstrap is timed on ``--rliable-models`` models and as many
pairs, and scaled to all of them).

Run:  PYTHONPATH=src python benchmarks/bench_runs.py --command [--rounds 2] [--rliable-models 1]
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from outperform.stats import aggregate_runs

PEERS = "/tmp/runs_peers"


def make_scores(models: int, tasks: int, runs: int, seed: int = 0) -> list[np.ndarray]:
    """Normalised scores (runs, tasks) per model: task difficulty + model skill + run noise."""
    rng = np.random.default_rng(seed)
    difficulty = rng.uniform(0.2, 0.9, tasks)
    return [difficulty + rng.normal(0, 0.05) + rng.normal(0, 0.1, (runs, tasks))
            for _ in range(models)]


def rliable_intervals(arrays, resamples):
    sys.path.append(PEERS)
    import arch.bootstrap as arch_bs
    from rliable import library, metrics
    for cls in (arch_bs.IIDBootstrap, arch_bs.IndependentSamplesBootstrap):
        def init(self, *args, random_state=None, _init=cls.__init__, **kwargs):
            _init(self, *args, **kwargs)
        cls.__init__ = init

    def four(s):
        return np.array([metrics.aggregate_mean(s), metrics.aggregate_median(s),
                         metrics.aggregate_iqm(s), metrics.aggregate_optimality_gap(s)])
    np.random.seed(0)
    # rliable.library.get_interval_estimates({name: (runs, tasks)}, func, reps=resamples)
    return library.get_interval_estimates({str(i): a for i, a in enumerate(arrays)}, four,
                                          reps=resamples)[1]


def write_table(path: Path, models: int = 50, tasks: int = 100, runs: int = 20,
                seed: int = 0) -> Path:
    """The long table (task, model, run, score) of ``make_scores``: one row per run."""
    import pandas as pd

    scores = np.stack(make_scores(models, tasks, runs, seed))       # (models, runs, tasks)
    m, r, t = np.meshgrid(np.arange(models), np.arange(runs), np.arange(tasks), indexing="ij")
    pd.DataFrame({"task": [f"task{i:03d}" for i in t.ravel()],
                  "model": [f"model{i:02d}" for i in m.ravel()],
                  "run": r.ravel(), "score": scores.ravel()}).to_csv(path, index=False)
    return path


def _command(path: Path, *extra: str) -> tuple[float, float, int]:
    """Wall and CPU seconds of one fresh ``outperform aggregate`` process, and its lines."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "outperform.cli", "aggregate", str(path),
                           *extra], capture_output=True, text=True, env=os.environ, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"    {done.stderr.strip().splitlines()[-1]}")
    return wall, cpu, len(done.stdout.splitlines())


def rliable_job(path: Path, timed_models: int, resamples: int = 2000):
    """rliable's (wall, CPU) seconds: reading, and per model (aggregates and profile) and per
    pair (P(X > Y)) of the aggregate command's work, timed on ``timed_models``."""
    import pandas as pd

    sys.path.append(PEERS)
    from rliable import library, metrics

    rliable_intervals([np.zeros((2, 2))], 1)          # arch patched, imports done
    (frame, arrays), *read = _timed(lambda: _pivot(pd.read_csv(path)))
    names = list(arrays)[:timed_models + 1]
    score_dict = {m: arrays[m] for m in names[:timed_models]}
    taus = np.linspace(frame["score"].min(), frame["score"].max(), 101)

    def four(s):
        return np.array([metrics.aggregate_mean(s), metrics.aggregate_median(s),
                         metrics.aggregate_iqm(s), metrics.aggregate_optimality_gap(s)])
    np.random.seed(0)
    model = np.add(_timed(lambda: library.get_interval_estimates(score_dict, four,
                                                                 reps=resamples))[1:],
                   _timed(lambda: library.create_performance_profile(score_dict, taus,
                                                                     reps=resamples))[1:])
    pair = _timed(lambda: library.get_interval_estimates(
        {f"{x},{y}": [arrays[x], arrays[y]] for x, y in zip(names, names[1:])},
        metrics.probability_of_improvement, reps=resamples))[1:]
    return np.array(read), model / timed_models, np.array(pair) / timed_models


def _pivot(frame):
    frame = frame.sort_values(["model", "task", "run"])
    return frame, {m: g["score"].to_numpy().reshape(-1, g["run"].nunique()).T
                   for m, g in frame.groupby("model")}


def command_bench(rounds: int, timed_models: int) -> None:
    """The whole aggregate command on 50 x 100 x 20 (issue 31), alternating with rliable."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_table(Path(folder) / "runs.csv")
        print(f"50 models x 100 tasks x 20 runs ({path.stat().st_size / 1e6:.1f} MB CSV), 2000 "
              f"resamples; load average {os.getloadavg()[0]:.1f}")
        for r in range(rounds):
            ours = {"default": _command(path), "--pairs all": _command(path, "--pairs", "all")}
            try:
                read, model, pair = rliable_job(path, timed_models)
            except ImportError as exc:
                print(f"rliable not importable ({exc}); see the module docstring")
                return
            print(f"  rliable: reading {read[0]:.2f} s, per model {model[0]:.1f} s wall "
                  f"{model[1]:.1f} s CPU, per pair {pair[0]:.1f} s wall {pair[1]:.1f} s CPU")
            for (label, (wall, cpu, n_lines)), n_pairs in zip(ours.items(), (49, 1225)):
                r_wall, r_cpu = read + 50 * model + n_pairs * pair
                print(f"round {r + 1} {label:12s} outperform {wall:6.2f} s wall {cpu:6.2f} s CPU "
                      f"({n_lines} lines) | rliable {r_wall:7.1f} s wall {r_cpu:7.1f} s CPU | "
                      f"ratio {wall / r_wall:.4f} wall, {cpu / r_cpu:.4f} CPU "
                      f"(load {os.getloadavg()[0]:.1f})")


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    out = call()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=20)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--resamples", type=int, default=50_000)
    parser.add_argument("--rliable-models", type=int, default=1)
    parser.add_argument("--command", action="store_true",
                        help="the whole aggregate command on 50 x 100 x 20 (issue 31)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if args.command:
        command_bench(args.rounds, args.rliable_models)
        return
    arrays = make_scores(args.models, args.tasks, args.runs)
    scores = {str(i): a for i, a in enumerate(arrays)}
    print(f"{args.models} models x {args.tasks} tasks x {args.runs} runs, {args.resamples} "
          "resamples, 4 aggregates")

    def ours(paired=False):
        return aggregate_runs(scores, n_resamples=args.resamples, random_state=0, paired=paired)

    first, wall1, cpu1 = _timed(ours)
    print(f"outperform (unpaired):   {wall1:6.2f} s wall, {cpu1:6.2f} s CPU")
    try:
        theirs, wall_r, cpu_r = _timed(
            lambda: rliable_intervals(arrays[:args.rliable_models], args.resamples))
    except ImportError as exc:
        print(f"rliable not importable ({exc}); see the module docstring")
        return
    scale = args.models / args.rliable_models
    _, wall2, cpu2 = _timed(ours)
    print(f"rliable:                 {wall_r * scale:6.1f} s wall, {cpu_r * scale:6.1f} s CPU "
          f"(timed on {args.rliable_models} model(s), x {scale:g})")
    print(f"outperform (unpaired):   {wall2:6.2f} s wall, {cpu2:6.2f} s CPU (again)")
    _, wall3, cpu3 = _timed(lambda: ours(paired=True))
    print(f"outperform (paired):     {wall3:6.2f} s wall, {cpu3:6.2f} s CPU")
    wall, cpu = min(wall1, wall2), min(cpu1, cpu2)
    print(f"ratio outperform (unpaired, best of two) / rliable: {wall / (wall_r * scale):.4f} "
          f"wall, {cpu / (cpu_r * scale):.4f} CPU (rliable {wall_r * scale / wall:.0f}x / "
          f"{cpu_r * scale / cpu:.0f}x slower)")
    for i, name in enumerate(("mean", "median", "iqm", "optimality_gap")):
        e = first["0"][name]
        print(f"  {name:<15} ours [{e.low:.4f}, {e.high:.4f}]  rliable "
              f"[{theirs['0'][0, i]:.4f}, {theirs['0'][1, i]:.4f}]")


if __name__ == "__main__":
    main()
