"""Input checks shared by every layer, and the package's exceptions.

Every public function validates its input here so that bad input raises one of these
exceptions with a message saying what was wrong and what to do, never a wrong answer.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

ALTERNATIVES = ("two-sided", "less", "greater")


class OutperformError(ValueError):
    """Base class of the errors raised for bad input (a ``ValueError``)."""


class InvalidInputError(OutperformError):
    """The values given cannot be used: NaN, wrong shape, wrong type, negative counts, ..."""


class TooFewError(OutperformError):
    """Too few data sets, models, folds or examples for the requested procedure."""


class DegenerateDataError(OutperformError):
    """The data carry no information for the test, e.g. all differences are zero."""


def as_float_array(x, name: str, *, ndim: int | None = None) -> np.ndarray:
    """Return ``x`` as a float array, rejecting non-numeric values, NaN and infinities.

    Parameters
    ----------
    x : array_like
    name : str
        Name used in error messages.
    ndim : int, optional
        Required number of dimensions.

    Raises
    ------
    InvalidInputError
        If ``x`` is not numeric, has NaN or infinite entries, or the wrong number of dimensions.
    """
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"{name} must be numeric; could not convert it to numbers ({exc}). "
            "Check that the column holds scores, not labels or text."
        ) from None
    if ndim is not None and arr.ndim != ndim:
        raise InvalidInputError(
            f"{name} must be {ndim}-dimensional, got shape {arr.shape}."
        )
    if arr.size and not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))
        where = tuple(int(i) for i in bad[0])
        raise InvalidInputError(
            f"{name} contains {len(bad)} NaN or infinite value(s), first at index {where}. "
            "Remove or impute them before comparing: a missing score cannot be ranked."
        )
    return arr


def as_paired(a, b, names: tuple[str, str] = ("a", "b")) -> tuple[np.ndarray, np.ndarray]:
    """Return two 1-D float arrays of the same length (paired measurements).

    Raises
    ------
    InvalidInputError
        If the arrays are not 1-D, differ in length, or hold NaN / non-numeric values.
    """
    x = as_float_array(a, names[0], ndim=1)
    y = as_float_array(b, names[1], ndim=1)
    if x.shape != y.shape:
        raise InvalidInputError(
            f"{names[0]} and {names[1]} must be paired (same data sets / folds / examples in the "
            f"same order), got lengths {x.size} and {y.size}."
        )
    return x, y


def as_score_matrix(scores, name: str = "scores", *, min_tasks: int = 2,
                    min_models: int = 2) -> np.ndarray:
    """Return a 2-D float array of shape (n_tasks, n_models).

    Raises
    ------
    InvalidInputError
        Non-numeric values, NaN or wrong number of dimensions.
    TooFewError
        Fewer than ``min_tasks`` rows or ``min_models`` columns.
    """
    arr = as_float_array(scores, name, ndim=2)
    n, k = arr.shape
    if k < min_models:
        raise TooFewError(
            f"{name} has {k} model(s) (columns); at least {min_models} are needed to compare."
        )
    if n < min_tasks:
        raise TooFewError(
            f"{name} has {n} data set(s) (rows); this procedure needs at least {min_tasks}."
        )
    return arr


def as_counts(x, name: str) -> np.ndarray:
    """Return non-negative integer counts as an int64 array.

    Raises
    ------
    InvalidInputError
        If any value is negative, non-integer, NaN or non-numeric.
    """
    arr = as_float_array(x, name)
    if np.any(arr < 0):
        raise InvalidInputError(f"{name} must be non-negative counts, got {arr[arr < 0][0]:g}.")
    if np.any(arr != np.round(arr)):
        raise InvalidInputError(
            f"{name} must be whole numbers (counts), got {arr[arr != np.round(arr)][0]:g}."
        )
    return arr.astype(np.int64)


def check_alternative(alternative: str) -> str:
    """Raise ``InvalidInputError`` unless ``alternative`` is one of two-sided/less/greater."""
    if alternative not in ALTERNATIVES:
        raise InvalidInputError(
            f"alternative must be one of {ALTERNATIVES}, got {alternative!r}."
        )
    return alternative


def check_probability(value: float, name: str, *, open_interval: bool = True) -> float:
    """Raise ``InvalidInputError`` unless ``value`` lies in (0, 1) (or [0, 1])."""
    ok = 0 < value < 1 if open_interval else 0 <= value <= 1
    if not ok:
        interval = "(0, 1)" if open_interval else "[0, 1]"
        raise InvalidInputError(f"{name} must lie in {interval}, got {value!r}.")
    return float(value)


def check_choice(value: str, name: str, choices: Iterable[str]) -> str:
    """Raise ``InvalidInputError`` unless ``value`` is one of ``choices``."""
    choices = tuple(choices)
    if value not in choices:
        raise InvalidInputError(f"{name} must be one of {choices}, got {value!r}.")
    return value


def check_rope(rope) -> tuple[float, float]:
    """Return a ROPE as an ordered pair (low, high) with low <= high.

    A single number r means the symmetric interval [-r, r].

    Raises
    ------
    InvalidInputError
        Negative half-width, or low > high.
    """
    if np.ndim(rope) == 0:
        r = float(rope)
        if not np.isfinite(r) or r < 0:
            raise InvalidInputError(f"rope half-width must be a non-negative number, got {rope!r}.")
        return (-r, r)
    low, high = (float(v) for v in rope)
    if not (np.isfinite(low) and np.isfinite(high)) or low > high:
        raise InvalidInputError(f"rope must be (low, high) with low <= high, got {rope!r}.")
    return (low, high)
