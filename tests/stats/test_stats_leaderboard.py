"""All-pairs McNemar / Bayesian McNemar from a correctness matrix (outperform.stats._leaderboard)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from outperform._validation import InvalidInputError, TooFewError
from outperform.bayes import bayesian_mcnemar
from outperform.stats import _bit_gram as bit_gram
from outperform.bayes import pairwise_bayesian_mcnemar
from outperform.stats import against_control, pairwise_discordance, pairwise_mcnemar
from outperform.stats import discordance_counts, mcnemar


def random_correct(k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    hard = rng.random(n) < 0.3                      # shared difficulty makes models correlated
    skill = rng.uniform(0.5, 0.95, size=(k, 1))
    return np.where(hard, rng.random((k, n)) < skill - 0.4, rng.random((k, n)) < skill)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7), st.integers(1, 300), st.integers(0, 2**32 - 1))
def test_discordance_matches_pair_by_pair_counts(k, n, seed):
    x = random_correct(k, n, seed)                 # n not a multiple of 64 checks the padding
    counts = pairwise_discordance(x)
    n01 = counts.n01
    assert np.array_equal(counts.n10, n01.T)
    assert counts.accuracy == pytest.approx(x.mean(axis=1))
    assert counts.n_examples == n
    for i in range(k):
        for j in range(k):
            c = discordance_counts(x[i], x[j])
            assert n01[i, j] == c.n01 and n01[j, i] == c.n10
    assert np.all(np.diag(n01) == 0)


def test_popcount_fallback_for_old_numpy(monkeypatch):
    words = np.random.default_rng(0).integers(0, 2**63, size=(5, 40), dtype=np.uint64)
    fast = bit_gram._popcount_rows(words)
    monkeypatch.delattr(np, "bitwise_count")
    slow = bit_gram._popcount_rows(words)
    naive = [sum(bin(int(w)).count("1") for w in row) for row in words]
    assert fast.tolist() == slow.tolist() == naive


def test_dtypes_give_the_same_counts():
    x = random_correct(4, 500, 1)
    ref = pairwise_discordance(x).n01
    for dtype in (np.int8, np.int64, np.float32, float):
        assert np.array_equal(pairwise_discordance(x.astype(dtype)).n01, ref)


def test_pairwise_mcnemar_matches_single_tests_and_holm():
    x = random_correct(5, 400, 2)
    res = pairwise_mcnemar(x, names=list("abcde"))
    iu = np.triu_indices(5, 1)
    for i, j in zip(*iu, strict=True):
        c = discordance_counts(x[i], x[j])
        single = mcnemar(c.n01, c.n10)
        assert res.pvalue[i, j] == pytest.approx(single.pvalue, rel=1e-12)
        assert res.pvalue[j, i] == res.pvalue[i, j]
        assert res.statistic[i, j] == c.n01 and res.statistic[j, i] == c.n10
        assert res.details["cohens_g"][i, j] == pytest.approx(single.effect_size)
        assert res.details["cohens_g"][j, i] == pytest.approx(-single.effect_size)
    holm = multipletests(res.pvalue[iu], method="holm")[1]
    assert res.pvalue_adjusted[iu] == pytest.approx(holm, rel=1e-12)
    assert np.array_equal(res.reject[iu], holm <= 0.05)
    assert np.isnan(np.diag(res.pvalue)).all() and not res.reject.diagonal().any()
    assert len(res.to_frame()) == 10


def test_precomputed_counts_give_the_same_results():
    x = random_correct(4, 300, 9)
    counts = pairwise_discordance(x)
    for fn in (pairwise_mcnemar, pairwise_bayesian_mcnemar):
        a, b = fn(x), fn(counts)
        assert np.allclose(a.statistic, b.statistic, equal_nan=True)
        assert np.allclose(a.details["accuracy"], b.details["accuracy"])
    assert np.allclose(against_control(x, 1).pvalue_adjusted,
                       against_control(counts, 1).pvalue_adjusted, equal_nan=True)


def test_identical_models_get_p_one():
    x = random_correct(3, 200, 3)
    x = np.vstack([x, x[0]])
    res = pairwise_mcnemar(x)
    assert res.pvalue[0, 3] == 1.0
    assert np.isnan(res.details["cohens_g"][0, 3])
    assert res.details["n_identical_pairs"] == 1


def test_all_pairs_bayesian_matches_single_tests():
    x = random_correct(4, 300, 4)
    res = pairwise_bayesian_mcnemar(x, threshold=0.9)
    for i in range(4):
        for j in range(4):
            if i == j:
                continue
            c = discordance_counts(x[i], x[j])
            single = bayesian_mcnemar(c.n01, c.n10, threshold=0.9)
            assert res.statistic[i, j] == pytest.approx(single.p_a_better, abs=1e-12)
            assert res.statistic[j, i] == pytest.approx(single.p_b_better, abs=1e-12)
            assert res.details["p_rope"][i, j] == pytest.approx(single.p_equivalent, abs=1e-9)
            assert res.details["decision"][i, j] == single.decision
            assert res.reject[i, j] == (single.decision in ("A better", "B better"))
    assert np.isnan(res.pvalue).all() and res.alpha == pytest.approx(0.1)


def test_williams_da_en_through_a_correctness_matrix():
    """Table 1 da-en counts (A = GNN) expanded to examples give §6.2's 0.571 / 0.429."""
    n00, n01, n10, n11 = 54, 159, 198, 589
    gnn = np.r_[np.zeros(n00), np.zeros(n01), np.ones(n10), np.ones(n11)].astype(bool)
    llm = np.r_[np.zeros(n00), np.ones(n01), np.zeros(n10), np.ones(n11)].astype(bool)
    res = pairwise_bayesian_mcnemar([gnn, llm], names=["GNN", "LLM"])
    assert res.statistic[0, 1] == pytest.approx(0.571, abs=5e-4)
    assert res.details["p_rope"][0, 1] == pytest.approx(0.429, abs=5e-4)
    assert res.statistic[1, 0] == pytest.approx(0.00004, abs=5e-6)
    freq = pairwise_mcnemar([gnn, llm])
    assert freq.statistic[0, 1] == 159


