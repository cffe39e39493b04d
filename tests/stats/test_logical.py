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


# García & Herrera (2008), JMLR 9: 2677-2694, §5: accuracies of C4.5, k-NN (k=1), NaiveBayes,
# Kernel and CN2 on 30 data sets (the example data shipped by R's scmamp as data.gh.2008).
GH2008 = np.array([
    [0.219, 0.202, 0.249, 0.165, 0.261],
    [0.803, 0.75, 0.813, 0.692, 0.798],
    [0.859, 0.814, 0.845, 0.542, 0.816],
    [0.809, 0.774, 0.673, 0.275, 0.785],
    [0.768, 0.79, 0.727, 0.872, 0.706],
    [0.759, 0.654, 0.734, 0.703, 0.714],
    [0.693, 0.611, 0.572, 0.689, 0.572],
    [0.544, 0.531, 0.558, 0.439, 0.541],
    [0.945, 0.954, 0.978, 0.541, 0.858],
    [0.725, 0.705, 0.739, 0.625, 0.717],
    [0.674, 0.736, 0.721, 0.356, 0.704],
    [0.801, 0.357, 0.52, 0.309, 0.52],
    [0.785, 0.77, 0.841, 0.659, 0.759],
    [0.71, 0.402, 0.728, 0.12, 0.674],
    [0.691, 0.827, 0.667, 0.527, 0.638],
    [0.743, 0.739, 0.83, 0.549, 0.746],
    [0.99, 0.482, 0.941, 0.857, 0.99],
    [0.867, 0.098, 0.915, 0.986, 0.784],
    [0.821, 0.872, 0.815, 0.885, 0.778],
    [0.893, 0.824, 0.902, 0.739, 0.885],
    [0.799, 0.655, 0.925, 0.517, 0.755],
    [0.845, 0.731, 0.693, 0.653, 0.704],
    [0.741, 0.701, 0.591, 0.663, 0.619],
    [0.799, 0.994, 0.603, 0.269, 0.621],
    [0.949, 0.955, 0.989, 0.77, 0.954],
    [0.555, 0.505, 0.569, 0.312, 0.556],
    [0.928, 0.928, 0.945, 0.419, 0.897],
    [0.915, 0.857, 0.86, 0.7, 0.777],
    [0.855, 0.796, 0.857, 0.607, 0.809],
    [0.906, 0.359, 0.895, 0.641, 0.918]])
# scmamp (b0rxa/scmamp, R/post_hoc.R): friedmanPost(data.gh.2008), adjustShaffer(raw),
# adjustBergmannHommel(raw); the pairs in np.triu_indices(5, 1) order.
GH_RAW = [4.84876272167889e-03, 8.06495940507340e-01, 4.48699106758710e-08,
          1.27630075326413e-02, 1.01123339213334e-02, 7.96348920655010e-03,
          7.43971478075057e-01, 1.73611802489759e-07, 2.47446720463991e-02,
          2.88048466902713e-03]
GH_SHAFFER = [2.90925763300733e-02, 1.0, 4.48699106758710e-07, 5.10520301305650e-02,
              4.77809352393006e-02, 4.77809352393006e-02, 1.0, 1.04167081493856e-06,
              7.42340161391972e-02, 1.72829080141628e-02]
GH_BERGMANN = [2.90925763300733e-02, 1.0, 4.48699106758710e-07, 3.82890225979238e-02,
               3.18539568262004e-02, 3.18539568262004e-02, 1.0, 1.04167081493856e-06,
               3.82890225979238e-02, 1.15219386761085e-02]


def test_garcia_herrera_example_against_scmamp():
    iu = np.triu_indices(5, 1)
    raw = rank_posthoc(GH2008, adjustment="none")
    np.testing.assert_allclose(raw.pvalue[iu], GH_RAW, rtol=1e-8)
    np.testing.assert_allclose(rank_posthoc(GH2008, adjustment="shaffer").pvalue_adjusted[iu],
                               GH_SHAFFER, rtol=1e-8)
    bh = rank_posthoc(GH2008, adjustment="bergmann").pvalue_adjusted[iu]
    # scmamp then makes the adjusted p-values monotone in the order of the raw ones (a
    # cumulative maximum); García & Herrera's APV (max over exhaustive sets) is not always
    # monotone: here k-NN vs NaiveBayes has APV 0.0303 < 0.0319 of k-NN vs Kernel, whose raw
    # p-value is smaller. With that step added the numbers are scmamp's.
    order = np.argsort(raw.pvalue[iu])
    monotone = np.empty(10)
    monotone[order] = np.maximum.accumulate(bh[order])
    np.testing.assert_allclose(monotone, GH_BERGMANN, rtol=1e-8)
    assert bh[4] == pytest.approx(3 * 0.01011233392133334, rel=1e-8)  # |I| = 3 set {kNN, NB, CN2}


def test_rom_against_scmamp():
    from outperform.stats import rom_adjust
    p = [0.0042, 0.0310, 0.0110, 0.2900, 0.0170, 0.6000]
    # R, scmamp (b0rxa/scmamp R/post_hoc.R): adjustRom(p, alpha=0.05) and alpha=0.10
    np.testing.assert_allclose(rom_adjust(p, 0.05), [
        0.0246910020982061, 0.0918518518518519, 0.0539586860535104, 0.58,
        0.0668581875163228, 0.6], rtol=1e-12)
    np.testing.assert_allclose(rom_adjust(p, 0.10), [
        0.0241715638519393, 0.0907317073170732, 0.0528971863897611, 0.58,
        0.0657031281452555, 0.6], rtol=1e-12)
    # scmamp adjustLi(p): the same formula as ours
    np.testing.assert_allclose(li_adjust(p), [
        0.0103908955962395, 0.0719257540603248, 0.0267639902676399, 0.4202898550724637,
        0.0407673860911271, 0.6], rtol=1e-12)
    # Rom is a step-up procedure at least as powerful as Hochberg's.
    assert np.all(rom_adjust(p, 0.05) <= adjust_pvalues(p, "hochberg") + 1e-15)


