"""Reading results from CSV, Parquet or DataFrames, long or wide, into a validated table."""
from __future__ import annotations

from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from .._validation import InvalidInputError
from ._columns import (KEYS, MODEL, NON_METRIC, TASK, canonical_columns, metric_direction,
                       refuse_battles, refuse_stripped_twins)
from ._files import read_table
from ._results_table import ResultsTable, ScoreMatrix
from ._table_checks import (_flat, _not_numeric, _plain, _range_warnings, _refuse_duplicates,
                            _refuse_scores_as_models, _refuse_unreadable_numbers)


_normalise_columns = canonical_columns


def _with_task_column(df: pd.DataFrame) -> pd.DataFrame:
    """A wide table with its data-set names in a ``task`` column (first column or index)."""
    if TASK not in df.columns:
        first = df.columns[0]
        if pd.api.types.is_numeric_dtype(df[first]) and not isinstance(df.index, pd.RangeIndex):
            df = df.rename_axis(TASK).reset_index()
        elif pd.api.types.is_numeric_dtype(df[first]):
            df = df.rename_axis(TASK).reset_index()
            df[TASK] = "task " + df[TASK].astype(str)
        else:
            df = df.rename(columns={first: TASK})
    return df


def _wide_to_long(df: pd.DataFrame, metric: str) -> pd.DataFrame:
    df = _with_task_column(df)
    value_cols = [c for c in df.columns if c != TASK]
    # Placeholder names: a model may be called "model", "score" or the metric itself.
    long = df.melt(id_vars=[TASK], value_vars=value_cols, var_name="\0model", value_name="\0value")
    return long.rename(columns={"\0model": MODEL, "\0value": metric})


def _valid_wide(df: pd.DataFrame, metric: str, allow_missing: bool
                ) -> tuple[pd.DataFrame, np.ndarray, tuple, tuple] | None:
    """The long table ``_validated(_wide_to_long(df))`` would give, built from the numbers,
    with the (N, k) scores and the task and model names.

    For a wide table that passes every check as it is (numeric model columns, distinct
    non-empty names, no infinite value, NaN only if allowed): the (task, model) columns are
    category codes tiled and repeated, the values the columns laid end to end, as the melt
    lays them; this skips the melt and the checks of a long table, which matter at millions
    of cells. None for any other table: the general path then reads it and raises the same
    errors as always.
    """
    if (metric in NON_METRIC or isinstance(df.columns, pd.MultiIndex)
            or isinstance(df.index, pd.MultiIndex)):
        return None
    model_text = _plain_text(df.columns)
    if (model_text is not None and TASK not in df.columns
            and isinstance(df.index, pd.RangeIndex)
            and pd.api.types.is_numeric_dtype(df[df.columns[0]])):
        # the names _with_task_column gives these rows, without building its column
        values, task_text = df, [f"task {i}" for i in df.index]
    else:
        df = _with_task_column(df)
        values, task = df.drop(columns=TASK), df[TASK]
        if isinstance(task.dtype, pd.CategoricalDtype):
            return None
        task_text = _plain_text(task)
        model_text = _plain_text(values.columns)
    if values.shape[1] < 2 or not all(isinstance(t, np.dtype) and t.kind in "iuf"
                                      for t in values.dtypes):
        return None
    if task_text is not None and model_text is not None:
        # names that are strings already: their categories without pandas' string machinery
        tasks, models = _text_categories(task_text), _text_categories(model_text)
        if tasks is None or models is None:
            return None    # repeated or empty names: the general path says which
    else:
        model = pd.Series(values.columns, dtype=object)
        if task.isna().any() or model.isna().any():
            return None
        tasks, models = task.astype(str).astype("category"), model.astype(str).astype("category")
        for names in (tasks, models):
            text = names.cat.categories
            if len(text) < len(names) or (text.str.strip() == "").any():
                return None    # repeated or empty names: the general path says which
        tasks, models = tasks.array, models.array
    x = np.ascontiguousarray(values.to_numpy(dtype=float))   # row-major, as the pivot's
    if np.isinf(x).any() or (not allow_missing and np.isnan(x).any()):
        return None
    n, k = x.shape
    frame = pd.DataFrame({
        TASK: pd.Categorical.from_codes(np.tile(tasks.codes, k), dtype=tasks.dtype),
        MODEL: pd.Categorical.from_codes(np.repeat(models.codes, n), dtype=models.dtype),
        metric: x.T.ravel()}, copy=False)   # fresh arrays: pandas need not copy them again
    if task_text is not None and model_text is not None:
        return frame, x, tuple(task_text), tuple(model_text)   # what tolist() gives, in order
    return frame, x, tuple(tasks.tolist()), tuple(models.tolist())


