"""Odd inputs of the evaluation-log readers and compare-evals (issue 25): each with its exact
outcome, a refusal naming the fix, a warning, or the right answer.

Python cases: ``(name, run(tmp_path), expected)`` where expected is ``("ok", value)`` (what
``run`` returns) or ``(exception class name, message substring)``. CLI cases:
``(name, args(tmp_path), exit code, substring of the output)`` through ``outperform.cli.app``.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform._validation import OutperformError
from outperform.cli import app
from outperform.compare import compare_evals
from outperform.data import pair_items, read_eval_logs
from outperform.data._evals._helm import task_of_run

from _paths import FIXTURES as _FIXTURES  # noqa: E402

REAL = _FIXTURES / "real"
FIXTURES = _FIXTURES / "evals"
DATE = "2024-08-21T03-44-09.494230"
runner = CliRunner()


# --- builders -----------------------------------------------------------------------------

def _sample(i, filter="none", new=True, **metrics):
    s = {"doc_id": i, "doc": {"q": f"q{i}", "passage": f"p{i // 3}"}, "target": "x",
         "arguments": [], "resps": [], "filtered_resps": [], "doc_hash": f"d{i}",
         "prompt_hash": f"p{i}", "target_hash": "t"}
    if new:
        s.update(filter=filter, metrics=list(metrics))
    s.update(metrics)
    return s


def _results(model, task, keys, model_args=None):
    return {"results": {task: {**keys, "alias": task}}, "configs": {task: {"task": task}},
            "versions": {task: 1}, "config": {"model": "hf", "model_args": model_args
                                              or f"pretrained={model}"},
            "model_name": model}


def _lm(root: Path, model, task, samples, results=None, *, array=False, name=None):
    """An lm-eval run folder: samples (JSON lines, or one JSON array) and results."""
    folder = root / model.replace("/", "__")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (name or f"samples_{task}_{DATE}.jsonl")
    path.write_text(json.dumps(samples, indent=2) if array
                    else "".join(json.dumps(s) + "\n" for s in samples))
    if results is not None:
        (folder / f"results_{DATE}.json").write_text(json.dumps(results))
    return folder


def _helm(root: Path, name, model, scores, *, stats=True, state=True):
    """A HELM run folder named ``name`` with per-instance exact_match ``scores``."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "run_spec.json").write_text(json.dumps(
        {"name": name, "adapter_spec": {"model": model, "max_train_instances": 0}}))
    if stats:
        (folder / "per_instance_stats.json").write_text(json.dumps([
            {"instance_id": f"id{i}", "train_trial_index": 0,
             "stats": [{"name": {"name": "exact_match", "split": "test"}, "count": 1,
                        "sum": s, "mean": s}]} for i, s in enumerate(scores)]))
    if state:
        (folder / "scenario_state.json").write_text(json.dumps({"request_states": [
            {"instance": {"id": f"id{i}", "input": {"text": f"q{i}"}, "references": []},
             "train_trial_index": 0, "request": {"prompt": f"q{i}"}}
            for i in range(len(scores))]}))
    return folder


def _metrics_means(logs):
    return {m: float(g["score"].mean()) for m, g in logs.scores.groupby("metric", sort=True,
                                                                         observed=True)}


# --- Python cases -------------------------------------------------------------------------

def acc_two_new_layout(tmp):
    _lm(tmp, "o/a", "t", [_sample(i, acc=v) for i, v in enumerate([1, 0, 2.0, 1])])
    return read_eval_logs(tmp)


def acc_half_old_layout(tmp):
    _lm(tmp, "o/a", "t", [_sample(i, new=False, acc=v) for i, v in enumerate([1, 0.5, 0])])
    return read_eval_logs(tmp)


def exact_match_above_one(tmp):
    _lm(tmp, "o/a", "t", [_sample(i, exact_match=v) for i, v in enumerate([1, 1.5])])
    return read_eval_logs(tmp)


def exact_match_negative_array(tmp):
    samples = [_sample(i, new=False, exact_match=v) for i, v in enumerate([0, -0.5])]
    _lm(tmp, "o/a", "t", samples, _results("o/a", "t", {"exact_match,none": -0.25}),
        array=True, name=f"samples_t_{DATE}.json")
    return read_eval_logs(tmp)


