"""Time from a fresh `outperform` process to its first estimate or refusal, for every long
command of the fuzz lists (issue 25 "Hangs and memory", issue 31 "Costs found out too late").

Run:  PYTHONPATH=src python benchmarks/bench_cost_guards.py [--rounds 1] [--keep DIR]

The cases and their inputs are tests/_cost_cases.py (the table tests/cli/test_cost_guards.py
checks). Each command runs as a new process, killed once its first ``warning:`` or ``error:``
line is on stderr. The peer is the floor any Python tool on this stack pays before it can
size its work: a fresh process that starts Python and imports the command line, numpy,
pandas, pyarrow and scipy.stats (``IMPORTS``), run just before each case, alternating. Printed
per case: the wall time to the line, the peer's wall time, the difference (issue 31's goal:
the estimate within 2 s) and the ratio ours / peer, and the line. The load average is printed
at the start and the end.
"""
from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from _cost_cases import CASES, first_line, make_inputs  # noqa: E402

LIMIT = 120.0


def _env():
    return dict(os.environ, COLUMNS="400",
                PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))


#: What every one of these commands loads before it can size its work: the command line and
#: the libraries of the tables and kernels.
IMPORTS = "import outperform.cli, numpy, pandas, pyarrow.parquet, scipy.stats"


def import_seconds() -> float:
    """Wall time of a fresh process that starts Python and makes :data:`IMPORTS`."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", IMPORTS], env=_env(), check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="write the inputs here and keep them")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="outperform-cost-"))
    make_inputs(folder)
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print("| command | to the line (s) | peer: start + imports (s) | difference (s) | "
          "ratio ours / peer | line |")
    print("|---|---|---|---|---|---|")
    for name, template, _, _ in CASES:
        for _ in range(args.rounds):
            base = import_seconds()
            line, _, seconds = first_line(shlex.split(template.format(d=folder)), limit=LIMIT,
                                          env=_env())
            seconds = float("nan") if seconds is None else seconds
            shown = (line or "(none)")[:110].replace("|", "/")
            print(f"| {name} | {seconds:.2f} | {base:.2f} | {seconds - base:.2f} | "
                  f"{seconds / base:.2f} | {shown} |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
