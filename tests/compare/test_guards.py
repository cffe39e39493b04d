"""Guards against plausible mistakes that gave confident wrong answers (issue 12, items 3, 5, 8, 9).

Each case used to exit 0 with a decision and no warning: logits read as labels, labels
"yes"/"no" against 0/1, one model in percent among fractions, a wide table of error rates
ranked as if higher were better, options compare() ignored in silence, 2-fold CV.
"""
import numpy as np
import pandas as pd
import pytest

from outperform._validation import InvalidInputError
from outperform.compare import compare, compare_predictions


def _predictions(seed=0, n=300):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    logit_a = (2 * y - 1) * 1.5 + rng.normal(0, 1, n)
    logit_b = (2 * y - 1) * 0.5 + rng.normal(0, 1, n)
    return y, logit_a, logit_b


# --- Q1: predictions that are not labels or probabilities --------------------------------

@pytest.mark.parametrize("loss", ["zero-one", "log", "squared"])
def test_logits_are_refused_with_the_fix(loss):
    y, la, lb = _predictions()
    with pytest.raises(InvalidInputError, match="sigmoid.*loss='given'"):
        compare_predictions(pd.DataFrame({"y_true": y, "A": la, "B": lb}), loss=loss)


def test_sigmoid_of_the_logits_is_accepted():
    y, la, lb = _predictions()
    df = pd.DataFrame({"y_true": y, "A": 1 / (1 + np.exp(-la)), "B": 1 / (1 + np.exp(-lb))})
    assert compare_predictions(df).tests["mcnemar"].pvalue < 0.05


@pytest.mark.parametrize("a", ["percent", "plus_minus_one"])
def test_predictions_outside_0_1_against_a_0_1_y_true_are_refused(a):
    y, la, _ = _predictions()
    pred = np.round(100 / (1 + np.exp(-la))) if a == "percent" else 2 * y - 1
    with pytest.raises(InvalidInputError, match=r"neither labels of y_true \{0, 1\}"):
        compare_predictions(pd.DataFrame({"y_true": y, "A": pred, "B": y}))


def test_label_sets_without_a_common_label_name_both():
    y, _, _ = _predictions()
    df = pd.DataFrame({"y_true": np.where(y == 1, "yes", "no"), "A": y, "B": 1 - y})
    with pytest.raises(InvalidInputError, match=r"labels \{0, 1\} but y_true uses \{'no', 'yes'\}"):
        compare_predictions(df)


def test_probabilities_against_labels_other_than_0_1_are_refused():
    y, la, lb = _predictions()
    df = pd.DataFrame({"y_true": y + 1, "A": 1 / (1 + np.exp(-la)), "B": 1 / (1 + np.exp(-lb))})
    with pytest.raises(InvalidInputError, match=r"labels \{1, 2\}: probabilities need y_true coded 0/1"):
        compare_predictions(df)


def test_a_class_absent_from_a_multiclass_test_set_is_a_warning():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 300)
    a = np.where(rng.random(300) < 0.05, 3, y)
    rep = compare_predictions(pd.DataFrame({"y_true": y, "A": a, "B": rng.permutation(y)}))
    assert any("does not have ({3})" in w for w in rep.warnings)


def test_non_numeric_given_losses_are_refused():
    df = pd.DataFrame({"A": ["0.1", "x"] * 10, "B": [0.2, 0.3] * 10})
    with pytest.raises(InvalidInputError, match="loss='given'.*non-numbers"):
        compare_predictions(df, y_true=None, loss="given")


# --- Q2/Q3: units and direction ------------------------------------------------------------

def _wide(rng, n=12, offsets=(0.0, 0.01, 0.02)):
    base = rng.uniform(0.6, 0.9, n)
    return pd.DataFrame({"task": [f"d{i}" for i in range(n)]}
                        | {m: base + o + rng.normal(0, 0.01, n)
                           for m, o in zip("ABC", offsets)})


