"""An items x models matrix of per-item scores held compactly: 0/1 scores bit-packed,
graded scores as float32, unpacked to the dtype a kernel needs in chunks of models.

Memory (n items, k models): 0/1 scores ``k * ceil(n / 8)`` bytes (2,000 models x 10,000
items: 2.5 MB, against 160 MB as float64); graded scores ``4 * n * k`` bytes; the mask of the
items each model has, when some lack items, another ``k * ceil(n / 8)`` bytes. The item ids
are n strings. :meth:`ItemMatrix.scores` then allocates the (n, k) array asked for plus one
chunk of ``chunk * n`` bytes.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Bit order of the packed rows (item i of a row is bit i % 8 of byte i // 8).
BITORDER = "little"


def pack(bits: np.ndarray) -> np.ndarray:
    """0/1 (or bool) values, shape (..., n), packed along the last axis to uint8, shape
    (..., ceil(n / 8)); :func:`unpack` inverts it.

    >>> pack(np.array([1, 0, 1, 1, 0, 0, 0, 0, 1])).tolist()
    [13, 1]
    >>> unpack(pack(np.array([1, 0, 1, 1, 0, 0, 0, 0, 1])), 9).tolist()
    [1, 0, 1, 1, 0, 0, 0, 0, 1]
    """
    return np.packbits(np.asarray(bits, dtype=bool), axis=-1, bitorder=BITORDER)


def unpack(packed: np.ndarray, n: int) -> np.ndarray:
    """Rows packed by :func:`pack` back to uint8 0/1 values, shape (..., n)."""
    return np.unpackbits(packed, axis=-1, count=n, bitorder=BITORDER)


@dataclass(frozen=True)
class ItemMatrix:
    """Scores of k models on the n items of one task, stored model by model.

    Attributes
    ----------
    task, metric : str
    models : tuple of str, length k
    items : ndarray of str, shape (n,)
        Item ids (integer codes 0..n-1 are their positions).
    bits : ndarray of uint8, shape (k, ceil(n / 8)), or None
        0/1 scores, bit-packed (:func:`pack`); None for graded scores.
    values : ndarray of float32, shape (k, n), or None
        Graded scores (float32: 7 significant digits); None for 0/1 scores.
    present : ndarray of uint8, shape (k, ceil(n / 8)), or None
        Packed mask of the items each model has; None when every model has every item.
    clusters : ndarray of str, shape (n,), or None
    """

    task: str
    metric: str
    models: tuple[str, ...]
    items: np.ndarray
    bits: np.ndarray | None
    values: np.ndarray | None
    present: np.ndarray | None = None
    clusters: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        return int(len(self.items))

    @property
    def binary(self) -> bool:
        """Whether every score is 0 or 1 (stored bit-packed)."""
        return self.bits is not None

    @property
    def nbytes(self) -> int:
        """Bytes held by the scores and the mask (not the item ids)."""
        return sum(a.nbytes for a in (self.bits, self.values, self.present) if a is not None)

    def complete(self) -> np.ndarray:
        """Bool, shape (n,): the items every model has."""
        if self.present is None:
            return np.ones(self.n_items, dtype=bool)
        return unpack(np.bitwise_and.reduce(self.present, axis=0), self.n_items).astype(bool)

    def lacking(self) -> dict[str, np.ndarray]:
        """Per model that lacks items, the ids it lacks (positions where its mask is 0)."""
        if self.present is None:
            return {}
        out = {}
        for j, model in enumerate(self.models):     # one row per model, vectorised within
            absent = ~unpack(self.present[j], self.n_items).astype(bool)
            if absent.any():
                out[model] = self.items[absent]
        return out

    def scores(self, items: np.ndarray | None = None, *, dtype=np.float64,
               chunk: int = 256, out: np.ndarray | None = None) -> np.ndarray:
        """The (n_selected, k) matrix of scores as ``dtype``, C-ordered, unpacked ``chunk``
        models at a time (peak: the result plus ``chunk * n`` bytes).

        ``items``: positions or a bool mask of the items to keep (default all). ``out``: an
        array of that shape to fill instead (a view into a larger, pooled matrix). Items a
        model lacks are NaN (a float dtype) — pair them first (:meth:`complete`).
        """
        sel = slice(None) if items is None else np.asarray(items)
        n, k = self.n_items, len(self.models)
        rows = n if items is None else (int(sel.sum()) if sel.dtype == bool else sel.size)
        if out is None:
            out = np.empty((rows, k), dtype=dtype)
        for j0 in range(0, k, chunk):          # chunks of models, not items
            j1 = min(k, j0 + chunk)
            block = (unpack(self.bits[j0:j1], n) if self.binary
                     else self.values[j0:j1])
            out[:, j0:j1] = block[:, sel].T
            if self.present is not None and np.issubdtype(out.dtype, np.floating):
                absent = unpack(self.present[j0:j1], n)[:, sel].T == 0
                out[:, j0:j1][absent] = np.nan
        return out
