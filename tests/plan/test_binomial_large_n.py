"""Plans on counts at any n in bounded memory (issue 31, "Costed before it starts"): past an
exact limit the sign test and McNemar's test use a normal approximation, stated in the
result, instead of nan (sign test at n = 1e16) or an enumeration that the kernel killed at
19 GB (McNemar at n = 1e16)."""
import math

import numpy as np
import pytest
from scipy import stats

from outperform.plan import mcnemar_power, sign_test_power
from outperform.plan._binomial import (EXACT_COUNTS, EXACT_TRIALS, _normal_binomial_test_power,
                                       binomial_test_power, exact_counts)


@pytest.mark.parametrize("m", [10**6, 10**9, 10**12])
@pytest.mark.parametrize("shift", [0.0, 1.0, 3.0])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_normal_route_matches_scipys_exact_binomial_where_both_run(m, shift, alternative):
    # peer: scipy.stats.binom (ppf/cdf/sf at m trials), through the exact route below the limit
    q = 0.5 + shift / math.sqrt(m)
    exact = float(binomial_test_power(m, q, 0.05, alternative))
    level = 0.025 if alternative == "two-sided" else 0.05
    normal = float(_normal_binomial_test_power(np.array([float(m)]), np.array([q]), level,
                                               alternative)[0])
    assert normal == pytest.approx(exact, abs=1e-6)


def test_sign_test_past_the_exact_limit_is_a_number_and_says_it_is_approximate():
    n = 10**16
    assert n > EXACT_TRIALS
    res = sign_test_power(p_win=0.5 + 1e-8, n=n)
    # z = 2 (p - 1/2) sqrt(n) = 2: power = Phi(2 - 1.96) + Phi(-2 - 1.96) (normal tails)
    z = stats.norm.isf(0.025)
    expected = stats.norm.cdf(2 - z) + stats.norm.cdf(-2 - z)
    assert res.power == pytest.approx(expected, abs=1e-6)
    assert "normal approximation" in res.approximation
    assert sign_test_power(p_win=0.6, n=100).approximation is None


def test_mcnemar_at_huge_n_is_connors_two_tailed_normal_and_says_so():
    psi, delta, n = 0.1, 2e-8, 10**16
    assert exact_counts(n, psi) > EXACT_COUNTS
    for method in ("exact", "connor"):
        res = mcnemar_power(accuracy_a=0.8 + delta, accuracy_b=0.8, discordance=psi, n=n,
                            method=method)
        # Connor (1987): Phi((|delta| sqrt(n) - z sqrt(psi)) / sqrt(psi - delta^2)) + lower tail
        z, sd = stats.norm.isf(0.025), math.sqrt(psi - delta ** 2)
        upper = stats.norm.cdf((delta * math.sqrt(n) - z * math.sqrt(psi)) / sd)
        lower = stats.norm.cdf((-delta * math.sqrt(n) - z * math.sqrt(psi)) / sd)
        assert res.power == pytest.approx(upper + (lower if method == "exact" else 0), abs=1e-9)
        assert res.approximation is not None and "discordant counts" in res.approximation
        assert "exact_power" not in res.details


@pytest.mark.slow
@pytest.mark.parametrize("delta", [2e-5, 4e-5, 6e-5])
def test_exact_mcnemar_just_below_the_limit_agrees_with_connor_above_it(delta):
    # continuity at the switch (property): n psi (1 - psi) = 3.6e7, 88,201 counts enumerated
    psi, n = 0.1, 4 * 10**8
    assert exact_counts(n, psi) <= EXACT_COUNTS
    exact = mcnemar_power(accuracy_a=0.8 + delta, accuracy_b=0.8, discordance=psi, n=n,
                          method="exact")
    assert exact.approximation is None
    z, sd = stats.norm.isf(0.025), math.sqrt(psi - delta ** 2)
    connor = (stats.norm.cdf((delta * math.sqrt(n) - z * math.sqrt(psi)) / sd)
              + stats.norm.cdf((-delta * math.sqrt(n) - z * math.sqrt(psi)) / sd))
    assert exact.power == pytest.approx(connor, abs=1e-4)
