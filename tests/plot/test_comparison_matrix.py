"""Rank-set plot and multiple comparison matrix of a leaderboard."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from outperform import InvalidInputError  # noqa: E402
from outperform.compare import leaderboard  # noqa: E402
from outperform.plot import plot_comparison_matrix, plot_rank_sets  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _correct(k, n=600, seed=0):
    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.6, 0.9, k)
    return (rng.random((n, k)) < acc).astype(int)


def _board(correct, **kw):
    n, k = correct.shape
    rows = pd.DataFrame({"model": np.repeat([f"m{j}" for j in range(k)], n),
                         "example": np.tile(np.arange(n), k),
                         "correct": correct.T.ravel()})
    return leaderboard(rows, n_resamples=200, **kw)


@pytest.mark.parametrize("k", [3, 12, 40])
def test_one_bar_per_model_sorted_by_score(k):
    board = _board(_correct(k))
    ax = plot_rank_sets(board)
    assert len(ax.patches) == k
    names = [t.get_text() for t in ax.get_yticklabels()]
    means = dict(zip(board.names, board.rank_sets.estimate))
    assert sorted(names) == sorted(board.names)
    assert [means[m] for m in names] == sorted(means.values(), reverse=True)
    # Each bar spans its model's simultaneous set, whole ranks [lower - 1/2, upper + 1/2].
    sets = dict(zip(board.names, board.rank_sets.simultaneous.tolist()))
    for name, bar in zip(names, ax.patches):
        lo, hi = sets[name]
        assert (bar.get_x(), bar.get_x() + bar.get_width()) == pytest.approx((lo - 0.5, hi + 0.5))


def test_lower_is_better_sorts_the_smallest_first():
    rng = np.random.default_rng(1)
    losses = rng.gamma(2.0, [0.5, 0.2, 0.9, 0.3], size=(300, 4))
    rows = pd.DataFrame({"model": np.repeat(list("abcd"), 300),
                         "example": np.tile(np.arange(300), 4), "log_loss": losses.T.ravel()})
    board = leaderboard(rows, n_resamples=200)
    assert not board.rank_sets.higher_is_better
    names = [t.get_text() for t in plot_rank_sets(board).get_yticklabels()]
    assert names == list(np.array(list("abcd"))[np.argsort(losses.mean(axis=0))])


def test_top_shows_the_best_only_and_rank_sets_alone_plot():
    board = _board(_correct(30))
    ax = plot_rank_sets(board, top=10)
    assert len(ax.patches) == 10
    assert [t.get_text() for t in ax.get_yticklabels()] == list(board.to_frame()["model"][:10])
    assert ax.get_xlim() == (0.5, 30.5)          # every rank stays on the axis
    assert len(plot_rank_sets(board.rank_sets).patches) == 30
    for bad in (0, 2.5, True):
        with pytest.raises(InvalidInputError, match="top"):
            plot_rank_sets(board, top=bad)
    with pytest.raises(InvalidInputError, match="Leaderboard or RankSets"):
        plot_rank_sets(board.pairwise)


def test_matrix_cells_hold_the_differences_counts_and_p_values():
    correct = _correct(4, n=500, seed=2)
    board = _board(correct)
    ax = plot_comparison_matrix(board)
    order = list(board.to_frame()["model"])
    assert [t.get_text() for t in ax.get_yticklabels()] == order
    idx = [board.names.index(m) for m in order]
    acc = correct.mean(axis=0)[idx]
    image = np.ma.filled(ax.images[0].get_array(), np.nan)
    expected = acc[:, None] - acc[None, :]
    np.fill_diagonal(expected, np.nan)
    np.testing.assert_allclose(image, expected, atol=1e-12)
    # Row 0 against column 1: wins / ties / losses counted here from the 0/1 matrix.
    a, b = correct[:, idx[0]], correct[:, idx[1]]
    wins, losses = int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum())
    cell = next(t.get_text() for t in ax.texts if t.get_position() == (1, 0))
    p = board.pairwise.pvalue_adjusted[idx[0], idx[1]]
    assert cell.splitlines() == [f"{expected[0, 1]:+.3g}", f"{wins}/{500 - wins - losses}/{losses}",
                                 f"p={p:.2g}"]
    framed = {(round(r.get_x() + 0.5), round(r.get_y() + 0.5)) for r in ax.patches}
    reject = board.pairwise.reject[np.ix_(idx, idx)]
    assert framed == {(j, i) for i, j in zip(*np.nonzero(reject))}


def test_matrix_of_real_scores_counts_wins_and_is_colour_only_when_large():
    rng = np.random.default_rng(4)
    scores = rng.normal([0.5, 0.55, 0.6], 0.1, size=(50, 3))
    rows = pd.DataFrame({"model": np.repeat(list("abc"), 50),
                         "example": np.tile(np.arange(50), 3), "score": scores.T.ravel()})
    board = leaderboard(rows, n_resamples=200)
    expected = np.array([[(scores[:, i] > scores[:, j]).sum() for j in range(3)]
                         for i in range(3)])
    np.testing.assert_array_equal(board.pairwise.details["wins"], expected)
    big = _board(_correct(30))
    ax = plot_comparison_matrix(big)
    notes = [t.get_text() for t in ax.texts]
    assert len(notes) == 1 and notes[0].startswith("Colour only (30 models")
    dots = ax.lines[0].get_xydata() if ax.lines else np.empty((0, 2))
    assert len(dots) == int(big.pairwise.reject.sum())
    assert len(plot_comparison_matrix(big, top=8).texts) == 8 * 7 + 1
