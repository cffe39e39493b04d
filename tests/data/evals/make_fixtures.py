"""Write the lm-evaluation-harness and HELM fixtures of tests/data/evals/ (and big ones).

The files follow the structure of those projects' writers (see README.md in this folder for
the source files and versions); the documents and scores are synthetic and fixed, so the
numbers the tests assert can be checked by hand. Neither harness is run (both need a model).

    python tests/data/evals/make_fixtures.py                 # the committed fixtures
    python tests/data/evals/make_fixtures.py --big 100000 OUT  # 2 models x 1e5 items (benchmark)
"""
from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATE_ID = {"EleutherAI/pythia-160m": "2026-11-24T05-40-01.123456",
           "EleutherAI/pythia-410m": "2026-11-24T05-52-17.654321"}


def hash_string(text: str) -> str:
    # lm_eval/utils.py hash_string: sha256 of the UTF-8 text.
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def mc_sample(doc_id: int, doc: dict, correct: bool, fewshot: int) -> dict:
    """One multiple-choice line as lm_eval/evaluator.py builds it and the tracker writes it."""
    context = f"Question: {doc['question']}\nAnswer:"
    if fewshot:
        context = "Question: What is 1 + 1?\nAnswer: 2\n\n" + context
    choices = doc["choices"]
    gold = doc["label"]
    lls = [-2.0 - i for i in range(len(choices))]
    pick = gold if correct else (gold + 1) % len(choices)
    lls[pick], lls[0] = lls[0], lls[pick]
    requests = [[context, f" {c}"] for c in choices]
    resps = [[[str(ll), "False"]] for ll in lls]
    sample = {
        "doc_id": doc_id, "doc": doc, "target": str(gold),
        "arguments": {f"gen_args_{i}": {f"arg_{j}": a for j, a in enumerate(r)}
                      for i, r in enumerate(requests)},
        "resps": resps, "filtered_resps": [[str(ll), "False"] for ll in lls],
        "filter": "none", "metrics": ["acc", "acc_norm"],
        "doc_hash": hash_string(json.dumps(doc, indent=2, ensure_ascii=False)),
        "prompt_hash": hash_string(context), "target_hash": hash_string(str(gold)),
        "acc": 1.0 if correct else 0.0, "acc_norm": 1.0 if correct else 0.0,
    }
    return sample


def gen_samples(doc_id: int, doc: dict, strict: bool, flexible: bool) -> list[dict]:
    """The two lines (one per filter) of a generate_until document."""
    context = f"Question: {doc['question']}\nAnswer:"
    out = []
    for key, ok in (("strict-match", strict), ("flexible-extract", flexible)):
        answer = doc["answer"] if ok else "0"
        out.append({
            "doc_id": doc_id, "doc": doc, "target": doc["answer"],
            "arguments": {"gen_args_0": {"arg_0": context,
                                         "arg_1": {"until": ["Question:"], "do_sample": False}}},
            "resps": [[f"The answer is {answer}."]], "filtered_resps": [answer],
            "filter": key, "metrics": ["exact_match"],
            "doc_hash": hash_string(json.dumps(doc, indent=2, ensure_ascii=False)),
            "prompt_hash": hash_string(context), "target_hash": hash_string(doc["answer"]),
            "exact_match": 1.0 if ok else 0.0,
        })
    return out


