"""Long work on the command line: `outperform benchmark` end to end (designs with few splits,
results kept whatever the analysis does, scikit-learn as a core dependency that `import
outperform` does not load) and progress on a terminal only (benchmark, simulate, MCMC)."""
import importlib
import re
import subprocess
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

from _paths import ROOT
from outperform.cli import app

runner = CliRunner()
TERMINAL_VARIABLES = ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")
SMALL = ["benchmark", "--models", "nb,dummy,tree", "--datasets", "iris,wine"]


def test_a_single_holdout_split_is_refused_before_any_fit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, [*SMALL, "--cv", "holdout:1x0.3"])
    assert res.exit_code == 1
    assert "Traceback" not in res.output
    assert "one train/test split" in res.output and "at least 2" in res.output
    assert list(tmp_path.iterdir()) == []  # refused before computing or writing anything


def test_two_holdout_splits_run_to_the_end(tmp_path, monkeypatch):
    # With 2 splits, pairs of models often have the same difference on both (zero variance):
    # that pair's t-test is undefined, and said so, while every data set's Q2 is still run.
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, [*SMALL, "--cv", "holdout:2x0.3"])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    assert "Q2 on iris" in res.output and "Q2 on wine" in res.output
    assert "not run" not in res.output and "undefined" in res.output
    assert "Q3 across data sets" in res.output


def test_results_are_written_without_out_and_before_the_analysis(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def broken(*args, **kwargs):
        raise RuntimeError("analysis failed")

    monkeypatch.setattr(importlib.import_module("outperform.compare"), "compare", broken)
    res = runner.invoke(app, [*SMALL, "--cv", "2x3"])
    # An unexpected error in the analysis: exit 3 (internal error), the fits kept.
    assert res.exit_code == 3 and "internal error" in res.output, res.output
    default = tmp_path / "outperform-benchmark-2x3-accuracy-seed0.parquet"
    assert default.name in res.output.replace("\n", "")  # the user is told where
    saved = pd.read_parquet(default)
    assert len(saved) == 3 * 2 * 2 * 3  # models x data sets x runs x folds: nothing lost
    assert not saved.duplicated(["task", "model", "run", "fold"]).any()


@pytest.mark.slow
def test_benchmark_shows_a_progress_bar_only_on_a_terminal(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    plain = runner.invoke(app, [*SMALL, "--cv", "2x3", "--out", "a.csv"])
    assert plain.exit_code == 0 and "ETA" not in plain.output
    assert "36 fits" in plain.output  # the size of the work is said in any case
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich's force_terminal switch
    bar = runner.invoke(app, [*SMALL, "--cv", "2x3", "--out", "b.csv", "--n-jobs", "2"])
    assert bar.exit_code == 0 and "36/36" in bar.output and "ETA" in bar.output


def test_scikit_learn_is_a_core_dependency_loaded_only_when_used():
    tomllib = pytest.importorskip("tomllib")  # Python >= 3.11
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    core = {d.split(">")[0].split("=")[0] for d in project["project"]["dependencies"]}
    assert {"scikit-learn", "joblib", "threadpoolctl"} <= core
    assert project["project"]["optional-dependencies"]["ml"] == []  # old installs still work
    code = ("import sys, outperform, outperform.cli, outperform.compare; "
            "print(sorted(m for m in ('sklearn', 'joblib') if m in sys.modules))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, env={"PYTHONPATH": ":".join(sys.path)})
    assert loaded.stdout.strip() == "[]"


@pytest.mark.parametrize("terminal", [True, False])
def test_simulate_shows_a_progress_bar_only_on_a_terminal(monkeypatch, terminal):
    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    if terminal:
        monkeypatch.setenv("TTY_COMPATIBLE", "1")
    res = runner.invoke(app, ["simulate", "lacoste-fig3"])
    assert res.exit_code == 0, res.output
    # quick size: 4 values of N x 3000 repetitions
    assert ("12000/12000" in res.output and "ETA" in res.output) is terminal


@pytest.mark.parametrize("terminal", [True, False])
def test_a_step_without_parts_shows_a_spinner_on_a_terminal_and_a_line_elsewhere(
        monkeypatch, capfd, terminal):
    # the hierarchical t-test's MCMC is one compiled call: it reports through this
    from outperform._parallel import progress_status

    for name in TERMINAL_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TTY_COMPATIBLE", "1" if terminal else "0")
    with progress_status("sampling", True):
        pass
    err = capfd.readouterr().err
    assert ("\x1b[?25l" in err) is terminal  # rich hides the cursor while it animates
    assert ("sampling ...\n" in err) is not terminal
    assert re.search(r"sampling: done in \d+\.\d s\.\n$", err)
    with progress_status("sampling", False):
        pass
    assert capfd.readouterr().err == ""


def test_an_unwritable_results_file_is_a_message_not_a_traceback(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    res = runner.invoke(app, [*SMALL, "--cv", "2x3", "--out", str(blocker / "r.csv")])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "error:" in res.output and "a_file" in res.output
