"""Statistics at the edges of compare() (issue 25): degenerate inference reported, never
printed as certainty; one sign convention; every probability mass shown.

Each test below failed on the code before the fix (noted per test)."""
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform.compare import compare, compare_predictions, variance_components
from outperform.report import render_json, render_markdown

from _peers import friedman_brute_force  # noqa: E402

from _report_cases import fold_tasks, variance_simulation  # noqa: E402



def _folds(diffs, base=None, *, runs=2, folds=5, seed=1):
    """Q2 table: A = B + diffs (one per fold), B ~ 0.8 + noise."""
    rng = np.random.default_rng(seed)
    n = runs * folds
    b = 0.8 + rng.normal(0, 0.02, n) if base is None else np.asarray(base, float)
    a = b + np.asarray(diffs, float)
    rows = [{"task": "t", "model": m, "run": i // folds, "fold": i % folds, "accuracy": v}
            for m, col in (("A", a), ("B", b)) for i, v in enumerate(col)]
    return pd.DataFrame(rows)


# --- Q2: rho = 0 -------------------------------------------------------------------------

def test_rho_zero_warns_that_the_test_is_the_naive_one():
    # Before: p from the naive t-test with "Warnings: None". The p-value itself is right for
    # rho = 0 (scipy.stats.ttest_rel is the peer); what changes is that it is not silent.
    frame = _folds(np.random.default_rng(2).normal(0.01, 0.01, 10))
    rep = compare(frame, rho=0)
    a = frame[frame.model == "A"].accuracy.to_numpy()
    b = frame[frame.model == "B"].accuracy.to_numpy()
    assert rep.tests["corrected_t"].pvalue == pytest.approx(stats.ttest_rel(a, b).pvalue,
                                                            rel=1e-10)
    [w] = [w for w in rep.warnings if w.startswith("rho = 0")]
    assert "naive paired t-test" in w and "Nadeau & Bengio 2003" in w
    assert "rho = 0.2 (1/k for 5-fold cross-validation)" in w   # the design's default
    assert "naive t-test" in rep.rationale
    assert "naive paired t-test" in render_markdown(rep)


def test_default_rho_gives_no_such_warning():
    rep = compare(_folds(np.random.default_rng(2).normal(0.01, 0.01, 10)))
    assert not any(w.startswith("rho = 0") for w in rep.warnings)


# --- Q2: a zero ROPE from no spread ---------------------------------------------------------

def test_constant_difference_gives_no_certain_bayesian_decision():
    # Before: "A is practically better than B (... P(A better) = 1.000 ...; ROPE [-0, 0])".
    rep = compare(_folds(np.full(10, 0.01)))
    res = rep.tests["correlated_bayes"]
    assert res.decision == "undecided" and res.details["zero_rope"]
    text = " ".join(rep.conclusions)
    assert "practically better" not in text and "P(A better) = 1.000" not in text
    assert "default ROPE" in text and "zero width" in text
    assert any("no decision" in w and "zero width" in w for w in rep.warnings)
    md = render_markdown(rep)
    assert "1.000" not in md and "undecided" in md
    assert '"decision": "undecided"' in render_json(rep)


def test_a_given_rope_still_decides_a_constant_difference():
    # The degenerate case is the *default* ROPE of width 0, not a ROPE the user chose.
    rep = compare(_folds(np.full(10, 0.01)), rope=0.005)
    assert rep.tests["correlated_bayes"].decision == "A better"


def test_constant_pair_among_three_models_shows_no_probabilities():
    rng = np.random.default_rng(4)
    b = 0.8 + rng.normal(0, 0.02, 10)
    frame = pd.concat([_folds(np.full(10, 0.01), base=b),
                       _folds(rng.normal(0, 0.02, 10), base=b).query("model == 'A'")
                       .assign(model="C")])
    rep = compare(frame)
    post = rep.posthoc["corrected_t_holm"]
    i, j = post.names.index("A"), post.names.index("B")
    assert np.isnan(post.details["p_row_better"][i][j])
    assert any("A vs B: no decision" in w for w in rep.warnings)


# --- Q2 and Q1: rope = 0 --------------------------------------------------------------------

def test_rope_zero_is_accepted_on_q2_and_skips_only_tost():
    # Before: InvalidInputError "margin must be a positive number" from the TOST.
    rep = compare(_folds(np.random.default_rng(2).normal(0.01, 0.01, 10)), rope=0)
    assert "tost" not in rep.tests
    res = rep.tests["correlated_bayes"]
    assert res.rope == (0.0, 0.0) and res.p_rope == 0.0
    assert any("rope = 0" in w and "TOST" in w for w in rep.warnings)


def test_rope_zero_on_q1_notes_the_skipped_tost():
    # Before: the TOST was skipped without a word.
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"A": rng.normal(0.3, 0.1, 50), "B": rng.normal(0.35, 0.1, 50)})
    rep = compare_predictions(df, y_true=None, loss="given", rope=0)
    assert "tost" not in rep.tests
    assert any("rope = 0" in w and "TOST" in w for w in rep.warnings)


