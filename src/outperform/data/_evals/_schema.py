"""The tidy table of evaluation logs and the provenance of each run read into it.

Every reader returns rows with the columns of ``COLUMNS``: one score per (task, model,
metric, example, epoch), with the item's ``cluster`` (or None), a hash of the item's
content where the log carries one (``content``: the models must have seen the same item) and
a hash of the prompt as the model saw it (``prompt``: few-shot examples, templates).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from ..._validation import InvalidInputError

COLUMNS = ("task", "model", "metric", "example", "epoch", "score", "cluster", "content", "prompt")
TEXT = ("task", "model", "metric", "example", "cluster", "content", "prompt")


@dataclass(frozen=True)
class EvalRun:
    """Where one (model, task) run came from, as its log states it.

    Attributes
    ----------
    harness : str
        ``"lm-eval"``, ``"inspect"``, ``"helm"`` or ``"table"``.
    harness_version : str or None
        Version of the harness that wrote the log (as logged).
    file : str
        The file (or run folder) read.
    model, task : str
    task_version : str or None
    settings : mapping
        Model name and generation/prompt settings as logged (model arguments, few-shot count,
        chat template, temperature, ...): two runs of one model must agree on them.
    prompt : mapping
        Task settings that must agree across models for a fair comparison (few-shot count,
        system instruction, ...); a difference is warned about by name.
    unusable : mapping of str to str
        Metrics left out because no value is a number, with an example value.
    """

    harness: str
    harness_version: str | None
    file: str
    model: str
    task: str
    task_version: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    prompt: Mapping[str, Any] = field(default_factory=dict)
    unusable: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe dictionary (settings as strings where they are not plain values)."""
        plain = (str, int, float, bool, type(None))
        return {"harness": self.harness, "harness_version": self.harness_version,
                "file": self.file, "model": self.model, "task": self.task,
                "task_version": self.task_version,
                "settings": {k: v if isinstance(v, plain) else str(v)
                             for k, v in self.settings.items()},
                "prompt": {k: v if isinstance(v, plain) else str(v)
                           for k, v in self.prompt.items()},
                "unusable": dict(self.unusable)}


