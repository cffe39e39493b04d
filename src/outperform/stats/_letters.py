"""Compact letter display of an all-pairs comparison (Piepho 2004).

Models that share a letter are not significantly different; two models with no letter in
common are. Piepho (2004), "An algorithm for a letter-based representation of all-pairwise
comparisons", J. Comput. Graph. Stat. 13(2): 456–466: the insert-and-absorb algorithm, as
implemented by R's ``multcompView::multcompLetters`` (whose column order and letters this
reproduces, so a table made here matches one made in R).
"""
from __future__ import annotations

import string
from typing import Sequence

import numpy as np

from .._names import model_names
from .._validation import InvalidInputError

LETTERS = tuple(string.ascii_lowercase + string.ascii_uppercase + ".")  # as multcompView


def _absorb(mat: np.ndarray) -> np.ndarray:
    """Drop columns contained in another, first pair (i < j) first, as multcompLetters."""
    while mat.shape[1] > 1:
        # outside[j, i]: rows where column j is TRUE and column i is not.
        outside = mat.T.astype(np.int64) @ (~mat).astype(np.int64)
        j_in_i, i_in_j = outside == 0, outside.T == 0
        hit = np.triu(j_in_i.T | i_in_j.T, 1)   # [i, j]: j within i, or i within j
        if not hit.any():
            break
        i, j = np.argwhere(hit)[0]
        mat = np.delete(mat, j if j_in_i[j, i] else i, axis=1)
    return mat


def _sort_columns(b: np.ndarray) -> np.ndarray:
    """multcompLetters' sortCols: by first TRUE row, ties sorted on the rows below."""
    first = np.where(b.any(axis=0), np.argmax(b, axis=0), b.shape[0])
    b = b[:, np.argsort(first, kind="stable")]
    first = np.where(b.any(axis=0), np.argmax(b, axis=0), b.shape[0])
    for i in np.flatnonzero(np.diff(first) == 0):
        rows = slice(first[i] + 1, b.shape[0])
        b[rows, i:i + 2] = _sort_columns(b[rows, i:i + 2].copy())
    return b


def _letters(count: int, ltrs: Sequence[str] = LETTERS) -> list[str]:
    """multcompLetters' makeLtrs: a ... Z, then ".a", ".b", ... when more are needed."""
    if count < len(ltrs):
        return list(ltrs[:count])
    again = [ltrs[-1] + x for x in ltrs[:-1]] + [ltrs[-1]]
    return list(ltrs[:-1]) + _letters(count - len(ltrs) + 1, again)


def compact_letters(reject, names: Sequence[str] | None = None) -> dict[str, str]:
    """Letters for each model from a k x k matrix of significant differences.

    Parameters
    ----------
    reject : array_like of bool, shape (k, k)
        ``reject[i, j]`` True when models i and j differ significantly (symmetric; the
        diagonal is ignored), e.g. ``PairwiseResult.reject`` of an all-pairs test.
    names : sequence of str, optional
        Model names in the order of the rows; the letters follow this order ("a" goes to the
        first model), so pass the models best first for a paper table.

    Returns
    -------
    dict of str to str
        Model -> its letters, e.g. ``{"A": "a", "B": "ab", "C": "b"}``.

    Raises
    ------
    InvalidInputError
        ``reject`` not square or not symmetric, wrong number of names.

    Notes
    -----
    Piepho (2004): each rejected pair (i, j), in the order of ``np.triu_indices``, splits
    every letter column holding both into a copy without i and the column without j; then
    columns contained in another are absorbed. Columns are ordered by their first model
    and named a, b, ..., z, A, ..., Z, then ".a", ".b", ... (``multcompView::multcompLetters``
    with its defaults, ``Letters = c(letters, LETTERS, ".")`` and ``reversed = FALSE``). The loop over the rejected
    pairs is the algorithm's: each split depends on the previous ones.

    Examples
    --------
    >>> reject = [[False, False, True], [False, False, False], [True, False, False]]
    >>> compact_letters(reject, ["A", "B", "C"])
    {'A': 'a', 'B': 'ab', 'C': 'b'}
    """
    r = np.asarray(reject, dtype=bool)
    if r.ndim != 2 or r.shape[0] != r.shape[1]:
        raise InvalidInputError(f"reject must be a square matrix, got shape {r.shape}.")
    if not np.array_equal(r, r.T):
        raise InvalidInputError("reject must be symmetric: reject[i, j] == reject[j, i].")
    k = r.shape[0]
    labels = model_names(names, k)
    mat = np.ones((k, 1), dtype=bool)
    for i, j in zip(*np.nonzero(np.triu(r, 1))):
        both = mat[i] & mat[j]
        if both.any():
            copy = mat[:, both].copy()
            copy[i] = False
            mat[j, both] = False
            mat = _absorb(np.column_stack([mat, copy]))
    mat = _sort_columns(mat)
    ltrs = _letters(mat.shape[1])
    return {labels[m]: "".join(ltrs[c] for c in np.flatnonzero(mat[m])) for m in range(k)}
