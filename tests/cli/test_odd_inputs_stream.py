"""Odd inputs of the streamed Hugging Face details reader (issue 31, item 1) through
``outperform leaderboard FOLDER`` and ``outperform compare-evals FOLDER``: each case the
folder as built, the command, the exit code and a substring of the output (one line, no
traceback)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from outperform.cli import app

DATE = "2024-05-01T10-00-00.000000"
TASK, OTHER = "lighteval|arc:challenge|25", "lighteval|hellaswag|10"
N = 24
RNG = np.random.default_rng(5)
runner = CliRunner()


def _rows(model_seed, ids=None, acc=None):
    ids = [str(i) for i in range(N)] if ids is None else ids
    right = np.random.default_rng(model_seed).random(len(ids)) < 0.7 if acc is None else acc
    return [{"doc": {"query": f"question {i}", "gold_index": 1, "id": d},
             "model_response": {"text": ["B"]}, "metric": {"acc": float(r)}}
            for i, (d, r) in enumerate(zip(ids, right))]


def _write(root: Path, model: str, rows, task=TASK) -> None:
    folder = root / "details" / "org" / model / DATE
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / f"details_{task}_{DATE}.parquet")


def _models(root: Path, tasks=(TASK, OTHER), models=("a", "b", "c")) -> Path:
    for k, model in enumerate(models):
        for task in tasks:
            _write(root, model, _rows(k), task)
    return root


def another_schema(root):
    _models(root)
    _write(root, "d", [{"example": "q", "predictions": ["a"]}])
    return root


def duplicated_ids_in_one_model(root):
    _models(root, tasks=(TASK,))
    _write(root, "d", _rows(9, ids=["7"] * N))       # ids repeated: the content-hash rule
    return root


def duplicated_ids_in_every_model(root):
    for k, model in enumerate("abc"):
        _write(root, model, _rows(k, ids=["7"] * N))
    return root


def model_missing_a_task(root):
    _models(root)
    _write(root, "d", _rows(4))                        # task TASK only
    return root


def model_missing_items(root):
    _models(root, tasks=(TASK,))
    _write(root, "d", _rows(4)[:-2])
    return root


def other_data_under_the_same_ids(root):
    _models(root, tasks=(TASK,))
    rows = _rows(4)
    for r in rows[:5]:
        r["doc"]["gold_index"] = 3                    # another gold answer than the others'
    _write(root, "d", rows)
    return root


def acc_not_binary(root):
    _models(root, tasks=(TASK,))
    _write(root, "d", _rows(4, acc=np.full(N, 0.5)))
    return root


def nan_score(root):
    _models(root, tasks=(TASK,))
    _write(root, "d", _rows(4, acc=np.r_[np.nan, np.ones(N - 1)]))
    return root


def a_table_beside_the_details(root):
    _models(root, tasks=(TASK,))
    pq.write_table(pa.table({"model": ["a"], "rank": [1]}), root / "leaderboard.parquet")
    return root


CASES = [
    (a_table_beside_the_details, "leaderboard", [], 1,
     "leaderboard.parquet is not a Hugging Face details file. The folder also holds"),
    (a_table_beside_the_details, "compare-evals", [], 1,
     "leaderboard.parquet is not a Hugging Face details file. The folder also holds"),
    # (folder builder, command, extra arguments, exit code, output substring)
    (another_schema, "leaderboard", [], 1, "missing ['metrics']"),
    (another_schema, "compare-evals", [], 1, "missing ['metrics']"),
    (duplicated_ids_in_one_model, "leaderboard", [], 1,
     "doc.id values of ['org/d'] are repeated or empty"),
    (duplicated_ids_in_one_model, "compare-evals", [], 1,
     "doc.id values of ['org/d'] are repeated or empty"),
    (duplicated_ids_in_every_model, "leaderboard", ["--n-resamples", "200"], 0, "org/a"),
    (model_missing_a_task, "leaderboard", [], 1,
     "model 'org/d' has no details file for task 'lighteval|hellaswag|10'"),
    (model_missing_a_task, "leaderboard", ["--task", TASK, "--n-resamples", "200"], 0,
     "org/d"),
    (model_missing_a_task, "compare-evals", [], 1, "was not run by ['org/d']"),
    (model_missing_a_task, "compare-evals", ["--intersect"], 0, "org/d"),
    (model_missing_items, "leaderboard", [], 1, "org/d lacks 2 (first ['22', '23'])"),
    (model_missing_items, "compare-evals", [], 1, "org/d lacks 2 (first ['22', '23'])"),
    (model_missing_items, "compare-evals", ["--intersect"], 0, "org/d"),
    (acc_not_binary, "leaderboard", [], 1, "are not 0 or 1 (wrong or right)"),
    (other_data_under_the_same_ids, "leaderboard", [], 1,
     "5 item(s) have a different gold answer (doc.gold_index) for different models, "
     "first ['0', '1', '2', '3', '4']"),
    (other_data_under_the_same_ids, "compare-evals", [], 1,
     "have a different gold answer (doc.gold_index)"),
    (nan_score, "compare-evals", [], 1, "are not all finite numbers"),
    (_models, "leaderboard", ["--task", "nope"], 1,
     "task 'nope' is not among the details files' tasks"),
]


@pytest.mark.parametrize("build, command, extra, code, expected", CASES,
                         ids=[f"{c[0].__name__}-{c[1]}-{i}" for i, c in enumerate(CASES)])
def test_odd_details_folder(tmp_path, build, command, extra, code, expected):
    root = build(tmp_path)
    res = runner.invoke(app, [command, str(root), *extra])
    text = " ".join(res.output.split())
    assert res.exit_code == code, res.output
    assert expected in text
    assert "Traceback" not in res.output
