"""Cluster-robust standard errors against statsmodels' cluster-robust OLS on a constant."""
import numpy as np
import pytest
import statsmodels.api as sm

from outperform.results import ClusteredMean
from outperform.stats import clustered_mean
from outperform._validation import InvalidInputError


def _statsmodels_se(x, groups, use_correction=True):
    # Peer: sm.OLS(x, ones).fit(cov_type="cluster", cov_kwds={"groups": g, "use_correction": c}).bse
    fit = sm.OLS(x, np.ones(len(x))).fit(
        cov_type="cluster", cov_kwds={"groups": groups, "use_correction": use_correction})
    return fit.bse[0], fit.conf_int(0.05)[0]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("small_sample", [True, False])
def test_matches_statsmodels_cluster_robust_ols(seed, small_sample):
    rng = np.random.default_rng(seed)
    n, g = 300, 37
    groups = rng.integers(0, g, n)
    effect = rng.normal(0, 0.3, g)[groups]
    x = np.column_stack([(rng.random(n) < 0.6 + effect * 0.2).astype(float),
                         rng.normal(effect, 1.0)])
    res = clustered_mean(x, groups, small_sample=small_sample)
    assert isinstance(res, ClusteredMean)
    lo, hi = res.confidence_interval(0.95)
    for j in range(2):
        se, ci = _statsmodels_se(x[:, j], groups, small_sample)
        assert res.standard_error[j] == pytest.approx(se, rel=1e-12)
        assert (lo[j], hi[j]) == pytest.approx(tuple(ci), rel=1e-12)
    assert res.n_clusters == len(np.unique(groups))


def test_string_labels_and_unsorted_clusters_give_the_same_answer():
    rng = np.random.default_rng(7)
    codes = rng.integers(0, 10, 100)
    x = rng.normal(size=100)
    by_int = clustered_mean(x, codes)
    by_str = clustered_mean(x, np.array([f"passage-{c}" for c in codes]))
    assert by_str.standard_error[0] == by_int.standard_error[0]


def test_singleton_clusters_give_the_naive_standard_error():
    # Property: every item its own cluster -> c * sum u^2 / n^2 with c = n/(n-1) = s^2/n.
    rng = np.random.default_rng(3)
    x = rng.normal(size=(50, 3))
    res = clustered_mean(x, np.arange(50))
    np.testing.assert_allclose(res.standard_error, x.std(axis=0, ddof=1) / np.sqrt(50), rtol=1e-12)
    np.testing.assert_allclose(res.design_effect, 1.0, rtol=1e-12)
    np.testing.assert_allclose(clustered_mean(x).standard_error, res.standard_error, rtol=1e-12)


def test_perfectly_correlated_clusters_multiply_the_variance_by_the_cluster_size():
    # Property: 20 clusters of 5 identical items carry the information of 20 items, so the
    # clustered SE equals the naive SE of the 20 cluster means (G/(G-1) * 25 * S / 100^2 = S/(19*20)).
    rng = np.random.default_rng(11)
    per_cluster = rng.normal(size=20)
    x = np.repeat(per_cluster, 5)
    res = clustered_mean(x, np.repeat(np.arange(20), 5))
    se_of_cluster_means = per_cluster.std(ddof=1) / np.sqrt(20)
    assert res.standard_error[0] == pytest.approx(se_of_cluster_means, rel=1e-12)


@pytest.mark.parametrize("values, clusters, match", [
    ([1.0], None, "at least 2 items"),
    ([1.0, np.nan], None, "NaN"),
    ([1.0, 0.0, 1.0], [1, 1], "one label per item"),
    ([1.0, 0.0, 1.0], [1, 1, 1], "at least 2 clusters"),
])
def test_bad_input_is_refused(values, clusters, match):
    with pytest.raises(InvalidInputError, match=match):
        clustered_mean(values, clusters)
