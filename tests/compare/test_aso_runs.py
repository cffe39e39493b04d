"""compare_aso (compare/_aso.py): runs x tasks read as compare_runs reads them, each task's
runs handed to stats.multi_aso with Bonferroni over pairs and tasks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.compare import compare_aso
from outperform.stats import multi_aso


def _runs(n_runs=6, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([dict(task=t, model=m, run=r, score=rng.normal(mu + 0.1 * ti, 0.05))
                         for ti, t in enumerate(["t1", "t2", "t3"])
                         for m, mu in (("A", 0.8), ("B", 0.7), ("C", 0.78))
                         for r in range(n_runs)])


def test_per_task_is_multi_aso_on_the_tasks_runs():
    df = _runs()
    res = compare_aso(df, n_resamples=300, random_state=3)
    assert [r.task for r in res] == ["t1", "t2", "t3"]
    first = df[df.task == "t1"]
    direct = multi_aso({m: first.loc[first.model == m, "score"].to_numpy() for m in "ABC"},
                       n_comparisons=9, n_resamples=300, random_state=3, task="t1")
    np.testing.assert_array_equal(res[0].eps_min, direct.eps_min)
    assert res[0].n_comparisons == 9 and res[0].level == pytest.approx(1 - 0.05 / 9)


def test_pooled_and_lower_is_better():
    df = _runs()
    pooled = compare_aso(df, pooled=True, n_resamples=200, random_state=1)
    assert len(pooled) == 1 and pooled[0].task is None and pooled[0].n_runs.tolist() == [18] * 3
    losses = df.assign(error=1 - df.score).drop(columns="score")
    flipped = compare_aso(losses, metric="error", n_resamples=200, random_state=1)
    scores = compare_aso(df, n_resamples=200, random_state=1)
    np.testing.assert_array_equal(flipped[0].eps_min, scores[0].eps_min)


@pytest.mark.parametrize("df, kw, match", [
    (_runs(n_runs=1), {}, "has 1 run"),
    (_runs().drop(columns="run"), {}, "'run'"),
    (_runs(), {"normalize": "min-max"}, "applies to --aso-pooled"),
])
def test_refusals(df, kw, match):
    with pytest.raises(InvalidInputError, match=match):
        compare_aso(df, **kw)
