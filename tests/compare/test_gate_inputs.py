"""A baseline saved with content hashes, read back, and refused when changed; a candidate
on other items refused unless intersected."""
import json

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.compare import gate, load_baseline, save_baseline
from outperform.compare._gate_inputs import ITEMS, MANIFEST, item_hashes
from _paths import FIXTURES

LM_EVAL = FIXTURES / "evals" / "lm_eval"


def test_saved_baseline_gives_the_same_gate(tmp_path):
    base, cand = LM_EVAL / "EleutherAI__pythia-160m", LM_EVAL / "EleutherAI__pythia-410m"
    save_baseline(base, tmp_path / "b")
    manifest = json.loads((tmp_path / "b" / MANIFEST).read_text())
    assert manifest["model"] == "EleutherAI/pythia-160m"
    assert manifest["tasks"] == ["mini_arc", "mini_gsm"]
    direct = gate(base, cand, margin=0.02)
    stored = gate(tmp_path / "b", cand, margin=0.02)
    for a, b in zip(direct.tasks, stored.tasks):
        assert (a.difference, a.pvalue_regression, a.pvalue_pass, a.n_items) == \
            (b.difference, b.pvalue_regression, b.pvalue_pass, b.n_items)
    logs = load_baseline(tmp_path / "b")
    table = pd.read_parquet(tmp_path / "b" / ITEMS)
    # hashes: SHA-256 of task, id and the harness's doc hash (hashlib in the test)
    import hashlib

    row = table.iloc[0]
    key = f"{row.task}\x00{row.example}\x00{row.content if row.content is not None else ''}"
    assert row.item_hash == hashlib.sha256(key.encode()).hexdigest()
    assert len(logs.scores) == len(table)


def test_a_changed_baseline_is_refused(tmp_path):
    save_baseline(LM_EVAL / "EleutherAI__pythia-160m", tmp_path / "b")
    table = pd.read_parquet(tmp_path / "b" / ITEMS)
    table.loc[0, "score"] = 1 - table.loc[0, "score"]
    table.to_parquet(tmp_path / "b" / ITEMS, index=False)
    with pytest.raises(InvalidInputError, match="changed since the baseline was saved"):
        load_baseline(tmp_path / "b")


def test_candidate_on_other_items_refused_unless_intersect(tmp_path):
    b = pd.DataFrame({"model": "v1", "item": np.arange(100), "score": np.tile([1, 0], 50)})
    save_baseline(b, tmp_path / "b")
    c = b.assign(model="v2", item=np.arange(10, 110))
    with pytest.raises(InvalidInputError, match="items are missing"):
        gate(tmp_path / "b", c)
    res = gate(tmp_path / "b", c, intersect=True)
    assert res.tasks[0].n_items == 90
    assert any("gated on the 90 items" in w for w in res.warnings)


def test_item_hashes_see_the_content():
    t = pd.DataFrame({"task": ["a", "a"], "example": ["1", "1"], "content": ["x", "y"]})
    h = item_hashes(t)
    assert h[0] != h[1] and len(h[0]) == 64


def test_prediction_files_are_gated_by_their_correctness(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    base = np.where(rng.random(300) < 0.85, y, 1 - y)
    cand = np.where(rng.random(300) < 0.03, 1 - base, base)
    pd.DataFrame({"id": np.arange(300), "y_true": y, "v1": base}).to_csv(tmp_path / "b.csv",
                                                                        index=False)
    pd.DataFrame({"id": np.arange(300), "y_true": y, "v2": cand}).to_csv(tmp_path / "c.csv",
                                                                        index=False)
    res = gate(tmp_path / "b.csv", tmp_path / "c.csv", margin=0.03)
    t = res.tasks[0]
    assert (res.baseline, res.candidate, t.n_items) == ("v1", "v2", 300)
    assert t.baseline_mean == pytest.approx(np.mean(base == y))
    assert t.candidate_mean == pytest.approx(np.mean(cand == y))
    n01 = int(np.sum((cand != y) & (base == y)))
    assert t.counts["n01"] == n01
    # probabilities of the positive class are cut at 0.5
    probs = pd.DataFrame({"y_true": y, "p": np.where(base == 1, 0.9, 0.2)})
    assert gate(probs, pd.DataFrame({"y_true": y, "v1": base})).tasks[0].difference == 0


def test_a_predictions_table_of_two_models_is_refused(tmp_path):
    df = pd.DataFrame({"y_true": [0, 1] * 5, "a": [0, 1] * 5, "b": [1, 1] * 5})
    with pytest.raises(InvalidInputError, match="ONE model's predictions"):
        gate(df, df)
