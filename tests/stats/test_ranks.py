"""Ranks of models on data sets (Demšar 2006, §3.2.2, Table 6)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import rankdata

from _demsar_tables import (AUC, AUC_PAPER_RANKING, PAPER_AVERAGE_RANKS, RANKS,
                            TIED_AVERAGE_RANKS)
from outperform._validation import InvalidInputError, TooFewError
from outperform.stats._ranks import (RELATIVE_TIE_TOLERANCE, average_ranks, paired_tie_tolerance,
                                    rank_scores, rank_with_tolerance)

# Scores with many ties (a few distinct values), shapes N x k with N >= 1, k >= 2.
score_matrices = st.tuples(st.integers(1, 12), st.integers(2, 7)).flatmap(
    lambda shape: arrays(float, shape, elements=st.integers(0, 4).map(float)))


def test_demsar_table6_printed_ranks():
    # The paper ranks unrounded AUCs; breaking voting's printed tie the same way gives
    # exactly the ranks printed in parentheses.
    np.testing.assert_array_equal(rank_scores(AUC_PAPER_RANKING), RANKS)
    np.testing.assert_allclose(average_ranks(AUC_PAPER_RANKING), PAPER_AVERAGE_RANKS, atol=5e-4)


def test_demsar_table6_printed_values_tie_on_voting():
    voting = rank_scores(AUC)[12]
    np.testing.assert_array_equal(voting, [4, 1, 2.5, 2.5])
    np.testing.assert_allclose(average_ranks(AUC), TIED_AVERAGE_RANKS, atol=5e-4)


def test_ties_get_average_ranks():
    np.testing.assert_array_equal(rank_scores([[3, 1, 3, 3]]), [[2, 4, 2, 2]])
    np.testing.assert_array_equal(rank_scores([[5, 5]]), [[1.5, 1.5]])


def test_lower_is_better():
    errors = [[0.10, 0.30, 0.20]]
    np.testing.assert_array_equal(rank_scores(errors, higher_is_better=False), [[1, 3, 2]])


@settings(max_examples=40, deadline=None)
@given(score_matrices)
def test_rows_sum_to_triangular_number(scores):
    k = scores.shape[1]
    np.testing.assert_allclose(rank_scores(scores).sum(axis=1), k * (k + 1) / 2)
    assert np.all((rank_scores(scores) >= 1) & (rank_scores(scores) <= k))


@settings(max_examples=40, deadline=None)
@given(score_matrices, st.randoms(use_true_random=False))
def test_permuting_models_permutes_ranks(scores, rnd):
    perm = np.array(rnd.sample(range(scores.shape[1]), scores.shape[1]))
    np.testing.assert_array_equal(rank_scores(scores[:, perm]), rank_scores(scores)[:, perm])


@settings(max_examples=40, deadline=None)
@given(score_matrices, st.randoms(use_true_random=False))
def test_reordering_data_sets_keeps_average_ranks(scores, rnd):
    perm = np.array(rnd.sample(range(scores.shape[0]), scores.shape[0]))
    np.testing.assert_allclose(average_ranks(scores[perm]), average_ranks(scores))


@settings(max_examples=40, deadline=None)
@given(score_matrices)
def test_invariant_under_increasing_transforms_and_sign_flip(scores):
    ranks = rank_scores(scores)
    np.testing.assert_array_equal(rank_scores(np.exp(scores) + scores ** 3), ranks)
    np.testing.assert_array_equal(rank_scores(-scores, higher_is_better=False), ranks)
    # Reversing the direction reverses the ranks: r -> k + 1 - r.
    k = scores.shape[1]
    np.testing.assert_array_equal(rank_scores(scores, higher_is_better=False), k + 1 - ranks)


def test_bad_input():
    with pytest.raises(InvalidInputError, match="NaN"):
        rank_scores([[0.5, np.nan]])
    with pytest.raises(InvalidInputError, match="2-dimensional"):
        rank_scores([0.5, 0.6])
    with pytest.raises(TooFewError, match="model"):
        average_ranks([[0.5], [0.6]])
    with pytest.raises(InvalidInputError, match="numeric"):
        rank_scores([["a", "b"]])


# --- rank_with_tolerance and paired_tie_tolerance -------------------------------------------

def test_rank_with_tolerance_ties_rounding_errors():
    values = np.array([0.3 - 0.1, 0.4 - 0.2, 0.1, 0.7 - 0.2, 0.9 - 0.4])
    assert values[0] != values[1] and values[3] != values[4]
    np.testing.assert_array_equal(rank_with_tolerance(values, atol=1e-12),
                                  [2.5, 2.5, 1, 4.5, 4.5])
    np.testing.assert_array_equal(rank_with_tolerance(values), rankdata(values))


def test_rank_with_tolerance_does_not_merge_a_chain():
    # Each value is within atol of the next, but the chain spans more than atol: these are
    # genuinely different values, compared exactly (not one ever-growing tie group).
    tol = 2.0 ** -10  # dyadic, so that the chain is exact in floating point
    chain = 0.5 + tol * np.array([0, 0.5, 1, 1.5, 2, 2.5])
    np.testing.assert_array_equal(rank_with_tolerance(chain, atol=tol), np.arange(1, 7))
    # A group no wider than atol is one tie; near-ties outside the chain still merge.
    np.testing.assert_array_equal(rank_with_tolerance(chain[:3], atol=tol), [2, 2, 2])
    values = np.r_[0.0, 1e-17, chain]
    np.testing.assert_array_equal(rank_with_tolerance(values, atol=tol),
                                  np.r_[1.5, 1.5, np.arange(3, 9)])


def test_rank_with_tolerance_per_value_tolerance():
    # A gap uses the larger tolerance of its two ends.
    np.testing.assert_array_equal(rank_with_tolerance([1.0, 1.05, 2.0], atol=[0, 0.1, 0]),
                                  [1.5, 1.5, 3])
    np.testing.assert_array_equal(rank_with_tolerance([1.0, 1.05, 2.0], atol=[0, 0.01, 0.1]),
                                  [1, 2, 3])
    assert rank_with_tolerance(np.array([]), atol=0.1).shape == (0,)


near_ties = st.lists(st.tuples(st.integers(0, 6), st.integers(-3, 3)), min_size=1,
                     max_size=30).map(lambda pairs: np.array([i + 1e-4 * j for i, j in pairs]))


@settings(max_examples=80, deadline=None)
@given(near_ties, st.sampled_from([0.0, 5e-5, 1e-4, 3e-4, 0.5, 1.5]))
def test_rank_with_tolerance_properties(values, atol):
    ranks = rank_with_tolerance(values, atol=atol)
    m = values.size
    np.testing.assert_allclose(ranks.sum(), m * (m + 1) / 2)
    # Symmetric: negating the values reverses the ranks.
    np.testing.assert_array_equal(rank_with_tolerance(-values, atol=atol), m + 1 - ranks)
    # Monotone: a smaller value never gets a larger rank; equal values share a rank.
    order = np.argsort(values, kind="stable")
    assert np.all(np.diff(ranks[order]) >= 0)
    for r in np.unique(ranks):
        group = values[ranks == r]
        # Tie groups are bounded: no wider than atol (no unbounded chains).
        assert group.max() - group.min() <= atol
    # Values farther apart than atol never tie; with atol = 0 it is scipy's rankdata.
    far = np.abs(values[:, None] - values[None, :]) > atol
    assert np.all(ranks[:, None] != ranks[None, :], where=far)
    if atol == 0:
        np.testing.assert_array_equal(ranks, rankdata(values))


def test_paired_tie_tolerance():
    x, y = np.array([0.3, -200.0, 0.0]), np.array([0.1 + 0.2, 100.0, 0.0])
    np.testing.assert_allclose(paired_tie_tolerance(x, y),
                               RELATIVE_TIE_TOLERANCE * np.array([0.3 + 1e-16, 200, 0]))
    assert abs(x[0] - y[0]) <= paired_tie_tolerance(x, y)[0]
    np.testing.assert_array_equal(paired_tie_tolerance(x, y, 0), [0, 0, 0])
    np.testing.assert_array_equal(paired_tie_tolerance(x, y, 0.5), [0.5, 0.5, 0.5])
    for bad in (-1.0, np.nan, np.inf, "1e-9", True):
        with pytest.raises(InvalidInputError, match="tie_tolerance"):
            paired_tie_tolerance(x, y, bad)


def test_ranked_scores_equal_scipy_rankdata():
    # ranked_scores ranks with its own sort; the ranks must be scipy's, bit for bit.
    from outperform.stats._ranks import ranked_scores

    rng = np.random.default_rng(3)
    for n, k, decimals in [(1, 2, 0), (7, 3, 1), (50, 12, 1), (200, 30, 2), (40, 200, 3),
                           (30, 17, 8)]:
        x = np.round(rng.normal(size=(n, k)), decimals)
        x[0, :2] = 0.0, -0.0   # zeros of both signs tie
        for hib in (True, False):
            got = ranked_scores(x, higher_is_better=hib).ranks
            assert np.array_equal(got, rankdata(-x if hib else x, axis=1))
