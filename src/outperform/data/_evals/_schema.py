"""The tidy table of evaluation logs and the provenance of each run read into it.

Every reader returns rows with the columns of ``COLUMNS``: one score per (task, model,
metric, example, epoch), with the item's ``cluster`` (or None), a hash of the item's
content where the log carries one (``content``: the models must have seen the same item) and
a hash of the prompt as the model saw it (``prompt``: few-shot examples, templates).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from ..._validation import InvalidInputError

COLUMNS = ("task", "model", "metric", "example", "epoch", "score", "cluster", "content", "prompt")


@dataclass(frozen=True)
class EvalRun:
    """Where one (model, task) run came from, as its log states it.

    Attributes
    ----------
    harness : str
        ``"lm-eval"``, ``"inspect"``, ``"helm"`` or ``"table"``.
    harness_version : str or None
        Version of the harness that wrote the log (as logged).
    file : str
        The file (or run folder) read.
    model, task : str
    task_version : str or None
    settings : mapping
        Model name and generation/prompt settings as logged (model arguments, few-shot count,
        chat template, temperature, ...): two runs of one model must agree on them.
    prompt : mapping
        Task settings that must agree across models for a fair comparison (few-shot count,
        system instruction, ...); a difference is warned about by name.
    """

    harness: str
    harness_version: str | None
    file: str
    model: str
    task: str
    task_version: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    prompt: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary (settings as strings where they are not plain values)."""
        plain = (str, int, float, bool, type(None))
        return {"harness": self.harness, "harness_version": self.harness_version,
                "file": self.file, "model": self.model, "task": self.task,
                "task_version": self.task_version,
                "settings": {k: v if isinstance(v, plain) else str(v)
                             for k, v in self.settings.items()},
                "prompt": {k: v if isinstance(v, plain) else str(v)
                           for k, v in self.prompt.items()}}


@dataclass(frozen=True)
class EvalLogs:
    """Scores of several runs in the tidy schema, with the provenance of each run.

    Attributes
    ----------
    scores : DataFrame
        Columns ``task, model, metric, example, epoch, score, cluster, content, prompt`` (see the
        module docstring); ``score`` is float, higher is better unless the metric says
        otherwise; ``epoch`` starts at 1.
    runs : tuple of EvalRun
    default_metric : mapping of str to str
        Per task, the metric the harness reports first (lm-eval: the first metric and
        filter of the samples; Inspect: the first scorer; HELM: exact match).
    warnings : tuple of str
        Differences between runs that do not stop the comparison (task versions, prompts).
    """

    scores: pd.DataFrame
    runs: tuple[EvalRun, ...]
    default_metric: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def models(self) -> tuple[str, ...]:
        """Model names in order of first appearance."""
        return tuple(pd.unique(self.scores["model"]))

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task names in order of first appearance."""
        return tuple(pd.unique(self.scores["task"]))


def tidy(columns: Mapping[str, Any], path: str) -> pd.DataFrame:
    """The rows of one reader as a tidy frame with float scores.

    Raises
    ------
    InvalidInputError
        A score that is not a number (names the file, the example and the value).
    """
    df = pd.DataFrame({c: columns.get(c) for c in COLUMNS})
    values = pd.to_numeric(df["score"], errors="coerce")
    bad = ~np.isfinite(values.to_numpy(dtype=float))
    if bad.any():
        row = df[bad].iloc[0]
        raise InvalidInputError(
            f"{path}: {int(bad.sum())} score(s) are not finite numbers, e.g. {row['score']!r} for "
            f"example {row['example']!r} (metric {row['metric']!r}); give a metric with numeric "
            "scores (--metric) or fix the log.")
    df["score"] = values.astype(float)
    df["example"] = df["example"].astype(str)
    return df
