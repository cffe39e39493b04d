"""Style-controlled Bradley–Terry: ours against arena-rank's contextual model (issue 30, item 3).

The same simulated battles (LMArena-like: 40 models, four style features -- tokens, header,
list and bold counts -- as (a - b) / (a + b), standardised) are fitted with LMArena's
defaults (L2 penalty 1 on the style coefficients, inverse pair-count weights, sandwich
intervals) by

- ours: ``outperform.stats.bradley_terry_style(..., l2=1.0, reweight=True, rank_sets=False)``
  (trust-exact on the log-likelihood with its analytic gradient and Hessian; gradient
  tolerance 1e-12), and the same fit without covariates it reports beside it;
- the peer: arena-rank 0.1.1 ``ContextualBradleyTerry(n, 4).compute_ratings_and_cis(
  ContextualPairDataset.from_pandas(df, features))`` (JAX, L-BFGS with its defaults), in its
  own virtual environment (/work/peers/arena-rank: it needs jax 0.8), in a subprocess that
  times its own calls: the first (with JAX's compilation) and the best of the next ones.

Rounds alternate ours and the peer's; the ratio printed is ours / peer (best of the rounds).

Run:  python benchmarks/bench_style_control.py [--battles 100000] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

PEER = Path("/work/peers/arena-rank/bin/python")
FEATURES = ["tokens", "header_count", "list_count", "bold_count"]

PEER_CODE = """
import json, sys, time
import pandas as pd
from arena_rank.models.contextual_bradley_terry import ContextualBradleyTerry
from arena_rank.utils.data_utils import ContextualPairDataset
df = pd.read_parquet(sys.argv[1])
features = json.loads(sys.argv[2])
for f in features:
    diff, total = df[f + "_a"] - df[f + "_b"], (df[f + "_a"] + df[f + "_b"]).replace(0, 1)
    raw = diff / total
    df[f] = (raw - raw.mean()) / raw.std()
times = []
for _ in range(int(sys.argv[3])):
    t0 = time.perf_counter()
    data = ContextualPairDataset.from_pandas(df, feature_cols=features)
    model = ContextualBradleyTerry(n_competitors=len(data.competitors), n_features=len(features))
    out = model.compute_ratings_and_cis(data)
    out["ratings"].block_until_ready()
    times.append(time.perf_counter() - t0)
print(json.dumps(times))
"""


def battles(n: int, n_models: int = 40, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    skill = rng.normal(0, 0.5, n_models)
    verbosity = rng.uniform(200, 800, n_models)
    a = rng.integers(0, n_models, n)
    b = (a + rng.integers(1, n_models, n)) % n_models
    cols = {"model_a": [f"m{i:02d}" for i in a], "model_b": [f"m{i:02d}" for i in b]}
    cols["tokens_a"] = np.round(verbosity[a] * rng.lognormal(0, 0.6, n))
    cols["tokens_b"] = np.round(verbosity[b] * rng.lognormal(0, 0.6, n))
    for f in FEATURES[1:]:
        cols[f + "_a"], cols[f + "_b"] = rng.poisson(2, n), rng.poisson(2, n)
    d = (cols["tokens_a"] - cols["tokens_b"]) / (cols["tokens_a"] + cols["tokens_b"])
    p = 1 / (1 + np.exp(-(skill[a] - skill[b] + 1.2 * d)))
    winner = np.where(rng.random(n) < p, "model_a", "model_b").astype(object)
    winner[rng.random(n) < 0.15] = "tie"
    cols["winner"] = winner
    return pd.DataFrame(cols)


def ours(df: pd.DataFrame) -> float:
    from outperform.stats import bradley_terry_style

    w = df["winner"].map({"model_a": "a", "model_b": "b", "tie": "tie"}).to_numpy()
    fa = df[[f + "_a" for f in FEATURES]].to_numpy(float)
    fb = df[[f + "_b" for f in FEATURES]].to_numpy(float)
    t0 = time.perf_counter()
    bradley_terry_style(df["model_a"].to_numpy(), df["model_b"].to_numpy(), w, fa, fb,
                        l2=1.0, reweight=True, rank_sets=False)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--battles", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    df = battles(args.battles)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "battles.parquet"
        df.to_parquet(path)
        mine, cold, warm = [], [], []
        for _ in range(args.rounds):
            mine.append(ours(df))
            if PEER.exists():
                out = subprocess.run([str(PEER), "-c", PEER_CODE, str(path),
                                      json.dumps(FEATURES), "2"], check=True,
                                     capture_output=True, text=True).stdout
                times = json.loads(out)
                cold.append(times[0])
                warm.append(min(times[1:]))
    print(f"{args.battles} battles, 40 models, 4 style features, {args.rounds} rounds")
    print(f"ours (controlled + uncontrolled fits, sandwich): best {min(mine):.2f} s")
    if cold:
        print(f"arena-rank first call (with JAX compilation):   best {min(cold):.2f} s")
        print(f"arena-rank later calls:                         best {min(warm):.2f} s")
        print(f"ratio ours / arena-rank: {min(mine) / min(warm):.2f} (warm), "
              f"{min(mine) / min(cold):.2f} (first call)")
    else:
        print("arena-rank's venv (/work/peers/arena-rank) is absent: no peer timing.")


if __name__ == "__main__":
    main()
