"""Result of comparing language models from their evaluation logs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._report import ComparisonReport
from ._serialize import jsonable


@dataclass(frozen=True)
class EvalComparison:
    """Per-task paired comparisons and the analyses over tasks of evaluation logs.

    Attributes
    ----------
    models, tasks : tuple of str
    metrics : mapping of str to str
        The metric compared on each task.
    higher_is_better : bool
    per_task : mapping of str to tuple of ComparisonReport
        Q1 reports of each task, one per pair of models (all pairs, or against the control).
    across_tasks : ComparisonReport or None
        Q3 with the tasks as data sets (None with one task, or when it could not run: see
        ``notes``).
    hierarchical : ComparisonReport or None
        Hierarchical McNemar over tasks (two models, 0/1 scores).
    score_matrix : ScoreMatrix
        Mean score per (task, model).
    leaderboards : mapping of str to Leaderboard
        With more than two models, per task: rank confidence sets, tiers and letters on the
        task's paired items (empty with two models).
    pairing : mapping of str to dict
        Per task: items compared, clusters, epochs, within-item variance, items left out.
    provenance : tuple of dict
        One record per run read: harness, version, file, model, task, settings.
    warnings, notes : tuple of str
    """

    models: tuple[str, ...]
    tasks: tuple[str, ...]
    metrics: Mapping[str, str]
    higher_is_better: bool
    per_task: Mapping[str, tuple[ComparisonReport, ...]]
    across_tasks: ComparisonReport | None
    hierarchical: ComparisonReport | None
    score_matrix: Any
    leaderboards: Mapping[str, Any] = field(default_factory=dict)
    pairing: Mapping[str, dict] = field(default_factory=dict)
    provenance: tuple[dict, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def conclusions(self) -> tuple[str, ...]:
        """Every conclusion, task by task, then over tasks."""
        out = [f"{task}: {c}" for task, reports in self.per_task.items()
               for r in reports for c in r.conclusions]
        for rep in (self.across_tasks, self.hierarchical):
            if rep is not None:
                out += [f"over tasks: {c}" for c in rep.conclusions]
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary."""
        return {"models": list(self.models), "tasks": list(self.tasks),
                "metrics": dict(self.metrics), "higher_is_better": self.higher_is_better,
                "per_task": {t: [r.to_dict() for r in reps] for t, reps in self.per_task.items()},
                "across_tasks": None if self.across_tasks is None else self.across_tasks.to_dict(),
                "hierarchical": None if self.hierarchical is None else self.hierarchical.to_dict(),
                "leaderboards": {t: b.to_dict() for t, b in self.leaderboards.items()},
                "pairing": jsonable(dict(self.pairing)), "provenance": jsonable(list(self.provenance)),
                "warnings": list(self.warnings), "notes": list(self.notes)}
