"""Hsu's multiple comparisons with the best (stats/_mcb.py): a published example, R's
multcomp, reductions and properties, and simultaneous coverage in simulation."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats._mcb import mcb, mcb_bounds, mcb_intervals

# R's multcomp example table (tests/stats/test_dunnett.py): 5 blocks x models a, b, c, d.
Y = np.array([10.2, 11.1, 9.8, 12.0, 10.9, 11.7, 9.5, 10.1, 11.3, 12.4, 10.8, 11.9,
              10.0, 10.7, 11.6, 12.8, 11.4, 12.2, 9.9, 10.4]).reshape(5, 4)


def test_minitab_paint_hardness_published_intervals():
    """Minitab's One-Way ANOVA example, "Hsu's MCB (Multiple Comparisons with the Best)",
    paint hardness of 4 blends, 6 samples each (Minitab Help, One-Way ANOVA > Graphs - Hsu
    simultaneous CIs; www.pinzhi.org/Minitab/help/Mtbsg/stanovar/aov1_076_Hsu_CIs.htm):
    means 14.733, 8.567, 12.983, 18.067 (sums 88.4, 51.4, 77.9, 108.4 over 6), pooled
    StDev = 3.95012 (20 df, aov1_020_individual_statistics.htm); printed intervals for
    Blend 2 (−14.5000, 0) and Blend 3 (−10.0833, 0), largest is best.

    Minitab's critical value is about 2.1924 (from 5.0000 = d · 3.95012 · √(1/3)), ours
    2.19228 (quadrature, equal to scipy.stats.multivariate_t.cdf to 1e-8 in
    test_multivariate_t.py): the bounds agree to 3e-4, Minitab's 4th decimal."""
    means = np.array([88.4, 51.4, 77.9, 108.4]) / 6
    other_best = np.array([means[3], means[3], means[3], means[0]])
    se = 3.95012 * np.sqrt(2 / 6)
    low, high, d = mcb_bounds(means - other_best, se, 20, 4)
    np.testing.assert_allclose(low[[1, 2]], [-14.5000, -10.0833], atol=3e-4)
    assert high[1] == high[2] == 0.0               # Blends 2 and 3 are worse than the best
    assert high[0] > 0 and high[3] > 0             # Blends 1 and 4 could be the best
    assert round(d, 2) == 2.19                     # Dunnett's one-sided table, 3 comparisons, 20 df


def test_pvalue_is_r_multcomp_one_sided_dunnett():
    """MCB's p-value of model c is the one-sided Dunnett test of the best other model (b)
    against c as control (JMP's "with Max" p-value). R 4.x, multcomp:
    fit <- aov(y ~ model + block, d)   # d: Y in long form, models a-d, blocks 1-5
    K <- contrMat(table(d$model), type = "Dunnett", base = 3)
    summary(glht(fit, linfct = mcp(model = K), alternative = "greater"),
            test = adjusted("single-step", abseps = 1e-7, maxpts = 2e6))
    -> b - c: p = 0.04495576; t of b - a (base 1): 1.55407588, estimate 0.86."""
    res = mcb(Y, names="abcd")
    assert res.pvalue[2] == pytest.approx(0.04495576, abs=1e-5)
    assert res.standard_error == pytest.approx(0.86 / 1.55407588, rel=1e-7)
    assert res.df == 12
    # p <= alpha exactly when the upper bound is 0 (c is worse than the best)
    np.testing.assert_array_equal(res.pvalue <= 0.05, res.upper == 0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(3, 40), st.sampled_from([0.01, 0.05, 0.2]))
