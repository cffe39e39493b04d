"""The power of a regression gate (plan/_gate.py), and the vLLM example of issue 26: a
point-threshold gate (fail if measured < expected − 0.08, p = 0.88, n = 1,319) beside the
paired gate at the same n. Every number is recomputed here with scipy or a formula written
in the test."""
import math

import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.plan import (gate_power, gate_sample_size, threshold_gate_fail_probability)

N, P, TOL = 1319, 0.88, 0.08      # vLLM's GSM8K gate (issue 26)


def test_vllm_standard_error_is_what_the_issue_says():
    se = math.sqrt(P * (1 - P) / N)
    assert se == pytest.approx(0.0089, abs=5e-5) and TOL / se == pytest.approx(8.9, abs=0.1)


def test_point_threshold_gate_against_a_fixed_expected_value():
    # fail iff X / n < 0.80, X ~ Bin(1319, p): X <= 1055 (0.80 x 1319 = 1055.2)
    power = threshold_gate_fail_probability(n=N, true_accuracy=0.83, tolerance=TOL, expected=P)
    assert power == pytest.approx(stats.binom.cdf(1055, N, 0.83), rel=1e-10)
    # normal approximation: z = (0.80 - 0.83) / sqrt(0.83 x 0.17 / 1319) = -2.90, Φ(z) = 0.0019
    z = (0.80 - 0.83) / math.sqrt(0.83 * 0.17 / N)
    assert power == pytest.approx(stats.norm.cdf(z), abs=0.001)
    assert power < 0.01                          # "caught with probability well under 1%"
    false_fail = threshold_gate_fail_probability(n=N, true_accuracy=P, tolerance=TOL,
                                                 expected=P)
    assert false_fail == pytest.approx(stats.binom.cdf(1055, N, P), rel=1e-8) and false_fail < 1e-12


def test_point_threshold_gate_unpaired_two_measured_builds():
    # fail iff X_c - X_b < -105.52, X_c ~ Bin(n, .83), X_b ~ Bin(n, .88) independent
    b = np.arange(N + 1)
    exact = float(np.sum(stats.binom.pmf(b, N, P) * stats.binom.cdf(b - 106, N, 0.83)))
    power = threshold_gate_fail_probability(n=N, true_accuracy=0.83, tolerance=TOL,
                                            baseline_accuracy=P)
    assert power == pytest.approx(exact, rel=1e-9)
    # normal approximation: sd = sqrt((.83 x .17 + .88 x .12) / 1319) = 0.01368, z = -2.19
    z = (-TOL + 0.05) / math.sqrt((0.83 * 0.17 + P * (1 - P)) / N)
    assert power == pytest.approx(stats.norm.cdf(z), abs=0.002)
    # identical builds: negligible false fails at 0.08, but a hand-tightened 0.01 fails
    # unchanged builds often: z = -0.01 / sqrt(2 x .88 x .12 / 1319) = -0.79, Φ = 0.21
    tight = threshold_gate_fail_probability(n=N, true_accuracy=P, tolerance=0.01,
                                            baseline_accuracy=P)
    assert tight == pytest.approx(stats.norm.cdf(-0.01 / math.sqrt(2 * P * (1 - P) / N)),
                                  abs=0.01)
    assert tight > 0.15


def _connor_power(delta, psi, n, alpha):
    # Connor (1987): Φ((δ √n − z_α √ψ) / √(ψ − δ²)), one-sided
    return stats.norm.cdf((delta * math.sqrt(n) - stats.norm.isf(alpha) * math.sqrt(psi))
                          / math.sqrt(psi - delta ** 2))


def _exact_mcnemar_power(delta, psi, n, alpha):
    # the exact one-sided conditional test summed over m ~ Bin(n, ψ) discordant items; among
    # them the candidate is the one wrong with probability q = (ψ + δ) / (2ψ)
    m = np.arange(n + 1)
    crit = stats.binom.isf(alpha, m, 0.5) + 1          # smallest x with P(Bin(m,.5) >= x) <= α
    crit = np.where(stats.binom.sf(crit - 2, m, 0.5) <= alpha, crit - 1, crit)
    q = (psi + delta) / (2 * psi)
    return float(np.sum(stats.binom.pmf(m, n, psi) * stats.binom.sf(crit - 1, m, q)))


