"""lm-evaluation-harness ``--log_samples`` output: ``samples_<task>_<date>.jsonl`` files and the
``results_<date>.json`` written beside them.

Layout and fields follow lm-evaluation-harness 0.4.13.dev0 (commit 4e7e0d4):
``lm_eval/evaluator.py`` builds one sample per (document, filter) with ``doc_id``, ``doc``,
``filter``, ``metrics`` (the names of the metric fields), one field per metric and the
SHA-256 ``doc_hash``, ``prompt_hash`` and ``target_hash``; ``lm_eval/loggers/
evaluation_tracker.py`` writes them to ``<output>/<model_name_sanitized>/samples_<task>_<date>
.jsonl`` and the aggregated results (``versions``, ``n-shot``, ``config``, ``model_name``,
``lm_eval_version``, ...) to ``results_<date>.json`` with the same ``<date>``. A metric is
named as lm-eval names it in the results: ``"<metric>,<filter>"`` (``acc,none``,
``exact_match,strict-match``).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..._validation import InvalidInputError
from ._schema import EvalRun, categorical, tidy

SAMPLES = re.compile(r"^samples_(?P<task>.+)_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.jsonl$")
RESULTS = re.compile(r"^results_(?P<date>\d{4}-\d{2}-\d{2}T[\d.\-]+)\.json$")
# Logged settings that define what a model run was; two runs of one model must agree on them.
MODEL_SETTINGS = ("model", "model_args", "model_dtype", "model_revision", "model_sha",
                  "gen_kwargs")
TRACKER_SETTINGS = ("system_instruction_sha", "chat_template_sha", "fewshot_as_multiturn")
HASHES = ("doc_hash", "prompt_hash", "target_hash")


def is_lm_eval(path: Path) -> bool:
    """Whether ``path`` is an lm-eval samples or results file."""
    return bool(SAMPLES.match(path.name) or RESULTS.match(path.name))


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
    if match is None:
        raise InvalidInputError(f"{path}: not an lm-eval samples file "
                                "(samples_<task>_<date>.jsonl).")
    task, date = match["task"], match["date"]
    results = _results(path.parent / f"results_{date}.json")
    cols = _arrow_columns(path, cluster_by) or _json_columns(path, cluster_by)
    first = cols.pop("first")
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
    run = EvalRun(harness="lm-eval", unusable=unusable, harness_version=results.get("lm_eval_version"),
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


def _json_columns(path: Path, cluster_by: str | None) -> dict:
    """The rows of a samples file parsed line by line (any sample the writer can produce)."""
    cols = {c: [] for c in ("example", "metric", "score", "cluster", "content", "prompt")}
    first = None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                s = json.loads(line)
                doc_id, names, key = s["doc_id"], s["metrics"], s.get("filter", "none")
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise InvalidInputError(f"{path}, line {number}: not an lm-eval sample "
                                        f"(needs doc_id, metrics): {exc}") from None
            cluster = _cluster(s, cluster_by, path, number)
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
        raise InvalidInputError(f"{path}: no samples.")
    cols["first"] = first
    return cols


def _results(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: not a JSON results file ({exc}).") from None


def _model_name(results: dict, path: Path) -> str:
    """The model as lm-eval names it: the tracker's ``model_name`` (``pretrained=`` of the
    model arguments), else the sanitised folder name the samples were written to."""
    name = results.get("model_name")
    if name:
        return str(name)
    args = str(results.get("config", {}).get("model_args") or "")
    found = re.search(r"(?:pretrained|model)=([^,]+)", args)
    return found[1] if found else path.parent.name


def _cluster(sample: dict, field: str | None, path: Path, number: int):
    if field is None:
        return None
    doc = sample.get("doc")
    if not isinstance(doc, dict) or field not in doc:
        keys = sorted(doc) if isinstance(doc, dict) else []
        raise InvalidInputError(f"{path}, line {number}: the document has no field {field!r} "
                                f"to cluster by; its fields are {keys}.")
    return str(doc[field])
