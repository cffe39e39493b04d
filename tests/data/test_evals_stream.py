"""data/_evals/_stream.py and _stream_pairs.py: Hugging Face details streamed into bit-packed
matrices, against the reader that loads every file whole (read_eval_logs + pair_items) on
the same folder — the same scores and the same pairing (properties) — and against the values
written (the generator's arrays). The files are written as lighteval writes them (see
tests/data/test_evals_hf_details.py for the writers' code and commits)."""
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from outperform import InvalidInputError
from outperform.compare import compare_evals, leaderboard
from outperform.data import read_eval_logs
from outperform.data._evals._pairing import pair_items
from outperform.data._evals._stream import stream_details
from outperform.data._evals._stream_pairs import pair_streamed

DATE = "2024-05-01T10-00-00.000000"
TASKS = ("lighteval|arc:challenge|25", "lighteval|hellaswag|10")
N = 30
RNG = np.random.default_rng(31)
MODELS = ("big", "mid", "small")
RIGHT = {(m, t): RNG.random(N) < p for m, p in zip(MODELS, (0.8, 0.65, 0.5)) for t in TASKS}
GRADED = {(m, t): RNG.integers(0, 5, N) / 4 for m in MODELS for t in TASKS}   # exact in f32


def _flat(model, task, order, as_text=False):
    rows = [{"example": f"{task} question {i}", "full_prompt": f"shots\nquestion {i}",
             "predictions": [[-1.2, False]], "gold": ["B"], "choices": ["A", "B"],
             "gold_index": [1], "metrics": {"acc": float(RIGHT[model, task][i]),
                                            "f1": float(GRADED[model, task][i])},
             "specifics": {"subject": f"s{i % 4}"}} for i in order]
    return [{k: str(v) for k, v in r.items()} for r in rows] if as_text else rows


def _nested(model, task, order):
    return [{"doc": {"query": f"{task} question {i}", "choices": ["A", "B"], "gold_index": 1,
                     "id": str(i), "specific": {"subject": f"s{i % 4}"}},
             "model_response": {"text": ["B"], "logprobs": [-0.7]},
             "metric": {"acc": float(RIGHT[model, task][i]),
                        "f1": float(GRADED[model, task][i])}} for i in order]


MAKERS = {"flat": _flat, "text": lambda m, t, o: _flat(m, t, o, as_text=True),
          "nested": _nested}


def _write(root: Path, model: str, rows, task=TASKS[0]) -> Path:
    folder = root / "details" / "org" / model / DATE
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"details_{task}_{DATE}.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    return path


def _folder(root, kind, models=MODELS, tasks=TASKS):
    for model in models:
        for task in tasks:
            order = RNG.permutation(N) if model == "mid" else range(N)   # another row order
            _write(root, model, MAKERS[kind](model, task, order), task)
    return root


@pytest.mark.parametrize("kind", ["flat", "text", "nested"])
@pytest.mark.parametrize("metric", ["acc", "f1"])
def test_streamed_pairing_equals_the_whole_file_reader(tmp_path, kind, metric):
    root = _folder(tmp_path, kind)
    whole = pair_items(read_eval_logs(root), metric=metric)
    streamed = pair_streamed(stream_details(root, metric=metric))
    assert list(streamed) == list(whole)
    for task, w in whole.items():
        s = streamed[task]
        assert s.models == w.models and s.metric == w.metric
        assert sorted(s.examples) == sorted(w.examples)          # the same items
        order = np.argsort(s.examples)
        np.testing.assert_array_equal(s.scores[order], w.scores[np.argsort(w.examples)])


