"""Shaffer's static procedure, Bergmann–Hommel and Li (García & Herrera 2008; García et al.
2010): definitions, orderings between procedures, and compare() wiring."""
import itertools

import numpy as np
import pytest

from outperform.stats import (adjust_pvalues, bergmann_hommel_adjust, li_adjust, rank_posthoc,
                              shaffer_adjust, shaffer_multipliers)
from outperform._validation import InvalidInputError


def test_shaffer_multipliers_match_shaffer_1986():
    # Shaffer (1986) Table 1 / García & Herrera (2008) §3: possible numbers of true pairwise
    # hypotheses for k = 4 are {0, 1, 2, 3, 6}, so t = 6, 3, 3, 3, 2, 1 for j = 1..6.
    assert shaffer_multipliers(4).tolist() == [6, 3, 3, 3, 2, 1]
    # k = 3: {0, 1, 3}: t = 3, 1, 1.
    assert shaffer_multipliers(3).tolist() == [3, 1, 1]


def _exhaustive_sets_by_definition(k):
    """Sets I of pairs that can be true together: closed under A=B, B=C => A=C (brute force
    over all 2^m subsets of pairs)."""
    pairs = list(zip(*np.triu_indices(k, 1)))
    out = []
    for mask in itertools.product([False, True], repeat=len(pairs)):
        chosen = {p for p, m in zip(pairs, mask) if m}
        if not chosen:
            continue
        eq = {(i, j) for i, j in chosen} | {(j, i) for i, j in chosen}
        closed = all((a, c) in eq for (a, b) in eq for (b2, c) in eq if b == b2 and a != c)
        if closed:
            out.append(np.array(mask))
    return out


@pytest.mark.parametrize("k", [3, 4, 5])
def test_bergmann_hommel_equals_its_definition(k):
    rng = np.random.default_rng(k)
    p = rng.uniform(0, 0.2, size=k * (k - 1) // 2)
    sets = _exhaustive_sets_by_definition(k)
    expected = np.array([max(s.sum() * p[s].min() for s in sets if s[i])
                         for i in range(len(p))])
    np.testing.assert_allclose(bergmann_hommel_adjust(p, k), np.minimum(expected, 1),
                               rtol=1e-15)


@pytest.mark.parametrize("seed", range(20))
def test_bergmann_le_shaffer_le_holm(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 9))
    p = rng.uniform(0, 1, size=k * (k - 1) // 2) ** 3
    bh, sh, holm = bergmann_hommel_adjust(p, k), shaffer_adjust(p, k), adjust_pvalues(p, "holm")
    assert np.all(bh <= sh + 1e-15) and np.all(sh <= holm + 1e-15)
    assert np.all(bh >= p)


def test_shaffer_and_bergmann_agree_for_three_models():
    # With k = 3 both reduce to 3 p_(1), then max(3 p_(1), p_(j)).
    p = np.array([0.01, 0.04, 0.3])
    np.testing.assert_allclose(shaffer_adjust(p, 3), [0.03, 0.04, 0.3])
    np.testing.assert_allclose(bergmann_hommel_adjust(p, 3), [0.03, 0.04, 0.3])


def test_li_adjusted_pvalues():
    # Li (2008): reject H_i when p_i <= alpha (1 - p_max) / (1 - alpha); APV_i = p_i /
    # (p_i + 1 - p_max) is the smallest such alpha.
    p = np.array([0.01, 0.02, 0.5])
    apv = li_adjust(p)
    np.testing.assert_allclose(apv, [0.01 / 0.51, 0.02 / 0.52, 0.5])
    for alpha in (0.02, 0.05):
        assert np.array_equal(apv[:2] <= alpha, p[:2] <= alpha * (1 - 0.5) / (1 - alpha))


def test_rank_posthoc_options_and_fallback():
    x = np.random.default_rng(0).normal(size=(20, 12)) + np.linspace(0, 2, 12)
    with pytest.warns(UserWarning, match="at most 10 models"):
        res = rank_posthoc(x, adjustment="bergmann")
    assert "Shaffer" in res.details["fallback"]
    with pytest.raises(InvalidInputError, match="drop control"):
        rank_posthoc(x, adjustment="shaffer", control=0)
    with pytest.raises(InvalidInputError, match="pass control"):
        rank_posthoc(x, adjustment="li")
    small = x[:, :5]
    bh = rank_posthoc(small, adjustment="bergmann")
    holm = rank_posthoc(small, adjustment="holm")
    iu = np.triu_indices(5, 1)
    assert np.all(bh.pvalue_adjusted[iu] <= holm.pvalue_adjusted[iu] + 1e-15)


def test_compare_runs_the_new_posthocs_and_reports_the_fallback():
    import pandas as pd
    from outperform.compare import compare
    x = np.random.default_rng(1).normal(size=(15, 4)) + np.array([0, 0.2, 1.0, 1.5])
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(15)])
    rep = compare(df, metric="accuracy", posthoc="bergmann")
    ref = rank_posthoc(x, adjustment="bergmann", names=list("ABCD"))
    np.testing.assert_array_equal(rep.posthoc["bergmann"].pvalue_adjusted, ref.pvalue_adjusted)
    rep = compare(df, metric="accuracy", posthoc="li", control="A")
    assert rep.posthoc["li"].control == "A"
    wide = np.random.default_rng(2).normal(size=(15, 11))
    df = pd.DataFrame(wide, columns=[f"m{j}" for j in range(11)]).assign(
        task=[f"d{i}" for i in range(15)])
    with pytest.warns(UserWarning):
        rep = compare(df, metric="accuracy", posthoc="bergmann")
    assert any("at most 10 models" in w for w in rep.warnings)


