"""Human labels of a subset of evaluation items (``compare_evals(gold=)``): a table with
one row per (model, item), the column roles of :mod:`outperform.data._columns`."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..._validation import InvalidInputError
from .._columns import (GOLD_SCORE_COLUMNS, MODEL, TASK, find_column, gold_score_column,
                        item_column)
from .._files import read_table


def read_gold(source) -> pd.DataFrame:
    """Read a table of human labels: ``model``, an item id, the human score, optionally
    ``task``.

    Parameters
    ----------
    source : path or DataFrame
        CSV/TSV/Parquet file or a DataFrame. Columns by role (any spelling
        :func:`outperform.data.column_role` knows): model, item (``item``, ``example``,
        ``doc_id``, ``sample_id``, ``id``), optional task, and the human score: a y_true-role
        column (``y_true``, ``label``, ``gold``, ...), else ``human``, else ``score``.

    Returns
    -------
    DataFrame
        Columns ``task`` (None when the table has none), ``model``, ``example`` (text, as
        the evaluation logs' item ids), ``human`` (float).

    Raises
    ------
    InvalidInputError
        A role missing, non-numeric or non-finite human scores, a (task, model, item)
        labelled twice.
    """
    name = "<DataFrame>" if isinstance(source, pd.DataFrame) else str(source)
    df = source if isinstance(source, pd.DataFrame) else read_table(Path(source))
    cols = list(df.columns)
    model, item = find_column(cols, MODEL), item_column(cols)
    task, score = find_column(cols, TASK), gold_score_column(cols)
    missing = [role for role, col in (("model", model), ("item", item),
                                      ("human score", score)) if col is None]
    if missing:
        raise InvalidInputError(
            f"gold labels {name}: need columns model, item and the human score "
            f"({' or '.join(GOLD_SCORE_COLUMNS[-3:])}, or a label column); missing "
            f"{', '.join(missing)} (columns are {[str(c) for c in cols]}).")
    human = pd.to_numeric(df[score], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(human)
    if bad.any():
        first = df[score][bad].iloc[0]
        raise InvalidInputError(f"gold labels {name}: the human score column {score!r} must "
                                f"hold numbers on every row; {int(bad.sum())} do not (first: "
                                f"{first!r}). Leave unlabelled items out of the table.")
    out = pd.DataFrame({"task": df[task].astype(str) if task is not None else None,
                        "model": df[model].astype(str).to_numpy(),
                        "example": df[item].astype(str).to_numpy(), "human": human})
    dup = out.duplicated(["task", "model", "example"])
    if dup.any():
        row = out[dup].iloc[0]
        raise InvalidInputError(f"gold labels {name}: {int(dup.sum())} (model, item) pairs are "
                                f"labelled twice (first: model {row['model']!r}, item "
                                f"{row['example']!r}); keep one human score per pair (average "
                                "the raters' scores first).")
    return out
