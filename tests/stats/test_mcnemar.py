"""McNemar's test, discordance counts and Cochran's Q (outperform.stats._mcnemar)."""
from __future__ import annotations

import csv
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.proportion import proportion_confint

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats._mcnemar import (cochrans_q, discordance_counts, exact_pvalues, mcnemar,
                                      mcnemar_table)


def williams_table1() -> dict[str, dict[str, int]]:
    text = resources.files("outperform.data").joinpath("published/williams2026_table1.csv")
    with text.open() as fh:
        return {r["task"]: {k: int(v) for k, v in r.items() if k != "task"}
                for r in csv.DictReader(fh)}


# ---------------------------------------------------------------- published numbers
# R: mcnemar.test(matrix(c(101, 59, 121, 33), 2))               -> 20.672222, 5.4500948e-06
# R: mcnemar.test(matrix(c(101, 59, 121, 33), 2), correct=FALSE) -> 21.355556, 3.8151359e-06
# R: binom.test(121, 180)$p.value                                -> 4.4344493e-06
TABLE = [[101, 121], [59, 33]]


def test_issue_table_chi2_corrected():
    res = mcnemar_table(TABLE, method="chi2")
    assert res.statistic == pytest.approx(20.672222, abs=1e-6)
    assert res.pvalue == pytest.approx(5.4500948e-06, rel=1e-7)
    assert res.df == 1


def test_issue_table_chi2_uncorrected():
    res = mcnemar_table(TABLE, method="chi2", correction=False)
    assert res.statistic == pytest.approx(21.355556, abs=1e-6)
    assert res.pvalue == pytest.approx(3.8151359e-06, rel=1e-7)


def test_issue_table_exact():
    res = mcnemar_table(TABLE)
    assert res.pvalue == pytest.approx(4.4344493e-06, rel=1e-7)
    assert res.statistic == 121
    assert res.details["accuracy_a"] == pytest.approx((59 + 33) / 314)
    assert res.details["accuracy_b"] == pytest.approx((121 + 33) / 314)


def test_williams_table1_file_matches_paper_text():
    t = williams_table1()
    assert list(t) == ["de-en", "da-en", "es-en", "fr-en", "it-en", "id-en", "nl-en", "sv-en",
                       "tr-en", "tr-de", "zh-en"]
    for row in t.values():
        assert row["n00"] + row["n01"] + row["n10"] + row["n11"] == row["n"]
    # "the GNN is more accurate than the LLM on 4 of the 11 language pairs" (A = GNN)
    assert sorted(k for k, r in t.items() if r["n10"] > r["n01"]) == ["da-en", "de-en", "id-en",
                                                                       "zh-en"]


def test_williams_2026_section_6_2_r_mcnemar():
    """Williams §6.2: R mcnemar.test p = 0.045 (da-en; 0.0443 exactly), 0.00067 (tr-en)."""
    t = williams_table1()
    da = mcnemar(t["da-en"]["n01"], t["da-en"]["n10"], method="chi2")
    tr = mcnemar(t["tr-en"]["n01"], t["tr-en"]["n10"], method="chi2")
    assert da.pvalue == pytest.approx(0.0443, abs=5e-5)
    assert tr.pvalue == pytest.approx(0.00066, abs=5e-6)
    others = [mcnemar(r["n01"], r["n10"], method="chi2").pvalue
              for k, r in t.items() if k not in ("da-en", "tr-en")]
    assert min(others) > 0.05
    # Cohen's g: |g| = 0.055 (small) and 0.18 (medium); the package's g is positive when
    # A (GNN) is better, i.e. minus Williams' phi - 1/2.
    assert da.effect_size == pytest.approx(0.055, abs=5e-4)
    assert tr.effect_size == pytest.approx(-0.18, abs=5e-3)
    assert da.details["effect_size_label"] == "small"
    assert tr.details["effect_size_label"] == "medium"


def test_williams_2026_friedman_on_table1():
    """Williams §6.2: Friedman on the 11 pairs of counts, chi2 = 0.818, df = 1, p = 0.366."""
    t = williams_table1()
    acc = np.array([[r["n10"] + r["n11"], r["n01"] + r["n11"]] for r in t.values()], float)
    ranks = np.apply_along_axis(stats.rankdata, 1, -acc)
    n, k = ranks.shape
    chi2 = 12 / (n * k * (k + 1)) * np.sum(ranks.sum(0) ** 2) - 3 * n * (k + 1)
    assert chi2 == pytest.approx(0.818, abs=5e-4)
    assert stats.chi2.sf(chi2, k - 1) == pytest.approx(0.366, abs=5e-4)


