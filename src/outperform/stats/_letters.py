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


def _insert_absorb(r: np.ndarray) -> np.ndarray:
    """Piepho's insert-and-absorb over the rejected pairs of ``r``: the (k, c) letter columns.

    Columns are bitsets (Python ints, bit m = model m), in multcompLetters' order. Each
    rejected pair (i, j) splits every column holding both into the column without j (in
    place) and a copy without i (appended); then a column contained in another is absorbed,
    first pair (i < j) first, as multcompLetters does. That removes exactly the columns
    strictly within another and, of equal columns, all but the first; and as the columns
    were absorbed before the split, only the columns it made can be removed: they alone are
    checked, against every column.
    """
    k = r.shape[0]
    cols = [(1 << k) - 1]
    for i, j in np.argwhere(np.triu(r, 1)).tolist():
        bit_i, bit_j = 1 << i, 1 << j
        both = bit_i | bit_j
        hit = [c for c, col in enumerate(cols) if col & both == both]
        if not hit:
            continue
        start = len(cols)
        cols += [cols[c] ^ bit_i for c in hit]
        for c in hit:
            cols[c] ^= bit_j
        drop = set()
        for c in hit + list(range(start, len(cols))):
            x = cols[c]
            # the columns holding column c: itself, and any other one absorbs it
            within = [d for d, y in enumerate(cols) if x | y == y]
            if len(within) > 1 and any(d < c or cols[d] != x for d in within if d != c):
                drop.add(c)
        if drop:
            cols = [col for c, col in enumerate(cols) if c not in drop]
    return np.array([[col >> m & 1 for col in cols] for m in range(k)], dtype=bool)


def _interval_columns(r: np.ndarray) -> np.ndarray | None:
    """The letter columns when the models not rejected with each one are consecutive.

    That is the pattern of a test on one ordered quantity with the models in its order
    (Nemenyi on average ranks, best first): row i's models not rejected are a run
    lo_i..hi_i and hi_i never decreases. Insert-and-absorb ends with the maximal sets of
    models no pair of which is rejected (each split keeps every maximal set of the graph so
    far, the absorption drops the others); here they are the runs i..hi_i that no earlier
    run contains (hi_i > hi_(i-1)), in the order of their first model, as ``_sort_columns``
    would put them. None for any other pattern.
    """
    keep = ~r
    np.fill_diagonal(keep, True)
    k = keep.shape[0]
    lo = np.argmax(keep, axis=1)
    hi = k - 1 - np.argmax(keep[:, ::-1], axis=1)
    if np.any(keep.sum(axis=1) != hi - lo + 1) or np.any(np.diff(hi) < 0):
        return None
    first = np.flatnonzero(np.r_[True, np.diff(hi) > 0])
    m = np.arange(k)[:, None]
    return (m >= first) & (m <= hi[first])


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
    mat = _interval_columns(r)
    if mat is None:
        mat = _sort_columns(_insert_absorb(r))
    ltrs = _letters(mat.shape[1])
    return {labels[m]: "".join(ltrs[c] for c in np.flatnonzero(mat[m])) for m in range(k)}
