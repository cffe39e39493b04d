"""A plain long table of per-item scores: ``model, task, item, score[, cluster][, epoch]``
(CSV, TSV or Parquet, or a DataFrame), optionally with a ``metric`` column."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..._validation import InvalidInputError
from .._files import read_table
from ._schema import EvalRun, tidy

TABLE_SUFFIXES = (".csv", ".tsv", ".txt", ".parquet", ".pq")
ITEM_COLUMNS = ("item", "example", "doc_id", "sample_id", "id")


def read_long(source, *, cluster_by: str | None = None):
    """Read a long table of per-item scores.

    Returns
    -------
    (DataFrame, list of EvalRun, dict)
        Rows, one provenance record per (model, task), default metric per task.

    Raises
    ------
    InvalidInputError
        No ``model``, ``task``, item or ``score`` column; ``cluster_by`` not a column.
    """
    name = "<DataFrame>" if isinstance(source, pd.DataFrame) else str(source)
    df = source if isinstance(source, pd.DataFrame) else read_table(Path(source))
    df = df.rename(columns={c: str(c).strip().lower() for c in df.columns})
    item = next((c for c in ITEM_COLUMNS if c in df.columns), None)
    missing = [c for c, ok in (("model", "model" in df), ("task", "task" in df),
                               ("item", item is not None), ("score", "score" in df)) if not ok]
    if missing:
        raise InvalidInputError(f"{name}: a long table of per-item scores needs columns model, "
                                f"task, item and score; missing {missing} (columns are "
                                f"{list(df.columns)}).")
    cluster = cluster_by or ("cluster" if "cluster" in df.columns else None)
    if cluster is not None and cluster not in df.columns:
        raise InvalidInputError(f"{name}: no column {cluster!r} to cluster by; columns are "
                                f"{list(df.columns)}.")
    cols = {"task": df["task"].astype(str), "model": df["model"].astype(str),
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