def _plain_text(labels) -> list[str] | None:
    """The labels when every one is already a Python string (their ``astype(str)``)."""
    text = labels.tolist()
    return text if all(type(t) is str for t in text) else None


def _text_categories(text: list[str]) -> pd.Categorical | None:
    """``pd.Series(text).astype("category")`` of distinct non-blank names, else None."""
    names = sorted(set(text))
    if len(names) < len(text) or any(not t.strip() for t in names):
        return None
    code = {t: c for c, t in enumerate(names)}
    return pd.Categorical.from_codes([code[t] for t in text],
                                     dtype=pd.CategoricalDtype(pd.Index(names, dtype=str)))


def read_results(source, *, metric: str | None = None, higher_is_better: bool | None = None,
                 layout: str = "auto", directions: Mapping[str, bool] | None = None,
                 encoding: str | None = None, missing: str = "refuse",
                 paired: bool = True) -> ResultsTable:
    """Read and validate experiment results.

    Parameters
    ----------
    source : str, Path, DataFrame or ResultsTable
        A .csv/.tsv/.parquet file (read by :func:`read_table`) or a DataFrame. *Long* layout:
        one row per measurement with columns ``task``, ``model`` (aliases such as ``dataset``, ``classifier`` accepted),
        optional ``run`` (or ``seed``: a seed is a run), ``fold``, ``example``, ``n_train``,
        ``n_test`` and one or more numeric
        metric columns. *Wide* layout: one row per task, a first column (or the index) naming
        the task and one numeric column per model (a model may be called anything, ``score``
        and ``model`` included, with ``layout="wide"``). Task and model names are text: ``1``
        and ``1.0`` are two models. The roles of the columns are read by
        :func:`outperform.data.column_role`. A DataFrame whose column header rows all but
        one hold a single value, or whose row MultiIndex has named levels, is flattened.
    metric : str, optional
        Name of the metric; for a wide table, the name given to its values (default
        ``"score"``).
    higher_is_better : bool, optional
        Direction of ``metric`` (or of the only metric). If omitted it is taken from the metric's
        name by :func:`outperform.data.metric_direction` (accuracy, AUC, scikit-learn's
        ``test_neg_log_loss``: higher; error, loss: lower); unknown names are assumed higher-is-
        better and listed in ``ResultsTable.direction_assumed`` so reports can warn; so are
        the values of a wide table given without ``metric`` (they have no name to tell).
    layout : {"auto", "long", "wide"}
        ``"auto"`` takes a table with a ``model`` column (or alias) as long, else as wide.
    directions : mapping of str to bool, optional
        Directions of several metrics at once.
    encoding : str, optional
        Encoding of a text file that is not UTF-8 (e.g. ``"cp1252"``); see :func:`read_table`.
    missing : {"refuse", "allow"}
        ``"refuse"``: every (task, model) cell must hold a result. ``"allow"``: cells may be
        absent or hold NaN (a model that crashed or timed out on a data set); they are listed
        by :meth:`ResultsTable.missing_cells` and only the tests for incomplete tables
        (Skillings–Mack, Durbin, Wilcoxon on common data sets) accept them.
    paired : bool
        True: on each task every model has the same runs/folds (shared seeds or splits), as
        the paired tests need. False: the models' run/fold ids may differ (independent runs of
        each model), for the run x task aggregates (``compare.compare_runs``), which can
        resample each model's runs on their own.

    Returns
    -------
    ResultsTable
        Its ``warnings`` name values a metric's name rules out or that look like percentages
        (:func:`outperform.data.metric_units`).

    Raises
    ------
    InvalidInputError
        Unreadable file (see :func:`read_table`), non-numeric scores (decimal commas,
        percentages written as text, lists in cells named as such), a battles table (model_a,
        model_b, winner), model or task names equal after stripping spaces, a MultiIndex
        that cannot be flattened, missing values, duplicated rows, missing (task, model) cells,
        replicates (runs/folds) that differ between models of a task (the last three
        allowed with ``missing="allow"``, except infinite values).
    TooFewError
        Fewer than 2 models.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame({"task": ["iris", "wine", "digits"], "A": [0.9, 0.8, 0.7],
    ...                      "B": [0.85, 0.82, 0.6]})
    >>> res = read_results(wide, metric="accuracy")
    >>> res.models, res.metrics
    (('A', 'B'), {'accuracy': True})
    """
    if missing not in ("refuse", "allow"):
        raise InvalidInputError(f"missing must be 'refuse' or 'allow', got {missing!r}.")
    if isinstance(source, ResultsTable):
        if missing == "refuse":
            source.require_complete()
        return source
    if isinstance(source, (str, Path)):
        df = read_table(source, encoding=encoding)
    elif isinstance(source, pd.DataFrame):
        df = source.copy()
    else:
        raise InvalidInputError(
            f"results must be a file path or a pandas DataFrame, got {type(source).__name__}.")
    df = _flat(df)
    refuse_battles(df.columns)
    if df.empty:
        where = f" {Path(source).name!r}" if isinstance(source, (str, Path)) else ""
        raise InvalidInputError(f"the results table{where} is empty: it has no rows.")
    df = _normalise_columns(df)
    if layout not in ("auto", "long", "wide"):
        raise InvalidInputError(f"layout must be 'auto', 'long' or 'wide', got {layout!r}.")
    is_long = MODEL in df.columns if layout == "auto" else layout == "long"
    # A wide table's values have no name: "score" is ours, and says nothing of the direction.
    unnamed = "score" if not is_long and metric is None else None
    if not is_long:
        task_col = df.columns[0] if TASK not in df.columns else TASK   # names are unique here
        for c, dtype in df.dtypes.items():   # a numeric column needs no check: no df[c] for it
            if c != task_col and dtype.kind not in "iufb":
                _refuse_unreadable_numbers(df[c], c, "the scores of model ")
        fast = _valid_wide(df, metric or "score", missing == "allow")
        if fast is not None:
            frame, x, tasks, models = fast
            name = metric or "score"
            metrics_dir, assumed = _directions([name], metric, higher_is_better, directions,
                                               unnamed)
            refuse_stripped_twins(models, MODEL)
            table = ResultsTable(frame, metrics_dir, assumed, _range_warnings(frame, [name]))
            table._keep_wide(ScoreMatrix(x, tasks, models, name, metrics_dir[name]))
            return table
        df = _wide_to_long(df, metric or "score")
    if TASK not in df.columns:
        if MODEL not in df.columns:
            raise InvalidInputError("a long results table needs 'task' and 'model' columns.")
        # A single task (Q1/Q2 data), stored as a category: one code per row, one string.
        df[TASK] = pd.Categorical.from_codes(np.zeros(len(df), dtype=np.int8), ["task"])
    if MODEL not in df.columns:
        raise InvalidInputError("a long results table needs a 'model' column.")

    # Columns with no numeric value at all describe the rows (e.g. a note); they are not metrics.
    metric_cols = [c for c in df.columns if c not in NON_METRIC and (
        c == metric or pd.to_numeric(df[c], errors="coerce").notna().any())]
    if metric is not None and metric not in metric_cols:
        raise InvalidInputError(
            f"metric {metric!r} is not a column of the results; columns: {list(df.columns)}.")
    for c in df.columns:
        if c not in metric_cols and c not in NON_METRIC:
            _refuse_unreadable_numbers(df[c], c)
    if not metric_cols:
        raise InvalidInputError(
            "the results have no metric column: add a numeric column such as 'score' or 'accuracy'.")
    metrics_dir, assumed = _directions(metric_cols, metric, higher_is_better, directions,
                                       unnamed)
    frame = _validated(df, metric_cols, missing == "allow", paired)
    table = ResultsTable(frame, metrics_dir, assumed, _range_warnings(frame, metric_cols))
    table.require(min_models=2)
    return table