def test_paired_gate_at_the_same_n_with_ten_percent_discordant_items():
    r = gate_power(binary=True, n=N, alpha=0.05, margin=0.05, discordance=0.10,
                   baseline_rate=P)
    assert r["power_at_margin"] == pytest.approx(_connor_power(0.05, 0.10, N, 0.05), rel=1e-9)
    assert r["power_at_margin"] > 0.999                 # against < 1% for the threshold gate
    assert _exact_mcnemar_power(0.05, 0.10, N, 0.05) > 0.999
    # its minimum detectable regression: the δ where Connor's power is 0.8
    m0 = r["mde_difference_test"]
    assert _connor_power(m0, 0.10, N, 0.05) == pytest.approx(0.8, abs=1e-6)
    assert 0.015 < m0 < 0.03
    # the exact test at that δ is close to 0.8 too (within the saw-tooth of the exact test)
    assert _exact_mcnemar_power(m0, 0.10, N, 0.05) == pytest.approx(0.8, abs=0.03)
    # with the margin, the gate tests d < −δ: it calls a regression from δ + m0 on
    assert r["mde"] == pytest.approx(0.05 + m0)


def test_graded_scores_use_the_noncentral_t():
    # statsmodels TTestPower().power(effect_size=0.1, nobs=500, alpha=0.05, alternative="larger")
    from statsmodels.stats.power import TTestPower

    r = gate_power(binary=False, n=500, alpha=0.05, margin=0.02, sd=0.2)
    assert r["power_at_margin"] == pytest.approx(
        TTestPower().power(effect_size=0.1, nobs=500, alpha=0.05, alternative="larger"))
    mde_d = TTestPower().solve_power(nobs=500, alpha=0.05, power=0.8, alternative="larger")
    assert r["mde_difference_test"] == pytest.approx(mde_d * 0.2, rel=1e-4)
    # the t-test of d + δ at a true d = −δ − mde: noncentrality (mde / sd) √n, the same power
    assert r["mde"] == pytest.approx(0.02 + mde_d * 0.2, rel=1e-4)
    # clustered: the design effect divides n
    rc = gate_power(binary=False, n=1000, alpha=0.05, margin=0.02, sd=0.2, design_effect=2.0)
    assert rc["power_at_margin"] == pytest.approx(r["power_at_margin"], rel=1e-9)


def test_items_needed_at_the_observed_difference():
    # observed d = -0.01 with margin 0.02: distance 0.01 from -δ, sd 0.2 -> n with the
    # normal approximation ((z_.95 + z_.8) x 0.2 / 0.01)^2 = 2473, the t a little more
    r = gate_power(binary=False, n=300, alpha=0.05, margin=0.02, sd=0.2, difference=-0.01)
    z = (stats.norm.isf(0.05) + stats.norm.isf(0.2)) * 0.2 / 0.01
    assert z ** 2 <= r["items_needed"] <= z ** 2 + 3


def test_sample_size_for_binary_and_graded_gates():
    r = gate_sample_size(margin=0.02, discordance=0.10)
    # the smallest n at which the exact one-sided McNemar test (computed here) reaches 0.8
    n = int(r["regression"].n)
    assert _exact_mcnemar_power(0.02, 0.10, n, 0.05) >= 0.8 > \
        _exact_mcnemar_power(0.02, 0.10, n - 1, 0.05)
    # a little above Connor's normal n = (z_α √ψ + z_β √(ψ − δ²))² / δ² = 1544
    connor = (stats.norm.isf(0.05) * math.sqrt(0.1) + stats.norm.isf(0.2)
              * math.sqrt(0.1 - 0.02 ** 2)) ** 2 / 0.02 ** 2
    assert math.ceil(connor) == 1544 and connor < n < 1.1 * connor
    # non-inferiority at d = 0: sd √ψ, normal approximation n = ((z_α + z_β) √ψ / δ)²
    n_ni = ((stats.norm.isf(0.05) + stats.norm.isf(0.2)) * math.sqrt(0.1) / 0.02) ** 2
    assert n_ni <= r["noninferiority"].n <= n_ni + 3


def test_repeats_shrink_the_within_item_variance():
    one = gate_sample_size(margin=0.05, sd=0.4)
    four = gate_sample_size(margin=0.05, sd=0.4, repeats=4, within_variance=0.12)
    assert four["sd"] == pytest.approx(math.sqrt(0.16 - 0.12 + 0.03))
    assert four["regression"].n < one["regression"].n
    with pytest.raises(InvalidInputError, match="within-variance"):
        gate_sample_size(margin=0.05, sd=0.4, repeats=4)
    with pytest.raises(InvalidInputError, match="one of them"):
        gate_sample_size(margin=0.05)
    with pytest.raises(InvalidInputError, match="positive"):
        gate_sample_size(margin=-0.05, sd=0.4)


def test_no_discordance_or_no_spread_is_said_not_computed():
    r = gate_power(binary=True, n=100, alpha=0.05, margin=0.05, discordance=0.0)
    assert r["mde"] is None and "no discordant item" in r["notes"][0]
    r = gate_power(binary=False, n=100, alpha=0.05, margin=0.05, sd=0.0)
    assert r["mde"] is None and "standard deviation 0" in r["notes"][0]
