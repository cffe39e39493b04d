"""Full Q3 analysis (ranks, Friedman, all-pairs Nemenyi and all-pairs Holm) timed next to
autorank and scikit-posthocs on the same input.

Run:  .venv/bin/pip install -e '.[bench]' && .venv/bin/python benchmarks/bench_q3.py
Peers are benchmark-only dependencies; a peer that is not installed is reported and skipped.
"""
from __future__ import annotations

import contextlib
import io
import platform
import time
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from outperform.stats import friedman, iman_davenport
from outperform.stats import nemenyi, rank_posthoc
from outperform.stats import average_ranks


def ours(x: np.ndarray) -> None:
    average_ranks(x)
    friedman(x)
    iman_davenport(x)
    nemenyi(x, alpha=0.05)
    rank_posthoc(x, adjustment="holm", alpha=0.05)


def scikit_posthocs(x: np.ndarray) -> None:
    import scikit_posthocs as sp

    stats.friedmanchisquare(*x.T)
    sp.posthoc_nemenyi_friedman(x)
    sp.posthoc_siegel_friedman(x, p_adjust="holm")  # rank z-tests, Holm-adjusted


def autorank(x: np.ndarray) -> None:
    from autorank import autorank as run

    df = pd.DataFrame(x, columns=[f"m{i}" for i in range(x.shape[1])])
    run(df, alpha=0.05, verbose=False, force_mode="nonparametric")


def best_of(fn, x, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(x)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}, python "
          f"{platform.python_version()}")
    rng = np.random.default_rng(0)
    for n, k in ((1000, 100), (200, 30)):
        x = rng.normal(size=(n, k)) + np.linspace(0, 0.5, k)
        ours(x)  # warm-up (imports, scipy caches)
        print(f"\n{n} data sets x {k} algorithms")
        print(f"  outperform        {best_of(ours, x, 5):8.3f} s")
        for name, fn in (("scikit-posthocs", scikit_posthocs), ("autorank", autorank)):
            try:
                with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
                    warnings.simplefilter("ignore")
                    seconds = best_of(fn, x, 1 if k > 50 else 3)
                print(f"  {name:17s} {seconds:8.3f} s")
            except ImportError:
                print(f"  {name:17s} not installed (pip install -e '.[bench]')")


if __name__ == "__main__":
    main()
