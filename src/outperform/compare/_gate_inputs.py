"""The two runs of a regression gate, read and labelled ``baseline`` and ``candidate``:
evaluation logs of any format :func:`outperform.data.read_eval_logs` reads, or a baseline
saved by :func:`save_baseline` (Parquet of the per-item scores and a manifest of content
hashes); repeated samples of an item reduced to pass@k or k-of-k when asked.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ..data._columns import ITEM_COLUMNS
from ..data._evals._long import TABLE_SUFFIXES
from ..data._evals._read import _differences, read_eval_logs
from ..data._evals._schema import EvalLogs, EvalRun, concat
from ..stats._pass_at_k import all_k_of_k, pass_at_k

MANIFEST = "outperform-baseline.json"
ITEMS = "items.parquet"
MANIFEST_VERSION = 1
REPEATS = ("mean", "pass@k", "k-of-k")


def is_saved_baseline(source) -> bool:
    """Whether ``source`` is a folder written by :func:`save_baseline`."""
    return isinstance(source, (str, Path)) and (Path(source) / MANIFEST).is_file()


def _predictions(source, y_true: str | None, cluster):
    """A per-example predictions table (a ``y_true`` column and one prediction column) as the
    long table of per-item correctness the readers take, or ``source`` unchanged when it is
    not one (a path that is no table, or a table without the labels' column)."""
    if y_true is None:
        return source
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not (path.is_file() and path.suffix.lower() in TABLE_SUFFIXES):
            return source
        from ..data._io import read_table

        df = read_table(path)
    elif isinstance(source, pd.DataFrame):
        df = source
    else:
        return source
    if y_true not in df.columns or "score" in df.columns:
        return source
    from ._q1 import per_example_losses

    item = next((c for c in ITEM_COLUMNS if c in df.columns), None)
    preds = [c for c in df.columns if c not in {y_true, item, cluster, "task", "model"}]
    if len(preds) != 1:
        raise InvalidInputError(
            f"a predictions table for a gate holds the labels ({y_true!r}) and ONE model's "
            f"predictions; this one has {len(preds)} other columns {preds[:5]}: give each "
            "build's predictions in its own file (compare-predictions compares several).")
    if df[[y_true, preds[0]]].isna().any().any():
        raise InvalidInputError("the predictions table has missing labels or predictions: "
                                "every item needs both.")
    correct = 1.0 - per_example_losses(df[y_true].to_numpy(), df[preds[0]].to_numpy(),
                                       "zero-one")
    out = pd.DataFrame({"model": str(preds[0]),
                        "task": df["task"] if "task" in df.columns else "predictions",
                        "item": df[item] if item else np.arange(len(df)), "score": correct})
    if cluster is not None and cluster in df.columns:
        out["cluster"] = df[cluster].to_numpy()
    return out


def _read_one(source, role: str, format: str, cluster, y_true="y_true") -> EvalLogs:
    if isinstance(source, EvalLogs):
        logs = source
    elif is_saved_baseline(source):
        logs = load_baseline(source)
    else:
        source = _predictions(source, y_true, cluster)
        logs = read_eval_logs(source, format=format, cluster=cluster)
    if len(logs.models) != 1:
        raise InvalidInputError(
            f"the {role} holds {len(logs.models)} models {list(logs.models)}: a gate compares "
            f"one run with another; give the logs of one model as the {role} (compare-evals "
            "compares several).")
    return logs


def _relabel(logs: EvalLogs, role: str) -> EvalLogs:
    scores = logs.scores.copy()
    scores["model"] = pd.Categorical([role] * len(scores))
    runs = tuple(replace(r, model=role) for r in logs.runs)
    return replace(logs, scores=scores, runs=runs)


def read_runs(baseline, candidate, *, format: str = "auto", cluster: str | None = None,
              y_true: str | None = "y_true") -> tuple[EvalLogs, dict, list[str]]:
    """The two runs in one :class:`EvalLogs`, models named ``baseline`` and ``candidate``.

    A run may also be a per-example predictions table: the true labels (``y_true``), one
    column of predictions (labels, or probabilities of the positive class cut at 0.5), an
    optional item id column (else the row order pairs the items) and ``task``; its
    per-item correctness is gated.

    Returns
    -------
    (EvalLogs, dict, list of str)
        The logs; the model names as logged ({"baseline": ..., "candidate": ...}); warnings
        (the same file twice; runs that differ in task version or prompt).

    Raises
    ------
    InvalidInputError
        A run with several models; anything the readers refuse.
    """
    warnings = []
    if (isinstance(baseline, (str, Path)) and isinstance(candidate, (str, Path))
            and Path(baseline).resolve() == Path(candidate).resolve()):
        warnings.append("the baseline and the candidate are the same file: every difference "
                        "is 0 and the gate says nothing about a build; for the stability "
                        "of a gate, give two runs of one build (--aa).")
    b = _read_one(baseline, "baseline", format, cluster, y_true)
    c = _read_one(candidate, "candidate", format, cluster, y_true)
    names = {"baseline": b.models[0], "candidate": c.models[0]}
    b, c = _relabel(b, "baseline"), _relabel(c, "candidate")
    runs = b.runs + c.runs
    defaults = dict(c.default_metric)
    defaults.update(b.default_metric)        # the baseline's first metric decides
    logs = EvalLogs(scores=concat([b.scores, c.scores]), runs=runs, default_metric=defaults,
                    warnings=tuple(b.warnings) + tuple(c.warnings) + tuple(_differences(list(runs))))
    return logs, names, warnings


def select_tasks(logs: EvalLogs, task) -> EvalLogs:
    """Only the tasks named (a name or a list of names).

    Raises
    ------
    InvalidInputError
        A task not in the logs (the tasks they hold are named).
    """
    if task is None:
        return logs
    wanted = [task] if isinstance(task, str) else list(task)
    unknown = [t for t in wanted if t not in logs.tasks]
    if unknown:
        raise InvalidInputError(f"task(s) {unknown} are not in the logs; they hold "
                                f"{list(logs.tasks)}.")
    keep = logs.scores["task"].isin(wanted).to_numpy()
    return replace(logs, scores=logs.scores[keep].reset_index(drop=True))


def reduce_repeats(logs: EvalLogs, repeats: str, k: int | None) -> EvalLogs:
    """Each item's samples as one score: their mean (left to the pairing, which keeps the
    within-item variance), or pass@k / k-of-k (Chen et al. 2021, :mod:`stats._pass_at_k`).

    Raises
    ------
    InvalidInputError
        Unknown ``repeats``; pass@k without k (or k with the mean); a score not 0/1; an item
        with fewer than k samples.
    """
    if repeats not in REPEATS:
        raise InvalidInputError(f"samples must be one of {', '.join(REPEATS)} (--samples), got "
                                f"{repeats!r}.")
    if repeats == "mean":
        if k is not None:
            raise InvalidInputError(f"k = {k} is for samples 'pass@k' or 'k-of-k'; give one "
                                    f"of them (--samples pass@k --k {k}).")
        return logs
    if k is None:
        raise InvalidInputError(f"samples {repeats!r} needs k (--k): how many samples a user "
                                "draws per item in use.")
    df = logs.scores
    scores = df["score"].to_numpy()
    if not np.isin(scores, (0.0, 1.0)).all():
        raise InvalidInputError(f"{repeats} counts correct samples: every score must be 0 or 1, "
                                f"found {float(scores[~np.isin(scores, (0.0, 1.0))][0])!r}.")
    keys = ["task", "model", "metric", "example"]
    grouped = df.groupby(keys, observed=True, sort=False)
    counts = grouped["score"].agg(["size", "sum"])
    first = grouped[["cluster", "content", "prompt"]].first()
    fn = pass_at_k if repeats == "pass@k" else all_k_of_k
    value = fn(counts["size"].to_numpy(), counts["sum"].to_numpy(), k)
    out = counts.index.to_frame(index=False)
    out["epoch"] = 1
    out["score"] = value
    for c in ("cluster", "content", "prompt"):
        out[c] = first[c].to_numpy()
    for c in ("task", "model", "metric", "example", "cluster", "content", "prompt"):
        out[c] = out[c].astype("category")
    return replace(logs, scores=out[list(df.columns)])


# -- saved baselines ----------------------------------------------------------------------

def item_hashes(scores: pd.DataFrame) -> pd.Series:
    """SHA-256 of each row's task, item id and content hash (the input text's hash when
    the harness logged one), one per row."""
    content = scores["content"].astype(object).where(scores["content"].notna(), "")
    keys = (scores["task"].astype(str) + "\x00" + scores["example"].astype(str) + "\x00"
            + content.astype(str))
    return keys.map(lambda s: hashlib.sha256(s.encode("utf-8")).hexdigest())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def save_baseline(baseline, directory, *, format: str = "auto", cluster: str | None = None,
                  y_true: str | None = "y_true") -> Path:
    """Store a baseline run's per-item results for later gates.

    Writes ``items.parquet`` (the tidy per-item table of :func:`read_eval_logs`, one row per
    task, item, metric and sample, with ``item_hash``: SHA-256 of the task, the item id and
    the logged content hash) and ``outperform-baseline.json`` (the run's provenance, the
    default metric per task, the SHA-256 of the Parquet file and of the sorted item hashes),
    each written atomically.

    Parameters
    ----------
    baseline : path, sequence of paths, DataFrame or EvalLogs
        One model's logs.
    directory : path
        Created if missing.

    Returns
    -------
    Path
        The manifest.

    Raises
    ------
    InvalidInputError
        Logs of several models; anything the readers refuse.
    """
    from .._atomic import atomic_path, write_text

    logs = _read_one(baseline, "baseline", format, cluster, y_true)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    table = logs.scores.copy()
    table["item_hash"] = item_hashes(table).to_numpy()
    with atomic_path(directory / ITEMS) as tmp:
        table.to_parquet(tmp, index=False)
    hashes = sorted(set(table["item_hash"]))
    manifest = {"outperform_baseline": MANIFEST_VERSION, "model": logs.models[0],
                "tasks": list(logs.tasks), "n_rows": int(len(table)),
                "items_sha256": _digest(directory / ITEMS),
                "item_hashes_sha256": hashlib.sha256("\n".join(hashes).encode()).hexdigest(),
                "default_metric": dict(logs.default_metric),
                "runs": [r.to_dict() for r in logs.runs]}
    return write_text(directory / MANIFEST, json.dumps(manifest, indent=1) + "\n")


def load_baseline(directory) -> EvalLogs:
    """A baseline stored by :func:`save_baseline`, checked against its manifest.

    Raises
    ------
    InvalidInputError
        A manifest of another version, a Parquet file that is missing or changed since it was
        saved (its hash), item hashes that do not match the items.
    """
    directory = Path(directory)
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InvalidInputError(f"{directory}: cannot read {MANIFEST} ({exc}); save the "
                                "baseline again (--save-baseline).") from None
    if manifest.get("outperform_baseline") != MANIFEST_VERSION:
        raise InvalidInputError(f"{directory}: not a baseline of this version of outperform "
                                f"({MANIFEST}); save it again (--save-baseline).")
    items = directory / ITEMS
    if not items.is_file() or _digest(items) != manifest["items_sha256"]:
        raise InvalidInputError(f"{items}: missing or changed since the baseline was saved "
                                "(its SHA-256 differs from the manifest's); save the baseline "
                                "again.")
    table = pd.read_parquet(items)
    if not (item_hashes(table).to_numpy() == table["item_hash"].to_numpy()).all():
        raise InvalidInputError(f"{items}: the item hashes do not match the items; save the "
                                "baseline again.")
    if table.empty:
        raise TooFewError(f"{items}: the saved baseline holds no item.")
    scores = table.drop(columns="item_hash")
    for c in ("task", "model", "metric", "example", "cluster", "content", "prompt"):
        scores[c] = scores[c].astype(object).where(scores[c].notna(), None).astype("category")
    runs = tuple(EvalRun(**{**r, "file": str(directory)}) for r in manifest["runs"])
    return EvalLogs(scores=scores, runs=runs, default_metric=manifest["default_metric"])
