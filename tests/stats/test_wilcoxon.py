"""Wilcoxon signed-rank test: Demšar (2006) §3.1.3, Lacoste et al. (2012) §6.2, R, scipy."""
from functools import lru_cache
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import wilcoxon

# Demšar (2006) Table 2: AUC of C4.5 (m = 0) and C4.5+m (m tuned) on 14 UCI data sets.
C45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1.000, .940, .619, .972, .957]
C45M = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1.000, .962, .666, .981, .978]
# The "difference" column of Table 2, as printed.
TABLE2_DIFF = [.005, -.008, .017, .033, .006, -.005, .007, 0, .063, 0, .022, .047, .009, .021]

# Classic table of exact critical values of T (two-tailed alpha = 0.05): reject when
# T <= value. Demšar §3.1.3 quotes the N = 14 entry, 21; the others are the standard table
# (e.g. Sheskin 2000, which Demšar cites).
CRITICAL_T_005 = {6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 11: 10, 12: 13, 13: 17, 14: 21, 15: 25,
                  16: 29, 17: 34, 18: 40, 19: 46, 20: 52, 21: 58, 22: 65, 23: 73, 24: 81, 25: 89}

# R's sleep data (Student 1908), extra hours of sleep with drug 1 and drug 2.
SLEEP_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def test_demsar_table2_rank_sums():
    # "R+ = 3.5 + 9 + 12 + 5 + 6 + 14 + 11 + 13 + 8 + 10 + 1.5 = 93 ... R- = 7 + 3.5 + 1.5 = 12"
    for a, b in [(C45M, C45), (TABLE2_DIFF, np.zeros(14))]:
        res = wilcoxon(a, b)
        assert (res.details["R_plus"], res.details["R_minus"]) == (93, 12)
        assert res.statistic == 12
        assert res.details["n"] == 14 and res.details["n_zero"] == 2
        assert res.details["zeros_dropped"] == 0


def test_demsar_table2_is_significant():
    # T = 12 <= 21, the critical value for N = 14 at alpha = 0.05: reject, with either method.
    assert wilcoxon(C45M, C45).pvalue < 0.05
    assert wilcoxon(C45M, C45, method="normal").pvalue < 0.05


def test_demsar_z():
    # Demšar's z = (T - N(N+1)/4) / sqrt(N(N+1)(2N+1)/24) = -2.5424; with the tie correction
    # for the two zeros and the two 0.005s: variance 253.75 - (6 + 6) / 48.
    res = wilcoxon(C45M, C45, method="normal")
    assert -abs(res.details["z"]) == pytest.approx((12 - 52.5) / np.sqrt(253.75), abs=2e-3)
    assert res.details["z"] == pytest.approx(40.5 / np.sqrt(253.75 - 12 / 48), rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(res.details["z"]))


def enumerated_pvalue(d, r_plus, alternative):
    """p-value of R+ by enumerating all sign patterns of the nonzero |d|'s midranks."""
    ranks = stats.rankdata(np.abs(d))[d != 0]
    signs = np.array(list(product((0, 1), repeat=ranks.size)))
    null = signs @ ranks + (r_plus - ranks[d[d != 0] > 0].sum())
    lower, upper = np.mean(null <= r_plus + 1e-9), np.mean(null >= r_plus - 1e-9)
    return {"less": lower, "greater": upper, "two-sided": min(1, 2 * min(lower, upper))}[
        alternative]


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_demsar_exact_p_is_the_permutation_distribution(alternative):
    # 2^12 sign patterns of the midranks of the 12 nonzero differences (zeros split).
    res = wilcoxon(C45M, C45, method="exact", alternative=alternative)
    want = enumerated_pvalue(np.array(TABLE2_DIFF), 93, alternative)
    assert res.pvalue == pytest.approx(want, rel=1e-10)
    assert "conditional on ties" in res.method


