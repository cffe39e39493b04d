"""Sign test: Demšar (2006) §3.1.4 and Table 3, Lacoste et al. (2012) §6.1, properties."""
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import sign_test

# Demšar (2006) Table 2: AUC of C4.5 (m = 0) and C4.5+m (m tuned) on 14 UCI data sets.
C45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1.000, .940, .619, .972, .957]
C45M = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1.000, .962, .666, .981, .978]

# Demšar (2006) Table 3: minimal number of wins w_alpha for N = 5..25 data sets.
TABLE3_N = range(5, 26)
TABLE3_W05 = [5, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 15, 15, 16, 17, 18, 18]
TABLE3_W10 = [5, 6, 6, 7, 7, 8, 9, 9, 10, 10, 11, 12, 12, 13, 13, 14, 14, 15, 16, 16, 17]


def wins_losses(wins, losses, ties=0):
    """Paired scores with the given counts of wins, losses and ties of A."""
    a = np.r_[np.ones(wins), np.zeros(losses), np.full(ties, 0.5)]
    b = np.r_[np.zeros(wins), np.ones(losses), np.full(ties, 0.5)]
    return a, b


def min_wins_rejecting(n, alpha, **kwargs):
    for w in range((n + 1) // 2, n + 1):
        if sign_test(*wins_losses(w, n - w), method="exact", **kwargs).pvalue <= alpha:
            return w
    return None


def test_demsar_table2_example_counts():
    # "C4.5+m was better on 11 out of 14 data sets (counting also one of the two data sets
    # on which the two classifiers were tied)".
    res = sign_test(C45M, C45)
    assert res.statistic == 11
    assert res.details == {"wins": 10, "losses": 2, "ties": 2, "ties_credited": 1, "n": 14,
                           "ties_handling": "split", "tie_tolerance": None}
    assert res.estimate == pytest.approx(11 / 14)
    assert res.effect_size == pytest.approx(11 / 14 - 0.5)


def test_demsar_table2_example_significance():
    # Demšar: "significant with p < 0.05". True with his normal approximation (11 >= 14/2 +
    # 1.96 sqrt(14)/2 = 10.67) and one-sided, not with the exact two-sided binomial test.
    normal = sign_test(C45M, C45, method="normal")
    assert normal.details["z"] == pytest.approx(4 / (np.sqrt(14) / 2))
    assert normal.pvalue == pytest.approx(2 * stats.norm.sf(4 / (np.sqrt(14) / 2)))
    assert normal.pvalue < 0.05
    # P(X >= 11 | n = 14) = (C(14,11) + C(14,12) + C(14,13) + C(14,14)) / 2^14 = 470 / 16384
    assert sign_test(C45M, C45, alternative="greater").pvalue == pytest.approx(470 / 16384)
    assert sign_test(C45M, C45).pvalue == pytest.approx(940 / 16384)
    assert sign_test(C45M, C45).pvalue > 0.05


@pytest.mark.parametrize("n, w", list(zip(TABLE3_N, TABLE3_W10)))
def test_demsar_table3_alpha_010_is_the_one_sided_exact_test(n, w):
    assert min_wins_rejecting(n, 0.10, alternative="greater") == w


@pytest.mark.parametrize("n, w", [(n, w) for n, w in zip(TABLE3_N, TABLE3_W05)
                                  if n not in (23, 24)])
def test_demsar_table3_alpha_005_is_the_one_sided_exact_test(n, w):
    assert min_wins_rejecting(n, 0.05, alternative="greater") == w


def test_demsar_table3_alpha_005_rows_23_24_are_two_sided():
    # Table 3 prints 17 and 18 for N = 23 and 24; the one-sided test rejects with 16 and 17
    # (P(X >= 16 | 23) = 0.0466, P(X >= 17 | 24) = 0.0320), the two-sided test needs 17 and 18.
    assert [min_wins_rejecting(n, 0.05, alternative="greater") for n in (23, 24)] == [16, 17]
    assert [min_wins_rejecting(n, 0.05) for n in (23, 24)] == [17, 18]
    assert stats.binom.sf(15, 23, 0.5) == pytest.approx(0.0466, abs=1e-4)


def test_demsar_normal_rule_of_thumb():
    # Significant (two-sided, p < 0.05) iff wins >= N/2 + 1.96 sqrt(N)/2 (Demšar §3.1.4).
    z = stats.norm.ppf(0.975)
    for n in (10, 25, 60, 101):
        for w in range(n // 2, n + 1):
            p = sign_test(*wins_losses(w, n - w), method="normal").pvalue
            assert (p < 0.05) == (w > n / 2 + z * np.sqrt(n) / 2)


@pytest.mark.parametrize("kplus, kminus", [(9, 3), (3, 9), (5, 5), (0, 7), (12, 1), (20, 11)])
def test_ties_dropped_matches_lacoste_formula(kplus, kminus):
    # Lacoste et al. (2012) §6.1: rho_s = 2 sum_{i=0}^{min} C(n, i) / 2^n, ties ignored.
    n = kplus + kminus
    rho = 2 * sum(comb(n, i) for i in range(min(kplus, kminus) + 1)) / 2 ** n
    res = sign_test(*wins_losses(kplus, kminus, ties=4), ties="drop")
    assert res.pvalue == pytest.approx(min(rho, 1.0), rel=1e-12)
    assert (res.statistic, res.details["n"], res.details["ties_credited"]) == (kplus, n, 0)


def test_odd_number_of_ties_ignores_one():
    res = sign_test(*wins_losses(6, 2, ties=3))
    assert (res.statistic, res.details["n"], res.details["ties_credited"]) == (7, 10, 1)
    assert res.pvalue == pytest.approx(stats.binomtest(7, 10).pvalue)


def test_auto_is_exact_and_normal_is_close_for_large_n():
    a, b = wins_losses(230, 170, ties=20)
    assert sign_test(a, b).pvalue == sign_test(a, b, method="exact").pvalue
    assert "exact" in sign_test(a, b).method
    assert sign_test(a, b, method="normal").pvalue == pytest.approx(
        sign_test(a, b).pvalue, abs=1e-3)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_clopper_pearson_interval(alternative):
    res = sign_test(*wins_losses(11, 3), alternative=alternative)
    lo, hi = res.confidence_interval(0.9)
    k, n = 11, 14
    tail = 0.05 if alternative == "two-sided" else 0.1
    want_lo = stats.beta.ppf(tail, k, n - k + 1) if alternative != "less" else 0.0
    want_hi = stats.beta.ppf(1 - tail, k + 1, n - k) if alternative != "greater" else 1.0
    assert (lo, hi) == pytest.approx((want_lo, want_hi))


@pytest.mark.parametrize("n", [6, 14, 25, 40])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_exact_size_at_most_alpha(n, alternative):
    # Type I error of the exact test, computed exactly over all outcomes under H0.
    pmf = stats.binom.pmf(np.arange(n + 1), n, 0.5)
    reject = [sign_test(*wins_losses(w, n - w), alternative=alternative).pvalue <= 0.05
              for w in range(n + 1)]
    assert 0 < pmf[reject].sum() <= 0.05


paired_ints = st.integers(2, 30).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-20, 20), min_size=n, max_size=n),
    st.lists(st.integers(-20, 20), min_size=n, max_size=n)))
