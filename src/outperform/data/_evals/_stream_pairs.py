"""Streamed details (:mod:`._stream`) paired as :func:`pair_items` pairs the tidy logs: the
same refusals (a task some models did not run, items some models lack) unless
``intersect``, the same :class:`PairedTask` per task."""
from __future__ import annotations

import numpy as np

from ..._validation import InvalidInputError, TooFewError
from .._item_matrix import unpack
from ._pairing import PairedTask, missing_items, selected_models
from ._stream import StreamedDetails


def pair_streamed(streamed: StreamedDetails, *, intersect: bool = False,
                  models=None) -> dict[str, PairedTask]:
    """One :class:`PairedTask` per task of ``streamed`` over ``models`` (default all).

    Memory: per task, the (n, k) float64 scores of the selected models (10,000 items x
    2,000 models: 160 MB), unpacked from the bit-packed matrix in chunks of models.

    Raises
    ------
    InvalidInputError
        Unknown models; a task some models did not run, or items some lack, unless
        ``intersect`` (the task left out; the items left out and listed in ``dropped``).
    TooFewError
        Fewer than 2 models; fewer than 2 shared items in a task; no task left.
    """
    every = streamed.models
    names = selected_models(every, models)
    sel = np.array([every.index(m) for m in names])
    ran = {}
    for run in streamed.runs:
        ran.setdefault(run.task, set()).add(run.model)
    out = {}
    for task, m in streamed.matrices.items():
        missing = [x for x in names if x not in ran.get(task, ())]
        if missing:
            if not intersect:
                raise InvalidInputError(f"task {task!r} was not run by {missing}; give their "
                                        "logs, or pass intersect=True (--intersect) to compare "
                                        "on the tasks every model ran.")
            continue
        out[task] = _pair(m, names, sel, intersect, streamed.why_missing)
    if not out:
        raise TooFewError("no task is shared by all models with the chosen metric."
                          + (" " + " ".join(streamed.notes) if streamed.notes else ""))
    if streamed.notes:
        from dataclasses import replace

        first = next(iter(out))
        out[first] = replace(out[first], warnings=out[first].warnings + streamed.notes)
    return out


def _pair(m, names, sel, intersect, why) -> PairedTask:
    complete, lacking = np.ones(m.n_items, dtype=bool), {}
    if m.present is not None:     # items of the selected models only, as pair_items filters
        has = unpack(m.present[sel], m.n_items).astype(bool)        # (k, n), 1 byte each
        complete = has.all(axis=0)
        scope = has.any(axis=0)
        lacking = {x: m.items[scope & ~has[j]] for j, x in enumerate(names)
                   if (scope & ~has[j]).any()}
    dropped = {}
    if lacking:
        dropped = {x: [str(i) for i in ids] for x, ids in lacking.items()}
        if not intersect:
            raise missing_items(m.task, dropped, int(complete.sum()), why(m.task, names))
    if complete.sum() < 2:
        raise TooFewError(f"task {m.task!r}: {int(complete.sum())} item(s) shared by all "
                          "models; at least 2 are needed.")
    keep = np.flatnonzero(complete)
    scores = m.scores(keep)[:, sel]
    return PairedTask(task=m.task, metric=m.metric, models=tuple(names),
                      examples=np.asarray(m.items[keep], dtype=str), scores=scores,
                      clusters=None if m.clusters is None else m.clusters[keep],
                      epochs=np.ones(len(names), dtype=int),
                      within_variance=np.full(len(names), np.nan), dropped=dropped)
