"""TensorBoard event files of many runs read into the runs x tasks table with steps.

One folder per run (the folder that holds its ``events.out.tfevents.*`` files); which
model, task and seed it is comes from its path under the log folder, read by a pattern such
as ``"{model}/{task}/{seed}"`` (the default) or ``"{task}__{model}__{seed}__{}"`` (CleanRL's
``runs/{env}__{exp}__{seed}__{time}``). The scalars of one tag become the metric column,
one row per (model, task, run, step), as :func:`outperform.compare.compare_runs` and
:func:`outperform.compare.sample_efficiency` read them.

Events are read by TensorBoard's own ``EventAccumulator`` (no TensorFlow needed), both
kinds of scalar: ``simple_value`` (PyTorch's ``SummaryWriter``, TF1) and the scalar
plugin's tensors (TF2, ``tensorboard.summary.Writer``). Reading needs the ``tensorboard``
extra (``pip install 'outperform[tensorboard]'``).
"""
from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, OutperformWarning, require
from ._columns import MODEL, RUN, STEP, TASK

__all__ = ["read_tensorboard"]

EVENT_GLOB = "events.out.tfevents*"
DEFAULT_PATTERN = "{model}/{task}/{seed}"
#: Fields of a pattern -> the column they fill ({run} and {seed} are both the run).
FIELDS = {"model": MODEL, "task": TASK, "seed": RUN, "run": RUN}
STEPS = ("exact", "common")


def is_tensorboard_logdir(path) -> bool:
    """Whether ``path`` is a folder with TensorBoard event files somewhere under it."""
    path = Path(path)
    return path.is_dir() and next(path.rglob(EVENT_GLOB), None) is not None


def run_folders(logdir: Path) -> list[Path]:
    """The folders under ``logdir`` that hold event files, sorted."""
    return sorted({p.parent for p in logdir.rglob(EVENT_GLOB) if p.is_file()})


def pattern_regex(pattern: str) -> tuple[re.Pattern, list[str]]:
    """The regular expression of a folder pattern and the fields it fills.

    ``{model}``, ``{task}``, ``{seed}`` (or ``{run}``) match one or more characters within a
    path component; ``{}`` matches anything there and is not kept.

    Raises
    ------
    InvalidInputError
        An unknown field, a field twice, no ``{model}``.

    Examples
    --------
    >>> rx, fields = pattern_regex("{task}__{model}__{seed}__{}")
    >>> rx.fullmatch("CartPole-v1__ppo__3__1700000000").groupdict(), fields
    ({'task': 'CartPole-v1', 'model': 'ppo', 'seed': '3'}, ['task', 'model', 'seed'])
    """
    parts = re.split(r"(\{[^{}]*\})", pattern.strip("/"))
    regex, fields = "", []
    for part in parts:
        if part.startswith("{") and part.endswith("}"):
            name = part[1:-1].strip()
            if name == "":
                regex += r"[^/]*?"
                continue
            if name not in FIELDS:
                raise InvalidInputError(
                    f"pattern {pattern!r}: unknown field {{{name}}}; use {{model}}, {{task}}, "
                    "{seed} (or {run}) and {} for a part to skip, e.g. '{model}/{task}/{seed}'.")
            if name in fields or (FIELDS[name] == RUN and any(FIELDS[f] == RUN for f in fields)):
                raise InvalidInputError(f"pattern {pattern!r} names {{{name}}} twice.")
            fields.append(name)
            regex += f"(?P<{name}>[^/]+?)"
        else:
            regex += re.escape(part)
    if "model" not in fields:
        raise InvalidInputError(f"pattern {pattern!r} has no {{model}}: the run folders' paths "
                                "must say which model each run is, e.g. '{model}/{task}/{seed}'.")
    return re.compile(regex), fields


