"""Result of a regression gate: a candidate build against a baseline, task by task."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ._base import Result
from ._serialize import jsonable

#: The three outcomes of a gate, and the exit code of ``outperform gate`` for each.
VERDICTS = ("pass", "regression", "inconclusive")


@dataclass(frozen=True, repr=False)
class GateTask(Result):
    """The gate on one task (or ``task = "all items"``: every task's items pooled, reported,
    not decided).

    Attributes
    ----------
    task, metric : str
    n_items : int
    n_clusters : int or None
    binary : bool
        0/1 scores (after averaging repeats).
    baseline_mean, candidate_mean : float
        Mean scores on the paired items, in the metric's units.
    difference : float
        Candidate − baseline, sign-adjusted so that a **positive difference favours the
        candidate** (for a lower-is-better metric it is baseline − candidate).
    ci_low, ci_high : float
        Two-sided (1 − 2α) interval of ``difference``: its ends are the one-sided α bounds
        the decisions read (Tango's score interval for 0/1 scores, else the t or
        cluster-robust interval).
    test : str
        The test the decision rests on.
    pvalue_regression, pvalue_pass : float or None
        One-sided p-values of "the candidate is worse by more than the margin" (H1: d < −δ;
        δ = 0 without a margin) and of non-inferiority (H1: d > −δ; None without a margin).
    pvalue_regression_adjusted, pvalue_pass_adjusted : float or None
        Holm-adjusted across the tasks of the gate.
    decision : {"pass", "regression", "inconclusive"} or None
    power : mapping
        ``mde``, ``mde_difference_test``, ``power_at_margin``, ``power_noninferiority``,
        ``items_needed``,
        ``method``, ``notes`` (:func:`outperform.plan.gate_power`).
    counts : mapping
        0/1 scores: ``n01`` (candidate wrong, baseline right), ``n10`` (the reverse),
        ``discordance``; graded: ``sd`` of the per-item differences.
    repeats : mapping
        Samples per item of each run (``epochs``), the within-item variance of each run,
        and how repeats were reduced (``"mean"``, ``"pass@k"``, ``"k-of-k"``).
    """

    task: str
    metric: str
    n_items: int
    n_clusters: int | None
    binary: bool
    baseline_mean: float
    candidate_mean: float
    difference: float
    ci_low: float
    ci_high: float
    test: str
    pvalue_regression: float
    pvalue_pass: float | None = None
    pvalue_regression_adjusted: float | None = None
    pvalue_pass_adjusted: float | None = None
    decision: str | None = None
    power: Mapping[str, Any] = field(default_factory=dict)
    counts: Mapping[str, Any] = field(default_factory=dict)
    repeats: Mapping[str, Any] = field(default_factory=dict)

    _repr_fields = ("task", "n_items", "difference", "decision")


@dataclass(frozen=True, repr=False)
class GateResult(Result):
    """A regression gate: per task a decision, and the overall verdict.

    Attributes
    ----------
    verdict : {"pass", "regression", "inconclusive"}
        ``"regression"`` if any task is a regression (after Holm's adjustment across
        tasks); else ``"inconclusive"`` if any task is inconclusive; else ``"pass"``.
    tasks : tuple of GateTask
        One per task, in the order of the logs.
    overall : GateTask or None
        Every task's items pooled (same metric on every task), for the record; it decides
        nothing.
    margin : float or None
        δ, the loss the gate tolerates, in metric units (None: a difference test).
    alpha : float
        One-sided level of each decision, family-wise over tasks (Holm).
    power_target : float
        The power the minimum detectable regression is computed at (0.8).
    higher_is_better : bool
    baseline, candidate : str
        The runs (model names as logged).
    rule : str
        The decision rule, in words.
    provenance : tuple of dict
    warnings, notes : tuple of str
    aa : mapping or None
        With an A/A check: ``flip_rate`` (share of resamples whose verdict is regression),
        the shares of each verdict, ``n_resamples``, ``misspecified``.
    """

    verdict: str
    tasks: tuple[GateTask, ...]
    overall: GateTask | None
    margin: float | None
    alpha: float
    power_target: float
    higher_is_better: bool
    baseline: str
    candidate: str
    rule: str
    provenance: tuple[dict, ...] = ()
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    aa: Mapping[str, Any] | None = None

    _repr_fields = ("verdict", "margin", "alpha")

    def _summary(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "tasks": len(self.tasks), "margin": self.margin,
                "alpha": self.alpha}

    @property
    def passed(self) -> bool:
        """Whether the verdict is pass."""
        return self.verdict == "pass"

    def to_frame(self):
        """One row per task (and one for the pooled items): the columns of
        :class:`GateTask` but ``power``, ``counts`` and ``repeats`` flattened."""
        import pandas as pd

        rows = []
        for t in self.tasks + ((self.overall,) if self.overall is not None else ()):
            row = {k: v for k, v in t.to_dict().items()
                   if k not in ("power", "counts", "repeats")}
            row.update({k: t.power.get(k) for k in ("mde", "power_at_margin",
                                                    "power_noninferiority", "items_needed")})
            rows.append(row)
        return pd.DataFrame(rows)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary."""
        return jsonable({"verdict": self.verdict, "margin": self.margin, "alpha": self.alpha,
                         "power_target": self.power_target,
                         "higher_is_better": self.higher_is_better,
                         "baseline": self.baseline, "candidate": self.candidate,
                         "rule": self.rule, "tasks": [t.to_dict() for t in self.tasks],
                         "overall": None if self.overall is None else self.overall.to_dict(),
                         "provenance": list(self.provenance), "warnings": list(self.warnings),
                         "notes": list(self.notes),
                         "aa": None if self.aa is None else dict(self.aa)})