def test_compare_with_rom_against_the_control():
    import pandas as pd
    from outperform.compare import compare
    x = np.random.default_rng(3).normal(size=(15, 4)) + np.array([0, 0.2, 1.0, 1.5])
    df = pd.DataFrame(x, columns=list("ABCD")).assign(task=[f"d{i}" for i in range(15)])
    rep = compare(df, metric="accuracy", posthoc="rom", control="A", alpha=0.1)
    ref = rank_posthoc(x, adjustment="rom", control="A", alpha=0.1, names=list("ABCD"))
    np.testing.assert_array_equal(rep.posthoc["rom"].pvalue_adjusted, ref.pvalue_adjusted)
    assert "Rom's step-up" in rep.rationale


def _acceptance_rule(p, k, alpha):
    """García & Herrera (2008) §2.1, Bergmann & Hommel's rule written out: reject H_j for j
    outside A = ∪{I exhaustive : min_{i ∈ I} p_i > α/|I|} (brute-force exhaustive sets)."""
    accepted = np.zeros(len(p), dtype=bool)
    for s in _exhaustive_sets_by_definition(k):
        if p[s].min() > alpha / s.sum():
            accepted |= s
    return ~accepted


@pytest.mark.slow
def test_bergmann_apv_reproduces_the_rejection_rule_on_the_paper_example():
    # APV_i <= α  <=>  the rule rejects H_i, for every α; scmamp's cumulative maximum breaks
    # it on k-NN vs NaiveBayes for α in [0.0303, 0.0319).
    iu = np.triu_indices(5, 1)
    p = rank_posthoc(GH2008, adjustment="none").pvalue[iu]
    bh = bergmann_hommel_adjust(p, 5)
    scmamp = np.array(GH_BERGMANN)
    for alpha in np.concatenate([np.linspace(0.001, 0.2, 400), [0.0305, 0.031, 0.0315]]):
        rule = _acceptance_rule(p, 5, alpha)
        assert np.array_equal(bh <= alpha, rule), alpha
    alpha = 0.031
    assert _acceptance_rule(p, 5, alpha)[4] and not scmamp[4] <= alpha


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_bergmann_apv_reproduces_the_rejection_rule_on_random_pvalues(seed):
    rng = np.random.default_rng(100 + seed)
    k = 5
    p = rng.uniform(0, 0.1, size=10) ** 1.5
    bh = bergmann_hommel_adjust(p, k)
    for alpha in np.unique(np.concatenate([bh * (1 - 1e-9), bh * (1 + 1e-9), np.linspace(0.001, 0.3, 60)])):
        if alpha < 1:
            assert np.array_equal(bh <= alpha, _acceptance_rule(p, k, alpha))


def test_garcia_herrera_rejections_stated_in_section_2_2():
    # García & Herrera (2008) §2.2, the five classifiers on 30 data sets, α = 0.05 and the
    # hypotheses numbered by increasing raw p-value: "Nemenyi's test rejects the hypotheses
    # [1–4]" and "Bergmann-Hommel's dynamic procedure ... rejects the hypotheses [1–8]".
    iu = np.triu_indices(5, 1)
    p = rank_posthoc(GH2008, adjustment="none").pvalue[iu]
    order = np.argsort(p)
    nemenyi = np.minimum(p * 10, 1)[order] <= 0.05
    bh = rank_posthoc(GH2008, adjustment="bergmann").pvalue_adjusted[iu][order] <= 0.05
    assert nemenyi.tolist() == [True] * 4 + [False] * 6
    assert bh.tolist() == [True] * 8 + [False] * 2


# The unadjusted p-values as García & Herrera (2008) print them (§2.2, Table 3), in
# np.triu_indices(5, 1) order, as transcribed by the Perl/C++ implementation hyp-test
# (edgar-gip/hyp-test, BH-0.1/t/BH.t), whose Bergmann–Hommel test at α = 0.05 retains
# exactly C4.5 vs NaiveBayes (0, 2) and k-NN vs CN2 (1, 4).
GH_PRINTED = [0.0048, 0.8065, 4.487e-8, 0.0128, 0.0101, 0.008, 0.744, 1.736e-7, 0.0247, 0.0029]


def test_raw_pvalues_round_to_the_printed_ones_and_bergmann_retains_the_peers_pairs():
    iu = np.triu_indices(5, 1)
    raw = rank_posthoc(GH2008, adjustment="none").pvalue[iu]
    # Within half a unit of the last printed digit (0.0048 ± 0.00005 is ±1.04%).
    np.testing.assert_allclose(raw, GH_PRINTED, rtol=0.0105)
    apv = bergmann_hommel_adjust(np.array(GH_PRINTED), 5)
    retained = [tuple(int(v) for v in np.array(iu)[:, m]) for m in np.flatnonzero(apv > 0.05)]
    assert retained == [(0, 2), (1, 4)]
    # The non-monotone pair is in the printed numbers too: 3 x 0.0101 < 4 x 0.008.
    assert apv[4] == pytest.approx(3 * 0.0101) and apv[5] == pytest.approx(4 * 0.008)
