"""Result of Hsu's multiple comparisons with the best (MCB): which models could be the best."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from ._base import Result
from ._serialize import jsonable


@dataclass(frozen=True, repr=False)
class ComparisonWithBest(Result):
    """Hsu's constrained simultaneous intervals for μ_i − best_{j≠i} μ_j, one per model.

    "best" is the largest mean when ``higher_is_better`` (μ_i − max_{j≠i} μ_j), the smallest
    otherwise (μ_i − min_{j≠i} μ_j); all values are in the metric's units.

    Attributes
    ----------
    names : tuple of str
        The k models, in the order of the input columns.
    means : ndarray, shape (k,)
        Each model's mean score over the blocks.
    difference : ndarray, shape (k,)
        ȳ_i − best of the other means.
    lower, upper : ndarray, shape (k,)
        Hsu's constrained bounds, ``lower = min(0, difference − h)`` and
        ``upper = max(0, difference + h)`` with h = ``critical_value * standard_error``; they
        hold for every model at once with probability at least 1 − ``alpha``.
    pvalue : ndarray, shape (k,)
        Adjusted p-value of "model i is not the best": the one-sided Dunnett test of the
        sample best of the others against model i taken as the control (JMP's "with Max"
        p-values; Hsu 1996 §4.1.1). ``pvalue[i] <= alpha`` exactly when ``upper[i] == 0``
        (higher is better) or ``lower[i] == 0`` (lower is better).
    critical_value : float
        The one-sided Dunnett quantile for k − 1 comparisons, common correlation 0.5.
    standard_error : float
        √(2 MSE / b), the standard error of a difference of two means.
    df : float
        Degrees of freedom of MSE: (b − 1)(k − 1) for b blocks.
    mse : float
        Residual mean square of the two-way (blocks × models) ANOVA.
    n_blocks : int
    higher_is_better : bool
    alpha : float
    unit : str
        What the blocks are: ``"item"``, ``"fold"``, ``"task"`` or ``"block"``.
    details : mapping
    """

    names: tuple[str, ...]
    means: np.ndarray
    difference: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    pvalue: np.ndarray
    critical_value: float
    standard_error: float
    df: float
    mse: float
    n_blocks: int
    higher_is_better: bool
    alpha: float
    unit: str = "block"
    details: Mapping[str, Any] = field(default_factory=dict)

    method = "Hsu's multiple comparisons with the best (MCB)"

    @property
    def could_be_best(self) -> np.ndarray:
        """Boolean (k,): the model's interval reaches the side where it beats all others
        (Hsu's subset of models that may be the best, at level 1 − alpha)."""
        return self.upper > 0 if self.higher_is_better else self.lower < 0

    @property
    def is_best(self) -> np.ndarray:
        """Boolean (k,): the model is the best, at least as good as every other one (its
        constrained interval has the bound 0 on the side of "worse", Hsu 1996 §4.1.1)."""
        if self.higher_is_better:
            return (self.lower == 0) & (self.upper > 0)
        return (self.upper == 0) & (self.lower < 0)

    @property
    def half_width(self) -> float:
        """h = critical_value × standard_error, in metric units."""
        return float(self.critical_value * self.standard_error)

    def candidates(self) -> tuple[str, ...]:
        """Names of the models that could be the best, best mean first."""
        order = np.argsort(-self.means if self.higher_is_better else self.means,
                           kind="stable")
        return tuple(self.names[i] for i in order if self.could_be_best[i])

    def _summary(self) -> dict[str, Any]:
        return {"method": "MCB", "names": self.names, "could_be_best": self.candidates(),
                "alpha": self.alpha}

    def to_frame(self):
        """One row per model, best mean first: ``model``, ``mean``, ``difference``,
        ``lower``, ``upper``, ``pvalue``, ``could_be_best``."""
        import pandas as pd

        order = np.argsort(-self.means if self.higher_is_better else self.means,
                           kind="stable")
        return pd.DataFrame({
            "model": [self.names[i] for i in order], "mean": self.means[order],
            "difference": self.difference[order], "lower": self.lower[order],
            "upper": self.upper[order], "pvalue": self.pvalue[order],
            "could_be_best": self.could_be_best[order]})

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the scalar fields and one record per model (``models``)."""
        out = {k: jsonable(getattr(self, k)) for k in
               ("method", "names", "critical_value", "standard_error", "df", "mse",
                "n_blocks", "higher_is_better", "alpha", "unit", "details")}
        out["models"] = jsonable(self.to_frame().to_dict(orient="records"))
        return out
