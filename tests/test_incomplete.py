"""Tables with missing (data set, model) cells: Skillings–Mack, Durbin, pairwise Wilcoxon on
common data sets, and compare() / the CLI on incomplete tables."""
import importlib.util
import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform.stats import (durbin, durbin_posthoc, friedman, pairwise_wilcoxon_available,
                              skillings_mack, wilcoxon)
from outperform._validation import InvalidInputError

PEERS = "/tmp/peer19"  # scikit-posthocs installed with pip --target (not in the venv)


def _random_table(seed, n=12, k=5):
    return np.random.default_rng(seed).normal(size=(n, k))


@pytest.mark.parametrize("seed", range(5))
def test_skillings_mack_equals_friedman_on_complete_tables(seed):
    # Property (Skillings & Mack 1981; Chatfield & Mander 2009): no missing cell -> Friedman.
    x = _random_table(seed)
    sm, fr = skillings_mack(x), friedman(x)
    assert sm.statistic == pytest.approx(fr.statistic, rel=1e-12)
    assert sm.pvalue == pytest.approx(fr.pvalue, rel=1e-10)
    assert sm.df == fr.df


def test_skillings_mack_published_example():
    # The example of R's Skillings.Mack::Ski.Mack help page (Chatfield & Mander 2009, Stata
    # Journal 9(2): 299-305): 4 assembly methods A-D over 9 blocks with 5 missing values,
    # "Skillings-Mack Statistic = 15.493049, p-value = 0.001440 ... d.f. = 3".
    y = np.array([3.2, 4.1, 3.8, 4.2, 3.1, 3.9, 3.4, 4.0, 4.3, 3.5, 4.6, 4.8, 3.5, 3.6, 3.9,
                  4.0, 3.6, 4.2, 3.7, 3.9, 4.5, 4.7, 3.7, np.nan, np.nan, 4.2, 3.4, np.nan,
                  4.3, 4.6, 4.4, 4.9, 3.5, np.nan, 3.7, 3.9]).reshape(9, 4)
    res = skillings_mack(y)
    assert res.statistic == pytest.approx(15.493049, abs=5e-7)
    assert res.pvalue == pytest.approx(0.001440296302, abs=5e-12)
    assert res.df == 3


def _bibd():
    # The balanced incomplete block design of 7 treatments in 7 blocks of 3 (Fano plane),
    # each treatment in 3 blocks and each pair in 1 block (Conover 1999 §5.9 uses this design).
    blocks = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (4, 5, 0), (5, 6, 1), (6, 0, 2)]
    x = np.full((7, 7), np.nan)
    rng = np.random.default_rng(3)
    for i, b in enumerate(blocks):
        x[i, list(b)] = rng.normal(size=3) + np.array(b) * 0.3
    return x


def test_durbin_equals_skillings_mack_on_bibd_and_friedman_when_complete():
    x = _bibd()
    # Chatfield & Mander (2009): on a BIBD without ties Skillings-Mack is Durbin's test.
    assert durbin(x).statistic == pytest.approx(skillings_mack(x).statistic, rel=1e-12)
    c = _random_table(7)
    assert durbin(c).statistic == pytest.approx(friedman(c, tie_correction=True).statistic,
                                                rel=1e-12)


def test_durbin_refuses_unbalanced_tables():
    x = _random_table(1)
    x[0, 0] = np.nan
    with pytest.raises(InvalidInputError, match="balanced incomplete block design"):
        durbin(x)


@pytest.mark.skipif(importlib.util.find_spec("scikit_posthocs") is None
                    and not __import__("os").path.isdir(PEERS), reason="no scikit-posthocs")
def test_durbin_posthoc_against_scikit_posthocs():
    if PEERS not in sys.path:
        sys.path.append(PEERS)
    sp = pytest.importorskip("scikit_posthocs")
    x = _bibd()
    long = pd.DataFrame([(v, i, j) for (i, j), v in np.ndenumerate(x) if not np.isnan(v)],
                        columns=["y", "block", "group"])
    # sp.posthoc_durbin(long, y_col="y", block_col="block", group_col="group",
    #                   block_id_col="block", melted=True)
    ref = sp.posthoc_durbin(long, y_col="y", block_col="block", group_col="group",
                            block_id_col="block", melted=True)
    ref = ref.loc[list(range(7)), list(range(7))].to_numpy()  # its order: first seen
    ours = durbin_posthoc(x, adjustment="none").pvalue
    iu = np.triu_indices(7, 1)
    np.testing.assert_allclose(ours[iu], ref[iu], rtol=1e-12)


def test_pairwise_wilcoxon_available_is_wilcoxon_on_each_pairs_common_rows():
    x = _random_table(11, n=15, k=4)
    x[[0, 3, 7], 1] = np.nan
    x[[2, 9], 3] = np.nan
    res = pairwise_wilcoxon_available(x)
    for i, j in [(0, 1), (1, 3), (0, 2), (2, 3)]:
        rows = ~np.isnan(x[:, i]) & ~np.isnan(x[:, j])
        ref = wilcoxon(x[rows, i], x[rows, j])
        assert res.pvalue[i, j] == pytest.approx(ref.pvalue, rel=1e-12)
        # scipy.stats.wilcoxon(x[rows, i], x[rows, j]).pvalue: exact, no ties or zeros
        assert res.pvalue[i, j] == pytest.approx(
            stats.wilcoxon(x[rows, i], x[rows, j]).pvalue, rel=1e-10)
    assert res.details["n_common"][1][3] == 10
