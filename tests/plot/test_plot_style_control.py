"""The rank-change plot of style control (plot/_style_control.py)."""
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from outperform import InvalidInputError  # noqa: E402
from outperform.plot import plot_rank_changes  # noqa: E402
from outperform.plot._style import ACCENT, ALERT  # noqa: E402
from outperform.stats import bradley_terry_style  # noqa: E402


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(1)
    names = np.array(["p", "q", "r", "s"])
    skill, verb = np.array([0.4, 0.3, 0.0, -0.1]), np.array([200, 600, 300, 700])
    n = 3000
    a = rng.integers(0, 4, n)
    b = (a + rng.integers(1, 4, n)) % 4
    la = np.round(verb[a] * rng.lognormal(0, 0.5, n))
    lb = np.round(verb[b] * rng.lognormal(0, 0.5, n))
    eta = skill[a] - skill[b] + 2.0 * (la - lb) / (la + lb)
    w = np.where(rng.random(n) < 1 / (1 + np.exp(-eta)), "a", "b")
    return bradley_terry_style(names[a], names[b], w, la, lb, features=["length"],
                               rank_sets=False)


def test_one_line_per_model_coloured_by_the_change(result):
    ax = plot_rank_changes(result)
    lines = ax.get_lines()
    assert len(lines) == 4
    for line, i in zip(lines, range(4)):
        assert list(line.get_ydata()) == [result.uncontrolled_rank[i], result.rank[i]]
        change = result.rank_change[i]
        if change > 0:
            assert line.get_color() == ACCENT
        elif change < 0:
            assert line.get_color() == ALERT
    assert (result.rank_change != 0).any()
    plt.close(ax.figure)


def test_top_keeps_the_models_near_the_top(result):
    ax = plot_rank_changes(result, top=1)
    shown = (result.uncontrolled_rank <= 1) | (result.rank <= 1)
    assert len(ax.get_lines()) == int(shown.sum())
    plt.close(ax.figure)
    with pytest.raises(InvalidInputError, match="top must be a positive integer"):
        plot_rank_changes(result, top=0)
