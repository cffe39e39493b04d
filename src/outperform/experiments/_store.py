"""The results file of an experiment: written as fits finish, resumed, one writer at a time.

Each finished fit is appended as one JSON line to a journal next to ``out``
(``<out>.journal``; fits quicker than a second are written out together, at most once a
second); when the run ends, normally or not, the journal is merged into ``out`` (Parquet or
CSV) by writing a temporary file, fsyncing it and renaming it over ``out``
(:mod:`outperform._atomic`), so ``out`` is always a complete, readable table, and the journal
is deleted only once ``out`` holds its fits. Every journal line is checked before it is merged
(:mod:`._journal`): a torn or unreadable line is skipped with a warning naming it; a record of
another experiment, or two different records of one fit, are refused naming the line(s). A
journal left by a killed run is merged at the start of the next. A rerun with the same
``out`` skips the fits already recorded and computes the rest. A results file that cannot be
read (truncated, damaged) is moved aside to ``<out>.damaged`` with a warning, and ``out`` is
rebuilt from the journal: its fits are never lost; the others are computed again. The lock
file ``<out>.lock`` keeps a second run from writing the same ``out`` at the same time (two
writers duplicated keys in a CSV and lost fits in a Parquet file).
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

from .._atomic import atomic_path
from .._validation import InvalidInputError, OutperformWarning
from ._journal import FIXED, KEY, PRED_COLUMNS, Experiment, read_journal
from ._lock import WriterLock

_PRED_COLUMNS = PRED_COLUMNS
_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
#: Fits quicker than this are written to the journal together, at most once per this time.
FLUSH_SECONDS = 1.0
#: Columns a results file never leaves empty (a design's random_state is always an int; a
#: metric may be NaN): an empty cell there is a file cut short or damaged.
_NEVER_MISSING = FIXED


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

    A context manager: entering takes the writer lock ``<out>.lock`` (one run per ``out``),
    checks that ``out`` holds ``experiment`` (or sets it aside when it cannot be read) and
    merges a journal left by a killed run; leaving releases the lock.
    """

    def __init__(self, out, store_predictions, experiment: Experiment):
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
        self.experiment = experiment
        self._fh = None
        self._frames = None  # (scores, predictions) as in the files, once read
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = WriterLock(self.path.with_name(self.path.name + ".lock"), self.path)

    def __enter__(self):
        self._lock.__enter__()
        try:
            self._check_experiment(self.read()[0])
            self.consolidate()  # a journal left by a killed run
        except BaseException:
            self._lock.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        self._lock.__exit__()

    def _check_experiment(self, scores):
        """Refuse an ``out`` that holds the results of another experiment."""
        if scores.empty:
            return
        exp = self.experiment
        seen = scores[["design", "random_state"]].drop_duplicates()
        if (len(seen) != 1 or seen.iloc[0, 0] != exp.design
                or seen.iloc[0, 1] != exp.random_state):
            found = ", ".join(f"{d!r} random_state={r}" for d, r in seen.itertuples(index=False))
            raise InvalidInputError(
                f"{self.path} holds results of design {found}, not {exp.design!r} "
                f"random_state={exp.random_state}; use the same design or another out."
            )
        found = [c for c in scores.columns if c not in FIXED]
        if sorted(found) != sorted(exp.metrics):
            raise InvalidInputError(
                f"{self.path} holds metrics {found}, not {list(exp.metrics)}; use the same "
                "metrics or another out."
            )
        sizes = pd.DataFrame([(*k, *v) for k, v in exp.sizes.items()],
                             columns=["task", "run", "fold", "n_train_now", "n_test_now"])
        both = scores.merge(sizes, on=["task", "run", "fold"])
        bad = both[(both["n_train"] != both["n_train_now"]) | (both["n_test"] != both["n_test_now"])]
        if len(bad):
            raise InvalidInputError(
                f"{self.path} holds results for data set {bad['task'].iloc[0]!r} with other "
                "split sizes than now: the data set changed; use another out."
            )

    def done(self) -> set:
        """Keys of the fits ``out`` already holds (with their predictions if stored)."""
        scores, predictions = self.read()
        keys = set(scores[KEY].itertuples(index=False, name=None))
        if self.store_predictions:
            keys &= set(predictions[KEY].drop_duplicates().itertuples(index=False, name=None))
        return keys

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

    def consolidate(self):
        """Merge the journal into the results files (atomically) and delete it."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        records = read_journal(self.journal, self.experiment, self.path)
        if records:
            has_preds = any(r["pred"] is not None for r in records)
            new_scores, new_preds = frames(records, has_preds)
            old_scores, old_preds = self.read()
            if has_preds:
                self._write(_replace(old_preds, new_preds), self.pred_path)
            self._write(_replace(old_scores, new_scores), self.path)
            self._frames = None  # read back: the files' own types (CSV, Parquet labels)
        self.journal.unlink(missing_ok=True)

    def read(self):
        """(scores, predictions) of the files; one that cannot be read is set aside, empty."""
        if self._frames is None:
            self._frames = self._read(self.path), self._read(self.pred_path)
        return self._frames

    def _read(self, path):
        columns = _PRED_COLUMNS if path == self.pred_path else FIXED
        if not path.exists():
            return pd.DataFrame(columns=columns)
        try:
            if self.format == "parquet":
                df = pd.read_parquet(path)
            else:
                df = pd.read_csv(path, dtype={"task": str, "model": str, "design": str})
        except (ValueError, OSError) as exc:
            if isinstance(exc, (PermissionError, IsADirectoryError)):
                raise
            return self._set_aside(path, exc, columns)
        never_missing = _PRED_COLUMNS if path == self.pred_path else _NEVER_MISSING
        missing = [c for c in never_missing if c not in df.columns]
        if missing:  # a readable file of something else: the user's, not ours to move
            raise InvalidInputError(
                f"{path} is not a results file of run_experiment (no column {missing}); "
                "write to another file.")
        if df[never_missing].isna().to_numpy().any():
            return self._set_aside(path, ValueError("rows with empty cells: cut short"), columns)
        return df

    def _set_aside(self, path, exc, columns):
        aside = path.with_name(path.name + ".damaged")
        number = 1
        while aside.exists():
            number += 1
            aside = path.with_name(f"{path.name}.damaged-{number}")
        os.replace(path, aside)
        warnings.warn(
            f"cannot read {path} ({type(exc).__name__}: {str(exc)[:200]}): it is damaged "
            f"(truncated?). Moved it to {aside}; {path} is rebuilt from the journal, and the "
            "fits the journal does not hold are computed again.", OutperformWarning, stacklevel=6)
        return pd.DataFrame(columns=columns)

    def _write(self, df, path):
        with atomic_path(path) as tmp:  # fsynced, then renamed over path
            if self.format == "parquet":
                _storable_labels(df).to_parquet(tmp, index=False)
            else:
                df.to_csv(tmp, index=False)


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
