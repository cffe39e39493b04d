"""compare_evals with more than two models: a leaderboard per task (issue 16 §3).

The property checked: the leaderboard of each task is exactly what
``outperform.compare.leaderboard`` gives on the same per-item table (model, example, score,
cluster), called directly; it is absent with two models; the CLI prints it, limited by --top.
"""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.compare import compare_evals, leaderboard

ACCURACY = {"big": 0.80, "mid": 0.74, "small": 0.55, "tiny": 0.54}


def _table(models, *, n_items=240, cluster_size=10, tasks=("qa",), seed=0):
    """Binary scores of ``models`` on items grouped in clusters of ``cluster_size`` (a shared
    per-cluster difficulty makes the clusters matter)."""
    rng = np.random.default_rng(seed)
    rows = []
    for task in tasks:
        shift = rng.normal(0, 0.1, n_items // cluster_size).repeat(cluster_size)
        for m in models:
            p = np.clip(ACCURACY[m] + shift, 0, 1)
            correct = (rng.random(n_items) < p).astype(float)
            rows.append(pd.DataFrame({
                "model": m, "task": task, "item": [f"q{i:04d}" for i in range(n_items)],
                "score": correct,
                "cluster": [f"c{i // cluster_size:03d}" for i in range(n_items)]}))
    return pd.concat(rows, ignore_index=True)


def _direct(table, task, *, cluster=True):
    rows = table[table["task"] == task].rename(columns={"item": "example"})
    columns = ["model", "example", "score"] + (["cluster"] if cluster else [])
    return leaderboard(rows[columns].reset_index(drop=True), metric="score",
                       higher_is_better=True, cluster="cluster" if cluster else None)


@pytest.mark.parametrize("cluster", [True, False])
def test_leaderboard_equals_compare_leaderboard_on_the_same_items(cluster):
    table = _table(["big", "mid", "small"], tasks=("qa", "math"))
    if not cluster:
        table = table.drop(columns="cluster")
    res = compare_evals(table)
    assert set(res.leaderboards) == {"qa", "math"}
    for task, board in res.leaderboards.items():
        direct = _direct(table, task, cluster=cluster)
        pd.testing.assert_frame_equal(board.to_frame(), direct.to_frame())
        assert board.rank_sets.unit == ("cluster" if cluster else "item")
        assert (board.rank_sets.n_clusters == 24) is cluster
        # the leaderboard ranks as the per-task mean scores do
        means = res.score_matrix.values[res.tasks.index(task)]
        assert board.rank_sets.estimate == pytest.approx(means)
    assert "leaderboards" in res.to_dict() and set(res.to_dict()["leaderboards"]) == {"qa", "math"}


def test_no_leaderboard_with_two_models():
    res = compare_evals(_table(["big", "small"]))
    assert res.leaderboards == {}


def test_cli_prints_the_leaderboard_limited_by_top(tmp_path):
    path = tmp_path / "scores.csv"
    _table(list(ACCURACY)).to_csv(path, index=False)
    runner = CliRunner()
    res = runner.invoke(app, ["compare-evals", str(path)])
    assert res.exit_code == 0, res.output
    assert "leaderboard of 4 models by mean score" in res.output
    assert "24 clusters of 240 items" in res.output
    for m in ACCURACY:
        assert m in res.output
    two = runner.invoke(app, ["compare-evals", str(path), "--top", "2"])
    assert two.exit_code == 0, two.output
    assert "... 2 more models (all of them: --top 0)" in two.output
    bad = runner.invoke(app, ["compare-evals", str(path), "--top", "-1"])
    assert bad.exit_code == 1 and "--top" in bad.output
