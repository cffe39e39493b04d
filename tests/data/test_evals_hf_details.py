"""data/_evals/_hf_details.py: Hugging Face evaluation details (lighteval, Open LLM
Leaderboard) read, paired by item and compared.

The files here are written as the writers write them — lighteval's
``Dataset.from_list([asdict(detail) ...]).to_parquet`` (huggingface/lighteval,
src/lighteval/logging/evaluation_tracker.py; the ``Detail`` fields of info_loggers.py at
commits 0a455c4f (flat, structs), e6b599a1 (flat, every column cast with ``str``) and
31433cc9 (nested ``doc``/``model_response``/``metric``)) — with pyarrow, which is what
``datasets`` writes Parquet with. Expected values come from reading the same file
independently with pyarrow, and from statsmodels' exact McNemar test.
"""
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from statsmodels.stats.contingency_tables import mcnemar

from outperform import InvalidInputError, OutperformError
from outperform.compare import compare_evals
from outperform.data import read_eval_logs

DATE = "2024-05-01T10-00-00.000000"
TASK = "lighteval|arc:challenge|25"
RNG = np.random.default_rng(3)
N = 40
QUERIES = [f"Question {i}: which is right?" for i in range(N)]
RIGHT = {"big": RNG.random(N) < 0.8, "small": RNG.random(N) < 0.55}


def _flat_rows(model, order, *, as_text=False):
    rows = []
    for i in order:
        detail = {"example": QUERIES[i], "instruction": "", "full_prompt": f"shots\n{QUERIES[i]}",
                  "num_effective_few_shots": 25, "num_asked_few_shots": 25,
                  "predictions": [[-1.2, False], [-0.7, True]], "input_tokens": [],
                  "cont_tokens": [], "truncated": [0], "padded": [0], "gold": ["B"],
                  "pred_logits": [], "choices": ["A", "B"], "gold_index": [1],
                  "metrics": {"acc": float(RIGHT[model][i]),
                              "acc_norm": float(RIGHT[model][i] ^ (i % 7 == 0))},
                  "specifics": {"subject": f"s{i % 4}"}}
        rows.append({k: str(v) for k, v in detail.items()} if as_text else detail)
    return [dict(sorted(r.items())) for r in rows]


def _nested_rows(model, order):
    return [{"doc": {"query": QUERIES[i], "choices": ["A", "B"], "gold_index": 1,
                     "id": str(i), "task_name": TASK, "specific": {"subject": f"s{i % 4}"}},
             "model_response": {"text": ["B"], "logprobs": [-0.7]},
             "metric": {"acc": float(RIGHT[model][i])}} for i in order]


def _write(root: Path, model: str, rows, task=TASK) -> Path:
    folder = root / "details" / "org" / model / DATE
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"details_{task}_{DATE}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


@pytest.mark.parametrize("kind", ["flat", "text", "nested"])
def test_scores_equal_the_files_read_with_pyarrow(tmp_path, kind):
    make = {"flat": lambda m, o: _flat_rows(m, o), "text": lambda m, o: _flat_rows(
        m, o, as_text=True), "nested": _nested_rows}[kind]
    order_b = RNG.permutation(N)           # rows of the second model in another order
    a = _write(tmp_path, "big", make("big", range(N)))
    _write(tmp_path, "small", make("small", order_b))
    logs = read_eval_logs(tmp_path)
    assert logs.models == ("org/big", "org/small") and logs.tasks == (TASK,)
    column = "metric" if kind == "nested" else "metrics"
    direct = pq.read_table(a).column(column).to_pylist()
    if kind == "text":
        import ast
        direct = [ast.literal_eval(d) for d in direct]
    acc = logs.scores[(logs.scores["model"] == "org/big") & (logs.scores["metric"] == "acc")]
    assert acc["score"].mean() == pytest.approx(np.mean([d["acc"] for d in direct]), abs=1e-15)
    assert logs.runs[0].prompt == {"num_fewshot": "25"}