def signed_ranks_with_rminus(n, t):
    """Differences +-1..+-n whose negative ranks sum to t (no ties, no zeros)."""
    d, rest = np.arange(1.0, n + 1), t
    for r in range(n, 0, -1):
        if r <= rest:
            d[r - 1], rest = -r, rest - r
    assert rest == 0
    return d


@pytest.mark.parametrize("n, t", CRITICAL_T_005.items())
def test_critical_values_of_t(n, t):
    zero = np.zeros(n)
    at = wilcoxon(signed_ranks_with_rminus(n, t), zero)
    above = wilcoxon(signed_ranks_with_rminus(n, t + 1), zero)
    assert at.statistic == t and at.method.endswith("(exact, zeros: demsar)")
    assert at.pvalue <= 0.05 < above.pvalue


def test_r_sleep_data():
    # R 4.x: with(sleep, wilcox.test(extra[group == 1], extra[group == 2], paired = TRUE))
    # -> V = 0, p-value = 0.009091 (zeros dropped, normal approximation with continuity
    # correction because of the zero and the ties).
    res = wilcoxon(SLEEP_1, SLEEP_2, zero_method="wilcox", correction=True, method="normal")
    assert res.details["R_plus"] == 0
    assert res.pvalue == pytest.approx(0.009091, abs=5e-7)
    assert res.effect_size == -1


@lru_cache(maxsize=None)
def lacoste_w(n, c):
    """Lacoste et al. (2012) §6.2 recursion for the null distribution of c+.

    The paper starts from w_1(c) = 1 on {0, 1}, which makes w_n twice a probability (and its
    two-sided p-value twice too large); starting from w_0(0) = 1 gives the probabilities.
    """
    if c < 0 or c > n * (n + 1) // 2:
        return 0.0
    if n == 0:
        return 1.0
    return (lacoste_w(n - 1, c) + lacoste_w(n - 1, c - n)) / 2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 1000), min_size=2, max_size=20, unique=True),
       st.lists(st.booleans(), min_size=20, max_size=20))
def test_exact_p_matches_lacoste_recursion(magnitudes, signs):
    d = np.array(magnitudes, float) * np.where(signs[:len(magnitudes)], 1, -1)
    res = wilcoxon(d, np.zeros(d.size), method="exact")
    n, t = d.size, int(res.statistic)
    rho = 2 * sum(lacoste_w(n, c) for c in range(t + 1))
    assert res.pvalue == pytest.approx(min(rho, 1.0), rel=1e-9)


def test_demsar_zero_method_drops_one_of_an_odd_number_of_zeros():
    d = np.array([0, 0, 0, 1.5, -2, 3, 4, -0.5, 6, 7])
    res = wilcoxon(d, np.zeros(10))
    ref = wilcoxon(d[1:], np.zeros(9), zero_method="zsplit")
    assert res.details["zeros_dropped"] == 1 and res.details["n"] == 9
    assert (res.statistic, res.pvalue) == (ref.statistic, ref.pvalue)
    # two zeros keep ranks 1 and 2 (1.5 to each side); -0.5 and -2 get ranks 3 and 5
    assert res.details["R_minus"] == 1.5 + 3 + 5
    # scipy's zsplit keeps all three zeros (ranks 1..3, 3 to each side)
    zsplit = wilcoxon(d, np.zeros(10), zero_method="zsplit")
    assert zsplit.details["R_minus"] == 3 + 4 + 6
    even = np.delete(d, 0)
    assert wilcoxon(even, np.zeros(9)).details == {
        **wilcoxon(even, np.zeros(9), zero_method="zsplit").details, "zero_method": "demsar"}


METHODS = {"normal": "asymptotic", "exact": "exact"}
paired_ints = st.integers(2, 40).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-6, 6), min_size=n, max_size=n),
    st.lists(st.integers(-6, 6), min_size=n, max_size=n)))
alternatives = st.sampled_from(["two-sided", "greater", "less"])


