"""Figures of compare_runs results: what they draw is the result's numbers."""
import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from outperform._validation import InvalidInputError  # noqa: E402
from outperform.compare import compare_runs  # noqa: E402
from outperform.plot import (  # noqa: E402
    plot_interval_estimates,
    plot_performance_profiles,
    plot_probability_of_improvement,
    plot_run_aggregates,
)


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame([{"task": f"t{t}", "model": m, "run": r,
                           "accuracy": 0.6 + 0.05 * i + rng.normal(0, 0.05)}
                          for t in range(5) for i, m in enumerate("abc") for r in range(4)])
    return compare_runs(frame, normalize="min-max", n_resamples=200, random_state=0)


def test_interval_bars_span_the_intervals(result):
    ax = plot_interval_estimates(result, statistic="iqm")
    spans = sorted((p.get_x(), p.get_x() + p.get_width()) for p in ax.patches)
    expected = sorted((e["iqm"].low, e["iqm"].high) for e in result.aggregates.values())
    np.testing.assert_allclose(spans, expected)
    with pytest.raises(InvalidInputError, match="statistic"):
        plot_interval_estimates(result, statistic="mode")


def test_profiles_and_improvements_draw_the_result(result):
    ax = plot_performance_profiles(result)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), result.profiles["a"].fraction)
    ax = plot_probability_of_improvement(result)
    assert len(ax.patches) == len(result.improvements) == 3
    fig = plot_run_aggregates(result)
    assert len(fig.axes) == 4
