"""lm-evaluation-harness ``--log_samples`` output, every layout since 0.4.0.

What each version writes (``lm_eval/evaluator.py`` builds the samples, the writer is
``lm_eval/__main__.py`` up to 0.4.2 and ``lm_eval/loggers/evaluation_tracker.py`` after):

- 0.4.0-0.4.2: ``results.json`` (or the ``--output_path`` file) and, beside it, one JSON
  *array* (``indent=2``) per task named ``<model_args with / and = as __>_<task>.jsonl``;
  a sample holds ``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``,
  ``filtered_resps`` and one field per metric, nothing else;
- main of May-June 2024 (after 0.4.2): ``<model_name_sanitized>/results_<date>.json`` and
  ``samples_<task>_<date>.json``, first a JSON array, then JSON lines; samples gain the
  SHA-256 ``doc_hash``, ``prompt_hash`` and ``target_hash``;
- 0.4.3-0.4.6: the same as JSON lines named ``samples_<task>_<date>.jsonl``;
- 0.4.7 on: samples also name their ``filter`` and their ``metrics``; from 0.4.9 an
  ``--output_path`` ending in ``.json`` gives ``<stem>_<date>.json`` for the results.

Before 0.4.7 a task with several filters (``strict-match`` and ``flexible-extract``) logs
every document once per filter, filter after filter, with nothing naming the filter: the k-th
sample of a document is that of the k-th filter in the order of the results file's
``"<metric>,<filter>"`` keys (both come from the same loop over the filters), and the metric
fields are the sample's fields other than those above. A metric is named as lm-eval names it
in the results: ``"<metric>,<filter>"`` (``acc,none``, ``exact_match,strict-match``).
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pandas as pd

from ..._validation import InvalidInputError
from ._schema import EvalRun, categorical, tidy

SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl?$")
RESULTS = re.compile(r"^results_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.json$")
# The start of a JSON array of samples (0.4.0-0.4.2 and the first samples_*.json), and of
# a results file (``json.dumps(results, indent=2)``, "results" its first key in every version).
_ARRAY = re.compile(rb'\s*\[\s*\{\s*"doc_id"\s*:')
_RESULTS_HEAD = re.compile(rb'\s*\{\s*"results"\s*:')
# Logged settings that define what a model run was; two runs of one model must agree on them.
MODEL_SETTINGS = ("model", "model_args", "model_dtype", "model_revision", "model_sha",
                  "gen_kwargs")
TRACKER_SETTINGS = ("system_instruction_sha", "chat_template_sha", "fewshot_as_multiturn")
HASHES = ("doc_hash", "prompt_hash", "target_hash")
# The fields of a sample that are not metrics (lm_eval/evaluator.py, 0.4.0 to 0.4.13).
FIELDS = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps",
                    "filter", "metrics", *HASHES})


def is_lm_eval(path: Path) -> bool:
    """Whether ``path`` is an lm-eval samples or results file (any version since 0.4.0)."""
    return bool(SAMPLES.match(path.name) or RESULTS.match(path.name)) or is_old_samples(path)


def is_old_samples(path: Path) -> bool:
    """Whether ``path`` is a samples file of lm-eval 0.4.0-0.4.2 (a JSON array of samples in
    ``<model_args>_<task>.jsonl``)."""
    if path.suffix not in (".jsonl", ".json") or SAMPLES.match(path.name) or not path.is_file():
        return False
    with open(path, "rb") as f:
        return bool(_ARRAY.match(f.read(256)))


def samples_of_results(path: Path) -> list[Path]:
    """The samples files a results file of lm-eval stands for (given by name): those of its
    date, or for a 0.4.0-0.4.2 ``results.json`` the ``<model_args>_<task>.jsonl`` of its
    tasks; empty when it is not an lm-eval results file."""
    match = RESULTS.match(path.name)
    if match:
        return [p for p in sorted(path.parent.glob(f"samples_*_{match['date']}.json*"))
                if SAMPLES.match(p.name)]
    data = _results_like(path)
    if data is None:
        return []
    return [p for p in sorted(path.parent.glob("*.json*"))
            if p != path and is_old_samples(p) and _old_task(p, data) is not None]


def read_lm_eval(path: Path, *, cluster_by: str | None = None):
    """Read one samples file (with its results file, if present) into tidy rows.

    Returns
    -------
    (DataFrame, EvalRun, str)
        The rows, the run's provenance and the default metric (first metric, first filter).

    Raises
    ------
    InvalidInputError
        A line that is not JSON or lacks ``doc_id``/``metrics``; ``cluster_by`` not a field of
        every document; a results file that is not JSON.
    """
    match = SAMPLES.match(path.name)
    if match is not None:
        task = match["task"]
        results = _results(_results_path(path, match["date"]))
    elif is_old_samples(path):
        task, results = _old_results(path)
    else:
        raise InvalidInputError(f"{path}: not an lm-eval samples file "
                                "(samples_<task>_<date>.jsonl, or <model_args>_<task>.jsonl "
                                "with results.json beside it before 0.4.3).")
    cols = ((_arrow_columns(path, cluster_by) if match is not None else None)
            or _json_columns(path, cluster_by, _filters(results, task)))
    first = cols.pop("first")
    if first.split(",")[0] == "bypass" and {str(m).split(",")[0]
                                            for m in pd.unique(cols["metric"])} == {"bypass"}:
        raise InvalidInputError(f"{path}: written by lm-eval --predict_only: its samples hold "
                                "the model's outputs and no score (the placeholder metric "
                                "'bypass' = 999); score them (lm-eval without --predict_only) "
                                "before comparing.")
    model = _model_name(results, path)
    cols.update(task=task, model=model, epoch=1)
    config = results.get("config", {})
    settings = {k: config[k] for k in MODEL_SETTINGS if k in config}
    settings.update({k: results[k] for k in TRACKER_SETTINGS if k in results})
    prompt = {"n-shot": results.get("n-shot", {}).get(task),
              "system_instruction_sha": results.get("system_instruction_sha"),
              "fewshot_as_multiturn": results.get("fewshot_as_multiturn")}
    version = results.get("versions", {}).get(task)
    rows, unusable = tidy(cols, str(path))
    run = EvalRun(harness="lm-eval", unusable=unusable, harness_version=_version(results),
                  file=str(path), model=model, task=task,
                  task_version=None if version is None else str(version), settings=settings,
                  prompt={k: v for k, v in prompt.items() if v is not None})
    return rows, run, first


def _arrow_columns(path: Path, cluster_by: str | None) -> dict | None:
    """The rows of a samples file parsed by pyarrow's JSON reader, or None to fall back.

    Only the fields the comparison needs are parsed (an explicit schema, the large ``doc``,
    ``arguments`` and ``resps`` skipped in C++), which makes 10^5 samples fast. Any surprise
    (a metric that is not a number, samples with different metrics, a field of another type)
    returns None, and the plain JSON path reads the file and reports what is wrong.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
    except ImportError:  # pragma: no cover - pyarrow is a dependency of pandas' Parquet I/O
        return None
    with open(path, "rb") as f:
        try:
            first = json.loads(f.readline())
        except json.JSONDecodeError:
            return None
    names = first.get("metrics") if isinstance(first, dict) else None
    if (not isinstance(names, list) or not names or "doc_id" not in first
            or not all(type(first.get(n)) in (int, float) for n in names)):
        return None
    ids = pa.int64() if type(first["doc_id"]) is int else pa.string()
    fields = [("doc_id", ids), ("filter", pa.string()), ("metrics", pa.list_(pa.string()))]
    fields += [(h, pa.string()) for h in HASHES]
    fields += [(n, pa.float64()) for n in names]
    if cluster_by is not None:
        fields.append(("doc", pa.struct([(cluster_by, pa.string())])))
    try:
        table = pj.read_json(path, parse_options=pj.ParseOptions(
            explicit_schema=pa.schema(fields), unexpected_field_behavior="ignore"))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return None
    table = table.combine_chunks()
    valid = [pc.is_valid(table[n]) for n in names]
    counted = valid[0].cast(pa.int32())
    for v in valid[1:]:
        counted = pc.add(counted, v.cast(pa.int32()))
    if (table["doc_id"].null_count or table["filter"].null_count
            or not pc.all(pc.equal(pc.list_value_length(table["metrics"]), counted)).as_py()):
        return None
    text = {"example": table["doc_id"].cast(pa.string()), "prompt": table["prompt_hash"]}
    if cluster_by is not None:
        text["cluster"] = pc.struct_field(table["doc"], [0])
        if text["cluster"].null_count:
            return None
    if table["doc_hash"].null_count == 0:
        text["content"] = pc.binary_join_element_wise(table["doc_hash"], table["target_hash"],
                                                      ":")
    # Text as categories, encoded once per file (not once per metric) in C++: the pairing
    # then works on integer codes. Each metric's rows take the codes of their samples.
    codes = {c: _single(pc.dictionary_encode(v)) for c, v in text.items()}
    filters = _single(pc.dictionary_encode(table["filter"]))
    every = all(v.null_count == 0 for v in (_single(table[n]) for n in names))
    parts = {c: [] for c in (*codes, "metric", "score")}
    for k, (name, keep) in enumerate(zip(names, valid)):
        def take(a):
            return a if every else a.filter(keep)   # the samples that have this metric

        for c, d in codes.items():
            parts[c].append(take(d.indices))
        parts["metric"].append(pc.add(take(filters.indices), k * len(filters.dictionary)))
        parts["score"].append(take(_single(table[name])))
    dictionaries = {c: d.dictionary for c, d in codes.items()}
    dictionaries["metric"] = pa.concat_arrays([
        pc.binary_join_element_wise(n, filters.dictionary, ",") for n in names])
    out = {"score": pa.concat_arrays(parts.pop("score")).to_pandas()}
    for c, v in parts.items():
        column = categorical(pa.concat_arrays(v), dictionaries[c])
        out[c] = column if every and c != "metric" else column.remove_unused_categories()
    out["first"] = f"{names[0]},{first.get('filter', 'none')}"
    return out


