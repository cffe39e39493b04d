"""leaderboard(mcs=True): the model confidence set of the leaderboard's own score matrix,
equal to arch.bootstrap.MCS on the losses (the negated scores) with the same seed."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from outperform.compare import leaderboard
from outperform.report import leaderboard_output
from outperform.report._outputs import render_output

arch_bootstrap = pytest.importorskip("arch.bootstrap")


def _items(seed=0, n=300):
    rng = np.random.default_rng(seed)
    acc = {"A": 0.9, "B": 0.88, "C": 0.8, "D": 0.7}
    return pd.DataFrame([{"model": m, "example": i, "correct": int(rng.random() < p)}
                         for m, p in acc.items() for i in range(n)])


def test_leaderboard_mcs_equals_arch_on_the_losses():
    df = _items()
    board = leaderboard(df, mcs=True, n_resamples=300, alpha=0.1, random_state=4)
    wide = df.pivot(index="example", columns="model", values="correct")[list("ABCD")]
    # arch.bootstrap.MCS(1 - accuracy, size=0.1, reps=300, block_size=1, method="R",
    #                    bootstrap="stationary", seed=4): the same resamples of the items
    mcs = arch_bootstrap.MCS(1.0 - wide.to_numpy(float), size=0.1, reps=300, block_size=1,
                             method="R", bootstrap="stationary", seed=4)
    mcs.compute()
    expected = mcs.pvalues["Pvalue"].sort_index().to_numpy()
    got = np.array([board.mcs.pvalue(m) for m in "ABCD"])
    np.testing.assert_array_equal(got, expected)
    assert sorted(board.mcs.included) == sorted("ABCD"[i] for i in mcs.included)
    frame = board.to_frame()
    assert list(frame.columns[-2:]) == ["mcs_pvalue", "in_mcs"]
    assert board.to_dict()["model_confidence_set"]["included"] == list(board.mcs.included)


def test_leaderboard_mcs_in_the_outputs():
    board = leaderboard(_items(), mcs=True, n_resamples=200, mcs_statistic="max")
    out = leaderboard_output(board)
    assert "Model confidence set at 95%" in out.text and "MCS p-values:" in out.text
    md = render_output(out, "markdown")
    assert "| MCS p" in md and "could be the best" in md
    html = render_output(out, "html")
    assert "MCS p" in html and "could be the best" in html
    assert all("mcs_pvalue" in row for row in out.payload["models"])


def test_without_mcs_nothing_changes():
    board = leaderboard(_items(), n_resamples=100)
    assert board.mcs is None and "mcs_pvalue" not in board.to_frame().columns
    assert "model_confidence_set" not in board.to_dict()