def test_paired_by_item_whatever_the_row_order_mcnemar_equals_statsmodels(tmp_path):
    _write(tmp_path, "big", _flat_rows("big", range(N)))
    _write(tmp_path, "small", _flat_rows("small", RNG.permutation(N)))
    res = compare_evals(tmp_path, metric="acc")
    a, b = RIGHT["big"], RIGHT["small"]
    table = [[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]]
    report = res.per_task[TASK][0]
    # statsmodels.stats.contingency_tables.mcnemar(table, exact=True).pvalue
    assert report.tests["mcnemar"].pvalue == pytest.approx(
        mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert res.pairing[TASK]["n_items"] == N and res.pairing[TASK]["dropped"] == {}


def test_metric_chosen_among_the_per_sample_metrics(tmp_path):
    _write(tmp_path, "big", _flat_rows("big", range(N)))
    _write(tmp_path, "small", _flat_rows("small", range(N)))
    res = compare_evals(tmp_path, metric="acc_norm")
    assert res.metrics[TASK] == "acc_norm"
    with pytest.raises(OutperformError, match=r"no metric 'f1' \(it has \['acc', 'acc_norm'\]\)"):
        compare_evals(tmp_path, metric="f1")


def test_duplicated_items_told_apart_by_order(tmp_path):
    rows = _flat_rows("big", range(N))
    rows[1]["example"] = rows[0]["example"]          # the same question twice
    path = _write(tmp_path, "big", rows)
    logs = read_eval_logs(path)
    ids = logs.scores.loc[logs.scores["metric"] == "acc", "example"].astype(str).tolist()
    assert len(set(ids)) == N and ids[1] == ids[0] + "#2"


def test_cluster_from_specifics(tmp_path):
    _write(tmp_path, "big", _nested_rows("big", range(N)))
    logs = read_eval_logs(tmp_path, cluster="subject")
    assert sorted(logs.scores["cluster"].astype(str).unique()) == ["s0", "s1", "s2", "s3"]
    with pytest.raises(InvalidInputError, match="no field 'topic' in its specifics"):
        read_eval_logs(tmp_path, cluster="topic")


def test_leaderboard_dataset_folder_names_the_model(tmp_path):
    folder = tmp_path / "details_EleutherAI__pythia-160m" / "2023-07-19T13:48:53.093937"
    folder.mkdir(parents=True)
    path = folder / "details_harness|arc:challenge|25_2023-07-19T13:48:53.093937.parquet"
    pq.write_table(pa.Table.from_pylist(_flat_rows("big", range(N))), path)
    logs = read_eval_logs(path)
    assert logs.models == ("EleutherAI/pythia-160m",)
    assert logs.tasks == ("harness|arc:challenge|25",)


@pytest.mark.parametrize("rows, match", [
    ([{"example": "q", "predictions": ["a"]}], r"missing \['metrics'\]"),
    ([{"doc": {"query": "q"}, "model_response": {"text": ["a"]}}], r"missing \['metric'\]"),
    ([{"example": "q", "metrics": "not a dict"}], "is not a mapping"),
])
def test_refusals_name_the_missing_field(tmp_path, rows, match):
    path = _write(tmp_path, "big", rows)
    with pytest.raises(InvalidInputError, match=match):
        read_eval_logs(path)


def test_not_parquet_refused(tmp_path):
    folder = tmp_path / "details" / "m" / DATE
    folder.mkdir(parents=True)
    path = folder / f"details_{TASK}_{DATE}.parquet"
    path.write_text("version https://git-lfs.github.com/spec/v1\n")   # an LFS pointer
    with pytest.raises(InvalidInputError, match="not a readable Parquet file"):
        read_eval_logs(path)


def test_folder_of_models_by_tasks(tmp_path):
    for model in ("big", "small"):
        for task in (TASK, "lighteval|hellaswag|10"):
            _write(tmp_path, model, _flat_rows(model, range(N)), task=task)
    logs = read_eval_logs(tmp_path)
    assert set(logs.models) == {"org/big", "org/small"}
    assert set(logs.tasks) == {TASK, "lighteval|hellaswag|10"}
    assert len(logs.runs) == 4 and len(logs.scores) == 4 * N * 2   # acc and acc_norm
