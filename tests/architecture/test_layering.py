"""DESIGN.md layering, enforced by import-linter's contracts in pyproject.toml.

The contracts list every package: cli > report > compare | simulate | experiments > plot >
data > bayes > stats > results > the private utilities. Lazy imports inside functions count.
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from _paths import ROOT

LINT = Path(sys.executable).with_name("lint-imports")

pytestmark = pytest.mark.skipif(not LINT.exists(), reason="import-linter is not installed")


def _lint(root: Path) -> subprocess.CompletedProcess:
    # PYTHONPATH first: grimp must analyse this copy, not the installed package.
    return subprocess.run([str(LINT), "--config", str(root / "pyproject.toml"), "--no-cache"],
                          cwd=root, capture_output=True, text=True,
                          env={"PYTHONPATH": str(root / "src"), "PATH": ""}, timeout=300)


def test_the_package_keeps_its_layers():
    run = _lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.mark.parametrize("module, upward", [
    ("stats/_sign.py", "from ..bayes import bayesian_ttest"),          # stats -> bayes
    ("bayes/_ttest.py", "from ..data import read_results"),            # bayes -> data
    ("results/_pairwise.py", "def f():\n    from ..stats import nemenyi"),  # lazy, still seen
    ("stats/_ranks.py", "import matplotlib"),                           # kernel -> matplotlib
])
def test_an_injected_upward_import_breaks_the_contract(tmp_path, module, upward):
    shutil.copytree(ROOT / "src", tmp_path / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = tmp_path / "src" / "outperform" / module
    target.write_text(target.read_text() + "\n\n" + upward + "\n")
    run = _lint(tmp_path)
    assert run.returncode == 1, run.stdout
    assert "1 broken" in run.stdout
