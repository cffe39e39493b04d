"""Timing and peak memory of all-pairs McNemar on a leaderboard (issue 3's benchmark).

Compares every pair of 200 models on 1,000,000 examples (0/1 correctness): discordance
counts, exact McNemar with Holm's adjustment, and Bayesian McNemar with the Williams ROPE.
Goal: under 3 s on a 2-core machine (requirement: under 10 s). ``--scaling`` also times the
counts for several numbers of models and examples.

It prints, next to the counts, the two baselines of issue 14: the read-once floor (every
bit of the bit-packed matrix read once: one popcount pass, and packing the bool matrix
once) and a chunked single-thread float32 BLAS product C C^T; and the user-facing path of a
peer: statsmodels' ``mcnemar(table, exact=True)`` on each pair's 2 x 2 table built with
numpy (timed on ``--peer-pairs`` pairs and extrapolated to all of them). Rounds alternate
between ours, the baselines and the peer; the best time of the rounds is printed.

Run:  OPENBLAS_NUM_THREADS=1 python benchmarks/bench_leaderboard.py [--models 200]
          [--examples 1000000] [--rounds 3] [--peer-pairs 100] [--scaling]

The counts use the compiled kernel when numba is installed (the ``fast`` extra); the numpy
kernel, what runs without it, is timed as its own line.

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
from outperform.stats import _bit_gram, pairwise_discordance, pairwise_mcnemar


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


def read_once_floor(correct: np.ndarray) -> tuple[float, float]:
    """Seconds to pack the bool matrix into bits, and to popcount the packed matrix once."""
    t0 = time.perf_counter()
    packed = np.packbits(correct, axis=1)
    t_pack = time.perf_counter() - t0
    words = np.pad(packed, ((0, 0), (0, -packed.shape[1] % 8))).view(np.uint64)
    t0 = time.perf_counter()
    np.bitwise_count(words).sum(axis=1, dtype=np.int64)
    return t_pack, time.perf_counter() - t0


def blas_counts(correct: np.ndarray, chunk: int = 1 << 16) -> np.ndarray:
    """G = C C^T in float32 BLAS over chunks of examples (exact below 2^24 examples)."""
    k, n = correct.shape
    g = np.zeros((k, k), dtype=np.float32)
    for start in range(0, n, chunk):  # chunks bound the float32 copy (k x chunk)
        c = correct[:, start:start + chunk].astype(np.float32)
        g += c @ c.T
    return g


def statsmodels_pairs(correct: np.ndarray, pairs) -> None:
    """What a statsmodels user writes: the 2 x 2 table of each pair, then mcnemar()."""
    from statsmodels.stats.contingency_tables import mcnemar

    for i, j in pairs:
        a, b = correct[i], correct[j]
        both = int(np.count_nonzero(a & b))
        only_a = int(np.count_nonzero(a)) - both
        only_b = int(np.count_nonzero(b)) - both
        mcnemar([[both, only_a], [only_b, correct.shape[1] - both - only_a - only_b]],
                exact=True)


def race(correct: np.ndarray, rounds: int, peer_pairs: int) -> None:
    """Ours (counts + exact McNemar + Holm + Bayesian McNemar), baselines and the peer."""
    k = correct.shape[0]
    all_pairs = k * (k - 1) // 2
    rng = np.random.default_rng(1)
    chosen = [tuple(sorted(rng.choice(k, 2, replace=False))) for _ in range(peer_pairs)]
    best: dict[str, float] = {}

    def keep(label, seconds):
        best[label] = min(best.get(label, np.inf), seconds)

    for _ in range(rounds):
        t0 = time.perf_counter()
        counts = pairwise_discordance(correct)
        t1 = time.perf_counter()
        pairwise_mcnemar(counts)
        pairwise_bayesian_mcnemar(counts)
        t2 = time.perf_counter()
        keep("ours: counts", t1 - t0)
        keep("ours: counts + McNemar + Holm + Bayesian", t2 - t0)
        limits = _bit_gram._NUMBA_WORDS, _bit_gram._NUMBA_WORDS_LOADED
        _bit_gram._NUMBA_WORDS = _bit_gram._NUMBA_WORDS_LOADED = np.inf
        t0 = time.perf_counter()
        pairwise_discordance(correct)   # the numpy kernel: what runs without numba
        keep("ours: counts, numpy kernel (no 'fast' extra)", time.perf_counter() - t0)
        _bit_gram._NUMBA_WORDS, _bit_gram._NUMBA_WORDS_LOADED = limits
        t_pack, t_pop = read_once_floor(correct)
        keep("floor: pack bits once", t_pack)
        keep("floor: popcount packed matrix once", t_pop)
        t0 = time.perf_counter()
        blas_counts(correct)
        keep("chunked float32 BLAS C C^T", time.perf_counter() - t0)
        t0 = time.perf_counter()
        statsmodels_pairs(correct, chosen)
        keep("statsmodels mcnemar per pair (extrapolated)",
             (time.perf_counter() - t0) / peer_pairs * all_pairs)
    ours = best["ours: counts"]
    floor = best["floor: pack bits once"] + best["floor: popcount packed matrix once"]
    print(f"best of {rounds} alternating rounds (seconds; ratio = ours / that line):")
    for label, seconds in best.items():
        print(f"  {label:<46s} {seconds:8.3f} s   counts / this {ours / seconds:6.2f}")
    print(f"  our counts / read-once floor (pack + popcount): {ours / floor:.1f}x; "
          f"whole analysis / statsmodels: "
          f"{best['ours: counts + McNemar + Holm + Bayesian'] / best[list(best)[-1]]:.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=200)
    parser.add_argument("--examples", type=int, default=1_000_000)
    parser.add_argument("--scaling", action="store_true", help="also time counts vs k and n")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--peer-pairs", type=int, default=100)
    args = parser.parse_args()
    k, n = args.models, args.examples

    correct = make_correct(k, n)
    print(f"{k} models x {n:,} examples, input {correct.nbytes / 2**20:.0f} MiB (bool), "
          f"{k * (k - 1) // 2:,} pairs")
    try:
        import numba
        print(f"counts kernel: compiled (numba {numba.__version__}, "
              f"{numba.get_num_threads()} threads)")
    except ImportError:
        print("counts kernel: numpy (numba not installed: pip install 'outperform[fast]')")
    counts, t_counts = timed("discordance counts (bit-packed)", pairwise_discordance, correct)
    _, t_freq = timed("exact McNemar + Holm, all pairs", pairwise_mcnemar, counts)
    _, t_bayes = timed("Bayesian McNemar (ROPE), all pairs", pairwise_bayesian_mcnemar, counts)
    print(f"{'total (counts once, both analyses)':<38s} {t_counts + t_freq + t_bayes:7.3f} s")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # KiB on Linux
    print(f"process peak resident memory (input and interpreter included): {rss:.0f} MiB")
    race(correct, args.rounds, args.peer_pairs)

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
