"""The leaderboard's input from a folder of Hugging Face evaluation details: the streamed,
bit-packed matrices of :mod:`outperform.data._evals._stream`, items pooled over tasks (or
one task), unpacked once into the float64 items x models matrix the kernels read."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._validation import InvalidInputError
from ..data._evals._stream import FIRST, details_files, stream_details


def details_scores(data, *, metric, cluster, task, progress, notes: list):
    """(scores (n, k) float64, model names, clusters (n,) or None, metric) of a details
    folder (or details files), or None when ``data`` is not one.

    Several tasks: their items pooled (item ``(task, id)``; a model's score is its mean over
    every item, tasks weighted by their item counts; clusters named ``task/label``); ``task``
    keeps one. Memory: the bit-packed matrices (``k * n / 8`` bytes) and the result
    (``8 * n * k`` bytes; 60,000 items x 2,000 models: 0.96 GB).

    Raises
    ------
    InvalidInputError
        ``task`` not among the tasks; a model without a task's file, or lacking items of a
        task (every model needs a score on every item); tasks with different metrics pooled.
    """
    paths = data if isinstance(data, (list, tuple)) else [data]
    if not all(isinstance(p, (str, Path)) for p in paths) or not details_files(data):
        return None
    streamed = stream_details(data, metric=metric, cluster=cluster, task=task,
                              progress=progress)
    notes.extend(streamed.notes)
    mats = streamed.matrices
    if task is not None:
        notes.append(f"task {task!r} only ({mats[task].n_items} items).")
    ran = {}
    for run in streamed.runs:
        ran.setdefault(run.task, set()).add(run.model)
    for name, m in mats.items():
        lacking = m.lacking()
        if not lacking:
            continue
        model, ids = next(iter(lacking.items()))
        if model not in ran.get(name, ()):
            raise InvalidInputError(f"model {model!r} has no details file for task {name!r}: "
                                    "every model needs every task (rank one task with --task, "
                                    "or give the missing file).")
        raise InvalidInputError(
            f"task {name!r}: items are missing for some models: {model} lacks {len(ids)} "
            f"(first {[str(i) for i in ids[:FIRST]]}); {len(lacking)} model(s) lack items. "
            "A leaderboard is paired, every model needs a score on every item: compare-evals --intersect "
            "compares on the items all models have."
            + streamed.why_missing(name, mats[name].models))
    metrics = {m.metric for m in mats.values()}
    if len(metrics) > 1:
        raise InvalidInputError(f"the tasks are scored by different metrics "
                                f"({', '.join(f'{t}: {m.metric}' for t, m in mats.items())}): "
                                "choose one with --metric, or rank one task with --task.")
    names = streamed.models
    sizes = [m.n_items for m in mats.values()]
    scores = np.empty((sum(sizes), len(names)))
    ends = np.cumsum([0, *sizes])
    for (name, m), a, b in zip(mats.items(), ends[:-1], ends[1:]):
        m.scores(out=scores[a:b])              # unpacked in chunks of models
    clusters = None
    if cluster is not None:
        clusters = (next(iter(mats.values())).clusters if len(mats) == 1 else
                    np.concatenate([np.char.add(f"{t}/", m.clusters) for t, m in mats.items()]))
    if len(mats) > 1:
        notes.append(pooled_tasks_note(dict(zip(mats, sizes))))
    return scores, names, clusters, metrics.pop()


def pooled_tasks_note(sizes: dict) -> str:
    """The note of a leaderboard whose items are pooled over several tasks (``sizes``: items
    per task), the one rule for a details folder and for a long per-item table alike."""
    return (f"items pooled over the {len(sizes)} tasks ("
            + ", ".join(f"{t}: {n:,}" for t, n in sizes.items())
            + f"): each model's score is its mean over the {sum(sizes.values()):,} items, "
            "tasks weighted by their item counts; --task NAME ranks on one task.")
