"""Checks of a results table's shape and values, with messages that name the fix:
header rows and row indexes, numbers written as text (percentages, decimal commas, lists),
values a metric's name rules out, repeated rows, scores where model names should be."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .._validation import InvalidInputError
from ._columns import FOLD, MODEL, RUN, item_column, metric_range_warning
from ._files import COMMA_NUMBER, NA_STRINGS

#: A number written as a percentage, "71.2%" or "71,2 %".
PERCENT_TEXT = re.compile(r"\s*[-+]?(?:\d+[.,]?\d*|[.,]\d+)\s*%\s*")


def _flat(df: pd.DataFrame) -> pd.DataFrame:
    """A table with one header row and plain row numbers, where that is unambiguous.

    Column header rows that hold one value each (e.g. the metric's name above the models of
    ``df.pivot(columns=["metric", "model"])`` with one metric) are dropped; a row MultiIndex
    whose levels all have names that are not columns (``groupby([...]).mean()``) becomes
    columns. Anything else is refused (:func:`_multi_header`).
    """
    if isinstance(df.columns, pd.MultiIndex):
        varying = [i for i in range(df.columns.nlevels)
                   if df.columns.get_level_values(i).nunique() > 1]
        if len(varying) > 1:
            raise InvalidInputError(_multi_header(df.columns))
        df = df.copy()
        df.columns = df.columns.get_level_values(varying[0] if varying else -1)
    if isinstance(df.index, pd.MultiIndex):
        names = list(df.index.names)
        if any(n is None for n in names) or set(names) & set(df.columns):
            raise InvalidInputError(
                f"the table has a row MultiIndex with levels {names}: name every level after "
                "its column (task, model, fold, ...) and make it columns, e.g. "
                "df.reset_index(), then pass the table again.")
        df = df.reset_index()
    return df


def _multi_header(columns: pd.MultiIndex) -> str:
    """What to do with a table whose columns have several header rows (pandas reads the
    first level as model names and then finds no column to melt on)."""
    example = " ".join(str(part) for part in columns[0])
    return (f"the table has {columns.nlevels} header rows (a column MultiIndex): flatten the "
            f"columns to one row of model names, e.g. df.columns = [' '.join(map(str, c)) "
            f"for c in df.columns] gives {example!r}, or keep one metric with "
            f"df.xs({columns[0][-1]!r}, axis=1, level=-1).")


def _range_warnings(frame: pd.DataFrame, metric_cols) -> tuple[str, ...]:
    """Warnings of values a metric's name rules out (a negative accuracy) or that look like
    percentages (see :func:`outperform.data._columns.metric_range_warning`)."""
    found = (metric_range_warning(col, frame[col].to_numpy(dtype=float)) for col in metric_cols)
    return tuple(w for w in found if w)


def _refuse_unreadable_numbers(values: pd.Series, col, what: str = "column ") -> None:
    """Raise if a column meant as numbers holds them in a form that is read as text or
    objects: lists (several folds in one cell), percentages ("71.2%"), decimal commas."""
    if values.dtype.kind in "iufb":   # a numeric column holds neither (and wide tables have
        return                        # thousands of them: no per-column pandas work)
    sample = values.dropna().head(100)
    if len(sample) and sample.map(lambda v: isinstance(v, (list, tuple, np.ndarray))).all():
        raise InvalidInputError(
            f"{what}{col!r} holds lists (e.g. {list(sample.iloc[0])[:4]!r}), not one number per "
            f"row: give each value its own row with a fold column, e.g. "
            f"df.explode({col!r}) and a 'fold' column numbering the values.")
    if sample.dtype.kind in "iufb":
        return
    text = sample.astype(str).str.strip()
    if len(text) and text.map(lambda v: bool(PERCENT_TEXT.fullmatch(v))).all():
        raise InvalidInputError(
            f"{what}{col!r} holds percentages written as text (e.g. {text.iloc[0]!r}): remove "
            "the % sign so that they are numbers (and divide by 100 for fractions in [0, 1]), "
            f"e.g. df[{col!r}] = df[{col!r}].str.rstrip('%').astype(float) / 100.")
    _refuse_decimal_commas(values, col)


def _refuse_decimal_commas(values: pd.Series, col) -> None:
    """Raise if a text column holds numbers written with a decimal comma (``0,91``)."""
    sample = values.dropna().head(100).astype(str).str.strip()
    if len(sample) and sample.map(lambda v: bool(COMMA_NUMBER.fullmatch(v))).all():
        raise InvalidInputError(
            f"column {col!r} holds numbers with a decimal comma (e.g. {sample.iloc[0]!r}), which "
            "are read as text: write them with a decimal point, or save the file with ';' "
            "between fields (a ';'-separated file with decimal commas is read as such).")


def _not_numeric(col, value) -> str:
    text = str(value).strip()
    if text in NA_STRINGS:
        return (f"metric column {col!r} has a missing value ({text!r}). Rerun or drop that "
                "experiment for all models: the tests need complete, paired results.")
    hint = (" It is written with a decimal comma: use a decimal point (or ';' between fields)."
            if COMMA_NUMBER.fullmatch(text) else
            " It is a percentage written as text: remove the % sign (divide by 100 for a "
            "fraction)." if PERCENT_TEXT.fullmatch(text) else
            " Fix the value or drop the column.")
    return f"metric column {col!r} is not numeric: {{where}} holds {value!r}.{hint}"


def _refuse_duplicates(df: pd.DataFrame, keys: list[str], ids: np.ndarray,
                       sizes: np.ndarray) -> None:
    """Raise for rows that repeat a key: how many keys and rows, and what tells them apart.

    A column of item ids that does (``id``, ``item``, ...), without runs or folds, makes the
    table a long table of per-item scores, which ``compare_evals`` reads, not a results table
    to add runs to.
    """
    row = int(np.argmax(sizes[ids] > 1))
    what = (f"{int(sizes[sizes > 1].sum())} rows share the same {keys} as another row: "
            f"{int((sizes > 1).sum())} combination(s) appear more than once, e.g. "
            f"{_plain(df[keys].iloc[row])} on {int(sizes[ids[row]])} rows.")
    item = item_column(df.columns)
    if item is not None and item not in keys and not {RUN, FOLD} & set(keys):
        if not df.duplicated(keys + [item]).any():
            raise InvalidInputError(
                f"{what} The {item!r} column tells them apart: this is a long table of "
                "per-item scores (one row per model and item, as evaluation logs give), not "
                "one result per (task, model). Compare it paired by item with compare_evals "
                "(outperform compare-evals FILE), or write its report with outperform report "
                "FILE.")
    raise InvalidInputError(f"{what} Each measurement must appear once: drop duplicates, or "
                            "add a 'run'/'fold' column that tells them apart.")


def _plain(row: pd.Series) -> dict:
    """A row as a dict of Python scalars, for messages (no ``np.int64(3)``)."""
    return {k: v.item() if isinstance(v, np.generic) else v for k, v in row.items()}


def _refuse_scores_as_models(models, n_missing: int) -> None:
    """Raise if the 'model' column holds scores: a wide table with a model called 'model'."""
    numbers = pd.to_numeric(pd.Series(list(models[:50]), dtype=object), errors="coerce")
    if numbers.notna().all() and (numbers % 1 != 0).any():
        raise InvalidInputError(
            f"the {MODEL!r} column holds numbers such as {models[0]!r}: this looks like a wide "
            f"table (one column per model) with a model called {MODEL!r}. Rename that column, "
            f"or pass layout='wide'. (Read as a long table, {n_missing} (task, model) cells "
            "have no result.)")
