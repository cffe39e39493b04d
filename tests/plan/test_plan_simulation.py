"""Planning (issue 17): each exact closed form against a simulation of the same design.

10,000 repetitions per design through ``outperform.simulate.power`` (common seeds, joblib
machinery), running the package's own tests on the simulated data; the closed-form power must
fall within 4 Monte Carlo standard errors of the rejection rate.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from outperform.plan import (
    corrected_ttest_power,
    mcnemar_power,
    paired_ttest_power,
    sign_test_power,
)
from outperform.simulate import power as simulated_power
from outperform.stats import corrected_resampled_ttest, mcnemar, paired_ttest, sign_test

M = 10_000


def _within_mc_error(closed_form, rate):
    se = math.sqrt(closed_form * (1 - closed_form) / M)
    assert abs(rate - closed_form) <= 4 * se, (closed_form, rate, se)


def _rate(test, generator, effect):
    table = simulated_power(test, generator, [effect], n_repetitions=M, random_state=17)
    return float(table["rejection_rate"].iloc[0])


@pytest.mark.slow
def test_paired_t_power_matches_simulation():
    def normal_pairs(d, rng):
        return rng.normal(d, 1.0, 20), np.zeros(20)

    _within_mc_error(paired_ttest_power(effect=0.5, n=20).power,
                     _rate(paired_ttest, normal_pairs, 0.5))


@pytest.mark.slow
def test_corrected_t_power_matches_simulation_of_exchangeable_fold_differences():
    r, k, rho, d = 3, 10, 0.1, 0.7

    def folds(effect, rng):
        # Equicorrelated normal differences (correlation rho): the model behind the correction.
        diff = effect + math.sqrt(rho) * rng.normal() + math.sqrt(1 - rho) * rng.normal(
            size=r * k)
        return diff, np.zeros(r * k)

    def test(a, b):
        return corrected_resampled_ttest(a, b, rho=rho)

    _within_mc_error(corrected_ttest_power(effect=d, runs=r, folds=k, rho=rho).power,
                     _rate(test, folds, d))


@pytest.mark.slow
def test_mcnemar_exact_power_matches_simulation_and_connor_is_close():
    n, psi, acc_b, acc_a = 300, 0.2, 0.70, 0.76

    def test_set(delta, rng):
        n10, n01, _ = rng.multinomial(n, [(psi + delta) / 2, (psi - delta) / 2, 1 - psi])
        return n01, n10

    rate = _rate(mcnemar, test_set, acc_a - acc_b)
    exact = mcnemar_power(accuracy_a=acc_a, accuracy_b=acc_b, discordance=psi, n=n,
                          method="exact")
    _within_mc_error(exact.power, rate)
    connor = mcnemar_power(accuracy_a=acc_a, accuracy_b=acc_b, discordance=psi, n=n)
    assert connor.details["exact_power"] == pytest.approx(exact.power, abs=1e-12)
    assert abs(connor.power - rate) < 0.05        # an approximation: close, not exact


@pytest.mark.slow
def test_sign_test_exact_power_matches_simulation():
    n, p = 24, 0.72

    def wins(p_win, rng):
        return np.where(rng.random(n) < p_win, 1.0, -1.0), np.zeros(n)

    _within_mc_error(sign_test_power(p_win=p, n=n).power, _rate(sign_test, wins, p))


@pytest.mark.slow
def test_auc_power_matches_simulated_delong_tests():
    # Exponential scores (Hanley & McNeil's Q1, Q2 are exact for them): positives ~ Exp(1),
    # negatives ~ Exp(rate lam) give AUC = lam / (1 + lam); the two models score
    # independently (correlation 0).
    from outperform.plan import auc_power
    from outperform.stats import delong_test

    n1 = n0 = 100
    y = np.r_[np.ones(n1, int), np.zeros(n0, int)]

    def two_models(auc_gap, rng):
        out = []
        for auc in (0.75 + auc_gap, 0.75):
            lam = auc / (1 - auc)
            out.append(np.r_[rng.exponential(1.0, n1), rng.exponential(1 / lam, n0)])
        return y, out[0], out[1]

    rate = _rate(delong_test, two_models, 0.1)
    planned = auc_power(auc_a=0.85, auc_b=0.75, n_positive=n1).power
    _within_mc_error(planned, rate)


def test_mcnemar_assurance_matches_simulated_bayesian_decisions():
    """10,000 simulated test sets in one batch, decided by the batched kernels behind
    bayesian_mcnemar (phi_posterior_regions, decide); that kernel equals bayesian_mcnemar on
    every table (test_plan.py's brute force), so this checks the enumeration's weights."""
    from outperform.bayes import decide, phi_posterior_regions
    from outperform.plan import mcnemar_assurance
    from outperform.simulate import seed_sequence

    n, psi, delta = 300, 0.2, 0.06
    rng = np.random.default_rng(seed_sequence(17))
    n10, n01, _ = rng.multinomial(n, [(psi + delta) / 2, (psi - delta) / 2, 1 - psi], size=M).T
    r = phi_posterior_regions(n01, n10)
    decisions = decide(r["p_left"], r["p_rope"], r["p_right"], a_better_side="left")
    planned = mcnemar_assurance(n=n, accuracy_a=0.76, accuracy_b=0.70, discordance=psi)
    for name, p in planned.probabilities.items():
        _within_mc_error(p, float(np.mean(decisions == name)))


@pytest.mark.slow
def test_wilcoxon_are_approximation_is_close_to_simulation():
    """The ARE figure is an approximation: at 30 normal pairs it stays within 0.02 of the
    simulated power of the signed-rank test (not within Monte Carlo error, and not claimed)."""
    from outperform.plan import wilcoxon_power
    from outperform.stats import wilcoxon

    def normal_pairs(d, rng):
        return rng.normal(d, 1.0, 30), np.zeros(30)

    rate = _rate(wilcoxon, normal_pairs, 0.5)
    assert abs(wilcoxon_power(effect=0.5, n=30).power - rate) < 0.02
