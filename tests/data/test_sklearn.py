"""data/_sklearn.py: scikit-learn searches and cross_validate results as the tidy table.

Expected values come from scikit-learn itself (its cv_results_, rank_test_score, the sizes
of its splitters' splits) and from the Nadeau–Bengio formula written out with scipy.
"""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.datasets import make_classification
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (GridSearchCV, HalvingGridSearchCV, KFold,
                                     RandomizedSearchCV, RepeatedKFold, ShuffleSplit,
                                     cross_validate)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import outperform
from outperform import InvalidInputError, OutperformWarning, TooFewError
from outperform.data import read_sklearn
from outperform.data._sklearn import candidate_names
from outperform.data._sklearn_splits import split_design

X, Y = make_classification(n_samples=60, n_features=5, random_state=0)
TREE = DecisionTreeClassifier(random_state=0)
GRID = {"max_depth": [1, 2, 4], "criterion": ["gini", "entropy"]}


@pytest.fixture(scope="module")
def repeated():
    cv = RepeatedKFold(n_splits=3, n_repeats=2, random_state=0)
    return GridSearchCV(TREE, GRID, cv=cv).fit(X, Y)


def test_table_holds_every_split_score_of_cv_results(repeated):
    table = read_sklearn(repeated)
    res = repeated.cv_results_
    assert set(table.columns) == {"task", "model", "run", "fold", "score"}
    assert table["task"].unique().tolist() == ["DecisionTreeClassifier"]
    for i, params in enumerate(res["params"]):
        name = f"max_depth={params['max_depth']}, criterion={params['criterion']}"
        got = table[table["model"] == name].sort_values(["run", "fold"])["score"].to_numpy()
        want = [res[f"split{s}_test_score"][i] for s in range(6)]
        assert got.tolist() == want
    # scikit-learn's repeated splits are repeat-major: split s = run * k + fold
    first = table[table["model"] == table["model"].iloc[0]]
    assert first["run"].tolist() == [0, 0, 0, 1, 1, 1]
    assert first["fold"].tolist() == [0, 1, 2, 0, 1, 2]
    assert table.attrs["provenance"]["design"].startswith("2 × 3-fold")


def test_models_ordered_by_rank_and_top_takes_the_best(repeated):
    res = repeated.cv_results_
    by_rank = np.argsort(res["rank_test_score"], kind="stable")
    # named by the parameters that vary among the two compared
    names = candidate_names([res["params"][i] for i in by_rank[:2]], ["max_depth", "criterion"])
    table = read_sklearn(repeated, top=2)
    assert list(pd.unique(table["model"])) == names


def test_compare_search_uses_one_over_k():
    search = GridSearchCV(TREE, {"max_depth": [1, 3]}, cv=KFold(5)).fit(X, Y)
    report = outperform.compare(search)
    assert report.question == "Q2" and report.details["rho"] == pytest.approx(1 / 5)
    a, b = (np.array([search.cv_results_[f"split{s}_test_score"][i] for s in range(5)])
            for i in (0, 1))
    d = a - b if report.models[0] == "max_depth=1" else b - a
    # Nadeau & Bengio (2003) corrected t, written out: t = mean / sqrt((1/J + 1/(k-1)) var)
    t = d.mean() / np.sqrt((1 / 5 + 1 / 4) * d.var(ddof=1))
    assert report.tests["corrected_t"].statistic == pytest.approx(t, rel=1e-12)
    assert report.tests["corrected_t"].pvalue == pytest.approx(2 * stats.t.sf(abs(t), 4),
                                                               rel=1e-10)


def test_readable_names_only_the_params_that_vary():
    params = [{"C": 1, "kernel": "rbf", "gamma": "scale"},
              {"C": 10, "kernel": "rbf", "gamma": "scale"},
              {"C": 10, "kernel": "linear", "gamma": "scale"}]
    assert candidate_names(params, ["kernel", "C"]) == [
        "kernel=rbf, C=1", "kernel=rbf, C=10", "kernel=linear, C=10"]
    # estimators by their class; a pipeline's step prefix dropped
    assert candidate_names([{"clf": LogisticRegression()}, {"clf": TREE}]) == [
        "clf=LogisticRegression", "clf=DecisionTreeClassifier"]
    assert candidate_names([{"logisticregression__C": 0.1}, {"logisticregression__C": 1.0}]) \
        == ["C=0.1", "C=1.0"]


def test_randomized_search_with_pipeline_names():
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    search = RandomizedSearchCV(pipe, {"logisticregression__C": [0.01, 1.0, 100.0]},
                                n_iter=3, cv=3, random_state=0).fit(X, Y)
    table = read_sklearn(search)
    assert sorted(table["model"].unique()) == ["C=0.01", "C=1.0", "C=100.0"]
    assert table["task"].iloc[0] == "Pipeline"


def test_multi_metric_refit_name_is_the_default_and_metric_selects():
    search = GridSearchCV(TREE, {"max_depth": [1, 3]}, cv=3,
                          scoring=["accuracy", "balanced_accuracy"], refit="accuracy").fit(X, Y)
    assert "accuracy" in read_sklearn(search).columns
    table = read_sklearn(search, metric="balanced_accuracy")
    assert "balanced_accuracy" in table.columns
    no_refit = GridSearchCV(TREE, {"max_depth": [1, 3]}, cv=3,
                            scoring=["accuracy", "balanced_accuracy"], refit=False).fit(X, Y)
    with pytest.raises(InvalidInputError, match=r"several scorers.*metric="):
        read_sklearn(no_refit)
    with pytest.raises(InvalidInputError, match="not a scorer"):
        read_sklearn(search, metric="f1")


