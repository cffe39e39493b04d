"""DeLong's test for two correlated AUCs (outperform.stats._delong)."""
from __future__ import annotations

import csv

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import delong_test


@pytest.fixture(scope="module")
def asah(shared_data):
    with open(shared_data / "pROC_aSAH.csv") as fh:
        rows = list(csv.DictReader(fh))
    outcome = np.array([r["outcome"] for r in rows])
    return {"outcome": outcome, **{k: np.array([float(r[k]) for r in rows])
                                   for k in ("wfns", "s100b", "ndka")}}


def test_proc_asah_wfns_vs_s100b(asah):
    """pROC (Robin et al. 2011), ?roc.test example:

    roc1 <- roc(aSAH$outcome, aSAH$wfns); roc2 <- roc(aSAH$outcome, aSAH$s100b)
    roc.test(roc1, roc2)  # DeLong: Z = 2.20898, p-value = 0.027176,
                          # 95% CI of the AUC difference 0.010406 0.174214
    pROC picks direction "<" (controls < cases) for both markers here, since the "Poor"
    outcome has the higher medians (wfns 4 vs 1, s100b 0.30 vs 0.11): no marker is flipped,
    so our fixed "higher score = positive" orientation gives the same numbers.
    """
    res = delong_test(asah["outcome"], asah["wfns"], asah["s100b"], pos_label="Poor")
    poor = asah["outcome"] == "Poor"
    assert res.details["auc_a"] == pytest.approx(roc_auc_score(poor, asah["wfns"]), abs=1e-12)
    assert res.details["auc_b"] == pytest.approx(roc_auc_score(poor, asah["s100b"]), abs=1e-12)
    assert res.statistic == pytest.approx(2.20898, abs=1e-5)
    assert res.pvalue == pytest.approx(0.027176, abs=1e-6)
    assert res.confidence_interval() == pytest.approx((0.010406, 0.174214), abs=1e-6)
    assert (res.details["n_positive"], res.details["n_negative"]) == (41, 72)


def test_proc_asah_flipped_marker_is_not_reoriented(asah):
    """pROC's auto direction would flip -wfns back to AUC 0.82; we keep 1 - 0.82."""
    res = delong_test(asah["outcome"], -asah["wfns"], asah["s100b"], pos_label="Poor")
    poor = asah["outcome"] == "Poor"
    assert res.details["auc_a"] == pytest.approx(1 - roc_auc_score(poor, asah["wfns"]))
    assert res.estimate < 0


def _slow_delong(y, a, b):
    """Textbook DeLong with the O(m n) kernel psi(x, y) = 1[x > y] + 1/2 1[x = y]."""
    pos = np.asarray(y) == 1
    comps = []
    for s in (a, b):
        x, yy = s[pos], s[~pos]
        psi = (x[:, None] > yy[None, :]) + 0.5 * (x[:, None] == yy[None, :])
        comps.append((psi.mean(), psi.mean(axis=1), psi.mean(axis=0)))
    (auc_a, v10a, v01a), (auc_b, v10b, v01b) = comps
    m, n = pos.sum(), (~pos).sum()
    s10, s01 = np.cov(np.vstack([v10a, v10b])), np.cov(np.vstack([v01a, v01b]))
    s = s10 / m + s01 / n
    var = s[0, 0] + s[1, 1] - 2 * s[0, 1]
    return auc_a - auc_b, var


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 80), st.integers(0, 2**32 - 1), st.booleans())
def test_agrees_with_quadratic_delong_and_sklearn(n, seed, ties):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 0, 1, 1, rng.integers(0, 2, n)]
    a = y + rng.normal(size=y.size)
    b = 0.5 * y + rng.normal(size=y.size)
    if ties:  # coarse scores produce ties within and across classes
        a, b = np.round(a), np.round(b * 2)
    delta, var = _slow_delong(y, a, b)
    if var < 1e-12:
        return
    res = delong_test(y, a, b)
    assert res.details["auc_a"] == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert res.details["auc_b"] == pytest.approx(roc_auc_score(y, b), abs=1e-12)
    assert res.estimate == pytest.approx(delta, abs=1e-12)
    assert res.details["se"] ** 2 == pytest.approx(var, rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_swapping_a_and_b_mirrors(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 60)
    y[:4] = [0, 0, 1, 1]
    a, b = y + rng.normal(size=60), y + rng.normal(size=60)
    ab, ba = delong_test(y, a, b), delong_test(y, b, a)
    assert ab.statistic == pytest.approx(-ba.statistic)
    assert ab.pvalue == pytest.approx(ba.pvalue)
    lo, hi = ab.confidence_interval()
    assert (-hi, -lo) == pytest.approx(ba.confidence_interval())
    assert delong_test(y, a, b, alternative="greater").pvalue == pytest.approx(
        delong_test(y, b, a, alternative="less").pvalue)


def test_invariant_under_monotone_transforms_and_order():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 2, 100)
    a, b = y + rng.normal(size=100), y + rng.normal(size=100)
    ref = delong_test(y, a, b)
    moved = delong_test(y, np.exp(a), 3 * b - 7)
    assert moved.statistic == pytest.approx(ref.statistic)
    perm = rng.permutation(100)
    assert delong_test(y[perm], a[perm], b[perm]).statistic == pytest.approx(ref.statistic)


