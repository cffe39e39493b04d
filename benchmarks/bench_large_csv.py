"""A 500 MB long CSV (16 M rows: task, model, run, fold, score) analysed end to end by
``outperform compare``, timed next to the peers' user-facing path on the same file.

Run:  .venv/bin/python benchmarks/bench_large_csv.py [--rows 16000000] [--keep DIR]

Each measured command runs in its own process, started by a small wrapper process whose
``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss`` is the peak resident memory of that command
alone. The peer path is what a pandas user writes: ``pandas.read_csv`` with its defaults, the
folds averaged per (task, model), and ``autorank`` on the wide table (skipped, and said, when
autorank is not installed: ``pip install -e '.[bench]'``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

N_TASKS, N_MODELS, N_RUNS, N_FOLDS = 2000, 80, 10, 10  # 16 M rows
MEASURE = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(json.dumps({"seconds": time.perf_counter() - t0, "code": done.returncode,
                  "stderr": done.stderr[-2000:],
                  "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""
PEER = """
import sys
import pandas as pd
df = pd.read_csv(sys.argv[1])
wide = df.groupby(["task", "model"])["score"].mean().unstack()
try:
    from autorank import autorank
except ImportError:
    sys.exit(0)
autorank(wide, alpha=0.05, verbose=False, force_mode="nonparametric")
"""


def generate(path: Path, n_tasks: int, seed: int = 0) -> None:
    """Write the long CSV block by block (bounded memory), with a progress line per 10%."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    rng = np.random.default_rng(seed)
    models = np.array([f"model_{m:02d}" for m in range(N_MODELS)])
    skill = rng.normal(0.0, 0.01, N_MODELS)  # models differ a little; tasks differ more
    per_task = N_MODELS * N_RUNS * N_FOLDS
    block = max(1, n_tasks // 10)
    with pacsv.CSVWriter(str(path), pa.schema([("task", pa.string()), ("model", pa.string()),
                                               ("run", pa.int64()), ("fold", pa.int64()),
                                               ("score", pa.float64())]),
                           write_options=pacsv.WriteOptions(quoting_style="none")) as out:
        for start in range(0, n_tasks, block):
            tasks = np.arange(start, min(start + block, n_tasks))
            m_idx = np.tile(np.repeat(np.arange(N_MODELS), N_RUNS * N_FOLDS), tasks.size)
            base = rng.uniform(0.6, 0.95, tasks.size).repeat(per_task)
            score = np.clip(base + skill[m_idx] + rng.normal(0, 0.03, base.size), 0, 1).round(6)
            out.write_table(pa.table({
                "task": np.array([f"task_{t:04d}" for t in tasks]).repeat(per_task),
                "model": models[m_idx],
                "run": np.tile(np.repeat(np.arange(N_RUNS), N_FOLDS), tasks.size * N_MODELS),
                "fold": np.tile(np.arange(N_FOLDS), tasks.size * N_MODELS * N_RUNS),
                "score": score}))
            done = min(start + block, n_tasks) / n_tasks
            print(f"  writing {path.name}: {done:.0%}", file=sys.stderr, flush=True)


def measure(cmd: list[str]) -> dict:
    """Wall time, exit code and peak RSS (bytes) of ``cmd`` run in a fresh child process."""
    out = subprocess.run([sys.executable, "-c", MEASURE, *cmd], capture_output=True, text=True,
                         check=True)
    result = json.loads(out.stdout)
    result["peak_bytes"] = result.pop("peak_kb") * 1024  # Linux reports kilobytes
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=N_TASKS * N_MODELS * N_RUNS * N_FOLDS,
                        help="rows of the long CSV (a multiple of 8,000)")
    parser.add_argument("--keep", type=Path, help="write the CSV into this folder and keep it")
    args = parser.parse_args()
    n_tasks = max(2, args.rows // (N_MODELS * N_RUNS * N_FOLDS))
    try:
        import autorank  # noqa: F401
        peer_name = "pandas.read_csv (defaults) + groupby mean + autorank"
    except ImportError:
        peer_name = "pandas.read_csv (defaults) + groupby mean (autorank not installed: skipped)"
    print(f"machine: {os.cpu_count()} cores, python {platform.python_version()}, "
          f"{platform.system()} {platform.machine()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "big.csv"
        rows = n_tasks * N_MODELS * N_RUNS * N_FOLDS
        print(f"generating {rows:,} rows ({n_tasks} tasks x {N_MODELS} models x {N_RUNS} runs x "
              f"{N_FOLDS} folds, seed 0) ...", file=sys.stderr)
        generate(path, n_tasks)
        print(f"file: {path.stat().st_size / 1e6:,.0f} MB, {rows:,} rows")
        ours = measure([sys.executable, "-m", "outperform.cli", "compare", str(path)])
        peer = measure([sys.executable, "-c", PEER, str(path)])
        for name, r in (("outperform compare big.csv", ours), (peer_name, peer)):
            status = "ok" if r["code"] == 0 else f"FAILED (exit {r['code']}): {r['stderr']}"
            print(f"{name}: {r['seconds']:.1f} s, peak RSS {r['peak_bytes'] / 2**30:.2f} GiB, "
                  f"{status}")
        print(f"ratio ours / peer: time {ours['seconds'] / peer['seconds']:.2f}, "
              f"peak memory {ours['peak_bytes'] / peer['peak_bytes']:.2f}")


if __name__ == "__main__":
    main()
