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
"""
from __future__ import annotations

import argparse
import sys
import time

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
    args = parser.parse_args()
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
