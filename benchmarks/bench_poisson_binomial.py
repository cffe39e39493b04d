"""Poisson-binomial pmf: agreement of the three methods and their speed up to N = 1,000,000.

Checks that the recursion (Lacoste et al. 2012 §5), the DFT of the characteristic function
(Hong 2013) and the divide-and-conquer FFT convolution agree to 1e-12 on random probability
vectors up to N = 10,000, times each method, and runs the convolution at N = 1,000,000
(pmf sums to 1, mean and variance match sum p and sum p (1 - p)). scipy.stats.poisson_binom
(SciPy >= 1.15) is timed next to it when available.

Run:  python benchmarks/bench_poisson_binomial.py [--big 1000000]
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

from outperform.stats import poisson_binomial_pmf

# Largest N for each O(N^2) method in the timing table.
MAX_N = {"recursion": 20_000, "fft": 10_000, "convolution": 10**7}


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=int, default=1_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)

    print("agreement (max |difference| from the recursion), random p ~ U(0, 1) and Beta(0.2, 0.2):")
    for n in (10, 100, 1000, 10_000):
        for label, p in (("uniform", rng.random(n)), ("beta(.2,.2)", rng.beta(0.2, 0.2, n))):
            ref = poisson_binomial_pmf(p, method="recursion")
            diffs = {m: np.abs(poisson_binomial_pmf(p, method=m) - ref).max()
                     for m in ("fft", "convolution")}
            ok = all(d <= 1e-12 for d in diffs.values())
            print(f"  N = {n:6d} {label:12s} fft {diffs['fft']:.1e}  convolution "
                  f"{diffs['convolution']:.1e}  {'ok' if ok else 'FAIL'}")

    print("\ntime (s) of one pmf:")
    sizes = [1000, 10_000, 100_000, args.big]
    print("  N          " + "".join(f"{m:>13s}" for m in ("recursion", "fft", "convolution",
                                                            "scipy")))
    poisson_binom = getattr(stats, "poisson_binom", None)
    for n in sizes:
        p = rng.random(n)
        row = []
        for method in ("recursion", "fft", "convolution"):
            if n > MAX_N[method]:
                row.append("-")
                continue
            _, sec = timed(poisson_binomial_pmf, p, method=method)
            row.append(f"{sec:.3f}")
        if poisson_binom is not None and n <= 20_000:
            _, sec = timed(poisson_binom.pmf, np.arange(n + 1), p)
            row.append(f"{sec:.3f}")
        else:
            row.append("-")
        print(f"  {n:9d}  " + "".join(f"{v:>13s}" for v in row))

    if poisson_binom is not None:
        print("\nuser-facing calls, alternating (best of 5): poisson_binomial_pmf(p) against "
              "scipy.stats.poisson_binom.pmf(np.arange(N + 1), p)")
        for n in (100, 1000, 10_000):
            p = rng.random(n)
            ours, peer = [], []
            for _ in range(5):
                ours.append(timed(poisson_binomial_pmf, p)[1])
                peer.append(timed(poisson_binom.pmf, np.arange(n + 1), p)[1])
            print(f"  N = {n:6d}  outperform {min(ours):.4f} s  scipy {min(peer):.4f} s  "
                  f"ratio {min(ours) / min(peer):.3f}")

    p = rng.random(args.big)
    pmf, sec = timed(poisson_binomial_pmf, p)
    k = np.arange(p.size + 1)
    mean = k @ pmf
    var = ((k - mean) ** 2) @ pmf
    print(f"\nN = {args.big}: auto ({sec:.2f} s): sum {pmf.sum():.15f}, min {pmf.min():.1e}, "
          f"mean error {abs(mean - p.sum()) / p.sum():.1e} (relative), variance error "
          f"{abs(var - (p * (1 - p)).sum()) / (p * (1 - p)).sum():.1e} (relative)")

    batch = rng.random((5000, 50))
    for method in ("recursion", "convolution"):
        _, sec = timed(poisson_binomial_pmf, batch, method=method)
        print(f"batch of 5000 vectors of N = 50, {method}: {sec:.3f} s")


if __name__ == "__main__":
    main()