def test_user_rope_and_prior_are_used():
    x = random_correct(3, 300, 5)
    res = pairwise_bayesian_mcnemar(x, rope=0.05, prior=(0.5, 0.5))
    c = discordance_counts(x[0], x[1])
    single = bayesian_mcnemar(c.n01, c.n10, rope=0.05, prior=(0.5, 0.5))
    assert res.statistic[0, 1] == pytest.approx(single.p_a_better)
    assert res.details["rope_rule"] == "user"


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_reordering_models_permutes_results(seed):
    x = random_correct(5, 250, seed)
    perm = np.random.default_rng(seed).permutation(5)
    names = [f"m{i}" for i in range(5)]
    ref = pairwise_mcnemar(x, names=names)
    moved = pairwise_mcnemar(x[perm], names=[names[i] for i in perm])
    ix = np.ix_(perm, perm)
    assert np.array_equal(moved.statistic, ref.statistic[ix])
    assert np.allclose(moved.pvalue_adjusted, ref.pvalue_adjusted[ix], equal_nan=True)
    bayes_ref = pairwise_bayesian_mcnemar(x)
    bayes_moved = pairwise_bayesian_mcnemar(x[perm])
    assert np.allclose(bayes_moved.statistic, bayes_ref.statistic[ix], equal_nan=True)


def test_against_control():
    x = random_correct(5, 500, 6)
    names = ["ref", "b", "c", "d", "e"]
    res = against_control(x, "ref", names=names, adjustment="bonferroni")
    assert res.control == "ref"
    assert res.pairs() == [(0, 1), (0, 2), (0, 3), (0, 4)]
    full = pairwise_mcnemar(x, names=names)
    assert res.pvalue[0, 1:] == pytest.approx(full.pvalue[0, 1:])
    assert res.pvalue_adjusted[0, 1:] == pytest.approx(np.minimum(1, 4 * full.pvalue[0, 1:]))
    assert np.isnan(res.pvalue[1:, 1:]).all()
    by_index = against_control(x, 0, names=names, adjustment="bonferroni")
    assert np.allclose(by_index.pvalue_adjusted, res.pvalue_adjusted, equal_nan=True)
    assert len(res.to_frame()) == 4


@pytest.mark.parametrize("correct, kwargs, error, match", [
    ([1, 0, 1], {}, InvalidInputError, "2-D"),
    ([[1, 0, 2], [1, 1, 0]], {}, InvalidInputError, "0/1"),
    ([[1, 0, np.nan], [1, 1, 0]], {}, InvalidInputError, "0/1"),
    ([["a", "b"], ["a", "a"]], {}, InvalidInputError, "0/1"),
    ([[1, 0, 1]], {}, TooFewError, "at least 2"),
    ([[1, 0], [0, 1]], {"names": ["a"]}, InvalidInputError, "distinct names"),
    ([[1, 0], [0, 1]], {"names": ["a", "a"]}, InvalidInputError, "distinct names"),
    ([[1, 0], [0, 1]], {"adjustment": "tukey"}, InvalidInputError, "adjustment"),
])
def test_bad_input(correct, kwargs, error, match):
    with pytest.raises(error, match=match):
        pairwise_mcnemar(correct, **kwargs)


def test_bad_reference_and_bayesian_options():
    x = random_correct(3, 50, 7)
    with pytest.raises(InvalidInputError, match="not one of the names"):
        against_control(x, "zz")
    with pytest.raises(InvalidInputError, match="out of range"):
        against_control(x, 3)
    with pytest.raises(InvalidInputError, match="prior"):
        pairwise_bayesian_mcnemar(x, prior=(0, 1))
    with pytest.raises(InvalidInputError, match="threshold"):
        pairwise_bayesian_mcnemar(x, threshold=0)


@pytest.mark.parametrize("k, n", [(2, 200_000), pytest.param(150, 100_000, marks=pytest.mark.slow),
                                  (401, 9_000)])
def test_counts_are_exact_across_tiles_of_examples(k, n):
    # Counted tile by tile (issue 14): sizes spanning several tiles and a partial last one,
    # against the dense product (~x) x^T, exact in float32 below 2^24 examples.
    x = random_correct(k, n, k)
    n01 = (~x).astype(np.float32) @ x.T.astype(np.float32)
    counts = pairwise_discordance(x)
    np.testing.assert_array_equal(counts.n01, n01.astype(np.int64))
    np.testing.assert_array_equal(counts.n_correct, x.sum(axis=1))


def test_count_memory_is_bounded_by_a_tile_not_by_the_examples():
    # 20 models x 2 million examples: 40 MB as bool, 5 MB bit-packed. Tile by tile, the
    # temporaries stay far below even the packed matrix (numpy reports them to tracemalloc).
    import tracemalloc

    x = np.zeros((20, 2_000_000), dtype=bool)
    x[:, ::3] = True
    tracemalloc.start()
    try:
        counts = pairwise_discordance(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert counts.n01.sum() == 0 and counts.n_correct[0] == 666_667
    assert peak < 2 * 2**20, f"{peak / 2**20:.1f} MiB"
