"""Tango's score test for paired proportions and non-inferiority on a shared test set."""
import numpy as np
import pytest
from scipy import optimize

from outperform._validation import DegenerateDataError, InvalidInputError
from outperform.stats import mcnemar, noninferiority_test, tango_score_test


def test_tango_interval_against_the_published_cavo_example():
    # Cavo et al. (2012), complete response before/after consolidation therapy, the paired
    # table [[59, 6], [16, 80]] of Fagerland, Lydersen & Laake, "Statistical Analysis of
    # Contingency Tables" (2017), ch. 8; their R package contingencytables,
    # tests/testthat/test-ch8.R: Tango_asymptotic_score_CI_paired_2x2(cavo_2012) prints
    # "estimate = -0.0621 (95% CI -0.1240 to -0.0054)". Condition 1 = A: n12 = 6 = n10
    # (A right, B wrong), n21 = 16 = n01.
    res = tango_score_test(16, 6, 161)
    lo, hi = res.confidence_interval(0.95)
    assert round(res.estimate, 4) == -0.0621
    assert (round(lo, 4), round(hi, 4)) == (-0.1240, -0.0054)


def _numerical_restricted_mle(n01, n10, n, d):
    """Maximise the multinomial likelihood of (p00, p01, p10, p11) subject to p10 − p01 = d
    by brute numerical optimisation (no closed form), return p01."""
    n00 = n11 = (n - n01 - n10) / 2   # only the concordant total matters

    def nll(x):
        p01, p00 = x
        p10 = p01 + d
        p11 = 1 - p00 - p01 - p10
        if min(p01, p10, p00, p11) <= 0:
            return 1e12
        return -(n01 * np.log(p01) + n10 * np.log(p10) + n00 * np.log(p00) + n11 * np.log(p11))
    start = [max(n01 / n, 1e-3) + max(-d, 0), 0.3]
    best = optimize.minimize(nll, start, method="Nelder-Mead",
                             options={"xatol": 1e-12, "fatol": 1e-12, "maxiter": 20000})
    return best.x[0]


@pytest.mark.parametrize("n01,n10,n,d", [(16, 6, 161, -0.1), (5, 12, 80, 0.05),
                                          (3, 0, 40, -0.2), (20, 25, 200, 0.0)])
def test_closed_form_restricted_mle_is_the_maximum(n01, n10, n, d):
    q = tango_score_test(n01, n10, n, delta0=d).details["q_restricted"]
    assert q == pytest.approx(_numerical_restricted_mle(n01, n10, n, d), abs=1e-5)


@pytest.mark.parametrize("n01,n10", [(16, 6), (3, 9), (40, 41), (0, 5)])
def test_delta0_zero_is_mcnemar_without_correction(n01, n10):
    res = tango_score_test(n01, n10, 300)
    ref = mcnemar(n01, n10, method="chi2", correction=False)
    assert res.statistic ** 2 == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize("level", [0.9, 0.95, 0.975])
def test_noninferiority_pvalue_is_alpha_at_the_lower_confidence_bound(level):
    # Test/interval duality: margin = −(one-sided lower bound at 1 − α) gives p = α.
    res = noninferiority_test(16, 6, 161, margin=0.1)
    lo, hi = res.confidence_interval(level)
    assert hi == 1.0
    assert noninferiority_test(16, 6, 161, margin=-lo).pvalue == pytest.approx(1 - level,
                                                                               abs=1e-9)


def test_noninferiority_direction_and_level_by_simulation():
    # Under H0 on the boundary (δ = −margin) the one-sided test keeps its level roughly.
    rng = np.random.default_rng(0)
    n, m = 400, 0.05
    probs = [0.7, 0.05 + m, 0.05, 0.2]          # p11, p01, p10, p00: δ = p10 − p01 = −m
    counts = rng.multinomial(n, probs, size=4000)
    p = np.array([noninferiority_test(c[1], c[2], n, margin=m).pvalue for c in counts])
    assert 0.03 < np.mean(p < 0.05) < 0.07
    # A far better than B: non-inferior.
    assert noninferiority_test(2, 30, 400, margin=0.01).pvalue < 1e-6


def test_bad_inputs():
    with pytest.raises(InvalidInputError, match="margin"):
        noninferiority_test(3, 4, 50, margin=0)
    with pytest.raises(InvalidInputError, match="margin"):
        noninferiority_test(3, 4, 50, margin=1.5)
    with pytest.raises(InvalidInputError, match="n = 5"):
        noninferiority_test(3, 4, 5, margin=0.1)
    with pytest.raises(DegenerateDataError):
        tango_score_test(0, 0, 50)
    # No discordance but a margin: defined (the models are identical, so non-inferior).
    assert noninferiority_test(0, 0, 400, margin=0.02).pvalue < 0.05


def _predictions(n01, n10, n_both_right, n_both_wrong):
    """A per-example table with the given joint outcomes of models A and B."""
    import pandas as pd
    right_a = [0] * n01 + [1] * n10 + [1] * n_both_right + [0] * n_both_wrong
    right_b = [1] * n01 + [0] * n10 + [1] * n_both_right + [0] * n_both_wrong
    y = np.arange(len(right_a)) % 2
    return pd.DataFrame({"y_true": y, "A": np.where(right_a, y, 1 - y),
                         "B": np.where(right_b, y, 1 - y)})


def test_compare_predictions_reports_tango_noninferiority():
    from outperform.compare import compare_predictions
    df = _predictions(16, 6, 59, 80)     # the Cavo et al. (2012) table, A = condition 1
    rep = compare_predictions(df, noninferiority_margin=0.124)
    res = rep.tests["noninferiority"]
    ref = noninferiority_test(16, 6, 161, margin=0.124)
    assert (res.statistic, res.pvalue) == (ref.statistic, ref.pvalue)
    assert any("A is non-inferior to B within 0.124" in c for c in rep.conclusions)
    # With B as the control, A is the new model too; with A as the control, B is, and the
    # counts swap (B is better: non-inferior within one point).
    assert compare_predictions(df, control="B", noninferiority_margin=0.124
                               ).tests["noninferiority"].pvalue == ref.pvalue
    rep = compare_predictions(df, control="A", noninferiority_margin=0.01)
    assert rep.tests["noninferiority"].pvalue == noninferiority_test(6, 16, 161,
                                                                     margin=0.01).pvalue
    assert any("B is non-inferior to A" in c for c in rep.conclusions)


def test_compare_predictions_refuses_a_margin_it_cannot_use():
    from outperform.compare import compare_predictions
    df = _predictions(16, 6, 59, 80)
    df["C"] = df["A"]
    with pytest.raises(InvalidInputError, match="exactly 2 models"):
        compare_predictions(df, noninferiority_margin=0.05)
