"""Bayesian paired t-test (outperform.bayes._ttest), Williams (2026) eq. 6."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import bayesian_ttest


def with_summary(n: int, mean: float, sd: float, seed: int = 0) -> np.ndarray:
    """n differences with exactly the given mean and sample sd."""
    z = np.random.default_rng(seed).standard_normal(n)
    z = (z - z.mean()) / z.std(ddof=1)
    return mean + sd * z


def test_williams_2026_lgr_vs_mlp():
    """§6.1: N = 176, Cohen's d = 0.066 (t = 0.87, p = 0.38): 0.014 / 0.660 / 0.326, undecided.

    The three probabilities depend only on N and m / s; the paper's d is rounded, so they
    agree to about 1e-3 (d = 0.066 gives 0.0145 / 0.6593 / 0.3263).
    """
    d = with_summary(176, 0.066 * 0.8, 0.8)
    res = bayesian_ttest(d, np.zeros(176))
    assert res.p_b_better == pytest.approx(0.014, abs=1e-3)
    assert res.p_equivalent == pytest.approx(0.660, abs=1.5e-3)
    assert res.p_a_better == pytest.approx(0.326, abs=1e-3)
    assert res.decision == "undecided"
    assert 2 * (1 - res.details["p_positive"]) == pytest.approx(0.38, abs=5e-3)
    assert res.details["effect_size_label"] == "negligible"


def test_williams_2026_lgr_vs_svm():
    """§6.1: t = 7.06 with df = 175 (d = 0.53): p(LgR > SVM) = 1.0, LgR practically better."""
    d = with_summary(176, 7.06 / np.sqrt(176), 1.0)
    res = bayesian_ttest(d, np.zeros(176))
    assert round(res.p_a_better, 3) == 1.0
    assert round(res.p_equivalent, 3) == 0.0 and round(res.p_b_better, 3) == 0.0
    assert res.decision == "A better"
    assert res.details["cohens_d"] == pytest.approx(0.53, abs=5e-3)
    assert 2 * (1 - res.details["p_positive"]) == pytest.approx(3.7e-11, rel=0.05)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 60), st.integers(0, 2**32 - 1), st.floats(-1, 1))
def test_credible_interval_and_tail_match_paired_t_test(n, seed, shift):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n)
    b = a - shift - rng.normal(scale=0.5, size=n)
    res = bayesian_ttest(a, b)
    ci = stats.ttest_rel(a, b).confidence_interval(0.95)
    assert res.credible_interval_95 == pytest.approx((ci.low, ci.high), rel=1e-9, abs=1e-12)
    p_greater = stats.ttest_rel(a, b, alternative="greater").pvalue
    assert res.details["p_positive"] == pytest.approx(1 - p_greater, abs=1e-12)


def test_posterior_against_normal_inverse_gamma_sampling():
    """Sample (sigma^2, Delta) from the conjugate posterior under p(Delta, sigma^2) ~ 1/sigma^2."""
    d = np.random.default_rng(5).normal(0.05, 1.0, size=40)
    n, m, s = d.size, d.mean(), d.std(ddof=1)
    rng = np.random.default_rng(6)
    sigma2 = (n - 1) * s**2 / rng.chisquare(n - 1, size=400_000)
    delta = rng.normal(m, np.sqrt(sigma2 / n))
    res = bayesian_ttest(d, np.zeros(n))
    low, high = res.rope
    assert np.mean(delta < low) == pytest.approx(res.p_left, abs=3e-3)
    assert np.mean(delta > high) == pytest.approx(res.p_right, abs=3e-3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 50), st.integers(0, 2**32 - 1))
def test_swapping_a_and_b_mirrors(n, seed):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(size=n)
    ab, ba = bayesian_ttest(a, b), bayesian_ttest(b, a)
    assert ab.p_a_better == pytest.approx(ba.p_b_better, abs=1e-12)
    assert ab.p_equivalent == pytest.approx(ba.p_equivalent, abs=1e-9)
    assert ab.posterior_mean == pytest.approx(-ba.posterior_mean)
    assert ab.rope == pytest.approx((-ba.rope[1], -ba.rope[0]))


def test_invariances():
    rng = np.random.default_rng(2)
    a, b = rng.normal(0.2, 1, 30), rng.normal(0, 1, 30)
    ref = bayesian_ttest(a, b)
    perm = rng.permutation(30)
    assert bayesian_ttest(a[perm], b[perm]).p_right == pytest.approx(ref.p_right)
    # The default ROPE is in sd units: rescaling and shifting both models changes nothing.
    scaled = bayesian_ttest(3 * a + 1, 3 * b + 1)
    assert (scaled.p_left, scaled.p_rope, scaled.p_right) == pytest.approx(
        (ref.p_left, ref.p_rope, ref.p_right))


def test_user_rope():
    a, b = with_summary(50, 0.3, 1.0), np.zeros(50)
    assert bayesian_ttest(a, b, rope=0.05).rope == (-0.05, 0.05)
    assert bayesian_ttest(a, b, rope=(-0.1, 0.2)).rope == (-0.1, 0.2)
    no_rope = bayesian_ttest(a, b, rope=0)
    assert no_rope.p_right == pytest.approx(no_rope.details["p_positive"])


def test_bad_input():
    with pytest.raises(InvalidInputError, match="paired"):
        bayesian_ttest([1, 2, 3], [1, 2])
    with pytest.raises(InvalidInputError, match="NaN"):
        bayesian_ttest([1, np.nan, 3], [1, 2, 3])
    with pytest.raises(TooFewError, match="at least 2"):
        bayesian_ttest([1.0], [0.5])
    with pytest.raises(DegenerateDataError, match="equal"):
        bayesian_ttest([0.1, 0.2, 0.3], [0.0, 0.1, 0.2])
    with pytest.raises(InvalidInputError, match="rope"):
        bayesian_ttest([1, 2, 3], [0, 2, 1], rope=-0.1)
    with pytest.raises(InvalidInputError, match="threshold"):
        bayesian_ttest([1, 2, 3], [0, 2, 1], threshold=1.0)
