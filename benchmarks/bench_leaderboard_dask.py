"""Timing of ``leaderboard()`` here and on a two-worker Dask LocalCluster (issue 31, item 1).

A 20,000 items x 500 models matrix of 0/1 scores (accuracies 0.55-0.90, a shared item
difficulty). Ours, twice: ``outperform.compare.leaderboard(scores, n_resamples=...)`` in
this process, and the same call with ``scheduler=`` the address of a
``dask.distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True)``
started here (the rank sets' bootstrap batches run on the workers; the pairwise tests, Hsu's
comparisons with the best and the step-down run here). The two results are asserted equal,
bit for bit (rank sets, tiers, percentile intervals, critical value); the rounds alternate
the two; ``stats.rank_sets`` and its bootstrap's deviations alone are timed the same way. No peer: no other
tool runs rank confidence sets on Dask; the local run is the reference.

A batch holds 2^25 weights: 1,677 resamples of 20,000 items. The default 3,354 resamples are
two batches, one per worker (1,000 resamples would be one batch, run by one worker).

Run:  OPENBLAS_NUM_THREADS=1 python benchmarks/bench_leaderboard_dask.py
          [--items 20000] [--models 500] [--n-resamples 3354] [--rounds 2]
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np


def make_correct(n: int, k: int, seed: int = 0) -> np.ndarray:
    """n items x k models of 0/1 scores: accuracies 0.55-0.90, 20 % of items harder."""
    rng = np.random.default_rng(seed)
    skill = np.sort(rng.uniform(0.55, 0.90, size=k))
    hard = rng.random((n, 1)) < 0.2
    u = rng.random((n, k))
    return np.where(hard, u < skill - 0.4, u < skill).astype(float)


def _same(a, b) -> None:
    for field in ("simultaneous", "marginal", "percentile", "better"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    np.testing.assert_array_equal(a.tiers(), b.tiers())
    assert a.critical_value == b.critical_value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--models", type=int, default=500)
    parser.add_argument("--n-resamples", type=int, default=3354)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import distributed

    from outperform.compare import leaderboard
    from outperform.stats import rank_sets
    from outperform.stats._bootstrap_batches import batch_sizes, bootstrap_deviations
    from outperform.stats._paired_means import paired_means

    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}, "
          f"load average {os.getloadavg()[0]:.1f}")
    scores = make_correct(args.items, args.models)
    batches = batch_sizes(args.n_resamples, args.items)
    print(f"{args.items:,} items x {args.models} models, {args.n_resamples:,} resamples in "
          f"{len(batches)} batches of {batches[0]:,}")
    pm = paired_means(scores)

    def bootstrap(client):
        return bootstrap_deviations(pm.sums, pm.sizes, args.n_resamples, "multinomial",
                                    np.random.default_rng(0), lambda n=1: None, client=client)

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        address = cluster.scheduler_address
        rows = []
        for r in range(args.rounds):
            t0 = time.perf_counter()
            here = bootstrap(None)
            t1 = time.perf_counter()
            there = bootstrap(client)
            t2 = time.perf_counter()
            np.testing.assert_array_equal(there, here)
            rows.append((r, "bootstrap", t1 - t0, t2 - t1))
            print(f"round {r} {'bootstrap':11s} local {t1 - t0:7.1f} s   2-worker cluster "
                  f"{t2 - t1:7.1f} s   ratio {(t2 - t1) / (t1 - t0):.2f}   (the deviations "
                  f"alone, equal; load {os.getloadavg()[0]:.1f})", flush=True)
            for label, fn in (
                    ("rank_sets", lambda s: rank_sets(scores, n_resamples=args.n_resamples,
                                                      scheduler=s)),
                    ("leaderboard", lambda s: leaderboard(scores, n_resamples=args.n_resamples,
                                                          scheduler=s).rank_sets)):
                times = {}
                results = {}
                order = (None, address) if r % 2 == 0 else (address, None)
                for where in order:
                    t0 = time.perf_counter()
                    results[where] = fn(where)
                    times[where] = time.perf_counter() - t0
                _same(results[address], results[None])
                rows.append((r, label, times[None], times[address]))
                print(f"round {r} {label:11s} local {times[None]:7.1f} s   2-worker cluster "
                      f"{times[address]:7.1f} s   ratio {times[address] / times[None]:.2f}   "
                      f"(same result; load {os.getloadavg()[0]:.1f})", flush=True)
    for label in ("bootstrap", "rank_sets", "leaderboard"):
        local = min(t for _, lab, t, _ in rows if lab == label)
        dask = min(t for _, lab, _, t in rows if lab == label)
        print(f"best of {args.rounds}: {label:11s} local {local:.1f} s, cluster {dask:.1f} s, "
              f"ratio {dask / local:.2f}")


if __name__ == "__main__":
    main()
