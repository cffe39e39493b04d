"""The results file of an experiment: written as fits finish, resumed, one writer at a time.

Each finished fit is appended as one JSON line to a journal next to ``out``
(``<out>.journal``; fits quicker than a second are written out together, at most once a
second); when the run ends, normally or not, the journal is merged into ``out`` (Parquet or
CSV) by writing a temporary file and renaming it over ``out``, so ``out`` is always a
complete, readable table. A torn last journal line (a killed process) is ignored, other
unreadable lines are skipped with a warning naming them, and a journal left by a killed run
is merged at the start of the next. A rerun with the same ``out`` skips the fits already
recorded and computes the rest. The lock file ``<out>.lock`` keeps a second run from writing
the same ``out`` at the same time (two writers duplicated keys in a CSV and lost fits in a
Parquet file).
"""
from __future__ import annotations

import json
import math
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, OutperformWarning
from ._lock import WriterLock
from ._designs import Design

KEY = ["task", "model", "run", "fold"]
FIXED = [*KEY, "n_train", "n_test", "fit_time", "score_time", "design", "random_state"]
_PRED_COLUMNS = [*KEY, "example", "y_true", "y_pred", "correct"]
_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
#: Fits quicker than this are written to the journal together, at most once per this time.
FLUSH_SECONDS = 1.0


def predictions_path(out) -> Path:
    """Where :func:`run_experiment` writes the predictions for results file ``out``.

    Examples
    --------
    >>> predictions_path("runs/results.parquet").as_posix()
    'runs/results.predictions.parquet'
    """
    out = Path(out)
    return out.with_name(f"{out.stem}.predictions{out.suffix}")


def frames(records, store_predictions):
    """Scores and (with ``store_predictions``) predictions tables of journal records."""
    scores = pd.DataFrame([r["row"] for r in records], columns=None if records else FIXED)
    if not store_predictions:
        return scores, None
    records = [r for r in records if r["pred"] is not None]
    sizes = [len(r["pred"]["example"]) for r in records]
    columns = {k: np.repeat([r["row"][k] for r in records], sizes) for k in KEY}
    for k in _PRED_COLUMNS[len(KEY):]:
        columns[k] = [v for r in records for v in r["pred"][k]]
    return scores, pd.DataFrame(columns, columns=_PRED_COLUMNS)


