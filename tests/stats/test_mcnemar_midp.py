"""Mid-p McNemar test (Fagerland, Lydersen & Laake 2013)."""
import pytest
from scipy import stats

from outperform.stats import mcnemar


def test_published_example():
    # Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91, Table 1 example
    # (Bentur et al. 2009, airway hyper-responsiveness, n12 = 1, n21 = 7): exact conditional
    # P = 0.070, mid-p P = 0.039, asymptotic P = 0.034.
    assert round(mcnemar(1, 7).pvalue, 3) == 0.070
    assert round(mcnemar(1, 7, method="midp").pvalue, 3) == 0.039
    assert round(mcnemar(1, 7, method="chi2", correction=False).pvalue, 3) == 0.034


@pytest.mark.parametrize("n01, n10", [(3, 12), (10, 4), (0, 5), (6, 6), (25, 40)])
def test_formula(n01, n10):
    n, low = n01 + n10, min(n01, n10)
    # Fagerland et al. (2013) eq.: mid-p = 2 [sum_{x=0}^{low} C(n,x) / 2^n
    #                                        - C(n, low) / 2^(n+1)]
    expected = min(1.0, 2 * (stats.binom.cdf(low, n, 0.5) - 0.5 * stats.binom.pmf(low, n, 0.5)))
    if n01 == n10:   # issue 25: at a tie, 1 - f/2 (contingencytables' McNemar_midP_test_paired_2x2)
        expected = 1 - 0.5 * stats.binom.pmf(n01, n, 0.5)
    assert mcnemar(n01, n10, method="midp").pvalue == pytest.approx(expected, rel=1e-12)
    # One-sided "greater" (A better, n01 small): P(X < n01) + P(X = n01) / 2.
    one = stats.binom.cdf(n01 - 1, n, 0.5) + 0.5 * stats.binom.pmf(n01, n, 0.5)
    assert mcnemar(n01, n10, method="midp", alternative="greater").pvalue == pytest.approx(
        one, rel=1e-12, abs=1e-300)
    assert mcnemar(n01, n10, method="midp").pvalue <= mcnemar(n01, n10).pvalue


def test_published_cavo_example():
    # Cavo et al. (2012), the second paired table of Fagerland, Lydersen & Laake,
    # "Statistical Analysis of Contingency Tables" (2017) ch. 8 ([[59, 6], [16, 80]]); their R
    # package contingencytables, tests/testthat/test-ch8.R:
    # McNemar_midP_test_paired_2x2(cavo_2012) prints "The McNemar mid-P test: P = 0.034690".
    assert round(mcnemar(6, 16, method="midp").pvalue, 6) == 0.034690
