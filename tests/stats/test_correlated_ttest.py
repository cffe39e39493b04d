"""Corrected resampled t-test (Nadeau & Bengio 2003) and the naive k-fold t-test."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from outperform import DegenerateDataError, InvalidInputError, TooFewError
from outperform.results import FrequentistResult
from outperform.stats import (
    correlation_heuristic,
    corrected_resampled_ttest,
    naive_kfold_ttest,
)

RNG = np.random.default_rng(2003)
A = RNG.normal(0.80, 0.03, 20)
B = A - RNG.normal(0.01, 0.02, 20)


def _naive(a, b, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return naive_kfold_ttest(a, b, **kwargs)


# --- Published numbers, through Corollary 1 of Corani & Benavoli (2015) ---------------------
# Issue 4: on uci54 anneal (x = aode/100, y = nbc/100, rho = 0.1) the correlated Bayesian
# t-test under the matching prior gives P(mu > 0.01) = 0.9542856649905699 and
# P(mu < -0.01) = 3.021105047240624e-07 (baycomp). By Corollary 1 these are one-sided
# p-values of the corrected t-test on differences shifted by the ROPE bound.

def test_uci54_anneal_through_corollary_1(shared_data):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        df = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    anneal = df[df.task == "anneal"]
    aode = anneal[anneal.model == "aode"].score.to_numpy()
    nbc = anneal[anneal.model == "nbc"].score.to_numpy()
    up = corrected_resampled_ttest(aode - 0.01, nbc, rho=0.1, alternative="greater")
    down = corrected_resampled_ttest(aode + 0.01, nbc, rho=0.1, alternative="greater")
    assert 1 - up.pvalue == pytest.approx(0.9542856649905699, abs=1e-9)
    assert down.pvalue == pytest.approx(3.021105047240624e-07, abs=1e-9)
    # same through the fold sizes of 10-fold CV (anneal: 898 examples)
    by_sizes = corrected_resampled_ttest(aode - 0.01, nbc, n_train=808.2, n_test=89.8,
                                         alternative="greater")
    assert by_sizes.pvalue == pytest.approx(up.pvalue, rel=1e-12)


# --- Against scipy -------------------------------------------------------------------------

paired = st.integers(2, 40).flatmap(lambda n: st.tuples(
    arrays(float, n, elements=st.floats(0, 1)), arrays(float, n, elements=st.floats(0, 1))))


@settings(max_examples=30, deadline=None)
@given(paired, st.sampled_from(["two-sided", "greater", "less"]))
def test_rho_zero_and_naive_test_equal_scipy_ttest_rel(ab, alternative):
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    for res in (corrected_resampled_ttest(a, b, rho=0, alternative=alternative),
                _naive(a, b, alternative=alternative)):
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15)
        assert res.df == ref.df
        np.testing.assert_allclose(res.confidence_interval(0.9),
                                   ref.confidence_interval(0.9), rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(paired, st.sampled_from([0.1, 0.2, 0.5, 1 / 3]))
def test_correction_scales_the_naive_statistic(ab, rho):
    # Eq. (1): the only change from the paired t-test is the variance factor
    # 1/n + rho/(1 - rho) in place of 1/n.
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    n = a.size
    naive_t = stats.ttest_rel(a, b).statistic
    expected = naive_t * math.sqrt((1 / n) / (1 / n + rho / (1 - rho)))
    res = corrected_resampled_ttest(a, b, rho=rho)
    assert res.statistic == pytest.approx(expected, rel=1e-9)
    assert res.pvalue == pytest.approx(2 * stats.t(n - 1).sf(abs(expected)), rel=1e-9)


def test_result_fields_and_interval():
    res = corrected_resampled_ttest(A, B, rho=0.1)
    assert isinstance(res, FrequentistResult)
    statistic, pvalue = res
    d = A - B
    se = d.std(ddof=1) * math.sqrt(1 / 20 + 1 / 9)
    assert statistic == pytest.approx(d.mean() / se)
    assert res.estimate == pytest.approx(d.mean())
    assert res.effect_size == pytest.approx(d.mean() / d.std(ddof=1))
    assert res.details["rho"] == 0.1 and res.details["n_folds"] == 20
    lo, hi = res.confidence_interval(0.95)
    q = stats.t(19).ppf(0.975)
    assert (lo, hi) == pytest.approx((d.mean() - q * se, d.mean() + q * se))
    lo, hi = corrected_resampled_ttest(A, B, rho=0.1, alternative="greater").confidence_interval()
    assert hi == math.inf and lo == pytest.approx(d.mean() - stats.t(19).ppf(0.95) * se)


def test_corrected_test_is_more_conservative():
    naive = _naive(A, B)
    corrected = corrected_resampled_ttest(A, B, rho=0.1)
    assert abs(corrected.statistic) < abs(naive.statistic)
    assert corrected.pvalue > naive.pvalue


# --- rho from the fold sizes ----------------------------------------------------------------

def test_correlation_heuristic():
    assert correlation_heuristic(900, 100) == pytest.approx(0.1)
    assert correlation_heuristic([90, 91, 91], [11, 10, 10]) == pytest.approx(31 / 303)
    r1 = corrected_resampled_ttest(A, B, n_train=90, n_test=10)
    r2 = corrected_resampled_ttest(A, B, rho=0.1)
    assert r1.statistic == pytest.approx(r2.statistic, rel=1e-12)


@pytest.mark.parametrize("kwargs, message", [
    ({}, "pass rho"),
    (dict(n_train=90), "pass rho"),
    (dict(rho=0.1, n_train=90, n_test=10), "not both"),
    (dict(rho=1.0), r"\[0, 1\)"),
    (dict(rho=-0.2), r"\[0, 1\)"),
    (dict(n_train=0, n_test=10), "positive"),
    (dict(n_train=[90, 90], n_test=[10, 10, 10]), "same length"),
    (dict(rho=0.1, alternative="bigger"), "alternative"),
])
def test_bad_options(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        corrected_resampled_ttest(A, B, **kwargs)


def test_bad_data():
    with pytest.raises(InvalidInputError, match="paired"):
        corrected_resampled_ttest(A, B[:-1], rho=0.1)
    with pytest.raises(InvalidInputError, match="NaN"):
        corrected_resampled_ttest(np.r_[A[:-1], np.inf], B, rho=0.1)
    with pytest.raises(TooFewError, match="at least 2 folds"):
        corrected_resampled_ttest([0.8], [0.7], rho=0.1)
    with pytest.raises(DegenerateDataError, match="variance is 0"):
        corrected_resampled_ttest(A + 0.01, A, rho=0.1)
    with pytest.raises(DegenerateDataError, match="variance is 0"):
        _naive(np.full(10, 0.3), np.full(10, 0.3))


def test_naive_test_warns_and_points_to_the_corrected_one():
    with pytest.warns(UserWarning, match="not calibrated.*corrected_resampled_ttest"):
        naive_kfold_ttest(A, B)


# --- Symmetry and invariance ---------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(paired, st.sampled_from([0.0, 0.1, 0.5]))
def test_swapping_a_and_b_mirrors(ab, rho):
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    ab_res = corrected_resampled_ttest(a, b, rho=rho)
    ba_res = corrected_resampled_ttest(b, a, rho=rho)
    assert ab_res.statistic == pytest.approx(-ba_res.statistic, rel=1e-12)
    assert ab_res.pvalue == pytest.approx(ba_res.pvalue, rel=1e-12)
    greater = corrected_resampled_ttest(a, b, rho=rho, alternative="greater")
    less = corrected_resampled_ttest(b, a, rho=rho, alternative="less")
    assert greater.pvalue == pytest.approx(less.pvalue, rel=1e-12)


@settings(max_examples=30, deadline=None)
@given(paired, st.integers(-3, 3))
def test_adding_a_constant_to_both_changes_nothing(ab, shift):
    a, b = ab
    assume(np.ptp(a - b) > 1e-3)
    c = shift / 4
    r1 = corrected_resampled_ttest(a, b, rho=0.1)
    r2 = corrected_resampled_ttest(a + c, b + c, rho=0.1)
    assert r2.statistic == pytest.approx(r1.statistic, rel=1e-6)
    assert r2.pvalue == pytest.approx(r1.pvalue, rel=1e-6, abs=1e-12)


# --- Calibration in simulation --------------------------------------------------------------

@pytest.mark.parametrize("runs, folds", [(1, 10), (10, 10)])
def test_type_one_error_naive_vs_corrected(runs, folds):
    # Two equally good learners: fold differences x ~ MVN(0, sigma^2 M(rho)) with the
    # intraclass correlation rho = 1/k of k-fold CV (Corani & Benavoli 2015, §2.3). Under
    # this model the corrected statistic is exactly Student t(n - 1), so its rejection rate
    # must be alpha up to Monte Carlo error; the naive test's is far larger.
    rng = np.random.default_rng(1998)
    n_sim, alpha, rho = 2000, 0.05, 1 / folds
    n = runs * folds
    shared = rng.standard_normal((n_sim, 1))
    x = 0.02 * (math.sqrt(rho) * shared + math.sqrt(1 - rho) * rng.standard_normal((n_sim, n)))
    zeros = np.zeros(n)
    corrected = np.array([corrected_resampled_ttest(xi, zeros, rho=rho).pvalue for xi in x])
    naive = np.array([_naive(xi, zeros).pvalue for xi in x])
    mc_sd = math.sqrt(alpha * (1 - alpha) / n_sim)
    assert np.mean(corrected < alpha) < alpha + 3 * mc_sd
    assert np.mean(corrected < alpha) > alpha - 3 * mc_sd
    assert np.mean(naive < alpha) > 3 * alpha
