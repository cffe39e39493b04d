"""Hugging Face evaluation details: lighteval's per-sample Parquet files and the Open LLM
Leaderboard's ``details_*`` datasets, written by the same code.

File: ``details_<task>_<date>.parquet``, one row per sample of one task and model, in
``<output_dir>/details/<org>/<model>/<date>/`` (lighteval) or ``<date>/`` of a
``details_<org>__<model>`` dataset (the Open LLM Leaderboard). Two schemas, read from the
writers' code (huggingface/lighteval, ``src/lighteval/logging/info_loggers.py``,
``DetailsLogger.Detail``; ``evaluation_tracker.py``, ``save_details``:
``Dataset.from_list([asdict(detail) ...]).to_parquet``):

- **flat** (lighteval 0.1 to 0.10, until June 2025, and the leaderboard's
  ``details_harness|<task>|<k>`` files): columns ``example`` (the query), ``full_prompt``,
  ``predictions``, ``gold``, ``choices``, ``gold_index``, ``metrics`` (a struct of the
  per-sample metrics), ``specifics``, ...; in the versions of late 2024 every column was cast
  to text (``str(value)``: ``metrics`` is then the Python repr of a dict, parsed here);
- **nested** (lighteval 0.11 and later, "Refacto and remove bloated code", #709): columns
  ``doc`` (a struct: ``query``, ``choices``, ``gold_index``, ``id``, ``specific``, ...),
  ``model_response`` and ``metric`` (the struct of per-sample metrics).

Item ids (pairing across models): the nested schema's ``doc.id`` (lighteval sets it to the
document's index in the evaluation set); the flat schema has no id (the writer drops it), so
the id is a hash of what was asked and the answer expected (``example`` and ``gold``; 64
bits, ``pandas.util.hash_pandas_object``, written as 16 hex digits): the same for every
model, whatever the row order, which lighteval does not keep fixed (requests are sorted by
length for batching). Identical items (the same query and answer twice in a
data set) are told apart by their order of appearance (``<hash>#2``): they are the same
item by content, so pairing them either way gives the same comparison. ``content`` holds the
hash in both schemas, so pairing checks that the models saw the same items. Every numeric
per-sample metric is a metric (``metric=`` chooses, e.g. ``acc_norm``).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..._validation import InvalidInputError
from ._schema import EvalRun, tidy

NAME = re.compile(r"^details_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T\d{2}[-:]\d{2}[-:]"
                  r"\d{2}(?:\.\d+)?)\.parquet$")
#: The columns of each schema that the reader needs, by schema.
FLAT, NESTED = ("example", "metrics"), ("doc", "metric")



def no_metrics(path, names) -> InvalidInputError:
    """The error of a details file without lighteval's per-sample metric columns (``names``:
    its columns), for the whole-file and the streamed reader alike."""
    names = set(names)
    missing = [c for c in FLAT if c not in names] if "doc" not in names else ["metric"]
    return InvalidInputError(
        f"{path}: a details file needs the per-sample metrics: lighteval's columns "
        f"'example' and 'metrics' (lighteval up to 0.10, the Open LLM Leaderboard) or "
        f"'doc' and 'metric' (lighteval 0.11 and later); missing {missing}, found "
        f"{sorted(names)[:12]}.")

def is_hf_details(path: Path) -> bool:
    """Whether ``path`` is named as a details file (``details_<task>_<date>.parquet``)."""
    return path.suffix == ".parquet" and NAME.match(path.name) is not None


def read_hf_details(path: Path, *, cluster_by: str | None = None):
    """Read one details Parquet file into tidy rows.

    Returns
    -------
    (DataFrame, EvalRun, str)
        One row per (sample, numeric per-sample metric); the run's provenance (model from
        the folders, task and few-shot count from the name); the default metric (the first).

    Raises
    ------
    InvalidInputError
        A file that is not Parquet, has no rows, or lacks the fields a schema needs (named:
        ``metrics`` and ``example``, or ``metric`` and ``doc``); ``cluster_by`` not a field
        of every sample's ``specifics``/``doc.specific``.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InvalidInputError(f"{path}: not a readable Parquet file ({str(exc)[:160]}).") \
            from None
    if table.num_rows == 0:
        raise InvalidInputError(f"{path}: the details file has no rows (samples).")
    cols = set(table.column_names)
    if set(NESTED) <= cols and pa.types.is_struct(table.schema.field("doc").type):
        schema = "nested"
        doc = table["doc"].combine_chunks()
        fields = {f.name for f in doc.type}
        metrics = _metric_columns(table["metric"], "metric", path)
        asked = [_text(doc.field(f)) for f in ("query", "choices", "gold_index") if f in fields]
        ids = (np.asarray(doc.field("id").to_pylist(), dtype=object) if "id" in fields
               else None)
        specific = doc.field("specific") if "specific" in fields else None
    elif set(FLAT) <= cols:
        schema = "flat"
        metrics = _metric_columns(table["metrics"], "metrics", path)
        asked = [_text(table[c]) for c in ("example", "gold", "gold_index") if c in cols][:2]
        ids = None
        specific = table["specifics"].combine_chunks() if "specifics" in cols else None
    else:
        raise no_metrics(path, cols)
    if not metrics:
        raise InvalidInputError(f"{path}: no sample has a per-sample metric (the 'metrics'/"
                                "'metric' field is empty).")
    n = table.num_rows
    ids, content = item_ids(asked, ids)
    names = list(metrics)
    k = len(names)
    numeric = all(np.asarray(metrics[m]).dtype.kind == "f" for m in names)
    values = np.empty(n * k, dtype=float if numeric else object)
    for j, name in enumerate(names):    # a few metrics, each a whole column
        values[j::k] = metrics[name]
    clusters = (None if cluster_by is None else
                np.repeat(_clusters(specific, cluster_by, path, ids), k))
    match = NAME.match(path.name)
    task = match["task"] if match else path.stem
    model = _model(path)
    out = {"example": np.repeat(np.asarray(ids, dtype=object), k), "epoch": np.zeros(n * k, int),
           "metric": np.tile(np.asarray(names, dtype=object), n), "score": values,
           "cluster": clusters, "content": np.repeat(content, k), "task": task,
           "model": model, "prompt": None}
    rows, unusable = tidy(out, str(path))
    shots = task.rsplit("|", 1)[-1] if "|" in task else None
    run = EvalRun(harness="lighteval", harness_version=f"details, {schema} schema",
                  file=str(path), model=model, task=task, unusable=unusable,
                  prompt={"num_fewshot": shots} if shots is not None else {})
    first = next((m for m in names if m not in unusable), names[0])
    return rows, run, first


