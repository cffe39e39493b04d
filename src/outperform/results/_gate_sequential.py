"""Result of a sequential regression gate (``outperform gate --sequential``)."""
from __future__ import annotations

from dataclasses import dataclass

from ._base import Result
from ._sequential import SequentialComparison


@dataclass(frozen=True, repr=False)
class SequentialGateTask(Result):
    """One task of a sequential gate.

    Attributes
    ----------
    task, metric : str
    comparison : SequentialComparison
        The confidence sequence of candidate − baseline (positive favours the candidate; for
        a lower-is-better metric, baseline − candidate) after every item, its decisions, the
        first decision and the look that reached it.
    verdict : str
        "pass" (superior or non-inferior), "regression", or "inconclusive" (no decision yet).
    population : int
        N, the items of the task in the baseline: the sequence is for the mean difference over
        all N (sampling without replacement).
    """

    task: str
    metric: str
    comparison: SequentialComparison
    verdict: str
    population: int

    _repr_fields = ("task", "verdict", "population")

    @property
    def n_items(self) -> int:
        return self.comparison.n_items

    @property
    def interval(self) -> tuple[float, float] | None:
        """The interval at the look that decided (or the last look)."""
        return self.comparison.interval

    def to_dict(self) -> dict:
        lo, hi = self.interval if self.interval is not None else (None, None)
        seq = self.comparison.sequence
        return {"task": self.task, "metric": self.metric, "verdict": self.verdict,
                "decision": self.comparison.decision, "stopped_at": self.comparison.stopped_at,
                "n_items": self.n_items, "population": self.population,
                "low": lo, "high": hi,
                "last_low": None if not seq.n else float(seq.lower[-1]),
                "last_high": None if not seq.n else float(seq.upper[-1])}


@dataclass(frozen=True, repr=False)
class SequentialGateResult(Result):
    """A regression gate checked after every item (:func:`outperform.compare.sequential_gate`).

    Attributes
    ----------
    baseline, candidate : str
    margin : float or None
    alpha : float
        One-sided level of each decision, family-wise over the tasks and all looks.
    sequence_alpha : float
        Level of each task's two-sided confidence sequence (2 alpha / number of tasks).
    order : str
        "file" (the candidate's order) or "shuffle" (a seeded random order).
    tasks : tuple of SequentialGateTask
    verdict : str
        "regression" if any task is one, "pass" if every task passes, else "inconclusive".
    warnings : tuple of str
    """

    baseline: str
    candidate: str
    margin: float | None
    alpha: float
    sequence_alpha: float
    order: str
    tasks: tuple
    verdict: str
    warnings: tuple = ()

    _repr_fields = ("verdict", "candidate", "baseline", "margin", "alpha")

    @property
    def rule(self) -> str:
        margin = 0.0 if self.margin is None else self.margin
        return (f"after every item, each task's betting confidence sequence of candidate − "
                f"baseline (level {self.sequence_alpha:.3g}, two-sided: one-sided α = "
                f"{self.alpha:g} family-wise over {len(self.tasks)} task"
                f"{'s' if len(self.tasks) > 1 else ''} and every look) decides: pass once its "
                f"lower end is above {-margin:g}"
                + (" (non-inferior)" if margin > 0 else " (superior)")
                + f", regression once its upper end is below {-margin:g}; until then, "
                "inconclusive (go on evaluating).")

    def to_dict(self) -> dict:
        return {"baseline": self.baseline, "candidate": self.candidate, "margin": self.margin,
                "alpha": self.alpha, "sequence_alpha": self.sequence_alpha, "order": self.order,
                "verdict": self.verdict, "rule": self.rule,
                "tasks": [t.to_dict() for t in self.tasks], "warnings": list(self.warnings)}
