"""Bradley–Terry on Arena-sized battles: our fit and bootstrap against the peers' calls.

Data: ``--models`` models with normal abilities, ``--battles`` battles between random
pairs, 15% ties. Timed, alternating in each round (best of ``--rounds``):

* fit: ours ``outperform.stats.bradley_terry(..., ties="half")`` (the MLE with sandwich and
  model covariances) against Chatbot Arena's ``compute_mle_elo`` (sklearn
  LogisticRegression on the doubled battle-level design) and, without the ties,
  statsmodels ``Logit(y, X).fit()`` on the battle-level design and choix
  ``opt_pairwise`` (when installed);
* bootstrap: ours ``interval="bootstrap"`` (multinomial weights over battle types, the
  resamples fitted in batches by one Newton-CG call) against Arena's
  ``get_bootstrap_result`` loop (``df.sample(frac=1, replace=True)`` then
  ``compute_mle_elo``, once per resample).

Run:  OPENBLAS_NUM_THREADS=1 python benchmarks/bench_bradley_terry.py [--models 50]
          [--battles 100000] [--resamples 100] [--rounds 2]
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

from outperform.stats import bradley_terry


def make_battles(m: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    lam = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    win = np.where(rng.random(n) < 1 / (1 + np.exp(lam[b] - lam[a])), "a", "b")
    win = np.where(rng.random(n) < 0.15, "tie", win)
    names = np.array([f"model{k:03d}" for k in range(m)])
    return pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": win})


def arena_mle_elo(df: pd.DataFrame) -> np.ndarray:
    """Chatbot Arena's compute_mle_elo (its notebook / FastChat elo_analysis.py)."""
    from sklearn.linear_model import LogisticRegression

    models = pd.Series(np.arange(len(np.unique(np.r_[df["model_a"], df["model_b"]]))),
                       index=np.unique(np.r_[df["model_a"], df["model_b"]]))
    df = pd.concat([df, df])
    p, n = len(models), len(df)
    x = np.zeros([n, p])
    x[np.arange(n), models[df["model_a"]]] = +np.log(10)
    x[np.arange(n), models[df["model_b"]]] = -np.log(10)
    y = np.zeros(n)
    y[(df["winner"] == "a").to_numpy()] = 1.0
    tie = (df["winner"] == "tie").to_numpy().copy()
    tie[n // 2:] = False
    y[tie] = 1.0
    lr = LogisticRegression(fit_intercept=False, C=np.inf, tol=1e-6)
    lr.fit(x, y)
    return 400 * lr.coef_[0] + 1000


def arena_bootstrap(df: pd.DataFrame, n_resamples: int) -> np.ndarray:
    """Arena's get_bootstrap_result: a Python loop of resample-and-refit."""
    return np.array([arena_mle_elo(df.sample(frac=1.0, replace=True, random_state=i))
                     for i in range(n_resamples)])


def _best(fn, rounds, times, cpus=None):
    for _ in range(rounds):
        t, c = time.perf_counter(), time.process_time()
        out = fn()
        times.append(time.perf_counter() - t)
        if cpus is not None:      # CPU (process) time: what other jobs' load stretches least
            cpus.append(time.process_time() - c)
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", type=int, default=50)
    parser.add_argument("--battles", type=int, default=100_000)
    parser.add_argument("--resamples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    df = make_battles(args.models, args.battles)
    a, b, w = (df[c].to_numpy() for c in ("model_a", "model_b", "winner"))
    decisive = df[df["winner"] != "tie"]
    print(f"{args.models} models, {args.battles} battles ({len(decisive)} decisive)")

    peers = {"ours (fit, half ties)": lambda: bradley_terry(a, b, w, ties="half"),
             "ours (fit, Davidson ties)": lambda: bradley_terry(a, b, w),
             "Arena compute_mle_elo (sklearn)": lambda: arena_mle_elo(df)}
    try:
        import statsmodels.api as sm

        models = np.unique(np.r_[a, b])
        pos = pd.Series(np.arange(len(models)), index=models)
        x = np.zeros((len(decisive), len(models)))
        x[np.arange(len(decisive)), pos[decisive["model_a"]]] = 1
        x[np.arange(len(decisive)), pos[decisive["model_b"]]] = -1
        y = (decisive["winner"] == "a").to_numpy(float)
        da, db, dw = (decisive[c].to_numpy() for c in ("model_a", "model_b", "winner"))
        peers["ours (fit, no ties)"] = lambda: bradley_terry(da, db, dw)
        peers["statsmodels Logit (no ties)"] = lambda: sm.Logit(y, x[:, 1:]).fit(disp=0)
    except ImportError:
        pass
    try:
        import choix

        winners = np.where(decisive["winner"] == "a", pos[decisive["model_a"]],
                           pos[decisive["model_b"]])
        losers = np.where(decisive["winner"] == "a", pos[decisive["model_b"]],
                          pos[decisive["model_a"]])
        pairs = list(zip(winners.tolist(), losers.tolist()))
        peers["choix opt_pairwise (no ties)"] = lambda: choix.opt_pairwise(len(models), pairs)
    except ImportError:
        pass
    times, cpus = {k: [] for k in peers}, {k: [] for k in peers}
    for _ in range(args.rounds):      # alternate ours and the peers in every round
        for name, fn in peers.items():
            _best(fn, 1, times[name], cpus[name])
    base, base_cpu = min(times["ours (fit, half ties)"]), min(cpus["ours (fit, half ties)"])
    print(f"load average {os.getloadavg()[0]:.1f}; best of {args.rounds} rounds, wall (CPU)")
    for name, t in times.items():
        print(f"  {name:<36} {min(t):8.3f} s ({min(cpus[name]):7.3f} s)   ratio to ours (half) "
              f"{min(t) / base:6.2f} ({min(cpus[name]) / base_cpu:6.2f})")

    r = args.resamples
    boot = {"ours bootstrap": lambda: bradley_terry(a, b, w, ties="half",
                                                    interval="bootstrap", n_resamples=r,
                                                    random_state=0),
            "Arena bootstrap loop": lambda: arena_bootstrap(df, r)}
    times, cpus = {k: [] for k in boot}, {k: [] for k in boot}
    for _ in range(args.rounds):
        for name, fn in boot.items():
            _best(fn, 1, times[name], cpus[name])
    ours, ours_cpu = min(times["ours bootstrap"]), min(cpus["ours bootstrap"])
    print(f"bootstrap, {r} resamples (load average {os.getloadavg()[0]:.1f}):")
    for name, t in times.items():
        print(f"  {name:<36} {min(t):8.3f} s ({min(cpus[name]):7.3f} s)   ratio to ours "
              f"{min(t) / ours:6.2f} ({min(cpus[name]) / ours_cpu:6.2f})")


if __name__ == "__main__":
    main()
