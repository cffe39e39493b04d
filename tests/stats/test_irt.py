"""Rasch and 2PL item response models (stats/_irt.py): recovery of simulated abilities with
missing cells, the joint maximum likelihood estimate against one computed independently here
(scipy.optimize.minimize on the complete matrix), and the abilities against R's eRm."""
import warnings

import numpy as np
import pytest
from scipy import optimize, special

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import fit_irt


def _simulate(m, n, seed, missing=0.0, b_sd=1.0, two=False):
    rng = np.random.default_rng(seed)
    theta, b = rng.normal(0, 1, m), rng.normal(0, b_sd, n)
    a = np.exp(rng.normal(0, 0.3, n)) if two else np.ones(n)
    x = (rng.random((m, n)) < special.expit(a * (theta[:, None] - b))).astype(float)
    x[rng.random((m, n)) < missing] = np.nan
    return x, theta, b, a


@pytest.mark.parametrize("seed", [0, 1])
def test_rasch_recovers_simulated_abilities_with_30_percent_missing(seed):
    x, theta, _, _ = _simulate(50, 300, seed, missing=0.3)
    assert 0.28 < np.isnan(x).mean() < 0.32
    fit = fit_irt(x)
    r = np.corrcoef(fit["ability"], theta)[0, 1]
    print(f"seed {seed}: correlation of estimated and true abilities {r:.4f}")
    assert r > 0.95
    assert fit["converged"]


def test_rasch_intervals_cover_the_simulated_abilities():
    # 60 models x 400 items, 30% missing: the 95% intervals of the penalised fit (prior sd 3,
    # nearly flat) hold the true ability (shifted by the mean of the difficulties, which
    # fixes the origin) for about 95% of the models.
    x, theta, b, _ = _simulate(60, 400, 5, missing=0.3)
    fit = fit_irt(x)
    shift = np.mean(fit["ability"] - theta)
    covered = np.mean((fit["low"] - shift <= theta) & (theta <= fit["high"] - shift))
    print(f"coverage {covered:.3f}")
    assert covered >= 0.88          # 60 models: 0.95 - 2.5 binomial sd (0.028)


def _independent_jml(x):
    """Joint ML of the Rasch model written independently of outperform: difficulties with
    b_n = -(b_1 + ... + b_{n-1}) (mean 0), BFGS on the plain log-likelihood."""
    m, n = x.shape

    def nll(v):
        theta = v[:m]
        b = np.append(v[m:], -v[m:].sum())
        eta = theta[:, None] - b
        return np.sum(np.logaddexp(0, eta) - x * eta)

    res = optimize.minimize(nll, np.zeros(m + n - 1), method="BFGS",
                            options={"gtol": 1e-10, "maxiter": 10000})
    return res.x[:m], np.append(res.x[m:], -res.x[m:].sum())


def test_rasch_joint_ml_equals_an_independent_minimisation_on_a_complete_matrix():
    x, _, _, _ = _simulate(15, 25, 3, b_sd=0.6)
    assert not np.isnan(x).any()
    rows, cols = x.sum(axis=1), x.sum(axis=0)
    assert rows.min() > 0 and rows.max() < 25 and cols.min() > 0 and cols.max() < 15
    theta, b = _independent_jml(x)
    fit = fit_irt(x, prior_sd=None)
    np.testing.assert_allclose(fit["ability"], theta, atol=1e-4)
    np.testing.assert_allclose(fit["difficulty"], b, atol=1e-4)
    assert fit["difficulty"].mean() == pytest.approx(0.0, abs=1e-12)


# R 4.x, eRm 1.0-2 (Debian r-cran-erm), on the 30 x 40 matrix of _simulate(30, 40, 7,
# b_sd=0.8) written to x.csv (np.savetxt(..., fmt="%d", delimiter=",")):
#   library(eRm); x <- as.matrix(read.csv("x.csv", header=FALSE)); fit <- RM(x)
#   pp <- person.parameter(fit)
#   pp$thetapar$NAgroup1; pp$se.theta$NAgroup1; -fit$betapar   (difficulties, sum 0)
# RM: conditional ML of the items; person.parameter: ML abilities given them.
ERM_THETA = np.array([-0.113480, -0.228509, -0.228509, -0.832318, -0.462384, -1.747301,
                      0.115493, 1.401076, -0.832318, -1.246311, 0.584209, 0.464248, 0.346551,
                      -0.832318, 0.115493, 1.102582, -1.566280, 0.230492, -2.446833, -0.705477,
                      -1.246311, -0.228509, -1.246311, 0.464248, 0.230492, 0.001011, -2.780692,
                      -0.462384, 0.115493, 0.230492])
ERM_SE = np.array([0.338630, 0.339817, 0.339817, 0.359223, 0.344671, 0.435948, 0.338603,
                   0.399011, 0.359223, 0.386188, 0.348314, 0.344560, 0.341732, 0.359223,
                   0.338603, 0.375125, 0.415610, 0.339761, 0.544278, 0.353261, 0.386188,
                   0.339817, 0.386188, 0.344560, 0.339761, 0.338228, 0.616021, 0.344671,
                   0.338603, 0.339761])
ERM_DIFFICULTY = np.array([-1.338665, 0.268857, 0.109401, -1.338635, 0.981905, -0.354398,
                           -0.046668, 0.605194, -0.046668, -0.824265, 0.268857, -0.200826,
                           -1.159257, -0.664811, 1.195601, -1.960609, 1.714631, -0.200826,
                           -0.354398, 1.714631, 0.433424, -0.200826, 0.109401, 0.433424,
                           -0.354398, 1.195601, -0.046668, 0.981905, -0.046668, 0.109401,
                           0.268857, -0.354398, 0.605194, -0.508638, -0.824265, 0.433424,
                           0.433424, 0.786827, -1.159257, -0.664811])


