"""Bayesian assurance by change points (plan/_assurance.py) against the decision of every
(n01, n10) cell, and at leaderboard-sized n (issue 31, item 3)."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from outperform.bayes import bayesian_mcnemar, decide, phi_posterior_regions
from outperform.plan import mcnemar_assurance

DECISIONS = ("A better", "B better", "practically equivalent", "undecided")


def _every_cell(n, accuracy_a, accuracy_b, psi, prior=(1.0, 1.0), rope=None, threshold=0.95):
    """P(decision): every (d, n01) cell decided by the bayes kernels, weighted by
    Bin(d; n, psi) Bin(n01; d, q01) — the enumeration, written here independently."""
    q01 = (psi - (accuracy_a - accuracy_b)) / (2 * psi)
    d = np.arange(stats.binom.ppf(1e-15, n, psi), stats.binom.isf(1e-15, n, psi) + 1)
    d_grid, n01 = np.meshgrid(d, np.arange(d[-1] + 1), indexing="ij")
    inside = n01 <= d_grid
    weight = np.where(inside, stats.binom.pmf(d_grid, n, psi) * stats.binom.pmf(n01, d_grid, q01),
                      0.0)
    n01 = np.where(inside, n01, 0)
    r = phi_posterior_regions(n01, np.where(inside, d_grid - n01, 0), prior=prior, rope=rope)
    decision = decide(r["p_left"], r["p_rope"], r["p_right"], a_better_side="left",
                      threshold=threshold)
    return {name: float(weight[decision == name].sum()) for name in DECISIONS}


@pytest.mark.parametrize("n, a, b, psi, kwargs", [
    (5000, 0.80, 0.79, 0.10, {}),                                   # about 300 discordant counts
    pytest.param(5000, 0.70, 0.70, 0.20, {}, marks=pytest.mark.slow),   # equivalence likely
    pytest.param(4000, 0.75, 0.77, 0.15, {"rope": 0.08, "threshold": 0.9}, marks=pytest.mark.slow),
    pytest.param(3000, 0.60, 0.58, 0.30, {"prior": (0.5, 2.0)}, marks=pytest.mark.slow),
    (300, 0.90, 0.85, 0.10, {}),
])
def test_change_points_equal_every_cell(n, a, b, psi, kwargs):
    expected = _every_cell(n, a, b, psi, **kwargs)
    got = mcnemar_assurance(n=n, accuracy_a=a, accuracy_b=b, discordance=psi, **kwargs)
    for name in DECISIONS:
        assert got.probabilities[name] == pytest.approx(expected[name], abs=1e-10)
    if (a, b) == (0.70, 0.70):
        assert expected["practically equivalent"] > 0.5


def test_a_small_case_equals_bayesian_mcnemar_cell_by_cell():
    n, a, b, psi = 40, 0.8, 0.7, 0.3
    q01 = (psi - (a - b)) / (2 * psi)
    expected = dict.fromkeys(DECISIONS, 0.0)
    for d in range(n + 1):
        for k in range(d + 1):
            w = stats.binom.pmf(d, n, psi) * stats.binom.pmf(k, d, q01)
            expected[bayesian_mcnemar(k, d - k, threshold=0.9).decision] += w
    got = mcnemar_assurance(n=n, accuracy_a=a, accuracy_b=b, discordance=psi, threshold=0.9)
    for name in DECISIONS:
        assert got.probabilities[name] == pytest.approx(expected[name], abs=1e-10)


@pytest.mark.slow
def test_a_hundred_million_examples_in_bounded_work():
    """n = 10^8 (issue 31): about 42,000 discordant counts, not the 10^9-cell grid."""
    got = mcnemar_assurance(n=10**8, accuracy_a=0.80, accuracy_b=0.79, discordance=0.10)
    assert sum(got.probabilities.values()) == pytest.approx(1.0, abs=1e-9)
    # a 1-point difference with 10^7 discordant examples: phi's posterior sd is ~1.6e-4 and
    # its mean 0.45, at the edge of Williams' ROPE [0.45025, 0.54975]: "A better" or
    # undecided, never "B better"
    assert got.probabilities["B better"] == 0.0
    assert got.probabilities["A better"] > 0.4
