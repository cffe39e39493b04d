"""A numpy array where a table is expected: rows = folds or tasks, columns = models.

One contract with the other readers of :mod:`outperform.data`: :func:`read_array` returns
the tidy long table, with its provenance in ``frame.attrs["provenance"]``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .._errors import InvalidInputError, OutperformWarning
from ._columns import FOLD, MODEL, TASK

#: How an array is read, said in every message about one.
ORIENTATION = ("rows = folds (one task, question='Q2') or tasks (question='Q3', the default), "
               "columns = models")


def is_array(data) -> bool:
    """A numpy array (or anything with ``__array__`` that is not a pandas object)."""
    return isinstance(data, np.ndarray)


def _numbers(x: np.ndarray, orientation: str) -> np.ndarray:
    """The array as floats; InvalidInputError naming the orientation when it is not numeric."""
    try:
        return x.astype(float)
    except (TypeError, ValueError):
        raise InvalidInputError(f"the array holds non-numeric values ({x.dtype}); "
                                f"{orientation}.") from None


def _model_names(names, rows: int, k: int, orientation: str, *,
                 one_model: bool = False) -> list[str]:
    """The names of the ``k`` columns of a ``(rows, k)`` array, checked against its orientation.

    Raises InvalidInputError for names not one per column, or (unless ``one_model``) fewer
    than 2 columns; warns (at the reader's caller) when more columns than rows, and at least
    5 columns, suggest the array is transposed.
    """
    names = [f"model_{j}" for j in range(k)] if names is None else [str(n) for n in names]
    if len(names) != k:
        raise InvalidInputError(f"{len(names)} names for an array of {k} columns ({orientation}): "
                                "give one name per column.")
    if k < 2 and not one_model:
        raise InvalidInputError(f"the array has {k} column: {orientation}, so it holds one "
                                "model; transpose it if its rows are the models.")
    if k > rows and k >= 5:
        warnings.warn(f"the array has {rows} rows and {k} columns, read as {orientation}: "
                      f"{k} models on {rows} rows. If the rows are the models, pass its "
                      "transpose (array.T).", OutperformWarning, stacklevel=4)
    return names


def read_array(data, *, question: str = "auto", names=None,
                metric: str | None = None) -> pd.DataFrame:
    """A 2-D array of scores as the tidy long table.

    Parameters
    ----------
    data : ndarray of shape (n_rows, n_models)
        Rows are the folds of one task (``question="Q2"``) or the tasks (``"Q3"``, and
        ``"auto"``); columns are the models.
    names : sequence of str, optional
        The models' names, one per column (default ``model_0``, ``model_1``, ...).
    metric : str, optional
        The name of the values (default ``score``).

    Returns
    -------
    DataFrame
        ``task``, ``model``, ``fold`` (Q2) and the metric, with
        ``attrs["provenance"] = {"source": "numpy array", "orientation": ...}``.

    Raises
    ------
    InvalidInputError
        Not 2-D, fewer than 2 columns (models), names that do not match the columns, or
        ``question="Q1"`` (per-example predictions need the true labels: a DataFrame).

    Warns
    -----
    OutperformWarning
        When the array looks transposed: more columns than rows, and at least 5 columns (a
        few models on many folds or tasks is the usual shape).

    Examples
    --------
    >>> import numpy as np
    >>> t = read_array(np.array([[0.9, 0.8], [0.7, 0.75], [0.6, 0.5]]), names=["A", "B"])
    >>> t.columns.tolist(), t["task"].tolist()[:2]
    (['task', 'model', 'score'], ['task_0', 'task_0'])
    """
    x = np.asarray(data)
    if x.ndim != 2:
        raise InvalidInputError(f"an array of scores must be 2-D ({ORIENTATION}); got shape "
                                f"{x.shape}.")
    if question == "Q1":
        raise InvalidInputError("per-example predictions need their true labels: pass a "
                                "DataFrame with a y_true column and one column per model.")
    x = _numbers(x, ORIENTATION)
    rows, k = x.shape
    names = _model_names(names, rows, k, ORIENTATION)
    folds = question == "Q2"
    frame = pd.DataFrame({TASK: "task" if folds else np.repeat([f"task_{i}" for i in
                                                                 range(rows)], k),
                          MODEL: np.tile(names, rows)})
    if folds:
        frame[FOLD] = np.repeat(np.arange(rows), k)
    frame[metric or "score"] = x.ravel()
    frame.attrs["provenance"] = {"source": "numpy array", "orientation": ORIENTATION,
                                 "shape": [rows, k]}
    return frame


#: How an array of predictions is read.
PREDICTIONS_ORIENTATION = "rows = test examples, columns = models"


def read_prediction_array(data, y_true, *, names=None) -> pd.DataFrame:
    """A 2-D array of per-example predictions and its true labels, as the Q1 table.

    Parameters
    ----------
    data : ndarray of shape (n_examples, n_models)
        Rows are the test examples, columns the models (labels, or probabilities of the
        positive class).
    y_true : array-like of shape (n_examples,)
    names : sequence of str, optional
        The models' names (default ``model_0``, ``model_1``, ...).

    Returns
    -------
    DataFrame
        ``y_true`` and one column per model, with ``attrs["provenance"]``.

    Raises
    ------
    InvalidInputError
        Not 2-D, ``y_true`` missing or of another length, names not one per column.

    Warns
    -----
    OutperformWarning
        More columns than rows, and at least 5 columns: probably transposed.

    Examples
    --------
    >>> import numpy as np
    >>> read_prediction_array(np.array([[1, 0], [0, 0], [1, 1]]), [1, 0, 1]).columns.tolist()
    ['y_true', 'model_0', 'model_1']
    """
    x = np.asarray(data)
    if x.ndim != 2:
        raise InvalidInputError(f"an array of predictions must be 2-D ({PREDICTIONS_ORIENTATION}); "
                                f"got shape {x.shape}.")
    if y_true is None or isinstance(y_true, str):
        raise InvalidInputError(f"with an array of predictions ({PREDICTIONS_ORIENTATION}), pass "
                                "y_true= the true labels as an array.")
    y = np.asarray(y_true)
    rows, k = x.shape
    if y.ndim != 1 or len(y) != rows:
        raise InvalidInputError(f"y_true has shape {y.shape}; the array has {rows} rows "
                                f"({PREDICTIONS_ORIENTATION}): one label per row.")
    names = _model_names(names, rows, k, PREDICTIONS_ORIENTATION, one_model=True)
    frame = pd.DataFrame(dict(zip(names, x.T)))
    frame.insert(0, "y_true", y)
    frame.attrs["provenance"] = {"source": "numpy array", "orientation": PREDICTIONS_ORIENTATION}
    return frame


#: How an array of per-item scores is read.
ITEMS_ORIENTATION = "rows = items (test examples), columns = models"


def item_matrix(data, *, names=None) -> tuple[np.ndarray, tuple[str, ...]]:
    """A 2-D array of per-item scores, checked: ``(scores, names)``.

    ``scores`` is float64 of shape (n_items, n_models), rows = items, columns = models, the
    same matrix :func:`read_item_array`'s long table gives back when pivoted (items in row
    order, models in column order), without building that table (at 20,000 items x 2,000
    models, 4e7 rows of Python objects).

    Raises
    ------
    InvalidInputError
        Not 2-D, non-numeric, NaN, names not one per column, fewer than 2 columns.

    Warns
    -----
    OutperformWarning
        More columns than rows, and at least 5 columns: probably transposed.

    Examples
    --------
    >>> item_matrix(np.array([[1, 0], [1, 1]]))
    (array([[1., 0.],
           [1., 1.]]), ('model_0', 'model_1'))
    """
    x = np.asarray(data)
    if x.ndim != 2:
        raise InvalidInputError(f"an array of per-item scores must be 2-D ({ITEMS_ORIENTATION}); "
                                f"got shape {x.shape}.")
    x = _numbers(x, ITEMS_ORIENTATION)
    rows, k = x.shape
    names = tuple(_model_names(names, rows, k, ITEMS_ORIENTATION))
    missing = np.isnan(x)
    if missing.any():
        i, j = np.argwhere(missing)[0]
        raise InvalidInputError(
            f"the array has {int(missing.sum())} NaN scores, e.g. item {i} of model {names[j]!r} "
            f"({ITEMS_ORIENTATION}): the comparison is paired, every model needs a score on "
            "every item.")
    return x, names


def read_item_array(data, *, names=None, metric: str | None = None) -> pd.DataFrame:
    """A 2-D array of per-item scores as the long table ``model, example, <metric>``.

    Parameters
    ----------
    data : ndarray of shape (n_items, n_models)
        Rows are the items, columns the models (e.g. 0/1 correct).
    names : sequence of str, optional
        The models' names (default ``model_0``, ``model_1``, ...).
    metric : str, optional
        The name of the values (default ``score``).

    Raises
    ------
    InvalidInputError
        Not 2-D, non-numeric, names not one per column, fewer than 2 columns.

    Warns
    -----
    OutperformWarning
        More columns than rows, and at least 5 columns: probably transposed.

    Examples
    --------
    >>> read_item_array(np.array([[1, 0], [1, 1]])).to_dict("list")
    {'model': ['model_0', 'model_1', 'model_0', 'model_1'], 'example': [0, 0, 1, 1], 'score': [1.0, 0.0, 1.0, 1.0]}
    """
    x, names = item_matrix(data, names=names)
    rows, k = x.shape
    frame = pd.DataFrame({MODEL: np.tile(names, rows), "example": np.repeat(np.arange(rows), k),
                          metric or "score": x.ravel()})
    frame.attrs["provenance"] = {"source": "numpy array", "orientation": ITEMS_ORIENTATION}
    return frame
