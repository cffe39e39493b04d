"""The long commands of the fuzz lists (issues 25 and 31), each with an input that is small to
write but costly to run, and the line it must print before the work: an estimate (a
``warning:`` line with the time, the option and what to change) or a refusal (``error:``,
exit 1, naming the option).

Shared by tests/cli/test_cost_guards.py (the table, as fresh processes and in-process) and
benchmarks/bench_cost_guards.py (the time to that line). ``make_inputs(folder)`` writes the
inputs; ``CASES`` holds ``(name, argv, kind, substring)`` with ``{d}`` for the folder.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

#: (name, argv with {d} for the inputs' folder, "warning" | "error", substring of that line)
CASES = [
    ("leaderboard resamples 1e8", "leaderboard {d}/items.csv --n-resamples 100000000",
     "error", "use n_resamples (--n-resamples) <="),
    ("leaderboard resamples 5e6", "leaderboard {d}/items.csv --n-resamples 5000000",
     "warning", "n_resamples (--n-resamples) = 5,000,000"),
    ("aggregate resamples 1e9", "aggregate {d}/runs.csv --n-resamples 1000000000",
     "error", "use n_resamples (--n-resamples) <="),
    ("plan bayes-mcnemar n 1e17", "plan bayes-mcnemar --n 100000000000000000 --accuracy-a 0.85 "
     "--accuracy-b 0.8 --discordance 0.1", "error", "use n (--n) <="),
    ("battles resamples 1e6", "leaderboard {d}/battles.csv --battles --n-resamples 1000000",
     "warning", "n_resamples (--n-resamples) = 1,000,000"),
    ("battles resamples 1e9", "leaderboard {d}/battles.csv --battles --n-resamples 1000000000",
     "error", "use n_resamples (--n-resamples) <="),
    ("style control resamples", "leaderboard {d}/battles.csv --battles --control-for len "
     "--n-resamples 1000000", "warning", "n_resamples (--n-resamples) = 1,000,000"),
    ("benchmark README example", "benchmark --models logreg,rf,nb --datasets sklearn --cv 10x10 "
     "--out {d}/bench.parquet", "warning", "--cv"),
    ("leaderboard 10,000 models", "leaderboard {d}/many_models.csv", "warning",
     "10000 models"),
    ("compare 500 MB long CSV", "compare {d}/big.csv", "warning", "500 MB"),
    ("hierarchical MCMC 2,000 data sets", "compare {d}/hier.csv --hierarchical", "warning",
     "--hierarchical"),
    ("simulate corani-fig2a --full", "simulate corani-fig2a --full", "warning", "--full"),
    ("simulate lacoste-fig3 --full", "simulate lacoste-fig3 --full", "warning", "--full"),
    ("compare --posthoc, 160 models, all pairs", "compare {d}/many_compare.csv --posthoc holm "
     "--pairs all", "warning",
     "--format json"),
    ("items 10^7 rows", "items {d}/items_big.parquet", "warning", "10,000,000 rows"),
    ("gate --aa resamples 1e7", "gate {d}/base.csv {d}/cand.csv --aa --n-resamples 10000000",
     "error", "use n_resamples (--n-resamples) <="),
]

#: Plans of every kind at a huge n: answered at once in bounded memory (exit 0), a normal
#: approximation said where the exact enumeration stops; (argv, substring of the output).
HUGE_PLANS = [
    ("plan mcnemar --n 10000000000000000 --accuracy-a 0.85 --accuracy-b 0.8 --discordance 0.1 "
     "--method exact", "Connor's (1987) normal approximation"),
    ("plan mcnemar --n 10000000000000000 --accuracy-a 0.85 --accuracy-b 0.8 --discordance 0.1",
     "exact_power is not computed"),
    ("plan sign --n 10000000000000000 --p-win 0.6", "normal approximation"),
    ("plan bayes-mcnemar --n 10000000000000000 --accuracy-a 0.85 --accuracy-b 0.8 "
     "--discordance 0.1", "midpoint rule"),
    ("plan paired-t --n 10000000000000000 --effect 0.1", "power = 1.000"),
    ("plan paired-t --n 10000000000000000 --effect 0.1 --wilcoxon", "power = 1.000"),
    ("plan auc --auc-a 0.8 --auc-b 0.79 --n-positive 10000000000000000", "power = 1.000"),
    ("plan corrected-t --effect 0.5 --runs 1000 --folds 1000", "corrected"),
    ("plan gold-labels --width 0.001 --correlation 0.5 --n-items 10000000000000000",
     "human labels"),
]


def make_inputs(folder: Path) -> Path:
    """Write every case's input into ``folder`` (a few seconds, ~40 MB of disk)."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    pd.DataFrame({"model": np.repeat(list("ABC"), 300), "example": np.tile(np.arange(300), 3),
                  "correct": (rng.random(900) < 0.7).astype(int)}
                 ).to_csv(folder / "items.csv", index=False)
    pd.DataFrame({"task": np.repeat(list("uvw"), 6), "model": np.tile(np.repeat(list("AB"), 3), 3),
                  "run": np.tile(np.arange(3), 6), "score": rng.random(18)}
                 ).to_csv(folder / "runs.csv", index=False)
    k, b = 20, 20_000
    a = rng.integers(0, k, b)
    other = (a + rng.integers(1, k, b)) % k
    names = np.array([f"m{i:02d}" for i in range(k)])
    pd.DataFrame({"model_a": names[a], "model_b": names[other],
                  "winner": rng.choice(["model_a", "model_b", "tie"], b, p=[0.45, 0.45, 0.1]),
                  "len_a": rng.integers(10, 1000, b), "len_b": rng.integers(10, 1000, b)}
                 ).to_csv(folder / "battles.csv", index=False)
    m, n = 10_000, 20
    pd.DataFrame({"model": np.repeat([f"m{i:05d}" for i in range(m)], n),
                  "example": np.tile(np.arange(n), m),
                  "correct": (rng.random(m * n) < 0.6).astype(int)}
                 ).to_csv(folder / "many_models.csv", index=False)
    # 100,000 real rows (2.6 MB), then a sparse tail up to 500 MB that uses no disk: the
    # estimate reads the file's size, before any of it
    cells = rng.random(100_000)
    with open(folder / "big.csv", "w") as f:
        f.write("task,model,run,fold,score\n")
        f.writelines(f"task{i // 1000},model{i // 100 % 10},{i // 10 % 10},{i % 10},{x:.6f}\n"
                     for i, x in enumerate(cells))
        f.truncate(500 * 10**6)
    q, folds = 2000, 10
    pd.DataFrame({"task": np.repeat([f"d{t}" for t in range(q)], 2 * folds),
                  "model": np.tile(np.repeat(["A", "B"], folds), q),
                  "fold": np.tile(np.arange(folds), 2 * q),
                  "score": 0.8 + 0.01 * rng.standard_normal(2 * q * folds)}
                 ).to_csv(folder / "hier.csv", index=False)
    m, t = 160, 10
    pd.DataFrame({"task": np.repeat([f"d{i}" for i in range(t)], m),
                  "model": np.tile([f"m{i}" for i in range(m)], t), "score": rng.random(m * t)}
                 ).to_csv(folder / "many_compare.csv", index=False)
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 10**7
    pq.write_table(pa.table({"model": np.repeat(np.arange(500), rows // 500),
                             "item": np.tile(np.arange(rows // 500), 500),
                             "score": np.ones(rows, dtype=np.int8)}),
                   folder / "items_big.parquet")
    for name in ("base", "cand"):
        pd.DataFrame({"model": name, "item": np.arange(10_000),
                      "score": (rng.random(10_000) < 0.7).astype(int)}
                     ).to_csv(folder / f"{name}.csv", index=False)
    return folder


ROOT = Path(__file__).resolve().parents[1]


def first_line(argv, *, limit: float, env=None):
    """Run ``outperform argv`` as a fresh process until its first ``warning:`` or ``error:``
    line on stderr; kill it then (or at ``limit`` seconds). Returns (line or None, exit code
    or None if killed, seconds to the line)."""
    env = dict(os.environ if env is None else env, COLUMNS="400",
               PYTHONPATH=os.pathsep.join([str(ROOT / "src"), *sys.path]))
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "outperform.cli", *argv], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    line, seconds = None, None
    try:
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(proc.stderr, selectors.EVENT_READ)
        while time.perf_counter() - started < limit:
            if not sel.select(timeout=0.1):
                if proc.poll() is not None:
                    break
                continue
            text = proc.stderr.readline()
            if not text:
                break
            if text.startswith(("warning:", "error:")):
                line, seconds = text.strip(), time.perf_counter() - started
                break
        if line is not None and line.startswith("error:"):
            proc.wait(timeout=limit)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return line, proc.returncode if line and line.startswith("error:") else None, seconds
