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
the id is a hash of what was asked and the answer expected (``example`` and ``gold``): the
same for every model, whatever the row order, which lighteval does not keep fixed (requests
are sorted by length for batching). Identical items (the same query and answer twice in a
data set) are told apart by their order of appearance (``<hash>#2``): they are the same
item by content, so pairing them either way gives the same comparison. ``content`` holds the
hash in both schemas, so pairing checks that the models saw the same items. Every numeric
per-sample metric is a metric (``metric=`` chooses, e.g. ``acc_norm``).
"""
from __future__ import annotations

import ast
import hashlib
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

    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InvalidInputError(f"{path}: not a readable Parquet file ({str(exc)[:160]}).") \
            from None
    if frame.empty:
        raise InvalidInputError(f"{path}: the details file has no rows (samples).")
    cols = set(frame.columns)
    if set(NESTED) <= cols:
        schema = "nested"
        docs = [_mapping(d, "doc", path) for d in frame["doc"]]
        metrics = [_mapping(m, "metric", path) for m in frame["metric"]]
        asked = [(d.get("query"), d.get("choices"), d.get("gold_index")) for d in docs]
        ids = [str(d.get("id", "")) for d in docs]
        specifics = [d.get("specific") for d in docs]
    elif set(FLAT) <= cols:
        schema = "flat"
        metrics = [_mapping(m, "metrics", path) for m in frame["metrics"]]
        gold = frame["gold"] if "gold" in cols else frame.get("gold_index", [None] * len(frame))
        asked = list(zip(frame["example"], gold))
        ids = [""] * len(frame)
        specifics = list(frame["specifics"]) if "specifics" in cols else [None] * len(frame)
    else:
        missing = [c for c in FLAT if c not in cols] if "doc" not in cols else ["metric"]
        raise InvalidInputError(
            f"{path}: a details file needs the per-sample metrics: lighteval's columns "
            f"'example' and 'metrics' (lighteval up to 0.10, the Open LLM Leaderboard) or "
            f"'doc' and 'metric' (lighteval 0.11 and later); missing {missing}, found "
            f"{sorted(cols)[:12]}.")
    content = [_hash(a) for a in asked]
    if not all(ids) or len(set(ids)) < len(ids):
        ids = _unique(content)
    example, metric_names, scores, repeat = [], [], [], []
    for i, m in enumerate(metrics):
        for name, value in m.items():
            example.append(ids[i])
            metric_names.append(str(name))
            scores.append(_number(value))
            repeat.append(i)
    if not metric_names:
        raise InvalidInputError(f"{path}: no sample has a per-sample metric (the 'metrics'/"
                                "'metric' field is empty).")
    rows_of = np.asarray(repeat)
    clusters = (None if cluster_by is None else
                np.asarray([_cluster(s, cluster_by, path, ids[i])
                            for i, s in enumerate(specifics)], dtype=object)[rows_of])
    match = NAME.match(path.name)
    task = match["task"] if match else path.stem
    model = _model(path)
    n = len(metric_names)
    cols_out = {"example": example, "epoch": [0] * n, "metric": metric_names, "score": scores,
                "cluster": clusters if clusters is not None else [None] * n,
                "content": list(np.asarray(content, dtype=object)[rows_of]),
                "task": [task] * n, "model": [model] * n, "prompt": [None] * n}
    rows, unusable = tidy(cols_out, str(path))
    shots = task.rsplit("|", 1)[-1] if "|" in task else None
    run = EvalRun(harness="lighteval", harness_version=f"details, {schema} schema",
                  file=str(path), model=model, task=task, unusable=unusable,
                  prompt={"num_fewshot": shots} if shots is not None else {})
    first = next((m for m in dict.fromkeys(metric_names) if m not in unusable),
                 metric_names[0])
    return rows, run, first


def _mapping(value, field: str, path: Path) -> dict:
    """A per-sample struct: a dict (Parquet struct), or its Python repr (the text-cast files
    of late 2024)."""
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
    if isinstance(value, (bool, np.bool_)):
        return float(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        return float(value)
    return value if not isinstance(value, np.ndarray) else value.tolist()


def _plain(value):
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


def _hash(asked) -> str:
    """sha256 of what was asked and the answer expected (``repr`` of plain values)."""
    return hashlib.sha256(repr(_plain(list(asked))).encode("utf-8")).hexdigest()


def _unique(content: list[str]) -> list[str]:
    """Short content ids, the k-th repeat of an identical item suffixed ``#k``."""
    seen: dict[str, int] = {}
    out = []
    for h in content:
        seen[h] = seen.get(h, 0) + 1
        out.append(h[:16] if seen[h] == 1 else f"{h[:16]}#{seen[h]}")
    return out


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


def _cluster(specific, field: str, path: Path, item: str):
    if isinstance(specific, str):
        try:
            specific = ast.literal_eval(specific)
        except (ValueError, SyntaxError):
            specific = None
    if not isinstance(specific, dict) or field not in specific:
        known = sorted(specific) if isinstance(specific, dict) else []
        raise InvalidInputError(f"{path}: sample {item!r} has no field {field!r} in its "
                                f"specifics to cluster by; its fields are {known}.")
    return str(specific[field])
