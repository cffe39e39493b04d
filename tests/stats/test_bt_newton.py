"""Batched dense Newton of the bootstrap (stats/_bt_newton.py) against one trust-region fit
per resample (scipy.optimize.minimize(method="trust-exact"), stats/_bradley_terry.py)."""
import numpy as np
import pytest

from outperform.stats._bradley_terry import fit_abilities
from outperform.stats._bt_likelihood import PairTotals, battle_types, pair_totals
from outperform.stats._bt_newton import batch_information, newton_batch


def _problem(k, seed=9, m=6, n=400):
    rng = np.random.default_rng(seed)
    lam = rng.normal(0, 1, m)
    a = rng.integers(0, m, n)
    b = (a + rng.integers(1, m, n)) % m
    out = np.where(rng.random(n) < 1 / (1 + np.exp(lam[b] - lam[a])), 0, 1)
    out = np.where(rng.random(n) < 0.2, 2, out)
    rows, counts = battle_types(a, b, out, np.ones(n))
    pt, contrib = pair_totals(rows, counts, m, k)
    draws = rng.multinomial(n, counts / n, size=5).astype(float)
    totals = np.asarray((contrib.T @ draws.T).T).reshape(5, -1, k)
    return pt, totals


@pytest.mark.parametrize("k", [2, 3])
def test_batched_newton_equals_one_fit_per_resample(k):
    pt, totals = _problem(k)
    theta = fit_abilities(pt, k == 3)
    batched = newton_batch(pt, totals, theta)
    for b in range(len(totals)):
        single = fit_abilities(PairTotals(pt.pairs, totals[b], pt.n_models), k == 3)
        np.testing.assert_allclose(batched[b], single, atol=1e-9)


@pytest.mark.parametrize("k", [2, 3])
def test_batch_information_is_the_one_at_a_time_information(k):
    pt, totals = _problem(k, seed=4)
    theta = np.random.default_rng(0).normal(0, 0.5, (3, pt.n_params))
    theta[:, 0] = 0
    prob = pt.batch_probabilities(theta)
    info = batch_information(pt, prob, totals[:3].sum(axis=2))
    for b in range(3):
        one = PairTotals(pt.pairs, totals[b], pt.n_models).information(theta[b])
        np.testing.assert_allclose(info[b], one, atol=1e-10)
