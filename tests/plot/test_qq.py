"""QQ-plot of differences: points follow the normal quantiles; bad input is refused."""
import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.plot import qq_plot


def test_points_are_the_probplot_quantiles():
    d = np.random.default_rng(0).normal(size=50)
    ax = qq_plot(d)
    x, y = ax.lines[0].get_data()
    (tq, oq), _ = stats.probplot(d, dist="norm")
    np.testing.assert_allclose(x, tq)
    np.testing.assert_allclose(y, np.sort(d))
    assert "Shapiro" in ax.get_title()


def test_nan_is_refused():
    with pytest.raises(InvalidInputError, match="NaN"):
        qq_plot([1.0, np.nan, 2.0])
