"""Bradley–Terry at Chatbot Arena's scale: ours against evalica and arena-rank, same data.

Data: ``--models`` models with normal abilities (sd 1), ``--battles`` battles between
random pairs, ``--tie-rate`` ties (a third of them "tie (bothbad)"), written once as
Arena's columns (``model_a``, ``model_b``, ``winner`` in model_a / model_b / tie /
tie (bothbad)) to a Parquet file that every contender reads; reading the file is not
timed, everything after it is (names to indices, aggregation, fit, bootstrap).

Timed, alternating in each round (best of ``--rounds``), ties as half a win for each side
(what both peers do):

* ours: ``outperform.compare.bradley_terry(df, ties="half", interval="bootstrap",
  n_resamples=R)`` (battles aggregated into counts once, the fit and the multinomial
  bootstrap of the counts, batched Newton), and the fit alone (sandwich interval);
* evalica (``pip install evalica``, Rust): ``evalica.bradley_terry(xs, ys, winners)`` (fit)
  and ``evalica.bootstrap(evalica.bradley_terry, ..., bootstrap_method="percentile")``,
  which refits the battle rows once per resample (scipy.stats.bootstrap); at 10 million
  battles that is run with ``--evalica-resamples`` (default 2) resamples and its time per
  resample (its time less the fit's) is scaled to R (printed as such);
* arena-rank (LMArena's package, JAX; it needs jax 0.8, so it runs in its own venv,
  ``--arena-rank-python``, default /work/peers/arena-rank/bin/python, timed inside that
  process, its process pool spawned, as forked workers hang after JAX has started): ``PairDataset.from_pandas(df)`` then ``BradleyTerry(...).
  compute_ratings_and_cis(dataset, ci_method="bootstrap", num_bootstrap=R)`` (its own
  aggregation into counts and multinomial bootstrap, fitted by L-BFGS in a process pool),
  and the fit alone (``ci_method="sandwich"``).

Ours also prints its CPU time (this process's), which the load of a shared machine hardly
changes; the wall times are what the load leaves.

Run:  OPENBLAS_NUM_THREADS=1 python benchmarks/bench_arena_scale.py [--models 250]
          [--battles 10000000] [--resamples 100] [--rounds 2] [--evalica-resamples 2]
          [--skip evalica arena-rank]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

ARENA_WINNERS = np.array(["model_a", "model_b", "tie", "tie (bothbad)"], dtype=object)

ARENA_RANK_SCRIPT = """
import json, multiprocessing, sys, time
import pandas as pd
from arena_rank.utils.data_utils import PairDataset
from arena_rank.models.bradley_terry import BradleyTerry


def main():
    df = pd.read_parquet(sys.argv[1])
    resamples = int(sys.argv[2])
    out = {}
    for method in ("sandwich", "bootstrap"):
        t = time.perf_counter()
        ds = PairDataset.from_pandas(df)
        model = BradleyTerry(n_competitors=len(ds.competitors))
        res = model.compute_ratings_and_cis(ds, ci_method=method, num_bootstrap=resamples)
        float(res["ratings"][0]), float(res["rating_lower"][0])   # JAX is lazy: wait
        out[method] = time.perf_counter() - t
        out[method + "_ratings"] = dict(zip(res["competitors"], map(float, res["ratings"])))
    print(json.dumps(out))


if __name__ == "__main__":
    # its bootstrap's process pool, forked after JAX started its threads, hangs (seen
    # here); spawned workers do not
    multiprocessing.set_start_method("spawn")
    main()
