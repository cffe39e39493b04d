"""AUC of tests on synthetic contexts (Lacoste et al. 2012, §6.1-6.4)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outperform import DegenerateDataError, InvalidInputError
from outperform.bayes import poisson_binomial_test
from outperform.simulate import (answer_auc, auc_of_test, direction_and_confidence, lacoste_auc,
                                 poisson_binomial_confidence, roc_auc, roc_curve,
                                 sign_confidence, wilcoxon_confidence)
from outperform.simulate import (DirichletContext, bimodal_context,
                                          single_dirichlet_context)
from outperform.stats import sign_test, wilcoxon
from outperform.stats import delong_test
from outperform.stats._wilcoxon import signed_rank_pvalues

RNG = np.random.default_rng(11)
counts = st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=2, max_size=12)


# --- confidence levels of §6.1-6.3 against the kernels --------------------------------------

def test_sign_confidence_matches_the_kernel_with_ties_dropped():
    k_a = RNG.integers(0, 8, (300, 9))
    k_b = RNG.integers(0, 8, (300, 9))
    direction, confidence = sign_confidence(k_a, k_b)
    for i in range(300):
        try:
            res = sign_test(-k_a[i], -k_b[i], ties="drop")
        except DegenerateDataError:       # every data set tied: no answer
            assert direction[i] == 0 and confidence[i] == 0
            continue
        assert confidence[i] == 1 - res.pvalue        # one kernel: the same bits
        assert direction[i] == np.sign(res.effect_size)


def test_sign_confidence_by_hand():
    # 9 wins of 10: rho_s = 2 (1 + 10) / 2^10.
    d, c = sign_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8])
    assert d == 1 and c == pytest.approx(1 - 22 / 1024)


def test_signed_rank_null_distribution_by_enumeration():
    for n in range(0, 9):
        sums = np.array([sum(s) for r in range(n + 1)
                         for s in itertools.combinations(range(1, n + 1), r)])
        c = np.arange(n * (n + 1) // 2 + 1)
        expected = np.array([(sums <= v).mean() for v in c])
        # P(W_n <= c): the kernel's lower tail for the untied ranks 1..n.
        ranks = np.broadcast_to(np.arange(1.0, n + 1), (c.size, n))
        np.testing.assert_allclose(signed_rank_pvalues(ranks, c, "less"), expected)


def test_wilcoxon_confidence_matches_the_exact_kernel_without_ties():
    checked = 0
    for _ in range(200):
        n_sets = int(RNG.integers(3, 15))
        k_a = RNG.integers(0, 400, n_sets)
        k_b = RNG.integers(0, 400, n_sets)
        d = np.abs(k_b - k_a)
        if np.unique(d[d > 0]).size != np.count_nonzero(d):
            continue                      # Lacoste's rho_w and the kernel differ on ties
        direction, confidence = wilcoxon_confidence(k_a, k_b, 1000)
        if np.count_nonzero(d) == 0:
            assert (direction, confidence) == (0, 0.0)
            continue
        res = wilcoxon(-k_a / 1000, -k_b / 1000, zero_method="wilcox", method="exact")
        assert confidence == 1 - res.pvalue          # one kernel: the same bits
        assert direction == np.sign(res.effect_size)
        checked += 1
    assert checked > 50


def test_wilcoxon_confidence_with_ties_follows_the_paper_by_hand():
    # d = k_b - k_a = (2, 2, 2, 1, 1, 1, 1, 2, 3, -1): midranks 3 for |d| = 1, 7.5 for 2,
    # 10 for 3; c- = 3, c+ = 52; rho_w = 2 P(W_10 <= 3) = 2 * 5 / 1024.
    d, c = wilcoxon_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8],
                               100)
    assert d == 1 and c == pytest.approx(1 - 10 / 1024)


def test_wilcoxon_confidence_uses_risk_differences_per_test_size():
    # k_b - k_a = (1, 2, -3). On equal test sets the loss has the top rank: c+ = c- = 3,
    # no confidence. On a test set ten times larger it is the smallest risk difference:
    # ranks (2, 3, 1), c- = 1, rho_w = 2 P(W_3 <= 1) = 1/2.
    _, c_same = wilcoxon_confidence([0, 0, 3], [1, 2, 0], [10, 10, 10])
    d, c_scaled = wilcoxon_confidence([0, 0, 3], [1, 2, 0], [10, 10, 100])
    assert c_same == 0.0
    assert d == 1 and c_scaled == pytest.approx(0.5)


@pytest.mark.parametrize("prior, beta_prior", [(1.0, 1.0), (0.5, 2.0)])
def test_poisson_binomial_confidence_matches_the_kernel(prior, beta_prior):
    k_a = RNG.integers(0, 40, (60, 11))
    k_b = RNG.integers(0, 40, (60, 11))
    direction, confidence = poisson_binomial_confidence(k_a, k_b, prior=prior,
                                                        beta_prior=beta_prior)
    # One kernel: the batch equals the loop over the public test bit for bit, so the AUC's
    # midranks see the same ties either way.
    for i in range(60):
        res = poisson_binomial_test(k_a[i], k_b[i], prior=prior, beta_prior=beta_prior)
        assert confidence[i] == max(res.p_right, res.p_left)
        assert direction[i] == np.sign(res.p_right - res.p_left)


@settings(max_examples=40, deadline=None)
@given(counts)
def test_swapping_a_and_b_mirrors_every_answer(pairs):
    k_a, k_b = np.array(pairs).T
    for fn in (sign_confidence, lambda a, b: wilcoxon_confidence(a, b, 100),
               poisson_binomial_confidence):
        d1, c1 = fn(k_a, k_b)
        d2, c2 = fn(k_b, k_a)
        assert d1 == -d2
        assert c1 == pytest.approx(c2, abs=1e-12)
        assert 0 <= c1 <= 1


@settings(max_examples=30, deadline=None)
@given(counts, st.randoms(use_true_random=False))
def test_reordering_data_sets_changes_nothing(pairs, random):
    k_a, k_b = np.array(pairs).T
    order = list(range(len(pairs)))
    random.shuffle(order)
    for fn in (sign_confidence, lambda a, b: wilcoxon_confidence(a, b, 100),
               poisson_binomial_confidence):
        d1, c1 = fn(k_a, k_b)
        d2, c2 = fn(k_a[order], k_b[order])
        assert d1 == d2 and c1 == pytest.approx(c2, abs=1e-12)


# --- ROC and AUC --------------------------------------------------------------------------

def test_roc_auc_matches_sklearn_and_the_trapezoid_with_ties():
    metrics = pytest.importorskip("sklearn.metrics")
    correct = RNG.random(500) < 0.7
    confidence = np.round(RNG.random(500) + 0.3 * correct, 1)   # heavy ties
    auc = roc_auc(correct, confidence)
    assert auc == pytest.approx(metrics.roc_auc_score(correct, confidence), abs=1e-12)
    e, s = roc_curve(correct, confidence)
    assert auc == pytest.approx(np.trapezoid(s, e), abs=1e-12)
    assert (e[0], s[0], e[-1], s[-1]) == (0, 0, 1, 1)


def test_roc_auc_undefined_without_both_kinds_of_answer():
    assert np.isnan(roc_auc([True, True], [0.2, 0.9]))
    with pytest.raises(InvalidInputError, match="both correct and wrong"):
        roc_curve([False, False], [0.2, 0.9])
    with pytest.raises(InvalidInputError, match="NaN"):
        roc_auc([True, False], [np.nan, 0.1])
    with pytest.raises(InvalidInputError, match="same length"):
        roc_auc([True, False], [0.1])


def test_delong_standard_error_matches_the_delong_kernel():
    correct = RNG.random(300) < 0.6
    confidence = np.round(RNG.random(300) + 0.4 * correct, 2)
    other = RNG.random(300)
    res = delong_test(correct.astype(int), confidence, other)
    var = res.details["covariance"][0][0]
    # Every answer says "A", so the correct ones are those where A is truly better.
    score = answer_auc(np.ones(300, int), confidence, correct)
    assert score["mc_se"] == np.sqrt(var)                # one kernel: the same bits
    assert score["auc"] == roc_auc(correct, confidence) == res.details["auc_a"]


def test_answer_auc_scores_directions_against_the_truth():
    res = answer_auc([1, 1, -1, 1], [0.9, 0.8, 0.7, 0.3], [True, True, True, False])
    assert res["accuracy"] == 0.5 and res["auc"] == 1.0 and res["no_answer"] == 0.0
    # No answer is a coin flip: about half of them correct.
    res = answer_auc(np.zeros(4000, int), RNG.random(4000), np.ones(4000, bool), random_state=0)
    assert res["no_answer"] == 1.0 and abs(res["accuracy"] - 0.5) < 0.03
    with pytest.raises(InvalidInputError, match="direction"):
        answer_auc([2, 1], [0.5, 0.5], [True, False])


# --- the paper's claims (§6.4) ------------------------------------------------------------

def test_bimodal_context_fools_the_wilcoxon_test():
    """Lacoste §6.4: n = 100001, N = 14: Wilcoxon AUC 0.334, sign and Poisson-binomial > 0.8."""
    t = lacoste_auc(bimodal_context(), 14, n_repetitions=6000, random_state=0).set_index("test")
    w = t.loc["wilcoxon"]
    assert w["auc"] + 3 * w["mc_se"] < 0.5
    assert abs(w["auc"] - 0.334) < 4 * w["mc_se"] + 0.003      # + the paper's own MC error
    for test in ("sign", "poisson_binomial"):
        assert t.loc[test, "auc"] - 3 * t.loc[test, "mc_se"] > 0.8


def test_poisson_binomial_at_least_as_good_as_sign_on_single_dirichlet():
    """Lacoste Figure 3: the Poisson-binomial test's AUC >= the sign test's for every N."""
    t = lacoste_auc(single_dirichlet_context(), [3, 5, 10, 20], n_repetitions=4000,
                    tests=("sign", "poisson_binomial"), random_state=1)
    wide = t.pivot(index="n_data_sets", columns="test", values=["auc", "mc_se"])
    diff = wide["auc"]["poisson_binomial"] - wide["auc"]["sign"]
    se = np.hypot(wide["mc_se"]["poisson_binomial"], wide["mc_se"]["sign"])
    assert np.all(diff > -2 * se)
    assert diff.mean() > 0.02     # "constantly outperforms": clearly better on average


# --- generic AUC of any test ------------------------------------------------------------------

def test_auc_of_the_sign_kernel_equals_the_batched_sign_test():
    def sign(k_a, k_b, n):
        return sign_test(-k_a / n, -k_b / n, ties="drop")

    ctx = single_dirichlet_context()
    generic = auc_of_test(sign, ctx, 6, n_repetitions=400, random_state=3)
    batch = lacoste_auc(ctx, 6, tests=("sign",), n_repetitions=400, random_state=3)
    for col in ("auc", "mc_se", "accuracy", "no_answer"):
        assert generic.loc[0, col] == batch.loc[0, col]   # one kernel: the same bits


def test_auc_of_the_poisson_binomial_kernel_equals_the_batch():
    def pb(k_a, k_b, n):
        return poisson_binomial_test(k_a, k_b)

    ctx = bimodal_context()
    generic = auc_of_test(pb, ctx, 5, n_repetitions=150, random_state=4, name="PB")
    batch = lacoste_auc(ctx, 5, tests=("poisson_binomial",), n_repetitions=150, random_state=4)
    assert generic.loc[0, "test"] == "PB"
    assert generic.loc[0, "auc"] == batch.loc[0, "auc"]


def test_auc_of_test_runs_in_parallel_with_the_same_answer():
    def pb(k_a, k_b, n):
        return poisson_binomial_test(k_a, k_b)

    one = auc_of_test(pb, single_dirichlet_context(), 4, n_repetitions=60, random_state=5)
    two = auc_of_test(pb, single_dirichlet_context(), 4, n_repetitions=60, random_state=5,
                      n_jobs=2, backend="threading")
    assert one.loc[0, "auc"] == two.loc[0, "auc"]


def test_direction_and_confidence_of_results():
    assert direction_and_confidence(poisson_binomial_test([1, 2], [5, 9]))[0] == 1
    assert direction_and_confidence((-1, 0.7)) == (-1, 0.7)
    with pytest.raises(InvalidInputError, match="two-sided"):
        direction_and_confidence(sign_test([3, 4, 5], [1, 2, 3], alternative="greater"))
    with pytest.raises(InvalidInputError, match="direction"):
        direction_and_confidence((2, 0.5))
    with pytest.raises(InvalidInputError, match="BayesianResult"):
        direction_and_confidence(0.3)


def test_lacoste_auc_rejects_bad_input():
    with pytest.raises(InvalidInputError, match="test"):
        lacoste_auc(single_dirichlet_context(), 5, tests=("t-test",), n_repetitions=10)
    with pytest.raises(InvalidInputError, match="n_data_sets"):
        lacoste_auc(single_dirichlet_context(), 0, n_repetitions=10)
    with pytest.raises(DegenerateDataError, match="neither algorithm"):
        lacoste_auc(DirichletContext([3, 3, 50]), 5, n_repetitions=10)
    with pytest.raises(InvalidInputError, match="same shape"):
        sign_confidence([1, 2], [1, 2, 3])
    with pytest.raises(InvalidInputError, match="n_test"):
        wilcoxon_confidence([1, 2], [2, 1], 0)
