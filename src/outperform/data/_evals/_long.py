"""A plain long table of per-item scores: ``model, [task,] item, score[, cluster][, epoch]``
(CSV, TSV or Parquet, or a DataFrame), optionally with a ``metric`` column."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..._validation import InvalidInputError
from .._files import read_table
from .._columns import (ALIASES, FOLD, ITEM_COLUMNS, RUN, item_column,  # noqa: F401
                        refuse_battles, refuse_stripped_twins)
from ._schema import EvalRun, tidy

TABLE_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet", ".pq")
#: The task of a table without a ``task`` column (as :func:`outperform.data.read_results`).
ONE_TASK = "task"


def is_item_table(columns) -> bool:
    """Whether a table with these column names is a long table of per-item scores.

    That is what :func:`read_long` reads: ``model``, an item id (one of
    :data:`ITEM_COLUMNS`) and ``score``, and no ``run``/``fold`` column (or alias such as
    ``split``): per-fold results with example ids are a results table, for ``compare``.

    Examples
    --------
    >>> is_item_table(["task", "model", "id", "score"]), is_item_table(["model", "example",
    ...                                                                  "fold", "score"])
    (True, False)
    """
    names = {str(c).strip().lower() for c in columns}
    replicates = [c for c in names if c in (RUN, FOLD) or ALIASES.get(c) in (RUN, FOLD)]
    return {"model", "score"} <= names and item_column(names) is not None and not replicates


def read_long(source, *, cluster_by: str | None = None):
    """Read a long table of per-item scores.

    Without a ``task`` column the table is one task, called ``"task"``.

    Returns
    -------
    (DataFrame, list of EvalRun, dict)
        Rows, one provenance record per (model, task), default metric per task.

    Raises
    ------
    InvalidInputError
        No ``model``, item or ``score`` column; ``cluster_by`` not a column.
    """
    name = "<DataFrame>" if isinstance(source, pd.DataFrame) else str(source)
    df = source if isinstance(source, pd.DataFrame) else read_table(Path(source))
    df = df.rename(columns={c: str(c).strip().lower() for c in df.columns})
    refuse_battles(df.columns, "a table of per-item scores")
    item = item_column(df.columns)
    missing = [c for c, ok in (("model", "model" in df), ("item", item is not None),
                               ("score", "score" in df)) if not ok]
    if missing:
        raise InvalidInputError(f"{name}: a long table of per-item scores needs columns model, "
                                f"item (or {', '.join(ITEM_COLUMNS[1:])}) and score, and "
                                f"optionally task; missing {missing} (columns are "
                                f"{list(df.columns)}).")
    cluster = cluster_by or ("cluster" if "cluster" in df.columns else None)
    if cluster is not None and cluster not in df.columns:
        raise InvalidInputError(f"{name}: no column {cluster!r} to cluster by; columns are "
                                f"{list(df.columns)}.")
    refuse_stripped_twins(pd.unique(df["model"].astype(str)), "model")
    cols = {"task": df["task"].astype(str) if "task" in df else ONE_TASK,
            "model": df["model"].astype(str),
            "metric": df["metric"].astype(str) if "metric" in df else "score",
            "example": df[item], "epoch": df["epoch"] if "epoch" in df else 1,
            "score": df["score"], "cluster": df[cluster].astype(str) if cluster else None,
            "content": None, "prompt": None}
    rows, unusable = tidy({k: (v.to_numpy() if isinstance(v, pd.Series) else v)
                           for k, v in cols.items()}, name)
    runs = [EvalRun(harness="table", harness_version=None, file=name, model=m, task=t,
                    unusable=unusable)
            for (t, m) in rows[["task", "model"]].drop_duplicates().itertuples(index=False)]
    defaults = {t: g["metric"].iloc[0] for t, g in rows.groupby("task", sort=False)}
    return rows, runs, defaults
