"""Real input end to end (issue 15): `outperform benchmark` fits 12 scikit-learn models on
the bundled digits data and writes every test example's prediction; `outperform leaderboard`
ranks the models on them."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.compare import leaderboard
from outperform.experiments import MODELS, predictions_path

runner = CliRunner()
# Twelve of the named models: all but the multilayer perceptron, the slowest to fit.
TWELVE = [m for m in MODELS if m != "mlp"]


def test_twelve_named_models_exist():
    assert len(TWELVE) == 12


@pytest.mark.slow
def test_benchmark_predictions_then_leaderboard(tmp_path):
    out = tmp_path / "digits.csv"
    res = runner.invoke(app, ["benchmark", "--models", ",".join(TWELVE), "--datasets", "digits",
                              "--cv", "1x3", "--predictions", "--out", str(out)])
    assert res.exit_code == 0, res.output
    path = predictions_path(out)
    preds = pd.read_csv(path)
    assert len(preds) == 12 * 1797 and preds.groupby("model")["example"].nunique().eq(1797).all()

    res = runner.invoke(app, ["leaderboard", str(path), "--format", "json",
                              "--n-resamples", "500"])
    assert res.exit_code == 0, res.output
    board = json.loads(res.stdout)
    rows = {m["model"]: m for m in board["models"]}
    assert set(rows) == set(TWELVE)
    # Each model's score is its accuracy over the 1797 out-of-fold predictions, computed here
    # from the file with pandas.
    accuracy = (preds["y_true"] == preds["y_pred"]).groupby(preds["model"]).mean()
    for name, row in rows.items():
        assert row["estimate"] == pytest.approx(accuracy[name], abs=1e-12)
        lo, hi = row["simultaneous"]
        assert lo <= row["rank"] <= hi and row["marginal"][0] >= lo and row["marginal"][1] <= hi
    # The majority-class dummy (about 10% on ten balanced digits) is last, alone.
    assert rows["dummy"]["simultaneous"] == [12, 12]
    assert (np.diff([m["estimate"] for m in board["models"]]) <= 0).all()   # best first
    assert any("predicted in 3 folds" in n for n in board["notes"])

    # The Python API on the same file gives the same table.
    again = leaderboard(path, n_resamples=500)
    assert [again.names[j] for j in again.rank_sets.order] == [m["model"] for m in
                                                               board["models"]]


def test_several_runs_are_refused_with_the_fix(tmp_path):
    rows = pd.DataFrame({"task": "t", "model": np.repeat(["a", "b"], 4), "run": [0, 0, 1, 1] * 2,
                         "fold": 0, "example": [0, 1, 0, 1] * 2, "y_true": 1, "y_pred": 1,
                         "correct": True})
    from outperform import InvalidInputError

    with pytest.raises(InvalidInputError, match="2 runs .* keep the rows of one run"):
        leaderboard(rows)
    board = leaderboard(rows[rows["run"] == 0].assign(
        correct=[True, False, True, True]), n_resamples=100)
    assert board.metric == "correct" and board.source == "per-item scores"
