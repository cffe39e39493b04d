"""Mid-p McNemar at n01 = n10 (issue 25): 1 - f/2, not 1.

Fagerland, Lydersen & Laake (2013), BMC Med. Res. Methodol. 13: 91, and their R package
contingencytables (``McNemar_midP_test_paired_2x2``: ``if (n[1, 2] == n[2, 1]) midP <- 1 -
0.5 * dbinom(n[1, 2], n[1, 2] + n[2, 1], 0.5)``): at a tie the observed count is the only
one as extreme as itself, so the mid-p value is 1 - f/2 with f = P(X = n01),
X ~ Binomial(n01 + n10, 1/2). The peer below is scipy.stats.binom.pmf.
"""
import numpy as np
import pytest
from scipy import stats

from outperform.stats import mcnemar
from outperform.stats._mcnemar import exact_pvalues


@pytest.mark.parametrize("m", [1, 2, 3, 6, 10, 50, 400])
def test_tie_is_one_minus_half_point_probability(m):
    expected = 1 - 0.5 * stats.binom.pmf(m, 2 * m, 0.5)   # scipy peer
    assert mcnemar(m, m, method="midp").pvalue == pytest.approx(expected, rel=1e-12)
    assert mcnemar(m, m, method="midp").pvalue < 1.0


def test_one_one_is_three_quarters():
    # n = 2, f = P(X = 1) = 1/2 exactly: 1 - 1/4.
    assert mcnemar(1, 1, method="midp").pvalue == pytest.approx(0.75, abs=1e-15)


def test_vectorised_ties_and_non_ties():
    n01 = np.array([4, 3, 0, 7])
    n10 = np.array([4, 9, 0, 2])
    got = exact_pvalues(n01, n10, mid=True)
    n = n01 + n10
    low = np.minimum(n01, n10)
    expected = np.minimum(1.0, 2 * (stats.binom.cdf(low, n, 0.5)
                                    - 0.5 * stats.binom.pmf(low, n, 0.5)))
    expected[0] = 1 - 0.5 * stats.binom.pmf(4, 8, 0.5)
    expected[2] = 1.0          # no discordant pair: as the exact test
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_exact_test_unchanged_at_ties():
    # The exact conditional test stays 1 at a tie (R binom.test(5, 10)$p.value == 1).
    assert mcnemar(5, 5).pvalue == 1.0


def test_one_sided_tie_unchanged():
    # One-sided: P(X < m) + P(X = m)/2 = 1/2 at a tie, by symmetry.
    assert mcnemar(5, 5, method="midp", alternative="greater").pvalue == pytest.approx(0.5)
