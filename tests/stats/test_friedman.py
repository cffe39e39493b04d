"""Friedman and Iman-Davenport tests: Demšar (2006) §3.2.2, R's friedman.test, scipy."""
from itertools import permutations, product
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from _demsar_tables import AUC, AUC_PAPER_RANKING, RANKS
from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import friedman, iman_davenport

# R's friedman.test help page: Hollander & Wolfe (1973) p. 140ff, times (s) of 22 players
# rounding first base with 3 methods (Round Out, Narrow Angle, Wide Angle).
# friedman.test(RoundingTimes) -> Friedman chi-squared = 11.143, df = 2, p-value = 0.003805
ROUNDING_TIMES = np.array([
    [5.40, 5.50, 5.55], [5.85, 5.70, 5.75], [5.20, 5.60, 5.50], [5.55, 5.50, 5.40],
    [5.90, 5.85, 5.70], [5.45, 5.55, 5.60], [5.40, 5.40, 5.35], [5.45, 5.50, 5.35],
    [5.25, 5.15, 5.00], [5.85, 5.80, 5.70], [5.25, 5.20, 5.10], [5.65, 5.55, 5.45],
    [5.60, 5.35, 5.45], [5.05, 5.00, 4.95], [5.50, 5.50, 5.40], [5.45, 5.55, 5.50],
    [5.55, 5.55, 5.35], [5.45, 5.50, 5.55], [5.50, 5.45, 5.25], [5.65, 5.60, 5.40],
    [5.70, 5.65, 5.55], [6.30, 6.30, 6.25],
])
# r-statistics.co "Friedman Test in R": hours of sleep of 12 patients under placebo, drug A,
# drug B. friedman.test(sleep_hours ~ treatment | patient) -> chi-squared = 20.167, df = 2,
# p-value = 4.177e-05
SLEEP = np.array([
    [5.2, 4.9, 6.0, 5.7, 4.8, 5.5, 6.1, 5.0, 5.4, 5.8, 5.1, 5.6],
    [6.1, 5.5, 6.3, 6.7, 5.9, 6.2, 6.0, 5.8, 6.0, 6.5, 5.9, 6.4],
    [6.8, 6.5, 7.0, 6.5, 6.4, 6.9, 6.8, 6.6, 7.2, 7.1, 6.3, 7.0],
]).T

# Integer scores (many ties), N in 2..15, k in 3..6.
tied_scores = st.tuples(st.integers(2, 15), st.integers(3, 6)).flatmap(
    lambda shape: arrays(float, shape, elements=st.integers(0, 3).map(float))).filter(
    lambda x: np.any(x != x[:, :1]))  # at least one data set where the models differ


def test_demsar_table6_paper_ranking():
    # §3.2.2: chi2_F = 9.28, F_F = 3.69 with 3 and 39 degrees of freedom; the critical
    # value of F(3, 39) at alpha = 0.05 is 2.85, "so we reject the null-hypothesis".
    for scores, hib in [(AUC_PAPER_RANKING, True), (RANKS, False)]:
        res = friedman(scores, higher_is_better=hib)
        assert round(res.statistic, 2) == 9.28 and res.df == 3
        np.testing.assert_allclose(res.details["average_ranks"],
                                   [3.143, 2.000, 2.893, 1.964], atol=5e-4)
        fd = iman_davenport(scores, higher_is_better=hib)
        assert round(fd.statistic, 2) == 3.69 and fd.df == (3, 39)
        assert round(stats.f.isf(0.05, 3, 39), 2) == 2.85 and fd.pvalue < 0.05
        assert fd.details["friedman_statistic"] == res.statistic
        assert res.details["iman_davenport_statistic"] == fd.statistic


def test_demsar_table6_printed_values():
    # NOTES.md: the printed AUCs tie on "voting", average ranks (3.143, 2.000, 2.929, 1.929)
    # and chi2_F = 9.857.
    res = friedman(AUC)
    assert round(res.statistic, 3) == 9.857
    np.testing.assert_allclose(res.details["average_ranks"],
                               [3.143, 2.000, 2.929, 1.929], atol=5e-4)


def test_r_friedman_test_examples():
    res = friedman(ROUNDING_TIMES, tie_correction=True)
    assert round(res.statistic, 3) == 11.143 and res.df == 2
    assert round(res.pvalue, 6) == 0.003805
    res = friedman(SLEEP, tie_correction=True)
    assert round(res.statistic, 3) == 20.167
    assert res.pvalue == pytest.approx(4.177e-05, abs=5e-9)
    # Demšar's uncorrected statistic is smaller when there are ties.
    assert friedman(ROUNDING_TIMES).statistic < 11.143


@settings(max_examples=50, deadline=None)
@given(tied_scores)
def test_tie_corrected_matches_scipy(scores):
    expected = stats.friedmanchisquare(*scores.T)
    res = friedman(scores, tie_correction=True)
    assert res.statistic == pytest.approx(expected.statistic, rel=1e-9, abs=1e-12)
    assert res.pvalue == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-15)


def test_without_ties_both_versions_agree_with_scipy():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(9, 5))
    a, b = friedman(scores), friedman(scores, tie_correction=True)
    assert a.statistic == pytest.approx(b.statistic)
    assert a.statistic == pytest.approx(stats.friedmanchisquare(*scores.T).statistic)


