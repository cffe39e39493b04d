"""Fitted scikit-learn estimators run on one test set: their per-example predictions as the
Q1 table that :func:`outperform.compare.compare_predictions` reads."""
from __future__ import annotations

from typing import Mapping

import numpy as np
import pandas as pd

from .._errors import InvalidInputError


def is_estimators(data) -> bool:
    """A dict of estimators (values with ``predict``): models to run on a test set."""
    return (isinstance(data, Mapping) and len(data) > 0
            and all(hasattr(v, "predict") for v in data.values()))


def estimator_predictions(estimators: Mapping, X, y_true, *, loss: str = "zero-one"
                          ) -> pd.DataFrame:
    """Per-example predictions of fitted estimators on one test set, as the Q1 table.

    Parameters
    ----------
    estimators : dict of str to fitted estimator
    X : array-like of shape (n_examples, n_features)
        The test set, shared by every estimator.
    y_true : array-like of shape (n_examples,)
        Its true labels (or values, for the squared and absolute losses).
    loss : {"zero-one", "log", "squared", "absolute"}
        ``"log"``: ``predict_proba``'s probability of the second class of ``classes_``
        (binary tasks), the labels recoded 1 for that class and 0 for the other; otherwise
        ``predict``.

    Returns
    -------
    DataFrame
        ``y_true`` and one column per estimator, with ``attrs["provenance"]``.

    Raises
    ------
    InvalidInputError
        An estimator not fitted, ``y_true`` not an array of ``len(X)`` labels,
        ``loss="given"``, or the log loss of a task that is not binary.
    """
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    if y_true is None or isinstance(y_true, str):
        raise InvalidInputError("with estimators, pass y_true= the true labels of the test "
                                "set X (an array), e.g. compare_predictions({'a': est_a, "
                                "'b': est_b}, X=X_test, y_true=y_test).")
    if loss == "given":
        raise InvalidInputError("loss='given' reads losses from a table; estimators give "
                                "predictions: choose zero-one, log, squared or absolute.")
    y = np.asarray(y_true)
    if y.ndim != 1 or len(y) != len(X):
        raise InvalidInputError(f"y_true must hold one label per row of X ({len(X)}); got "
                                f"shape {y.shape}.")
    columns = {}
    for name, est in estimators.items():
        try:
            check_is_fitted(est)
        except NotFittedError:
            raise InvalidInputError(f"the estimator {name!r} ({type(est).__name__}) is not "
                                    "fitted: fit it on the training set first.") from None
        if loss == "log":
            classes = getattr(est, "classes_", None)
            if classes is None or len(classes) != 2:
                raise InvalidInputError(
                    f"loss='log' compares probabilities of a binary task; {name!r} has "
                    f"classes {None if classes is None else list(classes)}.")
            columns[str(name)] = est.predict_proba(X)[:, 1]
        else:
            columns[str(name)] = est.predict(X)
    if loss == "log":
        positive = next(iter(estimators.values())).classes_[1]
        y = (y == positive).astype(int)
    frame = pd.DataFrame({"y_true": y, **columns})
    frame.attrs["provenance"] = {"source": "fitted estimators", "n_examples": len(y),
                                 "models": list(columns)}
    return frame
