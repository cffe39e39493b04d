"""Replicability analysis (stats/_replicability.py): Dror et al. (2017)'s example and the
partial conjunction p-values against their definitions computed with scipy."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from outperform import InvalidInputError, TooFewError
from outperform.stats import partial_conjunction_pvalues, replicability

#: Dror, Baumer, Bogomolov & Reichart (2017, TACL) §4.3: six data sets, alpha = 0.05:
#: k̂_Bonferroni = 1, k̂_Fisher = 2, and Holm's procedure rejects data set 6 only.
DROR = [0.168, 0.297, 0.357, 0.019, 0.218, 0.001]


def test_dror_example():
    res = replicability(DROR, alpha=0.05)
    assert (res.k_bonferroni, res.k_fisher) == (1, 2)
    assert res.rejected_names == ("6",)
    assert res.rejected.tolist() == [False] * 5 + [True]


def test_partial_conjunctions_equal_their_definitions():
    p = np.sort(DROR)
    n = p.size
    for u in range(1, n + 1):
        rest = p[u - 1:]
        # Benjamini & Heller (2008): Bonferroni (N - u + 1) p_(u); Fisher's combination of
        # the N - u + 1 largest, scipy.stats.combine_pvalues(rest, method="fisher")
        assert partial_conjunction_pvalues(DROR, "bonferroni")[u - 1] == \
            pytest.approx(min(1.0, (n - u + 1) * p[u - 1]), rel=1e-12)
        assert partial_conjunction_pvalues(DROR, "fisher")[u - 1] == \
            pytest.approx(stats.combine_pvalues(rest, method="fisher").pvalue, rel=1e-10)


def test_holm_equals_statsmodels():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(1)
    p = rng.uniform(0, 0.05, 12) ** 1.5
    res = replicability(p, alpha=0.05)
    # statsmodels.stats.multitest.multipletests(p, alpha=0.05, method="holm")[0]
    assert res.rejected.tolist() == multipletests(p, alpha=0.05, method="holm")[0].tolist()
    # Holm's u-th step, p_(u) <= alpha / (N - u + 1), is the Bonferroni partial conjunction
    # test of u, so k̂_Bonferroni counts exactly Holm's rejections
    assert res.k_bonferroni == res.rejected.sum() > 0


def test_every_data_set_significant_gives_n():
    res = replicability([1e-6] * 4)
    assert res.k_bonferroni == res.k_fisher == 4 and res.rejected.all()
    assert replicability([0.9, 0.8]).k_fisher == 0


@pytest.mark.parametrize("p, kw, error, match", [
    ([0.2, 1.5], {}, InvalidInputError, r"pvalues must lie in \[0, 1\]"),
    ([0.2, -0.1], {}, InvalidInputError, r"pvalues must lie in \[0, 1\]"),
    ([0.2, np.nan], {}, InvalidInputError, "NaN"),
    ([], {}, TooFewError, "at least 1"),
    ([0.2, 0.1], {"alpha": 0}, InvalidInputError, "alpha must lie in"),
    ([0.2, 0.1], {"names": ["a"]}, InvalidInputError, "1 names for 2"),
])
def test_odd_inputs_are_refused(p, kw, error, match):
    with pytest.raises(error, match=match):
        replicability(p, **kw)
