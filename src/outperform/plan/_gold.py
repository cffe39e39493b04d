"""How many human labels a judged evaluation needs: the PPI++ variance in closed form.

With n of T items labelled by people and the rest scored by the judge alone, the PPI++ mean
with its optimal λ has variance (Angelopoulos, Duchi & Zrnic 2023, §2 and Prop. 2, λ* of
their eq. 6 for the mean; N = T − n unlabelled items)

    var = σ²/n · (1 − ρ² N/(n + N)) = σ²(1 − ρ²)/n + σ²ρ²/T,

σ the sd of the human score, ρ the correlation of judge and human scores. A two-sided
interval of full width w at level 1 − α needs var ≤ (w / 2z)², z = Φ⁻¹(1 − α/2), so

    n = σ²(1 − ρ²) / ((w / 2z)² − σ²ρ²/T)

(T = ∞: n = σ²(1 − ρ²)(2z / w)², the classical n = σ²(2z / w)² times 1 − ρ²).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from .._validation import InvalidInputError, check_probability
from ..results._base import Result


@dataclass(frozen=True, repr=False)
class GoldLabelPlan(Result):
    """Human labels needed for a PPI++ interval of a given width.

    Attributes
    ----------
    n_gold : int
        Smallest whole number of human labels reaching ``width`` (unrounded in
        ``details["n_gold_unrounded"]``).
    n_classical : int
        Human labels the human-only mean would need for the same width.
    width, sd, correlation, alpha : float
    n_items : int or None
        Items in the evaluation (None: unlimited judge-scored items).
    method : str
    details : mapping
    """

    n_gold: int
    n_classical: int
    width: float
    sd: float
    correlation: float
    alpha: float
    n_items: int | None
    method: str
    details: Mapping[str, Any] = field(default_factory=dict)

    _repr_fields = ("n_gold", "n_classical", "width", "correlation")

    def __str__(self) -> str:
        of = f" of {self.n_items} items" if self.n_items else ""
        return (f"{self.n_gold} human labels{of} give a {1 - self.alpha:.0%} PPI++ interval of "
                f"width {self.width:g} (human sd {self.sd:g}, judge–human correlation "
                f"{self.correlation:g}); the human labels alone would need "
                f"{self.n_classical}.")


def gold_labels(width: float, *, correlation: float, sd: float = 0.5,
                n_items: int | None = None, alpha: float = 0.05) -> GoldLabelPlan:
    """Human labels needed for a PPI++ interval of full width ``width`` on a mean score.

    Parameters
    ----------
    width : float
        Full width of the two-sided interval, in score units (0.05 for ± 2.5 points of
        accuracy).
    correlation : float
        Correlation of the judge's and the human scores on an item (for 0/1 verdicts the φ
        coefficient), from a pilot or earlier gold labels; in [−1, 1] (PPI++ uses |ρ|).
    sd : float
        Standard deviation of the human score (0.5: the largest for 0/1 scores).
    n_items : int, optional
        Items in the evaluation; None: as many as wanted (the judge's share of the variance
        vanishes).
    alpha : float
        1 − level of the interval.

    Returns
    -------
    GoldLabelPlan

    Raises
    ------
    InvalidInputError
        Width not positive, correlation outside [−1, 1], or a width out of reach even with
        every one of the ``n_items`` labelled.

    Examples
    --------
    >>> plan = gold_labels(0.1, correlation=0.8)          # ±0.05 on accuracy, ρ = 0.8
    >>> plan.n_gold, plan.n_classical
    (139, 385)
    """
    check_probability(alpha, "alpha")
    if not width > 0 or not sd > 0:
        raise InvalidInputError(f"width and sd must be positive, got {width} and {sd}.")
    if not -1 <= correlation <= 1:
        raise InvalidInputError(f"correlation must lie in [-1, 1], got {correlation}.")
    from scipy import stats

    z = float(stats.norm.ppf(1 - alpha / 2))
    target = (width / (2 * z)) ** 2
    rho2 = correlation ** 2
    floor = sd ** 2 * rho2 / n_items if n_items else 0.0
    classical = sd ** 2 / target
    if n_items is not None and (n_items < 2 or sd ** 2 / n_items > target):
        raise InvalidInputError(
            f"a width of {width:g} is out of reach with {n_items} items: labelling every one "
            f"gives width {2 * z * sd / math.sqrt(max(n_items, 1)):.4g}.")
    n = sd ** 2 * (1 - rho2) / (target - floor)
    n_gold = max(2, math.ceil(n - 1e-9))
    if n_items is not None:
        n_gold = min(n_gold, n_items)
    return GoldLabelPlan(n_gold=n_gold, n_classical=max(2, math.ceil(classical - 1e-9)),
                         width=float(width), sd=float(sd), correlation=float(correlation),
                         alpha=float(alpha), n_items=n_items,
                         method="PPI++ variance with the optimal λ (Angelopoulos, Duchi & "
                                "Zrnic 2023, §2)",
                         details={"n_gold_unrounded": float(n), "z": z})
