"""Evaluation logs written by the harnesses themselves (tests/fixtures/real/, pinned in its
README): every lm-evaluation-harness samples layout since 0.4.0, HELM run folders named
``<scenario>:model=<m>`` (with and without ``scenario_state.json``) and Inspect AI logs are
read, and the harness's own mean and standard error are reproduced from the items read."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from outperform.compare import compare_evals
from outperform.data import pair_items, read_eval_logs
from outperform.stats import paired_difference

from _paths import FIXTURES  # noqa: E402

REAL = FIXTURES / "real"
LM_EVAL, HELM = REAL / "lm_eval", REAL / "helm"
INSPECT = FIXTURES / "evals" / "inspect"

# (folder, model, task, metric of the results file): lm-eval's layouts, oldest first.
LM_EVAL_RUNS = [
    # 0.4.2-17: results.json + <model_args>_<task>.jsonl holding one JSON array
    ("v0.4.2-17_array", "gpt-3.5-turbo-0125", "wmdp_chem", "exact_match,none"),
    # 0.4.2-94 (main, June 2024): samples_<task>_<date>.json, no filter/metrics keys
    ("v0.4.2-94_samples_json", "meta-llama/Meta-Llama-3-8B", "bias_classification", "acc,none"),
    # 0.4.3-52: samples_<task>_<date>.jsonl, no filter/metrics keys
    ("v0.4.3-52_jsonl", "meta-llama/Meta-Llama-3-8B-Instruct", "asdiv", "acc,none"),
    # 0.4.13.dev0: filter and metrics named in every sample
    ("v0.4.13.dev0", "Qwen/Qwen3-8B", "negotiationtom_belief", "acc,none"),
]


def _results(folder: Path) -> dict:
    return json.loads(next(folder.rglob("result*.json")).read_text())


@pytest.mark.parametrize("folder, model, task, metric", LM_EVAL_RUNS)
def test_lm_eval_every_layout_reproduces_the_harness_mean_and_standard_error(
        folder, model, task, metric):
    logs = read_eval_logs(LM_EVAL / folder)
    assert logs.models == (model,) and logs.tasks == (task,)
    assert logs.default_metric[task] == metric
    results = _results(LM_EVAL / folder)
    assert logs.runs[0].harness_version == results.get("lm_eval_version",
                                                       f"git {results['git_hash']}")
    x = logs.scores.loc[logs.scores["metric"] == metric, "score"].to_numpy()
    reported = results["results"][task]
    # the documents evaluated: n-samples (0.4.2-94 on), else the --limit of the run
    n = (results["n-samples"][task]["effective"] if "n-samples" in results
         else int(results["config"]["limit"]))
    assert x.size == n
    # lm-eval: mean of the per-sample values, stderr = sample sd (ddof 1) / sqrt(n)
    # (lm_eval/api/metrics.py mean and mean_stderr).
    assert x.mean() == pytest.approx(reported[metric], rel=1e-12, abs=1e-15)
    assert x.std(ddof=1) / np.sqrt(x.size) == pytest.approx(
        reported[metric.replace(",", "_stderr,")], rel=1e-12, abs=1e-15)


def test_lm_eval_corpus_metric_of_old_samples_is_left_out_by_name():
    # bias_classification logs f1 as a (gold, prediction) pair per sample (corpus-level).
    logs = read_eval_logs(LM_EVAL / "v0.4.2-94_samples_json")
    assert set(logs.runs[0].unusable) == {"f1,none"}
    assert sorted(set(logs.scores["metric"])) == ["acc,none", "acc_norm,none"]


@pytest.mark.parametrize("name", ["results.json", "results_2024-06-17T16-06-39.458097.json"])
def test_lm_eval_results_file_of_old_layouts_stands_for_its_samples(name):
    found = next(LM_EVAL.rglob(name))
    logs = read_eval_logs(found)
    assert len(logs.runs) == 1 and logs.runs[0].file.endswith((".jsonl", ".json"))
    assert "result" not in Path(logs.runs[0].file).name


def test_lm_eval_layouts_of_two_versions_compare_on_one_task(tmp_path):
    # The same asdiv samples as a 0.4.3 run and rewritten in the 0.4.13 layout (filter and
    # metrics named) under another model: both read, paired by doc_id, same content hashes.
    src = LM_EVAL / "v0.4.3-52_jsonl" / "meta-llama__Meta-Llama-3-8B-Instruct"
    shutil.copytree(src, tmp_path / "old")
    new = tmp_path / "new"
    new.mkdir()
    samples = [json.loads(x) for x in next(src.glob("samples_*")).read_text().splitlines()]
    for s in samples:
        s.update(filter="none", metrics=["acc"], acc=1 - s["acc"] if s["doc_id"] < 5 else s["acc"])
    (new / "samples_asdiv_2025-01-01T00-00-00.000000.jsonl").write_text(
        "".join(json.dumps(s) + "\n" for s in samples))
    results = _results(src)
    results.update(model_name="other", lm_eval_version="0.4.13.dev0")
    (new / "results_2025-01-01T00-00-00.000000.json").write_text(json.dumps(results))
    res = compare_evals(tmp_path)
    rep = res.per_task["asdiv"][0]
    # docs 0-4: the old run right on all 5 (asdiv acc = 1 on docs 0-4 of the file), the new
    # one wrong: McNemar exact p = 2 / 2^5.
    assert [s["acc"] for s in samples[:5]] == [0] * 5
    assert rep.tests["mcnemar"].pvalue == pytest.approx(2 / 32)


# --- HELM ---------------------------------------------------------------------------------

def _helm_mean(folder: Path, metric: str) -> float:
    stats = json.loads((folder / "stats.json").read_text())
    return next(s["mean"] for s in stats
                if s["name"]["name"] == metric and "perturbation" not in s["name"])


def test_helm_scenario_model_runs_are_one_task_and_reproduce_helm_means():
    folders = sorted(HELM.glob("simple_safety_tests:model=*"))
    logs = read_eval_logs(folders)
    assert logs.tasks == ("simple_safety_tests",)
    assert set(logs.models) == {"meta/llama-3-8b", "meta/llama-3-70b"}
    paired = pair_items(logs)["simple_safety_tests"]
    assert paired.metric == "sst_score" and len(paired.examples) == 2
    for folder in folders:
        model = json.loads((folder / "run_spec.json").read_text())["adapter_spec"]["model"]
        k = paired.models.index(model)
        for metric in ("sst_score", "sst_gpt_score", "sst_claude_score"):
            rows = logs.scores[(logs.scores["model"] == model) & (logs.scores["metric"] == metric)]
            assert rows["score"].mean() == pytest.approx(_helm_mean(folder, metric), abs=1e-15)
        assert paired.scores[:, k].mean() == pytest.approx(_helm_mean(folder, "sst_score"))
    res = compare_evals(folders, models=["meta/llama-3-8b", "meta/llama-3-70b"])
    d = res.per_task["simple_safety_tests"][0].tests["paired_difference"]
    # 8b: 0.75 and 0 on id26, id86; 70b: 0 and 0: d = (0.75, 0), SE = sd(d)/sqrt(2) = 0.375.
    assert d.estimate == pytest.approx(0.375) and d.details["standard_error"] == \
        pytest.approx(0.375)
    assert d.pvalue == pytest.approx(paired_difference([0.75, 0], [0, 0]).pvalue)


def test_helm_run_folder_without_scenario_state_is_read_from_its_stats():
    folder = HELM / "no_scenario_state"
    logs = read_eval_logs(folder)
    assert logs.tasks == ("harm_bench",) and len(logs.models) == 2
    assert logs.scores["content"].isna().all()          # no instances to hash
    for run in sorted(folder.iterdir()):
        model = json.loads((run / "run_spec.json").read_text())["adapter_spec"]["model"]
        rows = logs.scores[(logs.scores["model"] == model)
                           & (logs.scores["metric"] == "harm_bench_score")]
        assert rows["score"].mean() == _helm_mean(run, "harm_bench_score")
    res = compare_evals(folder)
    assert res.per_task["harm_bench"][0].tests["paired_difference"].estimate == 0.0


def test_helm_stat_of_count_zero_has_no_value():
    # training_co2_cost of an API model: {"count": 0, "sum": 0}: no value, not a score of 0.
    logs = read_eval_logs(HELM / "simple_safety_tests:model=meta_llama-3-8b")
    assert "training_co2_cost" not in set(logs.scores["metric"])
    assert "training_co2_cost" in logs.runs[0].unusable


# --- Inspect AI ---------------------------------------------------------------------------

def test_inspect_log_reproduces_inspects_accuracy_and_stderr():
    log_module = pytest.importorskip("inspect_ai.log")
    logs = read_eval_logs(INSPECT)
    paired = pair_items(logs, metric="match")["addition"]
    for path in sorted(INSPECT.glob("run_*")):
        log = log_module.read_eval_log(str(path))
        metrics = {s.name: s.metrics for s in log.results.scores}["match"]
        k = paired.models.index(log.eval.model)
        x = paired.scores[:, k]                      # epochs reduced by their mean per sample
        # Inspect: accuracy = mean over samples; stderr = sd (ddof 1) / sqrt(n).
        assert x.mean() == pytest.approx(metrics["accuracy"].value, rel=1e-12)
        assert x.std(ddof=1) / np.sqrt(x.size) == pytest.approx(metrics["stderr"].value,
                                                                rel=1e-12)


# --- several sources in one call ----------------------------------------------------------

def test_sources_of_every_kind_in_one_call_are_concatenated():
    pytest.importorskip("inspect_ai")
    table = pd.DataFrame({"model": "c", "task": "asdiv", "item": range(50), "score": 1.0,
                          "metric": "acc,none"})
    logs = read_eval_logs([INSPECT, LM_EVAL / "v0.4.3-52_jsonl", HELM / "no_scenario_state",
                           table])
    assert set(logs.tasks) == {"addition", "asdiv", "harm_bench"}
    assert len(logs.scores) == sum((logs.scores["task"] == t).sum() for t in logs.tasks)
    # the lm-eval run against the table on asdiv, paired by doc_id: 46 right of 50 vs 50
    res = compare_evals(logs, models=["meta-llama/Meta-Llama-3-8B-Instruct", "c"],
                        intersect=True)
    assert res.tasks == ("asdiv",)
    assert res.per_task["asdiv"][0].tests["paired_difference"].estimate == pytest.approx(-0.08)
