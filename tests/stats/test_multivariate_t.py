"""The maximum of correlated t statistics by quadrature (stats/_multivariate_t.py)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import outperform.stats._multivariate_t as mvt


@pytest.mark.slow
@pytest.mark.parametrize("c, lam, df, two", [
    (2.1923, [0.5 ** 0.5] * 3, 20, False),
    (2.5, [0.3, 0.6, 0.8], 7, True),
    (1.2, [0.5 ** 0.5] * 5, 3, False),
])
def test_cdf_equals_scipy_multivariate_t(c, lam, df, two):
    """scipy.stats.multivariate_t(shape=R, df=df).cdf(...) with R_ij = λ_i λ_j, randomised
    QMC with 2e7 points (error ~1e-6); two-sided: lower limits -c."""
    lam = np.asarray(lam)
    corr = np.outer(lam, lam)
    np.fill_diagonal(corr, 1.0)
    dist = stats.multivariate_t(shape=corr, df=df)
    upper = np.full(lam.size, c)
    ref = dist.cdf(upper, lower_limit=-upper if two else None, maxpts=2 * 10**6,
                   random_state=1)
    assert mvt.max_t_cdf(c, lam, df, two_sided=two) == pytest.approx(ref, abs=2e-5)


@pytest.mark.slow
def test_quadrature_error_below_1e8(monkeypatch):
    lam = np.array([0.5 ** 0.5] * 20)
    ours = mvt.max_t_cdf(np.array([1.5, 2.5, 3.5]), lam, 4, two_sided=True)
    monkeypatch.setattr(mvt, "_Z_NODES", 400)
    monkeypatch.setattr(mvt, "_S_NODES", 400)
    fine = mvt.max_t_cdf(np.array([1.5, 2.5, 3.5]), lam, 4, two_sided=True)
    np.testing.assert_allclose(ours, fine, atol=1e-8)


def test_one_statistic_is_student_t_and_infinite_df_is_normal():
    assert mvt.max_t_quantile(0.95, [0.5], 9) == pytest.approx(stats.t.ppf(0.95, 9))
    assert mvt.max_t_cdf(1.7, [0.6], np.inf) == pytest.approx(stats.norm.cdf(1.7), abs=1e-9)
    # independent-looking limit: m equicorrelated normals, P(all <= 0) = 1/(m + 1) at rho 1/2
    assert mvt.max_t_cdf(0.0, [0.5 ** 0.5] * 4, np.inf) == pytest.approx(0.2, abs=1e-9)


def test_quantile_inverts_cdf():
    lam = [0.5 ** 0.5] * 6
    c = mvt.max_t_quantile(0.9, lam, 15, two_sided=True)
    assert mvt.max_t_cdf(c, lam, 15, two_sided=True) == pytest.approx(0.9, abs=1e-9)
