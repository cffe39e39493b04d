"""One reading of every table (issue 24 item 2, issue 25 item 4): ``outperform.data._columns``
decides each column's role and the metric's direction and units; averaged folds tie exactly."""
from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from outperform import compare
from outperform._validation import DegenerateDataError
from outperform.compare import compare_runs
from outperform.data import column_role, find_column, metric_direction, metric_units, read_results
from outperform.data._columns import metric_range_warning
from outperform.data._results_table import tie_exact_means


# --- roles ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name, role", [
    ("task", "task"), (" Dataset ", "task"), ("benchmark", "task"),
    ("model", "model"), ("Classifier", "model"), ("system", "model"),
    ("run", "run"), ("seed", "run"), ("repeat", "run"),
    ("fold", "fold"), ("split", "fold"),
    ("example", "example"), ("item", "example"), ("doc_id", "example"), ("ID", "example"),
    ("cluster", "cluster"), ("y_true", "y_true"), ("label", "y_true"), ("target", "y_true"),
    ("step", "step"), ("epoch", "step"), ("winner", "winner"),
    ("n_train", "n_train"), ("n_test", "n_test"),
    ("accuracy", None), ("test_neg_log_loss", None), ("notes", None),
])
def test_column_role(name, role):
    assert column_role(name) == role


def test_find_column_prefers_the_canonical_name_and_keeps_the_spelling():
    assert find_column(["label", "y_true", "a"], "y_true") == "y_true"
    assert find_column(["Dataset", "Classifier", "acc"], "task") == "Dataset"
    assert find_column(["x", "y"], "task") is None


# --- direction ------------------------------------------------------------------------------

def test_every_sklearn_scorer_is_higher_is_better_with_or_without_its_prefix():
    # scikit-learn's convention (User Guide 3.4.3, "higher return values are better than
    # lower return values"): every name of sklearn.metrics.get_scorer_names(), as
    # cross_validate (test_/train_) and GridSearchCV (mean_test_) write them.
    from sklearn.metrics import get_scorer_names

    names = get_scorer_names()
    assert len(names) > 40
    for name in names:
        for spelt in (name, f"test_{name}", f"train_{name}", f"mean_test_{name}"):
            assert metric_direction(spelt) is True, spelt


@pytest.mark.parametrize("name, expected", [
    ("log_loss", False), ("error", False), ("mae", False), ("brier_score", False),
    ("test_error", False), ("train_loss", False), ("rank_test_accuracy", False),
    ("accuracy", True), ("AUC", True), ("score", True), ("std_test_accuracy", None),
    ("foo", None), ("perplexity", False), ("bits_per_byte", False), ("exact_match", True),
])
def test_direction_of_other_names(name, expected):
    assert metric_direction(name) is expected


