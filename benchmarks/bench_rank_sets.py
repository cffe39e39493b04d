"""Timing of rank confidence sets at leaderboard scale, next to an Arena-style bootstrap loop.

Issue 15's goals: simultaneous rank sets (and the marginal and percentile ones, all in one
call) for 200 models x 10,000 items x 10,000 paired resamples in under 5 s, and for 1,000
models x 100,000 0/1 items (1,000 resamples, the default) in under 60 s.

Ours: ``outperform.stats.rank_sets`` (the user-facing kernel; ``compare.leaderboard`` adds
reading and the pairwise tests). Reference: the bootstrap loop of leaderboard notebooks such
as Chatbot Arena's (resample the battles/items with replacement, recompute every model's
score, one resample at a time, then rank each resample and take percentiles), written with
numpy for items: it gives only the percentile intervals, no simultaneous sets. It is
timed on ``--peer-resamples`` resamples and extrapolated to all of them (it is linear in
them). Rounds alternate ours and the reference; the best time of the rounds is printed.

Run:  python benchmarks/bench_rank_sets.py [--case 200x10k | 1000x100k | both]
          [--rounds 2] [--weights multinomial] [--peer-resamples 200]
"""
from __future__ import annotations

import argparse
import os
import resource
import time

import numpy as np

from outperform.stats import rank_sets

CASES = {"200x10k": (200, 10_000, 10_000), "1000x100k": (1000, 100_000, 1000)}


def make_correct(n: int, k: int, seed: int = 0) -> np.ndarray:
    """n items x k models of 0/1 correctness: accuracies 0.55-0.90, item difficulty shared."""
    rng = np.random.default_rng(seed)
    skill = np.sort(rng.uniform(0.55, 0.90, size=k)).astype(np.float32)
    hard = rng.random((n, 1), dtype=np.float32) < 0.2
    out = np.empty((n, k), dtype=bool)
    rows = max(1, (1 << 22) // k)
    for r in range(0, n, rows):  # blocks of items, so that building the data stays small
        u = rng.random((min(rows, n - r), k), dtype=np.float32)
        out[r:r + rows] = np.where(hard[r:r + rows], u < skill - 0.4, u < skill)
    return out


def arena_loop(x: np.ndarray, n_resamples: int, seed: int = 0) -> np.ndarray:
    """Chatbot-Arena-style bootstrap: one resample at a time, rank, percentile interval."""
    rng = np.random.default_rng(seed)
    n, k = x.shape
    ranks = np.empty((n_resamples, k), dtype=np.int64)
    for b in range(n_resamples):
        means = x[rng.integers(0, n, size=n)].mean(axis=0)
        ranks[b] = 1 + (means[None, :] > means[:, None]).sum(axis=1)
    return np.quantile(ranks, [0.025, 0.975], axis=0, method="inverted_cdf").T


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=[*CASES, "both"], default="both")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--weights", default="multinomial", choices=["multinomial", "poisson"])
    parser.add_argument("--peer-resamples", type=int, default=200)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
          f"weights {args.weights}", flush=True)
    for name in (CASES if args.case == "both" else [args.case]):
        k, n, b = CASES[name]
        x = make_correct(n, k)
        print(f"\n{name}: {k} models x {n} items x {b} resamples", flush=True)
        ours, peer, cpu, peer_cpu = [], [], [], []
        for _ in range(args.rounds):
            t0, c0 = time.perf_counter(), time.process_time()
            res = rank_sets(x, n_resamples=b, weights=args.weights, random_state=0)
            ours.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            m = min(args.peer_resamples, b)
            t0, c0 = time.perf_counter(), time.process_time()
            arena_loop(x, m)
            peer.append((time.perf_counter() - t0) * b / m)
            peer_cpu.append((time.process_time() - c0) * b / m)
            print(f"  round: ours {ours[-1]:7.2f} s (CPU {cpu[-1]:6.2f} s)   Arena loop {peer[-1]:8.2f} s "
                  f"(CPU {peer_cpu[-1]:7.2f} s; timed on {m} resamples, x {b / m:g})", flush=True)
        sizes = res.simultaneous[:, 1] - res.simultaneous[:, 0] + 1
        print(f"  best: ours {min(ours):.2f} s (simultaneous + marginal + percentile sets), "
              f"Arena loop {min(peer):.2f} s (percentile only); ratio ours / Arena "
              f"{min(ours) / min(peer):.3f} (CPU, ours summed over its BLAS threads: "
              f"{min(cpu) / min(peer_cpu):.3f})")
        print(f"  mean simultaneous set size {sizes.mean():.1f} ranks; critical value "
              f"{res.critical_value:.3f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10
    print(f"\npeak resident memory {peak:.0f} MiB; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
