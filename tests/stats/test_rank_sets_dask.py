"""Rank sets of a score table beyond memory: a Dask array read chunk by chunk."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats import rank_sets

da = pytest.importorskip("dask.array")


def _scores():
    rng = np.random.default_rng(0)
    return rng.normal([0.0, 0.1, 0.2, 0.2, 0.35, 0.5], 1.0, size=(20_000, 6))


def test_dask_array_gives_the_numpy_rank_sets():
    y = _scores()
    ref = rank_sets(y, n_resamples=500, random_state=0, weights="poisson")
    res = rank_sets(da.from_array(y, chunks=(3000, 3)), n_resamples=500, random_state=0,
                    weights="poisson")
    np.testing.assert_allclose(res.standard_error, ref.standard_error, rtol=1e-12)
    np.testing.assert_allclose(res.estimate, ref.estimate, rtol=1e-12)
    # other Poisson draws (per chunk), the same sets on this clear-cut table
    assert res.simultaneous.tolist() == ref.simultaneous.tolist()
    assert res.marginal.tolist() == ref.marginal.tolist()
    assert res.critical_value == pytest.approx(ref.critical_value, rel=0.05)


def test_dask_results_are_reproducible_and_follow_the_direction():
    x = da.from_array(_scores(), chunks=(5000, 6))
    a = rank_sets(x, n_resamples=300, random_state=4, weights="poisson")
    b = rank_sets(x, n_resamples=300, random_state=4, weights="poisson")
    assert a.critical_value == b.critical_value
    c = rank_sets(-x, n_resamples=300, random_state=4, weights="poisson",
                  higher_is_better=False)
    np.testing.assert_array_equal(a.simultaneous, c.simultaneous)


@pytest.mark.parametrize("kwargs, message", [
    (dict(weights="multinomial"), "weights='poisson'"),
    (dict(weights="poisson", clusters=np.arange(20_000) // 2), "clusters"),
])
def test_dask_refusals(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        rank_sets(da.from_array(_scores(), chunks=(5000, 6)), n_resamples=100, **kwargs)


def test_dask_nan_is_refused():
    y = _scores()
    y[17_000, 2] = np.nan
    with pytest.raises(InvalidInputError, match="NaN"):
        rank_sets(da.from_array(y, chunks=(5000, 6)), n_resamples=100, weights="poisson")
