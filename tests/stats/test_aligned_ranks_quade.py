"""Friedman aligned ranks test (García et al. 2010) and Quade's test (Quade 1979, R)."""
from itertools import permutations, product
from math import factorial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import friedman_aligned_ranks
from outperform.stats import quade

# R's quade.test help page, Conover (1999, p. 375f): numbers of five brands (A-E) of a new
# hand lotion sold in seven stores (rows) during one week.
# quade.test(y) -> Quade F = 3.8293, num df = 4, denom df = 24, p-value = 0.01519
HAND_LOTION = np.array([
    [5, 4, 7, 10, 12],
    [1, 3, 1, 0, 2],
    [16, 12, 22, 22, 35],
    [5, 4, 3, 5, 4],
    [10, 9, 7, 13, 10],
    [19, 18, 28, 37, 58],
    [10, 7, 6, 8, 7],
])

scores_2d = st.tuples(st.integers(2, 10), st.integers(2, 6)).flatmap(
    lambda shape: arrays(float, shape, elements=st.integers(0, 5).map(float))).filter(
    lambda x: np.any(x != x[:, :1]))


# ---------------------------------------------------------------- Friedman aligned ranks

def _garcia_statistic(scores):
    """García et al. (2010) formula written out with loops (no ties among aligned values)."""
    n, k = scores.shape
    aligned = [scores[i, j] - scores[i].mean() for i in range(n) for j in range(k)]
    order = sorted(range(n * k), key=lambda t: -aligned[t])
    rank = [0] * (n * k)
    for position, t in enumerate(order, start=1):
        rank[t] = position
    col = [sum(rank[i * k + j] for i in range(n)) for j in range(k)]
    row = [sum(rank[i * k + j] for j in range(k)) for i in range(n)]
    kn = k * n
    numerator = (k - 1) * (sum(c * c for c in col) - (kn * n / 4) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6 - sum(r * r for r in row) / k
    return numerator / denominator, [c / n for c in col]


def test_aligned_ranks_matches_garcia_formula_without_ties():
    rng = np.random.default_rng(10)
    for n, k in [(6, 3), (12, 5), (30, 4)]:
        scores = rng.normal(size=(n, k)) + np.linspace(0, 0.8, k)
        res = friedman_aligned_ranks(scores)
        stat, avg = _garcia_statistic(scores)
        assert res.statistic == pytest.approx(stat, rel=1e-12)
        assert res.pvalue == pytest.approx(stats.chi2.sf(stat, k - 1), rel=1e-10)
        np.testing.assert_allclose(res.details["average_aligned_ranks"], avg)
        assert res.df == k - 1


def test_aligned_ranks_exact_permutation_mean_with_ties():
    # Permuting a data set's scores permutes its aligned ranks; over all such permutations
    # the statistic has mean exactly k - 1 when its denominator is the permutation variance,
    # with ties too (García's no-ties denominator does not give this).
    scores = np.array([[0.5, 0.5, 0.9], [0.2, 0.6, 0.6], [0.7, 0.7, 0.7], [0.3, 0.1, 0.8]])
    rows = [sorted(set(permutations(r))) for r in scores]
    values = [friedman_aligned_ranks(np.array(c)).statistic for c in product(*rows)]
    assert np.mean(values) == pytest.approx(2.0)


@settings(max_examples=40, deadline=None)
@given(scores_2d, st.randoms(use_true_random=False))
def test_aligned_ranks_invariances(scores, rnd):
    n, k = scores.shape
    base = friedman_aligned_ranks(scores)
    models = np.array(rnd.sample(range(k), k))
    rows = np.array(rnd.sample(range(n), n))
    other = friedman_aligned_ranks(scores[rows][:, models])
    assert other.statistic == pytest.approx(base.statistic)
    np.testing.assert_allclose(other.details["average_aligned_ranks"],
                               np.array(base.details["average_aligned_ranks"])[models])
    # Alignment removes data-set effects: shifting a row changes nothing.
    shifted = scores + np.arange(n)[:, None] * 7.0
    assert friedman_aligned_ranks(shifted).statistic == pytest.approx(base.statistic)
    flipped = friedman_aligned_ranks(-scores, higher_is_better=False)
    assert flipped.statistic == pytest.approx(base.statistic)
    np.testing.assert_allclose(flipped.details["average_aligned_ranks"],
                               base.details["average_aligned_ranks"])
    # Reversing the direction mirrors the aligned ranks around (kN + 1) / 2.
    reversed_ = friedman_aligned_ranks(scores, higher_is_better=False)
    np.testing.assert_allclose(reversed_.details["average_aligned_ranks"],
                               n * k + 1 - np.array(base.details["average_aligned_ranks"]))
    assert reversed_.statistic == pytest.approx(base.statistic)


def test_rounding_errors_do_not_break_ties():
    # Integer scores give exact aligned values and ranges; divided by 100 they carry
    # rounding errors (0.86 - 0.8367 != 0.77 - 0.7467 in floating point) that must not
    # break the ties among them.
    counts = np.array([[81, 79, 75], [92, 90, 91], [70, 66, 64], [85, 86, 80], [77, 74, 73],
                       [60, 40, 50], [31, 11, 21]])
    for test in (friedman_aligned_ranks, quade):
        assert test(counts / 100).statistic == pytest.approx(test(counts).statistic, rel=1e-12)
    # Exact integer alignment: k * score - row total, ranked with scipy's midranks.
    n, k = counts.shape
    ranks = stats.rankdata(-(k * counts - counts.sum(axis=1, keepdims=True)).ravel())
    ranks = ranks.reshape(n, k)
    within = np.sum(ranks ** 2) - np.sum(ranks.sum(axis=1) ** 2) / k
    exact = (k - 1) * np.sum((ranks.sum(axis=0) - n * (k * n + 1) / 2) ** 2) / within
    assert friedman_aligned_ranks(counts / 100).statistic == pytest.approx(exact, rel=1e-12)


def test_aligned_ranks_type_one_error_and_power():
    rng = np.random.default_rng(11)
    null = rng.normal(size=(600, 15, 4)) + rng.normal(size=(600, 15, 1)) * 5
    rate = np.mean([friedman_aligned_ranks(s).pvalue <= 0.05 for s in null])
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 600)
    shifted = friedman_aligned_ranks(null[0] + [0, 0, 0, 2.0])
    assert shifted.pvalue < 1e-3
    assert np.argmin(shifted.details["average_aligned_ranks"]) == 3


