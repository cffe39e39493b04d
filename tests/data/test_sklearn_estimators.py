"""data/_sklearn_estimators.py: compare_predictions on fitted estimators and a
test set (Q1). Peer: statsmodels' exact McNemar test on the same predictions."""
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.contingency_tables import mcnemar

from outperform import InvalidInputError
from outperform.compare import compare_predictions

X, Y = make_classification(n_samples=400, n_features=6, flip_y=0.2, random_state=1)
X_TRAIN, X_TEST, Y_TRAIN, Y_TEST = X[:200], X[200:], Y[:200], Y[200:]
MODELS = {"tree": DecisionTreeClassifier(max_depth=2, random_state=0).fit(X_TRAIN, Y_TRAIN),
          "logistic": LogisticRegression().fit(X_TRAIN, Y_TRAIN)}


def test_estimators_on_a_test_set_match_statsmodels_mcnemar():
    report = compare_predictions(MODELS, X=X_TEST, y_true=Y_TEST)
    right = {m: est.predict(X_TEST) == Y_TEST for m, est in MODELS.items()}
    a, b = right["tree"], right["logistic"]
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    # statsmodels.stats.contingency_tables.mcnemar(table, exact=True).pvalue
    assert report.tests["mcnemar"].pvalue == pytest.approx(mcnemar(table, exact=True).pvalue,
                                                           rel=1e-12)
    assert report.details["n_examples"] == 200


def test_log_loss_uses_predict_proba_with_labels_recoded():
    labels = np.where(Y_TRAIN == 1, "yes", "no")
    models = {"nb": GaussianNB().fit(X_TRAIN, labels),
              "logistic": LogisticRegression().fit(X_TRAIN, labels)}
    y = np.where(Y_TEST == 1, "yes", "no")
    report = compare_predictions(models, X=X_TEST, y_true=y, loss="log")
    # mean log loss of each model = sklearn.metrics.log_loss on the same probabilities
    from sklearn.metrics import log_loss
    for row in report.summary:
        est = models[row["model"]]
        assert row["mean_loss"] == pytest.approx(log_loss(y, est.predict_proba(X_TEST),
                                                          labels=est.classes_), rel=1e-9)


@pytest.mark.parametrize("kwargs, match", [
    (dict(data=MODELS, X=X_TEST), "pass y_true= the true labels"),
    (dict(data=MODELS, X=X_TEST, y_true=Y_TEST[:5]), "one label per row of X"),
    (dict(data={"a": DecisionTreeClassifier(), "b": GaussianNB()}, X=X_TEST, y_true=Y_TEST),
     "is not fitted"),
    (dict(data=MODELS, y_true=Y_TEST), "X= is the test set"),
    (dict(data=MODELS, X=X_TEST, y_true=Y_TEST, loss="given"), "loss='given'"),
])
def test_estimator_misuse_refused(kwargs, match):
    data = kwargs.pop("data")
    with pytest.raises(InvalidInputError, match=match):
        compare_predictions(data, **kwargs)
