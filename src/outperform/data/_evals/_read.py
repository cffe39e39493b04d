"""``read_eval_logs``: any mix of evaluation logs into one tidy table, format detected."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pandas as pd

from ..._validation import InvalidInputError, check_choice
from ._helm import is_helm, read_helm, unfinished_helm
from ._hf_details import is_hf_details, read_hf_details
from ._inspect import is_inspect, read_inspect
from ._lm_eval import (RESULTS, SAMPLES, is_lm_eval, is_old_samples, read_lm_eval,
                       samples_of_results)
from ._long import TABLE_SUFFIXES, read_long
from ..._deprecation import renamed
from ._schema import EvalLogs, EvalRun, concat

FORMATS = ("auto", "lm-eval", "inspect", "helm", "hf-details", "csv")
READERS = {"lm-eval": read_lm_eval, "inspect": read_inspect, "helm": read_helm,
           "hf-details": read_hf_details}


@renamed(cluster_by="cluster")
def read_eval_logs(paths, *, format: str = "auto", cluster: str | None = None) -> EvalLogs:
    """Read evaluation logs of several models into one tidy table with their provenance.

    Parameters
    ----------
    paths : str, Path, DataFrame or sequence of them
        Log files or folders (searched recursively): lm-evaluation-harness samples of any
        version since 0.4.0 (``samples_<task>_<date>.jsonl`` or ``.json`` with its
        ``results_<date>.json`` beside it, or before 0.4.3 ``<model_args>_<task>.jsonl``
        with ``results.json``; a results file stands for its samples), Inspect AI
        ``.eval``/``.json`` logs, HELM run folders (``per_instance_stats.json`` and
        ``run_spec.json``, with ``scenario_state.json`` if kept; a run named
        ``<scenario>:...,model=<m>`` is task ``<scenario>:...`` of model ``m``; a folder
        with ``run_spec.json`` and no per-instance stats is skipped with a warning),
        Hugging Face evaluation details (lighteval's and the Open LLM Leaderboard's
        ``details_<task>_<date>.parquet``, model from the folders; see
        :mod:`outperform.data._evals._hf_details`), or a long table (CSV/Parquet/DataFrame with ``model, [task,] item, score[, cluster][,
        epoch]``).
    format : {"auto", "lm-eval", "inspect", "helm", "hf-details", "csv"}
        ``"auto"`` recognises each file by its name and content.
    cluster : str, optional
        Field that groups items (a passage, a conversation): a field of lm-eval's ``doc``,
        of Inspect's sample ``metadata``, HELM's ``sub_split`` or ``extra_data``, or a column
        of the table. Default: no clusters (a table's ``cluster`` column if present).
        ``cluster_by=`` is its deprecated name (one release).

    Returns
    -------
    EvalLogs
        ``scores`` (task, model, metric, example, epoch, score, cluster, content, prompt),
        ``runs`` (provenance), ``default_metric`` per task, ``warnings``.

    Raises
    ------
    InvalidInputError
        No log found; a file of unknown format; a score that is not a number, or outside
        the range its metric's name fixes (``acc`` not 0/1, an exact match outside [0, 1]);
        an example id twice in one run; one model name for runs with different settings
        (names the field); the same model and task in two runs.
    ModuleNotFoundError
        An Inspect log without inspect_ai installed (``pip install 'outperform[inspect]'``).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"model": ["a", "a", "b", "b"], "task": "qa",
    ...                       "item": [1, 2, 1, 2], "score": [1, 0, 1, 1]})
    >>> logs = read_eval_logs(table)
    >>> logs.models, logs.tasks, logs.scores["score"].tolist()
    (('a', 'b'), ('qa',), [1.0, 0.0, 1.0, 1.0])
    """
    check_choice(format, "format", FORMATS)
    items = paths if isinstance(paths, (list, tuple)) else [paths]
    frames, runs, defaults, skipped = [], [], {}, []
    for kind, source in _sources(items, format, skipped):
        if kind == "csv":
            rows, found, first = read_long(source, cluster_by=cluster)
            runs.extend(found)
            for task, metric in first.items():
                defaults.setdefault(task, metric)
        else:
            rows, run, metric = READERS[kind](Path(source), cluster_by=cluster)
            runs.append(run)
            # the harness's first metric, unless it had no number per item (left out)
            defaults.setdefault(run.task, metric if metric not in run.unusable
                                else rows["metric"].iloc[0] if len(rows) else metric)
        _check_duplicates(rows, source)
        frames.append(rows)
    if not frames:
        shown = [str(p) if not isinstance(p, pd.DataFrame) else "<DataFrame>" for p in items]
        raise InvalidInputError(f"no evaluation log found in {shown}: give "
                                "lm-eval samples_*.jsonl, Inspect .eval/.json logs, HELM run "
                                "folders, Hugging Face details_*.parquet or a CSV/Parquet "
                                "table of per-item scores."
                                + "".join(" " + s for s in skipped))
    _check_models(runs)
    scores = concat(frames)
    return EvalLogs(scores=scores, runs=tuple(runs), default_metric=defaults,
                    warnings=tuple(skipped) + tuple(_differences(runs)))


def is_eval_log(path) -> bool:
    """Whether ``path`` is an evaluation log, or a folder holding one (not a plain table)."""
    path = Path(path)
    if path.is_dir():
        return is_helm(path) or any(_is_log_file(p) for p in path.rglob("*") if p.is_file())
    return path.exists() and _is_log_file(path)


def _is_log_file(path: Path) -> bool:
    return (is_lm_eval(path) or path.suffix == ".eval" or is_helm(path)
            or is_hf_details(path) or (path.suffix == ".json" and is_inspect(path)))


def _sources(items, format, skipped: list):
    """(kind, source) of every log among ``items``, folders searched recursively; why a
    HELM run folder found is not read goes to ``skipped``."""
    for item in items:
        if isinstance(item, pd.DataFrame):
            yield "csv", item
            continue
        path = Path(item)
        if not path.exists():
            raise InvalidInputError(f"{path} does not exist.")
        if path.is_dir() and not (format in ("auto", "helm") and is_helm(path)):
            found = sorted(p for p in (path, *path.rglob("*")) if p.is_file() or is_helm(p)
                           or (format in ("auto", "helm") and unfinished_helm(p)))
            for p in found:
                why = unfinished_helm(p) if format in ("auto", "helm") else None
                if why:
                    skipped.append(why)
                    continue
                yield from _classify(p, format, quiet=True)
        else:
            yield from _classify(path, format, quiet=False)


def _classify(path: Path, format: str, *, quiet: bool):
    if (format in ("auto", "helm")) and is_helm(path):
        if path.is_dir() or not quiet:  # in a folder walk, the run folder stands for its stats
            yield "helm", path
        return
    if path.is_dir():
        return
    if format in ("auto", "lm-eval"):
        if SAMPLES.match(path.name) or is_old_samples(path):
            yield "lm-eval", path
            return
        results = RESULTS.match(path.name)
        if results or (not quiet and path.suffix == ".json" and samples_of_results(path)):
            if not quiet:  # a results file given by name stands for its samples files
                found = samples_of_results(path)
                if not found:
                    raise InvalidInputError(f"{path}: no samples_<task>_{results['date']}.jsonl "
                                            "beside it; run lm-eval with --log_samples.")
                yield from (("lm-eval", p) for p in found)
            return
    if format in ("auto", "hf-details") and is_hf_details(path):
        yield "hf-details", path
        return
    if format == "hf-details" and path.suffix == ".parquet" and not quiet:
        yield "hf-details", path
        return
    if format in ("auto", "inspect") and path.suffix in (".eval", ".json") and is_inspect(path):
        yield "inspect", path
        return
    if format in ("auto", "csv") and path.suffix.lower() in TABLE_SUFFIXES:
        yield "csv", path
        return
    if not quiet:
        raise InvalidInputError(f"{path}: not an evaluation log of format {format!r}; give "
                                "--format lm-eval, inspect, helm, hf-details or csv.")


def _check_duplicates(rows: pd.DataFrame, source) -> None:
    keys = ["task", "model", "metric", "example", "epoch"]
    dup = rows.duplicated(keys)
    if dup.any():
        ids = list(dict.fromkeys(rows.loc[dup, "example"]))
        raise InvalidInputError(f"{source if isinstance(source, (str, Path)) else 'the table'}: "
                                f"{len(ids)} example id(s) appear more than once for one model, "
                                f"task, metric and epoch, first {ids[:5]}; sample ids must be "
                                "unique.")


def _check_models(runs: list[EvalRun]) -> None:
    """One model name, one configuration; one run per (model, task)."""
    by_model = defaultdict(list)
    for run in runs:
        by_model[run.model].append(run)
    for model, found in by_model.items():
        first = found[0]
        for other in found[1:]:
            fields = sorted(k for k in set(first.settings) | set(other.settings)
                            if first.settings.get(k) != other.settings.get(k))
            if fields:
                raise InvalidInputError(
                    f"model {model!r} appears in two runs with different settings "
                    f"({', '.join(fields)}: {first.settings.get(fields[0])!r} in {first.file} vs "
                    f"{other.settings.get(fields[0])!r} in {other.file}); they are different "
                    "models for a comparison: rename one or give only one run.")
        tasks = [r.task for r in found]
        twice = sorted({t for t in tasks if tasks.count(t) > 1})
        if twice:
            files = [r.file for r in found if r.task == twice[0]]
            raise InvalidInputError(f"model {model!r} has task {twice[0]!r} in several runs "
                                    f"({', '.join(files)}); give one run per model and task.")


def _differences(runs: list[EvalRun]) -> list[str]:
    """Warnings for task versions and prompt settings that differ between models."""
    out = []
    by_task = defaultdict(list)
    for run in runs:
        by_task[run.task].append(run)
    for task, found in by_task.items():
        fields = {"task_version": {r.model: r.task_version for r in found}}
        for key in {k for r in found for k in r.prompt}:
            fields[key] = {r.model: r.prompt.get(key) for r in found}
        for field, values in sorted(fields.items()):
            if len({repr(v) for v in values.values()}) > 1:
                shown = ", ".join(f"{m}: {v!r}" for m, v in values.items())
                out.append(f"task {task!r}: the runs differ in {field} ({shown}); the models "
                           "were not evaluated on the same task, so the comparison mixes the "
                           "models with that difference.")
    return out
