"""Result of comparing language models from their evaluation logs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._base import Result
from ._report import ComparisonReport
from ._serialize import jsonable


@dataclass(frozen=True, repr=False)
class EvalComparison(Result):
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
    judge : mapping of str to JudgeCorrection
        With human labels (``gold=``), per task: judge-only and corrected (PPI++,
        Rogan–Gladen) means and differences, and the judge's agreement with people.
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
    judge: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def _summary(self) -> dict[str, Any]:
        conclusions = self.conclusions
        return {"models": self.models, "tasks": self.tasks,
                "decision": conclusions[0] if conclusions else None,
                "conclusions": f"{len(conclusions)} in all" if len(conclusions) > 1 else None}

    def to_frame(self):
        """One row per comparison: each pair of models on each task, then over tasks.

        Columns ``task`` (``"over tasks"`` for the analyses across tasks), ``analysis``
        (``"per task"``, ``"across tasks"``, ``"hierarchical"``), ``models``, ``test`` (the
        test the decision rests on), ``statistic``, ``pvalue`` (None for a Bayesian test),
        ``decision`` (a Bayesian test's decision, else None) and ``conclusion`` (its first
        sentence).
        """
        import pandas as pd

        rows = [self._row(task, "per task", r) for task, reports in self.per_task.items()
                for r in reports]
        rows += [self._row("over tasks", name, r) for name, r in
                 (("across tasks", self.across_tasks), ("hierarchical", self.hierarchical))
                 if r is not None]
        return pd.DataFrame(rows, columns=["task", "analysis", "models", "test", "statistic",
                                           "pvalue", "decision", "conclusion"])

    @staticmethod
    def _row(task: str, analysis: str, report: ComparisonReport) -> dict[str, Any]:
        test = report.tests.get(report.recommended)
        return {"task": task, "analysis": analysis, "models": " vs ".join(report.models),
                "test": report.recommended,
                "statistic": getattr(test, "statistic", None),
                "pvalue": getattr(test, "pvalue", None),
                "decision": getattr(test, "decision", None),
                "conclusion": report.conclusions[0] if report.conclusions else None}

    @property
    def conclusions(self) -> tuple[str, ...]:
        """Every conclusion, task by task, then over tasks."""
        out = [f"{task}: {c}" for task, reports in self.per_task.items()
               for r in reports for c in r.conclusions]
        for rep in (self.across_tasks, self.hierarchical):
            if rep is not None:
                out += [f"over tasks: {c}" for c in rep.conclusions]
        out += [f"{task}: {c}" for task, j in self.judge.items() for c in j.conclusions]
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
                **({"judge": {t: j.to_dict() for t, j in self.judge.items()}} if self.judge
                   else {}),
                "warnings": list(self.warnings), "notes": list(self.notes)}
