"""compare.task_table (issue 28 item 1): the numbers of the per-data-set results table —
p-values against the row's best, rho of the design, ties, missing cells, wins/ties/losses."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform.compare import task_table
from outperform.results import TaskTable


def _runs_folds(runs=3, folds=5, seed=4):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "run": r, "fold": f,
                          "accuracy": 0.8 + 0.01 * j + rng.normal(0, 0.015)}
                         for t in range(3) for j, m in enumerate("ABC")
                         for r in range(runs) for f in range(folds)])


def _corrected_p(best, other, rho):
    """Nadeau & Bengio (2003): t = mean(d) / sqrt((1/n + rho/(1 - rho)) var(d)), Student
    t(n - 1), two-sided; written here with scipy.stats.t, not the package's kernel."""
    d = np.asarray(best) - np.asarray(other)
    n = d.size
    t = d.mean() / np.sqrt((1 / n + rho / (1 - rho)) * d.var(ddof=1))
    return 2 * stats.t.sf(abs(t), n - 1)


def test_runs_x_folds_use_rho_one_over_k_and_all_measurements():
    frame = _runs_folds()
    t = task_table(frame)
    assert isinstance(t, TaskTable)
    assert t.aggregation == "15 runs x folds per cell" and (t.n == 15).all()
    assert t.rho == pytest.approx((1 / 5,) * 3)             # 5-fold CV, repeated 3 times
    for i, task in enumerate(t.tasks):
        sub = frame[frame.task == task].sort_values(["run", "fold"])
        cols = {m: sub[sub.model == m].accuracy.to_numpy() for m in "ABC"}
        b = int(np.argmax(t.mean[i]))
        for j, m in enumerate("ABC"):
            if j == b:
                assert np.isnan(t.pvalue[i, j])
            else:
                assert t.pvalue[i, j] == pytest.approx(_corrected_p(cols["ABC"[b]], cols[m], 0.2),
                                                       rel=1e-10)
        assert np.allclose(t.sd[i], [cols[m].std(ddof=1) for m in "ABC"])


def test_a_given_rho_replaces_the_design_one():
    frame = _runs_folds()
    p_default = task_table(frame).pvalue
    t = task_table(frame, rho=0.5)
    assert t.rho == (0.5, 0.5, 0.5)
    finite = np.isfinite(p_default)
    assert (t.pvalue[finite] > p_default[finite]).all()    # more correlation, wider test


def test_tied_best_are_all_bold_and_not_marked():
    rng = np.random.default_rng(0)
    a = 0.8 + rng.normal(0, 0.01, 10)
    b = a[::-1].copy()                       # the same mean, other folds
    c = a - 0.05 + rng.normal(0, 0.002, 10)
    frame = pd.DataFrame({"task": "t", "model": np.repeat(["A", "B", "C"], 10),
                          "fold": np.tile(np.arange(10), 3),
                          "accuracy": np.concatenate([a, b, c])})
    t = task_table(frame)
    assert t.best.tolist() == [[True, True, False]]
    assert t.worse.tolist() == [[False, False, True]]
    assert t.ranks.tolist() == [[1.5, 1.5, 3.0]]


def test_missing_cells_rank_among_present_and_count_wins_only_where_both_are():
    wide = pd.DataFrame({"task": ["a", "b", "c"], "X": [0.9, 0.8, np.nan],
                         "Y": [0.7, 0.8, 0.6], "Z": [0.8, 0.9, 0.7]})
    t = task_table(wide, metric="auc", control="Y")
    assert np.isnan(t.ranks[2, 0]) and t.ranks[2, 1:].tolist() == [2.0, 1.0]
    # scipy.stats.rankdata of each row's present values, negated (higher is better), averaged
    expected = [np.mean([1, 2.5]), np.mean([3, 2.5, 2]), np.mean([2, 1, 1])]
    assert t.average_ranks.tolist() == pytest.approx(expected)
    assert (t.wins.tolist(), t.ties.tolist(), t.losses.tolist()) == ([1, 0, 3], [1, 0, 0],
                                                                      [0, 0, 0])
    assert t.omnibus["key"] == "skillings_mack"


def test_repr_and_frame():
    t = task_table(_runs_folds())
    assert repr(t).startswith("TaskTable(models=['A', 'B', 'C']")
    frame = t.to_frame()
    assert frame.shape == (9, 10) and frame["worse"].dtype == bool
