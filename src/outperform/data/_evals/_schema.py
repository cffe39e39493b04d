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
#: Per-item metrics of the harnesses that are 0 (wrong) or 1 (right) on every item
#: (lm-eval's ``acc``/``acc_norm``: 1.0 if the prediction is the gold answer).
BINARY = ("acc", "acc_norm", "acc_mutual_info")
#: Per-item metrics that lie in [0, 1] (exact-match variants: 0/1, or a fraction of references).
UNIT = ("exact_match", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match",
        "em")


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
    _check_ranges(df, values, path)
    df["score"] = values
    for column in TEXT:
        df[column] = _categories(df[column], str_ids=column == "example")
    return df, unusable


def _check_ranges(df: pd.DataFrame, values: np.ndarray, path: str) -> None:
    """Refuse a score outside the range its metric's name fixes (an ``acc`` of 2.0 would
    otherwise turn the McNemar tests into t-tests without a word)."""
    codes, names = pd.factorize(df["metric"])         # the check runs on the few names
    base = np.array([str(n).split(",")[0].split("/")[-1] for n in names], dtype=object)
    binary = np.isin(base, BINARY)[codes] & ~np.isin(values, (0.0, 1.0))
    unit = np.isin(base, UNIT)[codes] & ((values < 0) | (values > 1))
    bad = binary | unit
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        kind = "0 or 1 (wrong or right)" if binary[k] else "between 0 and 1"
        raise InvalidInputError(
            f"{path}: {int(bad.sum())} score(s) of metric {df['metric'].iloc[k]!r} are not "
            f"{kind}, first {float(values[k])!r} for example {str(df['example'].iloc[k])!r} (model "
            f"{str(df['model'].iloc[k])!r}); the log is damaged or the metric misnamed: fix it "
            "or compare another metric (--metric).")


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
            # Readers give categories of different dtypes (pyarrow strings from lm-eval, Python
            # objects from Inspect, HELM and tables; empty ones for absent clusters):
            # union_categoricals needs one, so each part's labels become plain strings.
            out[c] = union_categoricals([_plain(p) for p in parts])
    return pd.DataFrame(out)


def _plain(part: pd.Series) -> pd.Categorical:
    """A categorical column with its labels as Python strings (object dtype)."""
    labels = pd.Index([str(v) for v in part.cat.categories], dtype=object)
    if not labels.is_unique:       # e.g. 1 and "1": the values, as strings, decide
        return pd.Categorical(part.astype(object).where(part.notna(), None).map(
            lambda v: v if v is None else str(v)))
    return pd.Categorical.from_codes(part.cat.codes.to_numpy(), categories=labels)


def _arrow_strings(dtype) -> bool:
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"


def _union(parts: list[pd.Series]) -> pd.Categorical:
    """``union_categoricals`` of categoricals with pyarrow-backed string categories, done by
    pyarrow (``unify_dictionaries``): pandas would hash every category set in Python twice,
    a third of a second for two files of 10^5 items."""
    import pyarrow as pa

    chunks = []
    for p in parts:
        # pandas keeps codes as int8 below 128 categories; the union may need more, and
        # pyarrow does not widen the index type of a dictionary when it unifies them.
        codes = p.cat.codes.to_numpy().astype(np.int32)
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
