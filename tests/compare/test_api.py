"""Options of compare() and compare_predictions() that must do what they say (issue 12's
loose ends): the encoding of a file, progress of the MCMC, a prior strength of 0, decision
thresholds at or below 0.5, posthoc='none', control= (reference= deprecated), and Q2 pairs
whose fold differences are all equal."""
import importlib
import warnings

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.bayes import bayesian_signed_rank_test, decide
from outperform.compare import compare, compare_predictions
from outperform.data import load_demsar_table6


# --- encoding ---------------------------------------------------------------------------

def test_encoding_reaches_every_reader_of_compare(tmp_path):
    long = tmp_path / "long.csv"
    rows = [f"täsk{t},{m},{s}" for t in range(6) for m, s in (("A", .8 + t / 100), ("B", .7))]
    long.write_bytes(("task,model,accuracy\n" + "\n".join(rows) + "\n").encode("cp1252"))
    with pytest.raises(InvalidInputError, match="--encoding cp1252"):
        compare(long)
    assert compare(long, encoding="cp1252").n_tasks == 6
    preds = tmp_path / "preds.csv"   # Q1, routed by its y_true column read from the header
    y = np.tile([0, 1], 20)
    frame = pd.DataFrame({"y_true": y, "modèle": y, "B": np.roll(y, 1)})
    preds.write_bytes(frame.to_csv(index=False).encode("cp1252"))
    rep = compare(preds, encoding="cp1252")
    assert rep.question == "Q1" and "modèle" in rep.models
    assert compare_predictions(preds, encoding="cp1252").models == rep.models


# --- progress of the hierarchical MCMC ---------------------------------------------------

class _Stop(Exception):
    pass


def _folds_of_two_models(n_tasks=6, n_folds=5, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "run": 0, "fold": f,
                          "accuracy": mu + rng.normal(0, .02)}
                         for t in range(n_tasks) for m, mu in (("A", .8), ("B", .78))
                         for f in range(n_folds)])


@pytest.mark.parametrize("progress", [True, False])
def test_progress_reaches_the_hierarchical_test(monkeypatch, progress):
    seen = {}

    def fake(*args, **kwargs):   # the MCMC itself takes 15 s; only its arguments matter here
        seen.update(kwargs)
        raise _Stop

    monkeypatch.setattr(importlib.import_module("outperform.bayes"),
                        "hierarchical_correlated_ttest", fake)
    with pytest.raises(_Stop):
        compare(_folds_of_two_models(), hierarchical=True, progress=progress)
    assert seen["progress"] is progress


def test_progress_is_off_by_default_in_the_library(monkeypatch):
    seen = {}

    def fake(*args, **kwargs):
        seen.update(kwargs)
        raise _Stop

    monkeypatch.setattr(importlib.import_module("outperform.bayes"),
                        "hierarchical_correlated_ttest", fake)
    with pytest.raises(_Stop):
        compare(_folds_of_two_models(), hierarchical=True)
    assert seen["progress"] is False


# --- prior strength 0 --------------------------------------------------------------------

@pytest.mark.parametrize("table", [load_demsar_table6(),
                                   load_demsar_table6().frame.query("model in ['C4.5', 'C4.5+m']")])
def test_prior_strength_zero_is_refused_not_replaced(table):
    # Benavoli et al. (2017): the Dirichlet process DP(s, G0) needs s > 0.
    with pytest.raises(InvalidInputError, match="must be a number > 0, got 0"):
        compare(table, bayesian=True, prior_strength=0)
    with pytest.raises(InvalidInputError, match="--prior"):
        compare(table, bayesian=True, prior_strength=-1.0)


def test_a_given_prior_strength_is_the_one_used():
    two = load_demsar_table6().frame.query("model in ['C4.5', 'C4.5+m']")
    rep = compare(two, bayesian=True, prior_strength=0.25)
    assert rep.tests["bayesian_signed_rank"].details["prior_strength"] == 0.25
    assert rep.tests["bayesian_sign"].details["prior_strength"] == 0.25


# --- decision thresholds ------------------------------------------------------------------

def test_two_regions_can_reach_a_threshold_below_one_half():
    # P(A better) = P(B better) = 0.45: both reach 0.3, so no region may be "the" decision.
    with pytest.raises(InvalidInputError, match=r"\(0\.5, 1\)"):
        decide(0.45, 0.10, 0.45, a_better_side="right", threshold=0.3)
    with pytest.raises(InvalidInputError, match="two regions"):
        decide(0.5, 0.0, 0.5, a_better_side="right", threshold=0.5)
    assert decide(0.45, 0.10, 0.45, a_better_side="right", threshold=0.51) == "undecided"


def test_thresholds_at_or_below_one_half_are_refused_by_compare_and_the_kernels():
    with pytest.raises(InvalidInputError, match="threshold"):
        compare(load_demsar_table6(), bayesian=True, threshold=0.3)
    with pytest.raises(InvalidInputError, match="threshold"):
        compare(load_demsar_table6(), threshold=0.5)   # refused even where unused
    with pytest.raises(InvalidInputError, match="threshold"):
        bayesian_signed_rank_test([1, 2, 3, 4, 5], [0, 1, 2, 3, 4], threshold=0.4)