def _directions(cols, metric, higher_is_better, directions, unnamed=None):
    out, assumed = {}, []
    directions = dict(directions or {})
    for c in cols:
        if c in directions:
            out[c] = bool(directions[c])
        elif higher_is_better is not None and (c == metric or len(cols) == 1):
            out[c] = bool(higher_is_better)
        else:
            known = None if c == unnamed else metric_direction(str(c))
            out[c] = True if known is None else known
            if known is None:
                assumed.append(str(c))
    return out, tuple(assumed)


def _as_names(values: pd.Series) -> pd.Series:
    """Task or model names as categorical text (compact for millions of rows)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        names = values.cat.categories.map(str)
        if names.is_unique:
            values = values.cat.rename_categories(names)
            used = np.bincount(values.cat.codes.to_numpy(), minlength=len(names))
            return values.cat.remove_unused_categories() if (used == 0).any() else values
    return values.astype(str).astype("category")


def _group_ids(df: pd.DataFrame, cols: list[str]) -> np.ndarray:
    """Row ids 0..g-1 of the distinct combinations of ``cols`` (no NaN), in O(rows).

    A mixed-radix number of the columns' codes; unlike ``DataFrame.duplicated`` or ``groupby``
    it needs no sort and no hash table for categorical keys, which matters at 10^7 rows.
    """
    ids, size = np.zeros(len(df), dtype=np.int64), 1
    for col in cols:
        values = df[col]
        if isinstance(values.dtype, pd.CategoricalDtype):
            codes, n = values.cat.codes.to_numpy(), len(values.cat.categories)
        elif pd.api.types.is_integer_dtype(values) and len(values):
            low = int(values.min())  # small integers (runs, folds) are their own codes
            codes, n = values.to_numpy(np.int64) - low, int(values.max()) - low + 1
        else:
            codes, uniques = pd.factorize(df[col])
            n = len(uniques)
        if size * n >= 2**62:  # renumber the combinations seen before the radix overflows
            ids, seen = pd.factorize(ids)
            size = len(seen)
        ids, size = ids * n + codes, size * n
    if size > 2 * len(df):  # sparse combinations: compact ids keep bincount small
        ids = pd.factorize(ids)[0]
    return ids


def _validated(df: pd.DataFrame, metric_cols: list[str], allow_missing: bool = False,
               paired: bool = True) -> pd.DataFrame:
    for col in (TASK, MODEL):
        df[col] = _as_names(df[col]) if not df[col].isna().any() else df[col]
        empty = (df[col].isna() if not isinstance(df[col].dtype, pd.CategoricalDtype) else
                 df[col].cat.codes.isin(np.flatnonzero(df[col].cat.categories.str.strip() == "")))
        if empty.any():
            row = int(np.flatnonzero(empty.to_numpy())[0])
            raise InvalidInputError(
                f"column {col!r} is empty in row {row}: every row needs a {col}. (In a file, a "
                f"column named {col!r} reads 'NA' or 'None' as a name, not as missing.)")
        refuse_stripped_twins(df[col].cat.categories, col)
    for col in (c for c in KEYS[2:] if c in df.columns):
        if df[col].isna().any():
            row = int(np.flatnonzero(df[col].isna().to_numpy())[0])
            raise InvalidInputError(f"column {col!r} is empty in row {row} (task "
                                    f"{df[TASK].iloc[row]!r}, model {df[MODEL].iloc[row]!r}): "
                                    "fill it in, or drop the column if it does not pair the rows.")
        if pd.api.types.is_integer_dtype(df[col]) and len(df):
            low, high = df[col].min(), df[col].max()  # int64 -> int8/16/32 when they fit
            small = next(t for t in (np.int8, np.int16, np.int32, np.int64)
                         if np.iinfo(t).min <= low and high <= np.iinfo(t).max)
            df[col] = df[col].astype(small)
    for col in metric_cols:
        values = pd.to_numeric(df[col], errors="coerce")
        bad = values.isna() & df[col].notna()
        if bad.any():
            row = int(np.flatnonzero(bad.to_numpy())[0])
            raise InvalidInputError(_not_numeric(col, df[col].iloc[row]).format(where=f"row {row}"))
        missing = values.isna() | ~np.isfinite(values.to_numpy(dtype=float, na_value=np.nan))
        if allow_missing:
            missing = missing & values.notna()   # NaN marks a missing cell; inf is an error
        if missing.any():
            row = int(np.flatnonzero(missing.to_numpy())[0])
            raise InvalidInputError(
                f"metric column {col!r} has {int(missing.sum())} missing/NaN value(s), first for "
                f"task {df[TASK].iloc[row]!r}, model {df[MODEL].iloc[row]!r}. Rerun or drop that "
                "experiment for all models: the tests need complete, paired results.")
        df[col] = values.astype(float)
        if allow_missing and values.isna().any():
            _refuse_partial_cells(df, col)

    keys = [c for c in KEYS if c in df.columns]
    ids = _group_ids(df, keys)
    sizes = np.bincount(ids)
    if (sizes > 1).any():
        _refuse_duplicates(df, keys, ids, sizes)

    tasks, models = df[TASK].cat.categories, df[MODEL].cat.categories
    counts = np.bincount(df[TASK].cat.codes.to_numpy(np.int64) * len(models)
                         + df[MODEL].cat.codes.to_numpy(np.int64),
                         minlength=len(tasks) * len(models)).reshape(len(tasks), len(models))
    if (counts == 0).any():
        missing = [(tasks[t], models[m]) for t, m in np.argwhere(counts == 0)]
        _refuse_scores_as_models(models, len(missing))
    if (counts == 0).any() and not allow_missing:
        raise InvalidInputError(
            f"{len(missing)} (task, model) cell(s) have no result, e.g. {missing[:3]}. Every model "
            "must be evaluated on every task: complete the runs or drop the task/model.")
    replicate_keys = [c for c in keys if c not in (TASK, MODEL)]
    if replicate_keys and paired:
        # Without duplicates, every replicate key of a task must be seen once per model.
        ids = _group_ids(df, [TASK] + replicate_keys)
        per_key = np.bincount(ids)[ids]
        # Models with a result on the row's task (all of them unless missing cells are allowed).
        present = (counts > 0).sum(axis=1)[df[TASK].cat.codes.to_numpy(np.int64)]
        unpaired = np.flatnonzero(per_key != present)
        if len(unpaired):
            row = df.iloc[unpaired[0]]
            raise InvalidInputError(
                f"on task {row[TASK]!r} the models were not measured on the same "
                f"{'/'.join(replicate_keys)} (e.g. {_plain(row[replicate_keys])} "
                f"has {int(per_key[unpaired[0]])} of {int(present[unpaired[0]])} models): "
                "paired tests need identical splits for every model. (Independent runs of each "
                "model, e.g. seeds not shared, are read by compare_runs / outperform aggregate, "
                "which resample each model's runs on their own.)")
    elif not replicate_keys and (counts > 1).any():
        raise InvalidInputError(
            "some (task, model) cells hold several rows but there is no run/fold column to pair "
            "them: add 'run'/'fold' columns.")
    return df.reset_index(drop=True)


def _refuse_partial_cells(df: pd.DataFrame, col) -> None:
    """Raise if a (task, model) cell has NaN in some of its runs/folds but not all.

    A wholly NaN cell is a missing result; a partly NaN one would be averaged over other
    folds than the other models' (unpaired), so the user decides: rerun, or drop the cell.
    """
    ids = _group_ids(df, [TASK, MODEL])
    nan = df[col].isna().to_numpy()
    n_nan, n_all = np.bincount(ids, weights=nan), np.bincount(ids)
    partial = (n_nan > 0) & (n_nan < n_all)
    if partial.any():
        row = int(np.flatnonzero(partial[ids] & nan)[0])
        g = ids[row]
        raise InvalidInputError(
            f"metric column {col!r} is missing (NaN) in {int(n_nan[g])} of the {int(n_all[g])} "
            f"runs/folds of task {df[TASK].iloc[row]!r}, model {df[MODEL].iloc[row]!r}: rerun "
            "them, or drop all rows of that cell to analyse it as a missing cell.")