@settings(max_examples=80, deadline=None)
@given(paired_ints, st.sampled_from(["wilcox", "pratt", "zsplit"]), st.booleans(), alternatives)
def test_normal_matches_scipy_with_ties_and_zeros(data, zero_method, correction, alternative):
    a, b = map(np.array, data)
    if np.all(a == b):
        return
    res = wilcoxon(a, b, zero_method=zero_method, correction=correction, method="normal",
                   alternative=alternative)
    ref = stats.wilcoxon(a, b, zero_method=zero_method, correction=correction,
                         method="asymptotic", alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, abs=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-15)
    assert abs(res.details["z"]) == pytest.approx(abs(ref.zstatistic), rel=1e-9)


distinct_floats = st.lists(st.floats(0.01, 100, allow_nan=False), min_size=2, max_size=45,
                           unique=True)


@settings(max_examples=60, deadline=None)
@given(distinct_floats, st.data(), alternatives, st.sampled_from(["exact", "auto"]))
def test_exact_matches_scipy_without_ties(magnitudes, data, alternative, method):
    signs = data.draw(st.lists(st.booleans(), min_size=len(magnitudes),
                               max_size=len(magnitudes)))
    d = np.array(magnitudes) * np.where(signs, 1, -1)
    b = data.draw(st.lists(st.integers(-3, 3), min_size=d.size, max_size=d.size))
    a = d + np.array(b, float)
    if np.unique(np.abs(a - b)).size < d.size:  # rounding made a tie
        return
    # Hypothesis likes neighbouring floats (0.01, 0.010000000000000002), which our default
    # ties and scipy does not: compare exactly, as scipy.
    res = wilcoxon(a, b, method=method, alternative=alternative, tie_tolerance=0)
    ref = stats.wilcoxon(a, b, method=method, alternative=alternative)
    assert res.method.endswith("(exact, zeros: demsar)")
    assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 8).flatmap(lambda n: st.lists(st.integers(-4, 4), min_size=n,
                                                    max_size=n)),
       st.sampled_from(["wilcox", "pratt", "zsplit"]), alternatives)
def test_exact_with_ties_matches_scipy_permutation(d, zero_method, alternative):
    d = np.array(d, float)
    if np.all(d == 0):
        return
    res = wilcoxon(d, np.zeros(d.size), zero_method=zero_method, method="exact",
                   alternative=alternative)
    ref = stats.wilcoxon(d, zero_method=zero_method, alternative=alternative,
                         method=stats.PermutationMethod(n_resamples=np.inf))
    assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue), rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 11).flatmap(lambda n: st.lists(st.integers(-4, 4), min_size=n,
                                                     max_size=n)), alternatives)
def test_exact_demsar_matches_enumeration(d, alternative):
    d = np.array(d, float)
    if np.all(d == 0):
        return
    res = wilcoxon(d, np.zeros(d.size), method="exact", alternative=alternative)
    kept = np.delete(d, np.flatnonzero(d == 0)[:1]) if np.sum(d == 0) % 2 else d
    assert res.details["n"] == kept.size
    want = enumerated_pvalue(kept, res.details["R_plus"], alternative)
    assert res.pvalue == pytest.approx(want, rel=1e-9)


def test_auto_switches_to_normal_above_50():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=51), rng.normal(size=51)
    res = wilcoxon(a, b)
    assert res.details["method"] == "normal"
    assert res.pvalue == pytest.approx(stats.wilcoxon(a, b).pvalue, rel=1e-12)
    assert wilcoxon(a[:50], b[:50]).details["method"] == "exact"


def test_exact_size_at_most_alpha():
    # All 2^10 equally likely sign patterns under H0: the exact test rejects at most 5%.
    ranks = np.arange(1.0, 11)
    pvalues = [wilcoxon(ranks * s, np.zeros(10)).pvalue
               for s in product((1, -1), repeat=10)]
    size = np.mean(np.array(pvalues) <= 0.05)
    assert 0.03 < size <= 0.05