def item_ids(asked: list, ids=None) -> tuple[np.ndarray, np.ndarray]:
    """Item ids and content hashes of one file's samples (the module docstring's rule).

    ``asked``: the text columns that fix an item (``example``, ``gold``; or ``doc.query``,
    ``doc.choices``, ``doc.gold_index``), each an array of n strings; ``ids``: the logged
    ids (``doc.id``) or None. Returns (ids, content), each n strings: the logged ids when
    all are present and distinct, else the 16-hex-digit content hash, ``#k`` added to its
    k-th repeat.
    """
    content = np.char.mod("%016x", pd.util.hash_pandas_object(
        pd.DataFrame({i: a for i, a in enumerate(asked)}), index=False).to_numpy())
    n = len(content)
    if ids is None or any(v in (None, "") for v in ids) or len(set(ids)) < n:
        repeat = pd.Series(content).groupby(content).cumcount().to_numpy() + 1
        ids = np.where(repeat == 1, content, np.char.add(np.char.add(content, "#"),
                                                          repeat.astype(str)))
    return ids, content


def _metric_columns(column, field: str, path: Path) -> dict:
    """Per-sample metrics of a column: metric name -> one value per sample (floats for a
    numeric metric, else the values as logged, which ``tidy`` leaves out).

    A Parquet struct is split into its fields; text (the files of late 2024, written with
    ``str(dict)``) is parsed back with ``ast.literal_eval``, one sample at a time.
    """
    import pyarrow as pa

    column = column.combine_chunks()
    if pa.types.is_struct(column.type):
        out = {}
        for i, f in enumerate(column.type):
            part = column.field(i)
            numeric = (pa.types.is_integer(f.type) or pa.types.is_floating(f.type)
                       or pa.types.is_boolean(f.type))
            out[f.name] = (np.asarray(part.cast(pa.float64()).to_numpy(zero_copy_only=False))
                           if numeric else np.asarray(part.to_pylist() + [None],
                                                      dtype=object)[:-1])
        return out
    parsed = [_mapping(v, field, path) for v in column.to_pylist()]
    out = {}
    for c, values in pd.DataFrame(parsed).items():
        values = [_number(v) for v in values]
        out[str(c)] = (np.asarray(values, dtype=float)
                       if all(isinstance(v, float) for v in values)
                       else np.asarray(values + [None], dtype=object)[:-1])
    return out


