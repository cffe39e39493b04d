"""Friedman's test by its permutation distribution (stats._friedman_exact), against a brute
force enumeration and the published table of exact critical values."""

import numpy as np
import pytest
from scipy import stats

from outperform._validation import InvalidInputError
from outperform.stats import friedman, friedman_permutation
from outperform.stats._friedman_exact import _exact

from _peers import friedman_brute_force  # noqa: E402


@pytest.mark.parametrize("n, k, seed", [(3, 3, 0), (4, 3, 1), (3, 4, 2), (2, 5, 3),
                                        (3, 5, 4), (5, 3, 5), (4, 4, 6)])
def test_exact_equals_brute_force_with_ties(n, k, seed):
    x = np.random.default_rng(seed).integers(0, 3, (n, k)).astype(float)   # many ties
    if np.all(x == x[:, :1]):
        x[0, 0] += 1
    res = friedman_permutation(x)
    assert res.details["exact"]
    assert res.pvalue == pytest.approx(friedman_brute_force(x), abs=1e-12)
    # the statistic is Demšar's chi2_F, as friedman() gives it
    assert res.statistic == pytest.approx(friedman(x).statistic, rel=1e-12)


# Exact 5% critical values of Friedman's chi2_r, the smallest value with P(chi2_r >= c) <=
# 0.05 (Zar, Biostatistical Analysis, Table B.14; the same values in Hollander, Wolfe &
# Chicken 2014 Table A.22 and Siegel 1956 Table N): (k, n) -> c.
CRITICAL_05 = {(3, 3): 6.000, (3, 4): 6.500, (3, 5): 6.400, (3, 6): 7.000, (3, 7): 7.143,
               (3, 8): 6.250, (3, 9): 6.222, (3, 10): 6.200, (4, 2): 6.000, (4, 3): 7.400,
               (4, 4): 7.800, (4, 5): 7.800, (5, 3): 8.533, (6, 2): 9.143}


@pytest.mark.parametrize("k, n", sorted(CRITICAL_05))
def test_published_critical_values(k, n):
    c = CRITICAL_05[(k, n)]
    doubled = np.tile(2 * np.arange(1, k + 1, dtype=np.int64), (n, 1))   # no ties

    def tail(chi2):
        # chi2_r = 12 / (n k (k + 1)) sum R_j^2 - 3 n (k + 1), sum R_j^2 an integer without
        # ties (the table rounds chi2_r to 3 decimals); doubled ranks: 4 sum R_j^2
        s = round((chi2 + 3 * n * (k + 1)) * n * k * (k + 1) / 12)
        return _exact(doubled, 4 * s, budget=10**8)
    assert tail(c) <= 0.05
    # the next attainable value below (sum R_j^2 moves in steps of 2) is above 0.05
    step = 12 / (n * k * (k + 1)) * 2
    below = next(p for d in range(1, 50) if (p := tail(c - d * step)) > tail(c))
    assert below > 0.05


def test_small_example_and_chi_square_comparison():
    # three data sets ranking three models 1-2-3, 1-2-3, 1-3-2 (chi2_F = 4.667)
    x = [[3, 2, 1], [3, 2, 1], [3, 1, 2]]
    res = friedman_permutation(x)
    assert res.pvalue == pytest.approx(friedman_brute_force(x), abs=1e-12)
    assert res.details["chi2_pvalue"] == pytest.approx(stats.chi2.sf(res.statistic, 2))


def test_monte_carlo_agrees_with_exact_within_its_error():
    x = np.random.default_rng(11).normal(size=(4, 5))
    exact = friedman_permutation(x)
    mc = friedman_permutation(x, exact=False, n_resamples=20_000, random_state=1)
    assert exact.details["exact"] and not mc.details["exact"]
    assert abs(mc.pvalue - exact.pvalue) < 4 * mc.details["mc_standard_error"] + 1e-4


def test_options_are_checked():
    with pytest.raises(InvalidInputError, match="n_resamples"):
        friedman_permutation([[1, 2, 3], [3, 2, 1]], n_resamples=0)
    with pytest.raises(InvalidInputError, match="too large to enumerate"):
        friedman_permutation(np.random.default_rng(0).normal(size=(10, 10)), exact=True)
