"""Timing and peak memory of all-pairs McNemar on a leaderboard (issue 3's benchmark).

Compares every pair of 200 models on 1,000,000 examples (0/1 correctness): discordance
counts, exact McNemar with Holm's adjustment, and Bayesian McNemar with the Williams ROPE.
Goal: under 3 s on a 2-core machine (requirement: under 10 s). ``--scaling`` also times the
counts for several numbers of models and examples.

Run:  python benchmarks/bench_leaderboard.py [--models 200] [--examples 1000000] [--scaling]

Peak memory is measured with tracemalloc (numpy reports its buffers to it) above the input
matrix, which is built first (200 MB as bool).
"""
from __future__ import annotations

import argparse
import resource
import time
import tracemalloc

import numpy as np

from outperform.bayes import pairwise_bayesian_mcnemar
from outperform.stats import pairwise_discordance, pairwise_mcnemar


def make_correct(k: int, n: int, seed: int = 0) -> np.ndarray:
    """Correlated models: accuracies 0.70-0.95, harder examples shared by all models."""
    rng = np.random.default_rng(seed)
    skill = rng.uniform(0.70, 0.95, size=k).astype(np.float32)
    hard = rng.random(n, dtype=np.float32) < 0.2
    correct = np.empty((k, n), dtype=bool)
    for i in range(k):  # row by row, so that generating the data stays small in memory
        u = rng.random(n, dtype=np.float32)
        correct[i] = np.where(hard, u < skill[i] - 0.5, u < skill[i])
    return correct


def timed(label: str, fn, *args, **kwargs):
    tracemalloc.start()
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(f"{label:<38s} {seconds:7.3f} s   peak {peak / 2**20:8.1f} MiB", flush=True)
    return out, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--examples", type=int, default=1_000_000)
    parser.add_argument("--scaling", action="store_true", help="also time counts vs k and n")
    args = parser.parse_args()
    k, n = args.models, args.examples

    correct = make_correct(k, n)
    print(f"{k} models x {n:,} examples, input {correct.nbytes / 2**20:.0f} MiB (bool), "
          f"{k * (k - 1) // 2:,} pairs")
    counts, t_counts = timed("discordance counts (bit-packed)", pairwise_discordance, correct)
    _, t_freq = timed("exact McNemar + Holm, all pairs", pairwise_mcnemar, counts)
    _, t_bayes = timed("Bayesian McNemar (ROPE), all pairs", pairwise_bayesian_mcnemar, counts)
    print(f"{'total (counts once, both analyses)':<38s} {t_counts + t_freq + t_bayes:7.3f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # KiB on Linux
    print(f"process peak resident memory (input and interpreter included): {rss:.0f} MiB")

    if args.scaling:
        print("\nscaling of the discordance counts (expected ~ k^2 n):")
        for kk in (50, 100, 200):
            for nn in (100_000, 300_000, 1_000_000):
                sub = correct[:kk, :nn] if kk <= k and nn <= n else make_correct(kk, nn)
                sub = np.ascontiguousarray(sub)
                t0 = time.perf_counter()
                pairwise_discordance(sub)
                dt = time.perf_counter() - t0
                print(f"  k = {kk:4d}  n = {nn:>9,}  {dt:7.3f} s   "
                      f"{dt / (kk * kk * nn) * 1e12:6.2f} ps per model pair-example")


if __name__ == "__main__":
    main()
