"""``outperform compare-evals`` on two lm-evaluation-harness sample files of 10^5 items each,
end to end (the whole process: start, imports, reading, pairing, tests, tables), timed next to
what a pandas user writes for the same question.

Run:  .venv/bin/python benchmarks/bench_compare_evals.py [--items 100000] [--rounds 3]

The files are written by tests/fixtures/evals/make_fixtures.py in the layout of
lm-evaluation-harness 0.4.13's writer (each line with its document, arguments, responses,
hashes and metrics, about 1 kB: 106 MB per model). Each command runs in its own process; its
wall time and its CPU time (user + system, ``RUSAGE_CHILDREN``) are printed. The peer path
is ``pandas.read_json(lines=True)`` of both files, a merge on ``doc_id`` and
``scipy.stats.ttest_rel`` on ``acc`` (no checks, no clusters, no report). The issue's goal:
under 2 s for 10^5 items.
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

ROOT = Path(__file__).resolve().parents[1]
MEASURE = """
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": time.perf_counter() - t0, "cpu": use.ru_utime + use.ru_stime,
                  "code": done.returncode, "out": done.stdout[-3000:],
                  "stderr": done.stderr[-2000:]}))
"""
PEER = """
import sys
import pandas as pd
from scipy import stats
a = pd.read_json(sys.argv[1], lines=True)[["doc_id", "acc"]]
b = pd.read_json(sys.argv[2], lines=True)[["doc_id", "acc"]]
m = a.merge(b, on="doc_id")
print(m["acc_x"].mean() - m["acc_y"].mean(), stats.ttest_rel(m["acc_x"], m["acc_y"]).pvalue)
"""


def measure(command: list[str]) -> dict:
    out = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(ROOT / "tests/fixtures/evals/make_fixtures.py"), "--big",
                        str(args.items), tmp], check=True)
        files = sorted(str(p) for p in Path(tmp).glob("*/samples_mini_arc_*.jsonl"))
        size = sum(Path(f).stat().st_size for f in files) / 1e6
        print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load "
              f"{os.getloadavg()[0]:.1f}; {args.items} items x 2 models, {size:.0f} MB")
        ours_cmd = [sys.executable, "-m", "outperform.cli", "compare-evals", *files]
        peer_cmd = [sys.executable, "-c", PEER, *files]
        os.environ.update(env)
        for r in range(args.rounds):
            ours = measure(ours_cmd)
            if ours["code"] != 0:
                sys.exit(f"compare-evals failed: {ours['stderr']}")
            line = (f"round {r + 1}: outperform compare-evals {ours['seconds']:.2f} s wall, "
                    f"{ours['cpu']:.2f} s CPU")
            if not args.no_peer:
                peer = measure(peer_cmd)
                line += (f" | pandas read_json + ttest_rel {peer['seconds']:.2f} s wall, "
                         f"{peer['cpu']:.2f} s CPU | ratio wall {ours['seconds'] / peer['seconds']:.2f}"
                         f", CPU {ours['cpu'] / peer['cpu']:.2f}")
            print(line, flush=True)
        print(next(x for x in ours["out"].splitlines() if "better than" in x))


if __name__ == "__main__":
    main()
