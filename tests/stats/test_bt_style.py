"""Style-controlled Bradley–Terry (stats/_bt_style.py): properties, recovery and coverage.

The comparison with arena-rank is tests/stats/test_bt_style_peer.py.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from outperform import DegenerateDataError, InvalidInputError
from outperform.results._ratings import ELO_PER_LOGIT
from outperform.stats import bradley_terry, bradley_terry_style
from outperform.stats._bt_style_design import relative_differences

NAMES = np.array(["m0", "m1", "m2", "m3", "m4"])


def _simulate(rng, n, beta=(0.8,), skill=(0.0, 0.3, -0.2, 0.5, 0.1), ties=0.0, reps=None):
    """Battles with a known length effect (beta per sd of the normalised difference).

    Returns arrays of shape (reps, n) when ``reps`` is given.
    """
    shape = (n,) if reps is None else (reps, n)
    k = len(skill)
    ia = rng.integers(0, k, shape)
    ib = (ia + rng.integers(1, k, shape)) % k
    la, lb = rng.poisson(300, shape), rng.poisson(300, shape)
    d = (la - lb) / (la + lb)
    x = d / 0.0408       # about standardised (sd of d for Poisson(300) lengths ~ 0.0408)
    eta = np.asarray(skill)[ia] - np.asarray(skill)[ib] + beta[0] * x
    win = rng.uniform(size=shape) < expit(eta)
    w = np.where(win, "a", "b").astype(object)
    w[rng.uniform(size=shape) < ties] = "tie"
    return NAMES[ia], NAMES[ib], w, la, lb


def test_relative_differences_zero_over_zero():
    # LMArena: a zero total is replaced by 1 (arena-rank examples/example_utils.py)
    assert relative_differences([0, 3, 1], [0, 1, 3]).ravel().tolist() == [0.0, 0.5, -0.5]


def test_zero_covariates_equal_plain_bradley_terry():
    rng = np.random.default_rng(3)
    a, b, w, _, _ = _simulate(rng, 1500)
    zeros = np.zeros(len(a))
    res = bradley_terry_style(a, b, w, zeros, features=["none"], l2=1.0, rank_sets=False)
    plain = bradley_terry(a, b, w, ties="half", interval="sandwich")
    assert res.coefficients[0] == 0.0
    np.testing.assert_allclose(res.ratings, plain.ratings, rtol=0, atol=1e-8)
    np.testing.assert_allclose(res.rating_standard_error, plain.rating_standard_error,
                               rtol=1e-8)
    np.testing.assert_allclose(res.uncontrolled_ratings, plain.ratings, rtol=0, atol=1e-8)


def test_zero_covariates_with_ties_equal_plain_ratings():
    # ties: the abilities agree (a tie is half a win in both); the sandwich meats differ
    # (here (y - p)^2 with y = 0.5, there half of each outcome's score), so only ratings
    rng = np.random.default_rng(4)
    a, b, w, _, _ = _simulate(rng, 1500, ties=0.2)
    res = bradley_terry_style(a, b, w, np.zeros(len(a)), l2=0.5, rank_sets=False)
    plain = bradley_terry(a, b, w, ties="half")
    np.testing.assert_allclose(res.ratings, plain.ratings, rtol=0, atol=1e-8)


def test_constant_covariate_without_penalty_refused():
    rng = np.random.default_rng(5)
    a, b, w, _, _ = _simulate(rng, 300)
    with pytest.raises(DegenerateDataError, match="not identified"):
        bradley_terry_style(a, b, w, np.ones(len(a)), features=["c"], rank_sets=False)


@pytest.mark.parametrize("kwargs, message", [
    (dict(l2=-1.0), "l2 must be"),
    (dict(anchor="nope"), "anchor 'nope'"),
])
def test_bad_options(kwargs, message):
    rng = np.random.default_rng(6)
    a, b, w, la, lb = _simulate(rng, 200)
    with pytest.raises(InvalidInputError, match=message):
        bradley_terry_style(a, b, w, la, lb, rank_sets=False, **kwargs)


def test_negative_style_value_refused():
    with pytest.raises(InvalidInputError, match="negative"):
        relative_differences([1, -2], [3, 4])


def test_swapping_sides_keeps_everything():
    rng = np.random.default_rng(7)
    a, b, w, la, lb = _simulate(rng, 800, ties=0.1)
    res = bradley_terry_style(a, b, w, la, lb, rank_sets=False)
    flip = np.where(w == "a", "b", np.where(w == "b", "a", "tie"))
    swapped = bradley_terry_style(b, a, flip, lb, la, rank_sets=False)
    np.testing.assert_allclose(swapped.ratings, res.ratings, atol=1e-9)
    np.testing.assert_allclose(swapped.coefficients, res.coefficients, atol=1e-10)
    np.testing.assert_allclose(swapped.covariance, res.covariance, atol=1e-10)


def test_frequency_weights_equal_repeated_rows():
    rng = np.random.default_rng(8)
    a, b, w, la, lb = _simulate(rng, 400)
    k = rng.integers(1, 4, len(a))
    weighted = bradley_terry_style(a, b, w, la, lb, weights=k, rank_sets=False)
    rep = [np.repeat(v, k) for v in (a, b, w, la, lb)]
    repeated = bradley_terry_style(*rep, rank_sets=False)
    np.testing.assert_allclose(weighted.ratings, repeated.ratings, atol=1e-9)
    np.testing.assert_allclose(weighted.covariance, repeated.covariance, atol=1e-12)


def test_penalised_sandwich_by_finite_differences():
    """The sandwich with l2 > 0 from an independent dense computation: the bread is the
    finite-difference Jacobian of the per-battle estimating functions' sum, the meat the
    outer products of psi_b = (y_b - p_b) x_b - l2 (0, beta) at the fitted values."""
    rng = np.random.default_rng(9)
    a, b, w, la, lb = _simulate(rng, 600, ties=0.1)
    l2 = 0.7
    res = bradley_terry_style(a, b, w, la, lb, l2=l2, rank_sets=False)
    x = relative_differences(la, lb)
    x = (x - x.mean()) / x.std()
    m, n = 5, len(a)
    ia, ib = np.searchsorted(NAMES, a), np.searchsorted(NAMES, b)
    design = np.zeros((n, m + 1))
    design[np.arange(n), ia] += 1.0
    design[np.arange(n), ib] -= 1.0
    design[:, m] = x[:, 0]
    y = np.where(w == "a", 1.0, np.where(w == "b", 0.0, 0.5))
    free = np.arange(1, m + 1)

    def psi(theta_free):
        th = np.concatenate([[0.0], theta_free])
        pen = np.zeros(m + 1)
        pen[m] = l2 * th[m]
        return ((y - expit(design @ th))[:, None] * design - pen)[:, free]

    theta = np.concatenate([res.abilities, res.coefficients])[free]
    assert np.max(np.abs(psi(theta).sum(axis=0))) < 1e-8          # the estimating equation
    h = 1e-6
    jac = np.column_stack([(psi(theta + h * e).sum(0) - psi(theta - h * e).sum(0)) / (2 * h)
                           for e in np.eye(m)])
    bread = np.linalg.inv(-jac)
    s = psi(theta)
    expected = bread @ (s.T @ s) @ bread
    np.testing.assert_allclose(res.covariance[1:, 1:], expected, rtol=1e-5, atol=1e-10)


def test_length_effect_recovered_within_interval():
    rng = np.random.default_rng(10)
    a, b, w, la, lb = _simulate(rng, 6000, beta=(0.8,))
    res = bradley_terry_style(a, b, w, la, lb, features=["length"], rank_sets=False)
    # standardisation: the coefficient per sd of d; the truth 0.8 per 0.0408 of d
    truth = 0.8 / 0.0408 * res.feature_sd[0]
    assert res.coefficient_low[0] <= truth <= res.coefficient_high[0]
    assert res.coefficient_standard_error[0] < 0.05


def test_rank_sets_of_the_controlled_ratings():
    rng = np.random.default_rng(11)
    a, b, w, la, lb = _simulate(rng, 3000, skill=(0.0, 0.0, 1.0, 2.0, 3.0))
    res = bradley_terry_style(a, b, w, la, lb, rank_sets=True, n_resamples=500)
    sets = res.rank_sets
    np.testing.assert_allclose(sets.estimate, res.ratings, atol=1e-6)
    # the linearised estimator's bootstrap: standard errors those of the sandwich
    # (times sqrt(n / (n - 1)), the plug-in factor of rank_sets)
    np.testing.assert_allclose(sets.standard_error, res.rating_standard_error
                               * np.sqrt(3000 / 2999), rtol=1e-6)
    top = int(np.argmax(res.ratings))
    assert sets.simultaneous[top].tolist() == [1, 1]


@pytest.mark.slow
def test_coverage_of_coefficient_and_ratings():
    """400 simulated leaderboards: the 95% intervals of the length coefficient and of a
    rating difference cover the truth at about 0.95 (binomial sd ~ 0.011)."""
    rng = np.random.default_rng(12)
    skill = np.array([0.0, 0.3, -0.2, 0.5, 0.1])
    a, b, w, la, lb = _simulate(rng, 1500, reps=400, skill=skill)
    cover_beta, cover_gap = [], []
    for r in range(400):          # one fit per simulated data set
        res = bradley_terry_style(a[r], b[r], w[r], la[r], lb[r], rank_sets=False,
                                  standardize_features=False)
        truth = 0.8 / 0.0408
        cover_beta.append(res.coefficient_low[0] <= truth <= res.coefficient_high[0])
        gap = (res.abilities[3] - res.abilities[0])
        se = np.sqrt(res.covariance[3, 3])
        cover_gap.append(abs(gap - (skill[3] - skill[0])) <= 1.96 * se)
    print("coverage beta", np.mean(cover_beta), "gap", np.mean(cover_gap))
    assert np.mean(cover_beta) >= 0.92
    assert np.mean(cover_gap) >= 0.92


def test_elo_scale():
    rng = np.random.default_rng(13)
    a, b, w, la, lb = _simulate(rng, 800)
    res = bradley_terry_style(a, b, w, la, lb, anchor="m2", anchor_rating=1114.0,
                              rank_sets=False)
    i = list(res.models).index("m2")
    assert res.ratings[i] == pytest.approx(1114.0)
    np.testing.assert_allclose(np.diff(res.ratings), ELO_PER_LOGIT * np.diff(res.abilities))
