"""p-value adjustments (Demšar 2006, §3.2.2) against statsmodels and the worked example."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from outperform._validation import InvalidInputError
from outperform.stats._multipletests import ADJUSTMENTS, adjust_pvalues

STATSMODELS_NAMES = {"holm": "holm", "hochberg": "simes-hochberg", "hommel": "hommel",
                     "bonferroni": "bonferroni", "sidak": "sidak", "holland": "holm-sidak",
                     "bh": "fdr_bh"}

pvalue_lists = st.lists(st.floats(0, 1), min_size=1, max_size=30)

# Demšar §3.2.2: p-values of C4.5+m+cf, C4.5+m, C4.5+cf against C4.5 (Table 6).
DEMSAR_P = [0.016, 0.019, 0.607]


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(pvalue_lists, st.sampled_from(sorted(STATSMODELS_NAMES)))
def test_matches_statsmodels(p, method):
    with np.errstate(divide="ignore"):
        expected = multipletests(p, method=STATSMODELS_NAMES[method])[1]
    np.testing.assert_allclose(adjust_pvalues(p, method), np.minimum(expected, 1), atol=1e-12)


def _finner_loop(p):
    """Finner (1993) step-down written directly from its definition."""
    m = len(p)
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    running = 0.0
    for j, i in enumerate(order, start=1):
        running = max(running, 1 - (1 - p[i]) ** (m / j))
        out[i] = min(running, 1.0)
    return out


@settings(max_examples=60, deadline=None)
@given(pvalue_lists)
def test_finner_definition_and_ordering(p):
    p = np.array(p)
    finner = adjust_pvalues(p, "finner")
    np.testing.assert_allclose(finner, _finner_loop(p), atol=1e-12)
    # m / j <= m - j + 1, so Finner is never more conservative than Holland (Holm-Šidák).
    assert np.all(finner <= adjust_pvalues(p, "holland") + 1e-12)
    assert np.all(finner >= p - 1e-12)


@settings(max_examples=60, deadline=None)
@given(pvalue_lists)
def test_known_orderings(p):
    p = np.array(p)
    with np.errstate(divide="raise", invalid="raise"):  # no warnings for p = 1 either
        adj = {m: adjust_pvalues(p, m) for m in ADJUSTMENTS}
    tol = 1e-12
    assert np.all(adj["none"] == p)
    assert np.all(adj["hommel"] <= adj["hochberg"] + tol)
    assert np.all(adj["hochberg"] <= adj["holm"] + tol)
    assert np.all(adj["holm"] <= adj["bonferroni"] + tol)
    assert np.all(adj["holland"] <= adj["holm"] + tol)
    assert np.all(adj["sidak"] <= adj["bonferroni"] + tol)
    for values in adj.values():
        assert np.all((values >= p - tol) & (values <= 1))


def test_demsar_worked_example():
    # "All step-down and step-up procedures found C4.5+cf+m and C4.5+m significantly
    # different from C4.5", Bonferroni(-Dunn) only the first (0.016 * 3 < 0.05 < 0.019 * 3).
    for method in ("holm", "hochberg", "hommel"):
        np.testing.assert_array_equal(adjust_pvalues(DEMSAR_P, method) <= 0.05,
                                      [True, True, False])
    np.testing.assert_array_equal(adjust_pvalues(DEMSAR_P, "bonferroni") <= 0.05,
                                  [True, False, False])
    # Holm compares p_i with alpha / (k - i): 0.016 < 0.017, 0.019 < 0.025, 0.607 > 0.05.
    np.testing.assert_allclose(adjust_pvalues(DEMSAR_P, "holm"), [0.048, 0.048, 0.607])
    # Hommel: "the maximal value of j is 2", so reject p_i <= alpha / 2 = 0.025.
    np.testing.assert_allclose(adjust_pvalues(DEMSAR_P, "hommel"), [0.032, 0.038, 0.607])


def test_input_order_is_kept():
    p = [0.5, 0.01, 0.04, 0.03]
    np.testing.assert_allclose(adjust_pvalues(p, "holm"), [0.5, 0.04, 0.09, 0.09])
    np.testing.assert_allclose(adjust_pvalues(p, "finner")[1], 1 - 0.99 ** 4)


def test_edge_values():
    with np.errstate(all="raise"):
        np.testing.assert_allclose(adjust_pvalues([1.0, 0.0], "finner"), [1.0, 0.0])
    assert adjust_pvalues([], "holm").size == 0


def test_bad_input():
    with pytest.raises(InvalidInputError, match=r"\[0, 1\]"):
        adjust_pvalues([0.2, 1.2], "holm")
    with pytest.raises(InvalidInputError, match="NaN"):
        adjust_pvalues([0.2, np.nan], "holm")
    with pytest.raises(InvalidInputError, match="method"):
        adjust_pvalues([0.2], "tukey")
    with pytest.raises(InvalidInputError, match="1-dimensional"):
        adjust_pvalues([[0.2, 0.3]], "holm")


def test_holm_rows_equals_holm_row_by_row():
    # the row form used by the gate's A/A check; statsmodels' multipletests(p, method="holm")
    # gives the same adjusted p-values (checked here against adjust_pvalues, which matches it)
    from statsmodels.stats.multitest import multipletests

    from outperform.stats import holm_rows

    rng = np.random.default_rng(3)
    p = rng.random((8, 4)) ** 3      # multipletests takes ~25 ms a call: a few rows
    p[0] = [0.016, 0.019, 0.607, 0.5]
    rows = holm_rows(p)
    for row, adj in zip(p, rows):
        np.testing.assert_allclose(adj, multipletests(row, method="holm")[1], rtol=1e-12)