"""


def make_battles(m: int, n: int, tie_rate: float, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    lam = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    outcome = np.where(rng.random(n) < 1 / (1 + np.exp(lam[b] - lam[a])), 0, 1)
    tie = rng.random(n)
    outcome = np.where(tie < tie_rate, np.where(tie < tie_rate / 3, 3, 2), outcome)
    names = np.array([f"model-{k:03d}" for k in range(m)], dtype=object)
    return pd.DataFrame({"model_a": names[a], "model_b": names[b],
                         "winner": ARENA_WINNERS[outcome]})


def run_ours(df: pd.DataFrame, resamples: int) -> dict:
    from outperform.compare import bradley_terry

    out = {}
    t, cpu = time.perf_counter(), time.process_time()
    fit = bradley_terry(df, ties="half")
    out["fit"], out["fit_cpu"] = time.perf_counter() - t, time.process_time() - cpu
    t, cpu = time.perf_counter(), time.process_time()
    boot = bradley_terry(df, ties="half", interval="bootstrap", n_resamples=resamples,
                         random_state=0)
    out["bootstrap"] = time.perf_counter() - t
    out["bootstrap_cpu"] = time.process_time() - cpu
    out["ratings"] = dict(zip(fit.models, fit.ratings))
    out["failed"] = boot.n_failed_resamples
    return out


def run_evalica(df: pd.DataFrame, resamples: int) -> dict:
    import evalica

    mapping = {"model_a": evalica.Winner.X, "model_b": evalica.Winner.Y,
               "tie": evalica.Winner.Draw, "tie (bothbad)": evalica.Winner.Draw}
    out = {}
    t = time.perf_counter()
    winners = df["winner"].map(mapping).tolist()
    fit = evalica.bradley_terry(df["model_a"], df["model_b"], winners)
    out["fit"] = time.perf_counter() - t
    t = time.perf_counter()
    winners = df["winner"].map(mapping).tolist()
    evalica.bootstrap(evalica.bradley_terry, df["model_a"], df["model_b"], winners,
                      n_resamples=resamples, bootstrap_method="percentile", random_state=0)
    out["bootstrap"] = time.perf_counter() - t
    log_pi = np.log(fit.scores)
    out["ratings"] = dict(zip(fit.scores.index, 1000 + 400 / np.log(10)
                              * (log_pi - log_pi.mean())))
    return out


def run_arena_rank(python: str, path: Path, resamples: int) -> dict:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(ARENA_RANK_SCRIPT)
    try:
        done = subprocess.run([python, f.name, str(path), str(resamples)],
                              capture_output=True, text=True, timeout=3600)
    finally:
        os.unlink(f.name)
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    res = json.loads(done.stdout.strip().splitlines()[-1])
    return {"fit": res["sandwich"], "bootstrap": res["bootstrap"],
            "ratings": res["sandwich_ratings"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", type=int, default=250)
    parser.add_argument("--battles", type=int, default=10_000_000)
    parser.add_argument("--tie-rate", type=float, default=0.15)
    parser.add_argument("--resamples", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--evalica-resamples", type=int, default=2)
    parser.add_argument("--arena-rank-python", default="/work/peers/arena-rank/bin/python")
    parser.add_argument("--skip", nargs="*", default=[], choices=["evalica", "arena-rank"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "battles.parquet"
        make_battles(args.models, args.battles, args.tie_rate).to_parquet(path)
        df = pd.read_parquet(path)
        print(f"{args.models} models, {args.battles:,} battles, {args.tie_rate:.0%} ties; "
              f"{args.resamples} bootstrap resamples; load average before: "
              f"{os.getloadavg()[0]:.2f}, cores: {os.cpu_count()}")
        contenders = {"ours": lambda: run_ours(df, args.resamples)}
        if "evalica" not in args.skip:
            contenders["evalica"] = lambda: run_evalica(df, args.evalica_resamples)
        if "arena-rank" not in args.skip and Path(args.arena_rank_python).exists():
            contenders["arena-rank"] = lambda: run_arena_rank(args.arena_rank_python, path,
                                                              args.resamples)
        times = {k: {"fit": [], "bootstrap": []} for k in contenders}
        ratings = {}
        for r in range(args.rounds):             # alternate the contenders in every round
            for name, run in contenders.items():
                res = run()
                for part in ("fit", "bootstrap"):
                    times[name][part].append(res[part])
                ratings[name] = res["ratings"]
                cpu = (f"   CPU {res['fit_cpu']:.2f} s / {res['bootstrap_cpu']:.2f} s"
                       if "fit_cpu" in res else "")
                print(f"  round {r + 1} {name:<11} fit {res['fit']:8.2f} s   bootstrap "
                      f"{res['bootstrap']:8.2f} s   (load {os.getloadavg()[0]:.2f}){cpu}",
                      flush=True)
    scale = {"evalica": args.resamples / args.evalica_resamples}
    if "evalica" in times:       # its fit, then its resamples' time per resample x R
        t = times["evalica"]
        t["bootstrap"] = [f + (b - f) * scale["evalica"] for f, b in zip(t["fit"],
                                                                          t["bootstrap"])]
    best = {k: {p: min(v) for p, v in t.items()} for k, t in times.items()}
    print(f"best of {args.rounds} rounds (wall seconds):")
    for name, b in best.items():
        note = (f"  ({args.evalica_resamples} resamples timed, scaled to {args.resamples})"
                if name in scale else "")
        print(f"  {name:<11} fit {b['fit']:8.2f} s (x{b['fit'] / best['ours']['fit']:6.2f})"
              f"   fit + {args.resamples} resamples {b['bootstrap']:8.2f} s "
              f"(x{b['bootstrap'] / best['ours']['bootstrap']:6.2f}){note}")
    ours = pd.Series(ratings["ours"])
    for name, r in ratings.items():
        if name != "ours":
            gap = np.max(np.abs(pd.Series(r)[ours.index] - ours))
            print(f"  largest rating difference, {name} - ours: {gap:.2e} Elo points")


if __name__ == "__main__":
    main()
