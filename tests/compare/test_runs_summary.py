"""The count of pairs whose difference excludes 0 (compare/_runs_summary.py) against
np.percentile, the definition of the percentile interval."""
import numpy as np
import pytest

from outperform.compare._runs_summary import _excludes_zero


@pytest.mark.parametrize("n", [7, 200, 2000])
@pytest.mark.parametrize("level", [0.95, 0.9, 0.5])
def test_the_count_of_differing_pairs_is_that_of_the_percentiles(n, level):
    """_excludes_zero against np.percentile (the definition of the interval) on columns made
    to put 0 at and around the interval's ends: ties at 0, shifts by one value, NaN."""
    rng = np.random.default_rng(n)
    base = np.sort(rng.normal(size=(n, 1)), axis=0)
    ends = np.floor((n - 1) * np.array([(1 - level) / 2, (1 + level) / 2]))
    at = np.clip((ends[:, None] + np.arange(-3, 5)).ravel().astype(int), 0, n - 1)
    shifts = np.concatenate([base[at, 0], -base[at, 0], [0.0]])   # a 0 at and near each end
    d = np.concatenate([base - shifts, -base - shifts, np.round(rng.normal(0.3, 1, (n, 300)))],
                       axis=1)
    d[0, -1] = np.nan
    low, high = np.percentile(d, [50 * (1 - level), 50 * (1 + level)], axis=0)
    np.testing.assert_array_equal(_excludes_zero(d, level), (low > 0) | (high < 0))