# ---------------------------------------------------------------- R's edge cases
@pytest.mark.parametrize("b", [1, 5, 40])
def test_equal_discordant_counts_follow_r(b):
    # R: mcnemar.test(matrix(c(10, b, b, 10), 2)) -> statistic (|b - b| - 1)^2 / 2b = 1/(2b)
    res = mcnemar(b, b, method="chi2")
    assert res.statistic == pytest.approx(1 / (2 * b))
    assert res.pvalue == pytest.approx(stats.chi2.sf(1 / (2 * b), 1))
    assert mcnemar(b, b, method="chi2", correction=False).statistic == 0
    assert mcnemar(b, b).pvalue == 1.0


@pytest.mark.parametrize("method", ["exact", "chi2"])
def test_no_discordant_examples_raises(method):
    with pytest.raises(DegenerateDataError, match="n01 = n10 = 0"):
        mcnemar(0, 0, method=method)
    with pytest.raises(DegenerateDataError):
        mcnemar_table([[3, 0], [0, 7]], method=method)


def test_exact_pvalues_without_discordance_is_one():
    assert exact_pvalues(0, 0) == 1.0


# ---------------------------------------------------------------- peer implementations
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 300), st.integers(0, 300), st.integers(0, 50), st.integers(0, 50))
def test_agrees_with_statsmodels(n01, n10, n00, n11):
    if n01 + n10 == 0:
        return
    table = [[n00, n01], [n10, n11]]
    for correction in (True, False):
        ours = mcnemar_table(table, method="chi2", correction=correction)
        ref = sm_mcnemar(np.array(table), exact=False, correction=correction)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert mcnemar_table(table).pvalue == pytest.approx(
        sm_mcnemar(np.array(table), exact=True).pvalue, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 200), st.integers(0, 200))
def test_exact_agrees_with_scipy_binomtest(n01, n10):
    if n01 + n10 == 0:
        return
    n = n01 + n10
    # "A better" (greater) means few A errors: lower tail of n01, binomtest's "less".
    for ours, theirs in (("two-sided", "two-sided"), ("greater", "less"), ("less", "greater")):
        ref = stats.binomtest(n01, n, 0.5, alternative=theirs).pvalue
        assert mcnemar(n01, n10, alternative=ours).pvalue == pytest.approx(ref, rel=1e-9)


def test_confidence_interval_is_clopper_pearson():
    res = mcnemar(17, 2)
    lo, hi = res.confidence_interval(0.9)
    ref = proportion_confint(17, 19, alpha=0.1, method="beta")
    assert (lo, hi) == pytest.approx(ref, rel=1e-9)
    assert res.estimate == pytest.approx(17 / 19)
    # One-sided "A better" (phi < 1/2) gives an upper bound on phi.
    lo1, hi1 = mcnemar(2, 17, alternative="greater").confidence_interval(0.95)
    assert lo1 == 0.0
    assert hi1 == pytest.approx(stats.beta.ppf(0.95, 3, 17))


def test_one_sided_chi2_is_signed_root():
    res = mcnemar(30, 50, method="chi2", correction=False, alternative="greater")
    assert res.details["z"] ** 2 == pytest.approx(res.statistic)
    two = mcnemar(30, 50, method="chi2", correction=False).pvalue
    assert res.pvalue == pytest.approx(two / 2)
    less = mcnemar(30, 50, method="chi2", correction=False, alternative="less").pvalue
    assert res.pvalue + less == pytest.approx(1.0)
    # The continuity correction makes both tails larger (more conservative).
    assert mcnemar(30, 50, method="chi2", alternative="greater").pvalue > res.pvalue
    # Close to the exact tail probability.
    exact = mcnemar(30, 50, alternative="greater").pvalue
    corrected = mcnemar(30, 50, method="chi2", alternative="greater").pvalue
    assert corrected == pytest.approx(exact, rel=0.1)


# ---------------------------------------------------------------- properties
@settings(max_examples=40, deadline=None)
@given(st.integers(0, 500), st.integers(0, 500), st.sampled_from(["exact", "chi2"]),
       st.booleans())
def test_swapping_a_and_b_mirrors(n01, n10, method, correction):
    if n01 + n10 == 0:
        return
    ab = mcnemar(n01, n10, method=method, correction=correction)
    ba = mcnemar(n10, n01, method=method, correction=correction)
    assert ab.pvalue == pytest.approx(ba.pvalue, rel=1e-12)
    assert ab.effect_size == pytest.approx(-ba.effect_size, abs=1e-15)
    assert ab.estimate == pytest.approx(1 - ba.estimate)
    lo, hi = ab.confidence_interval()
    assert (1 - hi, 1 - lo) == pytest.approx(ba.confidence_interval(), abs=1e-12)
    for alt, mirror in (("greater", "less"), ("less", "greater")):
        p_ab = mcnemar(n01, n10, method=method, correction=correction, alternative=alt).pvalue
        p_ba = mcnemar(n10, n01, method=method, correction=correction, alternative=mirror).pvalue
        assert p_ab == pytest.approx(p_ba, rel=1e-12)


