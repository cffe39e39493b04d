"""The model confidence set (Hansen, Lunde & Nason 2011): values only.

The kernel :func:`outperform.stats.model_confidence_set` computes it; it pickles.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result

#: How each statistic is read, in the words the reports print.
STATISTIC_WORDS = {
    "R": "T_R, the largest studentised difference of two models' mean losses",
    "max": "T_max, the largest studentised difference of a model's mean loss from the "
           "average of the models left",
}


@dataclass(frozen=True, eq=False, repr=False)
class ModelConfidenceSet(Result):
    """The set of models that holds the best one with probability >= 1 - alpha.

    Attributes
    ----------
    names : tuple of str
        The k models, in input order.
    pvalues : ndarray, shape (k,)
        MCS p-value of each model (HLN 2011 Definition 2): the largest p-value of the
        equivalence tests up to and including its elimination; 1 for the last model. The
        set at level 1 - a is the models with p-value > a, for every a.
    elimination_order : tuple of str
        Models in the order they were eliminated; the last one survives every test.
    step_pvalues, statistics : ndarray, shape (k,)
        In elimination order: each test's own p-value and statistic (NaN for the survivors).
    estimate : ndarray, shape (k,)
        Mean loss (or score, with ``higher_is_better``) of each model.
    alpha : float
    statistic : str
        ``"R"`` or ``"max"`` (:data:`STATISTIC_WORDS`).
    bootstrap : str
        ``"stationary"`` or ``"circular"``.
    block_size : int
    n_resamples : int
    n_items : int
        Rows of the input (items or tasks).
    n_clusters : int or None
        Clusters resampled whole (None: the rows were).
    unit : str
        ``"item"`` or ``"task"``.
    higher_is_better : bool
    indistinguishable : bool
        The last models left had zero bootstrap variance between them (identical losses on
        every unit): none could be eliminated, all kept with p-value 1.
    """

    names: tuple[str, ...]
    pvalues: np.ndarray
    elimination_order: tuple[str, ...]
    step_pvalues: np.ndarray
    statistics: np.ndarray
    estimate: np.ndarray
    alpha: float
    statistic: str
    bootstrap: str
    block_size: int
    n_resamples: int
    n_items: int
    n_clusters: int | None
    unit: str
    higher_is_better: bool
    indistinguishable: bool = False

    _repr_fields = ("included", "alpha", "statistic", "n_resamples")

    @property
    def confidence_level(self) -> float:
        return 1.0 - self.alpha

    @property
    def included(self) -> tuple[str, ...]:
        """The models of the set at 1 - alpha (p-value > alpha), best estimate first."""
        return self.at(self.alpha)

    def at(self, alpha: float) -> tuple[str, ...]:
        """The set at level 1 - ``alpha``: models whose MCS p-value exceeds it, best first."""
        key = -self.estimate if self.higher_is_better else self.estimate
        order = np.argsort(key, kind="stable")
        return tuple(self.names[j] for j in order if self.pvalues[j] > alpha)

    def pvalue(self, name: str) -> float:
        """The MCS p-value of model ``name``."""
        return float(self.pvalues[self.names.index(name)])

    def to_dict(self) -> dict:
        rank = {m: r for r, m in enumerate(self.elimination_order)}
        return {"method": "model confidence set", "alpha": self.alpha,
                "statistic": self.statistic, "bootstrap": self.bootstrap,
                "block_size": self.block_size, "n_resamples": self.n_resamples,
                "n_items": self.n_items, "n_clusters": self.n_clusters, "unit": self.unit,
                "included": list(self.included), "indistinguishable": self.indistinguishable,
                "models": [{"model": m, "pvalue": float(self.pvalues[j]),
                            "in_set": bool(self.pvalues[j] > self.alpha),
                            "eliminated": rank[m] + 1 if m not in self.included else None}
                           for j, m in enumerate(self.names)]}

    def to_frame(self):
        """One row per model, in elimination order: p-value, in the set."""
        import pandas as pd

        j = [self.names.index(m) for m in self.elimination_order]
        return pd.DataFrame({"model": list(self.elimination_order),
                             "estimate": self.estimate[j], "pvalue": self.pvalues[j],
                             "in_set": self.pvalues[j] > self.alpha})
