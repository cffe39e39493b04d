"""Ranks of models on data sets (Demšar 2006, §3.2.2, Table 6)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from _demsar_tables import (AUC, AUC_PAPER_RANKING, PAPER_AVERAGE_RANKS, RANKS,
                            TIED_AVERAGE_RANKS)
from outperform._validation import InvalidInputError, TooFewError
from outperform.stats.ranks import average_ranks, rank_scores

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
