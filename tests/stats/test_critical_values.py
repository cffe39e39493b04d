"""Critical values of the Nemenyi and Bonferroni-Dunn tests (Demšar 2006, Table 5)."""
import numpy as np
import pytest
from scipy.special import erfc
from scipy.stats import norm, studentized_range

from outperform._validation import InvalidInputError, TooFewError
from outperform.stats._critical_values import (bonferroni_dunn_q, critical_difference,
                                              nemenyi_q, range_sf, rank_standard_error)

KS = range(2, 11)
# Demšar (2006) Table 5(a): critical values of the two-tailed Nemenyi test, k = 2..10.
NEMENYI_005 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
NEMENYI_010 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]
# Table 5(b): two-tailed Bonferroni-Dunn, k including the control. The paper prints 2.724
# for k = 9 at 0.05, a misprint: z_{1 - 0.05/16} = 2.734 (the row must increase by about
# 0.05 per step: 2.690, 2.734, 2.773). The exact value is tested.
BONFERRONI_DUNN_005 = [1.960, 2.241, 2.394, 2.498, 2.576, 2.638, 2.690, 2.734, 2.773]
BONFERRONI_DUNN_010 = [1.645, 1.960, 2.128, 2.241, 2.326, 2.394, 2.450, 2.498, 2.539]


@pytest.mark.parametrize("alpha, table", [(0.05, NEMENYI_005), (0.10, NEMENYI_010)])
def test_demsar_table5a_nemenyi(alpha, table):
    # Three of the paper's entries are off by one in the last digit (it divided a rounded
    # studentized range table by sqrt(2)): k = 3 at 0.05 is 2.34370 (printed 2.343), k = 7
    # at 0.05 is 2.94832 (printed 2.949), k = 5 at 0.10 is 2.45952 (printed 2.459).
    ours = np.array([nemenyi_q(k, alpha) for k in KS])
    np.testing.assert_allclose(ours, table, atol=1e-3)
    assert np.sum(np.round(ours, 3) != table) <= 2


@pytest.mark.parametrize("alpha, table",
                         [(0.05, BONFERRONI_DUNN_005), (0.10, BONFERRONI_DUNN_010)])
def test_demsar_table5b_bonferroni_dunn(alpha, table):
    assert [round(bonferroni_dunn_q(k, alpha), 3) for k in KS] == table


def test_bonferroni_dunn_k9_misprint():
    assert round(bonferroni_dunn_q(9, 0.05), 3) == 2.734 != 2.724


def test_demsar_worked_example_critical_differences():
    # §3.2.2, Table 6 (k = 4, N = 14): SE = 0.488, CD = 1.25 and 1.12 (Nemenyi, alpha 0.05
    # and 0.10), 2.394 * 0.488 = 1.168 (Bonferroni-Dunn, printed 1.16).
    assert round(rank_standard_error(4, 14), 3) == 0.488
    assert round(critical_difference(4, 14, 0.05), 2) == 1.25
    assert round(critical_difference(4, 14, 0.10), 2) == 1.12
    bd = critical_difference(4, 14, 0.05, method="bonferroni-dunn")
    assert round(bd, 3) == 1.168
    # The paper's conclusions hold: 1.179 (C4.5 vs C4.5+m+cf) > CD > 1.143 (vs C4.5+m).
    assert 1.143 < bd < 1.179


def test_k2_both_are_the_normal_quantile():
    # With two models there is one comparison: both reduce to z_{1 - alpha/2}.
    z = norm.isf(0.025)
    assert nemenyi_q(2, 0.05) == pytest.approx(z, abs=1e-8)
    assert bonferroni_dunn_q(2, 0.05) == pytest.approx(z, abs=1e-12)


def test_range_sf_matches_scipy():
    rng = np.random.default_rng(0)
    for k in [2, 3, 4, 7, 10, 25, 60, 100, 250, 1000]:
        q = rng.uniform(0, 9, 40)
        ours = range_sf(q, k)
        ref = studentized_range.sf(q, k, np.inf)
        # scipy's sf is 1 - cdf: about 1e-14 absolute accuracy, so compare relatively only
        # where the tail is not tiny.
        big = ref > 1e-6
        np.testing.assert_allclose(ours[big], ref[big], rtol=1e-7)
        np.testing.assert_allclose(ours, ref, atol=1e-9)


def test_range_sf_far_tail_k2_closed_form():
    # The range of two standard normals is |Z1 - Z2| = sqrt(2)|Z|: P(R > q) = erfc(q / 2).
    q = np.linspace(0, 50, 101)  # erfc(25) = 8e-274; beyond, erfc underflows
    np.testing.assert_allclose(range_sf(q, 2), erfc(q / 2), rtol=1e-9)


def test_range_sf_inverts_nemenyi_q():
    for k in [3, 5, 10, 40]:
        for alpha in [0.01, 0.05, 0.1]:
            q = nemenyi_q(k, alpha) * np.sqrt(2)
            assert range_sf(q, k) == pytest.approx(alpha, rel=1e-6)


def test_range_sf_shape_and_monotone():
    q = np.linspace(0, 10, 12).reshape(3, 4)
    sf = range_sf(q, 5)
    assert sf.shape == (3, 4) and sf.flat[0] == pytest.approx(1.0)
    assert np.all(np.diff(sf.ravel()) < 0)


def test_bad_input():
    with pytest.raises(TooFewError, match="at least 2"):
        nemenyi_q(1, 0.05)
    with pytest.raises(InvalidInputError, match="alpha"):
        bonferroni_dunn_q(4, 1.5)
    with pytest.raises(InvalidInputError, match="integer"):
        nemenyi_q(4.5, 0.05)
    with pytest.raises(InvalidInputError, match="method"):
        critical_difference(4, 14, 0.05, method="tukey")
    with pytest.raises(InvalidInputError, match="data sets"):
        critical_difference(4, 0, 0.05)
    with pytest.raises(InvalidInputError, match="non-negative"):
        range_sf([-1.0], 4)