def _text(column) -> np.ndarray:
    """A column as text for hashing: lists joined, numbers written, nulls empty."""
    import pyarrow as pa
    import pyarrow.compute as pc

    column = column.combine_chunks() if hasattr(column, "combine_chunks") else column
    if pa.types.is_list(column.type) or pa.types.is_large_list(column.type):
        column = pc.binary_join(pc.cast(column, pa.list_(pa.string())), "\x1f")
    elif not pa.types.is_string(column.type):
        column = pc.cast(column, pa.string())
    return np.asarray(pc.fill_null(column, "").to_pylist(), dtype=object)


def _mapping(value, field: str, path: Path) -> dict:
    """A per-sample struct: a dict, or its Python repr (the text-cast files of late 2024)."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    raise InvalidInputError(f"{path}: the {field!r} field of a sample is not a mapping of "
                            f"per-sample values: {str(value)[:80]!r}.")


def _number(value):
    """A per-sample metric as a float, or as given when it is not a number (a list, a pair
    of corpus-level inputs): ``tidy`` leaves such a metric out."""
    if isinstance(value, (bool, int, float, np.bool_, np.integer, np.floating)):
        return float(value)
    return value


def _model(path: Path) -> str:
    """The model: the folders between ``details/`` and the date folder (``org/model``), or
    the ``details_<org>__<model>`` dataset folder of the leaderboard, else the folder above
    the date folder."""
    folder = path.parent
    dated = NAME.match(path.name) and folder.name.replace(":", "-").startswith(
        NAME.match(path.name)["date"].replace(":", "-")[:10])
    above = folder.parent if dated else folder
    parts = above.parts
    if "details" in parts:
        k = len(parts) - 1 - parts[::-1].index("details")
        if k < len(parts) - 1:
            return "/".join(parts[k + 1:])
    name = above.name
    if name.startswith("details_"):
        return name[len("details_"):].replace("__", "/")
    return name


def _clusters(specific, field: str, path: Path, ids) -> np.ndarray:
    """The ``field`` of every sample's specifics (a struct, or its text), as text."""
    import pyarrow as pa

    if specific is not None and pa.types.is_struct(specific.type):
        names = [f.name for f in specific.type]
        if field in names:
            values = specific.field(names.index(field))
            if values.null_count == 0 and specific.null_count == 0:
                return np.asarray(values.cast(pa.string()).to_pylist(), dtype=object)
        rows = specific.to_pylist()
    else:
        rows = [] if specific is None else specific.to_pylist()
    out = []
    for i, row in enumerate(rows or [None] * len(ids)):
        if isinstance(row, str):
            try:
                row = ast.literal_eval(row)
            except (ValueError, SyntaxError):
                row = None
        if not isinstance(row, dict) or row.get(field) is None:
            known = sorted(row) if isinstance(row, dict) else []
            raise InvalidInputError(f"{path}: sample {ids[i]!r} has no field {field!r} in its "
                                    f"specifics to cluster by; its fields are {known}.")
        out.append(str(row[field]))
    return np.asarray(out, dtype=object)
