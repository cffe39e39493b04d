"""Simulations of the gate (slow): on A/A data its false-regression rate is at most α, and at
the number of items its plan asks for its power is that of the plan, within Monte Carlo
error. The decisions are the gate's own, for all simulated data sets at once
(compare/_gate_aa.gate_pvalues, equal to gate() row by row: tests/compare/test_gate_decisions.py)."""
import math

import numpy as np
import pytest

from outperform.compare._gate_aa import gate_pvalues
from outperform.plan import gate_sample_size, mcnemar_power, paired_ttest_power

pytestmark = pytest.mark.slow
ALPHA, R = 0.05, 4000


def _binary_differences(rng, n, psi, delta):
    """R data sets of n items: d = +1 (candidate right, baseline wrong) with probability
    (ψ + δ)/2, −1 with (ψ − δ)/2, else 0; δ = true candidate − baseline."""
    u = rng.random((R, n))
    return np.where(u < (psi + delta) / 2, 1.0, np.where(u < psi, -1.0, 0.0))


def _mc(p):
    return 3.5 * math.sqrt(p * (1 - p) / R)


@pytest.mark.parametrize("margin", [None, 0.02])
def test_false_regressions_on_aa_data_at_most_alpha(margin):
    rng = np.random.default_rng(11)
    d = _binary_differences(rng, 800, 0.08, 0.0)
    p_reg, _ = gate_pvalues(d, binary=True, margin=margin)
    rate = float(np.mean(p_reg < ALPHA))
    print(f"A/A 0/1 scores, margin {margin}: false-regression rate {rate:.4f}")
    assert rate <= ALPHA + _mc(ALPHA)
    g = rng.normal(0, 0.3, (R, 300))                   # graded scores, no change
    rate = float(np.mean(gate_pvalues(g, binary=False, margin=margin)[0] < ALPHA))
    assert rate <= ALPHA + _mc(ALPHA)
    if margin is None:
        assert rate >= ALPHA - _mc(ALPHA)              # the t-test is exact here: = α


def test_false_passes_at_the_margin_at_most_alpha():
    rng = np.random.default_rng(12)
    d = _binary_differences(rng, 1500, 0.10, -0.02)    # true loss = the margin
    _, p_pass = gate_pvalues(d, binary=True, margin=0.02)
    assert float(np.mean(p_pass < ALPHA)) <= ALPHA + _mc(ALPHA)


def test_power_at_the_planned_n_is_the_plans():
    psi, delta = 0.10, 0.03
    plan = gate_sample_size(margin=delta, discordance=psi, alpha=ALPHA, power=0.8)
    n = int(plan["regression"].n)
    # the plan's exact power at that n (the exact conditional test, summed over Bin(n, ψ))
    exact = mcnemar_power(accuracy_a=0.5 + delta, accuracy_b=0.5, discordance=psi, n=n,
                          alpha=ALPHA, alternative="greater", method="exact").power
    rng = np.random.default_rng(13)
    d = _binary_differences(rng, n, psi, -delta)       # a true regression of δ
    power = float(np.mean(gate_pvalues(d, binary=True)[0] < ALPHA))
    print(f"n = {n}: simulated power {power:.4f}, exact plan {exact:.4f}")
    assert plan["regression"].power == pytest.approx(exact)     # the plan is the exact test
    assert abs(power - exact) <= _mc(exact) and exact >= 0.8


def test_power_of_the_graded_gate_at_its_planned_n():
    sd, delta = 0.25, 0.04
    plan = gate_sample_size(margin=delta, sd=sd, alpha=ALPHA, power=0.8)
    n = int(plan["regression"].n)
    rng = np.random.default_rng(14)
    d = rng.normal(-delta, sd, (R, n))
    power = float(np.mean(gate_pvalues(d, binary=False)[0] < ALPHA))
    want = paired_ttest_power(effect=delta / sd, n=n, alpha=ALPHA, alternative="greater").power
    assert abs(power - want) <= _mc(want)
    # and non-inferiority at d = 0: the pass rate at the n the plan gives for it
    n_ni = int(plan["noninferiority"].n)
    d0 = rng.normal(0.0, sd, (R, n_ni))
    passed = float(np.mean(gate_pvalues(d0, binary=False, margin=delta)[1] < ALPHA))
    assert abs(passed - plan["noninferiority"].power) <= _mc(0.8)
