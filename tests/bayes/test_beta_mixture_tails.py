"""beta_tail at large concentrations (a + b up to 1e15): the posterior of the Bayesian
McNemar test on 10^8+ discordant examples, and the assurance at n > 10^9 (issue 31). Scaling
the concentration down to 1e8, as before, widened the posterior: a 5 % tail came out 12 %
at a = b = 1e8 (after the scaling, of a Beta(5e7, 5e7))."""
import math

import numpy as np
import pytest
from scipy import special, stats

from outperform.bayes._beta_mixture import CDF_MAX_CONCENTRATION, beta_tail


@pytest.mark.parametrize("c", [1e8, 1e10, 1e12])
@pytest.mark.parametrize("mean", [0.5, 0.1])
def test_tails_are_scipys_betainc_up_to_the_limit(c, mean):
    # peer: scipy.special.betainc(a, b, x) / betaincc, at the 5 % points of the normal limit
    a, b = mean * c, (1 - mean) * c
    sd = math.sqrt(a * b / (c * c * (c + 1)))
    x = np.array([mean - 1.645 * sd, mean + 1.645 * sd])
    np.testing.assert_allclose(beta_tail(a, b, x), special.betainc(a, b, x), rtol=1e-9)
    np.testing.assert_allclose(beta_tail(a, b, x, upper=True), special.betaincc(a, b, x),
                               rtol=1e-9)


@pytest.mark.parametrize("c", [1e13, 1e15])
def test_past_the_limit_the_tail_is_the_normal_limit(c):
    # property: Beta(c/2, c/2) -> N(1/2, 1 / (4 (c + 1))); its 5 % point gives 0.05
    assert c > CDF_MAX_CONCENTRATION
    x = 0.5 - 1.645 * 0.5 / math.sqrt(c + 1)
    assert beta_tail(c / 2, c / 2, x)[()] == pytest.approx(stats.norm.cdf(-1.645), abs=1e-9)
    assert beta_tail(c / 2, c / 2, 1 - x, upper=True)[()] == pytest.approx(
        stats.norm.cdf(-1.645), abs=1e-9)
