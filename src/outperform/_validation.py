"""Input checks shared by every layer (the exceptions they raise are in :mod:`._errors`).

Every public function validates its input here so that bad input raises one of these
exceptions with a message saying what was wrong and what to do, never a wrong answer.
"""
from __future__ import annotations

import math
from typing import Iterable

import numpy as np

from ._errors import (  # noqa: F401  (the checks below raise them; callers import them here)
    EXTRAS, ConvergenceWarning, DegenerateDataError, InvalidInputError, MissingDependencyError,
    OutperformDeprecationWarning, OutperformError, OutperformWarning, PerformanceWarning,
    TooFewError, require)

ALTERNATIVES = ("two-sided", "less", "greater")


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
    if arr.size and not np.isfinite(arr).all():
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


def as_paired_rows(a, b, test: str) -> tuple[np.ndarray, np.ndarray]:
    """Two (n_pairs, n) float arrays of fold scores, one pair per row, for a batch of ``test``.

    Raises
    ------
    InvalidInputError
        Not two 2-D arrays of the same shape, or a NaN / infinite score.
    TooFewError
        Fewer than 2 folds.
    """
    x, y = (np.asarray(v, dtype=float) for v in (a, b))
    if x.ndim != 2 or x.shape != y.shape:
        raise InvalidInputError(
            f"a and b must be (n_pairs, n) arrays of the same shape, got {x.shape} and "
            f"{y.shape}.")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise InvalidInputError("the fold scores must be finite numbers (no NaN or inf).")
    if x.shape[1] < 2:
        raise TooFewError(f"the {test} needs at least 2 folds, got {x.shape[1]}.")
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

    Strings and booleans are refused even where numpy would convert them ("3" -> 3,
    True -> 1): a count given as text or as a flag is a mistake upstream (a column read as
    text, a mask passed for its sum), not a number to guess.

    Raises
    ------
    InvalidInputError
        If any value is a string or a boolean, negative, non-integer, NaN or non-numeric.
    """
    _refuse_text_and_flags(x, name)
    arr = as_float_array(x, name)
    if np.any(arr < 0):
        raise InvalidInputError(f"{name} must be non-negative counts, got {arr[arr < 0][0]:g}.")
    if np.any(arr != np.round(arr)):
        raise InvalidInputError(
            f"{name} must be whole numbers (counts), got {arr[arr != np.round(arr)][0]:g}."
        )
    return arr.astype(np.int64)


def _refuse_text_and_flags(x, name: str) -> None:
    # numpy turns [1, True] into [1, 1]: lists are checked element by element; arrays and
    # Series by their dtype, unless they hold Python objects.
    if not isinstance(x, (list, tuple)):
        kind = np.asarray(x).dtype.kind
        if kind in "iufc":
            return
        if kind != "O":
            x = np.asarray(x).ravel()[:1]  # bool or text dtype: the first element says which
    for v in np.asarray(x, dtype=object).ravel():
        if isinstance(v, (str, bytes, np.str_, np.bytes_)):
            raise InvalidInputError(
                f"{name} must be counts (whole numbers), got the text {v!r}; convert it to a "
                "number first (a column read as text?).")
        if isinstance(v, (bool, np.bool_)):
            raise InvalidInputError(
                f"{name} must be counts (whole numbers), got the boolean {v!r}; pass the number "
                "of True values (e.g. int(mask.sum())), not a flag.")


def check_random_state(random_state, name: str = "random_state") -> np.random.Generator:
    """Return the numpy Generator that ``random_state`` names.

    Parameters
    ----------
    random_state : None, int >= 0, numpy.random.SeedSequence or numpy.random.Generator
        None draws fresh entropy; an int or a SeedSequence seeds a new Generator
        (``numpy.random.default_rng``); a Generator is used as it is (its state advances).
    name : str
        Name used in error messages.

    Raises
    ------
    InvalidInputError
        Anything else: a string, a float, a bool, a negative int, a legacy ``RandomState``.

    Examples
    --------
    >>> bool(check_random_state(0).random() == np.random.default_rng(0).random())
    True
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.SeedSequence) or random_state is None:
        return np.random.default_rng(random_state)
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, (bool, np.bool_)):
        if random_state < 0:
            raise InvalidInputError(f"{name} must be a non-negative int, got {random_state}.")
        return np.random.default_rng(int(random_state))
    hint = (" (a legacy RandomState: pass np.random.default_rng(seed) instead)"
            if isinstance(random_state, np.random.RandomState) else "")
    raise InvalidInputError(
        f"{name} must be None, a non-negative int, a numpy SeedSequence or a numpy Generator, "
        f"got {random_state!r}{hint}.")


