"""Loader of the 10 x 10-fold CV accuracies of 5 classifiers on the UCI data sets.

The file (Benavoli, Corani, Demšar & Zaffalon 2017, as distributed with the baycomp
documentation) has five blocks: a line with the classifier name (nbc, aode, hnb, j48,
j48gr), then one line per data set, ``<dataset> <100 accuracies in percent>``, the 100
values being 10 runs of 10-fold cross-validation, run by run. Folds are the same for all
classifiers, so the scores are paired by (task, run, fold).
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, OutperformWarning

N_RUNS = 10
N_FOLDS = 10


def _parse_blocks(lines: list[str], path
                  ) -> tuple[dict[str, list[tuple[str, np.ndarray]]], list[str]]:
    """Lines (data set, scores) by classifier in file order, and which lines repeat an
    earlier line of the same classifier exactly."""
    blocks: dict[str, list[tuple[str, np.ndarray]]] = {}
    duplicates: list[str] = []
    model = None
    for lineno, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) == 1:
            model = fields[0]
            if model in blocks:
                raise InvalidInputError(
                    f"{path}:{lineno}: classifier block {model!r} appears twice."
                )
            blocks[model] = []
            continue
        if model is None:
            raise InvalidInputError(
                f"{path}:{lineno}: data line before any classifier name line."
            )
        task, values = fields[0], fields[1:]
        if len(values) != N_RUNS * N_FOLDS:
            raise InvalidInputError(
                f"{path}:{lineno}: {task!r} has {len(values)} values, expected "
                f"{N_RUNS * N_FOLDS} (10 runs of 10-fold CV)."
            )
        try:
            scores = np.array(values, dtype=float)
        except ValueError:
            raise InvalidInputError(f"{path}:{lineno}: non-numeric accuracy on {task!r}.") from None
        previous = dict(blocks[model]).get(task)
        if previous is not None:
            if not np.array_equal(previous, scores):
                raise InvalidInputError(
                    f"{path}:{lineno}: data set {task!r} appears twice in block {model!r} "
                    "with different values; cannot tell which one is right."
                )
            duplicates.append(f"{task} ({model}, line {lineno})")
        blocks[model].append((task, scores))
    return blocks, duplicates


def load_uci54_arrays(path, *, keep_duplicates: bool = False, as_fraction: bool = False
                      ) -> dict[str, tuple[list[str], np.ndarray]]:
    """The file's blocks as ``{classifier: (data set names, scores of shape (q, 100))}``.

    Parameters
    ----------
    path : str or Path
    keep_duplicates : bool
        Keep the exact duplicate lines (the published ``credit`` line, so q = 54): the
        numbers published with baycomp were computed on all 54 lines. By default they are
        dropped with a ``UserWarning`` (q = 53).
    as_fraction : bool
        Divide the accuracies (percent) by 100.

    Raises
    ------
    InvalidInputError
        Malformed file (see :func:`load_uci54`).
    """
    path = Path(path)
    blocks, duplicates = _parse_blocks(path.read_text().splitlines(), path)
    if not blocks:
        raise InvalidInputError(f"{path}: no classifier block found.")
    if duplicates and not keep_duplicates:
        warnings.warn(
            f"{path}: dropped {len(duplicates)} line(s) that exactly repeat an earlier line of "
            f"the same classifier: {', '.join(duplicates)}. The published file lists the "
            "'credit' data set twice.", OutperformWarning, stacklevel=3)
        blocks = {m: list(dict(rows).items()) for m, rows in blocks.items()}
    divisor = 100.0 if as_fraction else 1.0
    return {m: ([t for t, _ in rows], np.stack([v for _, v in rows]) / divisor)
            for m, rows in blocks.items()}


def load_uci54(path, *, as_fraction: bool = False) -> pd.DataFrame:
    """Read ``uci54_10x10cv_accuracies.txt`` into the tidy table of DESIGN.md.

    The ``credit`` line appears twice in every block of the published file with identical
    values; each exact duplicate line is dropped with a ``UserWarning`` (so 53 distinct data
    sets remain). Two lines of the same data set with different values raise an error.

    Parameters
    ----------
    path : str or Path
        Location of the file (``../shared/data/uci54_10x10cv_accuracies.txt``).
    as_fraction : bool
        If True, scores are divided by 100 (accuracy in [0, 1]); by default they are in
        percent as in the file.

    Returns
    -------
    pandas.DataFrame
        Columns ``task`` (data set), ``model`` (classifier), ``run`` (0-9), ``fold`` (0-9),
        ``score`` (accuracy, higher is better); one row per (model, task, run, fold), in file
        order.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    InvalidInputError
        Malformed file: a line without 100 values, non-numeric values, data before a
        classifier line, a repeated block, conflicting duplicate lines, or classifiers that
        cover different data sets.

    Examples
    --------
    >>> import io, warnings
    >>> text = "m1\\nd1 " + " ".join(["90"] * 100) + "\\nm2\\nd1 " + " ".join(["80"] * 100)
    >>> p = getfixture("tmp_path") / "tiny.txt"
    >>> _ = p.write_text(text)
    >>> df = load_uci54(p, as_fraction=True)
    >>> df.shape, df.groupby("model")["score"].mean().round(2).to_dict()
    ((200, 5), {'m1': 0.9, 'm2': 0.8})
    """
    path = Path(path)
    arrays = load_uci54_arrays(path, as_fraction=as_fraction)
    tasks = next(iter(arrays.values()))[0]
    for model, (names, _) in arrays.items():
        if set(names) != set(tasks):
            missing = sorted(set(tasks) ^ set(names))
            raise InvalidInputError(
                f"{path}: classifier {model!r} does not cover the same data sets as the "
                f"others (differs on {missing[:5]}); the scores would not be paired."
            )
    frames = []
    for model, (names, values) in arrays.items():
        scores = values[[names.index(t) for t in tasks]]
        frames.append(pd.DataFrame({
            "task": np.repeat(tasks, N_RUNS * N_FOLDS),
            "model": model,
            "run": np.tile(np.repeat(np.arange(N_RUNS), N_FOLDS), len(tasks)),
            "fold": np.tile(np.arange(N_FOLDS), N_RUNS * len(tasks)),
            "score": scores.ravel(),
        }))
    return pd.concat(frames, ignore_index=True)
