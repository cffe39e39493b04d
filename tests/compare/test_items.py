"""item_diagnostics (compare/_items.py): the model x item matrix read from a long table or
evaluation logs, and each benchmark's signal-to-noise ratio and decision accuracy equal to
the outputs of the reference code of Heineman et al. (2025) on the same scores, stored in
tests/fixtures/peers/signal_and_noise.json by make_signal_and_noise.py beside it."""
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import special

from _paths import FIXTURES
from outperform.compare import item_diagnostics
from outperform.report import items_output, render_output, validate_output

REF = json.loads((FIXTURES / "peers" / "signal_and_noise.json").read_text())["item_diagnostics"]
LM_EVAL = FIXTURES / "evals" / "lm_eval"


def _table(m=10, n=80, seed=0, missing=0.0, tasks=("arc", "gsm")):
    rng = np.random.default_rng(seed)
    theta, b = np.linspace(-1.5, 1.5, m), rng.normal(0, 1, n)
    x = (rng.random((m, n)) < special.expit(theta[:, None] - b)).astype(float)
    rows = [{"model": f"m{i}", "task": tasks[j % len(tasks)], "item": j, "score": x[i, j]}
            for i in range(m) for j in range(n) if rng.random() >= missing]
    return pd.DataFrame(rows)


def test_signal_to_noise_and_decision_accuracy_equal_the_reference_code():
    # the stored matrix is _table()'s: model m{i} is row i, item j of task tasks[j]
    x = np.array(REF["scores"], dtype=float)
    assert np.array_equal(_table()["score"].to_numpy().reshape(x.shape), x)
    df = pd.DataFrame([{"model": model, "task": REF["tasks"][j], "item": j, "score": x[i, j]}
                       for i, model in enumerate(REF["models"]) for j in range(x.shape[1])])
    res = item_diagnostics(df, n_resamples=REF["n_resamples"])
    # all tasks: the models' means are the signal; the noise the best model's mean over the
    # same bootstrap resamples of its items (the first draws of default_rng(0));
    # snr.metrics.signal_to_noise_ratio(signal, noise)
    row = res.benchmarks[0]
    assert row["task"] is None and row["noise_model"] == REF["noise_model"]
    assert row["snr"] == pytest.approx(REF["snr"], rel=1e-12)
    # each subtask against all tasks: snr.metrics.decision_acc_fast(task means, all means)
    assert [r["task"] for r in res.benchmarks[1:]] == list(REF["decision_acc_vs_all"])
    for row in res.benchmarks[1:]:
        assert row["decision_accuracy_vs_all"] == pytest.approx(
            REF["decision_acc_vs_all"][row["task"]], abs=1e-15)
        assert row["n_items"] == 40


def test_split_half_decision_accuracy_grows_with_the_spread_of_the_models():
    close = item_diagnostics(_table(seed=1).assign(
        score=lambda d: np.where(np.random.default_rng(2).random(len(d)) < 0.5, 1.0, 0.0)))
    apart = item_diagnostics(_table(seed=1))
    assert close.benchmarks[0]["decision_accuracy_split_half"] < 0.7
    assert apart.benchmarks[0]["decision_accuracy_split_half"] > 0.8


def test_sparse_matrix_and_flags():
    res = item_diagnostics(_table(missing=0.3), top_k=3)
    assert res.ranked_by == "ability" and res.irt["model"] == "rasch"
    assert any("cells are missing" in n for n in res.notes)
    # the top 3 by ability are the three best simulated models
    assert set(res.top_models) == {"m9", "m8", "m7"}
    frame = res.to_frame()
    assert len(frame) == 80 and {"difficulty", "discrimination", "top_agree"} <= set(frame)
    assert (frame["difficulty"][frame["all_right"]] == 1).all()
    assert (frame["difficulty"][frame["none_right"]] == 0).all()


def test_graded_scores_get_no_item_response_model_by_default():
    df = _table().assign(score=lambda d: d["score"] * 0.5 + 0.25)
    res = item_diagnostics(df)
    assert res.irt is None and res.ranked_by == "mean score"
    assert any("graded" in n for n in res.notes)


def test_output_validates_and_renders():
    pytest.importorskip("jsonschema")
    out = items_output(item_diagnostics(_table(missing=0.2)))
    import json

    validate_output(json.loads(render_output(out, "json")))
    for fmt in ("text", "markdown", "html", "latex"):
        assert "Signal and noise" in render_output(out, fmt)


def test_lm_eval_logs_are_read():
    found = sorted(LM_EVAL.glob("*/samples_mini_arc_*.jsonl"))
    if len(found) != 2:
        pytest.skip("lm-eval fixtures not present")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = item_diagnostics([str(p) for p in found])
    assert len(res.models) == 2 and res.counts()["items"] > 0
