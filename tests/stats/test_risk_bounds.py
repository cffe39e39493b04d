"""Risk upper bounds from k errors out of n (outperform.stats._risk_bounds), Lacoste 2012 §3."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.proportion import proportion_confint

from outperform._validation import InvalidInputError
from outperform.stats import beta_risk_bound, langford_test_set_bound


@pytest.mark.parametrize("n", [1, 10, 100, 3000])
@pytest.mark.parametrize("delta", [0.01, 0.05, 0.2])
def test_zero_errors_closed_forms(n, delta):
    # Langford: Binom_cdf(0; n, p) = (1 - p)^n = delta. Beta(1, n + 1): 1 - delta^(1/(n+1)).
    langford, bayes = langford_test_set_bound(0, n, delta=delta), beta_risk_bound(0, n, delta=delta)
    assert langford == pytest.approx(1 - delta ** (1 / n), rel=1e-10)
    assert bayes == pytest.approx(1 - delta ** (1 / (n + 1)), rel=1e-10)


def test_rule_of_three():
    """Zero errors: the 95% upper bound is about 3 / n (Hanley & Lippman-Hand 1983)."""
    assert langford_test_set_bound(0, 1000) == pytest.approx(3 / 1000, rel=0.01)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2000), st.data(), st.floats(0.001, 0.5))
def test_langford_is_the_clopper_pearson_upper_limit(n, data, delta):
    """Lacoste eq. 4: Langford's bound = B_c^{-1}(1 - delta; k + 1, n - k) = one-sided CP limit."""
    k = data.draw(st.integers(0, n - 1))
    bound = langford_test_set_bound(k, n, delta=delta)
    assert bound == pytest.approx(stats.beta.ppf(1 - delta, k + 1, n - k), rel=1e-9, abs=1e-13)
    # The two-sided Clopper-Pearson interval at level 1 - 2 delta has the same upper limit.
    upper = proportion_confint(k, n, alpha=2 * delta, method="beta")[1]
    assert bound == pytest.approx(upper, rel=1e-9, abs=1e-13)
    assert stats.binom.cdf(k, n, bound) == pytest.approx(delta, rel=1e-6)


def test_langford_is_the_limit_of_the_beta_bound():
    """Lacoste §3: alpha' = 1, beta' -> 0 gives Langford's bound."""
    for k, n in [(0, 50), (3, 50), (17, 400), (399, 400)]:
        assert beta_risk_bound(k, n, prior=(1, 1e-10)) == pytest.approx(
            langford_test_set_bound(k, n), rel=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 2000), st.data())
def test_ordering_and_monotonicity(n, data):
    k = data.draw(st.integers(0, n - 1))
    bayes, langford = beta_risk_bound(k, n), langford_test_set_bound(k, n)
    # The uniform prior puts less weight on high risks than Langford's worst case.
    assert k / n < bayes <= langford < 1 or (k == 0 and 0 < bayes <= langford)
    assert langford_test_set_bound(k, n, delta=0.01) >= langford
    assert langford_test_set_bound(k + 1, n) >= langford


def test_bound_holds_with_probability_one_minus_delta():
    """Frequentist coverage of Langford's bound at delta = 0.05, true risk 0.1, n = 200."""
    rng = np.random.default_rng(0)
    ks = rng.binomial(200, 0.1, size=2000)
    bounds = {k: langford_test_set_bound(int(k), 200) for k in np.unique(ks)}
    covered = np.mean([bounds[k] >= 0.1 for k in ks])
    assert covered >= 0.95 - 3 * np.sqrt(0.05 * 0.95 / 2000)


def test_all_errors():
    assert langford_test_set_bound(10, 10) == 1.0
    assert 0.7 < beta_risk_bound(10, 10) < 1.0


@pytest.mark.parametrize("k, n, kwargs, match", [
    (5, 3, {}, "0 <= k <= n"), (0, 0, {}, "n >= 1"), (-1, 10, {}, "non-negative"),
    (1.5, 10, {}, "whole"), (1, 10, {"delta": 1.0}, "delta"), ([1, 2], 10, {}, "single")])
def test_bad_input(k, n, kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        langford_test_set_bound(k, n, **kwargs)
    with pytest.raises(InvalidInputError, match=match):
        beta_risk_bound(k, n, **kwargs)


def test_bad_prior():
    with pytest.raises(InvalidInputError, match="prior"):
        beta_risk_bound(1, 10, prior=(0, 1))
    with pytest.raises(InvalidInputError, match="prior"):
        beta_risk_bound(1, 10, prior=(1, 1, 1))