# --- posthoc='none' ------------------------------------------------------------------------

def test_without_a_post_hoc_test_no_result_is_called_descriptive():
    # Demšar (2006) Table 6: Iman–Davenport p = 0.022, not significant at alpha = 0.01.
    t6 = load_demsar_table6()
    none = compare(t6, alpha=0.01, posthoc="none")
    assert none.tests["iman_davenport"].pvalue > 0.01 and not none.posthoc
    assert not any("descriptive" in c for c in none.conclusions), none.conclusions
    assert none.details["posthoc"] == "none"
    nemenyi = compare(t6, alpha=0.01)
    assert any("post-hoc results below are descriptive" in c for c in nemenyi.conclusions)


# --- control= and the deprecated reference= -----------------------------------------------

def _predictions():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    return pd.DataFrame({"y_true": y, **{f"m{i}": np.where(rng.uniform(size=300) < 0.6 + 0.1 * i,
                                                             y, 1 - y) for i in range(3)}})


def test_reference_is_a_deprecated_alias_of_control():
    df = _predictions()
    new = compare_predictions(df, control="m0")
    with pytest.warns(DeprecationWarning, match="control="):
        old = compare_predictions(df, reference="m0")
    assert old.control == new.control == "m0"
    assert old.conclusions == new.conclusions
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # the new name warns about nothing
        compare_predictions(df, control="m0")
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidInputError, match="different"):
        compare_predictions(df, control="m1", reference="m0")
    assert compare(df, control="m0").control == "m0"


# --- Q2: all fold differences of a pair equal ----------------------------------------------

def _folds(scores: dict, n_train=70, n_test=30):
    return pd.DataFrame([{"model": m, "run": r, "fold": 0, "accuracy": s, "n_train": n_train,
                          "n_test": n_test} for m, v in scores.items() for r, s in enumerate(v)])


def test_equal_fold_scores_leave_the_t_test_undefined_and_the_bayesian_limit():
    rep = compare(_folds({"A": [.8, .9], "B": [.8, .9]}))   # e.g. benchmark --cv holdout:2x0.3
    t, bayes = rep.tests["corrected_t"], rep.tests["correlated_bayes"]
    assert np.isnan(t.pvalue) and np.isnan(t.statistic) and t.estimate == 0
    assert "undefined" in t.details
    # Point-mass limit at 0 with the ROPE [0, 0]: half the mass on each side (as baycomp).
    assert (bayes.p_left, bayes.p_rope, bayes.p_right) == (0.5, 0.0, 0.5)
    words = " ".join(rep.conclusions)
    assert "no evidence of a difference" in words and "significant" not in words
    assert "correlated_bayesian_ttest" not in words and "(" in words


@pytest.mark.parametrize("hib, metric", [(True, "accuracy"), (False, "error_rate")])
def test_a_constant_difference_is_stated_with_the_better_model(hib, metric):
    # 0.9 - 0.8 and 0.8 - 0.7 differ by rounding (1e-16): one constant difference of 0.1.
    frame = _folds({"A": [.9, .8], "B": [.8, .7]}).rename(columns={"accuracy": metric})
    rep = compare(frame)
    t = rep.tests["corrected_t"]
    assert np.isnan(t.pvalue) and t.estimate == pytest.approx(0.1 if hib else -0.1)
    better, worse = ("A", "B") if hib else ("B", "A")
    # Issue 25: the default ROPE 0.1 x sd is 0 here (no spread): a degenerate ROPE gives no
    # decision (it was "A better" with P = 1 before).
    assert rep.tests["correlated_bayes"].decision == "undecided"
    assert rep.tests["correlated_bayes"].details["zero_rope"]
    text = " ".join(rep.conclusions)
    assert f"{better}'s {metric} is 0.1 {'higher' if hib else 'lower'} than {worse}'s" in text
    assert "significantly" not in text


def test_a_constant_pair_leaves_the_others_tested_and_out_of_holm():
    rep = compare(_folds({"A": [.80, .90, .85], "B": [.80, .90, .85], "C": [.70, .74, .60]}))
    post = rep.posthoc["corrected_t_holm"]
    names = list(post.names)
    a, b, c = (names.index(m) for m in "ABC")
    assert np.isnan(post.pvalue[a, b]) and np.isnan(post.pvalue_adjusted[a, b])
    assert not post.reject[a, b]
    # Holm (1979) over the two tested pairs: sorted p(1) <= p(2) become 2 p(1), max(2 p(1), p(2)).
    p1, p2 = sorted((post.pvalue[a, c], post.pvalue[b, c]))
    adjusted = sorted((post.pvalue_adjusted[a, c], post.pvalue_adjusted[b, c]))
    assert adjusted == pytest.approx([min(1, 2 * p1), min(1, max(2 * p1, p2))])