def _single(column):
    """The one chunk of a combined column (an empty array for an empty table)."""
    return column.chunk(0) if column.num_chunks else column.combine_chunks()


def _json_columns(path: Path, cluster_by: str | None, filters: list[str]) -> dict:
    """The rows of a samples file parsed sample by sample (any layout lm-eval wrote).

    ``filters``: the task's filters in the order of the results file, which names the filter
    of a sample written before 0.4.7 (the k-th sample of a document is the k-th filter's).
    """
    cols = {c: [] for c in ("example", "metric", "score", "cluster", "content", "prompt")}
    first = None
    seen = Counter()
    for where, s in _samples(path):
        try:
            doc_id = s["doc_id"]
            names = s["metrics"] if "metrics" in s else [k for k in s if k not in FIELDS]
            if "filter" in s:
                key = s["filter"]
            else:
                key = _old_filter(filters, seen, doc_id, path, where)
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"{path}, {where}: not an lm-eval sample "
                                    f"(needs doc_id and metric fields): {exc}") from None
        cluster = _cluster(s, cluster_by, path, where)
        content = f"{s.get('doc_hash')}:{s.get('target_hash')}" if "doc_hash" in s else None
        for name in names:
            metric = f"{name},{key}"
            first = first or metric
            cols["example"].append(doc_id)
            cols["metric"].append(metric)
            cols["score"].append(s.get(name))
            cols["cluster"].append(cluster)
            cols["content"].append(content)
            cols["prompt"].append(s.get("prompt_hash"))
    if first is None:
        raise InvalidInputError(f"{path}: no samples with a metric.")
    cols["first"] = first
    return cols


