"""Inspect AI evaluation logs (``.eval`` and ``.json``), read through ``inspect_ai.log``.

One row per sample x epoch x scorer. Scores become numbers by Inspect's own conventions,
``inspect_ai.scorer.value_to_float``: "C" (correct) 1, "I" (incorrect) 0, "P" (partial) 0.5,
"N" (no answer) 0, "yes"/"true" 1, "no"/"false" 0, numbers as themselves. A scorer whose
value is a dictionary gives one metric per key (``scorer/key``). Values Inspect itself maps
to 0 with only a logged warning (other text, lists) are not counted as 0 here: a scorer
with only such values is left out (``EvalRun.unusable``), one that mixes them with numbers is
refused, since a wrong score in silence would bias the comparison. Fields read (inspect_ai 0.3.285, ``inspect_ai/log/
_log.py``): ``EvalLog.eval`` (``task``, ``task_version``, ``model``, ``model_args``,
``model_generate_config``, ``task_args``, ``solver``, ``packages``) and ``EvalLog.samples``
(``id``, ``epoch``, ``input``, ``target``, ``metadata``, ``scores``).
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..._validation import InvalidInputError, require
from .._files import _is_number
from ._schema import EvalRun, tidy

SUFFIXES = (".eval", ".json")
_WORDS = ("yes", "no", "true", "false")
# GenerateConfig fields that change how a run is executed, not what the model answers: two
# runs of one model may differ in them.
OPERATIONAL = frozenset({"max_retries", "timeout", "attempt_timeout", "stream_idle_timeout",
                         "max_connections", "adaptive_connections", "cache", "batch",
                         "extra_headers", "cache_prompt", "fallback_models"})


def is_inspect(path: Path) -> bool:
    """Whether ``path`` looks like an Inspect log (``.eval``, or ``.json`` with ``"eval"``)."""
    if path.suffix == ".eval":
        return True
    if path.suffix != ".json":
        return False
    with open(path, "rb") as f:
        head = f.read(4096)
    # inspect_ai/log/_file.py writes the JSON log as {"version": ..., "status": ..., "eval": ...}
    return (head.lstrip().startswith(b"{") and all(k in head for k in
                                                 (b'"version"', b'"status"', b'"eval"')))


def read_inspect(path: Path, *, cluster_by: str | None = None):
    """Read one Inspect log into tidy rows.

    Returns
    -------
    (DataFrame, EvalRun, str)
        The rows, the run's provenance and the default metric (the first scorer).

    Raises
    ------
    MissingDependencyError
        inspect_ai is not installed (``pip install 'outperform[inspect]'``).
    InvalidInputError
        A log without samples; a scorer mixing numbers and values that are not numbers by
        Inspect's conventions;
        ``cluster_by`` not a metadata field of every sample.
    """
    read_eval_log = require("inspect_ai.log", "reading Inspect logs").read_eval_log
    value_to_float = require("inspect_ai.scorer", "reading Inspect logs").value_to_float

    try:
        log = read_eval_log(str(path))
    except (ValueError, KeyError, OSError) as exc:   # pydantic's ValidationError is a ValueError
        raise InvalidInputError(f"{path}: not a readable Inspect log ({str(exc)[:200]}).") \
            from None
    spec = log.eval
    if not log.samples:
        raise InvalidInputError(f"{path}: the Inspect log has no samples (status "
                                f"{log.status!r}); run the eval with samples logged.")
    to_float = value_to_float()
    cols = {c: [] for c in ("example", "epoch", "metric", "score", "cluster", "content")}
    for sample in log.samples:
        content = _content(sample)
        cluster = _cluster(sample, cluster_by, path)
        for scorer, score in (sample.scores or {}).items():
            for metric, value in _values(scorer, score.value):
                cols["example"].append(sample.id)
                cols["epoch"].append(sample.epoch)
                cols["metric"].append(metric)
                cols["score"].append(_number(value, to_float))
                cols["cluster"].append(cluster)
                cols["content"].append(content)
    if not cols["metric"]:
        raise InvalidInputError(f"{path}: no sample of the Inspect log has a score.")
    n = len(cols["metric"])
    cols.update(task=[spec.task] * n, model=[spec.model] * n, prompt=[None] * n)
    generate = {k: v for k, v in spec.model_generate_config.model_dump(exclude_none=True).items()
                if k not in OPERATIONAL}
    settings = {"model_args": {k: v for k, v in spec.model_args.items() if v is not None},
                "model_base_url": spec.model_base_url, **generate}
    prompt = {"task_args": spec.task_args, "solver": spec.solver,
              "solver_args": spec.solver_args}
    rows, unusable = tidy(cols, str(path))
    run = EvalRun(harness="inspect", unusable=unusable, harness_version=spec.packages.get("inspect_ai"),
                  file=str(path), model=spec.model, task=spec.task,
                  task_version=str(spec.task_version),
                  settings={k: v for k, v in settings.items() if v is not None},
                  prompt={k: v for k, v in prompt.items() if v})
    return rows, run, cols["metric"][0]


def _values(scorer: str, value):
    if isinstance(value, dict):
        return [(f"{scorer}/{k}", v) for k, v in value.items()]
    return [(scorer, value)]


def _number(value, to_float):
    """Inspect's float of a score value; the value itself (not a number, so refused or left
    out by ``tidy``) where Inspect would log a warning and count it as 0."""
    known = (isinstance(value, (int, float, bool)) or value in ("C", "I", "P", "N")
             or (isinstance(value, str) and (value.lower() in _WORDS or _is_number(value))))
    return to_float(value) if known else value


def _content(sample) -> str:
    """A hash of what was asked and the expected answer: the same item for every model."""
    if isinstance(sample.input, str):
        text = sample.input
    else:
        text = "\n".join(f"{m.role}: {m.text}" for m in sample.input)
    target = sample.target if isinstance(sample.target, str) else json.dumps(sample.target)
    return hashlib.sha256(f"{text}\x00{target}".encode("utf-8")).hexdigest()


def _cluster(sample, field: str | None, path: Path):
    if field is None:
        return None
    meta = sample.metadata or {}
    if field not in meta:
        raise InvalidInputError(f"{path}: sample {sample.id!r} has no metadata field {field!r} "
                                f"to cluster by; its fields are {sorted(meta)}.")
    return str(meta[field])
