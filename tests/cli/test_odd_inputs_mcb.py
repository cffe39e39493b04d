"""Odd inputs of Hsu's comparisons with the best and Dunnett's test against a control
(issue 29, items 1, 3 and 6): each case with its exact outcome."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import compare
from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.cli import app
from outperform.compare import leaderboard
from outperform.data import load_demsar_table6
from outperform.stats import dunnett_paired, mcb

runner = CliRunner()


def _table(path, *, holes=False, additive=False, k=4, n=8):
    rng = np.random.default_rng(4)
    x = 0.8 + rng.normal(scale=0.02, size=(n, k)) + 0.01 * np.arange(k)
    if additive:
        x = 0.7 + 0.01 * np.arange(n)[:, None] + 0.02 * np.arange(k)
    rows = [{"task": f"d{i}", "model": f"m{j}", "accuracy": x[i, j]}
            for i in range(n) for j in range(k) if not (holes and i == 0 and j == 1)]
    file = path / "scores.csv"
    pd.DataFrame(rows).to_csv(file, index=False)
    return file


# (table options, CLI arguments, exit code, message substring)
CLI = [
    ({}, ["--posthoc", "dunnett"], 1, "compares each model with a control: pass control="),
    ({}, ["--posthoc", "dunnett", "--control", "nope"], 1, "control 'nope' is not one of the models"),
    ({}, ["--posthoc", "mcb", "--control", "m0"], 1, "compares each model with the best of the others"),
    ({"holes": True}, ["--posthoc", "mcb"], 1, "needs a result in every (task, model) cell"),
    ({"holes": True}, ["--posthoc", "dunnett", "--control", "m0"], 1,
     "needs a result in every (task, model) cell"),
    ({"additive": True}, ["--posthoc", "mcb"], 1, "zero residual variance"),
    ({}, ["--posthoc", "mcb"], 0, "could be the best"),
    ({}, ["--posthoc", "dunnett", "--control", "m0"], 0, "Dunnett"),
    ({"k": 2}, ["--posthoc", "mcb"], 0, "Hsu's MCB"),
]


@pytest.mark.parametrize("table, args, code, message", CLI)
def test_cli(tmp_path, table, args, code, message):
    file = _table(tmp_path, **table)
    res = runner.invoke(app, ["compare", str(file), *args])
    assert res.exit_code == code, res.output
    assert message in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f()


# (callable, exception class, message substring)
RAISES = [
    (lambda: mcb([[1.0], [2.0]]), TooFewError, "at least 2 models"),
    (lambda: mcb([[1.0, np.nan], [2.0, 3.0], [1.0, 1.5]]), InvalidInputError,
     "Skillings–Mack"),
    (lambda: mcb([[1.0, 2.0], [2.0, 3.0]]), DegenerateDataError, "zero residual variance"),
    (lambda: dunnett_paired([[1.0, 2.0], [2.0, 3.5]], control="z", names="ab"),
     InvalidInputError, "control 'z' is not one of the models"),
    (lambda: _quiet(lambda: compare(load_demsar_table6(), posthoc="dunnett",
                                    control="C9")), InvalidInputError, "is not one of the models"),
    (lambda: _quiet(lambda: compare(load_demsar_table6(), posthoc="mcb", omnibus="anova")),
     InvalidInputError, "rank test of the Friedman route"),
]


@pytest.mark.parametrize("call, error, message", RAISES)
def test_raises(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_lower_is_better_compares_with_the_smallest_mean(tmp_path):
    file = _table(tmp_path)
    rep = _quiet(lambda: compare(str(file), higher_is_better=False, posthoc="mcb"))
    means = {row["model"]: row["mean_score"] for row in rep.summary}
    assert rep.best.higher_is_better is False
    assert min(means, key=means.get) in rep.best.candidates()
    assert "m3" not in rep.best.candidates()       # the largest error is not the best


def test_two_models_is_the_one_sided_t_of_the_report(tmp_path):
    file = _table(tmp_path, k=2)
    rep = _quiet(lambda: compare(str(file), posthoc="mcb"))
    assert rep.best is not None and len(rep.best.names) == 2
    assert any(c.startswith("Hsu's MCB") for c in rep.conclusions)


def test_leaderboard_with_clusters_says_why_there_is_no_mcb():
    rng = np.random.default_rng(0)
    rows = [{"model": m, "example": i, "cluster": i // 10, "score": rng.random() + 0.1 * j}
            for j, m in enumerate("ABC") for i in range(60)]
    board = _quiet(lambda: leaderboard(pd.DataFrame(rows), n_resamples=200))
    assert board.best is None and board.could_be_best() is None
    assert any("not computed with clusters" in n for n in board.notes)
    assert board.to_dict()["models"][0]["could_be_best"] is None
