"""Variance components of runs x tasks (Williams 2026 eq. 1 extended), REML via statsmodels,
against R's lme4 and by recovering known components in simulation."""
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from outperform._validation import InvalidInputError, OutperformError
from outperform.compare import variance_components

from _report_cases import VARIANCE_TRUE, variance_simulation  # noqa: E402



@pytest.mark.slow
def test_recovers_known_components():
    """150 tasks x 3 models x 5 seeds: each REML estimate within 4 standard errors of the
    truth, SE ~ var sqrt(2 / df) with df the levels of the factor less what it spends."""
    v = variance_components(variance_simulation(150))
    df = {"task": 149, "model x task": 2 * 149, "seed": 150 * 4, "residual": 150 * 2 * 4}
    for name, true in VARIANCE_TRUE.items():
        assert abs(v.components[name] - true) < 4 * true * np.sqrt(2 / df[name]), name
    assert sum(v.shares.values()) == pytest.approx(1)
    assert v.fixed_effects["C(model)[T.m2]"] == pytest.approx(0.2, abs=0.25)


def _no_seed_effect():
    """Returns of 3 models x 6 tasks x 5 runs with no shared seed effect: the seed variance is
    on its boundary (0), where gradient optimisers stop short yet report convergence."""
    rng = np.random.default_rng(0)
    rows = []
    for task in ["Pong", "Breakout", "Seaquest", "Qbert", "Enduro", "Asterix"]:
        difficulty = rng.uniform(0.3, 0.8)
        for model, skill in [("DQN", 0.0), ("C51", 0.05), ("Rainbow", 0.12)]:
            for run in range(5):
                rows.append({"task": task, "model": model, "run": run,
                             "score": 1000 * (difficulty + skill + rng.normal(0, 0.08))})
    return pd.DataFrame(rows)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs Rscript with lme4")
@pytest.mark.parametrize("case", ["interior", "boundary"])
def test_equals_lme4(tmp_path, case):
    frame = variance_simulation(12, seed=3) if case == "interior" else _no_seed_effect()
    frame.to_csv(tmp_path / "d.csv", index=False)
    script = f"""
    suppressMessages(library(lme4))
    d <- read.csv("{tmp_path / 'd.csv'}")
    for (v in c("task", "model", "run")) d[[v]] <- factor(d[[v]])
    f <- lmer(score ~ model + (1 | task) + (1 | task:model) + (1 | task:run), data = d,
              REML = TRUE, control = lmerControl(optimizer = "bobyqa",
                                                 optCtrl = list(rhoend = 1e-12)))
    vc <- as.data.frame(VarCorr(f))
    cat(paste(vc$grp, collapse = ","), paste(sprintf("%.15g", vc$vcov), collapse = ","),
        sep = "\\n")
    """
    run = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
    if "there is no package called" in run.stderr:
        pytest.skip("R has no lme4 (apt-get install r-cran-lme4)")
    assert run.returncode == 0, run.stderr
    groups, values = (line.strip().split(",") for line in run.stdout.strip().splitlines())
    lme4 = dict(zip(groups, map(float, values)))
    names = {"task": "task", "model x task": "task:model", "seed": "task:run",
             "residual": "Residual"}
    v = variance_components(frame)
    for ours, theirs in names.items():
        # a variance lme4 puts at exactly 0 is compared in absolute terms (units of the total)
        assert v.components[ours] == pytest.approx(
            lme4[theirs], rel=1e-4, abs=1e-8 * sum(lme4.values())), ours


@pytest.mark.slow
def test_folds_give_a_split_component_and_the_report_reads():
    frame = variance_simulation(10, n_runs=3)
    folds = pd.concat([frame.assign(fold=k, score=frame.score + 0.05 * k) for k in range(2)])
    v = variance_components(folds)
    assert "split" in v.components and "task:run:fold" in v.model_formula
    text = str(v)
    assert "intraclass correlation" in text and ("more tasks" in text or "more seeds" in text)


def test_bad_tables_are_refused():
    frame = variance_simulation(5)
    with pytest.raises(InvalidInputError, match="'run' column"):
        variance_components(frame[frame.run == 0].drop(columns="run"))
    with pytest.raises(OutperformError, match="at least 2"):
        variance_components(frame[frame.model == "m0"])


@pytest.mark.slow
def test_plot_and_cli_show_the_components(tmp_path):
    import matplotlib
    matplotlib.use("Agg")
    from typer.testing import CliRunner

    from outperform.cli import app
    from outperform.plot import plot_variance_components

    frame = variance_simulation(8)
    v = variance_components(frame)
    ax = plot_variance_components(v)
    np.testing.assert_allclose([p.get_width() for p in ax.patches], list(v.shares.values()))
    path = tmp_path / "runs.csv"
    frame.to_csv(path, index=False)
    res = CliRunner().invoke(app, ["aggregate", str(path), "--variance", "--n-resamples", "50"])
    assert res.exit_code == 0, res.output
    assert "variance components of 'score'" in res.stdout and "model x task" in res.stdout
