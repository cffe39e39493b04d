"""Demšar (2006) §4: replicability R(e), R(p) and biased selection of data sets."""
import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outperform import InvalidInputError, TooFewError
from outperform.data import load_demsar_table6
from outperform.simulate import (demsar_study, replicability_e, replicability_p,
                                               select_data_sets, selection_probabilities)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=2, max_size=40))
def test_bouckaert_formula_equals_the_pairwise_definition(outcomes):
    """R(e) = sum_{i<j} I(e_i = e_j) / (n(n-1)/2) = (p(p-1) + q(q-1)) / (n(n-1))."""
    n = len(outcomes)
    pairs = sum(a == b for a, b in itertools.combinations(outcomes, 2)) / (n * (n - 1) / 2)
    e = np.array(outcomes, dtype=float)
    as_variance = 1 - 2 * np.sum((e - e.mean()) ** 2) / (n - 1)   # Demšar's reformulation
    assert replicability_e(outcomes) == pytest.approx(pairs, abs=1e-12)
    assert replicability_e(outcomes) == pytest.approx(as_variance, abs=1e-12)


def test_r_e_extremes():
    assert replicability_e([True] * 8) == 1.0
    assert replicability_e([False] * 8) == 1.0
    # Half and half: (m(m-1) * 2) / (2m(2m-1)) = (m-1)/(2m-1), "the minimal value 0.5".
    assert replicability_e([True, False] * 50) == pytest.approx(49 / 99)


def test_r_p_is_one_minus_twice_the_sample_variance():
    p = np.array([0.01, 0.5, 0.2, 0.04, 0.9])
    assert replicability_p(p) == pytest.approx(1 - 2 * np.var(p, ddof=1))
    # Demšar's footnote 4: half zeros, half ones gives var 0.25 + 0.25/(n-1), below 0.5.
    n = 10
    assert replicability_p([0.0, 1.0] * (n // 2)) == pytest.approx(1 - 2 * (0.25 + 0.25 / (n - 1)))
    assert replicability_p([0.3] * 4) == 1.0


def test_replicability_bad_input():
    with pytest.raises(TooFewError, match="at least 2"):
        replicability_e([True])
    with pytest.raises(InvalidInputError, match="booleans"):
        replicability_e([0.5, 1])
    with pytest.raises(InvalidInputError, match=r"\[0, 1\]"):
        replicability_p([0.5, 1.5])
    with pytest.raises(TooFewError):
        replicability_p([0.5])


def test_selection_probabilities_are_logistic():
    d = np.array([-0.1, 0.0, 0.2])
    w = 1 / (1 + np.exp(-10 * d))
    np.testing.assert_allclose(selection_probabilities(d, 10), w / w.sum())
    np.testing.assert_allclose(selection_probabilities(d, 0), 1 / 3)
    extreme = selection_probabilities(d, 1e4)       # no overflow
    assert np.all(np.isfinite(extreme)) and extreme.argmax() == 2


def test_selection_matches_sequential_weighted_sampling():
    """Exponential keys give the same law as numpy's choice(replace=False, p=w)."""
    d = np.array([0.1, -0.05, 0.0, 0.2, -0.2, 0.05])
    k, s, m = 15.0, 3, 8000
    keys = select_data_sets(d, k, s, m, random_state=0)
    rng = np.random.default_rng(1)
    w = selection_probabilities(d, k)
    ref = np.array([rng.choice(d.size, size=s, replace=False, p=w) for _ in range(m)])
    for column in (0, slice(None)):     # first pick, and inclusion in the sample
        f1 = np.bincount(keys[:, column].ravel(), minlength=d.size) / m
        f2 = np.bincount(ref[:, column].ravel(), minlength=d.size) / m
        assert np.all(np.abs(f1 - f2) < 4 * np.sqrt((f1 + f2) / m) + 1e-3)
    assert np.all(np.sort(keys, axis=1)[:, 1:] != np.sort(keys, axis=1)[:, :-1])


def test_select_data_sets_bad_input():
    with pytest.raises(InvalidInputError, match="distinct"):
        select_data_sets([0.1, 0.2], 1.0, 3, 5)
    with pytest.raises(InvalidInputError, match="NaN"):
        select_data_sets([0.1, np.nan], 1.0, 1, 5)


@pytest.fixture(scope="module")
def table6_study():
    table = load_demsar_table6().score_matrix()
    return demsar_study(table, pair=("C4.5+m+cf", "C4.5"), biases=[0, 40], n_selected=7,
                        n_repetitions=150, random_state=0)


def test_demsar_study_table(table6_study):
    t = table6_study
    assert set(t["test"]) == {"paired t-test", "paired t-test (relative)", "Wilcoxon signed-rank",
                              "sign test", "Friedman", "repeated-measures ANOVA"}
    assert set(t["kind"]) == {"two classifiers", "multiple classifiers"}
    assert np.all(t["n_repetitions"] + t["n_errors"] == 150)
    # R(e) is Bouckaert's formula on the rejection counts.
    q = np.round(t["rejection_rate"] * t["n_repetitions"])
    p = t["n_repetitions"] - q
    n = t["n_repetitions"]
    np.testing.assert_allclose(t["replicability_e"], (p * (p - 1) + q * (q - 1)) / (n * (n - 1)))
    assert np.all((t["replicability_p"] > 0.4) & (t["replicability_p"] <= 1))


def test_bias_favours_the_first_classifier(table6_study):
    # Selecting the data sets where C4.5+m+cf wins lowers the p-values of the pair's tests.
    t = table6_study.set_index(["test", "k"])
    for test in ("paired t-test", "Wilcoxon signed-rank"):
        assert t.loc[(test, 40.0), "mean_pvalue"] < t.loc[(test, 0.0), "mean_pvalue"]
        assert t.loc[(test, 40.0), "rejection_rate"] >= t.loc[(test, 0.0), "rejection_rate"]


def test_sign_test_is_the_weakest_on_uci_data(shared_data):
    """Demšar §4.2: "The sign test is ... much weaker than the other tests"."""
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)     # the duplicated 'credit' line
        long = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    wide = long.groupby(["task", "model"])["score"].mean().unstack()
    t = demsar_study(wide, pair=("hnb", "nbc"), biases=[0, 10, 20], n_repetitions=150,
                     multi_classifier_tests={}, random_state=1)
    rate = t.set_index(["test", "k"])["rejection_rate"]
    se = 2 * np.sqrt(0.25 / 150)
    for k in (0.0, 10.0, 20.0):
        assert rate["sign test", k] <= rate["Wilcoxon signed-rank", k] + se
    assert rate["Wilcoxon signed-rank", 20.0] > rate["Wilcoxon signed-rank", 0.0]


def test_demsar_study_bad_input():
    scores = pd.DataFrame(np.random.default_rng(0).random((12, 2)), columns=["a", "b"])
    with pytest.raises(InvalidInputError, match="unknown model"):
        demsar_study(scores, pair=("a", "c"), n_repetitions=5)
    with pytest.raises(InvalidInputError, match="different"):
        demsar_study(scores, pair=("a", "a"), n_repetitions=5)
    with pytest.raises(InvalidInputError, match="out of 12"):
        demsar_study(scores, n_selected=20, n_repetitions=5)
    with pytest.raises(InvalidInputError, match="dict"):
        demsar_study(scores, two_classifier_tests=[len], n_repetitions=5)