def _scalars(folder: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every scalar tag of one run folder: tag -> (steps, values), in the order written."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from tensorboard.util import tensor_util

    acc = EventAccumulator(str(folder), size_guidance={"scalars": 0, "tensors": 0})
    try:
        acc.Reload()
    except Exception as exc:   # a truncated or foreign file: the reader's own error types
        raise InvalidInputError(f"cannot read the TensorBoard events of {str(folder)!r}: "
                                f"{exc}") from None
    tags = acc.Tags()
    out = {}
    for tag in tags.get("scalars", []):
        events = acc.Scalars(tag)
        out[tag] = (np.array([e.step for e in events], dtype=np.int64),
                    np.array([e.value for e in events], dtype=float))
    for tag in tags.get("tensors", []):
        if acc.SummaryMetadata(tag).plugin_data.plugin_name != "scalars":
            continue
        events = acc.Tensors(tag)
        out[tag] = (np.array([e.step for e in events], dtype=np.int64),
                    np.array([tensor_util.make_ndarray(e.tensor_proto).item() for e in events],
                             dtype=float))
    return out


def read_tensorboard(logdir, *, tag: str | None = None, pattern: str = DEFAULT_PATTERN,
                     steps: str = "exact") -> pd.DataFrame:
    """The scalars of one tag in TensorBoard event files of many runs, as a long table.

    Parameters
    ----------
    logdir : str or Path
        The log folder: one folder per run under it, each holding its event files.
    tag : str, optional
        The scalar to read (``"eval/episodic_return"``); required when the runs hold several.
    pattern : str
        The runs' folder paths under ``logdir``: ``{model}``, ``{task}``, ``{seed}`` (or
        ``{run}``) and ``{}`` for a part to skip, e.g. ``"{model}/{task}/{seed}"`` (the
        default), ``"{task}__{model}__{seed}__{}"`` (CleanRL). Without ``{task}`` the runs are
        one task; without ``{seed}`` each model has one run per task.
    steps : {"exact", "common"}
        ``"exact"``: every run of a model must be scored at the same steps (learning curves
        are compared step by step). ``"common"``: keep the steps that every run of the model
        has, with a warning saying how many points were left out.

    Returns
    -------
    DataFrame
        Columns ``model``, ``task``, ``run``, ``step`` and the tag (float; TensorBoard stores
        scalars as float32), sorted by them; run ids that are all integers are integers.
        ``attrs["provenance"]``: the log folder, tag, pattern and number of runs.

    Raises
    ------
    MissingDependencyError
        TensorBoard is not installed (``pip install 'outperform[tensorboard]'``).
    InvalidInputError
        No event files under ``logdir``; a run folder the pattern does not match; no tag given
        when the runs hold several, or a tag some runs lack (the tags present are named); a
        step logged twice in a run; two folders for one (model, task, run); a model whose runs
        were scored at different steps (with ``steps="exact"``) or share no step.
    """
    require("tensorboard", "reading TensorBoard event files")
    if steps not in STEPS:
        raise InvalidInputError(f"steps must be one of {STEPS}, got {steps!r}.")
    logdir = Path(logdir)
    if not logdir.is_dir():
        raise InvalidInputError(f"{str(logdir)!r} is not a folder of TensorBoard runs.")
    folders = run_folders(logdir)
    if not folders:
        raise InvalidInputError(
            f"no TensorBoard event files (events.out.tfevents.*) under {str(logdir)!r}: give "
            "the log folder the runs were written to (one folder per run).")
    regex, fields = pattern_regex(pattern)
    keys = []
    for folder in folders:
        rel = folder.relative_to(logdir).as_posix()
        match = regex.fullmatch(rel)
        if match is None:
            raise InvalidInputError(
                f"the run folder {rel!r} does not match the pattern {pattern!r}: name the "
                "parts of the runs' paths with pattern= (--pattern), e.g. "
                "'{model}/{task}/{seed}' or '{task}__{model}__{seed}__{}' ({} skips a part).")
        keys.append(match.groupdict())
    scalars = [_scalars(f) for f in folders]
    tag = _the_tag(tag, scalars, folders, logdir)
    frame = _long(keys, [s[tag] for s in scalars], fields, tag, folders, logdir)
    frame = _aligned(frame, tag, steps)
    frame.attrs["provenance"] = {"reader": "tensorboard", "logdir": str(logdir), "tag": tag,
                                 "pattern": pattern, "n_runs": len(folders)}
    return frame


def _the_tag(tag, scalars, folders, logdir) -> str:
    present = sorted({t for s in scalars for t in s})
    if not present:
        raise InvalidInputError(f"the event files under {str(logdir)!r} hold no scalars.")
    if tag is None:
        if len(present) > 1:
            raise InvalidInputError(
                f"the runs log {len(present)} scalar tags: name one with tag= (--tag); tags: "
                f"{', '.join(map(repr, present[:20]))}" + (" ..." if len(present) > 20 else "")
                + ".")
        return present[0]
    lacking = [f for f, s in zip(folders, scalars) if tag not in s]
    if len(lacking) == len(folders):
        raise InvalidInputError(
            f"no run logs the tag {tag!r}; tags present: "
            f"{', '.join(map(repr, present[:20]))}" + (" ..." if len(present) > 20 else "") + ".")
    if lacking:
        raise InvalidInputError(
            f"{len(lacking)} of the {len(folders)} runs do not log the tag {tag!r} (e.g. "
            f"{lacking[0].relative_to(logdir).as_posix()!r}, whose tags are "
            f"{sorted(scalars[folders.index(lacking[0])])}): rerun or remove them.")
    return tag


def _long(keys, series, fields, tag, folders, logdir) -> pd.DataFrame:
    lengths = np.array([len(steps) for steps, _ in series])
    columns = {}
    for name in fields:
        columns[FIELDS[name]] = np.repeat([k[name] for k in keys], lengths)
    columns[STEP] = np.concatenate([steps for steps, _ in series])
    columns[tag] = np.concatenate([values for _, values in series])
    frame = pd.DataFrame(columns)
    if TASK not in frame.columns:
        frame.insert(1, TASK, "task")
    if RUN not in frame.columns:
        frame.insert(2, RUN, 0)
    elif pd.Series(frame[RUN]).str.fullmatch(r"[-+]?\d+").all():
        frame[RUN] = frame[RUN].astype(np.int64)
    frame = frame[[MODEL, TASK, RUN, STEP, tag]]
    run_of = np.repeat(np.arange(len(folders)), lengths)
    twice = frame.duplicated([MODEL, TASK, RUN, STEP], keep=False).to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        owners = sorted({folders[j].relative_to(logdir).as_posix()
                         for j in run_of[twice & (frame[STEP].to_numpy() == frame[STEP].iat[i])]})
        if len(owners) > 1:
            raise InvalidInputError(
                f"the run folders {owners[:3]} are one (model, task, run) "
                f"({frame[MODEL].iat[i]!r}, {frame[TASK].iat[i]!r}, {frame[RUN].iat[i]!r}) "
                "under the pattern: add the part that tells them apart to it (e.g. {seed}).")
        raise InvalidInputError(
            f"the run {owners[0]!r} logs {tag!r} twice at step {int(frame[STEP].iat[i])} "
            "(a restarted run?): keep one of its event files, or delete the repeated steps.")
    return frame.sort_values([MODEL, TASK, RUN, STEP], kind="stable").reset_index(drop=True)


def _aligned(frame: pd.DataFrame, tag: str, steps: str) -> pd.DataFrame:
    """Each model's runs scored at the same steps, or its common steps kept (``"common"``)."""
    curve = [MODEL, TASK, RUN]
    keep = np.ones(len(frame), dtype=bool)
    dropped = []
    for model, part in frame.groupby(MODEL, sort=True, observed=True):
        grids = part.groupby(curve[1:], sort=True, observed=True)[STEP].apply(
            lambda s: tuple(s.to_numpy()))
        if grids.nunique() == 1:
            continue
        common = set.intersection(*(set(g) for g in grids))
        if steps == "exact" or not common:
            first = grids.iat[0]
            at = next(i for i, g in enumerate(grids) if g != first)
            (ta, ra), (tb, rb) = grids.index[0], grids.index[at]
            only = sorted(set(first) ^ set(grids.iat[at]))[:5]
            fix = ("evaluate all runs at the same steps" if not common else
                   "evaluate all runs at the same steps, or keep the steps they all have "
                   "with steps='common' (--steps common)")
            raise InvalidInputError(
                f"the runs of model {model!r} were not scored at the same steps: run {rb} "
                f"on task {tb!r} and run {ra} on task {ta!r} differ at step(s) "
                f"{', '.join(map(str, only))}" + (" (no step is common to all of them)"
                                                  if not common else "") + f": {fix}.")
        out = ~frame[STEP].isin(common).to_numpy() & (frame[MODEL] == model).to_numpy()
        keep &= ~out
        dropped.append(f"{model!r}: {int(out.sum())}")
    if dropped:
        warnings.warn(
            f"the runs were not scored at the same steps: the points at steps not common to "
            f"all runs of a model were left out ({'; '.join(dropped)}).",
            OutperformWarning, stacklevel=3)
        frame = frame[keep].reset_index(drop=True)
    return frame
