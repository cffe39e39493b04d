"""The journal of an experiment's finished fits (``<out>.journal``), read and checked per record.

Each line is one fit, ``{"row": {...}, "pred": {...} | null}`` as the runner writes it. On
reading, every line is checked before anything is merged into the results file:

- a line that is not such a record (torn by a killed process, undecodable, not JSON, a
  field missing or of the wrong type) is skipped with a warning naming it; its fit is
  computed again;
- a well-formed record of *another* experiment (another design or random_state, other
  metrics, a run or fold the design does not have, other split sizes) is refused, naming
  the line: merged, it would make every later run on this results file fail;
- two records of the same fit (task, model, run, fold) with different results are refused,
  naming both lines: which one is right cannot be told, and merging either would be a
  silent guess. Identical repeats are kept once.

A refusal changes no file: the user moves the journal away (or deletes the named line).
"""
from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from numbers import Real
from pathlib import Path

from .._validation import InvalidInputError, OutperformWarning

KEY = ["task", "model", "run", "fold"]
FIXED = [*KEY, "n_train", "n_test", "fit_time", "score_time", "design", "random_state"]
PRED_COLUMNS = [*KEY, "example", "y_true", "y_pred", "correct"]
#: Fields of a row that differ between two fits of the same split without a different result.
_TIMES = ("fit_time", "score_time")


@dataclass(frozen=True)
class Experiment:
    """What identifies the fits of one experiment: design, its seed, metrics, split sizes.

    ``sizes`` maps ``(task, run, fold)`` to ``(n_train, n_test)`` for the data sets of this
    run (records of other data sets are not checked against sizes: a results file may hold
    data sets this run does not ask for).
    """

    design: str
    random_state: int
    metrics: tuple[str, ...]
    sizes: dict

    @classmethod
    def of(cls, design, metric_names, splits) -> Experiment:
        sizes = {(task, run, fold): (len(train), len(test))
                 for task, task_splits in splits.items() for run, fold, train, test in task_splits}
        return cls(design.name, design.random_state, tuple(metric_names), sizes)

    def describe(self) -> str:
        return f"design {self.design!r} random_state={self.random_state}"

    def foreign(self, row: dict) -> str | None:
        """Why ``row`` (a well-formed journal row) is not a fit of this experiment, or None."""
        if row["design"] != self.design or row["random_state"] != self.random_state:
            return (f"a fit of design {row['design']!r} random_state={row['random_state']}, "
                    f"not {self.describe()}")
        metrics = sorted(k for k in row if k not in FIXED)
        if metrics != sorted(self.metrics):
            return f"a fit scored by metrics {metrics}, not {list(self.metrics)}"
        tasks = {t for t, _, _ in self.sizes}
        if row["task"] in tasks:
            size = self.sizes.get((row["task"], row["run"], row["fold"]))
            if size is None:
                return (f"a fit of run {row['run']}, fold {row['fold']} of data set "
                        f"{row['task']!r}, which {self.describe()} does not have")
            if size != (row["n_train"], row["n_test"]):
                return (f"a fit of data set {row['task']!r} with {row['n_train']} training and "
                        f"{row['n_test']} test examples, not {size[0]} and {size[1]}: another "
                        "version of the data set")
        return None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return value is None or (isinstance(value, Real) and not isinstance(value, bool))


def is_record(record) -> bool:
    """Whether a parsed journal line has the shape and field types the runner writes."""
    if not (isinstance(record, dict) and isinstance(record.get("row"), dict) and "pred" in record):
        return False
    row = record["row"]
    if not all(k in row for k in FIXED):
        return False
    if not (isinstance(row["task"], str) and isinstance(row["model"], str)
            and isinstance(row["design"], str)
            and all(_is_int(row[k]) for k in ("run", "fold", "n_train", "n_test", "random_state"))
            and all(_is_number(v) for k, v in row.items() if k not in FIXED or k in _TIMES)):
        return False
    pred = record["pred"]
    return pred is None or (isinstance(pred, dict) and all(
        isinstance(pred.get(k), list) for k in PRED_COLUMNS[len(KEY):])
        and len({len(pred[k]) for k in PRED_COLUMNS[len(KEY):]}) == 1)


def _result(record) -> str:
    """The record without its timings, as canonical text (NaN equal to NaN)."""
    row = {k: v for k, v in record["row"].items() if k not in _TIMES}
    return json.dumps([row, record["pred"]], sort_keys=True, default=str)


def read_journal(path: Path, experiment: Experiment, out: Path) -> list[dict]:
    """The records of the journal at ``path``, checked against ``experiment``.

    Returns
    -------
    list of dict
        One record per fit, in the order written (a fit repeated identically: once).

    Raises
    ------
    InvalidInputError
        A record of another experiment, or two different records of one fit; the message
        names the journal, the line(s) and what to do. ``out`` is named as unchanged.

    Warns
    -----
    UserWarning
        Lines that are not records (named by number) are skipped; their fits are redone.
    """
    if not path.exists():
        return []
    records, corrupt, seen = {}, [], {}
    lines = path.read_bytes().split(b"\n")
    # The last piece is empty, or a line torn by a killed process: that fit is redone.
    for number, line in enumerate(lines[:-1], start=1):
        try:
            record = json.loads(line.decode("utf-8"))
        except ValueError:  # undecodable bytes or not JSON
            record = None
        if not is_record(record):
            corrupt.append(number)
            continue
        row = record["row"]
        why = experiment.foreign(row)
        if why is not None:
            raise InvalidInputError(
                f"line {number} of the journal {path} is {why}: this experiment did not write "
                f"it. Move the journal away or delete that line, then run again ({out} is "
                "unchanged).")
        key = tuple(row[k] for k in KEY)
        result = _result(record)
        if key in seen and seen[key][1] != result:
            first = seen[key][0]
            task, model, run, fold = key
            raise InvalidInputError(
                f"lines {first} and {number} of the journal {path} both hold the fit of model "
                f"{model!r} on data set {task!r}, run {run}, fold {fold}, with different "
                "results: which one is right cannot be told. Delete the wrong line (or move "
                f"the journal away to compute the fit again), then run again ({out} is "
                "unchanged).")
        seen[key] = (number, result)
        records[key] = record
    if corrupt:
        shown = ", ".join(map(str, corrupt[:10])) + (", ..." if len(corrupt) > 10 else "")
        warnings.warn(
            f"skipped {len(corrupt)} corrupt line(s) of the journal {path} (line "
            f"{shown}); those fits are computed again.", OutperformWarning, stacklevel=6)
    return list(records.values())