def two_filters_before_047(tmp):
    # filter after filter, nothing naming the filter; the results file gives their order
    strict = [_sample(i, new=False, exact_match=v) for i, v in enumerate([1, 0, 0, 0])]
    flexible = [_sample(i, new=False, exact_match=v) for i, v in enumerate([1, 1, 0, 0])]
    keys = {"exact_match,strict-match": 0.25, "exact_match_stderr,strict-match": 0.25,
            "exact_match,flexible-extract": 0.5, "exact_match_stderr,flexible-extract": 0.29}
    _lm(tmp, "o/a", "gsm", strict + flexible, _results("o/a", "gsm", keys))
    return _metrics_means(read_eval_logs(tmp))


def doc_thrice_two_filters(tmp):
    samples = [_sample(0, new=False, acc=1)] * 3
    keys = {"acc,a": 1.0, "acc,b": 1.0}
    _lm(tmp, "o/a", "t", samples, _results("o/a", "t", keys))
    return read_eval_logs(tmp)


def doc_twice_no_results(tmp):
    _lm(tmp, "o/a", "t", [_sample(0, new=False, acc=1), _sample(0, new=False, acc=0)])
    return read_eval_logs(tmp)


def array_without_results_json(tmp):
    (tmp / "pretrained__o__a_arc.jsonl").write_text(json.dumps([_sample(0, new=False, acc=1)],
                                                               indent=2))
    return read_eval_logs(tmp)


