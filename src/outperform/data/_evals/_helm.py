"""HELM run folders: ``per_instance_stats.json`` with ``run_spec.json`` and, when kept,
``scenario_state.json`` beside it (without it the instances have no content hash, and
``cluster_by`` cannot be read). The task is the run name without its model
(:func:`task_of_run`), the model that of the ``adapter_spec``.

Fields follow HELM 0.5.16 (commit 63754d0): ``helm/benchmark/runner.py`` writes the three
files of a run with ``asdict_without_nones``; ``helm/benchmark/metrics/metric.py``
``PerInstanceStats`` has ``instance_id``, ``train_trial_index``, ``perturbation`` (absent for
the original instance) and ``stats``, a list of ``Stat`` (``metrics/statistic.py``: ``name``
= ``MetricName`` {``name``, ``split``, ...}, ``count``, ``sum``, ``mean``, ...);
``run_spec.json`` holds ``name`` and ``adapter_spec`` (``model``, ``temperature``,
``max_train_instances``, ...); ``scenario_state.json`` holds the ``request_states`` with each
``instance`` (``id``, ``input``, ``references``) and its ``request`` (``prompt``). Perturbed
instances (robustness runs) are left out: they are not the items the models share. The
trial index (repeated few-shot draws) is the epoch.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..._validation import InvalidInputError
from ._schema import EvalRun, tidy

STATS = "per_instance_stats.json"
# Headline metrics of HELM's scenarios, first found is the default.
PREFERRED = ("exact_match", "quasi_exact_match", "prefix_exact_match", "f1_score", "rouge_l",
             "math_equiv", "bleu_4")
# adapter_spec fields that describe the model run rather than the prompt.
MODEL_FIELDS = ("model", "model_deployment")


def is_helm(path: Path) -> bool:
    """Whether ``path`` is a HELM run folder or its per-instance stats file."""
    return (path / STATS).exists() if path.is_dir() else path.name == STATS


def unfinished_helm(path: Path) -> str | None:
    """Why a folder that looks like a HELM run (it has ``run_spec.json``) cannot be read, or
    None: it has no ``per_instance_stats.json`` (the run did not finish, or only its
    summary was kept)."""
    if path.is_dir() and (path / "run_spec.json").exists() and not (path / STATS).exists():
        kept = sorted(p.name for p in path.iterdir() if p.suffix == ".json")
        return (f"HELM run folder {path} skipped: it has no {STATS}, which holds the "
                f"per-instance scores (it has {kept}); the run did not finish, or only its "
                "summary was kept: rerun it, or copy the whole run folder.")
    return None


def read_helm(path: Path, *, cluster_by: str | None = None):
    """Read one HELM run (folder or its ``per_instance_stats.json``) into tidy rows.

    Returns
    -------
    (DataFrame, EvalRun, str)

    Raises
    ------
    InvalidInputError
        Missing ``run_spec.json``; files that are not JSON; no unperturbed instance;
        ``cluster_by`` that is neither ``sub_split`` nor an ``extra_data`` field of every
        instance.
    """
    folder = path if path.is_dir() else path.parent
    spec = _json(folder / "run_spec.json")
    stats = _json(folder / STATS)
    state = _json(folder / "scenario_state.json") if (folder / "scenario_state.json").exists() \
        else {"request_states": []}
    adapter = spec.get("adapter_spec", {})
    model = adapter.get("model") or adapter.get("model_deployment")
    if not model:
        raise InvalidInputError(f"{folder}/run_spec.json names no model (adapter_spec.model).")
    task = task_of_run(str(spec.get("name", folder.name)))
    instances = {(r["instance"].get("id"), r.get("train_trial_index", 0)): r
                 for r in state.get("request_states", [])
                 if "perturbation" not in r["instance"]}
    cols = {c: [] for c in ("example", "epoch", "metric", "score", "cluster", "content",
                            "prompt")}
    for entry in stats:
        if entry.get("perturbation"):
            continue
        trial = int(entry.get("train_trial_index", 0))
        request = instances.get((entry["instance_id"], trial))
        content, prompt, cluster = _item(request, cluster_by, folder, entry["instance_id"])
        for stat in entry["stats"]:
            name = stat["name"]
            if name.get("perturbation"):
                continue
            cols["example"].append(entry["instance_id"])
            cols["epoch"].append(trial + 1)
            cols["metric"].append(name["name"])
            cols["score"].append(_mean(stat))
            cols["cluster"].append(cluster)
            cols["content"].append(content)
            cols["prompt"].append(prompt)
    if not cols["metric"]:
        raise InvalidInputError(f"{folder}: no per-instance stats of unperturbed instances.")
    n = len(cols["metric"])
    cols.update(task=[task] * n, model=[model] * n)
    names = list(dict.fromkeys(cols["metric"]))
    default = next((m for m in PREFERRED if m in names), names[0])
    rows, unusable = tidy(cols, str(folder))
    run = EvalRun(harness="helm", unusable=unusable, harness_version=None, file=str(folder), model=model,
                  task=task,
                  settings={k: v for k, v in adapter.items() if k in MODEL_FIELDS},
                  prompt={k: v for k, v in adapter.items() if k not in MODEL_FIELDS})
    return rows, run, default


def task_of_run(name: str) -> str:
    """The task of a HELM run name: its scenario and arguments without the model.

    HELM names a run ``<scenario>:<arg>=<value>,...`` (``helm/benchmark/run_spec.py``), the
    model among the arguments (``model=``, ``model_deployment=``), possibly alone:
    ``xstest:model=openai_gpt-4o`` is task ``xstest``; ``mmlu:subject=anatomy,
    method=multiple_choice_joint,model=openai_gpt2`` is task ``mmlu:subject=anatomy,
    method=multiple_choice_joint``.

    Examples
    --------
    >>> task_of_run("simple_safety_tests:model=meta_llama-3-8b")
    'simple_safety_tests'
    >>> task_of_run("mmlu:subject=anatomy,model=openai_gpt2,method=multiple_choice_joint")
    'mmlu:subject=anatomy,method=multiple_choice_joint'
    """
    scenario, colon, args = name.partition(":")
    if not colon:
        scenario, args = "", name
    kept = [a for a in args.split(",")
            if a and not a.strip().startswith(("model=", "model_deployment="))]
    if not scenario:
        return ",".join(kept)
    return scenario + (":" + ",".join(kept) if kept else "")


def _mean(stat: dict):
    """The per-instance value of a HELM ``Stat``: its ``mean``; None (no value) for a stat
    of count 0, which HELM writes without a mean (``training_co2_cost`` of an API model)."""
    if "mean" in stat:
        return stat["mean"]
    count = stat.get("count") or 0
    return stat["sum"] / count if count else None


def _json(path: Path):
    if not path.exists():
        raise InvalidInputError(f"{path} is missing: a HELM run folder holds run_spec.json, "
                                "scenario_state.json and per_instance_stats.json.")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"{path}: not JSON ({exc}).") from None


def _item(request, cluster_by, folder, instance_id):
    """Content hash (input and correct references), prompt hash and cluster of an instance."""
    if request is None:
        if cluster_by is not None:
            raise InvalidInputError(f"{folder}: instance {instance_id!r} is not in "
                                    "scenario_state.json, so it has no field to cluster by.")
        return None, None, None
    inst = request["instance"]
    correct = [r["output"]["text"] for r in inst.get("references", [])
               if "correct" in r.get("tags", [])]
    content = hashlib.sha256(json.dumps([inst["input"].get("text"), correct]).encode()).hexdigest()
    prompt = request.get("request", {}).get("prompt")
    prompt = None if prompt is None else hashlib.sha256(prompt.encode()).hexdigest()
    cluster = None
    if cluster_by is not None:
        extra = inst.get("extra_data") or {}
        value = inst.get("sub_split") if cluster_by == "sub_split" else extra.get(cluster_by)
        if value is None:
            raise InvalidInputError(f"{folder}: instance {instance_id!r} has no {cluster_by!r} "
                                    "(sub_split or a field of extra_data) to cluster by.")
        cluster = str(value)
    return content, prompt, cluster