def test_one_model_in_percent_is_named_with_the_fix():
    # C is the best in fractions (first by the peers' choice of data: +0.02), but written in
    # percent it would win every data set by about 80 points.
    df = _wide(np.random.default_rng(0))
    df["C"] *= 100
    rep = compare(df, metric="accuracy")
    assert any("'C' look like percentages" in w and "divide them by 100" in w
               for w in rep.warnings)


def test_one_model_in_fractions_among_percentages_is_named():
    df = _wide(np.random.default_rng(1))
    df[["A", "B"]] *= 100
    rep = compare(df, metric="accuracy")
    assert any("'C' look like fractions" in w and "multiply them by 100" in w
               for w in rep.warnings)


def test_consistent_units_and_a_loss_above_one_are_not_flagged():
    df = _wide(np.random.default_rng(2))
    assert not any("UNITS" in w for w in compare(df, metric="accuracy").warnings)
    # A log loss above 1 next to log losses below 1 is a worse model, not a unit.
    df = _wide(np.random.default_rng(3))
    df["C"] += 1.5
    assert not any("UNITS" in w for w in compare(df, metric="log_loss").warnings)


def test_percent_model_in_q2_is_named():
    rng = np.random.default_rng(4)
    rows = [{"model": m, "fold": f, "accuracy": (80 if m == "B" else 0.8) + rng.normal(0, 0.01)}
            for m in "AB" for f in range(10)]
    rep = compare(pd.DataFrame(rows))
    assert rep.question == "Q2"
    assert any("'B' look like percentages" in w for w in rep.warnings)


def test_a_wide_table_without_a_metric_name_warns_about_the_direction():
    df = _wide(np.random.default_rng(5))
    rep = compare(df)
    assert rep.warnings[0].startswith("DIRECTION") and "--lower-is-better" in rep.warnings[0]
    assert not any(w.startswith("DIRECTION") for w in compare(df, higher_is_better=True).warnings)
    assert not any(w.startswith("DIRECTION")
                   for w in compare(df, metric="error_rate").warnings)


# --- options that do not apply -------------------------------------------------------------

def test_options_a_question_does_not_use_are_named():
    df = _wide(np.random.default_rng(6))
    rep = compare(df, metric="accuracy", rho=0.2, loss="log", cluster="doc", prior_strength=2.0,
                  y_true="label")
    text = "\n".join(rep.warnings)
    for option in ("rho=0.2", "loss='log'", "cluster='doc'", "prior_strength=2.0",
                   "y_true='label'"):
        assert f"option {option} does not apply to Q3" in text
    assert "bayesian=True" in text  # prior_strength would apply with the Bayesian tests
    assert "option" not in "\n".join(compare(df, metric="accuracy", bayesian=True,
                                              prior_strength=2.0, random_state=3).warnings)


def test_options_q1_does_not_use_are_named():
    y, la, lb = _predictions()
    df = pd.DataFrame({"y_true": y, "A": (la > 0).astype(int), "B": (lb > 0).astype(int)})
    rep = compare(df, rho=0.1, posthoc="holm", hierarchical=True)
    text = "\n".join(rep.warnings)
    for option in ("rho=0.1", "posthoc='holm'", "hierarchical=True"):
        assert f"option {option} does not apply to Q1" in text


# --- Q2 with 2 folds -----------------------------------------------------------------------

def test_two_fold_cv_warns_about_one_degree_of_freedom():
    rows = [{"model": m, "fold": f, "accuracy": s}
            for m, scores in {"A": (0.81, 0.84), "B": (0.79, 0.80)}.items()
            for f, s in enumerate(scores)]
    rep = compare(pd.DataFrame(rows))
    # Peer: scipy.stats.t.ppf(0.975, 1) = 12.706.
    assert any("1 degree(s) of freedom" in w and "12.7" in w for w in rep.warnings)
    rng = np.random.default_rng(7)
    rows = [{"model": m, "fold": f, "accuracy": 0.8 + 0.01 * (m == "A") + rng.normal(0, 0.01)}
            for m in "AB" for f in range(10)]
    assert not any("degree" in w for w in compare(pd.DataFrame(rows)).warnings)
