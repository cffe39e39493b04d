"""Near-ties from floating-point rounding in the Wilcoxon signed-rank and sign tests.

Scores stored as decimals are the nearest doubles: 0.3 - 0.1 = 0.19999999999999998 but
0.4 - 0.2 = 0.2, and 0.1 + 0.2 - 0.3 = 5.6e-17. By default both tests treat these as the
tie and the zero they stand for (scipy compares exactly); ``tie_tolerance=0`` is scipy.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import InvalidInputError
from outperform.stats import pairwise_wilcoxon
from outperform.stats import sign_test
from outperform.stats._wilcoxon import ZERO_METHODS, wilcoxon

# Scores in tenths, and the same scores as stored decimals. The differences are
# 2, 2, 0, 5, 5, -1, 7, 3, -2 tenths; as doubles |d| of 0.3 - 0.1 and 0.2 - 0.4 (and of
# 0.7 - 0.2 and 0.9 - 0.4) differ in the last bit and 0.1 + 0.2 - 0.3 is not 0.
TENTHS_A = np.array([3, 4, 3, 9, 7, 5, 8, 6, 2])
TENTHS_B = np.array([1, 2, 3, 4, 2, 6, 1, 3, 4])
DEC_A = np.array([0.3, 0.4, 0.1 + 0.2, 0.9, 0.7, 0.5, 0.8, 0.6, 0.2])
DEC_B = np.array([0.1, 0.2, 0.3, 0.4, 0.2, 0.6, 0.1, 0.3, 0.4])
ALTERNATIVES = ["two-sided", "greater", "less"]


def same_result(res, ref):
    """Equal statistic, p-value, effect size and details (the tolerance option aside)."""
    assert (res.statistic, res.pvalue, res.effect_size) == pytest.approx(
        (ref.statistic, ref.pvalue, ref.effect_size), rel=1e-12, abs=1e-15)
    drop = {"tie_tolerance"}
    d1 = {k: v for k, v in res.details.items() if k not in drop}
    d2 = {k: v for k, v in ref.details.items() if k not in drop}
    assert d1.keys() == d2.keys()
    for key in d1:
        if isinstance(d1[key], float):
            assert d1[key] == pytest.approx(d2[key], rel=1e-12, abs=1e-15), key
        else:
            assert d1[key] == d2[key], key


def test_the_example_really_has_float_near_ties():
    d = DEC_A - DEC_B
    assert abs(d[0]) != abs(d[1]) and abs(d[3]) != abs(d[4]) and d[2] != 0
    assert np.array_equal(np.rint(10 * d), TENTHS_A - TENTHS_B)


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
@pytest.mark.parametrize("method", ["exact", "normal"])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_decimals_behave_as_the_integer_scores(zero_method, method, alternative):
    opts = {"zero_method": zero_method, "method": method, "alternative": alternative}
    same_result(wilcoxon(DEC_A, DEC_B, **opts), wilcoxon(TENTHS_A, TENTHS_B, **opts))


@pytest.mark.parametrize("zero_method", ZERO_METHODS)
def test_exact_comparison_differs_from_the_integer_scores(zero_method):
    # The test above can fail: compared exactly, the rounding errors change R+ and the zeros.
    exact = wilcoxon(DEC_A, DEC_B, zero_method=zero_method, tie_tolerance=0)
    ints = wilcoxon(TENTHS_A, TENTHS_B, zero_method=zero_method)
    assert (exact.details["R_plus"], exact.details["n_zero"]) != (ints.details["R_plus"],
                                                                    ints.details["n_zero"])


def test_point_one_plus_point_two_versus_point_three_is_a_zero():
    a, b = [0.1 + 0.2, 0.9, 0.8, 0.7], [0.3, 0.5, 0.6, 0.4]
    assert wilcoxon(a, b).details["n_zero"] == 1
    assert wilcoxon(a, b, zero_method="wilcox").details["n"] == 3
    assert wilcoxon(a, b, tie_tolerance=0).details["n_zero"] == 0
    assert sign_test(a, b).details["ties"] == 1
    assert sign_test(a, b, tie_tolerance=0).details["ties"] == 0
    assert sign_test(a, b).details["wins"] == 3


tenths = st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(0, 12), min_size=n, max_size=n),
    st.lists(st.integers(0, 12), min_size=n, max_size=n)))
options = st.fixed_dictionaries({
    "zero_method": st.sampled_from(ZERO_METHODS), "method": st.sampled_from(["exact", "normal"]),
    "correction": st.booleans(), "alternative": st.sampled_from(ALTERNATIVES)})


@settings(max_examples=80, deadline=None)
@given(tenths, options, st.sampled_from([10, 100, 1000]))
def test_decimal_scores_equal_integer_scores(data, opts, denominator):
    ia, ib = map(np.array, data)
    if np.all(ia == ib):
        return
    same_result(wilcoxon(ia / denominator, ib / denominator, **opts), wilcoxon(ia, ib, **opts))
    sign_opts = {"alternative": opts["alternative"], "method": opts["method"]}
    same_result(sign_test(ia / denominator, ib / denominator, **sign_opts),
                sign_test(ia, ib, **sign_opts))


@settings(max_examples=60, deadline=None)
@given(tenths, options, st.sampled_from([1000.0, 1e-3, 37.0]))
def test_default_is_scale_free(data, opts, factor):
    a, b = np.array(data[0]) / 10, np.array(data[1]) / 10
    if np.all(a == b):
        return
    same_result(wilcoxon(a * factor, b * factor, **opts), wilcoxon(a, b, **opts))
    same_result(sign_test(a * factor, b * factor), sign_test(a, b))


def test_scale_free_on_the_example():
    for zero_method in ZERO_METHODS:
        res = wilcoxon(DEC_A * 1000, DEC_B * 1000, zero_method=zero_method)
        assert res.pvalue == wilcoxon(DEC_A, DEC_B, zero_method=zero_method).pvalue


@settings(max_examples=80, deadline=None)
@given(tenths, st.sampled_from(["wilcox", "pratt", "zsplit"]), st.booleans(),
       st.sampled_from(ALTERNATIVES))
def test_zero_tolerance_is_scipy_on_decimals(data, zero_method, correction, alternative):
    a, b = np.array(data[0]) / 10, np.array(data[1]) / 10
    if np.all(a - b == 0):
        return
    res = wilcoxon(a, b, zero_method=zero_method, correction=correction, method="normal",
                   alternative=alternative, tie_tolerance=0)
    ref = stats.wilcoxon(a, b, zero_method=zero_method, correction=correction,
                         method="asymptotic", alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, abs=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15)


@pytest.mark.slow
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_zero_tolerance_is_scipy_exact_permutation(zero_method, alternative):
    res = wilcoxon(DEC_A, DEC_B, zero_method=zero_method, method="exact",
                   alternative=alternative, tie_tolerance=0)
    ref = stats.wilcoxon(DEC_A, DEC_B, zero_method=zero_method, alternative=alternative,
                         method=stats.PermutationMethod(n_resamples=np.inf))
    assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-9)


@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
def test_default_differs_from_scipy_on_decimals(zero_method):
    res = wilcoxon(DEC_A, DEC_B, zero_method=zero_method, method="normal")
    ref = stats.wilcoxon(DEC_A, DEC_B, zero_method=zero_method, method="asymptotic")
    assert res.pvalue != pytest.approx(ref.pvalue, rel=1e-6)
    # ... and agrees with scipy on the integer scores, which tie exactly.
    ints = stats.wilcoxon(TENTHS_A, TENTHS_B, zero_method=zero_method, method="asymptotic")
    assert res.pvalue == pytest.approx(ints.pvalue, rel=1e-9)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [12, 40, 200])
def test_default_is_scipy_on_continuous_data(seed, n):
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.normal(0.3, size=n)
    method = "exact" if n <= 50 else "asymptotic"
    for alternative in ALTERNATIVES:
        res = wilcoxon(a, b, alternative=alternative, method=method.replace("asymptotic",
                                                                             "normal"))
        ref = stats.wilcoxon(a, b, alternative=alternative, method=method)
        assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue),
                                                            rel=1e-9)
        assert res.details["ties"] is False


def test_absolute_tolerance_is_in_the_units_of_the_scores():
    a, b = [0.51, 0.70, 0.30, 0.80], [0.50, 0.60, 0.40, 0.55]
    assert sign_test(a, b).details["ties"] == 0
    assert sign_test(a, b, tie_tolerance=0.02).details["ties"] == 1
    res = wilcoxon(a, b, tie_tolerance=0.02, zero_method="wilcox")
    assert (res.details["n"], res.details["n_zero"]) == (3, 1)
    # |0.1| and |-0.1| tie within 0.02 (and exactly as tenths); 0.25 stays apart.
    assert (res.details["R_plus"], res.details["R_minus"]) == (1.5 + 3, 1.5)
    assert res.details["tie_tolerance"] == 0.02


def test_pairwise_wilcoxon_passes_the_tolerance_through():
    # Column 2 is B up to rounding ((B + 0.1) - 0.1 differs from B in the last bit).
    dec = np.column_stack([DEC_A, DEC_B, (DEC_B + 0.1) - 0.1, DEC_A - 0.1])
    ints = np.column_stack([TENTHS_A, TENTHS_B, TENTHS_B, TENTHS_A - 1])
    res, ref = pairwise_wilcoxon(dec), pairwise_wilcoxon(ints)
    np.testing.assert_allclose(res.pvalue, ref.pvalue, rtol=1e-12)
    assert res.details["identical_pairs"] == ref.details["identical_pairs"] == [
        ("model 1", "model 2")]
    exact = pairwise_wilcoxon(dec, tie_tolerance=0)
    assert exact.details["identical_pairs"] == []
    assert exact.pvalue[0, 1] == wilcoxon(DEC_A, DEC_B, tie_tolerance=0).pvalue
    assert exact.pvalue[0, 1] != pytest.approx(res.pvalue[0, 1], rel=1e-6)
    assert exact.details["tie_tolerance"] == 0.0


@pytest.mark.parametrize("bad", [-1e-9, np.nan, np.inf, "0.1", True, [0.1]])
def test_bad_tie_tolerance(bad):
    for test in (wilcoxon, sign_test):
        with pytest.raises(InvalidInputError, match="tie_tolerance must be a finite number"):
            test(DEC_A, DEC_B, tie_tolerance=bad)
    with pytest.raises(InvalidInputError, match="tie_tolerance"):
        pairwise_wilcoxon(np.column_stack([DEC_A, DEC_B]), tie_tolerance=bad)