def test_cross_validate_neg_log_loss_ranks_the_lowest_log_loss_first():
    # Issue 24 "It must show": compare on pd.DataFrame(cross_validate(...,
    # scoring=["accuracy", "neg_log_loss"])) with a fold column and metric test_neg_log_loss.
    from sklearn.datasets import load_breast_cancer
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import log_loss
    from sklearn.model_selection import KFold, cross_val_predict, cross_validate
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    cv = KFold(5, shuffle=True, random_state=0)
    models = {"logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
              "forest": RandomForestClassifier(n_estimators=30, random_state=0),
              "bayes": GaussianNB()}
    frames, truth = [], {}
    for name, est in models.items():
        res = pd.DataFrame(cross_validate(est, X, y, cv=cv, return_estimator=False,
                                          scoring=["accuracy", "neg_log_loss"]))
        frames.append(res.assign(model=name, fold=np.arange(len(res))))
        # the truth from sklearn's own log loss of each fold's predictions
        proba = cross_val_predict(est, X, y, cv=cv, method="predict_proba")
        truth[name] = np.mean([log_loss(y[test], proba[test]) for _, test in cv.split(X)])
    long = pd.concat(frames, ignore_index=True)
    report = compare(long, metric="test_neg_log_loss")
    best = min(truth, key=truth.get)
    assert report.summary[0]["model"] == best
    assert [r["model"] for r in report.summary] == sorted(truth, key=truth.get)
    assert not any(w.startswith("DIRECTION") for w in report.warnings)
    # ... and the same from the command line, on the table written as CSV
    import json
    import tempfile
    from pathlib import Path

    from typer.testing import CliRunner

    from outperform.cli import app

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cross_validate.csv"
        long.to_csv(path, index=False)
        res = CliRunner().invoke(app, ["compare", str(path), "--metric", "test_neg_log_loss",
                                       "--format", "json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)["summary"]
    assert [r["model"] for r in rows] == sorted(truth, key=truth.get)


# --- units ----------------------------------------------------------------------------------

def test_metric_units_and_ranges():
    assert metric_units("test_accuracy") == "proportion"
    assert metric_units("f1_macro") == "proportion"
    assert metric_units("rmse") is None
    assert metric_range_warning("accuracy", [0.5, 0.9]) is None
    assert "holds -0.1" in metric_range_warning("accuracy", [-0.1, 0.9])
    assert "holds 130" in metric_range_warning("test_accuracy", [30, 130])
    warning = metric_range_warning("accuracy", [31.0, 38.5])
    assert warning.startswith("UNITS") and "percentages" in warning
    assert metric_range_warning("rmse", [-3, 300]) is None


# --- a seed column is a run -----------------------------------------------------------------

def _seeds_table():
    rng = np.random.default_rng(3)
    rows = [(t, m, s, 0.6 + 0.1 * j + rng.normal(0, 0.05))
            for t in ("a", "b", "c", "d", "e") for j, m in enumerate(("x", "y", "z"))
            for s in range(4)]
    return pd.DataFrame(rows, columns=["task", "model", "seed", "accuracy"])


def test_seed_column_is_a_run():
    df = _seeds_table()
    table = read_results(df)
    assert "run" in table.frame.columns and "seed" not in table.frame.columns
    got = table.score_matrix().to_frame()
    # peer: pandas' groupby mean of the seeds of each cell
    want = df.groupby(["task", "model"])["accuracy"].mean().unstack()
    np.testing.assert_allclose(got.loc[want.index, want.columns].to_numpy(), want.to_numpy(),
                               rtol=1e-12)
    runs = compare_runs(df, random_state=0, n_resamples=200)
    assert set(runs.models) == {"x", "y", "z"}


# --- ties decided on exact values (issue 25 item 4) -----------------------------------------

def _ties_table(counts: dict, n_test: int = 100, order=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Long table of fold accuracies count/n_test and the wide table of their exact means."""
    rows, wide = [], {}
    for (task, model), folds in counts.items():
        for f, c in enumerate(folds):
            rows.append((task, model, f, c / n_test))
        wide.setdefault(task, {})[model] = float(Fraction(sum(folds), n_test * len(folds)))
    long = pd.DataFrame(rows, columns=["task", "model", "fold", "accuracy"])
    if order is not None:
        long = long.iloc[order].reset_index(drop=True)
    # the wide table's rows and columns in the order the long table shows them first (the
    # statistics' sums then run in the same order)
    wide = pd.DataFrame(wide).T.loc[pd.unique(long["task"]), pd.unique(long["model"])]
    return long, wide.rename_axis("task").reset_index()


def _ranks_and_id(data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            rep = compare(data, metric="accuracy")
        except DegenerateDataError as exc:    # every data set a tie of all models
            return str(exc), None
    return ({r["model"]: r["average_rank"] for r in rep.summary},
            rep.tests["iman_davenport"].statistic)


def test_folds_averaging_to_the_same_mean_tie_as_in_the_wide_table():
    # Issue 25: 257/300 summed two ways ([80, 90, 87] and [89, 82, 86] correct of 100 in 3
    # folds): pandas' mean gives 0.8566666666666668 and 0.8566666666666666, ranks 2 and 3.
    a, b = [80, 90, 87], [89, 82, 86]
    assert pd.Series(np.array(a) / 100).mean() != pd.Series(np.array(b) / 100).mean()
    counts = {}
    for i in range(6):
        counts[(f"t{i}", "A")] = a
        counts[(f"t{i}", "B")] = b
        counts[(f"t{i}", "C")] = [95, 96, 94 - i]
        counts[(f"t{i}", "D")] = [60 + i, 61, 62]
    long, wide = _ties_table(counts)
    ranks_long, id_long = _ranks_and_id(long)
    ranks_wide, id_wide = _ranks_and_id(wide)
    # A and B tie on every data set: each has rank 2.5 (Demšar 2006 §3.2.2, average ranks)
    assert ranks_long == ranks_wide == {"C": 1.0, "A": 2.5, "B": 2.5, "D": 4.0}
    assert id_long == id_wide


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_long_and_wide_give_the_same_ranks_and_iman_davenport(data):
    n_tasks = data.draw(st.integers(4, 7))
    n_folds = data.draw(st.integers(2, 5))
    fold_counts = st.lists(st.integers(50, 99), min_size=n_folds, max_size=n_folds)
    counts = {}
    for t in range(n_tasks):
        base = data.draw(fold_counts)
        shift = data.draw(st.integers(0, 10))
        twin = list(base)
        twin[0] += shift      # the same sum, other folds: a tie of the means
        twin[-1] -= shift if n_folds > 1 else 0
        counts[(f"t{t}", "A")] = base
        counts[(f"t{t}", "B")] = data.draw(st.permutations(twin))
        counts[(f"t{t}", "C")] = data.draw(fold_counts)
        counts[(f"t{t}", "D")] = data.draw(fold_counts)
    n_rows = 4 * n_tasks * n_folds
    order = data.draw(st.permutations(range(n_rows)))
    long, wide = _ties_table(counts, order=order)
    ranks_long, id_long = _ranks_and_id(long)
    ranks_wide, id_wide = _ranks_and_id(wide)
    assert ranks_long == ranks_wide
    assert id_long == id_wide or (np.isnan(id_long) and np.isnan(id_wide))


def test_permuted_folds_give_the_same_score_matrix():
    counts = {(t, m): [50 + 7 * i + 3 * j + f for f in range(5)]
              for i, t in enumerate("abcd") for j, m in enumerate("xyz")}
    long, _ = _ties_table(counts)
    ref = read_results(long).score_matrix().to_frame()
    for seed in range(5):
        order = np.random.default_rng(seed).permutation(len(long))
        got = read_results(long.iloc[order]).score_matrix().to_frame()
        pd.testing.assert_frame_equal(got.loc[ref.index, ref.columns], ref, check_exact=True)


def test_tie_exact_means_keeps_distinct_values_and_nan():
    x = np.array([0.8566666666666668, 0.8566666666666666, 0.85, np.nan])
    y = tie_exact_means(x)
    assert y[0] == y[1] and y[2] == 0.85 and np.isnan(y[3])
    assert np.all(np.abs(y[:3] - x[:3]) <= 5e-13)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=60),
       st.randoms(use_true_random=False))
def test_order_free_sums_do_not_depend_on_the_order_and_match_fsum(values, rnd):
    import math

    from outperform.data._results_table import order_free_sums

    x = np.array(values)
    groups = np.array([i % 3 for i in range(len(x))])
    perm = list(range(len(x)))
    rnd.shuffle(perm)
    a = order_free_sums(groups, x, 3)
    b = order_free_sums(groups[perm], x[perm], 3)
    assert np.array_equal(a, b)
    top = np.abs(x).max()
    for g in range(3):
        exact = math.fsum(x[groups == g])   # peer: Python's correctly rounded sum
        # parts dropped below 2^(e-61) (2^(e-1) > top) and the two final roundings
        bound = len(x) * 2.0 ** (np.frexp(top)[1] - 60) + 4 * np.spacing(abs(exact))
        assert abs(a[g] - exact) <= bound