def random_seed(random_state, name: str = "random_state") -> int:
    """An int seed in [0, 2**31) for back ends that take one (JAX's PRNGKey).

    An int is returned as it is (so a given seed keeps giving the same draws); None, a
    SeedSequence or a Generator yield a seed drawn from the Generator of
    :func:`check_random_state`.

    Raises
    ------
    InvalidInputError
        As :func:`check_random_state`.
    """
    rng = check_random_state(random_state, name)
    if isinstance(random_state, (int, np.integer)):
        return int(random_state)
    return int(rng.integers(2**31))


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


def check_threshold(threshold: float) -> float:
    """The decision threshold of a Bayesian test (Williams 2026 §5.2), checked.

    A region decides when its posterior probability reaches the threshold. At or below 0.5
    two of the three regions can reach it at once (P(A better) = P(B better) = 0.5, or 0.45
    and 0.45 against 0.3), and which one "decides" would be an arbitrary order, not the data;
    above 0.5 at most one region can. Williams uses 0.95.

    Raises
    ------
    InvalidInputError
        ``threshold`` not a number in (0.5, 1).
    """
    try:
        value = float(threshold)
    except (TypeError, ValueError):
        value = float("nan")
    if isinstance(threshold, (bool, np.bool_)) or not 0.5 < value < 1:
        raise InvalidInputError(
            f"threshold must lie in (0.5, 1), got {threshold!r}: it is the posterior "
            "probability one region (A better, equivalent, B better) must reach for a "
            "decision, and at 0.5 or below two regions can reach it at once. Williams (2026) "
            "§5.2 uses 0.95; 0.9 is a weaker, still unambiguous, choice.")
    return value


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
    if isinstance(rope, (int, float)) or np.ndim(rope) == 0:
        r = float(rope)
        if not math.isfinite(r) or r < 0:
            raise InvalidInputError(f"rope half-width must be a non-negative number, got {rope!r}.")
        return (-r, r)
    low, high = (float(v) for v in rope)
    if not (np.isfinite(low) and np.isfinite(high)) or low > high:
        raise InvalidInputError(f"rope must be (low, high) with low <= high, got {rope!r}.")
    return (low, high)


def check_flag(value, name: str, *, optional: bool = False):
    """``value`` as a bool, if it is one (Python's or numpy's); None if ``optional``.

    Raises
    ------
    InvalidInputError
        Anything else, such as the text ``"no"`` (which Python reads as true) or ``1``.
    """
    if value is None and optional:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise InvalidInputError(
        f"{name} must be True or False{' (or None)' if optional else ''}, got {value!r} "
        f"({type(value).__name__}).")


def check_number(value, name: str, *, optional: bool = False):
    """``value`` as a float, if it is a real number (not a bool, not text); None if
    ``optional``.

    Raises
    ------
    InvalidInputError
        Text such as ``"0.05"``, a bool, anything that is not a real number.
    """
    if value is None and optional:
        return None
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)):
        return float(value)
    raise InvalidInputError(
        f"{name} must be a number{' (or None)' if optional else ''}, got {value!r} "
        f"({type(value).__name__}).")


def check_text(value, name: str, *, optional: bool = False):
    """``value`` if it is a string; None if ``optional``.

    Raises
    ------
    InvalidInputError
        Anything else (a number, a list).
    """
    if value is None and optional:
        return None
    if isinstance(value, str):
        return value
    raise InvalidInputError(
        f"{name} must be a string{' (or None)' if optional else ''}, got {value!r} "
        f"({type(value).__name__}).")


def check_alpha(alpha, name: str = "alpha") -> float:
    """A significance level: a real number in (0, 1).

    Raises
    ------
    InvalidInputError
        Not a number (``"0.05"``), or outside (0, 1).
    """
    return check_probability(check_number(alpha, name), name)