def test_aligned_ranks_bad_input():
    with pytest.raises(DegenerateDataError, match="ties all models"):
        friedman_aligned_ranks([[0.5, 0.5], [0.7, 0.7]])
    with pytest.raises(TooFewError):
        friedman_aligned_ranks([[0.5, 0.6]])
    with pytest.raises(InvalidInputError, match="NaN"):
        friedman_aligned_ranks([[0.5, np.nan], [0.1, 0.2]])


# ------------------------------------------------------------------------------- Quade

def test_quade_r_help_example():
    res = quade(HAND_LOTION)
    assert round(res.statistic, 4) == 3.8293
    assert res.df == (4, 24)
    assert round(res.pvalue, 5) == 0.01519


def _quade_loops(scores):
    """Quade's F written out with loops, from Conover (1999) pp. 373-374."""
    n, k = scores.shape
    q = stats.rankdata([max(r) - min(r) for r in scores])
    s = [[q[i] * (stats.rankdata(scores[i])[j] - (k + 1) / 2) for j in range(k)]
         for i in range(n)]
    a = sum(v * v for row in s for v in row)
    b = sum(sum(s[i][j] for i in range(n)) ** 2 for j in range(k)) / n
    return (n - 1) * b / (a - b)


@settings(max_examples=40, deadline=None)
@given(scores_2d, st.randoms(use_true_random=False))
def test_quade_loops_and_invariances(scores, rnd):
    n, k = scores.shape
    res = quade(scores)
    if not res.details["perfect_agreement"]:
        assert res.statistic == pytest.approx(_quade_loops(scores), rel=1e-9)
    models = np.array(rnd.sample(range(k), k))
    rows = np.array(rnd.sample(range(n), n))
    assert quade(scores[rows][:, models]).statistic == pytest.approx(res.statistic)
    # Positive affine maps keep ranks and the ranks of the ranges.
    assert quade(2.5 * scores - 1).statistic == pytest.approx(res.statistic)
    assert quade(-scores, higher_is_better=False).statistic == pytest.approx(res.statistic)
    assert quade(scores, higher_is_better=False).statistic == pytest.approx(res.statistic)
    np.testing.assert_allclose(np.sum(res.details["quade_rankings"]), (k + 1) * k / 2)


def test_quade_perfect_agreement():
    # Equal ranges and identical rankings: A = B, and like R's quade.test the p-value is
    # (k!)^(1 - N) (Conover 1999, p. 374).
    scores = np.array([[3.0, 2.0, 1.0], [13.0, 12.0, 11.0], [7.0, 6.0, 5.0]])
    res = quade(scores)
    assert res.statistic == np.inf and res.details["perfect_agreement"]
    assert res.pvalue == pytest.approx(factorial(3) ** -2)
    np.testing.assert_allclose(res.details["quade_rankings"], [1, 2, 3])


def test_quade_type_one_error():
    rng = np.random.default_rng(12)
    null = rng.normal(size=(600, 15, 4))
    rate = np.mean([quade(s).pvalue <= 0.05 for s in null])
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 600)


def test_quade_bad_input():
    with pytest.raises(DegenerateDataError, match="ties all models"):
        quade([[1, 1, 1], [2, 2, 2]])
    with pytest.raises(TooFewError, match="model"):
        quade([[1], [2]])
    with pytest.raises(InvalidInputError, match="2-dimensional"):
        quade([1, 2, 3])
