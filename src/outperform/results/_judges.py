"""Results of judged evaluations: agreement coefficients and judge-corrected estimates."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._base import Result
from ._serialize import jsonable


@dataclass(frozen=True, repr=False)
class Agreement(Result):
    """An agreement coefficient between raters with its bootstrap interval over items.

    Attributes
    ----------
    statistic : str
        ``"cohen_kappa"``, ``"fleiss_kappa"``, ``"gwet_ac1"`` or ``"krippendorff_alpha"``.
    method : str
        Its label (``"Krippendorff's α (nominal)"``).
    estimate : float
        1 is perfect agreement, 0 the agreement of chance.
    low, high : float
        Percentile bootstrap interval at level 1 − alpha (NaN with no resample).
    alpha : float
    n_items, n_raters, n_resamples : int
        Items (units) the coefficient uses, raters, bootstrap resamples.
    details : mapping
        Coefficient-specific values (observed and chance agreement, level, ...).
    """

    statistic: str
    method: str
    estimate: float
    low: float
    high: float
    alpha: float
    n_items: int
    n_raters: int
    n_resamples: int
    details: Mapping[str, Any] = field(default_factory=dict)

    _repr_fields = ("method", "estimate", "low", "high", "n_items")

    def confidence_interval(self, confidence_level: float | None = None) -> tuple[float, float]:
        """The bootstrap interval (at the level it was computed at, 1 − alpha)."""
        if confidence_level is not None and abs(confidence_level - (1 - self.alpha)) > 1e-12:
            from .._validation import InvalidInputError

            raise InvalidInputError(f"this interval was computed at {1 - self.alpha:g}; call "
                                    "the function again with alpha = 1 − the level wanted.")
        return self.low, self.high


@dataclass(frozen=True, repr=False)
class JudgeCorrection(Result):
    """Judge-only and human-corrected estimates of one task of a judged evaluation.

    Attributes
    ----------
    task : str
    alpha : float
    binary : bool
        Judge scores and human labels are all 0/1 (Rogan–Gladen and κ/AC1 then apply).
    models : tuple of dict
        One row per model: ``judge_mean``, ``judge_low``, ``judge_high`` (every item's judge
        score), ``ppi_mean``, ``ppi_low``, ``ppi_high``, ``ppi_se``, ``lam`` (PPI++),
        ``human_mean`` (gold items alone), ``n_gold``, ``n_unlabelled``, ``n_effective``;
        with 0/1 scores ``rg_mean``, ``rg_low``, ``rg_high``, ``sensitivity``,
        ``specificity`` (Rogan–Gladen).
    pairs : tuple of dict
        One row per pair (A, B): ``judge_difference``/``judge_low``/``judge_high``,
        ``ppi_difference``/``ppi_low``/``ppi_high``/``ppi_se``/``pvalue``,
        ``pvalue_adjusted`` (Holm over the pairs when there are several), ``lam``,
        ``n_gold`` (items labelled for both), ``n_effective``, ``better`` (the model the
        corrected difference favours at ``alpha`` by the adjusted p, "" for none). A − B,
        positive favours A when higher is better.
    agreement : tuple of Agreement
        Judge against people on the gold items (each (item, model) a unit).
    gold : dict
        Rows read, rows used, items labelled, per model labels.
    warnings : tuple of str
    conclusions : tuple of str
        One sentence per pair: the corrected difference and the model it favours.
    """

    task: str
    alpha: float
    binary: bool
    models: tuple[dict, ...]
    pairs: tuple[dict, ...]
    agreement: tuple[Agreement, ...]
    gold: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    conclusions: tuple[str, ...] = ()

    _repr_fields = ("task", "binary")

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary."""
        return {"task": self.task, "alpha": self.alpha, "binary": self.binary,
                "models": jsonable(list(self.models)), "pairs": jsonable(list(self.pairs)),
                "agreement": [a.to_dict() for a in self.agreement],
                "gold": jsonable(dict(self.gold)), "warnings": list(self.warnings),
                "conclusions": list(self.conclusions)}

    def to_frame(self):
        """One row per model, then one per pair (column ``row``: "model" or "pair")."""
        import pandas as pd

        return pd.DataFrame([{"row": "model", **r} for r in self.models]
                            + [{"row": "pair", **r} for r in self.pairs])
