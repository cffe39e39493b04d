"""Q3 over many data sets: our one ``compare()`` call timed against autorank's and
scikit-posthocs' user-facing calls on the same DataFrame, alternating, with the growth in N·k.

Ours, one call: ``outperform.compare(df, control="m0", posthoc=("nemenyi", "holm"))`` reads
the wide table, ranks, runs Friedman (plain and tie-corrected) and Iman–Davenport, Nemenyi on
all pairs, Holm and Bonferroni–Dunn against the control, the groups, the compact letters, the
warnings and the sentences of the report.
Peers, each as its users call it on the same DataFrame (one row per data set, one column
per model):
- autorank: ``autorank(df, alpha=0.05, verbose=False, force_mode="nonparametric")``
  (Friedman and Nemenyi; it has no Holm against a control);
- scikit-posthocs: ``scipy.stats.friedmanchisquare(*x.T)`` then
  ``posthoc_nemenyi_friedman(df)`` (it has no rank test against a control; its Holm-adjusted
  rank z tests, ``posthoc_siegel_friedman(df, p_adjust="holm")``, test all pairs: timed as a
  second scikit-posthocs line).

Sizes (data sets × models): 200 × 30, 1,000 × 100, 5,000 × 200; scores rounded to three
decimals (ties). Each round times every contestant once, in a rotating order; the medians
of the rounds, the ratios ours / peer, and time / (N·k) are printed; ``--plot`` draws the
growth curve (log-log, with a line of slope 1).

Run: ``PYTHONPATH=src python benchmarks/bench_q3.py --peers /tmp/q3_peers --plot q3.png``
(``pip install --target /tmp/q3_peers autorank scikit-posthocs``; ``--peers`` folders are
appended to ``sys.path``, after the environment's own packages). A peer that is not
installed is reported and skipped.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import sys
import time
import warnings

import numpy as np
import pandas as pd

SIZES = ((200, 30), (1000, 100), (5000, 200))


def table(n: int, k: int, seed: int = 0) -> pd.DataFrame:
    """N data sets × k models, accuracies near 0.8 rounded to 0.001 (ties), a slight trend."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.normal(0.8, 0.05, size=(n, k)) + np.linspace(0.0, 0.02, k), 3)
    return pd.DataFrame(x, columns=[f"m{j}" for j in range(k)])


def ours(df: pd.DataFrame) -> None:
    from outperform import compare

    compare(df, control="m0", posthoc=("nemenyi", "holm"))


def autorank(df: pd.DataFrame) -> None:
    from autorank import autorank as run

    run(df, alpha=0.05, verbose=False, force_mode="nonparametric")


def scikit_posthocs(df: pd.DataFrame) -> None:
    import scikit_posthocs as sp
    from scipy.stats import friedmanchisquare

    friedmanchisquare(*df.to_numpy().T)
    sp.posthoc_nemenyi_friedman(df)


def scikit_posthocs_holm(df: pd.DataFrame) -> None:
    import scikit_posthocs as sp
    from scipy.stats import friedmanchisquare

    friedmanchisquare(*df.to_numpy().T)
    sp.posthoc_nemenyi_friedman(df)
    sp.posthoc_siegel_friedman(df, p_adjust="holm")


CONTESTANTS = {"outperform": ours, "autorank": autorank, "scikit-posthocs": scikit_posthocs,
               "scikit-posthocs + Holm (all pairs)": scikit_posthocs_holm}


def available() -> dict:
    out = {}
    for name, fn in CONTESTANTS.items():
        try:
            with _quiet():
                fn(table(12, 4))        # imports and first-call caches, outside the timing
            out[name] = fn
        except ImportError as err:
            print(f"{name}: not installed ({err.name}); skipped")
    return out


@contextlib.contextmanager
def _quiet():
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        yield


def measure(fns: dict, df: pd.DataFrame, rounds: int, cpu: dict | None = None
            ) -> dict[str, float]:
    """Median wall seconds per contestant, the contestants alternating in a rotating order;
    the median CPU (process) seconds go into ``cpu`` when given (every contestant runs in
    this one thread, so its CPU time is what other jobs' load stretches least)."""
    names = list(fns)
    times = {name: [] for name in names}
    cpus = {name: [] for name in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            with _quiet():
                t0, c0 = time.perf_counter(), time.process_time()
                fns[name](df)
                times[name].append(time.perf_counter() - t0)
                cpus[name].append(time.process_time() - c0)
    if cpu is not None:
        cpu.update({name: float(np.median(t)) for name, t in cpus.items()})
    return {name: float(np.median(t)) for name, t in times.items()}


def plot(results: dict, path: str) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cells = np.array([n * k for n, k in results])
    fig, ax = plt.subplots(figsize=(6, 4.2))
    for name in next(iter(results.values())):
        seconds = np.array([results[size][name] for size in results])
        ax.loglog(cells, seconds, "o-", label=name)
    ours_s = np.array([results[size]["outperform"] for size in results])
    ax.loglog(cells, ours_s[0] * cells / cells[0], "k:", lw=1, label="slope 1 (linear in N·k)")
    ax.set_xticks(cells, [f"{n:,} × {k}" for n, k in results])
    ax.minorticks_off()
    ax.set_xlabel("data sets × models (N·k cells)")
    ax.set_ylabel("seconds per call (median)")
    ax.set_title("Q3 analysis, one call, same DataFrame")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"figure: {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per size")
    parser.add_argument("--peers", action="append", default=[],
                        help="folder of peer packages, appended to sys.path (repeatable)")
    parser.add_argument("--plot", help="write the growth curve to this PNG")
    args = parser.parse_args()
    sys.path.extend(args.peers)
    print(f"machine: {platform.machine()}, python {platform.python_version()}, numpy "
          f"{np.__version__}, pandas {pd.__version__}; {args.rounds} alternating rounds")
    fns = available()
    results = {}
    for n, k in SIZES:
        df = table(n, k)
        cpu: dict[str, float] = {}
        results[(n, k)] = res = measure(fns, df, args.rounds, cpu)
        print(f"\n{n:,} data sets × {k} models (N·k = {n * k:,}), load average "
              f"{os.getloadavg()[0]:.1f}")
        for name, seconds in res.items():
            ratio = "" if name == "outperform" else (
                f"   ours / this = {res['outperform'] / seconds:.2f}"
                f" (CPU {cpu['outperform'] / cpu[name]:.2f})")
            print(f"  {name:36s} {seconds:8.3f} s (CPU {cpu[name]:.3f} s)  "
                  f"{1e9 * seconds / (n * k):8.1f} ns per cell" + ratio)
    print("\ngrowth of ours, time / (N·k) relative to the smallest size: "
          + ", ".join(f"{n}×{k}: {results[(n, k)]['outperform'] / (n * k) / (results[SIZES[0]]['outperform'] / (SIZES[0][0] * SIZES[0][1])):.2f}"
                      for n, k in SIZES))
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
