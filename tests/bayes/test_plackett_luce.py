"""Bayesian Plackett–Luce (Calvo et al. 2018): exact posteriors and symmetry properties."""
import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError, TooFewError

pytest.importorskip("numpyro")
from outperform.bayes import plackett_luce  # noqa: E402


def _mcse(res):
    """Monte Carlo standard error of p_best from the smallest effective sample size."""
    return res.weights.std(axis=0) / np.sqrt(res.ess_min)


@pytest.mark.slow
def test_two_models_posterior_is_the_beta_of_the_wins():
    # With m = 2, PL is Bernoulli(w_A) per task; under Dirichlet(1, 1) the posterior of w_A
    # after 7 wins in 10 tasks is Beta(8, 4) exactly.
    scores = np.array([[1, 0]] * 7 + [[0, 1]] * 3)
    res = plackett_luce(scores, names=["A", "B"], n_samples=4000, random_state=1)
    assert abs(res.p_best[0] - 8 / 12) < 4 * _mcse(res)[0]
    # the draws are autocorrelated: thin to about the effective sample size before the KS test
    step = max(1, int(res.weights.shape[0] / res.ess_min))
    assert stats.kstest(res.weights[::step, 0], stats.beta(8, 4).cdf).pvalue > 1e-3


def _quadrature_mean(orders, alpha, n=1200):
    """E[w | rankings] for m = 3 by the midpoint rule on the simplex (an independent integral)."""
    g = (np.arange(n) + 0.5) / n
    w1, w2 = np.meshgrid(g, g, indexing="ij")
    w3 = 1 - w1 - w2
    inside = w3 > 0
    w = np.stack([w1[inside], w2[inside], w3[inside]], axis=1)
    log_post = np.log(w) @ (np.asarray(alpha) - 1)
    for o in orders:
        log_post += np.log(w[:, o[0]] / w.sum(axis=1)) + np.log(
            w[:, o[1]] / (w[:, o[1]] + w[:, o[2]]))
    p = np.exp(log_post - log_post.max())
    return (w * p[:, None]).sum(axis=0) / p.sum()


@pytest.mark.slow
def test_three_models_match_numerical_integration():
    # rankings (best first) of 6 tasks, as score rows: higher is better
    orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (0, 1, 2), (2, 0, 1), (1, 2, 0)]
    scores = np.zeros((6, 3))
    for s, o in enumerate(orders):
        scores[s, list(o)] = [3, 2, 1]
    alpha = [1.0, 2.0, 1.5]
    res = plackett_luce(scores, prior=alpha, n_samples=4000, random_state=2)
    expected = _quadrature_mean(orders, alpha)
    np.testing.assert_array_less(np.abs(res.p_best - expected), 4 * _mcse(res))
    assert res.n_tied_tasks == 0 and res.rhat_max < 1.01


@pytest.mark.slow
def test_one_model_best_everywhere_is_best_with_high_probability():
    rng = np.random.default_rng(0)
    scores = rng.random((20, 4))
    scores[:, 2] = 2.0                                    # model 2 first on every task
    res = plackett_luce(scores, n_samples=1500, random_state=3)
    assert res.p_highest_weight[2] > 0.99
    assert res.expected_rank[2] < 1.01
    # First on all 20 tasks: the likelihood is w_2^20 times terms in the proportions of the
    # other weights (w_j / (1 - w_2)) only, and Dirichlet(1, 1, 1, 1) gives w_2 ~ Beta(1, 3)
    # independent of those proportions: the posterior of w_2 is Beta(21, 3), mean 21 / 24.
    assert abs(res.p_best[2] - 21 / 24) < 4 * _mcse(res)[2]


@pytest.mark.slow
def test_exchangeable_models_get_equal_probabilities():
    # every cyclic rotation twice: each model holds each place equally often, so the
    # posterior is invariant under the cyclic relabelling of the models
    base = np.array([4.0, 3.0, 2.0, 1.0])
    scores = np.array([np.roll(base, k) for k in range(4)] * 2)
    res = plackett_luce(scores, n_samples=3000, random_state=4)
    np.testing.assert_array_less(np.abs(res.p_best - 0.25), 4 * _mcse(res))
    np.testing.assert_allclose(res.expected_task_rank, 2.5, atol=0.05)


@pytest.mark.slow
def test_lower_is_better_reverses_and_ties_are_counted():
    scores = np.array([[0.1, 0.2, 0.2], [0.1, 0.3, 0.2], [0.2, 0.3, 0.1]])
    res = plackett_luce(scores, higher_is_better=False, n_samples=1000, random_state=5,
                        n_chains=2)
    assert res.n_tied_tasks == 1
    assert res.models[int(np.argmax(res.p_best))] == "0"
    assert "broken at random" in str(res)


def test_bad_input_is_refused():
    with pytest.raises(InvalidInputError, match="prior"):
        plackett_luce(np.eye(3), prior=[1, -1, 1])
    with pytest.raises(InvalidInputError, match="names"):
        plackett_luce(np.eye(3), names=["a", "b"])
    with pytest.raises(TooFewError):
        plackett_luce(np.ones((4, 1)))
    with pytest.raises(InvalidInputError):
        plackett_luce([[1.0, np.nan]])


@pytest.mark.slow
def test_results_table_path_ranks_by_the_metric_direction():
    from outperform.compare import plackett_luce as pl_table
    from outperform.data import load_demsar_table6

    table = load_demsar_table6()
    scores = table.score_matrix()
    res = pl_table(table, n_samples=1000, n_chains=2, random_state=6)
    ref = plackett_luce(scores.values, names=scores.models,
                        higher_is_better=scores.higher_is_better, n_samples=1000, n_chains=2,
                        random_state=6)
    assert res.models == scores.models
    np.testing.assert_array_equal(res.p_best, ref.p_best)
