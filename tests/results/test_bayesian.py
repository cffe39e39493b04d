"""BayesianResult.credible_interval(level): the stored 95% interval at 0.95, nested levels."""
import numpy as np
import pytest
from scipy import stats

from outperform.bayes import (bayesian_mcnemar, bayesian_ttest, correlated_bayesian_ttest,
                              poisson_binomial_test)

RNG = np.random.default_rng(3)
B = RNG.normal(0.8, 0.02, 30)
A = B + RNG.normal(0.01, 0.02, 30)
RESULTS = {
    "bayesian_mcnemar": lambda: bayesian_mcnemar(159, 198),
    "bayesian_ttest": lambda: bayesian_ttest(A, B),
    "correlated_bayesian_ttest": lambda: correlated_bayesian_ttest(A, B, rho=0.1),
    "poisson_binomial_test": lambda: poisson_binomial_test([3, 10, 4, 0, 12], [9, 14, 4, 0, 30]),
}


@pytest.mark.parametrize("name", RESULTS)
def test_the_95_percent_interval_is_the_stored_one(name):
    res = RESULTS[name]()
    assert res.credible_interval(0.95) == pytest.approx(res.credible_interval_95, rel=1e-9)
    narrow, wide = res.credible_interval(0.5), res.credible_interval(0.99)
    assert wide[0] < narrow[0] < narrow[1] < wide[1]


def test_the_mcnemar_interval_is_the_beta_posterior():
    # Lacoste Thm 4.1: phi ~ Beta(1 + n01, 1 + n10); scipy's central interval.
    assert bayesian_mcnemar(159, 198).credible_interval(0.8) == pytest.approx(
        stats.beta(160, 199).interval(0.8), rel=1e-12)


def test_bad_levels_are_refused():
    with pytest.raises(ValueError, match="level"):
        bayesian_mcnemar(1, 2).credible_interval(1.0)