def _old_filter(filters, seen, doc_id, path, where) -> str:
    """The filter of a sample written before 0.4.7: the k-th of its document's samples is
    the k-th filter's."""
    k = seen[doc_id]
    seen[doc_id] += 1
    if k < len(filters):
        return filters[k]
    raise InvalidInputError(
        f"{path}, {where}: doc_id {doc_id!r} appears {k + 1} times, but the results file "
        f"beside it names {len(filters)} filter(s) {filters}: the samples (written before "
        "lm-eval 0.4.7, without a filter field) cannot be told apart; give the results file "
        "of this run beside its samples.")


def _samples(path: Path):
    """(where, sample) of a samples file: JSON lines, or one JSON array."""
    with open(path, encoding="utf-8") as f:
        head = f.read(256)
        f.seek(0)
        if head.lstrip().startswith("["):
            try:
                items = json.load(f)
            except json.JSONDecodeError as exc:
                raise InvalidInputError(f"{path}: not a JSON array of samples ({exc}).") from None
            for number, item in enumerate(items if isinstance(items, list) else [items], 1):
                yield f"sample {number}", item if isinstance(item, dict) else {}
            return
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InvalidInputError(f"{path}, line {number}: not an lm-eval sample "
                                        f"(not JSON: {exc}).") from None
            yield f"line {number}", item if isinstance(item, dict) else {}


