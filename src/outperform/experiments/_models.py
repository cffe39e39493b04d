"""Named default classifiers for experiments, and the checks on user-given estimators.

The defaults are sensible, not tuned: scale-sensitive learners (logistic regression, k-NN,
SVM) sit behind a ``StandardScaler`` in a pipeline so that scaling is learnt on the training
fold only; every randomised learner has a fixed ``random_state`` so reruns give the same
scores; ensembles use one core (``n_jobs=1``) because the runner parallelises over folds.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import (AdaBoostClassifier, BaggingClassifier, ExtraTreesClassifier,
                              RandomForestClassifier)
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC
from sklearn.tree import DecisionTreeClassifier

from .._validation import InvalidInputError, TooFewError

#: Factories of the named default estimators (each call gives a fresh, unfitted one).
MODELS: dict[str, Callable] = {
    "logreg": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "rf": lambda: RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=1),
    "nb": GaussianNB,
    "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
    "svm": lambda: make_pipeline(StandardScaler(), SVC(kernel="rbf", random_state=0)),
    "tree": lambda: DecisionTreeClassifier(random_state=0),
    # "prior" predicts the majority class and gives the prior as probabilities (AUC 0.5).
    "dummy": lambda: DummyClassifier(strategy="prior"),
    "lda": LinearDiscriminantAnalysis,
    "bagging": lambda: BaggingClassifier(random_state=0, n_jobs=1),
    "et": lambda: ExtraTreesClassifier(n_estimators=100, random_state=0, n_jobs=1),
    "linear_svm": lambda: make_pipeline(StandardScaler(), LinearSVC(random_state=0)),
    "mlp": lambda: make_pipeline(StandardScaler(),
                                 MLPClassifier(max_iter=1000, random_state=0)),
    "adaboost": lambda: AdaBoostClassifier(random_state=0),
}


def get_models(models) -> dict:
    """Return named estimators ``{name: estimator}``.

    Parameters
    ----------
    models : str, sequence of str, or mapping
        Comma-separated names of :data:`MODELS` (``"logreg,rf"``), a list of such names, or
        a mapping ``{name: estimator}`` of scikit-learn estimators (kept as given; the
        runner clones them for every fit) or of names of :data:`MODELS`.

    Returns
    -------
    dict of str to estimator
        In the order given.

    Raises
    ------
    TooFewError
        If no model is given.
    InvalidInputError
        Unknown or repeated name, or a value that is not an estimator (no ``fit`` and
        ``predict``).

    Examples
    --------
    >>> ms = get_models("logreg,nb")
    >>> {name: type(m).__name__ for name, m in ms.items()}
    {'logreg': 'Pipeline', 'nb': 'GaussianNB'}
    """
    if isinstance(models, str):
        models = [n.strip() for n in models.split(",") if n.strip()]
    if isinstance(models, Mapping):
        items = list(models.items())
    elif isinstance(models, (list, tuple)):
        repeated = sorted({n for n in models if list(models).count(n) > 1})
        if repeated:
            raise InvalidInputError(f"model name(s) {repeated} given more than once.")
        items = [(n, n) for n in models]
    else:
        raise InvalidInputError(
            "models must be names such as 'logreg,rf', a list of names, or "
            f"{{name: estimator}}, got {type(models).__name__}."
        )
    if not items:
        raise TooFewError(f"no model given; choose among {sorted(MODELS)} or pass estimators.")
    return {str(name): _estimator(str(name), value) for name, value in items}


def _estimator(name: str, value):
    if isinstance(value, str):
        if value not in MODELS:
            raise InvalidInputError(
                f"unknown model {value!r}; the named models are {sorted(MODELS)}; pass your "
                "own as {name: estimator}."
            )
        return MODELS[value]()
    if not (hasattr(value, "fit") and hasattr(value, "predict")):
        raise InvalidInputError(
            f"model {name!r} must be a scikit-learn estimator with fit and predict, got "
            f"{type(value).__name__}."
        )
    return value
