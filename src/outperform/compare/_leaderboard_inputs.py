"""The leaderboard's input: any table or folder it reads, as one items x models matrix.

One reading (docs/design.md): a 2-D array (rows = items), per-item scores in the tidy schema
(``model``, ``example``, a score column, optional ``cluster`` and ``task``), per-example
predictions (``y_true`` and one column per model), one score per (task, model) (the Q3
table: tasks are the resampled unit), or a folder of Hugging Face details (streamed).
Several tasks of per-item scores, predictions or a folder are pooled by one rule
(:func:`outperform.compare._details_input.pooled_tasks_note`).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError
from ..data._arrays import item_matrix, read_item_array
from ..data._columns import (CLUSTER, EXAMPLE, FOLD, MODEL, NON_METRIC, RUN, TASK,
                             canonical_columns, item_column, metric_direction,
                             refuse_stripped_twins)
from ..data._files import read_table
from ..data._io import read_results
from ..data._results_table import ResultsTable
from ._details_input import details_scores, pooled_tasks_note
from ._q1 import LOSSES, per_example_losses, read_predictions

#: Label columns of a per-item table of predictions (``run_experiment(store_predictions=True)``
#: writes ``y_true, y_pred, correct``): never the score.
LABELS = ("y_true", "y_pred")


def leaderboard_scores(data, *, metric, higher_is_better, cluster, task, y_true, loss,
                       encoding, progress, notes: list):
    """``(scores, names, clusters, metric, higher_is_better, source, unit)`` of the input of
    :func:`outperform.compare.leaderboard` (its Parameters say what each input is).

    ``scores``: float array of shape (n_units, n_models), units = items or tasks;
    ``clusters``: (n_units,) labels or None; ``unit``: ``"item"`` or ``"task"``. Notes on
    what was read are appended to ``notes``. Raises InvalidInputError as ``leaderboard``
    says.
    """
    if isinstance(data, np.ndarray):
        if cluster is None and task is None:   # the matrix as it is: no long table in between
            scores, names = item_matrix(data)
            metric = metric or "score"
            return (scores, names, None, metric, _direction(metric, higher_is_better, notes),
                    "per-item scores", "item")
        data = read_item_array(data, metric=metric)     # its checks name the missing column
    # a folder of Hugging Face details: streamed, projected, bit-packed (data/_evals/_stream)
    items = details_scores(data, metric=metric, cluster=cluster, task=task,
                           progress=progress, notes=notes)
    df = data if isinstance(data, (pd.DataFrame, ResultsTable)) or items is not None \
        else _read(data, encoding)
    if task is not None and items is None:
        df = _one_task(df, task, notes)
    if items is not None:
        scores, names, clusters, metric = items
        hib, source, unit = _direction(metric, higher_is_better, notes), "per-item scores", "item"
    elif isinstance(df, ResultsTable):
        scores, names, metric, hib = _from_tasks(df, metric, higher_is_better, notes)
        clusters, source, unit = None, "per-task scores", "task"
    elif y_true in df.columns and not {MODEL, EXAMPLE} <= set(df.columns):
        scores, names, clusters, metric, hib = _from_predictions(df, y_true, loss, cluster, notes)
        source, unit = "per-example predictions", "item"
    else:
        df = _item_ids_as_examples(canonical_columns(df))
        if MODEL in df.columns and EXAMPLE in df.columns:
            scores, names, clusters, metric, hib = _from_items(df, metric, higher_is_better,
                                                               cluster, notes)
            source, unit = "per-item scores", "item"
        else:
            scores, names, metric, hib = _from_tasks(df, metric, higher_is_better, notes)
            clusters, source, unit = None, "per-task scores", "task"
            if cluster is not None:
                raise InvalidInputError(
                    f"cluster={cluster!r} applies to per-item scores (an 'example' column), "
                    "but this is a table of one score per task: the tasks are resampled.")
    return scores, names, clusters, metric, hib, source, unit


def _item_ids_as_examples(df: pd.DataFrame) -> pd.DataFrame:
    """A long table whose item ids are named as evaluation logs name them (``item``, ``id``,
    ``doc_id``, ``sample_id``: :func:`outperform.data.read_eval_logs`' names) gets them as
    its ``example`` column; per-fold tables (run/fold columns) are left alone."""
    item = item_column(df.columns)
    if MODEL not in df.columns or EXAMPLE in df.columns or item is None \
            or {RUN, FOLD} & set(df.columns):
        return df
    return df.rename(columns={item: EXAMPLE})


def _read(path, encoding) -> pd.DataFrame:
    if not isinstance(path, (str, Path)):
        raise InvalidInputError("data must be a file path or a pandas DataFrame, got "
                                f"{type(path).__name__}.")
    return read_table(path, encoding=encoding)


def _cluster_column(df: pd.DataFrame, cluster: str | None) -> str | None:
    if cluster is None:
        return CLUSTER if CLUSTER in df.columns else None
    if cluster not in df.columns:
        raise InvalidInputError(f"no cluster column {cluster!r}; columns are {list(df.columns)}.")
    return cluster


def _from_predictions(df, y_true, loss, cluster, notes):
    losses_ok = tuple(x for x in LOSSES if x != "given")
    if loss not in losses_ok:
        raise InvalidInputError(
            f"loss must be one of {losses_ok} for predictions, got {loss!r}; per-item losses "
            "already computed go in a long table (model, example, loss).")
    col = _cluster_column(df, cluster)
    if TASK in df.columns:          # its rows are the items: the tasks pooled, as per-item
        if df[TASK].nunique() > 1:
            notes.append(pooled_tasks_note(df.groupby(TASK, sort=False).size().to_dict()))
            if col is not None:
                df = df.assign(**{col: df[TASK].astype(str) + "/" + df[col].astype(str)})
        df = df.drop(columns=TASK)
    y, preds, groups = read_predictions(df, y_true=y_true, cluster=col)
    names = tuple(preds)
    losses = np.column_stack([per_example_losses(y, p, loss) for p in preds.values()])
    if loss == "zero-one":
        return 1.0 - losses, names, groups, "accuracy", True
    return losses, names, groups, f"{loss} loss", False


def _score_column(df, metric, keys) -> str:
    if metric is not None:
        if metric not in df.columns:
            raise InvalidInputError(f"no score column {metric!r}; columns are {list(df.columns)}.")
        return metric
    candidates = [c for c in df.columns if c not in keys and c not in NON_METRIC
                  and pd.api.types.is_numeric_dtype(df[c])]
    if "score" in candidates:
        return "score"
    if len(candidates) != 1:
        raise InvalidInputError(
            f"cannot tell the score column among {candidates or list(df.columns)}: name it "
            "with metric= (--metric).")
    return candidates[0]


def _direction(metric, higher_is_better, notes) -> bool:
    if higher_is_better is not None:
        return bool(higher_is_better)
    known = metric_direction(metric)
    if known is None:
        notes.append(f"the direction of {metric!r} is not known from its name: higher is "
                     "taken as better (say otherwise with higher_is_better=False).")
        return True
    return known


def _runs(df, notes) -> None:
    """Per-example predictions of a resampling experiment (``run_experiment``'s predictions
    table): one run only, and say that the folds' predictors differ."""
    if RUN in df.columns and df[RUN].nunique() > 1:
        raise InvalidInputError(
            f"the per-item table holds {df[RUN].nunique()} runs (column {RUN!r}) of a "
            "resampling design, so each example has several scores per model: a leaderboard "
            "ranks the models on one set of examples; keep the rows of one run (e.g. run 0).")
    if FOLD in df.columns and df[FOLD].nunique() > 1:
        notes.append(f"the examples were predicted in {df[FOLD].nunique()} folds of one "
                     "cross-validation run, each by the model trained without its fold: the "
                     "ranks are of these out-of-fold predictions (of the learning algorithms "
                     "at this training-set size), not of one trained predictor per model.")


def _one_task(df, task, notes):
    """The rows of one task of a per-item or predictions table."""
    if isinstance(df, ResultsTable) or TASK not in df.columns:
        raise InvalidInputError(f"task={task!r} selects one task of a per-item or predictions "
                                "table with a 'task' column; this input has none.")
    keep = df[TASK].astype(str) == str(task)
    if not keep.any():
        tasks = sorted(df[TASK].astype(str).unique())
        raise InvalidInputError(f"task {task!r} is not in the table; its tasks are "
                                f"{', '.join(map(repr, tasks[:10]))}"
                                + (f" and {len(tasks) - 10} more." if len(tasks) > 10 else "."))
    notes.append(f"task {task!r} only ({int(keep.sum())} of {len(df)} rows).")
    return df.loc[keep].drop(columns=TASK).reset_index(drop=True)


def _from_items(df, metric, higher_is_better, cluster, notes):
    refuse_stripped_twins(pd.unique(df[MODEL].astype(str)), MODEL)
    col = _cluster_column(df, cluster)
    if TASK in df.columns and df[TASK].nunique() > 1:
        df = _pooled_tasks(df, col, notes)
    _runs(df, notes)
    metric = _score_column(df, metric, {MODEL, EXAMPLE, TASK, col, *LABELS})
    values = pd.to_numeric(df[metric], errors="coerce")
    if values.isna().any():
        row = int(np.flatnonzero(values.isna().to_numpy())[0])
        raise InvalidInputError(f"score column {metric!r} has a missing or non-numeric value "
                                f"in row {row}: every model needs a score on every example.")
    if df.duplicated([MODEL, EXAMPLE]).any():
        first = df.loc[df.duplicated([MODEL, EXAMPLE]), [MODEL, EXAMPLE]].iloc[0].tolist()
        raise InvalidInputError(f"model {first[0]!r} has several rows for example {first[1]!r}: "
                                "give one score per (model, example).")
    examples, example_names = pd.factorize(df[EXAMPLE])
    names = tuple(pd.unique(df[MODEL].astype(str)))
    codes = pd.Categorical(df[MODEL].astype(str), categories=list(names)).codes
    wide = np.full((len(example_names), len(names)), np.nan)
    wide[examples, codes] = values.to_numpy(dtype=float)
    if np.isnan(wide).any():
        i, j = np.argwhere(np.isnan(wide))[0]
        raise InvalidInputError(
            f"{int(np.isnan(wide).sum())} (example, model) scores are missing, e.g. model "
            f"{names[j]!r} on example {example_names[i]!r}: the comparison is paired, every "
            "model needs a score on every example.")
    clusters = None
    if col is not None:
        per_example = df.groupby(examples)[col].nunique(dropna=False)
        if (per_example > 1).any():
            bad = example_names[int(per_example.index[np.argmax(per_example.to_numpy() > 1)])]
            raise InvalidInputError(f"example {bad!r} is in several clusters of column "
                                    f"{col!r}: a cluster must hold whole examples.")
        clusters = df[col].to_numpy()[np.unique(examples, return_index=True)[1]]
    return wide, names, clusters, metric, _direction(metric, higher_is_better, notes)


def _pooled_tasks(df, col, notes):
    """A per-item table of several tasks as one: item ``task/example``, clusters within tasks."""
    sizes = df.drop_duplicates([TASK, EXAMPLE]).groupby(TASK, sort=False).size()
    notes.append(pooled_tasks_note({str(t): int(n) for t, n in sizes.items()}))
    task = df[TASK].astype(str) + "/"
    df = df.assign(**{EXAMPLE: task + df[EXAMPLE].astype(str)})
    if col is not None:
        df[col] = task + df[col].astype(str)
    return df.drop(columns=TASK)


def _from_tasks(df, metric, higher_is_better, notes):
    table = read_results(df, metric=metric, higher_is_better=higher_is_better)
    sm = table.score_matrix(metric)
    if sm.aggregation != "one value per cell":
        notes.append(f"per-task scores: {sm.aggregation}.")
    if sm.metric in table.direction_assumed:
        notes.append(f"the direction of {sm.metric!r} is not known from its name: higher is "
                     "taken as better (say otherwise with higher_is_better=False).")
    return sm.values, sm.models, sm.metric, sm.higher_is_better
