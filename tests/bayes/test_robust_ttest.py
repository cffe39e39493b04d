"""Robust Bayesian t-test with a Student-t likelihood (outperform.bayes._robust_ttest).

The MCMC tests are marked slow: the first call compiles the NUTS sampler, 5-20 s on the
2-core test machine; later calls with the same settings reuse it (~0.2 s each).
"""
from __future__ import annotations

import numpy as np
import pytest

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import robust_bayesian_ttest
from outperform.bayes import bayesian_ttest

pytest.importorskip("numpyro")

SETTINGS = {}   # the defaults: one compiled sampler serves every test


def outlier_data():
    """80 differences N(0.3, 1) and 4 gross outliers at -15 favouring B."""
    rng = np.random.default_rng(42)
    d = np.r_[rng.normal(0.3, 1.0, 80), np.full(4, -15.0)]
    return d, np.zeros_like(d)


@pytest.fixture(scope="module")
def robust_run():
    a, b = outlier_data()
    return robust_bayesian_ttest(a, b, random_state=1, **SETTINGS)


@pytest.mark.slow
def test_outliers_do_not_drag_the_estimate(robust_run):
    a, b = outlier_data()
    normal = bayesian_ttest(a, b)
    assert normal.posterior_mean < -0.3                  # the mean is pulled below 0
    assert robust_run.posterior_mean == pytest.approx(0.3, abs=0.25)
    assert robust_run.details["nu_median"] < 3           # heavy tails detected
    assert robust_run.p_right > normal.p_right


@pytest.mark.slow
def test_result_fields_and_diagnostics(robust_run):
    res = robust_run
    assert res.details["converged"]
    assert max(res.details["rhat"].values()) < 1.01
    assert min(res.details["ess"].values()) > 400
    assert res.samples.shape == (4000,)
    assert res.p_left + res.p_rope + res.p_right == pytest.approx(1.0)
    assert res.p_right == pytest.approx(np.mean(res.samples > res.rope[1]))
    lo, hi = res.credible_interval_95
    assert lo < res.posterior_mean < hi
    assert 0 <= res.mc_standard_error < 0.05
    a, b = outlier_data()
    assert res.rope == pytest.approx((-0.1 * np.std(a, ddof=1), 0.1 * np.std(a, ddof=1)))
    assert res.a_better_side == "right"


@pytest.mark.slow
def test_agrees_with_the_normal_model_on_normal_data():
    rng = np.random.default_rng(3)
    a = rng.normal(0.2, 1.0, 100)
    robust = robust_bayesian_ttest(a, np.zeros(100), random_state=2)
    normal = bayesian_ttest(a, np.zeros(100))
    assert robust.posterior_mean == pytest.approx(normal.posterior_mean, abs=0.03)
    assert robust.credible_interval_95 == pytest.approx(normal.credible_interval_95, abs=0.05)
    assert robust.p_right == pytest.approx(normal.p_right, abs=0.05)


@pytest.mark.slow
def test_swapping_a_and_b_mirrors(robust_run):
    a, b = outlier_data()
    swapped = robust_bayesian_ttest(b, a, random_state=1, **SETTINGS)
    # Different random trajectories: equal up to Monte Carlo error.
    assert swapped.posterior_mean == pytest.approx(-robust_run.posterior_mean, abs=0.05)
    assert swapped.p_left == pytest.approx(robust_run.p_right, abs=0.04)
    assert swapped.p_right == pytest.approx(robust_run.p_left, abs=0.04)


def test_bad_input():
    with pytest.raises(InvalidInputError, match="paired"):
        robust_bayesian_ttest([1, 2, 3], [1, 2])
    with pytest.raises(TooFewError, match="at least 3"):
        robust_bayesian_ttest([1.0, 2.0], [0.0, 0.5])
    with pytest.raises(DegenerateDataError, match="equal"):
        robust_bayesian_ttest([1.0, 2.0, 3.0], [0.0, 1.0, 2.0])
    with pytest.raises(InvalidInputError, match="n_samples"):
        robust_bayesian_ttest([1, 2, 3, 5], [0, 2, 1, 1], n_samples=0)
    with pytest.raises(InvalidInputError, match="rope"):
        robust_bayesian_ttest([1, 2, 3, 5], [0, 2, 1, 1], rope=-1)