def test_rasch_abilities_agree_with_r_erm():
    x, _, _, _ = _simulate(30, 40, 7, b_sd=0.8)
    fit = fit_irt(x, prior_sd=None)
    n_items = x.shape[1]
    # Joint ML overstates the spread of the difficulties by n/(n-1) (Wright & Douglas 1977);
    # corrected, they are eRm's conditional ML estimates to the third decimal.
    np.testing.assert_allclose(fit["difficulty"] * (n_items - 1) / n_items, ERM_DIFFICULTY,
                               atol=0.01)
    # The abilities: eRm's ML given its conditional item estimates, ours joint: equal to
    # within the 1/n bias of joint ML (here 0.015 at most), and in the same order.
    np.testing.assert_allclose(fit["ability"], ERM_THETA, atol=0.02)
    assert np.corrcoef(fit["ability"], ERM_THETA)[0, 1] > 0.99999
    # eRm's standard errors hold the items fixed; ours include their uncertainty: a little
    # larger (0.4-0.6% here), never smaller.
    ratio = fit["se"] / ERM_SE
    assert ratio.min() >= 1.0 and ratio.max() < 1.02


@pytest.mark.slow
def test_2pl_recovers_abilities_and_discriminations():
    x, theta, _, a = _simulate(60, 400, 2, missing=0.3, two=True)
    fit = fit_irt(x, model="2pl")
    assert np.corrcoef(fit["ability"], theta)[0, 1] > 0.95
    assert np.corrcoef(np.log(fit["discrimination"]), np.log(a))[0, 1] > 0.3
    assert np.all(fit["se"] > 0) and np.all(fit["low"] < fit["high"])


def test_extreme_models_and_items_have_finite_penalised_estimates():
    x, _, _, _ = _simulate(10, 30, 4)
    x[0] = 1.0                          # a model right on everything
    x[:, 0] = 0.0                       # an item no model gets right
    fit = fit_irt(x)
    assert np.all(np.isfinite(fit["ability"])) and np.all(np.isfinite(fit["se"]))
    assert fit["ability"].argmax() == 0 and fit["difficulty"].argmax() == 0
    with pytest.raises(DegenerateDataError, match="item 0 has every answer wrong"):
        fit_irt(x, prior_sd=None)


@pytest.mark.parametrize("x, kwargs, error, match", [
    ([[1, 0.5], [0, 1]], {}, InvalidInputError, "graded scores are refused"),
    ([[1, 0, 1]], {}, TooFewError, "at least 2 models and 2 items"),
    ([[1], [0]], {}, TooFewError, "at least 2 models and 2 items"),
    ([[1, np.nan], [0, np.nan]], {}, TooFewError, "item 1 has no answered cell"),
    ([[1, 0], [0, 1]], {"model": "2pl", "prior_sd": None}, InvalidInputError, "needs prior_sd"),
    ([[1, 0], [0, 1]], {"model": "3pl"}, InvalidInputError, "'rasch' or '2pl'"),
])
def test_refusals(x, kwargs, error, match):
    with pytest.raises(error, match=match):
        fit_irt(np.array(x, dtype=float), **kwargs)


def test_no_warning_on_a_plain_fit():
    x, _, _, _ = _simulate(8, 20, 9)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fit_irt(x)


def _numerical_hessian(f, v, h=1e-4):
    """Central second differences of f at v (written here, independently of outperform)."""
    k = v.size
    e = np.eye(k) * h
    out = np.empty((k, k))
    for i in range(k):
        for j in range(i, k):
            out[i, j] = out[j, i] = (f(v + e[i] + e[j]) - f(v + e[i] - e[j])
                                     - f(v - e[i] + e[j]) + f(v - e[i] - e[j])) / (4 * h * h)
    return out


@pytest.mark.parametrize("prior_sd", [None, 2.0])
def test_ability_standard_errors_are_the_inverse_observed_information(prior_sd):
    # The Rasch model's observed information at the estimate, by finite differences of the
    # negative log-posterior (prior_sd) or of the negative log-likelihood with b_n = -sum of
    # the others (prior_sd=None), inverted whole: its diagonal gives the abilities' variances.
    x, _, _, _ = _simulate(8, 12, 11, b_sd=0.5)
    rows, cols = x.sum(axis=1), x.sum(axis=0)
    assert rows.min() > 0 and rows.max() < 12 and cols.min() > 0 and cols.max() < 8
    m, n = x.shape
    fit = fit_irt(x, prior_sd=prior_sd)

    def nll(v):
        theta = v[:m]
        b = v[m:] if prior_sd else np.append(v[m:], -v[m:].sum())
        eta = theta[:, None] - b
        out = np.sum(np.logaddexp(0, eta) - x * eta)
        return out + (0.5 * (theta @ theta + b @ b) / prior_sd ** 2 if prior_sd else 0.0)

    b_free = fit["difficulty"] if prior_sd else fit["difficulty"][:-1]
    hess = _numerical_hessian(nll, np.concatenate([fit["ability"], b_free]))
    se = np.sqrt(np.diag(np.linalg.inv(hess))[:m])
    np.testing.assert_allclose(fit["se"], se, rtol=1e-4)
