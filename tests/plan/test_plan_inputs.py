"""Planners refuse impossible input by name instead of returning nan, inf or an empty table
(issue 25)."""
import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.plan import (binomial_test_power, corrected_ttest_table, mcnemar_power,
                             paired_ttest_power, power_curve, sign_test_power)


@pytest.mark.parametrize("args, match", [
    ((10, 1.7, 0.05), r"q \(P\(A wins a trial\)\) must lie in \[0, 1\], got 1.7"),
    ((10, -0.1, 0.05), "q .* got -0.1"),
    ((10, np.nan, 0.05), "q .* got nan"),
    ((-3, 0.7, 0.05), r"m \(numbers of trials\) must be whole numbers >= 0, got -3"),
    ((2.5, 0.7, 0.05), "got 2.5"),
    ((10, 0.7, 0.0), "alpha must lie strictly between 0 and 1, got 0.0"),
    ((10, 0.7, 2.0), "alpha must lie strictly between 0 and 1, got 2.0"),
    ((10, 0.7, -0.05), "alpha must lie"),
])
def test_binomial_test_power_refuses_impossible_input(args, match):
    with pytest.raises(InvalidInputError, match=match):
        binomial_test_power(*args)


def test_binomial_test_power_unknown_alternative():
    with pytest.raises(InvalidInputError, match="alternative must be one of"):
        binomial_test_power(10, 0.7, 0.05, alternative="less")


def test_binomial_test_power_valid_input_unchanged():
    # m = 10, alpha = 0.05 two-sided: reject at <= 1 losses or <= 1 wins (P(X <= 1) = 11/1024
    # <= 0.025 < P(X <= 2) = 56/1024); power at q = 0.7: P(Y >= 9) + P(Y <= 1), Y ~ Bin(10, .7)
    expected = stats.binom.sf(8, 10, 0.7) + stats.binom.cdf(1, 10, 0.7)
    assert float(binomial_test_power(10, 0.7, 0.05)) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    (dict(power=1.0), "power must lie strictly between 0 and 1, got 1.0"),
    (dict(power=0.0), "power must lie strictly between 0 and 1"),
    (dict(power=0.8, alpha=0.0), "alpha must lie strictly between 0 and 1"),
    (dict(power=0.8, alpha=0.9), r"power \(0.8\) must exceed alpha \(0.9\)"),
    (dict(effect=0.5, runs=()), "runs must be a non-empty sequence"),
    (dict(effect=0.5, folds=[]), "folds must be a non-empty sequence"),
    (dict(effect=0.0), "d = 0 means no difference"),
    (dict(effect=float("inf")), "d must be a finite number"),
])
def test_corrected_ttest_table_refuses_impossible_input(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        corrected_ttest_table(**kwargs)


def test_corrected_ttest_table_still_leaves_uncomputable_cells_nan():
    # 1 run of 2 folds is one difference with 1 df: the documented NaN cell remains
    table = corrected_ttest_table(power=0.8, runs=(1, 10), folds=(2, 10))
    assert table.shape == (2, 2) and np.isfinite(table.loc[10, 10])


@pytest.mark.parametrize("over, design, match", [
    ("nn", dict(effect=0.5), r"paired_ttest_power has no parameter 'nn'; its parameters are "
                             r"effect, n, alpha"),
    ("n", dict(effect=0.5, foo=1), "no parameter 'foo'"),
    ("n", dict(effect=0.5, accuracy_a=0.8), "no parameter 'accuracy_a'"),
])
def test_power_curve_unknown_parameter_lists_the_valid_names(over, design, match):
    with pytest.raises(InvalidInputError, match=match):
        power_curve(paired_ttest_power, over, [10, 20], **design)


@pytest.mark.parametrize("planner, over, values, design, match", [
    ("paired_ttest_power", "n", [10], dict(effect=0.5), "planner must be one of the planners"),
    (paired_ttest_power, "n", [float("nan")], dict(effect=0.5), "NaN or infinite"),
    (paired_ttest_power, "n", [10.5], dict(effect=0.5), "n must be whole numbers, got 10.5"),
    (paired_ttest_power, "n", ["ten"], dict(effect=0.5), "must be numbers"),
    (paired_ttest_power, "power", [0.5], dict(effect=0.5, n=10), "leave power out"),
    (paired_ttest_power, "n", [], dict(effect=0.5), "non-empty 1-D grid"),
])
def test_power_curve_refuses_bad_grids_and_planners(planner, over, values, design, match):
    with pytest.raises(InvalidInputError, match=match):
        power_curve(planner, over, values, **design)


def test_power_curve_valid_input_unchanged():
    # statsmodels TTestPower().power(0.5, 10, 0.05) = 0.2931...
    from statsmodels.stats.power import TTestPower
    curve = power_curve(paired_ttest_power, "n", [10], effect=0.5)
    assert curve["power"].iloc[0] == pytest.approx(TTestPower().power(0.5, 10, 0.05), rel=1e-9)


@pytest.mark.parametrize("call, match", [
    (lambda: mcnemar_power(accuracy_a=1.2, accuracy_b=0.8, discordance=0.3, n=100),
     "accuracy_a must lie in"),
    (lambda: mcnemar_power(accuracy_a=0.9, accuracy_b=0.7, discordance=0.1, n=100),
     "discordance 0.1 is below"),
    (lambda: mcnemar_power(accuracy_a=0.8, accuracy_b=0.8, discordance=0.1, n=100),
     "means no difference"),
    (lambda: paired_ttest_power(effect=0.5, power=1.0), "power must lie strictly"),
    (lambda: paired_ttest_power(effect=0.5, n=10, alpha=0.0), "alpha must lie strictly"),
    (lambda: sign_test_power(p_win=0.5, n=10), "p_win = 0.5 means no difference"),
])
def test_existing_refusals_hold(call, match):
    with pytest.raises(InvalidInputError, match=match):
        call()