def test_greater_means_a_better():
    # A makes 5 errors B avoids, B makes 40 errors A avoids: A better.
    assert mcnemar(5, 40, alternative="greater").pvalue < 1e-6
    assert mcnemar(5, 40, alternative="less").pvalue > 0.99


def test_exact_type_one_error_at_most_alpha():
    rng = np.random.default_rng(0)
    n = rng.integers(5, 200, size=20_000)
    n01 = rng.binomial(n, 0.5)
    rate = np.mean(exact_pvalues(n01, n - n01) <= 0.05)
    assert rate <= 0.05


# ---------------------------------------------------------------- discordance counts
def test_discordance_counts_from_correctness():
    a = [1, 0, 0, 1, 1, 0, True]
    b = [1, 1, 0, 0, 1, 1, False]
    c = discordance_counts(a, b)
    assert c == (1, 2, 2, 2)
    assert c.n == 7
    assert c.table.tolist() == [[1, 2], [2, 2]]
    swapped = discordance_counts(b, a)
    assert (swapped.n01, swapped.n10) == (c.n10, c.n01)


def test_discordance_counts_from_labels_matches_correctness():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 500)
    pa = np.where(rng.random(500) < 0.8, y, rng.integers(0, 3, 500))
    pb = np.where(rng.random(500) < 0.7, y, rng.integers(0, 3, 500))
    from_labels = discordance_counts(pa, pb, y_true=y)
    assert from_labels == discordance_counts(pa == y, pb == y)
    assert from_labels.table.sum() == 500
    # Integer-valued floats are labels too.
    assert discordance_counts(pa.astype(float), pb.astype(float), y_true=y) == from_labels


def test_discordance_counts_bad_input():
    with pytest.raises(InvalidInputError, match="paired"):
        discordance_counts([1, 0], [1, 0, 1])
    with pytest.raises(InvalidInputError, match="0/1"):
        discordance_counts([1, 2], [1, 0])
    with pytest.raises(InvalidInputError, match="probabilities"):
        discordance_counts([0.2, 0.9], [1, 0], y_true=[0, 1])
    with pytest.raises(InvalidInputError, match="one prediction per example"):
        discordance_counts([0, 1, 1], [1, 0, 1], y_true=[0, 1])
    with pytest.raises(InvalidInputError, match="missing"):
        discordance_counts(np.array(["a", None], dtype=object), ["a", "b"], y_true=["a", "b"])
    with pytest.raises(InvalidInputError, match="NaN"):
        discordance_counts([np.nan, 1.0], [1, 0], y_true=[0, 1])


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("n01, n10, match", [(-1, 3, "non-negative"), (2.5, 3, "whole"),
                                             (np.nan, 3, "NaN"), ([1, 2], 3, "single")])
def test_bad_counts(n01, n10, match):
    with pytest.raises(InvalidInputError, match=match):
        mcnemar(n01, n10)


def test_bad_options_and_table():
    with pytest.raises(InvalidInputError, match="method"):
        mcnemar(3, 4, method="mid-p")
    with pytest.raises(InvalidInputError, match="alternative"):
        mcnemar(3, 4, alternative="bigger")
    with pytest.raises(InvalidInputError, match="2 x 2"):
        mcnemar_table([1, 2, 3, 4])


# ---------------------------------------------------------------- Cochran's Q
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(3, 60), st.integers(0, 2**32 - 1))
def test_cochrans_q_agrees_with_statsmodels(k, n, seed):
    rng = np.random.default_rng(seed)
    x = rng.random((k, n)) < rng.uniform(0.3, 0.9, size=(k, 1))
    row = x.sum(0)
    if np.all((row == 0) | (row == k)):
        with pytest.raises(DegenerateDataError):
            cochrans_q(x)
        return
    ours = cochrans_q(x)
    ref = sm_cochrans_q(x.T.astype(int))  # statsmodels: examples x models
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-8)
    assert ours.df == ref.df
    # Reordering examples or models changes nothing.
    perm = rng.permutation(n)
    assert cochrans_q(x[::-1][:, perm]).statistic == pytest.approx(ours.statistic)


def test_cochrans_q_two_models_is_uncorrected_mcnemar():
    rng = np.random.default_rng(3)
    x = rng.random((2, 300)) < [[0.7], [0.6]]
    c = discordance_counts(x[0], x[1])
    assert cochrans_q(x).statistic == pytest.approx(
        mcnemar(c.n01, c.n10, method="chi2", correction=False).statistic)


def test_cochrans_q_bad_input():
    with pytest.raises(TooFewError, match="at least 2"):
        cochrans_q([[1, 0, 1]])
    with pytest.raises(InvalidInputError, match="0/1"):
        cochrans_q([[1, 0, 3], [1, 1, 0]])
    with pytest.raises(DegenerateDataError, match="denominator"):
        cochrans_q([[1, 0, 1], [1, 0, 1]])