def test_one_sided():
    rng = np.random.default_rng(8)
    y = rng.integers(0, 2, 200)
    a, b = 1.5 * y + rng.normal(size=200), 0.5 * y + rng.normal(size=200)
    two = delong_test(y, a, b)
    greater = delong_test(y, a, b, alternative="greater")
    less = delong_test(y, a, b, alternative="less")
    assert greater.pvalue == pytest.approx(two.pvalue / 2)
    assert greater.pvalue + less.pvalue == pytest.approx(1.0)
    lo, hi = greater.confidence_interval(0.95)
    assert hi == 1.0 and lo == pytest.approx(two.confidence_interval(0.90)[0])
    assert less.confidence_interval(0.95)[0] == -1.0


def test_type_one_error_at_most_alpha_roughly():
    """Exchangeable scores (equal AUCs): rejection rate near 5%."""
    rng = np.random.default_rng(11)
    rejections = 0
    reps = 400
    for _ in range(reps):
        y = np.r_[np.zeros(60), np.ones(40)]
        shared = y + rng.normal(size=100)
        a, b = shared + rng.normal(size=100), shared + rng.normal(size=100)
        rejections += delong_test(y, a, b).pvalue <= 0.05
    # Binomial(400, 0.05) has sd 0.011: allow 3 sd above alpha.
    assert rejections / reps <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)


def test_bad_input():
    y = [0, 0, 1, 1, 1]
    with pytest.raises(InvalidInputError, match="one value per example"):
        delong_test(y, [1, 2, 3, 4, 5], [1, 2, 3, 4])
    with pytest.raises(InvalidInputError, match="two classes"):
        delong_test([0, 1, 2, 1, 0], [1, 2, 3, 4, 5], [5, 4, 3, 2, 1])
    with pytest.raises(InvalidInputError, match="pos_label"):
        delong_test(["g", "p", "g", "p"], [1, 2, 3, 4], [4, 3, 2, 1])
    with pytest.raises(InvalidInputError, match="NaN"):
        delong_test(y, [1, np.nan, 3, 4, 5], [1, 2, 3, 4, 5])
    with pytest.raises(TooFewError, match="at least 2 positive and 2 negative"):
        delong_test([0, 1, 1, 1], [1, 2, 3, 4], [4, 3, 2, 1])
    with pytest.raises(DegenerateDataError, match="zero variance"):
        delong_test(y, [1, 2, 3, 4, 5], [10, 20, 30, 40, 50])
    with pytest.raises(InvalidInputError, match="alternative"):
        delong_test(y, [1, 2, 3, 4, 5], [5, 4, 3, 2, 1], alternative="up")
