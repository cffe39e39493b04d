"""Almost stochastic order (stats/_aso.py): deep-significance's published numbers, the
violation ratio against a direct numerical integral, and its properties."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate

from outperform import InvalidInputError, TooFewError
from outperform.stats import (aso, aso_next_seed, aso_uncertainty_reduction, multi_aso,
                              violation_ratio)


def _readme_scores():
    """deep-significance README, "ASO" example: np.random.seed(1234); N = 5;
    my_model_scores = np.random.normal(loc=0.9, scale=0.8, size=N);
    baseline_scores = np.random.normal(loc=0, scale=1, size=N). numpy's legacy global seeding
    is the RandomState stream, reproduced here without touching the global state."""
    rs = np.random.RandomState(1234)
    return rs.normal(0.9, 0.8, 5), rs.normal(0, 1, 5)


def test_readme_data_are_reproduced():
    a, b = _readme_scores()
    # printed by deepsig 1.2.8 after np.random.seed(1234) (the README's own code)
    np.testing.assert_allclose(a, [1.27714813, -0.05278056, 2.04616557, 0.64987848, 0.32352901],
                               atol=5e-9)
    np.testing.assert_allclose(b, [0.88716294, 0.85958841, -0.6365235, 0.01569637, -2.24268495],
                               atol=5e-9)


def test_readme_eps_min_within_its_bootstrap_error():
    """README: ``aso(my_model_scores, baseline_scores, seed=seed)  # min_eps = 0.225``
    (deepsig 1.2.8 run here: 0.22488112073395775, 1,000 resamples). Its Monte Carlo error
    is the spread of ε_min over independent 1,000-resample runs: 20 of ours give it, and the
    README's value must lie within 3 of those standard deviations of their mean."""
    a, b = _readme_scores()
    runs = np.array([aso(a, b, n_resamples=1000, random_state=s).epsilon_min
                     for s in range(20)])
    sd = runs.std(ddof=1)
    assert 0 < sd < 0.02
    assert abs(runs.mean() - 0.225) <= 3 * sd
    assert abs(runs.mean() - 0.22488112073395775) <= 3 * sd
    # A's sorted scores lie above B's: the violation ratio itself is exactly 0
    assert violation_ratio(a, b) == 0.0 and violation_ratio(b, a) == 1.0


def test_uncertainty_reduction_readme_numbers():
    # deep-significance README: aso_uncertainty_reduction(m_old=5, n_old=3, m_new=5, n_new=5)
    # = 1.1547005383792515 and (..., m_new=7, n_new=3) = 1.0583005244258363
    assert aso_uncertainty_reduction(5, 3, 5, 5) == 1.1547005383792515
    assert aso_uncertainty_reduction(5, 3, 7, 3) == 1.0583005244258363


def test_next_seed_goes_where_the_reduction_is_larger():
    # 5 runs of A, 3 of B: two more of B tighten by 1.155, two more of A by 1.058 (above)
    assert aso_next_seed({"A": 5, "B": 3}) == "B"
    assert aso_next_seed({"A": 3, "B": 5}) == "A"
    assert aso_next_seed([4, 4, 2], names=list("xyz")) == "z"


def _quantile(x):
    s = np.sort(x)
    return lambda t: s[min(max(int(np.ceil(len(s) * t)) - 1, 0), len(s) - 1)]


@pytest.mark.parametrize("seed", [7, 8])
def test_violation_ratio_equals_a_direct_numerical_integral(seed):
    rs = np.random.RandomState(seed)
    x, y = rs.normal(size=7), rs.normal(0.3, 1.5, size=4)
    f, g = _quantile(x), _quantile(y)
    points = sorted({i / 7 for i in range(1, 7)} | {j / 4 for j in range(1, 4)})

    def quad(fun):
        return integrate.quad(fun, 0, 1, points=points, limit=200, epsabs=1e-13)[0]

    total = quad(lambda t: (f(t) - g(t)) ** 2)
    violated = quad(lambda t: (f(t) - g(t)) ** 2 if f(t) < g(t) else 0.0)
    assert violation_ratio(x, y) == pytest.approx(violated / total, abs=1e-10)
    assert violation_ratio(x, y) + violation_ratio(y, x) == pytest.approx(1.0, abs=1e-12)


