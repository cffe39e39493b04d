"""A newcomer's path, as README.md writes it: a clean virtual environment, `pip install -e .`,
then `outperform report` on their own CSV. Slow (it installs the core dependencies)."""
import os
import subprocess
import sys

import pandas as pd
import pytest

from _paths import ROOT

REPO = ROOT


@pytest.mark.slow
def test_install_and_report_on_own_csv(tmp_path):
    readme = (REPO / "README.md").read_text()
    assert "pip install -q -e ." in readme and "outperform report results.csv" in readme
    if os.environ.get("OUTPERFORM_SKIP_INSTALL_TEST"):
        pytest.skip("OUTPERFORM_SKIP_INSTALL_TEST is set")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(REPO)],
                             capture_output=True, text=True)
    if install.returncode != 0:
        pytest.skip(f"pip could not install (no package index?): {install.stderr[-300:]}")
    results = tmp_path / "results.csv"
    pd.DataFrame({"dataset": [f"d{i}" for i in range(12)],
                  "mine": [0.81, 0.75, 0.9, 0.66, 0.72, 0.88, 0.91, 0.7, 0.64, 0.83, 0.79, 0.95],
                  "baseline": [0.8, 0.7, 0.88, 0.67, 0.7, 0.85, 0.9, 0.69, 0.6, 0.8, 0.8, 0.93],
                  "other": [0.78, 0.71, 0.86, 0.6, 0.69, 0.84, 0.9, 0.66, 0.62, 0.79, 0.75, 0.9]}
                 ).to_csv(results, index=False)
    run = subprocess.run([str(venv / "bin" / "outperform"), "report", str(results), "--out",
                          str(tmp_path / "report")], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    written = {p.name for p in (tmp_path / "report").iterdir()}
    assert {"report.html", "report.md", "report.tex", "report.json"} <= written
