"""Rank confidence sets (Mogstad, Romano, Shaikh & Wilhelm 2024): reference, peers, properties."""
import numpy as np
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.stats import clustered_mean, pairwise_ttest, rank_sets


def _reference(y, n_resamples, seed, alpha=0.05, stepdown=True):
    """Plain implementation: one resample at a time, families and step-down as in csranks.

    The resampling weights are drawn as the kernel draws them (one batch: the multinomial
    counts of ``rng.integers(0, n, size=(B, n))``), then everything is float64 and loops.
    """
    n, k = y.shape
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_resamples, n))
    mean = y.mean(axis=0)
    u = y - mean
    cov = u.T @ u / (n - 1) / n
    se = np.sqrt(np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov)
    np.fill_diagonal(se, 1.0)
    t_hat = (mean[:, None] - mean[None, :]) / se
    boot = []
    for b in range(n_resamples):  # Arena-style: resample, recompute, one at a time
        d = y[idx[b]].mean(axis=0) - mean
        boot.append((d[:, None] - d[None, :]) / se)
    boot = np.array(boot)                                    # (B, k, k): T*_jm
    pairs = ~np.eye(k, dtype=bool)

    def run(family):
        rejected = np.zeros((k, k), dtype=bool)
        while True:
            active = family & ~rejected
            crit = np.quantile(boot[:, active].max(axis=1), 1 - alpha)
            new = active & (t_hat > crit)
            rejected |= new
            if not (stepdown and new.any()):
                return rejected, crit

    sim, crit = run(pairs)
    marginal = np.zeros((k, 2), dtype=int)
    for j in range(k):
        family = np.zeros((k, k), dtype=bool)
        family[j], family[:, j] = True, True
        rej, _ = run(family & pairs)
        marginal[j] = 1 + rej[:, j].sum(), k - rej[j].sum()
    ranks = np.array([1 + (y[idx[b]].mean(axis=0)[None, :] > y[idx[b]].mean(axis=0)[:, None])
                      .sum(axis=1) for b in range(n_resamples)])
    percentile = np.quantile(ranks, [alpha / 2, 1 - alpha / 2], axis=0,
                             method="inverted_cdf").T
    return np.column_stack([1 + sim.sum(axis=0), k - sim.sum(axis=1)]), marginal, percentile, crit


@pytest.mark.parametrize("stepdown", [True, False])
@pytest.mark.parametrize("seed", [0, 5])   # the step-down narrows simultaneous / marginal sets
def test_equals_a_plain_loop_over_resamples(seed, stepdown):
    rng = np.random.default_rng(seed)
    y = rng.normal([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], 1.0, size=(400, 6))
    res = rank_sets(y, n_resamples=600, random_state=11, stepdown=stepdown)
    sim, marg, pct, crit = _reference(y, 600, 11, stepdown=stepdown)
    np.testing.assert_array_equal(res.simultaneous, sim)
    np.testing.assert_array_equal(res.marginal, marg)
    np.testing.assert_array_equal(res.percentile, pct)
    assert res.critical_value == pytest.approx(crit, rel=1e-5)   # float32 bootstrap means


def test_stepdown_only_narrows_the_sets():
    rng = np.random.default_rng(0)
    y = rng.normal([0.0, 0.1, 0.2, 0.3, 0.4, 0.5], 1.0, size=(400, 6))
    step = rank_sets(y, n_resamples=600, random_state=11)
    single = rank_sets(y, n_resamples=600, random_state=11, stepdown=False)
    for kind in ("simultaneous", "marginal"):
        a, b = getattr(step, kind), getattr(single, kind)
        assert (a[:, 0] >= b[:, 0]).all() and (a[:, 1] <= b[:, 1]).all()
    assert (step.simultaneous != single.simultaneous).any()
    assert step.critical_value < single.critical_value
