"""ResultsTable's missing cells and per-model replicates, read off the category codes, equal
what pandas gives (a pivot of the means; one boolean selection per model)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from outperform.data import read_results


def _table(seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    rows = [{"task": f"t{t}", "model": f"m{m}", "run": r, "fold": f,
             "accuracy": float(rng.random())}
            for t in rng.permutation(6) for m in rng.permutation(5)
            for r in range(2) for f in range(3)]
    df = pd.DataFrame(rows).sample(frac=1.0, random_state=seed)   # rows in any order
    absent = (df["task"] == "t1") & (df["model"] == "m3")          # a cell without rows
    nan = (df["task"] == "t4") & (df["model"] == "m0")             # a cell of NaN only
    df.loc[nan, "accuracy"] = np.nan
    return df[~absent]


@pytest.mark.parametrize("seed", range(5))
def test_missing_cells_are_the_nan_cells_of_the_pivot(seed):
    df = _table(seed)
    table = read_results(df, missing="allow")
    pivot = df.pivot_table(index="task", columns="model", values="accuracy", aggfunc="mean",
                           sort=False, dropna=False).reindex(index=list(table.tasks),
                                                              columns=list(table.models))
    expected = tuple((pivot.index[i], pivot.columns[j])
                     for i, j in np.argwhere(pivot.isna().to_numpy()))
    assert table.missing_cells("accuracy") == expected
    assert set(expected) == {("t1", "m3"), ("t4", "m0")}


@pytest.mark.parametrize("seed", range(5))
def test_replicates_are_each_models_rows_in_run_fold_order(seed):
    df = _table(seed).dropna()
    table = read_results(df, missing="allow")
    for task in table.tasks:
        got = table.paired_replicates(task, "accuracy")
        sub = df[df["task"] == task].sort_values(["run", "fold"], kind="stable")
        for model in table.models:
            want = sub.loc[sub["model"] == model, "accuracy"].to_numpy(dtype=float)
            np.testing.assert_array_equal(got[model], want)