def _filters(results: dict, task: str) -> list[str]:
    """The task's filters in the order of its ``"<metric>,<filter>"`` keys in the results
    (``["none"]`` without a results file)."""
    keys = (results.get("results") or {}).get(task) or {}
    found = [k.partition(",")[2] for k in keys
             if isinstance(k, str) and "," in k and "_stderr," not in k]
    return list(dict.fromkeys(found)) or ["none"]


def _results_path(samples: Path, date: str) -> Path:
    """The results file of a samples file: ``results_<date>.json``, or from 0.4.9 with an
    ``--output_path`` ending in ``.json`` the one other ``<stem>_<date>.json`` beside it."""
    path = samples.parent / f"results_{date}.json"
    if path.exists():
        return path
    found = [p for p in samples.parent.glob(f"*_{date}.json") if not SAMPLES.match(p.name)]
    return found[0] if len(found) == 1 else path


def _results_like(path: Path) -> dict | None:
    """The content of an lm-eval results file of any name (``results`` and ``configs``), or
    None."""
    if path.suffix != ".json" or not path.is_file():
        return None
    with open(path, "rb") as f:   # not parsed unless it starts as one (an Inspect log may be large)
        if not _RESULTS_HEAD.match(f.read(64)):
            return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    ok = isinstance(data, dict) and isinstance(data.get("configs"), dict) and "results" in data
    return data if ok else None


def _old_task(path: Path, results: dict) -> str | None:
    """The task a 0.4.0-0.4.2 samples file ``<model_args>_<task>.jsonl`` holds, per
    ``results``; None when the file is not one of its tasks."""
    args = (results.get("config") or {}).get("model_args")
    prefix = re.sub("/|=", "__", args) + "_" if isinstance(args, str) else None
    names = [t for t in results["configs"] if path.stem.endswith("_" + t)
             and (prefix is None or path.stem == prefix + t)]
    return max(names, key=len) if names else None


def _old_results(path: Path) -> tuple[str, dict]:
    """Task and results of a 0.4.0-0.4.2 samples file, from the results JSON beside it."""
    for candidate in sorted(path.parent.glob("*.json")):
        data = None if candidate == path else _results_like(candidate)
        task = None if data is None else _old_task(path, data)
        if task is not None:
            return task, data
    raise InvalidInputError(
        f"{path}: a samples file of lm-eval 0.4.0-0.4.2 (<model_args>_<task>.jsonl) is named "
        "by its task and model only in the results .json written beside it, and none of the "
        f".json files in {path.parent} lists this file's task; put it beside its samples.")


def _results(path: Path) -> dict:
    if not path.exists():  # samples without their results: named by file and folder
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: not a JSON results file ({exc}).") from None


def _version(results: dict) -> str | None:
    """The harness version as logged: ``lm_eval_version`` (0.4.3 on), else the commit
    (``git_hash``) the run used."""
    if results.get("lm_eval_version"):
        return str(results["lm_eval_version"])
    return f"git {results['git_hash']}" if results.get("git_hash") else None


def _model_name(results: dict, path: Path) -> str:
    """The model as lm-eval names it: the tracker's ``model_name`` (``pretrained=`` of the
    model arguments), else the sanitised folder name the samples were written to."""
    name = results.get("model_name")
    if name:
        return str(name)
    args = str(results.get("config", {}).get("model_args") or "")
    found = re.search(r"(?:pretrained|model)=([^,]+)", args)
    return found[1] if found else path.parent.name


def _cluster(sample: dict, field: str | None, path: Path, where: str):
    if field is None:
        return None
    doc = sample.get("doc")
    if not isinstance(doc, dict) or field not in doc:
        keys = sorted(doc) if isinstance(doc, dict) else []
        raise InvalidInputError(f"{path}, {where}: the document has no field {field!r} "
                                f"to cluster by; its fields are {keys}.")
    return str(doc[field])