def truncated_array(tmp):
    (tmp / "results.json").write_text(json.dumps(_results("o/a", "arc", {"acc,none": 1.0},
                                                          model_args="pretrained=o/a")))
    text = json.dumps([_sample(i, new=False, acc=1) for i in range(3)], indent=2)
    (tmp / "pretrained__o__a_arc.jsonl").write_text(text[: len(text) // 2])
    return read_eval_logs(tmp)


def samples_json_array_with_results(tmp):
    samples = [_sample(i, new=False, acc=v) for i, v in enumerate([1, 0, 1, 1])]
    _lm(tmp, "o/a", "arc", samples, _results("o/a", "arc", {"acc,none": 0.75}), array=True,
        name=f"samples_arc_{DATE}.json")
    logs = read_eval_logs(tmp)
    return logs.models, logs.tasks, _metrics_means(logs)


def results_named_by_output_path(tmp):
    # lm-eval >= 0.4.9 with --output_path out/run.json: out/run_<date>.json beside the samples
    folder = _lm(tmp, "o/a", "arc", [_sample(i, acc=1) for i in range(2)])
    (folder / f"run_{DATE}.json").write_text(json.dumps(_results("org/model", "arc", {})))
    return read_eval_logs(tmp).models


def old_results_json_by_name(tmp):
    (tmp / "results.json").write_text(json.dumps(_results("o/a", "arc_easy", {"acc,none": 0.5},
                                                          model_args="pretrained=o/a")))
    (tmp / "pretrained__o__a_arc_easy.jsonl").write_text(json.dumps(
        [_sample(i, new=False, acc=i % 2) for i in range(4)], indent=2))
    logs = read_eval_logs(tmp / "results.json")
    return logs.models, logs.tasks, _metrics_means(logs)


def helm_scenario_model_runs(tmp):
    _helm(tmp, "xstest:model=org_a", "org/a", [1, 0, 1])
    _helm(tmp, "xstest:model=org_b", "org/b", [1, 1, 1])
    logs = read_eval_logs(tmp)
    return logs.tasks, logs.models


def helm_walk_with_unfinished_run(tmp):
    _helm(tmp, "xstest:model=org_a", "org/a", [1, 0, 1])
    _helm(tmp, "xstest:model=org_b", "org/b", [1, 1, 1], stats=False)
    return " ".join(read_eval_logs(tmp).warnings)


def helm_only_unfinished_run(tmp):
    return read_eval_logs(_helm(tmp, "xstest:model=org_b", "org/b", [1], stats=False))


def helm_with_and_without_scenario_state(tmp):
    _helm(tmp, "xstest:model=org_a", "org/a", [1, 0, 1])
    _helm(tmp, "xstest:model=org_b", "org/b", [1, 1, 0], state=False)
    p = pair_items(read_eval_logs(tmp))["xstest"]
    return p.models, p.scores.sum(axis=0).tolist()


def helm_count_zero_stat(tmp):
    folder = _helm(tmp, "xstest:model=org_a", "org/a", [1, 0])
    stats = json.loads((folder / "per_instance_stats.json").read_text())
    for entry in stats:
        entry["stats"].append({"name": {"name": "training_co2_cost", "split": "test"},
                               "count": 0, "sum": 0, "sum_squared": 0})
    (folder / "per_instance_stats.json").write_text(json.dumps(stats))
    logs = read_eval_logs(folder)
    return sorted(set(logs.scores["metric"])), sorted(logs.runs[0].unusable)


def inspect_and_lm_eval(tmp):
    pytest.importorskip("inspect_ai")
    return sorted(read_eval_logs([FIXTURES / "inspect", FIXTURES / "lm_eval"]).tasks)


def table_and_lm_eval(tmp):
    table = pd.DataFrame({"model": "c", "task": "mini_arc", "item": range(40), "score": 1.0,
                          "metric": "acc,none"})
    res = compare_evals([FIXTURES / "lm_eval", table], intersect=True, metric="acc,none")
    return res.models, res.tasks


def inspect_and_helm(tmp):
    pytest.importorskip("inspect_ai")
    logs = read_eval_logs([FIXTURES / "inspect", REAL / "helm" / "no_scenario_state"])
    return sorted(logs.tasks)


def more_than_127_item_ids(tmp):
    for model, offset in (("o/a", 0), ("o/b", 100)):
        _lm(tmp, model, "t", [_sample(i + offset, acc=1) for i in range(100)])
    logs = read_eval_logs(tmp)
    return len(logs.scores), logs.scores["example"].nunique()


def sample_line_not_json(tmp):
    folder = _lm(tmp, "o/a", "t", [_sample(0, new=False, acc=1)])
    path = next(folder.glob("samples_*"))
    path.write_text(path.read_text() + "{not json\n")
    return read_eval_logs(tmp)


def sample_that_is_a_list(tmp):
    folder = _lm(tmp, "o/a", "t", [_sample(0, new=False, acc=1)])
    path = next(folder.glob("samples_*"))
    path.write_text(path.read_text() + "[1, 2]\n")
    return read_eval_logs(tmp)


def predict_only_run(tmp):
    _lm(tmp, "o/a", "t", [_sample(i, bypass=999) for i in range(3)])
    return read_eval_logs(tmp)


PYTHON_CASES = [
    ("lm-eval --predict_only samples", predict_only_run,
     ("InvalidInputError", "written by lm-eval --predict_only")),
    ("acc 2.0 (0.4.7+ layout)", acc_two_new_layout,
     ("InvalidInputError", "are not 0 or 1 (wrong or right), first 2.0 for example '2'")),
    ("acc 0.5 (0.4.3 layout)", acc_half_old_layout,
     ("InvalidInputError", "metric 'acc,none' are not 0 or 1")),
    ("exact_match 1.5", exact_match_above_one,
     ("InvalidInputError", "are not between 0 and 1, first 1.5")),
    ("exact_match -0.5 in a samples_*.json array", exact_match_negative_array,
     ("InvalidInputError", "are not between 0 and 1, first -0.5")),
    ("two filters before 0.4.7", two_filters_before_047,
     ("ok", {"exact_match,flexible-extract": 0.5, "exact_match,strict-match": 0.25})),
    ("a document thrice, two filters", doc_thrice_two_filters,
     ("InvalidInputError", "doc_id 0 appears 3 times, but the results file beside it names 2")),
    ("a document twice, no results file", doc_twice_no_results,
     ("InvalidInputError", "appears 2 times, but the results file beside it names 1 filter(s) "
                           "['none']")),
    ("0.4.0 array without results.json", array_without_results_json,
     ("InvalidInputError", "none of the .json files")),
    ("truncated 0.4.0 array", truncated_array,
     ("InvalidInputError", "not a JSON array of samples")),
    ("samples_<task>_<date>.json array", samples_json_array_with_results,
     ("ok", (("o/a",), ("arc",), {"acc,none": 0.75}))),
    ("results named <stem>_<date>.json (0.4.9+)", results_named_by_output_path,
     ("ok", ("org/model",))),
    ("0.4.0 results.json given by name", old_results_json_by_name,
     ("ok", (("o/a",), ("arc_easy",), {"acc,none": 0.5}))),
    ("HELM <scenario>:model=<m> runs", helm_scenario_model_runs,
     ("ok", (("xstest",), ("org/a", "org/b")))),
    ("HELM walk with an unfinished run", helm_walk_with_unfinished_run,
     ("ok_contains", "xstest:model=org_b skipped: it has no per_instance_stats.json")),
    ("HELM unfinished run alone", helm_only_unfinished_run,
     ("InvalidInputError", "skipped: it has no per_instance_stats.json")),
    ("HELM runs with and without scenario_state.json", helm_with_and_without_scenario_state,
     ("ok", (("org/a", "org/b"), [2.0, 2.0]))),
    ("HELM stat of count 0", helm_count_zero_stat,
     ("ok", (["exact_match"], ["training_co2_cost"]))),
    ("Inspect + lm-eval in one call", inspect_and_lm_eval,
     ("ok", ["addition", "mini_arc", "mini_gsm"])),
    ("table + lm-eval in one call", table_and_lm_eval,
     ("ok", (("EleutherAI/pythia-160m", "EleutherAI/pythia-410m", "c"), ("mini_arc",)))),
    ("Inspect + HELM in one call", inspect_and_helm, ("ok", ["addition", "harm_bench"])),
    ("more than 127 item ids", more_than_127_item_ids, ("ok", (200, 200))),
    ("a samples line that is not JSON", sample_line_not_json,
     ("InvalidInputError", "line 2: not an lm-eval sample (not JSON")),
    ("a sample that is a list", sample_that_is_a_list,
     ("InvalidInputError", "line 2: not an lm-eval sample (needs doc_id")),
]


@pytest.mark.parametrize("run, expected", [c[1:] for c in PYTHON_CASES],
                         ids=[c[0] for c in PYTHON_CASES])
def test_python_odd_input(tmp_path, run, expected):
    kind, want = expected
    if kind.startswith("ok"):
        got = run(tmp_path)
        assert (want in got) if kind == "ok_contains" else got == want
        return
    with pytest.raises(OutperformError) as info:
        run(tmp_path)
    assert type(info.value).__name__ == kind
    assert want in " ".join(str(info.value).split())


@pytest.mark.parametrize("name, task", [
    ("xstest:model=openai_gpt-4o", "xstest"),
    ("mmlu:model=openai_gpt2,subject=anatomy", "mmlu:subject=anatomy"),
    ("babi_qa:task=1,model_deployment=together_x,model=together_x", "babi_qa:task=1"),
    ("anthropic_red_team:model=a,max_train_instances=0", "anthropic_red_team:max_train_instances=0"),
])
def test_helm_run_names(name, task):
    assert task_of_run(name) == task


# --- few clusters -------------------------------------------------------------------------

def _clustered_table(g, seed=0):
    rng = np.random.default_rng(seed)
    n = 8 * g
    clusters = np.repeat(np.arange(g), 8)
    a = (rng.random(n) < 0.75).astype(float)
    b = (rng.random(n) < 0.45).astype(float)
    df = pd.DataFrame({"model": ["A"] * n + ["B"] * n, "item": list(range(n)) * 2,
                       "score": np.r_[a, b], "cluster": list(clusters) * 2})
    return df, a, b, clusters


@pytest.mark.parametrize("g", [3, 4, 5, 9])
def test_few_clusters_use_t_with_g_minus_1_df_as_statsmodels(g):
    sm = pytest.importorskip("statsmodels.api")
    df, a, b, clusters = _clustered_table(g)
    rep = compare_evals(df).per_task["task"][0]
    d = rep.tests["paired_difference"]
    # statsmodels: OLS(a - b, 1).fit(cov_type="cluster", cov_kwds={"groups": g,
    # "use_t": True}): t with G - 1 degrees of freedom.
    fit = sm.OLS(a - b, np.ones(a.size)).fit(cov_type="cluster",
                                              cov_kwds={"groups": clusters, "use_t": True})
    assert d.df == g - 1
    assert d.pvalue == pytest.approx(fit.pvalues[0], rel=1e-9)
    assert d.confidence_interval(0.95) == pytest.approx(tuple(fit.conf_int(0.05)[0]), rel=1e-9)
    assert any(f"G − 1 = {g - 1} degrees of freedom" in w for w in rep.warnings)


def test_ten_clusters_keep_the_normal_as_statsmodels_default():
    sm = pytest.importorskip("statsmodels.api")
    df, a, b, clusters = _clustered_table(10)
    d = compare_evals(df).per_task["task"][0].tests["paired_difference"]
    fit = sm.OLS(a - b, np.ones(a.size)).fit(cov_type="cluster", cov_kwds={"groups": clusters})
    assert d.df is None and d.pvalue == pytest.approx(fit.pvalues[0], rel=1e-9)


# --- CLI cases ----------------------------------------------------------------------------

def cli_acc_two(tmp):
    _lm(tmp, "o/a", "t", [_sample(i, acc=v) for i, v in enumerate([1, 0, 2.0])])
    _lm(tmp, "o/b", "t", [_sample(i, acc=1) for i in range(3)])
    return [str(tmp)]


def cli_helm_scenario_runs(tmp):
    _helm(tmp, "xstest:model=org_a", "org/a", [1, 0, 1, 0])
    _helm(tmp, "xstest:model=org_b", "org/b", [1, 1, 1, 1])
    return [str(tmp)]


def cli_helm_unfinished(tmp):
    return [str(_helm(tmp, "xstest:model=org_b", "org/b", [1], stats=False))]


def cli_helm_walk_unfinished(tmp):
    _helm(tmp, "xstest:model=org_a", "org/a", [1, 0, 1, 0])
    _helm(tmp, "xstest:model=org_b", "org/b", [1, 1, 1, 1])
    _helm(tmp, "xstest:model=org_c", "org/c", [1], stats=False)
    return [str(tmp)]


def cli_table_and_lm_eval(tmp):
    shutil.copytree(FIXTURES / "lm_eval", tmp / "lm")
    pd.DataFrame({"model": "c", "task": "mini_arc", "item": range(40), "score": 1.0,
                  "metric": "acc,none"}).to_csv(tmp / "c.csv", index=False)
    return [str(tmp / "lm"), str(tmp / "c.csv"), "--intersect", "--metric", "acc"]


def cli_four_clusters(tmp):
    df, *_ = _clustered_table(4)
    df.to_csv(tmp / "t.csv", index=False)
    return [str(tmp / "t.csv")]


def cli_two_old_layouts(tmp):
    src = REAL / "lm_eval" / "v0.4.3-52_jsonl"
    shutil.copytree(src, tmp / "old")
    other = tmp / "old2" / "m"
    shutil.copytree(next(src.iterdir()), other)
    path = next(other.glob("results_*"))
    path.write_text(path.read_text().replace('"model_name": "meta-llama/Meta-Llama-3-8B-'
                                             'Instruct"', '"model_name": "other/model"'))
    return [str(tmp)]


def cli_old_array_missing_results(tmp):
    (tmp / "pretrained__o__a_arc.jsonl").write_text(json.dumps([_sample(0, new=False, acc=1)],
                                                               indent=2))
    return [str(tmp / "pretrained__o__a_arc.jsonl")]


CLI_CASES = [
    ("acc 2.0", cli_acc_two, 1, "are not 0 or 1 (wrong or right), first 2.0"),
    ("HELM <scenario>:model=<m>", cli_helm_scenario_runs, 0, "xstest"),
    ("HELM run without per_instance_stats.json", cli_helm_unfinished, 1,
     "skipped: it has no per_instance_stats.json"),
    ("HELM folder walk with an unfinished run", cli_helm_walk_unfinished, 0,
     "xstest:model=org_c skipped: it has no per_instance_stats.json"),
    ("CSV + lm-eval", cli_table_and_lm_eval, 0, "mini_arc"),
    ("4 clusters", cli_four_clusters, 0, "G − 1 = 3 degrees of freedom"),
    ("two runs in lm-eval 0.4.3's layout", cli_two_old_layouts, 0, "asdiv"),
    ("0.4.0 samples without results.json", cli_old_array_missing_results, 1,
     "none of the .json files"),
]


@pytest.mark.parametrize("args, code, text", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
def test_cli_odd_input(tmp_path, args, code, text):
    res = runner.invoke(app, ["compare-evals", *args(tmp_path)])
    out = " ".join(res.output.split())
    assert res.exit_code == code, res.output
    assert text in out and "Traceback" not in out
