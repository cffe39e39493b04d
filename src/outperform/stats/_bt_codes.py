"""Battles as integer codes: the models factorized once, the winners checked and coded.

``np.unique(np.asarray(x).astype(str), return_inverse=True)`` on 2 x 10^5 model names
sorts 2 x 10^5 strings (30 ms of a 110 ms Bradley–Terry bootstrap on Arena-sized
battles) after converting every Python string into a numpy string (5 ms per column). The
names are few and the rows many, so :func:`factorize_strings` finds the distinct values of
an object array of ``str`` with a ``set`` (hashing, linear time), sorts those few with
numpy (its order, so the result is unchanged) and codes the rows by a dictionary look-up
run in C (``map`` of the dict's ``__getitem__`` into ``np.fromiter``; no Python code per
row). Any other input (numpy strings, numbers, None, str subclasses, trailing NULs, which
numpy's strings drop) takes ``np.unique`` on ``astype(str)``, as before.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError

OUTCOMES = {"a": 0, "b": 1, "tie": 2}


def factorize_strings(values) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values as strings and each value's index among them.

    The result equals ``np.unique(np.asarray(values).astype(str), return_inverse=True)``
    (tests/stats/test_bt_codes.py), in linear time for an object array of ``str``.

    Parameters
    ----------
    values : array_like, shape (n,)

    Returns
    -------
    names : ndarray of numpy str, shape (k,)
        Sorted (numpy's order of strings).
    codes : ndarray of intp, shape (n,)
        ``names[codes]`` is ``values`` as strings.

    Examples
    --------
    >>> names, codes = factorize_strings(np.array(["gpt", "llama", "gpt"], dtype=object))
    >>> names.tolist(), codes.tolist()
    (['gpt', 'llama'], [0, 1, 0])
    """
    values = np.asarray(values)
    if values.dtype == object and values.ndim == 1 and values.size:
        try:
            distinct = set(values)
        except TypeError:        # unhashable values: their str() below
            distinct = ()
        if distinct and all(type(v) is str and not v.endswith("\0") for v in distinct):   # few values
            names = np.unique(np.array(list(distinct), dtype=str))
            index = {str(name): k for k, name in enumerate(names)}
            codes = np.fromiter(map(index.__getitem__, values), np.intp, count=values.size)
            return names, codes
    names, codes = np.unique(values.astype(str), return_inverse=True)
    return names, codes.reshape(values.shape).astype(np.intp, copy=False)


def outcome_codes(winner) -> np.ndarray:
    """Winners as codes 0 ("a"), 1 ("b"), 2 ("tie"), shape (n,).

    Raises
    ------
    InvalidInputError
        A winner outside {"a", "b", "tie"}, naming the first such value.

    Examples
    --------
    >>> outcome_codes(["b", "tie", "a"]).tolist()
    [1, 2, 0]
    """
    winner = np.asarray(winner)
    if winner.dtype == object and winner.ndim == 1:
        try:
            distinct = set(winner)
        except TypeError:
            distinct = ()
        if distinct and all(type(v) is str for v in distinct) and distinct <= set(OUTCOMES):
            # few labels, all known: two comparisons run in C, no look-up per row
            return (winner == "b").astype(np.intp) + 2 * (winner == "tie")
    labels, codes = factorize_strings(winner)
    unknown = ~np.isin(labels, list(OUTCOMES))
    if unknown.any():
        first = labels[codes[np.flatnonzero(unknown[codes])[0]]]
        raise InvalidInputError(f"winner must be 'a', 'b' or 'tie'; got {str(first)!r}.")
    return np.searchsorted(np.array(list(OUTCOMES)), labels)[codes]     # "a" < "b" < "tie"