def test_scores_are_the_values_written_and_0_1_are_bit_packed(tmp_path):
    root = _folder(tmp_path, "nested")
    res = stream_details(root)
    m = res.matrices[TASKS[1]]
    assert m.binary and m.bits.shape == (3, (N + 7) // 8) and m.values is None
    expected = np.column_stack([RIGHT[x, TASKS[1]] for x in MODELS]).astype(float)
    np.testing.assert_array_equal(m.scores()[np.argsort(m.items.astype(int))], expected)
    graded = stream_details(root, metric="f1").matrices[TASKS[1]]
    assert not graded.binary and graded.values.dtype == np.float32
    assert set(res.timings) == {"read", "pair"} and len(res.runs) == 6


def test_projection_reads_a_file_whose_text_columns_are_damaged(tmp_path):
    """The bytes of the model_response column are overwritten: reading it fails, reading
    the id and the metric (projection) does not."""
    _folder(tmp_path, "nested", tasks=TASKS[:1])
    path = next(tmp_path.rglob("*big*/*/*.parquet"))
    meta = pq.ParquetFile(path).metadata.row_group(0)
    names = [meta.column(i).path_in_schema for i in range(meta.num_columns)]
    col = meta.column(names.index("model_response.text.list.element"))
    data = bytearray(path.read_bytes())
    start = col.data_page_offset
    data[start:start + col.total_compressed_size] = b"\xff" * col.total_compressed_size
    path.write_bytes(bytes(data))
    with pytest.raises(Exception):
        pq.read_table(path)                          # the whole file cannot be read
    with pytest.raises(InvalidInputError):
        read_eval_logs(path)
    m = stream_details(tmp_path).matrices[TASKS[0]]
    expected = np.column_stack([RIGHT[x, TASKS[0]] for x in MODELS]).astype(float)
    np.testing.assert_array_equal(m.scores()[np.argsort(m.items.astype(int))], expected)


def test_missing_items_refused_or_intersected_as_pair_items_does(tmp_path):
    _folder(tmp_path, "nested", tasks=TASKS[:1])
    _write(tmp_path, "small", _nested("small", TASKS[0], range(N - 3)))   # lacks 3 items
    with pytest.raises(InvalidInputError, match=r"small lacks 3 \(first \['27', '28', '29'\]"):
        pair_streamed(stream_details(tmp_path))
    with pytest.raises(InvalidInputError, match=r"small lacks 3 \(first \['27', '28', '29'\]"):
        pair_items(read_eval_logs(tmp_path))
    s = pair_streamed(stream_details(tmp_path), intersect=True)[TASKS[0]]
    w = pair_items(read_eval_logs(tmp_path), intersect=True)[TASKS[0]]
    assert s.dropped == {"org/small": ["27", "28", "29"]} and set(w.dropped) == {"org/small"}
    assert sorted(map(str, w.dropped["org/small"])) == s.dropped["org/small"]
    assert len(s.examples) == N - 3


def test_clusters_as_the_whole_file_reader(tmp_path):
    root = _folder(tmp_path, "nested", tasks=TASKS[:1])
    s = pair_streamed(stream_details(root, cluster="subject"))[TASKS[0]]
    w = pair_items(read_eval_logs(root, cluster="subject"))[TASKS[0]]
    assert dict(zip(s.examples, s.clusters)) == dict(zip(w.examples, w.clusters))


@pytest.mark.slow
def test_compare_evals_on_a_folder_equals_compare_evals_on_the_logs_read_whole(tmp_path):
    root = _folder(tmp_path, "flat")
    streamed = compare_evals(root, metric="acc")
    whole = compare_evals(read_eval_logs(root), metric="acc")     # EvalLogs: not streamed
    for task in TASKS:
        for a, b in zip(streamed.per_task[task], whole.per_task[task]):
            assert a.models == b.models
            assert a.tests["mcnemar"].pvalue == b.tests["mcnemar"].pvalue
            assert a.tests["paired_difference"].estimate == pytest.approx(
                b.tests["paired_difference"].estimate, abs=1e-15)
    assert streamed.across_tasks.to_dict() == whole.across_tasks.to_dict()


def test_leaderboard_pools_the_tasks_items_and_task_keeps_one(tmp_path):
    """The folder ranks as the long table of the same scores, examples (task, id)."""
    import pandas as pd

    root = _folder(tmp_path, "nested")
    rows = pd.DataFrame([{"model": f"org/{m}", "example": f"{t}/{i}",
                          "score": float(RIGHT[m, t][i])}
                         for m in MODELS for t in TASKS for i in range(N)])
    board = leaderboard(root, n_resamples=200)
    table = leaderboard(rows, n_resamples=200)
    assert board.names == table.names
    # the same items in the same order: the same bootstrap, so the same rank sets and tiers
    pd.testing.assert_frame_equal(board.to_frame(), table.to_frame())
    assert any("pooled over the 2 tasks" in n for n in board.notes)
    one = leaderboard(root, task=TASKS[1], n_resamples=200)
    expected = [RIGHT[m, TASKS[1]].mean() for m in MODELS]
    got = one.to_frame().set_index("model").loc[[f"org/{m}" for m in MODELS], "estimate"]
    assert got.tolist() == pytest.approx(expected, abs=1e-15)


@pytest.mark.slow
def test_thousands_of_files(tmp_path):
    """1,000 files (500 models x 2 tasks x 16 items): every score as written."""
    n, k = 16, 500
    right = RNG.random((2, n, k)) < np.linspace(0.2, 0.9, k)
    docs = pa.StructArray.from_arrays([pa.array([str(i) for i in range(n)])], ["id"])
    for j in range(k):
        for t, task in enumerate(TASKS):
            acc = pa.StructArray.from_arrays([pa.array(right[t, :, j].astype(float))], ["acc"])
            folder = tmp_path / "details" / "org" / f"m{j:03d}" / DATE
            folder.mkdir(parents=True, exist_ok=True)
            pq.write_table(pa.table({"doc": docs, "metric": acc}),
                           folder / f"details_{task}_{DATE}.parquet")
    res = stream_details(tmp_path)
    assert res.models == tuple(f"org/m{j:03d}" for j in range(k))
    for t, task in enumerate(TASKS):
        np.testing.assert_array_equal(res.matrices[task].scores(), right[t].astype(float))


def test_task_reads_its_files_only_and_the_read_is_costed_first(tmp_path, monkeypatch):
    import outperform._cost as cost

    root = _folder(tmp_path, "nested")
    one = stream_details(root, task=TASKS[1])
    assert list(one.matrices) == [TASKS[1]] and {r.task for r in one.runs} == {TASKS[1]}
    # 6 files of N rows as float64: 6 * 8 * N bytes; refused before any file is read
    monkeypatch.setattr(cost, "available_memory", lambda: 6 * 8 * N)
    with pytest.raises(InvalidInputError, match="details files = 6 .*read fewer models. files, or one task with --task"):
        stream_details(root)


def test_pooled_clusters_are_named_by_task(tmp_path):
    import pandas as pd

    root = _folder(tmp_path, "nested")
    board = leaderboard(root, cluster="subject", n_resamples=200)
    rows = pd.DataFrame([{"model": f"org/{m}", "example": f"{t}/{i}", "cluster": f"{t}/s{i % 4}",
                          "score": float(RIGHT[m, t][i])}
                         for m in MODELS for t in TASKS for i in range(N)])
    table = leaderboard(rows, cluster="cluster", n_resamples=200)
    assert board.rank_sets.n_clusters == 8                 # 4 subjects in each of 2 tasks
    pd.testing.assert_frame_equal(board.to_frame(), table.to_frame())
