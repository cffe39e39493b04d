"""Dietterich's 5x2cv t-test and Alpaydın's combined 5x2cv F-test."""
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from outperform import DegenerateDataError, InvalidInputError
from outperform.stats import alpaydin_5x2cv_ftest, dietterich_5x2cv_ttest

# Issue 4: per-fold accuracy differences p(1), p(2) of repetitions 1..5, divided by 75.
ISSUE = np.array([[24, 26], [26, 20], [25, 33], [24, 25], [24, 26]]) / 75


def test_issue_numbers_dietterich():
    res = dietterich_5x2cv_ttest(ISSUE)
    assert res.statistic == pytest.approx(7.269390393784586, rel=1e-12)
    assert res.pvalue == pytest.approx(7.701198e-04, rel=1e-6)
    assert res.df == 5
    assert res.estimate == pytest.approx(24 / 75)


def test_issue_numbers_alpaydin():
    res = alpaydin_5x2cv_ftest(ISSUE)
    assert res.statistic == pytest.approx(59.587155963302656, rel=1e-12)
    assert res.pvalue == pytest.approx(1.4469995e-04, rel=1e-6)
    assert res.df == (10, 5)


def test_against_scipy_distributions_and_hand_formulas():
    # s_i^2 by hand: (2, 18, 32, 0.5, 2) / 75^2.
    s2 = np.array([2, 18, 32, 0.5, 2]) / 75**2
    res_t = dietterich_5x2cv_ttest(ISSUE, alternative="greater")
    np.testing.assert_allclose(res_t.details["s2"], s2, rtol=1e-12)
    t = (24 / 75) / math.sqrt(s2.mean())
    assert res_t.pvalue == pytest.approx(stats.t(5).sf(t), rel=1e-10)
    assert dietterich_5x2cv_ttest(ISSUE, alternative="less").pvalue == pytest.approx(
        stats.t(5).cdf(t), rel=1e-10)
    f = np.sum(ISSUE**2) / (2 * s2.sum())
    assert alpaydin_5x2cv_ftest(ISSUE).pvalue == pytest.approx(stats.f(10, 5).sf(f), rel=1e-10)


diffs = arrays(float, (5, 2), elements=st.floats(-1, 1))


@settings(max_examples=30, deadline=None)
@given(diffs)
def test_swapping_a_and_b_mirrors(p):
    assume(np.max(np.ptp(p, axis=1)) > 1e-6)
    t_ab, t_ba = dietterich_5x2cv_ttest(p), dietterich_5x2cv_ttest(-p)
    assert t_ab.statistic == pytest.approx(-t_ba.statistic, rel=1e-12)
    assert t_ab.pvalue == pytest.approx(t_ba.pvalue, rel=1e-12)
    assert dietterich_5x2cv_ttest(p, alternative="greater").pvalue == pytest.approx(
        dietterich_5x2cv_ttest(-p, alternative="less").pvalue, rel=1e-12)
    assert alpaydin_5x2cv_ftest(p).statistic == pytest.approx(
        alpaydin_5x2cv_ftest(-p).statistic, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(diffs, st.permutations(range(5)), st.floats(0.01, 100))
def test_invariances(p, order, scale):
    assume(np.max(np.ptp(p, axis=1)) > 1e-6)
    f = alpaydin_5x2cv_ftest(p).statistic
    # F: any order of repetitions or of the two folds, and the units of the score.
    assert alpaydin_5x2cv_ftest(p[list(order)][:, ::-1]).statistic == pytest.approx(f, rel=1e-9)
    assert alpaydin_5x2cv_ftest(p * scale).statistic == pytest.approx(f, rel=1e-9)
    # t: order of repetitions 2..5 and the units; not the first fold (documented).
    t = dietterich_5x2cv_ttest(p).statistic
    rest = [0] + [1 + i for i in order if i < 4]
    assert dietterich_5x2cv_ttest(p[rest]).statistic == pytest.approx(t, rel=1e-9)
    assert dietterich_5x2cv_ttest(p * scale).statistic == pytest.approx(t, rel=1e-9)


def test_type_one_error_under_the_null():
    # Dietterich's null model: the ten differences are i.i.d. N(0, sigma^2).
    rng = np.random.default_rng(1999)
    sims = 0.03 * rng.standard_normal((2000, 5, 2))
    alpha = 0.05
    bound = alpha + 3 * math.sqrt(alpha * (1 - alpha) / len(sims))
    assert np.mean([dietterich_5x2cv_ttest(p).pvalue < alpha for p in sims]) < bound
    assert np.mean([alpaydin_5x2cv_ftest(p).pvalue < alpha for p in sims]) < bound


@pytest.mark.parametrize("bad", [np.zeros((5, 3)), np.zeros(10), np.zeros((1, 2))])
def test_bad_shape(bad):
    with pytest.raises(InvalidInputError, match=r"shape \(5, 2\)"):
        dietterich_5x2cv_ttest(bad)


def test_bad_values():
    with pytest.raises(InvalidInputError, match="NaN"):
        alpaydin_5x2cv_ftest(np.r_[ISSUE[:4], [[np.nan, 0.1]]])
    with pytest.raises(InvalidInputError, match="alternative"):
        dietterich_5x2cv_ttest(ISSUE, alternative="up")
    with pytest.raises(DegenerateDataError, match="s_i"):
        alpaydin_5x2cv_ftest(np.full((5, 2), 0.1))
