"""Pairing evaluation items across models: the same (task, item) for every model.

A paired comparison is valid only when every model was scored on the same items; the
pairing checks it (content hashes where the logs carry them), reports what is missing, and
averages repeated epochs per item, keeping the within-item variance (Miller 2024,
"Adding error bars to evals", §4 on resampling: the epochs reduce the variance of each item's
score, the within-item variance says by how much).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

import numpy as np
import pandas as pd

from ..._validation import InvalidInputError, TooFewError
from ._schema import EvalLogs

FIRST = 5  # ids shown in a message


@dataclass(frozen=True)
class PairedTask:
    """Scores of m models on the n items of one task that all of them share.

    Attributes
    ----------
    task, metric : str
    models : tuple of str
    examples : ndarray of str, shape (n,)
    scores : ndarray, shape (n, m)
        Each model's score of each item, averaged over its epochs.
    clusters : ndarray of str, shape (n,), or None
    epochs : ndarray of int, shape (m,)
        Largest number of epochs (repeated scorings) of an item, per model.
    within_variance : ndarray, shape (m,)
        Mean over items of the variance of an item's score across its epochs (ddof = 1), per
        model; NaN with one epoch. Its ratio to the variance of the scores says how much the
        epochs add to the noise of one scoring (Miller 2024).
    dropped : mapping of str to list of str
        With ``intersect=True``, per model, the items it lacks that others have (left out).
    warnings : tuple of str
    """

    task: str
    metric: str
    models: tuple[str, ...]
    examples: np.ndarray
    scores: np.ndarray
    clusters: np.ndarray | None
    epochs: np.ndarray
    within_variance: np.ndarray
    dropped: Mapping[str, list] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @cached_property
    def binary(self) -> bool:
        """Whether every score is 0 or 1 (correct / wrong), after averaging the epochs
        (computed once: every pair's report asks)."""
        return bool(np.isin(self.scores, (0.0, 1.0)).all())

    def to_frame(self) -> pd.DataFrame:
        """Items as rows, models as columns (and ``cluster`` when there are clusters)."""
        df = pd.DataFrame(self.scores, index=pd.Index(self.examples, name="example"),
                          columns=list(self.models))
        return df if self.clusters is None else df.assign(cluster=self.clusters)


def missing_items(task, lacking, shared: int, why: str = "") -> InvalidInputError:
    """The refusal of a task whose models lack items (``lacking``: model -> missing ids;
    ``shared``: the items all models have), for the whole-file and the streamed pairing."""
    shown = "; ".join(f"{mo} lacks {len(ids)} (first {list(ids[:FIRST])})"
                      for mo, ids in lacking.items())
    return InvalidInputError(
        f"task {task!r}: items are missing for some models: {shown}. A paired comparison "
        f"needs the same items; pass intersect=True (--intersect) to compare on the {shared} "
        f"items all models have." + why)


def selected_models(every, models=None) -> tuple[str, ...]:
    """The models to compare: ``models`` (default all of ``every``, the logs' models).

    Raises InvalidInputError for a model not in the logs, TooFewError for fewer than 2."""
    names = tuple(models) if models is not None else tuple(every)
    unknown = [m for m in names if m not in every]
    if unknown:
        raise InvalidInputError(f"model(s) {unknown} are not in the logs; they hold "
                                f"{list(every)}.")
    if len(names) < 2:
        raise TooFewError(f"the logs hold {len(names)} model(s) {list(names)}: a comparison "
                          "needs at least 2.")
    return names


def pair_items(logs: EvalLogs, *, metric=None, intersect: bool = False,
               models=None) -> dict[str, PairedTask]:
    """Pair the items of every task across models.

    Parameters
    ----------
    logs : EvalLogs
        From :func:`outperform.data.read_eval_logs`.
    metric : str or mapping of str to str, optional
        Metric to compare (one for all tasks, or per task). Default: each task's first
        reported metric. An lm-eval metric may omit its filter (``acc`` for ``acc,none``)
        when the task has one filter for it. Tasks without the metric for any model are left
        out (with a warning); the metric missing for some models only is an error.
    intersect : bool
        Compare on the items every model has, leaving the others out (listed in
        ``dropped``), instead of refusing.
    models : sequence of str, optional
        Models to compare (default: all).

    Returns
    -------
    dict of str to PairedTask
        In order of first appearance of the tasks.

    Raises
    ------
    InvalidInputError
        Items missing for some models (count and first ids) unless ``intersect``; a task not
        run by every model unless ``intersect``; an item whose content hash differs between
        models; the metric missing for some models; clusters that differ between models.
    TooFewError
        Fewer than 2 models, or no task left.

    Examples
    --------
    Two epochs per item; model b's item 2 is right once and wrong once:

    >>> import pandas as pd
    >>> from outperform.data import read_eval_logs
    >>> table = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "task": "qa",
    ...                       "item": [1, 1, 2, 2] * 2, "epoch": [1, 2] * 4,
    ...                       "score": [1, 1, 0, 0, 1, 1, 1, 0]})
    >>> p = pair_items(read_eval_logs(table))["qa"]
    >>> p.scores.tolist(), p.epochs.tolist(), p.within_variance.tolist()
    ([[1.0, 1.0], [0.0, 0.5]], [2, 2], [0.0, 0.25])
    """
    df = logs.scores
    names = selected_models(logs.models, models)
    df = df[df["model"].isin(names)]
    out, notes = {}, []
    for task, rows in df.groupby("task", sort=False):
        ran = set(pd.unique(rows["model"]))
        present = tuple(m for m in names if m in ran)
        if len(present) < len(names):
            missing = [m for m in names if m not in present]
            if not intersect:
                raise InvalidInputError(f"task {task!r} was not run by {missing}; give their "
                                        "logs, or pass intersect=True (--intersect) to compare "
                                        "on the tasks every model ran.")
            continue
        unusable = {k: v for r in logs.runs if r.task == task for k, v in r.unusable.items()}
        chosen = _metric(task, rows, metric if metric is not None
                         else logs.default_metric.get(task), notes, unusable)
        if chosen is not None:
            out[task] = _pair(task, chosen, rows[rows["metric"] == chosen], names, intersect)
    if not out:
        raise TooFewError("no task is shared by all models with the chosen metric."
                          + (" " + " ".join(notes) if notes else ""))
    if notes:
        first = next(iter(out))
        out[first] = _with_warnings(out[first], notes)
    return out


def _metric(task, rows, wanted, notes, unusable) -> str | None:
    if isinstance(wanted, Mapping):
        wanted = wanted.get(task)
        if wanted is None:
            notes.append(f"task {task!r} left out: no metric given for it.")
            return None
    pairs = rows[["model", "metric"]].drop_duplicates()
    available = {m: set(g["metric"]) for m, g in pairs.groupby("model", sort=False)}
    every = set.union(*available.values())
    name = wanted
    if wanted not in every and "," not in wanted:
        # lm-eval names metrics "<metric>,<filter>"; a bare name is fine when unambiguous.
        found = sorted(m for m in every if m.split(",")[0] == wanted)
        if len(found) == 1:
            name = found[0]
        elif len(found) > 1:
            raise InvalidInputError(f"task {task!r}: metric {wanted!r} is logged with several "
                                    f"filters {found}; name one (--metric {found[0]!r}).")
    if name not in every:
        found = [m for m in unusable if m == wanted or m.split(",")[0] == wanted]
        if found:
            raise InvalidInputError(
                f"task {task!r}: metric {found[0]!r} has no number per item (e.g. "
                f"{unusable[found[0]]}): a corpus-level metric or text cannot be compared item "
                f"by item; choose one of {sorted(every)}.")
        notes.append(f"task {task!r} left out: it has no metric {wanted!r} (it has "
                     f"{sorted(every)}).")
        return None
    lacking = [m for m, s in available.items() if name not in s]
    if lacking:
        raise InvalidInputError(f"task {task!r}: metric {name!r} is missing for {lacking} "
                                f"(they log {sorted(available[lacking[0]])}); the models must "
                                "be scored by the same metric.")
    return name


def _pair(task, metric, rows, names, intersect) -> PairedTask:
    # Integer codes of items and models, then bincounts: one pass over the rows, no groupby on
    # strings (10^5 items x models x epochs in well under a second).
    ex_codes, examples = pd.factorize(rows["example"])
    model_index = {m: k for k, m in enumerate(names)}
    m_codes = rows["model"].map(model_index).to_numpy(dtype=int)
    m, n_ex = len(names), len(examples)
    cell = ex_codes * m + m_codes
    x = rows["score"].to_numpy(dtype=float)
    size = np.bincount(cell, minlength=n_ex * m).reshape(n_ex, m)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (np.bincount(cell, x, n_ex * m) / size.ravel()).reshape(n_ex, m)
        dev = (x - mean.ravel()[cell]) ** 2
        var = (np.bincount(cell, dev, n_ex * m) / (size.ravel() - 1)).reshape(n_ex, m)
    complete = (size > 0).all(axis=1)
    dropped = {}
    if not complete.all():
        lacking = {mo: list(examples[size[:, k] == 0]) for mo, k in model_index.items()}
        lacking = {mo: ids for mo, ids in lacking.items() if ids}
        if not intersect:
            raise missing_items(task, lacking, int(complete.sum()))
        dropped = lacking
    if complete.sum() < 2:
        raise TooFewError(f"task {task!r}: {int(complete.sum())} item(s) shared by all models; "
                          "at least 2 are needed.")
    keep = np.flatnonzero(complete)
    warnings = _check_items(task, rows, ex_codes, examples, complete)
    clusters = _clusters(task, rows, ex_codes, examples, keep)
    epochs = size[keep].max(axis=0)
    repeated = size[keep] > 1    # items scored more than once, per model
    within = np.array([var[keep][repeated[:, k], k].mean() if repeated[:, k].any() else np.nan
                       for k in range(m)])
    return PairedTask(task=str(task), metric=metric, models=tuple(names),
                      examples=np.asarray(examples[keep], dtype=str), scores=mean[keep],
                      clusters=clusters, epochs=epochs.astype(int),
                      within_variance=np.asarray(within, dtype=float), dropped=dropped,
                      warnings=tuple(warnings))


def _differing(column: pd.Series, ex_codes, n_ex) -> np.ndarray:
    """Per item, whether ``column`` has more than one distinct non-null value."""
    codes, _ = pd.factorize(column)       # -1 for null
    valid = codes >= 0
    if not valid.any():
        return np.zeros(n_ex, dtype=bool)
    low = np.full(n_ex, np.iinfo(np.int64).max)
    high = np.full(n_ex, -1)
    np.minimum.at(low, ex_codes[valid], codes[valid])
    np.maximum.at(high, ex_codes[valid], codes[valid])
    return (high >= 0) & (low != high)


def _check_items(task, rows, ex_codes, examples, complete) -> list[str]:
    bad = _differing(rows["content"], ex_codes, len(examples)) & complete
    if bad.any():
        ids = list(examples[bad])
        raise InvalidInputError(
            f"task {task!r}: {len(ids)} item(s) have different content for different models "
            f"(the logged hash of the document and target differs), first {ids[:FIRST]}: "
            "the runs used different data under the same ids; re-run on the same data.")
    differ = _differing(rows["prompt"], ex_codes, len(examples)) & complete
    if not differ.any():
        return []
    ids = list(examples[differ])
    return [f"task {task!r}: the prompt_hash differs between models on {len(ids)} of "
            f"{int(complete.sum())} items (first {ids[:FIRST]}): the models saw different "
            "prompts (few-shot examples, chat template or system instruction)."]


def _clusters(task, rows, ex_codes, examples, keep):
    if rows["cluster"].isna().all():
        return None
    if _differing(rows["cluster"], ex_codes, len(examples))[keep].any():
        bad = examples[keep][_differing(rows["cluster"], ex_codes, len(examples))[keep]]
        raise InvalidInputError(f"task {task!r}: items {list(bad[:FIRST])} are in different "
                                "clusters for different models; the cluster of an item must "
                                "be one.")
    labels = np.full(len(examples), None, dtype=object)
    known = rows["cluster"].notna().to_numpy()
    labels[ex_codes[known]] = rows["cluster"].to_numpy()[known]
    missing = pd.isna(labels[keep])
    if missing.any():
        raise InvalidInputError(f"task {task!r}: items {list(examples[keep][missing][:FIRST])} "
                                "have no cluster.")
    return labels[keep].astype(str)


def _with_warnings(paired: PairedTask, notes) -> PairedTask:
    from dataclasses import replace

    return replace(paired, warnings=paired.warnings + tuple(notes))
