"""Bayesian signed-rank test for all pairs of many models (issue 5's benchmark).

Times ``pairwise_bayesian_signed_rank_test`` on all 435 pairs of 30 models over 200 data
sets with 50,000 posterior draws per pair (goal: under 5 s), next to baycomp's
``SignedRankTest`` and autorank's Bayesian mode (which calls baycomp pair by pair) on the
same input. baycomp loops in Python over the draws with an O(q^2) product each, so it is
timed on a few pairs and extrapolated to all of them (``--baycomp-pairs``, the least
clear-cut pairs); their probabilities are compared with ours in units of the Monte Carlo
standard error.

Run:  python benchmarks/bench_signed_rank.py [--models 30] [--datasets 200] [--samples 50000]
                                             [--baycomp-pairs 2] [--autorank]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import os
import time

import numpy as np

from outperform.bayes import (
    bayesian_signed_rank_test,
    pairwise_bayesian_signed_rank_test,
)


def make_scores(k: int, q: int, seed: int = 0) -> np.ndarray:
    """Accuracies of k models on q data sets: data-set difficulty + model skill + noise."""
    rng = np.random.default_rng(seed)
    difficulty = rng.uniform(0.6, 0.95, (q, 1))
    skill = rng.normal(0.0, 0.02, (1, k))
    return np.clip(difficulty + skill + rng.normal(0, 0.015, (q, k)), 0, 1)


def timed(fn, *args, **kwargs):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=30)
    parser.add_argument("--datasets", type=int, default=200)
    parser.add_argument("--samples", type=int, default=50000)
    parser.add_argument("--rope", type=float, default=0.01)
    parser.add_argument("--baycomp-pairs", type=int, default=2,
                        help="pairs timed with baycomp (0 to skip)")
    parser.add_argument("--autorank", action="store_true",
                        help="also time autorank's Bayesian mode on 3 models")
    args = parser.parse_args()

    scores = make_scores(args.models, args.datasets)
    n_pairs = args.models * (args.models - 1) // 2
    print(f"{args.models} models x {args.datasets} data sets, {n_pairs} pairs, "
          f"{args.samples} draws per pair, ROPE {args.rope}")

    res, wall, cpu = timed(pairwise_bayesian_signed_rank_test, scores, rope=args.rope,
                           n_samples=args.samples, random_state=0)
    decisions = res.details["decision"][np.triu_indices(args.models, 1)]
    counts = {d: int(np.sum(decisions == d)) for d in np.unique(decisions)}
    print(f"outperform, all pairs:   {wall:7.2f} s wall, {cpu:7.2f} s CPU "
          f"({1000 * wall / n_pairs:.1f} ms per pair)  goal < 5 s")
    print(f"  decisions (row vs column, i < j): {counts}; cycles: {len(res.details['cycles'])}; "
          f"largest MC standard error {np.nanmax(res.details['mc_standard_error']):.4f}")

    _, wall1, _ = timed(bayesian_signed_rank_test, scores[:, 0], scores[:, 1], rope=args.rope,
                        n_samples=args.samples, random_state=0)
    print(f"outperform, one pair:    {wall1:7.3f} s")

    if args.baycomp_pairs:
        try:
            import baycomp
        except ImportError:
            print("baycomp is not installed: pip install baycomp to time it")
            return
        # The least clear-cut pairs (smallest largest probability) make the sharpest check.
        pairs = sorted(itertools.combinations(range(args.models), 2), key=lambda ij: max(
            res.statistic[ij], res.statistic[ij[::-1]], res.details["p_rope"][ij]))
        pairs = pairs[:args.baycomp_pairs]
        seconds, ours_one, cpus, ours_cpu = [], [], [], []
        for i, j in pairs:
            # The same pair by both user-facing calls, one after the other.
            _, wall_o, cpu_o = timed(bayesian_signed_rank_test, scores[:, i], scores[:, j],
                                     rope=args.rope, n_samples=args.samples, random_state=0)
            ours_one.append(wall_o)
            ours_cpu.append(cpu_o)
            # baycomp's difference is y - x: x = model j, y = model i gives our (a=i, b=j).
            probs, wall_b, cpu_b = timed(baycomp.SignedRankTest.probs, scores[:, j],
                                         scores[:, i], args.rope, nsamples=args.samples,
                                         random_state=0)
            seconds.append(wall_b)
            cpus.append(cpu_b)
            ours = (res.statistic[j, i], res.details["p_rope"][i, j], res.statistic[i, j])
            se = np.sqrt(np.maximum(np.array(ours) * (1 - np.array(ours)), 1e-8) / args.samples)
            z = (np.array(ours) - np.array(probs)) / (np.sqrt(2) * se)
            print(f"  pair ({i}, {j}): baycomp {np.round(probs, 4)} ours {np.round(ours, 4)} "
                  f"difference / SE {np.round(z, 1)}")
        per_pair = float(np.mean(seconds))
        print(f"baycomp SignedRankTest:  {per_pair:7.2f} s per pair -> about "
              f"{per_pair * n_pairs / 60:.0f} min for all {n_pairs} pairs "
              f"({per_pair * n_pairs / wall:.0f} x slower)")
        print(f"one pair, alternating: outperform {np.mean(ours_one):.3f} s, baycomp "
              f"{per_pair:.2f} s, ratio {np.mean(ours_one) / per_pair:.4f}; CPU outperform "
              f"{np.mean(ours_cpu):.3f} s, baycomp {np.mean(cpus):.2f} s, ratio "
              f"{np.mean(ours_cpu) / np.mean(cpus):.4f} (load average "
              f"{os.getloadavg()[0]:.1f})")

    if args.autorank:
        import pandas as pd
        from autorank import autorank

        frame = pd.DataFrame(scores[:, :3], columns=["m0", "m1", "m2"])
        with contextlib.redirect_stdout(io.StringIO()):      # autorank prints its table
            _, wall_a, _ = timed(autorank, frame, approach="bayesian", rope=args.rope,
                                 rope_mode="absolute", nsamples=args.samples, random_state=0)
        print(f"autorank (Bayesian):     {wall_a:7.2f} s for 3 models (3 pairs) -> about "
              f"{wall_a / 3 * n_pairs / 60:.0f} min for {n_pairs} pairs")


if __name__ == "__main__":
    main()
