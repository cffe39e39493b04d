"""Named data sets for experiments: bundled ones that need no network, or the user's own.

``load_datasets("sklearn")`` gives the classification sets that ship inside scikit-learn
(iris, wine, breast_cancer, digits); user data come as a mapping of names to ``(X, y)``
pairs, scikit-learn ``Bunch`` objects, or callables returning either.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from sklearn import datasets as _skd

from .._validation import InvalidInputError, TooFewError

#: Classification data sets bundled with scikit-learn (read from its install, no download).
SKLEARN_DATASETS: dict[str, Callable] = {
    "iris": _skd.load_iris,
    "wine": _skd.load_wine,
    "breast_cancer": _skd.load_breast_cancer,
    "digits": _skd.load_digits,
}

#: Names accepted by :func:`load_datasets` for a whole group of bundled data sets.
GROUPS = {"sklearn": tuple(SKLEARN_DATASETS)}


def _as_xy(name: str, value):
    if callable(value) and not hasattr(value, "shape"):
        value = value()
    if hasattr(value, "data") and hasattr(value, "target"):
        value = (value.data, value.target)
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InvalidInputError(
            f"data set {name!r} must be a pair (X, y), a scikit-learn Bunch, or a callable "
            f"returning one, got {type(value).__name__}."
        )
    X, y = value
    if not hasattr(X, "iloc") and not hasattr(X, "tocsr"):
        X = np.asarray(X)
    y = np.asarray(y.to_numpy() if hasattr(y, "to_numpy") else y)
    if getattr(X, "ndim", 2) != 2:
        raise InvalidInputError(
            f"X of data set {name!r} must be 2-D (examples x features), got shape {X.shape}."
        )
    if y.ndim != 1:
        raise InvalidInputError(
            f"y of data set {name!r} must be 1-D (one label per example), got shape {y.shape}."
        )
    if X.shape[0] != y.shape[0]:
        raise InvalidInputError(
            f"data set {name!r} has {X.shape[0]} rows in X but {y.shape[0]} labels in y; "
            "they must describe the same examples."
        )
    missing = np.asarray(_isnull(y))
    if missing.any():
        raise InvalidInputError(
            f"y of data set {name!r} has {int(missing.sum())} missing label(s), first at row "
            f"{int(np.argmax(missing))}; drop those examples first."
        )
    if np.unique(y).size < 2:
        raise InvalidInputError(
            f"y of data set {name!r} has a single value; there is nothing to predict."
        )
    return X, y


def _isnull(y: np.ndarray):
    if y.dtype.kind in "fc":
        return np.isnan(y)
    if y.dtype.kind == "O":
        return np.array([v is None or (isinstance(v, float) and np.isnan(v)) for v in y])
    return np.zeros(y.shape, bool)


def load_datasets(datasets) -> dict[str, tuple]:
    """Return named data sets as ``{name: (X, y)}``, checked.

    Parameters
    ----------
    datasets : str, sequence of str, or mapping
        ``"sklearn"`` for all of :data:`SKLEARN_DATASETS`; a comma-separated string or list
        of their names or of ``"sklearn"`` (``"iris,wine"``); or a mapping ``{name: value}``
        where value is a pair ``(X, y)`` (arrays, DataFrame / Series, sparse matrix), a
        scikit-learn ``Bunch``, or a callable returning either (called once here).

    Returns
    -------
    dict of str to (X, y)
        ``X`` keeps its type (ndarray, DataFrame or sparse matrix) with shape
        (n_examples, n_features); ``y`` is a 1-D ndarray of n_examples labels. Order follows
        the input.

    Raises
    ------
    TooFewError
        If no data set is given.
    InvalidInputError
        Unknown name, X not 2-D, y not 1-D, X and y of different lengths, missing labels,
        a single class.

    Examples
    --------
    >>> data = load_datasets("iris,wine")
    >>> {name: X.shape for name, (X, y) in data.items()}
    {'iris': (150, 4), 'wine': (178, 13)}
    >>> sorted(load_datasets("sklearn"))
    ['breast_cancer', 'digits', 'iris', 'wine']
    """
    if isinstance(datasets, str):
        datasets = [n.strip() for n in datasets.split(",") if n.strip()]
    if isinstance(datasets, Mapping):
        items = list(datasets.items())
    elif not isinstance(datasets, (list, tuple)):
        raise InvalidInputError(
            f"datasets must be 'sklearn', a list of names or {{name: (X, y)}}, "
            f"got {type(datasets).__name__}."
        )
    else:
        datasets = [m for n in datasets for m in GROUPS.get(n, (n,))]
        unknown = [n for n in datasets if n not in SKLEARN_DATASETS]
        if unknown:
            raise InvalidInputError(
                f"unknown data set(s) {unknown}; bundled ones are {sorted(SKLEARN_DATASETS)} "
                f"(or {sorted(GROUPS)} for all); pass your own as {{name: (X, y)}}."
            )
        items = [(n, SKLEARN_DATASETS[n]) for n in dict.fromkeys(datasets)]
    if not items:
        raise TooFewError("no data set given; pass 'sklearn', names, or {name: (X, y)}.")
    return {str(name): _as_xy(str(name), value) for name, value in items}
