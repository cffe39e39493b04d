"""Runs x tasks on real input (issue 18): the runner's output through `outperform aggregate`,
and the UCI-54 10 x 10-fold CV accuracies as runs x folds x tasks for the variance table."""
import json
import shutil
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from typer.testing import CliRunner

from outperform.cli import app

runner = CliRunner()


@pytest.mark.slow
def test_benchmark_output_through_aggregate(tmp_path):
    """`outperform benchmark` (3 models, the 4 bundled scikit-learn data sets, 5 repeats of
    3-fold CV: 5 seeds of the splits) then `outperform aggregate` on its file. The runner gives
    every model the same splits, so the runs are paired and the report says so; the IQM is
    scipy's trim_mean of the fold-averaged, min-max normalised runs."""
    out = tmp_path / "bench.csv"
    res = runner.invoke(app, ["benchmark", "--models", "logreg,nb,tree", "--cv", "5x3",
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["aggregate", str(out), "--normalize", "min-max", "--seed", "0",
                              "--n-resamples", "2000", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.stdout)
    assert got["paired"] is True and got["design"].startswith("paired")
    assert got["n_runs"] == {"logreg": 5, "nb": 5, "tree": 5} and len(got["tasks"]) == 4
    frame = pd.read_csv(out).groupby(["task", "model", "run"], as_index=False)["accuracy"].mean()
    lo = frame.groupby("task")["accuracy"].transform("min")
    hi = frame.groupby("task")["accuracy"].transform("max")
    frame["norm"] = (frame["accuracy"] - lo) / (hi - lo)
    for model in ("logreg", "nb", "tree"):
        x = frame[frame.model == model].pivot(index="run", columns="task", values="norm")
        assert got["aggregates"][model]["iqm"]["estimate"] == pytest.approx(
            sps.trim_mean(x.to_numpy(), 0.25, axis=None), abs=1e-12)
    res = runner.invoke(app, ["aggregate", str(out), "--normalize", "min-max", "--seed", "0",
                              "--n-resamples", "200"])
    assert "paired design" in res.stdout and "each run's score is its mean over folds" in \
        res.stdout


@pytest.fixture(scope="module")
def uci54(shared_data):
    from outperform.data import load_uci54
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # the duplicated 'credit' line, dropped
        return load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)


@pytest.mark.slow
def test_uci54_variance_components_equal_lme4(uci54, tmp_path):
    """nbc and hnb on the first three UCI data sets (alphabetically), 10 runs x 10 folds each:
    runs x folds x tasks. (The whole table, 26,500 rows, takes statsmodels' REML some 4 CPU
    minutes, 100 split levels per data set, too long for the suite; lme4 needs 3 s.) R's lme4 on the same rows:
        lmer(score ~ model + (1 | task) + (1 | task:model) + (1 | task:run)
             + (1 | task:run:fold), data = d, REML = TRUE,
             control = lmerControl(optCtrl = list(xtol_abs = 1e-14, ftol_abs = 1e-16,
                                                  xtol_rel = 1e-14, ftol_rel = 1e-16)))
    (run, fold, task, model as factors); as.data.frame(VarCorr(m))$vcov to 1e-4 relative
    (a variance lme4 puts on the boundary, 0, must be ~0 here too). With three data sets the
    REML surface is flat along the task variance: lme4's default tolerances stop 1.1e-4 short
    of its own tight optimum (0.0153897 vs 0.0153914, equal REML criterion to 1e-10), hence
    the tight ones, at which lme4's nloptwrap and bobyqa agree to 3e-6."""
    from outperform.compare import variance_components
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript is not installed")
    tasks = sorted(uci54["task"].unique())[:3]
    uci54 = uci54[uci54["task"].isin(tasks) & uci54["model"].isin(["nbc", "hnb"])]
    path = tmp_path / "uci54.csv"
    uci54.to_csv(path, index=False)
    script = (
        "suppressMessages(library(lme4)); d <- read.csv(commandArgs(TRUE)[1]);"
        "for (v in c('task', 'model', 'run', 'fold')) d[[v]] <- factor(d[[v]]);"
        "m <- lmer(score ~ model + (1 | task) + (1 | task:model) + (1 | task:run) +"
        " (1 | task:run:fold), data = d, REML = TRUE, control = lmerControl(optCtrl = list("
        "xtol_abs = 1e-14, ftol_abs = 1e-16, xtol_rel = 1e-14, ftol_rel = 1e-16)));"
        "v <- as.data.frame(VarCorr(m)); cat(sprintf('%s=%.15g\\n', v$grp, v$vcov), sep = '')")
    done = subprocess.run(["Rscript", "-e", script, str(path)], capture_output=True, text=True)
    if done.returncode != 0 and "lme4" in done.stderr:
        pytest.skip("R package lme4 is not installed")
    lme4 = dict(line.split("=") for line in done.stdout.split())
    names = {"task": "task", "model x task": "task:model", "seed": "task:run",
             "split": "task:run:fold", "residual": "Residual"}
    vc = variance_components(uci54, metric="score")
    for ours, theirs in names.items():
        expected = float(lme4[theirs])
        if expected < 1e-10:
            assert vc.components[ours] < 1e-8 * sum(vc.components.values())
        else:
            assert vc.components[ours] == pytest.approx(expected, rel=1e-4)
    assert "task:run:fold" in vc.model_formula
    assert np.isclose(sum(vc.shares.values()), 1)
