"""ruff, configured in pyproject.toml, finds nothing in the package, the tests or the benchmarks."""
import subprocess
import sys
from pathlib import Path

import pytest

from _paths import ROOT

RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is not installed")
def test_ruff_is_clean():
    run = subprocess.run([str(RUFF), "check", "--no-cache", "src", "tests", "benchmarks"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
