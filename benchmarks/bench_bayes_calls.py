"""Per-call cost of the closed-form Bayesian tests, against baycomp (issue 14, item 2).

Times, alternating ours and the peer's in every round (best of the rounds, per call):

1. one correlated Bayesian t-test, nbc vs hnb on the first UCI data set (10 x 10-fold CV,
   rho = 0.1, rope = 1 point of accuracy): ``outperform.bayes.correlated_bayesian_ttest``
   against ``baycomp.two_on_single(x, y, rope=1, runs=10)``;
2. the Poisson test on the 54 UCI data sets (``outperform.bayes.poisson_test``), a
   correlated t-test per data set and the count of data sets each side wins; baycomp has no
   Poisson test, so the peer is ``two_on_single`` called on each of the 54 data sets;
3. a Q2 table of 20 models on one task (10 x 10-fold CV), ``outperform.compare(table)``
   (frequentist and Bayesian tests of all 190 pairs, the report), against
   ``two_on_single`` on each of the 190 pairs (the Bayesian part only);
4. one Bayesian t-test (``bayes.bayesian_ttest``) and one Bayesian McNemar test
   (``bayes.bayesian_mcnemar``), ours only (no peer has them).

Run:  python benchmarks/bench_bayes_calls.py [--rounds 5]
baycomp is a benchmark-only dependency: ``pip install --target /tmp/peers baycomp`` and
``PYTHONPATH=src:/tmp/peers`` keeps it out of the project's environment. Data:
../shared/data/uci54_10x10cv_accuracies.txt (or $OUTPERFORM_SHARED/data).
"""
from __future__ import annotations

import argparse
import itertools
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import outperform
from outperform.bayes import (bayesian_mcnemar, bayesian_ttest, correlated_bayesian_ttest,
                              poisson_test)
from outperform.data import load_uci54_arrays

SHARED = Path(os.environ.get("OUTPERFORM_SHARED",
                             Path(__file__).resolve().parents[2] / "shared"))
DATA = SHARED / "data" / "uci54_10x10cv_accuracies.txt"


def best_per_call(fn, calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t0) / calls


def race(label: str, ours, peer, *, calls: int, rounds: int, unit: str = "ms") -> None:
    """Alternate ours and the peer's call; print the best per-call times and their ratio."""
    ours(), peer and peer()  # warm imports and caches outside the timing
    t_ours, t_peer = [], []
    for _ in range(rounds):
        t_ours.append(best_per_call(ours, calls))
        if peer is not None:
            t_peer.append(best_per_call(peer, calls))
    scale = 1e3 if unit == "ms" else 1.0
    line = f"{label:<44s} outperform {min(t_ours) * scale:8.3f} {unit}"
    if peer is not None:
        line += (f"   baycomp {min(t_peer) * scale:8.3f} {unit}"
                 f"   ratio {min(t_ours) / min(t_peer):5.2f}")
    print(line, flush=True)


def q2_table(uci, n_models: int) -> pd.DataFrame:
    """20 models on one task: the five UCI classifiers on the first data set, shifted."""
    rng = np.random.default_rng(0)
    base = [scores[0] for _, scores in uci.values()]
    rows = []
    for m in range(n_models):
        acc = base[m % len(base)] / 100 + rng.normal(0, 0.002, 100)
        for i, value in enumerate(acc):
            rows.append({"task": "anneal", "model": f"m{m:02d}", "run": i // 10,
                         "fold": i % 10, "n_train": 808, "n_test": 90, "accuracy": value})
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    try:
        import baycomp
    except ImportError:
        baycomp = None
        print("baycomp is not installed: timing outperform only")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        uci = load_uci54_arrays(DATA, keep_duplicates=True)
    nbc, hnb = uci["nbc"][1], uci["hnb"][1]

    def peer_of(fn):
        return None if baycomp is None else fn

    race("correlated t-test, one call (100 folds)",
         lambda: correlated_bayesian_ttest(hnb[0], nbc[0], rho=0.1, rope=1.0),
         peer_of(lambda: baycomp.two_on_single(nbc[0], hnb[0], rope=1, runs=10)),
         calls=200, rounds=args.rounds)
    race("Poisson test, 54 data sets",
         lambda: poisson_test(hnb, nbc, rho=0.1, rope=1.0),
         peer_of(lambda: [baycomp.two_on_single(y, x, rope=1, runs=10)
                          for x, y in zip(hnb, nbc)]),
         calls=10, rounds=args.rounds)
    table = q2_table(uci, 20)
    scores = {m: g["accuracy"].to_numpy() for m, g in table.groupby("model")}
    pairs = list(itertools.combinations(sorted(scores), 2))
    race("Q2 compare(), 20 models (190 pairs)",
         lambda: outperform.compare(table),
         peer_of(lambda: [baycomp.two_on_single(scores[b], scores[a], rope=0.01, runs=10)
                          for a, b in pairs]),
         calls=1, rounds=args.rounds, unit="s")
    # No peer has these two; their per-call cost is printed for the before/after comparison.
    race("Bayesian t-test, one call (100 pairs)",
         lambda: bayesian_ttest(hnb[0], nbc[0]), None, calls=200, rounds=args.rounds)
    race("Bayesian McNemar, one call (159, 198)",
         lambda: bayesian_mcnemar(159, 198), None, calls=200, rounds=args.rounds)


if __name__ == "__main__":
    main()