def test_violation_ratio_near_deepsig_riemann_sum():
    """deepsig 1.2.8: compute_violation_ratio(x, y, dt=0.0005) = 0.4013621375183168 for the
    RandomState(7) draws of the test above; its Riemann sum errs only on the grid cells that
    hold a step of either quantile function (n + m of them) and the first point it skips, each
    by at most dt x the largest squared difference, relative to the squared distance."""
    rs = np.random.RandomState(7)
    x, y = rs.normal(size=7), rs.normal(0.3, 1.5, size=4)
    total = integrate.quad(lambda t: (_quantile(x)(t) - _quantile(y)(t)) ** 2, 0, 1,
                           points=[i / 28 for i in range(1, 28)], limit=200)[0]
    bound = (7 + 4 + 2) * 0.0005 * (np.ptp(np.r_[x, y]) ** 2) / total
    assert abs(violation_ratio(x, y) - 0.4013621375183168) <= bound


def test_multi_aso_is_the_pairwise_form_with_bonferroni():
    rs = np.random.RandomState(3)
    a, b, c = rs.normal(0.5, 1, 6), rs.normal(0, 1, 6), rs.normal(0.2, 1, 4)
    many = multi_aso({"a": a, "b": b, "c": c}, n_resamples=500, random_state=4)
    # models are resampled in order with one generator: a's and b's resamples are those of
    # the two-model call, so with alpha / 3 the pair's bound is the same number
    pair = aso(a, b, n_comparisons=3, n_resamples=500, random_state=4, names=("a", "b"))
    assert many.eps_min[0, 1] == pair.epsilon_min
    assert many.n_comparisons == 3 and pair.level == pytest.approx(1 - 0.05 / 3)
    np.testing.assert_allclose(many.violation_ratio + many.violation_ratio.T, 1.0 + np.diag(
        np.full(3, np.nan)), equal_nan=True)
    # without Bonferroni the bound is lower (z at 1 - alpha, not 1 - alpha / 3)
    loose = multi_aso({"a": a, "b": b, "c": c}, bonferroni=False, n_resamples=500,
                      random_state=4)
    assert (loose.eps_min[0, 1] <= many.eps_min[0, 1])


def test_losses_are_negated():
    rs = np.random.RandomState(5)
    a, b = rs.normal(0, 1, 6), rs.normal(1, 1, 6)
    scores = aso(a, b, random_state=1)
    losses = aso(-a, -b, higher_is_better=False, random_state=1)
    assert scores.epsilon_min == losses.epsilon_min


def test_stochastically_larger_sample_has_zero_violation():
    assert violation_ratio([1.0, 2.0, 3.0], [0.0, 1.0, 2.0]) == 0.0
    assert violation_ratio([1.0, 2.0], [1.0, 2.0]) == 0.5        # equal: undefined, 0.5


@pytest.mark.parametrize("call, error, match", [
    (lambda: aso([0.8], [0.7, 0.6]), TooFewError, "at least 2 run"),
    (lambda: aso([0.8, np.nan], [0.7, 0.6]), InvalidInputError, "NaN"),
    (lambda: aso([0.8, 0.9], [0.7, 0.6], alpha=1.0), InvalidInputError, "alpha must lie in"),
    (lambda: aso([0.8, 0.9], [0.7, 0.6], tau=0.0), InvalidInputError, "tau must lie in"),
    (lambda: aso([0.8, 0.9], [0.7, 0.6], n_comparisons=0), InvalidInputError, "n_comparisons"),
    (lambda: multi_aso({"a": [0.8, 0.9]}), TooFewError, "at least 2 models"),
    (lambda: aso_uncertainty_reduction(5, 0, 5, 5), InvalidInputError, "n_old"),
    (lambda: aso_next_seed([3]), InvalidInputError, "at least 2 models"),
])
def test_odd_inputs_are_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