def test_two_models_is_the_one_sided_paired_t(seed, b, alpha):
    """k = 2: the upper bound of A is max(0, the one-sided paired t bound of A − B);
    scipy.stats.ttest_rel(a, b, alternative="less").confidence_interval(1 - alpha)."""
    x = np.random.default_rng(seed).normal(size=(b, 2))
    res = mcb(x, alpha=alpha, names="AB")
    high = stats.ttest_rel(x[:, 0], x[:, 1], alternative="less").confidence_interval(
        1 - alpha).high
    low = stats.ttest_rel(x[:, 0], x[:, 1], alternative="greater").confidence_interval(
        1 - alpha).low
    assert res.upper[0] == pytest.approx(max(0.0, high), abs=1e-9)
    assert res.lower[0] == pytest.approx(min(0.0, low), abs=1e-9)
    assert res.critical_value == pytest.approx(stats.t.ppf(1 - alpha, b - 1), rel=1e-9)


def test_lower_is_better_is_the_mirror_image():
    hib = mcb(Y, names="abcd")
    lib = mcb(-Y, names="abcd", higher_is_better=False)
    np.testing.assert_allclose(lib.lower, -hib.upper, atol=1e-12)
    np.testing.assert_allclose(lib.upper, -hib.lower, atol=1e-12)
    np.testing.assert_allclose(lib.pvalue, hib.pvalue, atol=1e-12)
    assert lib.candidates() == hib.candidates()
    assert set(hib.candidates()) == {m for m, p in zip("abcd", hib.pvalue) if p > 0.05}


def test_block_effects_and_shifts_do_not_change_the_intervals():
    rng = np.random.default_rng(1)
    moved = Y + rng.normal(scale=5, size=(5, 1)) + 3.0
    a, b = mcb(Y), mcb(moved)
    np.testing.assert_allclose(b.lower, a.lower, atol=1e-9)
    np.testing.assert_allclose(b.upper, a.upper, atol=1e-9)


def test_constrained_intervals_contain_zero_and_the_sample_best_is_a_candidate():
    res = mcb(Y, names="abcd")
    assert np.all(res.lower <= 0) and np.all(res.upper >= 0)
    assert res.could_be_best[np.argmax(res.means)]
    assert not res.is_best.any()


def test_clear_winner_is_the_best():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(30, 3)) + [3.0, 0.0, 0.0]
    res = mcb(x, names="ABC")
    assert res.is_best.tolist() == [True, False, False]
    assert res.candidates() == ("A",)


def test_row_form_equals_single_calls():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(4, 7, 3))
    low, high, diff, _ = mcb_intervals(x, higher_is_better=False)
    for r in range(4):
        one = mcb(x[r], higher_is_better=False)
        np.testing.assert_array_equal(low[r], one.lower)
        np.testing.assert_array_equal(high[r], one.upper)


@pytest.mark.parametrize("scores, error, match", [
    ([[1.0, np.nan, 2.0], [1.0, 2.0, 3.0]], InvalidInputError, "Skillings–Mack"),
    ([[1.0], [2.0]], TooFewError, "at least 2 models"),
    ([[1.0, 2.0]], TooFewError, "at least 2 blocks"),
    ([[1.0, 2.0], [3.0, 4.0], [0.0, 1.0]], DegenerateDataError, "zero residual"),
])
def test_odd_inputs(scores, error, match):
    with pytest.raises(error, match=match):
        mcb(scores)


@pytest.mark.slow
@pytest.mark.parametrize("mu", [[0.0, 0.0, 0.0, 0.0], [0.0, -0.2, -0.5, -1.0]])
def test_simultaneous_coverage_at_least_the_level(mu):
    """All k intervals cover μ_i − max_{j≠i} μ_j together in >= 95% of 4000 tables (binomial
    standard error 0.0034; the bound is 1 − α − 3 se), with block effects (Hsu 1984 Thm 1).
    Vectorised: the 4000 tables go through the row form at once."""
    rng = np.random.default_rng(11)
    mu = np.asarray(mu)
    reps, b = 4000, 8
    x = mu + rng.normal(scale=2.0, size=(reps, b, 1)) + rng.normal(size=(reps, b, mu.size))
    low, high, _, _ = mcb_intervals(x, alpha=0.05)
    truth = mu - np.array([np.delete(mu, i).max() for i in range(mu.size)])
    covered = np.all((low <= truth) & (truth <= high), axis=1).mean()
    assert covered >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / reps)