def results_json(model: str, tasks: dict, n_docs: dict, version: float = 1.0,
                 fewshot: int = 0) -> dict:
    """results_<date>.json: evaluator_utils.py results dict + simple_evaluate's config +
    GeneralConfigTracker fields (evaluation_tracker.py save_results_aggregated)."""
    return {
        "results": {t: {"alias": t, **m} for t, m in tasks.items()},
        "group_subtasks": {t: [] for t in tasks},
        "configs": {t: {"task": t, "dataset_path": f"synthetic/{t}", "test_split": "test",
                        "output_type": "multiple_choice" if "arc" in t else "generate_until",
                        "num_fewshot": fewshot, "metadata": {"version": version}}
                    for t in tasks},
        "versions": {t: version for t in tasks},
        "n-shot": {t: fewshot for t in tasks},
        "higher_is_better": {t: {k.split(",")[0]: True for k in m if "stderr" not in k}
                             for t, m in tasks.items()},
        "n-samples": {t: {"original": n_docs[t], "effective": n_docs[t]} for t in tasks},
        "config": {"model": "hf", "model_args": f"pretrained={model},dtype=float32",
                   "model_num_parameters": 162322944, "model_dtype": "torch.float32",
                   "model_revision": "main", "model_sha": "", "batch_size": "8",
                   "batch_sizes": [], "device": "cpu", "use_cache": None, "limit": None,
                   "bootstrap_iters": 100000, "gen_kwargs": {}, "random_seed": 0,
                   "numpy_seed": 1234, "torch_seed": 1234, "fewshot_seed": 1234},
        "git_hash": "4e7e0d4", "date": 1795412401.0,
        "pretty_env_info": "N/A (torch not installed)", "transformers_version": "4.57.0",
        "lm_eval_version": "0.4.13.dev0", "upper_git_hash": None,
        "task_hashes": {}, "model_source": "hf", "model_name": model,
        "model_name_sanitized": model.replace("/", "__"), "system_instruction": None,
        "system_instruction_sha": None, "fewshot_as_multiturn": False, "chat_template": None,
        "chat_template_sha": None, "start_time": 1.0, "end_time": 61.0,
        "total_evaluation_time_seconds": "60.0",
    }


def write_lm_eval(root: Path, n_arc: int = 40, n_gsm: int = 20, *, wrong=None,
                  version: float = 1.0, fewshot: int = 0) -> None:
    """Two models on mini_arc (acc, acc_norm) and mini_gsm (exact_match, two filters).

    pythia-160m is wrong on every 4th mini_arc document, pythia-410m on every 10th; on
    mini_gsm (strict-match) 160m is right on even documents, 410m on documents not 3 mod 4.
    """
    arc_docs = [{"id": f"arc-{i}", "question": f"Which number is {i}?",
                 "choices": [str(i), str(i + 1), str(i + 2), str(i + 3)], "label": 0,
                 "passage": f"P{i // 4}"} for i in range(n_arc)]
    gsm_docs = [{"question": f"What is {i} + {i}?", "answer": str(2 * i)} for i in range(n_gsm)]
    rules = wrong or {"EleutherAI/pythia-160m": (lambda i: i % 4 == 0, lambda i: i % 2 == 0),
                      "EleutherAI/pythia-410m": (lambda i: i % 10 == 0, lambda i: i % 4 != 3)}
    for model, (arc_wrong, gsm_right) in rules.items():
        folder = root / model.replace("/", "__")
        folder.mkdir(parents=True, exist_ok=True)
        date = DATE_ID[model]
        arc = [mc_sample(i, d, not arc_wrong(i), fewshot) for i, d in enumerate(arc_docs)]
        gsm = [s for i, d in enumerate(gsm_docs) for s in gen_samples(i, d, gsm_right(i), True)]
        for task, lines in (("mini_arc", arc), ("mini_gsm", gsm)):
            with open(folder / f"samples_{task}_{date}.jsonl", "w", encoding="utf-8") as f:
                for s in lines:
                    f.write(json.dumps(s, ensure_ascii=False) + "\n")
        acc = sum(s["acc"] for s in arc) / len(arc)
        em = sum(s["exact_match"] for s in gsm if s["filter"] == "strict-match") / n_gsm
        tasks = {"mini_arc": {"acc,none": acc, "acc_stderr,none": 0.0, "acc_norm,none": acc,
                              "acc_norm_stderr,none": 0.0},
                 "mini_gsm": {"exact_match,strict-match": em,
                              "exact_match_stderr,strict-match": 0.0,
                              "exact_match,flexible-extract": 1.0,
                              "exact_match_stderr,flexible-extract": 0.0}}
        res = results_json(model, tasks, {"mini_arc": n_arc, "mini_gsm": n_gsm}, version,
                           fewshot)
        (folder / f"results_{date}.json").write_text(json.dumps(res, indent=2), "utf-8")


