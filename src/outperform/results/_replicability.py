"""Replicability over data sets (Dror et al. 2017): values only.

The kernel :func:`outperform.stats.replicability` computes it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result


@dataclass(frozen=True, eq=False, repr=False)
class Replicability(Result):
    """k̂: on how many of N data sets the effect holds, at confidence 1 − alpha.

    Attributes
    ----------
    names : tuple of str
        The N data sets.
    pvalues : ndarray, shape (N,)
        Each data set's p-value, in input order.
    alpha : float
    k_bonferroni, k_fisher : int
        k̂ from the Bonferroni and Fisher partial conjunction p-values (Dror et al. 2017
        §4.1); Fisher assumes independent data sets.
    partial_bonferroni, partial_fisher : ndarray, shape (N,)
        p^{u/N} for u = 1..N.
    rejected : ndarray of bool, shape (N,)
        Data sets whose own null Holm's procedure rejects at alpha (the "which ones").
    """

    names: tuple[str, ...]
    pvalues: np.ndarray
    alpha: float
    k_bonferroni: int
    k_fisher: int
    partial_bonferroni: np.ndarray
    partial_fisher: np.ndarray
    rejected: np.ndarray

    _repr_fields = ("k_bonferroni", "k_fisher", "n_data_sets", "alpha")

    @property
    def n_data_sets(self) -> int:
        return len(self.names)

    @property
    def rejected_names(self) -> tuple[str, ...]:
        """The data sets Holm's procedure finds the effect on, in input order."""
        return tuple(n for n, r in zip(self.names, self.rejected) if r)

    def to_dict(self) -> dict:
        return {"method": "replicability analysis", "alpha": self.alpha,
                "k_bonferroni": self.k_bonferroni, "k_fisher": self.k_fisher,
                "n_data_sets": self.n_data_sets,
                "data_sets": [{"name": n, "pvalue": float(p), "holm_rejected": bool(r)}
                              for n, p, r in zip(self.names, self.pvalues, self.rejected)],
                "partial_bonferroni": [float(x) for x in self.partial_bonferroni],
                "partial_fisher": [float(x) for x in self.partial_fisher]}

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({"data_set": list(self.names), "pvalue": self.pvalues,
                             "holm_rejected": np.asarray(self.rejected, dtype=bool)})