options = st.fixed_dictionaries({"ties": st.sampled_from(["split", "drop"]),
                                 "method": st.sampled_from(["exact", "normal"])})
MIRROR = {"two-sided": "two-sided", "greater": "less", "less": "greater"}


@settings(max_examples=60, deadline=None)
@given(paired_ints, options, st.sampled_from(["two-sided", "greater", "less"]))
def test_swapping_a_and_b_mirrors(data, opts, alternative):
    a, b = map(np.array, data)
    if np.all(a == b):
        return
    ab = sign_test(a, b, alternative=alternative, **opts)
    ba = sign_test(b, a, alternative=MIRROR[alternative], **opts)
    assert ab.statistic == ab.details["n"] - ba.statistic
    assert (ab.details["wins"], ab.details["losses"]) == (ba.details["losses"],
                                                          ba.details["wins"])
    assert ab.pvalue == pytest.approx(ba.pvalue, rel=1e-12)
    assert ab.effect_size == pytest.approx(-ba.effect_size)


@settings(max_examples=40, deadline=None)
@given(paired_ints, options, st.randoms(use_true_random=False))
def test_invariant_to_order_and_monotone_transforms(data, opts, rnd):
    a, b = map(np.array, data)
    if np.all(a == b):
        return
    ref = sign_test(a, b, **opts)
    order = list(range(a.size))
    rnd.shuffle(order)
    for x, y in [(a[order], b[order]), (a ** 3, b ** 3), (np.exp(a / 10), np.exp(b / 10)),
                 (2.5 * a - 7, 2.5 * b - 7)]:
        res = sign_test(x, y, **opts)
        assert (res.statistic, res.pvalue, res.details) == (ref.statistic, ref.pvalue,
                                                            ref.details)


def test_result_is_serialisable_and_unpacks():
    res = sign_test(C45M, C45)
    stat, p = res
    assert (stat, p) == (res.statistic, res.pvalue)
    assert res.to_dict()["details"]["wins"] == 10
    assert res.effect_size_name == "Cohen's g"


@pytest.mark.parametrize("a, b, error, message", [
    ([1, np.nan, 2], [1, 2, 3], InvalidInputError, "NaN"),
    ([1, 2, 3], [1, 2], InvalidInputError, "paired"),
    ([1], [0], TooFewError, "at least 2"),
    ([1, 2, 3], [1, 2, 3], DegenerateDataError, "ties"),
])
def test_bad_input(a, b, error, message):
    with pytest.raises(error, match=message):
        sign_test(a, b)


@pytest.mark.parametrize("kwargs, message", [
    ({"ties": "ignore"}, "ties"), ({"method": "binomial"}, "method"),
    ({"alternative": "bigger"}, "alternative")])
def test_bad_options(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        sign_test([1, 2, 3], [0, 2, 4], **kwargs)