PEERS = "/tmp/peer19"  # scikit-posthocs installed with pip --target (not in the venv)


def _sp():
    import os
    import sys
    if os.path.isdir(PEERS) and PEERS not in sys.path:
        sys.path.append(PEERS)
    return pytest.importorskip("scikit_posthocs")


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("seed", range(3))
def test_conover_and_quade_posthocs_against_scikit_posthocs(seed):
    import pandas as pd
    from outperform.compare import compare
    from outperform.stats import quade_posthoc
    sp = _sp()
    x = np.random.default_rng(seed).normal(size=(14, 5)) + np.arange(5) * 0.4
    iu = np.triu_indices(5, 1)
    df = pd.DataFrame(x, columns=list("ABCDE")).assign(task=[f"d{i}" for i in range(14)])
    # sp.posthoc_conover_friedman(x, p_adjust="holm"); ranks ascending = lower is better,
    # the same pairs and p-values whatever the direction.
    ref = sp.posthoc_conover_friedman(x, p_adjust="holm").to_numpy()
    rep = compare(df, metric="accuracy", posthoc="conover")
    np.testing.assert_allclose(rep.posthoc["conover"].pvalue_adjusted[iu], ref[iu], rtol=1e-12)
    # sp.posthoc_quade(x, dist="t"): unadjusted t p-values
    ref = sp.posthoc_quade(x, dist="t").to_numpy()
    np.testing.assert_allclose(quade_posthoc(x).pvalue[iu], ref[iu], rtol=1e-12)
    ref = sp.posthoc_quade(x, dist="t", p_adjust="holm").to_numpy()
    rep = compare(df, metric="accuracy", posthoc="quade")
    np.testing.assert_allclose(rep.posthoc["quade"].pvalue_adjusted[iu], ref[iu], rtol=1e-12)
    res = quade_posthoc(x)
    assert res.statistic[4, 0] > 0   # E, the best column, is the row model: positive


def test_rationale_names_the_procedure_run_and_offers_bergmann():
    import pandas as pd
    from outperform.compare import compare
    x = np.random.default_rng(1).normal(size=(15, 4)) + np.array([0, 0.2, 1.0, 1.5])
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(15)])
    assert "Li's procedure" in compare(df, metric="accuracy", posthoc="li",
                                       control="A").rationale
    assert "posthoc='bergmann'" in compare(df, metric="accuracy").rationale