# --- Q1: sign convention, log-loss clipping, promises ---------------------------------------

def _probabilities(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p1 = np.clip(y * 0.6 + 0.2 + rng.normal(0, 0.2, n), 0, 1)
    p2 = np.clip(y * 0.5 + 0.25 + rng.normal(0, 0.25, n), 0, 1)
    return pd.DataFrame({"y_true": y, "logreg": p1, "rf": p2})


def test_loss_difference_has_one_sign_in_sentence_and_table():
    # Before: "mean loss of logreg − rf = -0.2669, CI [-0.6093, 0.07558]" beside the table's
    # "0.267 [-0.0756, 0.609]".
    df = _probabilities()
    rep = compare_predictions(df, loss="log")
    t = rep.tests["paired_t"]
    # peer: scipy's paired t-test of rf's against logreg's losses (mean loss rf - logreg)
    eps = 1e-15
    loss = {m: -np.log(np.clip(np.where(df.y_true == 1, df[m], 1 - df[m]), eps, 1))
            for m in ("logreg", "rf")}
    peer = stats.ttest_rel(loss["rf"], loss["logreg"])
    lo, hi = peer.confidence_interval(0.95)
    assert t.estimate == pytest.approx(np.mean(loss["rf"] - loss["logreg"]), rel=1e-12)
    assert t.confidence_interval(0.95) == pytest.approx((lo, hi), rel=1e-9)
    sentence = next(c for c in rep.conclusions if c.startswith("paired t-test"))
    assert f"mean loss of rf − logreg = {t.estimate:.4g}" in sentence
    assert f"95% CI [{lo:.4g}, {hi:.4g}]" in sentence
    assert "logreg − rf" not in sentence
    md = render_markdown(rep)
    assert f"rf − logreg = {t.estimate:.3g} [{lo:.3g}, {hi:.3g}]" in md


def test_log_loss_clipping_is_counted():
    # Before: probabilities of 0 for the true class were clipped to 1e-15 without a word.
    df = pd.DataFrame({"y_true": [0, 1, 1, 0, 1, 0, 1, 1] * 5,
                       "A": [0.1, 0.9, 0.0, 0.2, 0.8, 1.0, 0.7, 0.6] * 5,
                       "B": [0.2, 0.7, 0.6, 0.3, 0.9, 0.4, 0.5, 0.55] * 5})
    rep = compare_predictions(df, loss="log")
    clipped = int(np.sum(np.where(df.y_true == 1, df.A, 1 - df.A) < 1e-15))   # 10
    [w] = [w for w in rep.warnings if w.startswith("log loss clipped")]
    assert f"{clipped} of 'A'" in w and "'B'" not in w
    assert not any("clipped" in w for w in compare_predictions(_probabilities(),
                                                               loss="squared").warnings)


def test_three_predictors_promise_only_the_tests_they_show():
    # Before: the rationale promised the Bayesian t-test and a Wilcoxon check that k = 3
    # real-valued predictors never got.
    df = _probabilities()
    df["svm"] = np.clip(df.logreg + np.random.default_rng(3).normal(0, 0.1, len(df)), 0, 1)
    rep = compare_predictions(df, loss="squared")
    assert rep.tests == {} and set(rep.posthoc) == {"paired_t_holm"}
    assert "run on two models only" in rep.rationale
    assert "as a check" not in rep.rationale


# --- Poisson test: the no-majority mass -----------------------------------------------------

def test_poisson_rows_sum_to_one():
    # Before: P(A better) + P(equivalent) + P(B better) < 1 with the rest hidden.
    rep = compare(fold_tasks(), bayesian=True, rope=0.01)
    res = rep.tests["poisson"]
    rest = res.details["p_no_majority"]
    assert rest > 0.01
    assert res.p_left + res.p_rope + res.p_right + rest == pytest.approx(1, abs=1e-12)
    sentence = next(c for c in rep.conclusions if c.startswith("Poisson test"))
    assert f"P(no majority) = {rest:.3f}" in sentence
    md = render_markdown(rep)
    assert "P(no majority)" in md and f"{rest:.3f}" in md


def test_pairwise_poisson_shows_the_no_majority_mass():
    frame = fold_tasks()
    extra = frame[frame.model == "B"].assign(model="C")
    extra["accuracy"] += 0.002
    rep = compare(pd.concat([frame, extra]), bayesian=True, rope=0.01)
    res = rep.posthoc["poisson"]
    rest = np.asarray(res.details["p_no_majority"])
    p_rope = np.asarray(res.details["p_rope"])
    total = res.statistic + res.statistic.T + p_rope + rest
    off = ~np.eye(3, dtype=bool)
    np.testing.assert_allclose(total[off], 1.0, atol=1e-12)
    assert "P(no majority)" in render_markdown(rep)


# --- Variance components: the boundary note -------------------------------------------------

def test_boundary_note_only_where_an_estimate_is_zero():
    # Before: "a variance is estimated on the boundary (0)" for this table, whose smallest
    # component (task) is 0.6% of the total: statsmodels warned about a fit not kept.
    v = variance_components(variance_simulation(5, seed=0))
    total = sum(v.components.values())
    assert min(v.components.values()) > 1e-3 * total
    assert not any("boundary" in n for n in v.notes)


def test_boundary_note_names_the_zero_component():
    rng = np.random.default_rng(0)
    rows = [{"task": t, "model": m, "run": r,
             "score": 1000 * (d + s + rng.normal(0, 0.08))}
            for t, d in zip("PBSQEA", rng.uniform(0.3, 0.8, 6))
            for m, s in (("DQN", 0.0), ("C51", 0.05), ("Rainbow", 0.12)) for r in range(5)]
    v = variance_components(pd.DataFrame(rows))
    total = sum(v.components.values())
    assert v.components["seed"] <= 1e-8 * total
    assert any(n.startswith("the variance of seed is estimated on the boundary")
               for n in v.notes)


# --- Q3 over few data sets: the Friedman test's permutation distribution ---------------------

THREE_BY_FIVE = [[3, 1, 4, 2, 0], [4, 0, 2, 3, 1], [3, 2, 1, 4, 0]]


def test_three_data_sets_five_models_no_claim_from_the_f_approximation():
    # Before: Iman–Davenport p = 0.045 -> "The algorithms differ"; the exact permutation
    # p-value is 0.0634 (brute-force enumeration of the 120^3 arrangements below).
    x = np.array(THREE_BY_FIVE, float)
    rep = compare(pd.DataFrame(x, columns=list("ABCDE")), higher_is_better=True)
    assert rep.tests["iman_davenport"].pvalue < 0.05
    perm = rep.tests["friedman_permutation"]
    assert rep.recommended == "friedman_permutation" and perm.details["exact"]
    assert perm.pvalue == pytest.approx(friedman_brute_force(x), abs=1e-12)
    assert perm.pvalue > 0.05
    assert rep.conclusions[0].startswith("No significant difference among the 5 algorithms")
    assert "exact permutation" in rep.conclusions[0]
    assert any("permutation distribution" in w for w in rep.warnings)
    assert "significantly better" not in " ".join(rep.conclusions)


SIX_BY_FOUR = [[0.45, 0.27, -0.46, -0.48], [0.08, -0.52, 0.16, -0.38], [0.9, 1.9, 0.48, -1.58],
               [2.53, 0.35, -0.94, 0.91], [0.82, -0.62, -0.63, -0.99],
               [0.85, 1.07, -0.33, 0.42]]


def test_posthoc_claims_withheld_when_the_exact_omnibus_test_does_not_reject():
    # Before: Iman–Davenport p = 0.042 and Holm against m0: "m0 is significantly better than
    # m3" (adjusted p = 0.042); the Friedman permutation p-value is 0.056.
    frame = pd.DataFrame(SIX_BY_FOUR, columns=["m0", "m1", "m2", "m3"])
    rep = compare(frame, higher_is_better=True, control="m0", posthoc="holm")
    assert rep.tests["iman_davenport"].pvalue < 0.05
    assert rep.tests["friedman_permutation"].pvalue > 0.05
    assert not any(r.reject.any() for r in rep.posthoc.values())
    assert all("decision_withheld" in r.details for r in rep.posthoc.values())
    assert "significantly better" not in " ".join(rep.conclusions)
    assert any(w.startswith("post-hoc decisions withheld") for w in rep.warnings)


def test_more_than_ten_data_sets_keep_iman_davenport():
    from outperform.data import load_demsar_table6

    rep = compare(load_demsar_table6())
    assert rep.recommended == "iman_davenport" and "friedman_permutation" not in rep.tests


def test_monte_carlo_permutation_is_seeded_and_stated():
    rng = np.random.default_rng(7)
    frame = pd.DataFrame(rng.normal(size=(8, 9)), columns=[f"m{i}" for i in range(9)])
    one = compare(frame, higher_is_better=True, random_state=3)
    two = compare(frame, higher_is_better=True, random_state=3)
    perm = one.tests["friedman_permutation"]
    assert not perm.details["exact"] and perm.details["n_resamples"] == 20_000
    assert perm.pvalue == two.tests["friedman_permutation"].pvalue
    # Phipson & Smyth (2010): (1 + hits) / (B + 1), never 0
    assert perm.pvalue * 20_001 == pytest.approx(round(perm.pvalue * 20_001), abs=1e-6)
    assert perm.pvalue >= 1 / 20_001
    assert re.search(r"Monte Carlo permutation distribution \(20,000 resamples",
                     " ".join(one.warnings))


# --- Q3 Bayesian: the same zero default ROPE over data sets -------------------------------

def test_constant_difference_over_data_sets_gives_no_practical_claim():
    # Before: "A is practically better than B (P(A better) = 1.000 ...)" with ROPE ±0: scores
    # outside [0, 1] get 0.1 x sd of the differences, 0 when every data set differs by 10.
    a = np.random.default_rng(0).uniform(600, 900, 12)
    rep = compare(pd.DataFrame({"A": a + 10, "B": a}), bayesian=True, higher_is_better=True)
    for key in ("bayesian_signed_rank", "bayesian_sign"):
        assert rep.tests[key].decision == "undecided" and rep.tests[key].details["zero_rope"]
    text = " ".join(rep.conclusions)
    assert "practically better" not in text and "zero width" in text
    three = compare(pd.DataFrame({"A": a + 10, "B": a, "C": a + 5}), bayesian=True,
                    higher_is_better=True)
    post = three.posthoc["bayesian_signed_rank"]
    assert post.details["zero_rope"] and not post.reject.any()
    md = render_markdown(three)
    table = md[md.find("all pairs (posterior"):]
    assert "| A | B | – | – | – | undecided |" in table


@pytest.mark.parametrize("build", [
    lambda: compare(pd.DataFrame(THREE_BY_FIVE, columns=list("ABCDE")), higher_is_better=True),
    lambda: compare(pd.DataFrame(SIX_BY_FOUR, columns=["m0", "m1", "m2", "m3"]),
                    higher_is_better=True, control="m0", posthoc="holm"),
    lambda: compare(_folds(np.full(10, 0.01))),
    lambda: compare(fold_tasks(), bayesian=True, rope=0.01),
    lambda: compare(_noisy_q2(), rho=0, rope=0),
], ids=["small-n", "small-n-withheld", "zero-rope", "poisson", "rho-rope-0"])
def test_new_reports_meet_the_json_schema(build):
    from outperform.report import validate_report

    validate_report(build())


def _noisy_q2():
    return _folds(np.random.default_rng(2).normal(0.01, 0.01, 10))
