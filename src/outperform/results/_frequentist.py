"""Result of a frequentist hypothesis test."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from ._base import Result, detail
from ._serialize import jsonable


@dataclass(frozen=True, repr=False)
class FrequentistResult(Result):
    """Outcome of a frequentist test: statistic, p-value, effect size, optional interval.

    Unpacks as ``statistic, pvalue = result`` like scipy's results.

    Attributes
    ----------
    statistic : float
        The test statistic (its definition is given by ``method``'s docstring).
    pvalue : float
        p-value for ``alternative``.
    method : str
        Standard name of the test, e.g. ``"Wilcoxon signed-rank test (exact)"``.
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``.
    df : float or tuple of float, optional
        Degrees of freedom of the reference distribution, when there is one.
    estimate : float, optional
        Point estimate of the compared quantity (e.g. mean difference), sign as documented
        by the function that produced the result.
    effect_size : float, optional
        Standardised effect size; ``effect_size_name`` says which (Cohen's d, Cohen's g, ...).
    effect_size_name : str, optional
    details : mapping
        Method-specific extra values (counts, rank sums, sample sizes ...), JSON-safe.
    samples : ndarray, optional
        Resampling distribution of the statistic when the method draws one (the paired
        bootstrap's differences); left out of ``to_dict`` and of reports.
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str = "two-sided"
    df: float | tuple[float, ...] | None = None
    estimate: float | None = None
    effect_size: float | None = None
    effect_size_name: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    samples: np.ndarray | None = field(default=None, repr=False, compare=False)
    _interval: Callable[[float], tuple[float, float]] | None = field(
        default=None, repr=False, compare=False)

    _repr_fields = ("method", "statistic", "pvalue", "estimate")

    # Method-specific values that other layers read, as attributes (also in ``details``).
    standard_error = detail("standard_error", "standard error of ``estimate``, in its units")
    margin = detail("margin", "equivalence or non-inferiority margin, in metric units (TOST, "
                    "non-inferiority tests)")
    n_items = detail("n_items", "items (test examples) compared")
    n_clusters = detail("n_clusters", "clusters of items, or None when items are independent")
    unpaired_standard_error = detail("unpaired_standard_error", "standard error of the "
                                     "difference had the two models' scores been unpaired")
    design_effect = detail("design_effect", "variance inflation by the clusters (1: none)")
    n_folds = detail("n_folds", "folds (differences) of a resampling design")
    perfect_agreement = detail("perfect_agreement", "whether every data set ranks the models "
                               "in the same order (omnibus rank tests)", False)

    def __iter__(self) -> Iterator[float]:
        yield self.statistic
        yield self.pvalue

    def confidence_interval(self, confidence_level: float = 0.95) -> tuple[float, float]:
        """Confidence interval of ``estimate`` at ``confidence_level``.

        Raises
        ------
        NotImplementedError
            If the method defines no interval (rank and sign tests, omnibus tests).
        """
        if self._interval is None:
            raise NotImplementedError(f"{self.method} defines no confidence interval.")
        if not 0 < confidence_level < 1:
            raise ValueError(f"confidence_level must lie in (0, 1), got {confidence_level!r}.")
        return self._interval(confidence_level)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary of the fields (NaN becomes ``None``)."""
        out = jsonable(self)
        if self._interval is not None:
            out["confidence_interval_95"] = jsonable(self.confidence_interval(0.95))
        return out

    def to_frame(self):
        """One-row :class:`pandas.DataFrame` of the scalar fields."""
        import pandas as pd

        row = {k: v for k, v in self.to_dict().items() if k != "details"}
        row.update({k: v for k, v in dict(self.details).items() if not isinstance(v, (list, dict))})
        return pd.DataFrame([row])
