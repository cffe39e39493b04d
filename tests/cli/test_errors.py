"""How the command line reports errors: exit 1 for input, 3 for bugs, extras to install.

DESIGN.md, "The command line": a user never sees a traceback for input they gave; a missing
optional dependency names its extra; an internal error prints one line with the path of a
file holding the traceback (exit 3), and ``--debug`` prints the traceback instead.
"""
from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from _paths import ROOT
from outperform import InvalidInputError
from outperform._validation import EXTRAS
from outperform.cli import app
from outperform.data import load_demsar_table6

# The package, not the function ``outperform.compare`` that shadows it on the top level; the
# CLI imports ``compare`` from it when a command runs, so a patch here reaches the command.
COMPARE = importlib.import_module("outperform.compare")
runner = CliRunner()


@pytest.fixture(scope="module")
def t6(tmp_path_factory):
    path = tmp_path_factory.mktemp("t6") / "t6.csv"
    load_demsar_table6().frame.to_csv(path, index=False)
    return str(path)


def invoke(args):
    res = runner.invoke(app, args)
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    return res


def _raiser(exc):
    def fail(*args, **kwargs):
        raise exc
    return fail


def test_internal_error_exits_3_with_the_traceback_in_a_file(t6, monkeypatch):
    monkeypatch.setattr(COMPARE, "compare", _raiser(RuntimeError("boom")))
    res = invoke(["compare", t6])
    assert res.exit_code == 3, res.output
    assert "internal error" in res.stderr and "RuntimeError: boom" in res.stderr
    assert "Traceback" not in res.output
    path = Path(re.search(r"traceback is in (\S+):", res.stderr).group(1))
    try:
        text = path.read_text()
        assert "Traceback (most recent call last)" in text and "RuntimeError: boom" in text
    finally:
        path.unlink()


def test_debug_prints_the_traceback_instead(t6, monkeypatch):
    monkeypatch.setattr(COMPARE, "compare", _raiser(RuntimeError("boom")))
    res = invoke(["--debug", "compare", t6])
    assert res.exit_code == 3
    assert "Traceback (most recent call last)" in res.stderr and "RuntimeError: boom" in res.stderr
    assert "traceback is in" not in res.stderr


def test_debug_shows_the_traceback_of_an_input_error_too(t6):
    res = invoke(["--debug", "compare", t6, "--alpha", "2"])
    assert res.exit_code == 1
    assert "Traceback (most recent call last)" in res.stderr and "error: alpha" in res.stderr


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_missing_optional_dependency_names_its_extra(t6, monkeypatch, module):
    exc = ModuleNotFoundError(f"No module named '{module}'", name=f"{module}.sub")
    monkeypatch.setattr(COMPARE, "compare", _raiser(exc))
    res = invoke(["compare", t6])
    assert res.exit_code == 1, res.output
    assert f"pip install 'outperform[{EXTRAS[module][1]}]'" in res.stderr
    assert "Traceback" not in res.output


def test_missing_core_module_is_an_internal_error(t6, monkeypatch):
    exc = ModuleNotFoundError("No module named 'scipy'", name="scipy")
    monkeypatch.setattr(COMPARE, "compare", _raiser(exc))
    res = invoke(["compare", t6])
    assert res.exit_code == 3 and "internal error" in res.stderr
    Path(re.search(r"traceback is in (\S+):", res.stderr).group(1)).unlink()


def test_extras_match_pyproject():
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    # the distribution that brings each module (jaxlib comes with jax, distributed with
    # dask[distributed])
    dist = {"jaxlib": "jax", "distributed": "dask[distributed]"}
    for module, (_, extra) in EXTRAS.items():
        assert any(req.startswith(dist.get(module, module)) for req in extras[extra]), module


def test_missing_jax_for_the_hierarchical_test_names_bayes(tmp_path, monkeypatch):
    """The real import path: jax blocked in sys.modules, as on a machine without the extra."""
    noise = np.random.default_rng(0).normal(0, 0.02, (6, 2, 5))
    rows = [{"task": f"t{t}", "model": m, "fold": f, "accuracy": 0.8 - 0.02 * i + noise[t, i, f]}
            for t in range(6) for i, m in enumerate("AB") for f in range(5)]
    path = tmp_path / "folds.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    monkeypatch.setitem(sys.modules, "jax", None)
    res = invoke(["compare", str(path), "--hierarchical"])
    assert res.exit_code == 1, res.output
    assert "pip install 'outperform[bayes]'" in res.stderr


def test_missing_sklearn_is_a_broken_install_not_a_missing_extra(monkeypatch):
    # scikit-learn is a core dependency: no extra to name, an internal error with its file.
    monkeypatch.setitem(sys.modules, "sklearn", None)
    for name in [m for m in sys.modules if m.startswith("outperform.experiments")]:
        monkeypatch.delitem(sys.modules, name)
    res = invoke(["benchmark", "--models", "nb", "--datasets", "iris", "--cv", "1x2"])
    assert res.exit_code == 3 and "internal error" in res.stderr, res.output
    assert "outperform[ml]" not in res.stderr
    Path(re.search(r"traceback is in (\S+):", res.stderr).group(1)).unlink()


def test_file_errors_of_the_system_name_the_path(t6, monkeypatch):
    exc = PermissionError(13, "Permission denied", "/data/results.csv")
    monkeypatch.setattr(COMPARE, "compare", _raiser(exc))
    res = invoke(["compare", t6])
    assert res.exit_code == 1
    assert "'/data/results.csv'" in res.stderr and "Permission denied" in res.stderr


def test_message_with_brackets_is_printed_as_written(t6, monkeypatch):
    exc = InvalidInputError("a long table needs the columns task, model, [run, fold], score.")
    monkeypatch.setattr(COMPARE, "compare", _raiser(exc))
    res = invoke(["compare", t6])
    assert res.exit_code == 1
    assert "task, model, [run, fold], score" in res.stderr


def test_python_warnings_print_as_one_line(t6, monkeypatch):
    real = COMPARE.compare

    def noisy(*args, **kwargs):
        warnings.warn("scores look like percentages", UserWarning)
        return real(*args, **kwargs)

    monkeypatch.setattr(COMPARE, "compare", noisy)
    res = invoke(["compare", t6])
    assert res.exit_code == 0
    assert "warning: scores look like percentages" in res.stderr
    assert "warnings.warn" not in res.stderr and "UserWarning" not in res.stderr


@pytest.mark.parametrize("args, code", [(["compare", "{t6}", "--alpha", "2"], 1),
                                        (["compare", "{t6}", "--format", "pdf"], 2),
                                        (["simulate", "plot"], 1)])
@pytest.mark.slow
def test_the_installed_entry_point_prints_no_traceback(t6, args, code):
    """Outside CliRunner: typer's own exception hook never gets an exception to print."""
    argv = [a.format(t6=t6) for a in args]
    proc = subprocess.run([sys.executable, "-m", "outperform.cli", *argv], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "error" in proc.stderr.lower()
