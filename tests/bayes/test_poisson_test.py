"""Poisson test of Corani & Benavoli (2015) (outperform.bayes._poisson_test)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import (NormalGammaPrior, correlated_bayesian_ttest, pairwise_poisson_test,
                              poisson_test)


def correlated_folds(rng, n_sets, n_folds, mean, sd=0.02, rho=0.1, base=0.8):
    """Fold scores of B and A whose differences have the intraclass correlation rho."""
    b = rng.normal(base, 0.05, (n_sets, 1)) + rng.normal(0, 0.01, (n_sets, n_folds))
    shared = rng.normal(0, 1, (n_sets, 1))
    own = rng.normal(0, 1, (n_sets, n_folds))
    d = np.asarray(mean).reshape(-1, 1) + sd * (np.sqrt(rho) * shared + np.sqrt(1 - rho) * own)
    return b + d, b


def matching_prior_p(a, b, rho):
    """P(mu > 0) under the matching prior: the Student posterior of NOTES.md, by hand."""
    d = np.asarray(a) - np.asarray(b)
    n = d.size
    scale = np.sqrt((1 / n + rho / (1 - rho)) * d.var(ddof=1))
    return stats.t.sf(0, n - 1, loc=d.mean(), scale=scale)


def brute_force_majority(p):
    """P(more than half of the trials succeed), enumerating all outcomes."""
    p = np.asarray(p)
    total = 0.0
    for d in itertools.product((0, 1), repeat=p.size):
        d = np.array(d)
        if d.sum() > p.size / 2:
            total += np.prod(np.where(d == 1, p, 1 - p))
    return total


@pytest.mark.parametrize("q", [7, 8])
def test_without_rope_is_corani_p_x_above_half(q):
    rng = np.random.default_rng(q)
    a, b = correlated_folds(rng, q, 10, mean=rng.normal(0.004, 0.01, q))
    res = poisson_test(a, b, rho=0.1)
    p = np.array([matching_prior_p(x, y, 0.1) for x, y in zip(a, b)])
    np.testing.assert_allclose(res.details["p_data_sets"][:, 2], p, rtol=1e-10)
    assert res.details["p_data_sets"][:, 1].max() < 1e-15
    assert res.p_rope < 1e-15
    assert res.p_right == pytest.approx(brute_force_majority(p), abs=1e-12)
    assert res.p_left == pytest.approx(brute_force_majority(1 - p), abs=1e-12)
    tie = 0.0 if q % 2 else res.posterior.pmf(q // 2)
    assert res.details["p_no_majority"] == pytest.approx(tie, abs=1e-12)
    assert res.p_left + res.p_right + res.p_rope + tie == pytest.approx(1, abs=1e-12)


def test_with_rope_matches_simulated_counts():
    rng = np.random.default_rng(5)
    a, b = correlated_folds(rng, 9, 10, mean=rng.normal(0.006, 0.008, 9))
    res = poisson_test(a, b, rho=0.1, rope=0.005)
    probs = res.details["p_data_sets"]
    np.testing.assert_allclose(probs.sum(axis=1), 1)
    # Each data set ends left / rope / right with the t-test's probabilities.
    u = rng.random((200_000, 9, 1))
    outcome = (u > np.cumsum(probs, axis=1)[None, :, :2]).sum(axis=2)
    n = np.stack([(outcome == r).sum(axis=1) for r in range(3)], axis=1)
    tol = 4 * 0.5 / np.sqrt(len(n))
    assert res.p_left == pytest.approx(np.mean(n[:, 0] > 4.5), abs=tol)
    assert res.p_rope == pytest.approx(np.mean(n[:, 1] > 4.5), abs=tol)
    assert res.p_right == pytest.approx(np.mean(n[:, 2] > 4.5), abs=tol)
    assert res.details["p_more_wins"] == pytest.approx(np.mean(n[:, 2] > n[:, 0]), abs=tol)
    assert res.details["p_more_losses"] == pytest.approx(np.mean(n[:, 0] > n[:, 2]), abs=tol)
    assert res.details["p_equal"] == pytest.approx(np.mean(n[:, 0] == n[:, 2]), abs=tol)
    assert res.posterior_mean == pytest.approx(probs[:, 2].sum())


def test_swapping_a_and_b_mirrors():
    rng = np.random.default_rng(6)
    a, b = correlated_folds(rng, 11, 10, mean=0.003)
    for rope in (0.0, 0.004):
        ab, ba = poisson_test(a, b, rho=0.1, rope=rope), poisson_test(b, a, rho=0.1, rope=rope)
        assert ab.p_right == pytest.approx(ba.p_left, abs=1e-12)
        assert ab.p_left == pytest.approx(ba.p_right, abs=1e-12)
        assert ab.p_rope == pytest.approx(ba.p_rope, abs=1e-12)


@settings(max_examples=15, deadline=None)
@given(st.randoms(use_true_random=False))
def test_reordering_data_sets_changes_nothing(rnd):
    rng = np.random.default_rng(7)
    a, b = correlated_folds(rng, 9, 10, mean=rng.normal(0, 0.01, 9))
    order = list(range(9))
    rnd.shuffle(order)
    r1 = poisson_test(a, b, rho=0.1, rope=0.005)
    r2 = poisson_test(a[order], b[order], rho=0.1, rope=0.005)
    assert (r1.p_left, r1.p_rope, r1.p_right) == pytest.approx((r2.p_left, r2.p_rope, r2.p_right),
                                                              abs=1e-13)


def test_type_one_error_at_most_alpha():
    # Corani & Benavoli §4.2, delta = 0: no data set has a true difference. (The test is
    # conservative there: the rate is far below alpha, so 60 repetitions suffice.)
    rng = np.random.default_rng(8)
    rejections = 0
    for _ in range(60):
        a, b = correlated_folds(rng, 15, 10, mean=0.0)
        rejections += poisson_test(a, b, rho=0.1).decision != "undecided"
    assert rejections / 60 <= 0.05


def test_power_grows_with_the_effect():
    rng = np.random.default_rng(9)
    small = poisson_test(*correlated_folds(rng, 20, 10, mean=0.002), rho=0.1)
    large = poisson_test(*correlated_folds(rng, 20, 10, mean=0.02), rho=0.1)
    assert large.p_right > small.p_right and large.decision == "A better"


def test_ragged_folds_per_data_set_rho_and_degenerate_sets():
    rng = np.random.default_rng(10)
    a = [rng.normal(0.8, 0.02, 10), rng.normal(0.8, 0.02, 20), np.full(10, 0.9)]
    b = [x - 0.01 for x in a[:2]] + [np.full(10, 0.9)]
    res = poisson_test(a, b, rho=[0.1, 0.2, 0.1], rope=0.001)
    # The third data set: identical folds, difference 0 -> point mass in the ROPE.
    np.testing.assert_array_equal(res.details["p_data_sets"][2], [0, 1, 0])
    np.testing.assert_allclose(res.details["rho"], [0.1, 0.2, 0.1])
    assert res.details["p_data_sets"][1, 2] == pytest.approx(
        stats.t.sf(0.001, 19, loc=0.01, scale=1e-12), abs=1e-9)


def test_pairwise_matches_single_tests():
    rng = np.random.default_rng(11)
    base = rng.normal(0.8, 0.03, (6, 10, 1))
    scores = base + np.array([0.0, 0.01, 0.03]) + rng.normal(0, 0.01, (6, 10, 3))
    res = pairwise_poisson_test(scores, rho=0.1, names=["x", "y", "z"], rope=0.005)
    for i, j in itertools.combinations(range(3), 2):
        single = poisson_test(scores[:, :, i], scores[:, :, j], rho=0.1, rope=0.005)
        # All pairs are one batch of the kernel: the same bits as the loop over pairs.
        assert res.statistic[i, j] == single.p_right
        assert res.statistic[j, i] == single.p_left
        assert res.details["p_rope"][i, j] == single.p_rope
        assert res.details["expected_wins"][i, j] == single.details["expected_counts"][2]
    assert res.details["decision"][2, 0] == "A better"
    assert res.names == ("x", "y", "z") and np.isnan(res.pvalue).all()


def test_data_sets_are_the_correlated_ttest_of_each_one_bit_for_bit():
    # Ragged folds (three batches of the kernel), per-data-set rho, a degenerate data set.
    rng = np.random.default_rng(12)
    sizes = [10, 20, 10, 5, 20, 10]
    a = [rng.normal(0.8, 0.02, n) for n in sizes]
    b = [x - rng.normal(0.005, 0.01, x.size) for x in a]
    b[3] = a[3] - 0.01
    rho = [0.1, 0.2, 0.1, 0.2, 0.05, 0.1]
    prior = NormalGammaPrior(mu0=0.001, k0=2.0, a=1.0, b=1e-4)
    for kwargs in ({}, {"rope": 0.004}, {"rope": 0.004, "prior": prior}):
        res = poisson_test(a, b, rho=rho, **kwargs)
        loop = [correlated_bayesian_ttest(x, y, rho=r, **kwargs) for x, y, r in zip(a, b, rho)]
        assert res.details["p_data_sets"].tolist() == [[t.p_left, t.p_rope, t.p_right]
                                                       for t in loop]
    scores = [np.column_stack([x, y, y + 0.003]) for x, y in zip(a, b)]
    pairs = pairwise_poisson_test(scores, rho=rho, rope=0.004)
    for i, j in itertools.combinations(range(3), 2):
        single = poisson_test([m[:, i] for m in scores], [m[:, j] for m in scores], rho=rho,
                              rope=0.004)
        assert (pairs.statistic[i, j], pairs.details["p_rope"][i, j], pairs.statistic[j, i]) \
            == (single.p_right, single.p_rope, single.p_left)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: poisson_test(np.ones((3, 5)), np.ones((2, 5)), rho=0.1), InvalidInputError,
     "same data sets"),
    (lambda: poisson_test([], [], rho=0.1), TooFewError, "no data set"),
    (lambda: poisson_test(np.ones((3, 5)), np.ones((3, 5)), rho=[0.1, 0.2]),
     InvalidInputError, "one per data set"),
    (lambda: poisson_test(np.ones((3, 5)), np.ones((3, 5)), rho=1.0), InvalidInputError,
     "data set 0: rho"),
    (lambda: poisson_test([[0.1, 0.2], [0.3]], [[0.1, 0.2], [0.3, 0.4]], rho=0.1),
     InvalidInputError, "paired"),
    (lambda: poisson_test([[0.1]], [[0.2]], rho=0.1), TooFewError, "2 folds"),
    (lambda: poisson_test(np.ones((3, 5)), np.ones((3, 5)), rho=0.1, rope=-1),
     InvalidInputError, "rope"),
    (lambda: poisson_test("abc", "abd", rho=0.1), InvalidInputError, "list of q arrays"),
    (lambda: pairwise_poisson_test(np.ones((3, 5, 1)), rho=0.1), TooFewError, "2 models"),
])
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_data_set_with_identical_folds_is_half_a_win_each_without_rope():
    # Two learners that predict alike on a tiny data set score the same on every fold; the
    # limit of the Student posterior centred at 0 gives each side probability 1/2, so the
    # test does not count the data set as a loss for whichever model is passed as A.
    rng = np.random.default_rng(3)
    a, b = correlated_folds(rng, 9, 10, mean=np.full(9, 0.01))
    a, b = list(a) + [np.full(10, 0.7)], list(b) + [np.full(10, 0.7)]
    ab, ba = poisson_test(a, b, rho=0.1), poisson_test(b, a, rho=0.1)
    np.testing.assert_array_equal(ab.details["p_data_sets"][-1], [0.5, 0.0, 0.5])
    assert ab.p_right == pytest.approx(ba.p_left, abs=1e-12)
    assert ab.p_left == pytest.approx(ba.p_right, abs=1e-12)
    with pytest.raises(DegenerateDataError, match="data set 9: .*point mass"):
        poisson_test(a, b, rho=0.1, on_zero_variance="raise")