def test_iman_davenport_formula():
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(12, 4)) + [0, 0.3, 0.6, 0.9]
    chi2 = friedman(scores).statistic
    n, k = scores.shape
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    res = iman_davenport(scores)
    assert res.statistic == pytest.approx(f)
    assert res.pvalue == pytest.approx(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))


@settings(max_examples=40, deadline=None)
@given(tied_scores, st.randoms(use_true_random=False))
def test_invariances(scores, rnd):
    n, k = scores.shape
    base = friedman(scores)
    models = np.array(rnd.sample(range(k), k))
    rows = np.array(rnd.sample(range(n), n))
    permuted = friedman(scores[rows][:, models])
    assert permuted.statistic == pytest.approx(base.statistic)
    np.testing.assert_allclose(permuted.details["average_ranks"],
                               np.array(base.details["average_ranks"])[models])
    transformed = friedman(np.exp(scores) + 3 * scores)
    assert transformed.statistic == pytest.approx(base.statistic)
    flipped = friedman(-scores, higher_is_better=False)
    assert flipped.statistic == pytest.approx(base.statistic)
    np.testing.assert_allclose(flipped.details["average_ranks"], base.details["average_ranks"])
    assert 0 <= base.effect_size <= 1


def _brute_force_pvalue(ranks, statistic):
    """Exact permutation p-value: every row's ranks permuted independently (tiny cases)."""
    rows = [sorted(set(permutations(r))) for r in ranks]
    values = [iman_davenport(np.array(c), higher_is_better=False).statistic
              for c in product(*rows)]
    return np.mean(np.array(values) >= statistic)


def test_identical_rankings_exact_pvalue():
    # All N data sets rank the k models identically: F_F is infinite and the p-value is the
    # permutation probability (k!)^(1 - N) (Conover 1999, p. 374).
    ranks = np.array([[1, 2, 3]] * 3)
    res = iman_davenport(ranks, higher_is_better=False)
    assert res.statistic == np.inf and res.details["perfect_agreement"]
    assert res.pvalue == pytest.approx(factorial(3) ** -2)
    assert res.pvalue == pytest.approx(_brute_force_pvalue(ranks, np.inf))
    # With a tie pattern (1, 2.5, 2.5) there are 3 arrangements per data set: 3^-(N-1).
    tied = np.array([[1, 2.5, 2.5]] * 4)
    res = iman_davenport(tied, higher_is_better=False, tie_correction=True)
    assert res.statistic == np.inf and res.pvalue == pytest.approx(3.0 ** -3)


def test_exact_permutation_mean_of_tie_corrected_statistic():
    # Under the within-data-set permutation null, E[chi2] = k - 1 exactly for the
    # tie-corrected statistic (its denominator is the permutation variance).
    ranks = np.array([[1, 2.5, 2.5], [1, 2, 3], [2, 2, 2], [1.5, 1.5, 3]])
    rows = [sorted(set(permutations(r))) for r in ranks]
    values = [friedman(np.array(c), higher_is_better=False, tie_correction=True).statistic
              for c in product(*rows)]
    assert np.mean(values) == pytest.approx(2.0)


def test_type_one_error_under_the_null():
    rng = np.random.default_rng(3)
    sims = rng.normal(size=(800, 15, 4))
    p_f = np.array([friedman(s).pvalue for s in sims])
    p_id = np.array([iman_davenport(s).pvalue for s in sims])
    se = np.sqrt(0.05 * 0.95 / len(sims))
    assert np.mean(p_id <= 0.05) <= 0.05 + 3 * se
    assert np.mean(p_f <= 0.05) <= 0.05 + 3 * se
    # Iman & Davenport: chi2_F is conservative, F_F less so.
    assert np.mean(p_f <= 0.05) <= np.mean(p_id <= 0.05)


def test_details_and_small_sample_flag():
    res = friedman(np.random.default_rng(4).normal(size=(14, 4)))
    assert res.details["n_datasets"] == 14 and res.details["n_models"] == 4
    assert res.details["small_sample"]  # k = 4 <= 5
    assert not friedman(np.random.default_rng(4).normal(size=(11, 6))).details["small_sample"]
    assert res.effect_size_name == "Kendall's W"
    assert res.to_dict()["statistic"] == res.statistic
    statistic, pvalue = res
    assert (statistic, pvalue) == (res.statistic, res.pvalue)


def test_two_models_allowed():
    res = friedman([[1, 2], [1, 3], [4, 3]])
    assert res.df == 1 and np.isfinite(res.statistic)


def test_bad_input():
    with pytest.raises(TooFewError, match="data set"):
        friedman([[0.1, 0.2, 0.3]])
    with pytest.raises(TooFewError, match="model"):
        friedman([[0.1], [0.2]])
    with pytest.raises(InvalidInputError, match="NaN"):
        iman_davenport([[0.1, np.nan], [0.2, 0.3]])
    with pytest.raises(DegenerateDataError, match="ties all models"):
        friedman([[0.5, 0.5, 0.5], [0.7, 0.7, 0.7]])
    with pytest.raises(DegenerateDataError, match="ties all models"):
        iman_davenport([[0.5, 0.5], [0.7, 0.7]], tie_correction=True)
