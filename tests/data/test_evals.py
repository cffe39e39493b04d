"""Readers of evaluation logs and the pairing of items (issue 16): the fixtures of
tests/fixtures/evals/ read end to end, and every plausible mistake refused or warned about."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from _paths import FIXTURES
from outperform._validation import InvalidInputError
from outperform.data import pair_items, read_eval_logs

DATA = FIXTURES / "evals"
LM_EVAL, INSPECT, HELM = DATA / "lm_eval", DATA / "inspect", DATA / "helm"
A, B = "EleutherAI/pythia-160m", "EleutherAI/pythia-410m"


def _copy(tmp_path) -> Path:
    out = tmp_path / "lm_eval"
    shutil.copytree(LM_EVAL, out)
    return out


def _edit_results(folder: Path, model_folder: str, change) -> None:
    path = next((folder / model_folder).glob("results_*.json"))
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _edit_samples(folder: Path, model_folder: str, task: str, change) -> None:
    path = next((folder / model_folder).glob(f"samples_{task}_*.jsonl"))
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines = change(lines)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


# --- lm-evaluation-harness ------------------------------------------------------------------

def test_lm_eval_folder_end_to_end():
    logs = read_eval_logs(LM_EVAL)
    assert logs.models == (A, B) and logs.tasks == ("mini_arc", "mini_gsm")
    assert logs.default_metric == {"mini_arc": "acc,none", "mini_gsm": "exact_match,strict-match"}
    paired = pair_items(logs)
    # make_fixtures.py: 160m wrong on every 4th of 40 documents (10), 410m on every 10th (4);
    # on mini_gsm 160m right on the 10 even documents of 20, 410m on the 15 not 3 mod 4.
    np.testing.assert_allclose(paired["mini_arc"].scores.mean(axis=0), [30 / 40, 36 / 40])
    np.testing.assert_allclose(paired["mini_gsm"].scores.mean(axis=0), [10 / 20, 15 / 20])
    assert paired["mini_arc"].binary and paired["mini_arc"].clusters is None
    run = next(r for r in logs.runs if r.model == A and r.task == "mini_arc")
    assert run.harness == "lm-eval" and run.harness_version == "0.4.13.dev0"
    assert run.task_version == "1.0" and "pretrained=EleutherAI/pythia-160m" in \
        run.settings["model_args"]


def test_lm_eval_results_file_stands_for_its_samples_and_metric_without_filter():
    files = sorted(LM_EVAL.glob("*/results_*.json"))
    logs = read_eval_logs(files)
    assert set(logs.tasks) == {"mini_arc", "mini_gsm"}
    paired = pair_items(logs, metric="acc")     # "acc,none": the only filter of acc
    assert list(paired) == ["mini_arc"] and paired["mini_arc"].metric == "acc,none"
    assert any("left out" in w for w in paired["mini_arc"].warnings)   # mini_gsm has no acc
    with pytest.raises(InvalidInputError, match="several filters"):
        pair_items(logs, metric="exact_match")


def test_lm_eval_cluster_by_a_document_field():
    arc = sorted(LM_EVAL.glob("*/samples_mini_arc_*.jsonl"))
    paired = pair_items(read_eval_logs(arc, cluster_by="passage"))
    assert len(set(paired["mini_arc"].clusters)) == 10       # passages P0..P9 of 4 documents
    with pytest.raises(InvalidInputError, match="no field 'passage'"):   # mini_gsm's documents
        read_eval_logs(LM_EVAL, cluster_by="passage")


def test_missing_items_are_counted_named_and_intersected(tmp_path):
    folder = _copy(tmp_path)
    _edit_samples(folder, "EleutherAI__pythia-410m", "mini_arc", lambda ls: ls[:-3])
    logs = read_eval_logs(folder)
    with pytest.raises(InvalidInputError, match=r"pythia-410m lacks 3 \(first \['37', '38', "
                                                r"'39'\]\).*--intersect"):
        pair_items(logs)
    paired = pair_items(logs, intersect=True)
    assert len(paired["mini_arc"].examples) == 37
    assert paired["mini_arc"].dropped == {B: ["37", "38", "39"]}


def test_different_item_content_is_refused(tmp_path):
    folder = _copy(tmp_path)

    def change(lines):
        lines[5]["doc_hash"] = "0" * 64
        return lines

    _edit_samples(folder, "EleutherAI__pythia-410m", "mini_arc", change)
    with pytest.raises(InvalidInputError, match=r"different content.*\['5'\]"):
        pair_items(read_eval_logs(folder))


def test_different_prompts_are_warned_about(tmp_path):
    folder = _copy(tmp_path)

    def change(lines):
        for x in lines:
            x["prompt_hash"] = "f" * 64
        return lines

    _edit_samples(folder, "EleutherAI__pythia-410m", "mini_arc", change)
    paired = pair_items(read_eval_logs(folder), metric="acc")
    assert any("prompt_hash differs" in w and "40 of 40" in w for w in paired["mini_arc"].warnings)


def test_task_version_and_fewshot_differences_are_warned_by_name(tmp_path):
    folder = _copy(tmp_path)

    def change(data):
        data["versions"]["mini_arc"] = 2.0
        data["n-shot"]["mini_arc"] = 5

    _edit_results(folder, "EleutherAI__pythia-410m", change)
    warnings = read_eval_logs(folder).warnings
    assert any("mini_arc" in w and "task_version" in w for w in warnings)
    assert any("mini_arc" in w and "n-shot" in w for w in warnings)


def test_one_model_name_with_two_settings_is_refused(tmp_path):
    folder = _copy(tmp_path)
    twin = folder / "again"
    shutil.copytree(folder / "EleutherAI__pythia-160m", twin)
    _edit_results(folder, "again", lambda d: d["config"].update(
        model_args="pretrained=EleutherAI/pythia-160m,dtype=bfloat16"))
    with pytest.raises(InvalidInputError, match="two runs with different settings.*model_args"):
        read_eval_logs(folder)
    _edit_results(folder, "again", lambda d: d["config"].update(
        model_args="pretrained=EleutherAI/pythia-160m,dtype=float32"))
    with pytest.raises(InvalidInputError, match="several runs"):
        read_eval_logs(folder)


def test_metric_missing_for_one_model_is_refused(tmp_path):
    folder = _copy(tmp_path)

    def change(lines):
        for x in lines:
            x["metrics"] = ["acc"]
            del x["acc_norm"]
        return lines

    _edit_samples(folder, "EleutherAI__pythia-410m", "mini_arc", change)
    with pytest.raises(InvalidInputError, match="'acc_norm,none' is missing for "
                                                r"\['EleutherAI/pythia-410m'\]"):
        pair_items(read_eval_logs(folder), metric="acc_norm")


def test_duplicated_ids_and_non_numeric_scores_are_refused(tmp_path):
    folder = _copy(tmp_path)
    _edit_samples(folder, "EleutherAI__pythia-410m", "mini_arc", lambda ls: ls + ls[:2])
    with pytest.raises(InvalidInputError, match=r"2 example id\(s\) appear more than once.*"
                                                r"\['0', '1'\]"):
        read_eval_logs(folder)
    table = pd.DataFrame({"model": ["a", "b"], "task": "t", "item": [1, 1],
                          "score": [1, "right"]})
    with pytest.raises(InvalidInputError, match="not finite numbers.*'right'"):
        read_eval_logs(table)


# --- Inspect AI -----------------------------------------------------------------------------

def test_inspect_logs_end_to_end():
    pytest.importorskip("inspect_ai")
    logs = read_eval_logs(INSPECT)
    assert logs.models == ("mockllm/model-a", "mockllm/model-b") and logs.tasks == ("addition",)
    # one row per sample x epoch x scorer: 12 samples x 2 epochs x 2 scorers per model
    assert len(logs.scores) == 2 * 12 * 2 * 2
    assert {r.harness_version for r in logs.runs} == {"0.3.285"}
    paired = pair_items(logs)["addition"]
    assert paired.metric == "match" and list(paired.epochs) == [2, 2]
    # make_inspect_logs.py: model-a wrong on 3 of 12, model-b on 4 and on q05 in one epoch:
    # q05's mean is 1/2, its variance over the 2 epochs 1/2, the mean over 12 items 1/24.
    frame = paired.to_frame()
    assert frame.loc["q05", "mockllm/model-b"] == 0.5
    np.testing.assert_allclose(paired.scores.mean(axis=0), [9 / 12, 7.5 / 12])
    np.testing.assert_allclose(paired.within_variance, [0.0, 0.5 / 12])
    assert not paired.binary
    clustered = pair_items(read_eval_logs(INSPECT, cluster_by="passage"))["addition"]
    assert sorted(set(clustered.clusters)) == ["p0", "p1", "p2", "p3"]


def test_inspect_format_forced_and_both_files():
    pytest.importorskip("inspect_ai")
    logs = read_eval_logs([INSPECT / "run_a.eval", INSPECT / "run_b.json"], format="inspect")
    assert {Path(r.file).suffix for r in logs.runs} == {".eval", ".json"}


# --- HELM and tables ------------------------------------------------------------------------

def test_helm_run_folders_end_to_end():
    logs = read_eval_logs(HELM)
    assert set(logs.models) == {"openai/gpt2", "eleutherai/pythia-1b-v0"}
    assert logs.tasks == ("mmlu:subject=anatomy,method=multiple_choice_joint",)
    paired = pair_items(logs, models=["openai/gpt2", "eleutherai/pythia-1b-v0"])
    p = next(iter(paired.values()))
    # make_fixtures.py: gpt2 wrong on i % 3 == 0 (10 of 30), pythia on i % 5 == 0 (6 of 30)
    assert p.metric == "exact_match" and len(p.examples) == 30
    np.testing.assert_allclose(p.scores.mean(axis=0), [20 / 30, 24 / 30])
    run = next(r for r in logs.runs if r.model == "openai/gpt2")
    assert run.prompt["max_train_instances"] == 5 and run.settings["model"] == "openai/gpt2"


def test_unknown_file_and_empty_folder(tmp_path):
    (tmp_path / "notes.md").write_text("hello")
    with pytest.raises(InvalidInputError, match="not an evaluation log"):
        read_eval_logs(tmp_path / "notes.md")
    with pytest.raises(InvalidInputError, match="no evaluation log found"):
        read_eval_logs(tmp_path)


def test_corpus_level_metric_is_left_out_and_refused_by_name(tmp_path):
    # lm-eval logs a (reference, prediction) pair per item for corpus metrics such as BLEU.
    folder = _copy(tmp_path)
    for model in ("EleutherAI__pythia-160m", "EleutherAI__pythia-410m"):
        def change(lines):
            for x in lines:
                x["metrics"] = ["bleu", "exact_match"]
                x["bleu"] = [x["target"], "0"]
            return lines

        _edit_samples(folder, model, "mini_gsm", change)
    logs = read_eval_logs(folder)
    run = next(r for r in logs.runs if r.task == "mini_gsm")
    assert "bleu,strict-match" in run.unusable
    assert logs.default_metric["mini_gsm"] == "exact_match,strict-match"
    paired = pair_items(logs)
    np.testing.assert_allclose(paired["mini_gsm"].scores.mean(axis=0), [10 / 20, 15 / 20])
    with pytest.raises(InvalidInputError, match="'bleu,strict-match' has no number per item"):
        pair_items(logs, metric={"mini_gsm": "bleu,strict-match"})


def test_a_metric_mixing_numbers_and_text_is_refused(tmp_path):
    folder = _copy(tmp_path)

    def change(lines):
        lines[3]["acc"] = "n/a"
        return lines

    _edit_samples(folder, "EleutherAI__pythia-160m", "mini_arc", change)
    with pytest.raises(InvalidInputError, match="1 score.* of metric 'acc,none' are not finite "
                                                "numbers, e.g. 'n/a' for example '3'"):
        read_eval_logs(folder)


def test_a_json_that_looks_like_an_inspect_log_but_is_not_is_refused(tmp_path):
    pytest.importorskip("inspect_ai")
    bad = tmp_path / "log.json"
    bad.write_text('{"version": 2, "status": "success", "eval": {"task": 3}}')
    with pytest.raises(InvalidInputError, match="not a readable Inspect log"):
        read_eval_logs(bad)
    (tmp_path / "log.json").write_text('{"name": "config", "version": 1}')
    with pytest.raises(InvalidInputError, match="not an evaluation log"):
        read_eval_logs(bad)


def test_helm_perturbed_instances_are_left_out(tmp_path):
    out = tmp_path / "helm"
    shutil.copytree(HELM, out)
    run = next(p for p in out.iterdir() if "gpt2" in p.name)
    stats = json.loads((run / "per_instance_stats.json").read_text())
    # a robustness copy of instance id100 (HELM: PerInstanceStats.perturbation set)
    extra = json.loads(json.dumps(stats[0]))
    extra["perturbation"] = {"name": "typos", "robustness": True, "fairness": False,
                             "computed_on": "perturbed", "prob": 0.1}
    for s in extra["stats"]:
        s["mean"] = s["sum"] = 0.0
    (run / "per_instance_stats.json").write_text(json.dumps(stats + [extra]))
    p = next(iter(pair_items(read_eval_logs(out)).values()))
    assert len(p.examples) == 30
    gpt2 = p.models.index("openai/gpt2")
    assert p.scores[:, gpt2].mean() == pytest.approx(20 / 30)


def test_fast_and_plain_json_paths_read_the_same_rows(tmp_path):
    # A text-valued metric on the first line sends the file from pyarrow's typed reader to
    # the line-by-line JSON reader; the rows of the numeric metrics must not change.
    folder = _copy(tmp_path)

    def change(lines):
        lines[0]["metrics"] = lines[0]["metrics"] + ["verdict"]
        lines[0]["verdict"] = "looks right"
        return lines

    _edit_samples(folder, "EleutherAI__pythia-160m", "mini_arc", change)
    fast, plain = read_eval_logs(LM_EVAL).scores, read_eval_logs(folder).scores
    assert next(r for r in read_eval_logs(folder).runs
                if r.task == "mini_arc" and r.model == A).unusable == {
        "verdict,none": "'looks right'"}

    def rows(df):
        df = df.astype({c: str for c in ("task", "model", "metric", "example", "content",
                                         "prompt")})
        return sorted(map(tuple, df[["task", "model", "metric", "example", "epoch", "score",
                                     "content", "prompt"]].to_numpy().tolist()))

    assert rows(fast) == rows(plain) and len(fast) == 2 * (80 + 40)