MIRROR = {"two-sided": "two-sided", "greater": "less", "less": "greater"}
wilcoxon_options = st.fixed_dictionaries({
    "zero_method": st.sampled_from(["demsar", "wilcox", "pratt", "zsplit"]),
    "method": st.sampled_from(["exact", "normal"]),
    "correction": st.booleans()})


@settings(max_examples=60, deadline=None)
@given(paired_ints, wilcoxon_options, alternatives)
def test_swapping_a_and_b_mirrors(data, opts, alternative):
    a, b = map(np.array, data)
    if np.all(a == b):
        return
    ab = wilcoxon(a, b, alternative=alternative, **opts)
    ba = wilcoxon(b, a, alternative=MIRROR[alternative], **opts)
    assert (ab.details["R_plus"], ab.details["R_minus"]) == (ba.details["R_minus"],
                                                             ba.details["R_plus"])
    assert ab.pvalue == pytest.approx(ba.pvalue, rel=1e-9, abs=1e-15)
    assert ab.details["z"] == pytest.approx(-ba.details["z"])
    assert ab.effect_size == pytest.approx(-ba.effect_size)


@settings(max_examples=60, deadline=None)
@given(paired_ints, wilcoxon_options, alternatives, st.randoms(use_true_random=False))
def test_invariances(data, opts, alternative, rnd):
    """Order of the data sets, common increasing affine maps of a and b, odd increasing maps
    of the differences. (Not arbitrary increasing maps of a and b: see the next test.)"""
    a, b = map(np.array, data)
    if np.all(a == b):
        return
    ref = wilcoxon(a, b, alternative=alternative, **opts)
    order = list(range(a.size))
    rnd.shuffle(order)
    d = (a - b).astype(float)
    for x, y in [(a[order], b[order]), (4 * a + 3, 4 * b + 3), (d ** 3, np.zeros(d.size)),
                 (np.sinh(d), np.zeros(d.size))]:
        res = wilcoxon(x, y, alternative=alternative, **opts)
        assert (res.statistic, res.pvalue) == pytest.approx((ref.statistic, ref.pvalue),
                                                            rel=1e-9)


def test_not_invariant_to_monotone_transforms_of_the_scores():
    # Ranks of |a - b| change under a nonlinear increasing map of the scores; only the sign
    # test is invariant to those.
    a, b = np.array([1.0, 8.0, 3.0]), np.array([0.0, 10.0, 3.5])
    assert wilcoxon(a, b).details["R_plus"] == 2
    assert wilcoxon(np.log1p(a), np.log1p(b)).details["R_plus"] == 3


def test_rank_biserial_effect_size():
    res = wilcoxon(C45M, C45)
    assert res.effect_size == pytest.approx((93 - 12) / 105)
    assert res.effect_size_name == "matched-pairs rank-biserial correlation"
    assert wilcoxon([3, 4, 5], [1, 1, 1]).effect_size == 1
    with pytest.raises(NotImplementedError):
        res.confidence_interval()
    assert res.to_dict()["details"]["R_plus"] == 93


@pytest.mark.parametrize("a, b, error, message", [
    ([1, np.nan, 2], [1, 2, 3], InvalidInputError, "NaN"),
    ([1, 2, 3], [1, 2], InvalidInputError, "paired"),
    ([1], [0], TooFewError, "at least 2"),
    ([1, 2, 3], [1, 2, 3], DegenerateDataError, "all differences are zero"),
    ([[1, 2], [3, 4]], [[1, 2], [3, 4]], InvalidInputError, "1-dimensional"),
])
def test_bad_input(a, b, error, message):
    with pytest.raises(error, match=message):
        wilcoxon(a, b)


@pytest.mark.parametrize("kwargs, message", [
    ({"zero_method": "drop"}, "zero_method"), ({"method": "asymptotic"}, "method"),
    ({"alternative": "two-tailed"}, "alternative")])
def test_bad_options(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        wilcoxon([1, 2, 3], [0, 2, 4], **kwargs)
