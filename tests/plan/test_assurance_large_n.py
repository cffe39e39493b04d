"""Bayesian McNemar assurance at any n in constant memory (issue 31): past EXACT_ROWS
discordant counts the sum over D ~ Bin(n, psi) is a midpoint rule over QUADRATURE_NODES
counts weighted by its normal approximation, said in the result; beyond 2^53 counts, a
refusal naming n (before: n = 1e16 refused as needing 441 GB)."""
import math

import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.plan import mcnemar_assurance
from outperform.plan._assurance import EXACT_ROWS, _decision_probabilities, _quadrature

PSI, ROPE, Z95 = 0.1, 1e-4, stats.norm.ppf(0.95)


def _delta(n, shift):
    """Accuracy difference putting phi = 1/2 - ROPE - shift x its posterior sd at n."""
    se = 0.5 / math.sqrt(n * PSI)
    return 2 * PSI * (shift * se + ROPE)


@pytest.mark.slow
@pytest.mark.parametrize("shift", [0.0, 1.645, 2.5])
def test_large_sample_limit_of_a_better_is_normal_theory(shift):
    # Property (large-sample limit): the posterior of phi is N(phi_hat, phi(1-phi)/d), so
    # "A better" (P(phi < 1/2 - rope) >= 0.95) holds iff phi_hat <= phi + (shift - z) se:
    # probability Phi(shift - z_0.95).
    n = 10**12
    res = mcnemar_assurance(n=n, accuracy_a=0.8 + _delta(n, shift), accuracy_b=0.8,
                            discordance=PSI, rope=ROPE)
    assert res.probabilities["A better"] == pytest.approx(stats.norm.cdf(shift - Z95), abs=2e-3)
    assert sum(res.probabilities.values()) == pytest.approx(1.0, abs=1e-9)
    assert "midpoint rule" in res.details["approximation"]
    assert "Note: " in str(res)


@pytest.mark.slow
@pytest.mark.parametrize("shift", [0.0, 1.0, 2.5])
def test_quadrature_agrees_with_the_exact_sum_where_both_run(shift):
    # the exact sum is checked against the enumeration of every (n01, n10) cell in
    # tests/plan/test_assurance.py; here the two routes on the same design (19,000 counts;
    # the normal weights' error shrinks like the skewness of Bin(n, psi), 1 / sqrt(n psi))
    n = 2 * 10**7
    delta = _delta(n, shift)
    exact, _ = _decision_probabilities(n, delta, PSI, (1.0, 1.0), ROPE, 0.95)
    d, weight = _quadrature(n, PSI)
    approx, _ = _decision_probabilities(n, delta, PSI, (1.0, 1.0), ROPE, 0.95, d=d,
                                        weight=weight)
    np.testing.assert_allclose(approx, exact, atol=2e-6)


def test_exact_below_the_limit_says_nothing_and_huge_counts_are_refused():
    small = mcnemar_assurance(n=1000, accuracy_a=0.85, accuracy_b=0.8, discordance=PSI)
    assert "approximation" not in small.details and "Note" not in str(small)
    assert 14.7 * math.sqrt(1000 * PSI * (1 - PSI)) < EXACT_ROWS
    with pytest.raises(InvalidInputError, match=r"2\^53\); use n \(--n\) <= "):
        mcnemar_assurance(n=10**17, accuracy_a=0.85, accuracy_b=0.8, discordance=PSI)