def write_helm(root: Path) -> None:
    """Two HELM runs of one scenario (run_spec.json, scenario_state.json,
    per_instance_stats.json as helm/benchmark/runner.py writes them, asdict_without_nones)."""
    n = 30
    for model, wrong in (("openai/gpt2", lambda i: i % 3 == 0),
                         ("eleutherai/pythia-1b-v0", lambda i: i % 5 == 0)):
        name = f"mmlu:subject=anatomy,method=multiple_choice_joint,model={model.replace('/', '_')}"
        folder = root / name
        folder.mkdir(parents=True, exist_ok=True)
        adapter = {"method": "multiple_choice_joint", "instructions": "", "input_prefix": "",
                   "output_prefix": "Answer: ", "max_train_instances": 5, "num_outputs": 1,
                   "num_train_trials": 1, "num_trials": 1, "model_deployment": model,
                   "model": model, "temperature": 0.0, "max_tokens": 1, "stop_sequences": ["\n"]}
        spec = {"name": name,
                "scenario_spec": {"class_name": "helm.benchmark.scenarios.mmlu_scenario."
                                  "MMLUScenario", "args": {"subject": "anatomy"}},
                "adapter_spec": adapter,
                "metric_specs": [{"class_name": "helm.benchmark.metrics.basic_metrics."
                                  "BasicGenerationMetric", "args": {"names": ["exact_match"]}}],
                "data_augmenter_spec": {"perturbation_specs": [],
                                        "should_augment_train_instances": False,
                                        "should_include_original_train": False,
                                        "should_skip_unchanged_train": False,
                                        "should_augment_eval_instances": False,
                                        "should_include_original_eval": False,
                                        "should_skip_unchanged_eval": False,
                                        "seeds_per_instance": 1},
                "groups": ["mmlu"]}
        states, stats = [], []
        for i in range(n):
            inst = {"input": {"text": f"Anatomy question {i}?"},
                    "references": [{"output": {"text": "A"}, "tags": ["correct"]},
                                   {"output": {"text": "B"}, "tags": []}],
                    "split": "test", "id": f"id{100 + i}"}
            ok = not wrong(i)
            states.append({"instance": inst, "reference_index": None, "request_mode": None,
                           "train_trial_index": 0, "output_mapping": {"A": "A", "B": "B"},
                           "request": {"model_deployment": model, "model": model,
                                       "prompt": f"Anatomy question {i}?\nAnswer: ",
                                       "temperature": 0.0, "num_completions": 1,
                                       "max_tokens": 1, "stop_sequences": ["\n"]},
                           "result": {"success": True, "embedding": [], "completions": [
                               {"text": "A" if ok else "B", "logprob": 0.0, "tokens": []}],
                               "cached": False},
                           "num_train_instances": 5, "prompt_truncated": False})
            v = 1.0 if ok else 0.0
            stats.append({"instance_id": f"id{100 + i}", "train_trial_index": 0, "stats": [
                {"name": {"name": m, "split": "test"}, "count": 1, "sum": v, "sum_squared": v,
                 "min": v, "max": v, "mean": v, "variance": 0.0, "stddev": 0.0}
                for m in ("exact_match", "quasi_exact_match")] + [
                {"name": {"name": "num_prompt_tokens", "split": "test"}, "count": 1,
                 "sum": 12.0, "sum_squared": 144.0, "min": 12.0, "max": 12.0, "mean": 12.0,
                 "variance": 0.0, "stddev": 0.0}]})
        (folder / "run_spec.json").write_text(json.dumps(spec, indent=2), "utf-8")
        (folder / "scenario_state.json").write_text(json.dumps(
            {"adapter_spec": adapter, "request_states": states}, indent=2), "utf-8")
        (folder / "per_instance_stats.json").write_text(json.dumps(stats, indent=2), "utf-8")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--big":
        n, out = int(sys.argv[2]), Path(sys.argv[3])
        write_lm_eval(out, n_arc=n, n_gsm=2)
    else:
        write_lm_eval(HERE / "lm_eval")
        write_helm(HERE / "helm")