def test_scorer_name_is_the_metric_and_scores_are_higher_is_better():
    search = GridSearchCV(LogisticRegression(), {"C": [0.01, 1.0]}, cv=3,
                          scoring="neg_log_loss").fit(X, Y)
    report = outperform.compare(search)
    assert report.metric == "neg_log_loss" and report.higher_is_better is True
    best = int(np.argmin(search.cv_results_["rank_test_score"]))
    assert report.summary[0]["model"] == f"C={search.cv_results_['params'][best]['C']}"


def test_halving_compares_the_last_iteration():
    search = HalvingGridSearchCV(TREE, {"max_depth": [1, 2, 3, 4, 5, 6]}, cv=3, factor=2,
                                 min_resources=20, random_state=0).fit(X, Y)
    res = search.cv_results_
    last = res["iter"] == res["iter"].max()
    table = read_sklearn(search)
    want = {f"max_depth={p['max_depth']}" for p, keep in zip(res["params"], last) if keep}
    assert set(table["model"].unique()) == want
    assert "successive halving" in table.attrs["provenance"]["notes"][0]


def test_cv_results_dict_alone_needs_the_design(repeated):
    with pytest.raises(InvalidInputError, match=r"n_train= and n_test="):
        read_sklearn(repeated.cv_results_)
    with pytest.raises(InvalidInputError, match=r"n_train= and n_test="):
        outperform.compare(repeated.cv_results_)
    report = outperform.compare(repeated.cv_results_, n_train=40, n_test=20)
    assert report.details["rho"] == pytest.approx(20 / 60)
    same = outperform.compare(repeated.cv_results_, rho=20 / 60)
    np.testing.assert_array_equal(same.posthoc["corrected_t_holm"].statistic,
                                  report.posthoc["corrected_t_holm"].statistic)
    with pytest.raises(InvalidInputError, match="give one of them"):
        outperform.compare(repeated.cv_results_, rho=0.3, n_train=40, n_test=20)
    table = read_sklearn(repeated.cv_results_, cv=RepeatedKFold(n_splits=3, n_repeats=2))
    assert table["run"].max() == 1


def test_holdout_sizes_are_scikit_learns():
    cv = ShuffleSplit(n_splits=4, test_size=0.3, random_state=0)
    with pytest.raises(InvalidInputError, match="n_samples="):
        split_design(cv, 4)
    design = split_design(cv, 4, n_samples=len(X))
    train, test = next(cv.split(X))
    assert (design["n_train"][0], design["n_test"][0]) == (len(train), len(test))
    assert design["run"].tolist() == [0, 1, 2, 3]
    search = GridSearchCV(TREE, {"max_depth": [1, 3]}, cv=cv).fit(X, Y)
    table = read_sklearn(search, X=X)
    assert table["n_test"].iloc[0] == len(test)


def test_explicit_splits_give_their_sizes():
    pairs = [(np.arange(40), np.arange(40, 60)), (np.arange(20, 60), np.arange(20))]
    design = split_design(pairs, 2)
    assert design["n_train"].tolist() == [40, 40] and design["n_test"].tolist() == [20, 20]
    with pytest.raises(InvalidInputError, match="splits but the results hold"):
        split_design(RepeatedKFold(n_splits=3, n_repeats=2), 5)


def test_cross_validate_one_model_refused_dict_of_models_compared():
    cv = KFold(5)
    one = cross_validate(TREE, X, Y, cv=cv, return_indices=True)
    with pytest.raises(InvalidInputError, match="one model cannot be compared"):
        outperform.compare(one)
    two = {"tree": one, "logistic": cross_validate(LogisticRegression(), X, Y, cv=cv,
                                                   return_indices=True)}
    report = outperform.compare(two)
    assert set(report.models) == {"tree", "logistic"}
    assert report.details["rho"] == pytest.approx(12 / 60)   # from the split indices
    plain = {k: {kk: v for kk, v in r.items() if kk != "indices"} for k, r in two.items()}
    with pytest.raises(InvalidInputError, match="n_train="):
        outperform.compare(plain)


def test_cross_validate_different_split_counts_refused():
    two = {"a": cross_validate(TREE, X, Y, cv=3), "b": cross_validate(TREE, X, Y, cv=4)}
    with pytest.raises(InvalidInputError, match="different numbers of splits"):
        read_sklearn(two, n_train=40, n_test=20)


def test_nan_candidates_left_out_with_a_warning():
    res = {"params": [{"C": 1}, {"C": 2}, {"C": 3}],
           "split0_test_score": [0.8, np.nan, 0.7], "split1_test_score": [0.9, 0.5, 0.6]}
    with pytest.warns(OutperformWarning, match="NaN scores"):
        table = read_sklearn(res, cv=2)
    assert sorted(table["model"].unique()) == ["C=1", "C=3"]
    res["split0_test_score"] = [0.8, np.nan, np.nan]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OutperformWarning)
        with pytest.raises(TooFewError, match="at least 2"):
            read_sklearn(res, cv=2)


def test_top_refused_for_tables_and_below_two(repeated):
    with pytest.raises(InvalidInputError, match="top must be an integer of at least 2"):
        read_sklearn(repeated, top=1)
    with pytest.raises(InvalidInputError, match="top= picks the best candidates"):
        outperform.compare(outperform.data.load_demsar_table6(), top=3)


def test_unfitted_search_refused():
    with pytest.raises(InvalidInputError, match="not fitted"):
        outperform.compare(GridSearchCV(TREE, GRID))
