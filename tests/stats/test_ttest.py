"""Paired t-test: R's t.test, Williams (2026) §6 numbers, Demšar (2006) §3.1.2, scipy."""
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import effect_size_label
from outperform.stats import paired_ttest

SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
C45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1.000, .940, .619, .972, .957]
C45M = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1.000, .962, .666, .981, .978]


def test_r_sleep_data():
    # R: t.test(extra ~ group, data = sleep, paired = TRUE)
    # t = -4.0621, df = 9, p-value = 0.002833,
    # 95 percent confidence interval: -2.4598858 -0.7001142, mean difference -1.58
    res = paired_ttest(SLEEP_1, SLEEP_2)
    assert res.statistic == pytest.approx(-4.0621, abs=1e-4)
    assert res.df == 9
    assert res.pvalue == pytest.approx(0.002833, abs=5e-7)
    assert res.estimate == pytest.approx(-1.58)
    assert res.confidence_interval(0.95) == pytest.approx((-2.4598858, -0.7001142), abs=1e-7)
    assert res.effect_size == pytest.approx(-4.0621 / np.sqrt(10), abs=1e-4)


def data_with_t(t, n):
    """n differences whose paired t statistic is exactly t."""
    z = np.random.default_rng(0).normal(size=n)
    z = (z - z.mean()) / z.std(ddof=1)
    return z + t / np.sqrt(n), np.zeros(n)


@pytest.mark.parametrize("t, p, d, label", [
    (7.06, 3.7e-11, 0.53, "medium"),     # Williams §5.2, LgR vs SVM log scores
    (0.87, 0.38, 0.066, "negligible"),   # Williams §5.2, LgR vs MLP
])
def test_williams_worked_examples(t, p, d, label):
    # "the standard (frequentist) t-test ... p-value of 3.7e-11 (t = 7.06, df = 175). The
    # effect size is given by Cohen's d = 0.53, which is termed a medium strength effect."
    res = paired_ttest(*data_with_t(t, 176))
    assert res.df == 175 and res.statistic == pytest.approx(t)
    assert res.pvalue == pytest.approx(p, rel=0.05)
    assert round(res.effect_size, len(str(d)) - 2) == d
    assert effect_size_label(res.effect_size, "d") == label


def test_demsar_relative_differences():
    # Demšar §3.1.2: d_i = (c1_i - c2_i) / ((c1_i + c2_i) / 2).
    a, b = np.array(C45M), np.array(C45)
    rel = [(x - y) / ((x + y) / 2) for x, y in zip(C45M, C45)]
    res = paired_ttest(a, b, relative=True)
    ref = stats.ttest_1samp(rel, 0.0)
    assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue))
    assert res.estimate == pytest.approx(np.mean(rel))
    assert "relative" in res.method and res.details["relative"] is True
    assert paired_ttest(a, b).estimate == pytest.approx(np.mean(a - b))


finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
paired_floats = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(finite, min_size=n, max_size=n), st.lists(finite, min_size=n, max_size=n)))
alternatives = st.sampled_from(["two-sided", "greater", "less"])


def spread_enough(a, b):
    d = a - b
    return np.ptp(d) > 1e-6 * max(1.0, np.abs(a).max(), np.abs(b).max())


@settings(max_examples=80, deadline=None)
@given(paired_floats, alternatives, st.floats(0.5, 0.999))
def test_matches_scipy_ttest_rel(data, alternative, level):
    a, b = map(np.array, data)
    assume(spread_enough(a, b))
    res = paired_ttest(a, b, alternative=alternative)
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-8, abs=1e-300)
    assert res.df == ref.df
    assert res.confidence_interval(level) == pytest.approx(
        tuple(ref.confidence_interval(level)), rel=1e-9, abs=1e-12)
    assert res.effect_size == pytest.approx(ref.statistic / np.sqrt(a.size), rel=1e-9)


MIRROR = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


positive = st.floats(0.01, 100)
paired_positive = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(positive, min_size=n, max_size=n), st.lists(positive, min_size=n, max_size=n)))


@settings(max_examples=60, deadline=None)
@given(paired_positive, alternatives, st.booleans(), st.randoms(use_true_random=False))
def test_swap_and_order(data, alternative, relative, rnd):
    a, b = map(np.array, data)
    assume(spread_enough(a, b))
    if relative:
        assume(spread_enough((a - b) / ((a + b) / 2), 0 * a))
    ab = paired_ttest(a, b, alternative=alternative, relative=relative)
    ba = paired_ttest(b, a, alternative=MIRROR[alternative], relative=relative)
    assert ba.statistic == pytest.approx(-ab.statistic, rel=1e-9)
    assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-8, abs=1e-300)
    lo, hi = ab.confidence_interval(0.9)
    assert ba.confidence_interval(0.9) == pytest.approx((-hi, -lo), rel=1e-9, abs=1e-12)
    order = list(range(a.size))
    rnd.shuffle(order)
    shuffled = paired_ttest(a[order], b[order], alternative=alternative, relative=relative)
    assert (shuffled.statistic, shuffled.pvalue) == pytest.approx((ab.statistic, ab.pvalue))


def test_type_one_error_at_most_alpha():
    rng = np.random.default_rng(2026)
    a, b = rng.normal(size=(2, 2000, 8))
    rate = np.mean([paired_ttest(x, y).pvalue <= 0.05 for x, y in zip(a, b)])
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 2000)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_interval_is_dual_to_the_test(alternative):
    # At level 1 - p the interval has 0 on its finite boundary.
    res = paired_ttest(SLEEP_2, SLEEP_1, alternative=alternative)
    lo, hi = res.confidence_interval(1 - res.pvalue)
    assert (hi if alternative == "less" else lo) == pytest.approx(0, abs=1e-9)
    if alternative != "two-sided":
        assert (hi if alternative == "greater" else -lo) == np.inf
    lo95, hi95 = res.confidence_interval(0.95)
    assert lo95 <= res.estimate <= hi95


@pytest.mark.parametrize("a, b, error, message", [
    ([1, np.nan, 2], [1, 2, 3], InvalidInputError, "NaN"),
    ([1, 2, 3], [1, 2], InvalidInputError, "paired"),
    ([1], [0], TooFewError, "at least 2"),
    ([1, 2, 3], [1, 2, 3], DegenerateDataError, "variance is zero"),
    ([1.1, 2.1, 3.1], [1, 2, 3], DegenerateDataError, "variance is zero"),  # 0.1 + rounding
])
def test_bad_input(a, b, error, message):
    with pytest.raises(error, match=message):
        paired_ttest(a, b)


@pytest.mark.parametrize("a, b", [([0.5, -0.1, 0.7], [0.4, 0.2, 0.5]),
                                  ([0.0, 0.3, 0.7], [0.0, 0.2, 0.5])])
def test_relative_needs_positive_scores(a, b):
    with pytest.raises(InvalidInputError, match="non-negative"):
        paired_ttest(a, b, relative=True)


def test_bad_alternative():
    with pytest.raises(InvalidInputError, match="alternative"):
        paired_ttest(SLEEP_1, SLEEP_2, alternative="two-tailed")
