"""Post-hoc tests after Friedman's test: Demšar (2006) §3.2.2 worked example, scipy, properties."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from _demsar_tables import AUC_PAPER_RANKING, NAMES, RANKS
from outperform._validation import InvalidInputError, TooFewError
from outperform.results import PairwiseResult
from outperform.stats import adjust_pvalues
from outperform.stats import (bonferroni_dunn, nemenyi, pairwise_wilcoxon,
                                      rank_posthoc)
from outperform.stats import wilcoxon

C45, M, CF, MCF = range(4)

score_tables = st.tuples(st.integers(2, 12), st.integers(2, 6)).flatmap(
    lambda shape: arrays(float, shape, elements=st.integers(0, 6).map(float)))


# ------------------------------------------------------------- Demšar's worked example

def test_demsar_rank_z_tests_against_control():
    # §3.2.2: SE = 0.488, z = (R0 - Ri) / SE = 2.416, 2.342, 0.512, p = 0.016, 0.019, 0.607
    # for C4.5+m+cf, C4.5+m, C4.5+cf against C4.5. The paper rounds the ranks (3.143 ...)
    # before dividing, hence the 2e-3 tolerance.
    res = rank_posthoc(AUC_PAPER_RANKING, control="C4.5", names=NAMES)
    np.testing.assert_allclose(res.statistic[[MCF, M, CF], C45], [2.416, 2.342, 0.512],
                               atol=2e-3)
    np.testing.assert_allclose(res.pvalue[[MCF, M, CF], C45], [0.016, 0.019, 0.607],
                               atol=2e-3)
    assert res.details["standard_error"] == pytest.approx(0.488, abs=5e-4)
    # Holm, Hochberg and Hommel reject C4.5+m+cf and C4.5+m, not C4.5+cf.
    for adjustment in ("holm", "hochberg", "hommel"):
        res = rank_posthoc(AUC_PAPER_RANKING, control=0, names=NAMES, adjustment=adjustment)
        assert res.reject[C45].tolist() == [False, True, False, True]
        assert res.reject[:, C45].tolist() == [False, True, False, True]
    assert res.control == "C4.5" and res.pairs() == [(0, 1), (0, 2), (0, 3)]
    assert np.isnan(res.pvalue[M, CF]) and not res.reject[M, CF]


def test_demsar_bonferroni_dunn():
    # CD = 2.394 * 0.488 (paper: 1.16): only C4.5+m+cf (1.179) is significantly better;
    # C4.5+m (1.143) is "just below the critical difference".
    res = bonferroni_dunn(AUC_PAPER_RANKING, control="C4.5", names=NAMES)
    assert res.critical_difference == pytest.approx(1.168, abs=1e-3)
    assert res.reject[C45].tolist() == [False, False, False, True]
    np.testing.assert_allclose(res.pvalue_adjusted[C45, 1:],
                               np.minimum(3 * res.pvalue[C45, 1:], 1))
    assert res.statistic[MCF, C45] > 0 > res.statistic[C45, MCF]


def test_demsar_nemenyi():
    # alpha = 0.05: CD = 1.25, no pair differs. alpha = 0.10: CD = 1.12, C4.5 is worse than
    # C4.5+m and C4.5+m+cf, and nothing else.
    res = nemenyi(AUC_PAPER_RANKING, names=NAMES)
    assert round(res.critical_difference, 2) == 1.25 and not res.reject.any()
    res = nemenyi(RANKS, alpha=0.10, names=NAMES, higher_is_better=False)
    assert round(res.critical_difference, 2) == 1.12
    rejected = {tuple(sorted((res.names[i], res.names[j]))) for i, j in res.pairs()
                if res.reject[i, j]}
    assert rejected == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}
    np.testing.assert_allclose(res.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)


# ------------------------------------------------------------------ Nemenyi p-values

def test_nemenyi_pvalues_match_scipy_studentized_range():
    rng = np.random.default_rng(20)
    scores = rng.normal(size=(25, 6)) + np.linspace(0, 1.2, 6)
    res = nemenyi(scores)
    k, n = 6, 25
    se = np.sqrt(k * (k + 1) / (6 * n))
    for i, j in res.pairs():
        q = abs(res.average_ranks[i] - res.average_ranks[j]) / se * np.sqrt(2)
        assert res.pvalue_adjusted[i, j] == pytest.approx(
            stats.studentized_range.sf(q, k, np.inf), rel=1e-6, abs=1e-12)
        assert res.pvalue[i, j] == pytest.approx(2 * stats.norm.sf(q / np.sqrt(2)))


@settings(max_examples=40, deadline=None)
@given(score_tables, st.sampled_from([0.01, 0.05, 0.1]))
def test_nemenyi_reject_iff_adjusted_p_below_alpha(scores, alpha):
    res = nemenyi(scores, alpha=alpha)
    for i, j in res.pairs():
        diff = abs(res.average_ranks[i] - res.average_ranks[j])
        assert res.reject[i, j] == (diff >= res.critical_difference)
        if abs(diff - res.critical_difference) > 1e-9:
            assert res.reject[i, j] == (res.pvalue_adjusted[i, j] <= alpha)


def test_nemenyi_family_wise_error_under_the_null():
    rng = np.random.default_rng(21)
    sims = rng.normal(size=(300, 20, 5))
    fwer = np.mean([nemenyi(s).reject.any() for s in sims])
    assert fwer <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 300)


# ------------------------------------------------------------------- matrix structure

@settings(max_examples=30, deadline=None)
@given(score_tables)
def test_matrix_structure(scores):
    k = scores.shape[1]
    for res in (nemenyi(scores), rank_posthoc(scores), rank_posthoc(scores, control=k - 1),
                bonferroni_dunn(scores, control=0)):
        assert isinstance(res, PairwiseResult) and res.statistic.shape == (k, k)
        assert res.reject.dtype == bool and not res.reject.diagonal().any()
        np.testing.assert_array_equal(res.reject, res.reject.T)
        np.testing.assert_allclose(res.statistic, -res.statistic.T, equal_nan=True)
        np.testing.assert_allclose(res.pvalue, res.pvalue.T, equal_nan=True)
        assert np.isnan(res.pvalue.diagonal()).all()
        for i, j in res.pairs():
            assert 0 <= res.pvalue[i, j] <= res.pvalue_adjusted[i, j] <= 1
            # Positive statistic: the row model has the better (smaller) average rank.
            assert np.sign(res.statistic[i, j]) == np.sign(
                res.average_ranks[j] - res.average_ranks[i])


@settings(max_examples=20, deadline=None)
@given(score_tables, st.randoms(use_true_random=False))
def test_invariances(scores, rnd):
    n, k = scores.shape
    models = np.array(rnd.sample(range(k), k))
    rows = np.array(rnd.sample(range(n), n))
    base = rank_posthoc(scores)
    other = rank_posthoc(scores[rows][:, models])
    np.testing.assert_allclose(other.statistic, base.statistic[np.ix_(models, models)])
    np.testing.assert_allclose(other.pvalue_adjusted,
                               base.pvalue_adjusted[np.ix_(models, models)])
    # Rank tests are invariant under increasing transforms; Wilcoxon ranks differences,
    # so only under increasing affine ones.
    for test, transformed in ((nemenyi, np.exp(scores) + scores),
                              (rank_posthoc, np.exp(scores) + scores),
                              (pairwise_wilcoxon, 2.5 * scores - 1)):
        a = test(scores)
        for b in (test(-scores, higher_is_better=False), test(transformed)):
            np.testing.assert_allclose(b.statistic, a.statistic)
            np.testing.assert_allclose(b.pvalue_adjusted, a.pvalue_adjusted)
            np.testing.assert_array_equal(b.reject, a.reject)


def test_rank_posthoc_all_pairs_matches_manual_computation():
    rng = np.random.default_rng(22)
    scores = rng.normal(size=(30, 5)) + np.linspace(0, 1, 5)
    res = rank_posthoc(scores, adjustment="hommel")
    ranks = stats.rankdata(-scores, axis=1).mean(axis=0)
    se = np.sqrt(5 * 6 / (6 * 30))
    iu = np.triu_indices(5, 1)
    z = (ranks[None, :] - ranks[:, None]) / se
    p = 2 * stats.norm.sf(np.abs(z[iu]))
    np.testing.assert_allclose(res.statistic[iu], z[iu])
    np.testing.assert_allclose(res.pvalue_adjusted[iu], adjust_pvalues(p, "hommel"))
    np.testing.assert_array_equal(res.reject[iu], adjust_pvalues(p, "hommel") <= 0.05)
    assert res.control is None and len(res.pairs()) == 10


# ------------------------------------------------------------------ pairwise Wilcoxon

def test_pairwise_wilcoxon_matches_individual_tests():
    rng = np.random.default_rng(23)
    scores = rng.normal(size=(16, 4)) * 0.05 + [0.70, 0.72, 0.75, 0.71]
    scores[:3, 1] = scores[:3, 0]  # a few ties between models 0 and 1
    res = pairwise_wilcoxon(scores, names=list("ABCD"))
    iu = np.triu_indices(4, 1)
    tests = [wilcoxon(scores[:, i], scores[:, j]) for i, j in zip(*iu)]
    p = np.array([t.pvalue for t in tests])
    # One kernel: all pairs in one batch give the bits of the loop over the pairs.
    assert res.pvalue[iu].tolist() == p.tolist()
    np.testing.assert_allclose(res.pvalue_adjusted[iu], adjust_pvalues(p, "holm"))
    assert res.statistic[iu].tolist() == [t.details["z"] for t in tests]
    assert np.array(res.details["rank_biserial"])[iu].tolist() == [t.effect_size for t in tests]
    np.testing.assert_allclose(res.average_ranks, stats.rankdata(-scores, axis=1).mean(0))
    assert res.adjustment == "holm" and res.names == ("A", "B", "C", "D")


@pytest.mark.parametrize("zero_method", ["demsar", "zsplit", "wilcox", "pratt"])
@pytest.mark.parametrize("n", [9, 60])          # exact and normal ("auto")
def test_pairwise_wilcoxon_is_the_loop_over_wilcoxon_bit_for_bit(zero_method, n):
    # Rounded scores: zeros (odd and even numbers of them), tied |differences|, near-ties
    # within the default tolerance (0.1 + 0.2 vs 0.3).
    rng = np.random.default_rng(26)
    scores = np.round(rng.normal(0.7, 0.03, size=(n, 6)), 2)
    scores[:5, 1] = scores[:5, 0]
    scores[:4, 3] = scores[:4, 2]
    scores[:, 4] = scores[:, 5] + np.round(rng.normal(0, 0.02, n), 2) + 1e-13
    res = pairwise_wilcoxon(scores, zero_method=zero_method, adjustment="none")
    for i, j in zip(*np.triu_indices(6, 1)):
        single = wilcoxon(scores[:, i], scores[:, j], zero_method=zero_method)
        assert (res.pvalue[i, j], res.statistic[i, j], res.details["rank_biserial"][i][j]) \
            == (single.pvalue, single.details["z"], single.effect_size)


def test_pairwise_wilcoxon_identical_models_and_losses():
    rng = np.random.default_rng(24)
    scores = rng.normal(size=(12, 3))
    scores[:, 2] = scores[:, 0]
    res = pairwise_wilcoxon(scores)
    assert res.pvalue[0, 2] == 1 and res.statistic[0, 2] == 0 and not res.reject[0, 2]
    assert res.details["identical_pairs"] == [("model 0", "model 2")]
    # Errors (lower is better): the model with smaller errors gets the positive statistic.
    errors = np.column_stack([np.linspace(0.1, 0.3, 12), np.linspace(0.1, 0.3, 12) + 0.05])
    res = pairwise_wilcoxon(errors, higher_is_better=False)
    assert res.statistic[0, 1] > 0 and res.reject[0, 1]


# --------------------------------------------------------------------- speed and input

def test_100_models_1000_data_sets_give_all_4950_pairs():
    # Speed is measured in benchmarks/bench_q3.py, not here (a timed test fails on a loaded
    # machine); this checks the size the benchmark times.
    scores = np.random.default_rng(25).random((1000, 100))
    for test in (nemenyi, rank_posthoc):
        res = test(scores)
        assert len(res.pairs()) == 4950


def test_names_and_control_errors():
    scores = np.random.default_rng(26).random((5, 3))
    assert nemenyi(scores).names == ("model 0", "model 1", "model 2")
    with pytest.raises(InvalidInputError, match="3 models"):
        nemenyi(scores, names=["a", "b"])
    with pytest.raises(InvalidInputError, match="unique"):
        rank_posthoc(scores, names=["a", "a", "b"])
    with pytest.raises(InvalidInputError, match="not one of the models"):
        bonferroni_dunn(scores, control="z", names=["a", "b", "c"])
    with pytest.raises(InvalidInputError, match="out of range"):
        rank_posthoc(scores, control=3)
    with pytest.raises(InvalidInputError, match="adjustment"):
        rank_posthoc(scores, adjustment="tukey")
    with pytest.raises(InvalidInputError, match="alpha"):
        nemenyi(scores, alpha=0)
    with pytest.raises(InvalidInputError, match="zero_method"):
        pairwise_wilcoxon(scores, zero_method="drop")
    with pytest.raises(TooFewError, match="data set"):
        nemenyi(scores[:1])
    with pytest.raises(InvalidInputError, match="NaN"):
        bonferroni_dunn([[0.1, np.nan], [0.2, 0.3]], control=0)


def test_to_frame_and_to_dict():
    res = rank_posthoc(AUC_PAPER_RANKING, control="C4.5", names=NAMES)
    frame = res.to_frame()
    assert list(frame["model_b"]) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    assert res.to_dict()["control"] == "C4.5"
    assert nemenyi(AUC_PAPER_RANKING, names=NAMES).to_dict()["critical_difference"] > 1