class ResultsStore:
    """Results file ``out`` (+ predictions file) and the journal of fits not merged yet.

    A context manager: entering takes the writer lock ``<out>.lock`` (one run per ``out``)
    and merges a journal left by a killed run; leaving releases the lock.
    """

    def __init__(self, out, store_predictions):
        self.path = Path(out)
        suffix = self.path.suffix.lower()
        if suffix not in _FORMATS:
            raise InvalidInputError(
                f"out must end in {sorted(_FORMATS)} to choose the file format, got {out!r}."
            )
        self.format = _FORMATS[suffix]
        self.pred_path = predictions_path(self.path)
        self.journal = self.path.with_name(self.path.name + ".journal")
        self.store_predictions = store_predictions
        self._fh = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = WriterLock(self.path.with_name(self.path.name + ".lock"), self.path)

    def __enter__(self):
        self._lock.__enter__()
        try:
            self.consolidate()  # a journal left by a killed run
        except BaseException:
            self._lock.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        self._lock.__exit__()

    def done(self, design: Design, metric_names, splits) -> set:
        """Keys already computed, after checking ``out`` holds the same experiment."""
        scores = self._read(self.path)
        if scores.empty:
            return set()
        seen = scores[["design", "random_state"]].drop_duplicates()
        if (len(seen) != 1 or seen.iloc[0, 0] != design.name
                or seen.iloc[0, 1] != design.random_state):
            found = ", ".join(f"{d!r} random_state={r}" for d, r in seen.itertuples(index=False))
            raise InvalidInputError(
                f"{self.path} holds results of design {found}, not {design.name!r} "
                f"random_state={design.random_state}; use the same design or another out."
            )
        found = [c for c in scores.columns if c not in FIXED]
        if sorted(found) != sorted(metric_names):
            raise InvalidInputError(
                f"{self.path} holds metrics {found}, not {list(metric_names)}; use the same "
                "metrics or another out."
            )
        self._check_sizes(scores, splits)
        keys = set(scores[KEY].itertuples(index=False, name=None))
        if self.store_predictions:
            predictions = self._read(self.pred_path)
            keys &= set(predictions[KEY].drop_duplicates().itertuples(index=False, name=None))
        return keys

    def _check_sizes(self, scores, splits):
        sizes = pd.DataFrame([(t, r, f, len(tr), len(te)) for t, s in splits.items()
                              for r, f, tr, te in s],
                             columns=["task", "run", "fold", "n_train_now", "n_test_now"])
        both = scores.merge(sizes, on=["task", "run", "fold"])
        bad = both[(both["n_train"] != both["n_train_now"]) | (both["n_test"] != both["n_test_now"])]
        if len(bad):
            raise InvalidInputError(
                f"{self.path} holds results for data set {bad['task'].iloc[0]!r} with other "
                "split sizes than now: the data set changed; use another out."
            )

    def append(self, record):
        if self._fh is None:
            self._fh = open(self.journal, "a", encoding="utf-8")
            self._flushed = -math.inf
        # One line per record: a killed process leaves at most one torn last line. A fit
        # that took under FLUSH_SECONDS waits in memory for the next write-out, at most one
        # per FLUSH_SECONDS (a system call per fit was a third of the runner's own time with
        # fast models); a killed run redoes at most about that much work per worker.
        self._fh.write(json.dumps(record, default=str) + "\n")
        now = time.monotonic()
        row = record["row"]
        if (row.get("fit_time", 0.0) + row.get("score_time", 0.0) >= FLUSH_SECONDS
                or now - self._flushed >= FLUSH_SECONDS):
            self._fh.flush()
            self._flushed = now

    def _read_journal(self):
        if not self.journal.exists():
            return []
        records, corrupt = [], []
        lines = self.journal.read_bytes().split(b"\n")
        # The last piece is empty, or a line torn by a killed process: that fit is redone.
        for number, line in enumerate(lines[:-1], start=1):
            try:
                record = json.loads(line.decode("utf-8"))
            except ValueError:  # undecodable bytes or not JSON
                record = None
            if _is_record(record):
                records.append(record)
            else:
                corrupt.append(number)
        if corrupt:
            shown = ", ".join(map(str, corrupt[:10])) + (", ..." if len(corrupt) > 10 else "")
            warnings.warn(
                f"skipped {len(corrupt)} corrupt line(s) of the journal {self.journal} (line "
                f"{shown}); those fits are computed again.", OutperformWarning, stacklevel=5)
        return records

    def consolidate(self):
        """Merge the journal into the results files (atomically) and delete it."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        records = self._read_journal()
        if records:
            has_preds = any(r["pred"] is not None for r in records)
            new_scores, new_preds = frames(records, has_preds)
            old_scores, old_preds = self.read()
            if has_preds:
                self._write(_replace(old_preds, new_preds), self.pred_path)
            self._write(_replace(old_scores, new_scores), self.path)
        self.journal.unlink(missing_ok=True)

    def read(self):
        return self._read(self.path), self._read(self.pred_path)

    def _read(self, path):
        if not path.exists():
            return pd.DataFrame(columns=_PRED_COLUMNS if path == self.pred_path else FIXED)
        if self.format == "parquet":
            return pd.read_parquet(path)
        return pd.read_csv(path, dtype={"task": str, "model": str, "design": str})

    def _write(self, df, path):
        tmp = path.with_name(path.name + ".tmp")
        if self.format == "parquet":
            _storable_labels(df).to_parquet(tmp, index=False)
        else:
            df.to_csv(tmp, index=False)
        os.replace(tmp, path)


def _is_record(record) -> bool:
    """Whether a parsed journal line has the shape :meth:`ResultsStore.append` writes."""
    if not (isinstance(record, dict) and isinstance(record.get("row"), dict) and "pred" in record
            and all(k in record["row"] for k in KEY)):
        return False
    pred = record["pred"]
    return pred is None or (isinstance(pred, dict)
                            and all(k in pred for k in _PRED_COLUMNS[len(KEY):]))


def _replace(old, new):
    """``old`` without the fits present in ``new``, then ``new`` (a redone fit wins)."""
    if old.empty:
        return new
    redone = pd.MultiIndex.from_frame(new[KEY].drop_duplicates())
    keep = ~pd.MultiIndex.from_frame(old[KEY]).isin(redone)
    return pd.concat([old[keep], new], ignore_index=True)


def _storable_labels(df):
    # Parquet needs one type per column; labels of different tasks may mix ints and text.
    for col in ("y_true", "y_pred"):
        if col in df.columns and df[col].dtype == object and df[col].map(type).nunique() > 1:
            df = df.assign(**{col: df[col].astype(str)})
    return df
