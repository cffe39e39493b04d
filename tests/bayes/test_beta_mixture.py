"""The one Beta-mixture class: Poisson-binomial posterior and hierarchical predictive."""
import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.bayes import BetaMixture, hierarchical_mcnemar, poisson_binomial_test

# Williams (2026) Table 1, A = GNN, B = LLM.
N01 = [63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44]
N10 = [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46]


@pytest.fixture(scope="module")
def mixtures():
    return (poisson_binomial_test([3, 10, 4, 0, 12], [9, 14, 4, 0, 30]).posterior,
            hierarchical_mcnemar(N01, N10, n_samples=0).posterior)


@pytest.mark.slow
def test_both_tests_return_the_one_class(mixtures):
    assert all(type(m) is BetaMixture for m in mixtures)


def test_components_against_scipy():
    # Two components: the mixture is the weighted sum of scipy's Beta distributions.
    mix = BetaMixture([0.3, 0.7], [2.0, 40.0], [5.0, 9.0])
    x = np.linspace(0.0, 1.0, 21)
    ref = [stats.beta(2, 5), stats.beta(40, 9)]
    np.testing.assert_allclose(mix.cdf(x), 0.3 * ref[0].cdf(x) + 0.7 * ref[1].cdf(x),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(mix.sf(x), 0.3 * ref[0].sf(x) + 0.7 * ref[1].sf(x),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(mix.pdf(x), 0.3 * ref[0].pdf(x) + 0.7 * ref[1].pdf(x),
                               rtol=1e-13)
    assert mix.mean() == pytest.approx(0.3 * 2 / 7 + 0.7 * 40 / 49, rel=1e-15)


@pytest.mark.slow
def test_arrays_equal_the_loop_over_points(mixtures):
    for mix in mixtures:
        x = np.linspace(0.3, 0.75, 37).reshape(37, 1)
        for fn in (mix.cdf, mix.sf, mix.pdf):
            batch = fn(x)
            assert batch.shape == x.shape
            assert batch.ravel().tolist() == [fn(float(t)) for t in x.ravel()]
        q = np.array([0.025, 0.5, 0.975])
        assert mix.ppf(q).tolist() == [mix.ppf(float(p)) for p in q]
        assert isinstance(mix.cdf(0.5), float) and isinstance(mix.ppf(0.5), float)
        tail = (1 - 0.95) / 2
        assert mix.interval(0.95) == tuple(mix.ppf([tail, 1 - tail]))


def test_quantiles_invert_the_cdf(mixtures):
    for mix in mixtures:
        q = np.array([1e-4, 0.025, 0.5, 0.975, 1 - 1e-4])
        np.testing.assert_allclose(mix.cdf(mix.ppf(q)), q, atol=1e-9)
        assert mix.ppf(0.0) == 0.0 and mix.ppf(1.0) == 1.0


def test_bad_mixtures():
    with pytest.raises(InvalidInputError, match="one entry per component"):
        BetaMixture([0.5, 0.5], [1.0], [1.0, 2.0])
    with pytest.raises(InvalidInputError, match="a, b > 0"):
        BetaMixture([1.0], [0.0], [1.0])
    with pytest.raises(InvalidInputError, match="probabilities"):
        BetaMixture([1.0], [1.0], [1.0]).ppf(1.5)
