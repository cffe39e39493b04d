"""The result of a power or sample-size calculation."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..results._base import Result, detail

__all__ = ["Assurance", "PowerAnalysis"]


@dataclass(frozen=True, repr=False)
class PowerAnalysis(Result):
    """Power, sample size, effect and level of one planned test; one of them was solved for.

    Attributes
    ----------
    test : str
        The planned test, e.g. ``"paired t-test"``.
    method : str
        How the power was computed (the formula and its source), e.g. ``"Connor (1987)"``.
    power : float
        Probability of rejecting H0 at ``alpha`` when the true effect is ``effect``.
    n : float
        Sample size in the test's unit (``n_unit``). When solved for it is the smallest whole
        number reaching ``power`` (the unrounded solution is in ``details["n_unrounded"]``),
        and ``power`` is the power at that whole n.
    effect : float
        The effect size in ``effect_name``'s units, positive when A is better.
    alpha : float
        Significance level.
    alternative : str
        ``"two-sided"`` or ``"greater"`` (one-sided, A better).
    solved_for : {"power", "n", "effect", "alpha"}
    n_unit : str
        What n counts (``"test examples"``, ``"data sets"``, ``"pairs"`` ...).
    effect_name : str
    approximation : str or None
        Set when the result is an approximation to be read as such (e.g. Wilcoxon via the
        asymptotic relative efficiency).
    details : mapping
        Method-specific values (design effect, discordance, exact power ...), JSON-safe.
    """

    test: str
    method: str
    power: float
    n: float
    effect: float
    alpha: float
    alternative: str
    solved_for: str
    n_unit: str
    effect_name: str
    approximation: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    _repr_fields = ("test", "solved_for", "n", "n_unit", "effect", "effect_name", "power",
                    "alpha")

    # Design-specific values that other layers read, as attributes (also in ``details``).
    n_unrounded = detail("n_unrounded", "the solution for n before rounding up")
    design_effect = detail("design_effect", "variance inflation by clusters of items")
    n_effective = detail("n_effective", "n divided by the design effect")
    accuracy_a = detail("accuracy_a", "McNemar designs: the accuracy of model A assumed")
    auc_a = detail("auc_a", "AUC designs: the AUC of model A assumed")
    power_ceiling = detail("power_ceiling", "the largest power any number of runs reaches "
                           "(repeated cross-validation)")

    def to_dict(self) -> dict:
        """JSON-safe dict of every field (NaN as None)."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["details"] = dict(self.details)
        return {k: (None if isinstance(v, float) and math.isnan(v) else v)
                for k, v in out.items()}

    def to_frame(self):
        """One-row pandas DataFrame of the scalar fields (details flattened with a prefix)."""
        import pandas as pd

        row = {k: v for k, v in self.to_dict().items() if k != "details"}
        row.update({f"details.{k}": v for k, v in self.details.items()})
        return pd.DataFrame([row])

    def __str__(self) -> str:
        n = f"{self.n:g}" if float(self.n).is_integer() else f"{self.n:.1f}"
        text = (f"{self.test} ({self.method}): n = {n} {self.n_unit}, "
                f"{self.effect_name} = {self.effect:.4g}, alpha = {self.alpha:g} "
                f"({self.alternative}), power = {self.power:.3f} [solved for {self.solved_for}]")
        if self.solved_for == "effect":
            text += ("\nNote: the minimum detectable effect is a property of the design, not "
                     "evidence about an observed difference (no post-hoc power).")
        if self.approximation:
            text += f"\nNote: {self.approximation}"
        return text


@dataclass(frozen=True, repr=False)
class Assurance(Result):
    """Probabilities that a planned Bayesian test reaches each decision of Williams (2026) §5.2.

    Attributes
    ----------
    test : str
    n : int
        Planned sample size, in ``n_unit``.
    n_unit : str
    probabilities : mapping of str -> float
        ``"A better"``, ``"B better"``, ``"practically equivalent"``, ``"undecided"``; they sum
        to 1 (up to ``details["mass_left_out"]``).
    details : mapping
        The design (accuracies or effect, ROPE, threshold ...), JSON-safe.
    """

    test: str
    n: int
    n_unit: str
    probabilities: Mapping[str, float]
    details: Mapping[str, Any] = field(default_factory=dict)

    _repr_fields = ("test", "n", "n_unit", "probabilities")

    mass_left_out = detail("mass_left_out", "probability mass the sum over outcomes left out "
                           "(bounds the error of ``probabilities``)")

    def to_dict(self) -> dict:
        """JSON-safe dict of every field."""
        return {"test": self.test, "n": self.n, "n_unit": self.n_unit,
                "probabilities": dict(self.probabilities), "details": dict(self.details)}

    def to_frame(self):
        """pandas DataFrame, one row per decision: ``decision``, ``probability``."""
        import pandas as pd

        return pd.DataFrame({"decision": list(self.probabilities),
                             "probability": list(self.probabilities.values())})

    def __str__(self) -> str:
        shares = ", ".join(f"P({k}) = {v:.3f}" for k, v in self.probabilities.items())
        text = f"{self.test}, n = {self.n} {self.n_unit}: {shares}"
        if self.details.get("approximation"):
            text += f"\nNote: {self.details['approximation']}"
        return text