@dataclass(frozen=True)
class EvalLogs:
    """Scores of several runs in the tidy schema, with the provenance of each run.

    Attributes
    ----------
    scores : DataFrame
        Columns ``task, model, metric, example, epoch, score, cluster, content, prompt`` (see the
        module docstring); ``score`` is float, higher is better unless the metric says
        otherwise; ``epoch`` starts at 1; the text columns are categorical (``example`` with
        ``str`` labels), so that filters and the pairing work on integer codes.
    runs : tuple of EvalRun
    default_metric : mapping of str to str
        Per task, the metric the harness reports first (lm-eval: the first metric and
        filter of the samples; Inspect: the first scorer; HELM: exact match).
    warnings : tuple of str
        Differences between runs that do not stop the comparison (task versions, prompts).
    """

    scores: pd.DataFrame
    runs: tuple[EvalRun, ...]
    default_metric: Mapping[str, str] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()

    @property
    def models(self) -> tuple[str, ...]:
        """Model names in order of first appearance."""
        return tuple(pd.unique(self.scores["model"]))

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task names in order of first appearance."""
        return tuple(pd.unique(self.scores["task"]))


def tidy(columns: Mapping[str, Any], path: str) -> tuple[pd.DataFrame, dict[str, str]]:
    """The rows of one reader as a tidy frame with float scores.

    A metric none of whose values is a number (lm-eval's corpus-level metrics such as BLEU log
    a (reference, prediction) pair per item; a scorer giving text) is left out and returned
    in the second value, so that the other metrics of the log can still be compared.

    Returns
    -------
    (DataFrame, dict of str to str)
        The rows of the numeric metrics; per metric left out, an example of its values.

    Raises
    ------
    InvalidInputError
        A metric with some numeric and some non-numeric (or infinite, or missing) scores
        (names the file, the example and the value).
    """
    df = pd.DataFrame({c: columns.get(c) for c in COLUMNS})
    values = _floats(df["score"])
    bad = ~np.isfinite(values)
    unusable = {}
    if bad.any():
        per_metric = pd.Series(bad).groupby(df["metric"].to_numpy(), sort=False).all()
        for metric in per_metric.index[per_metric.to_numpy()]:
            unusable[str(metric)] = repr(df.loc[df["metric"] == metric, "score"].iloc[0])[:80]
        mixed = bad & ~df["metric"].isin(list(unusable)).to_numpy()
        if mixed.any():
            row = df[mixed].iloc[0]
            raise InvalidInputError(
                f"{path}: {int(mixed.sum())} score(s) of metric {row['metric']!r} are not "
                f"finite numbers, e.g. {row['score']!r} for example {str(row['example'])!r}; "
                "fix the "
                "log or compare another metric (--metric).")
        keep = ~bad
        df, values = df[keep].reset_index(drop=True), values[keep]
    df["score"] = values
    for column in TEXT:
        df[column] = _categories(df[column], str_ids=column == "example")
    return df, unusable


def _categories(values: pd.Series, *, str_ids: bool) -> pd.Series:
    """Text as a categorical column (its labels as ``str`` for item ids): filters, group-bys
    and pairing then work on integer codes."""
    if not isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype("category")
    if str_ids and not values.cat.categories.empty and values.cat.categories.dtype != object \
            and not pd.api.types.is_string_dtype(values.cat.categories):
        labels = values.cat.categories.astype(str)
        if labels.is_unique:
            return values.cat.rename_categories(labels)
        return values.astype(str).astype("category")
    return values


def concat(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Rows of several readers in one frame, the text columns kept categorical."""
    from pandas.api.types import union_categoricals

    if len(frames) == 1:
        return frames[0]
    out = {}
    for c in COLUMNS:
        parts = [f[c] for f in frames]
        if c not in TEXT:
            out[c] = np.concatenate([p.to_numpy() for p in parts])
        elif all(_arrow_strings(p.cat.categories.dtype) for p in parts):
            out[c] = _union(parts)
        else:
            out[c] = union_categoricals(parts)
    return pd.DataFrame(out)


def _arrow_strings(dtype) -> bool:
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def _union(parts: list[pd.Series]) -> pd.Categorical:
    """``union_categoricals`` of categoricals with pyarrow-backed string categories, done by
    pyarrow (``unify_dictionaries``): pandas would hash every category set in Python twice,
    a third of a second for two files of 10^5 items."""
    import pyarrow as pa

    chunks = []
    for p in parts:
        codes = p.cat.codes.to_numpy()
        labels = pa.array(p.cat.categories.array)
        chunks.append(pa.DictionaryArray.from_arrays(
            pa.array(codes, mask=codes < 0),
            labels.combine_chunks() if isinstance(labels, pa.ChunkedArray) else labels))
    unified = pa.chunked_array(chunks).unify_dictionaries()
    indices = pa.concat_arrays([c.indices for c in unified.chunks])
    return categorical(indices, unified.chunk(0).dictionary)


def categorical(indices, dictionary) -> pd.Categorical:
    """A pyarrow dictionary (``indices`` into the distinct strings ``dictionary``, nulls
    allowed) as a pandas Categorical, as ``DictionaryArray.to_pandas()`` gives it, without
    pandas' check that the categories are distinct (a Python hash table of 10^5 strings;
    pyarrow's dictionaries are distinct by construction)."""
    codes = indices.cast("int64").fill_null(-1).to_numpy()
    labels = pd.Index(pd.array(dictionary, dtype="str"))
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)  # pandas' own unchecked path
    dtype = fast(labels, False) if fast is not None else pd.CategoricalDtype(labels)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def _floats(scores: pd.Series) -> np.ndarray:
    """Scores as floats, NaN for anything that is not a number (text, lists, None)."""
    if scores.dtype.kind in "fiub":
        return scores.to_numpy(dtype=float)
    def one(v):
        if isinstance(v, (bool, int, float, np.number)):
            return float(v)
        try:
            return float(v) if isinstance(v, str) else np.nan
        except ValueError:
            return np.nan
    return np.fromiter((one(v) for v in scores), dtype=float, count=len(scores))
