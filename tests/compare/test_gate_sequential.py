"""``gate --sequential`` (compare/_gate_sequential.py): the gate after every item, valid at
every look — each task's betting confidence sequence, Bonferroni over the tasks, the
candidate's evaluation order, the benchmark as the population."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from outperform._validation import InvalidInputError
from outperform.compare import sequential_compare, sequential_gate


def _runs(n=600, loss=0.0, tasks=("t1",), seed=0, evaluated=None):
    """Baseline on every item; the candidate on the first ``evaluated`` items of a random
    order, listed in that order (as a harness that shuffled the benchmark writes them)."""
    rng = np.random.default_rng(seed)
    base, cand = [], []
    for task in tasks:
        right = rng.random(n) < 0.8
        flip = rng.random(n) < 0.1 + loss
        new = np.where(flip, (rng.random(n) < 0.8 - 5 * loss) & ~(right & (rng.random(n) < loss * 5)),
                       right)
        order = rng.permutation(n)[: evaluated or n]
        base.append(pd.DataFrame({"model": "v1", "task": task, "item": np.arange(n),
                                  "score": right.astype(int)}))
        cand.append(pd.DataFrame({"model": "v2", "task": task, "item": order,
                                  "score": new[order].astype(int)}))
    return pd.concat(base, ignore_index=True), pd.concat(cand, ignore_index=True)


def test_each_task_is_the_sequence_of_its_items_in_the_candidates_order():
    base, cand = _runs(evaluated=400)
    result = sequential_gate(base, cand, margin=0.05, alpha=0.05)
    t = result.tasks[0]
    order = cand["item"].to_numpy()
    direct = sequential_compare(base["score"].to_numpy()[order], cand["score"].to_numpy(),
                                margin=0.05, alpha=0.10, population=600)
    np.testing.assert_array_equal(t.comparison.sequence.lower, direct.sequence.lower)
    np.testing.assert_array_equal(t.comparison.sequence.upper, direct.sequence.upper)
    assert t.population == 600 and t.n_items == 400
    assert (t.comparison.decision, t.comparison.stopped_at) == (direct.decision, direct.stopped_at)


def test_tasks_share_alpha_by_bonferroni_and_the_verdict_follows_the_rule():
    base, cand = _runs(tasks=("a", "b", "c"), evaluated=300)
    result = sequential_gate(base, cand, margin=0.05, alpha=0.05)
    assert result.sequence_alpha == pytest.approx(2 * 0.05 / 3)
    verdicts = [t.verdict for t in result.tasks]
    expected = ("regression" if "regression" in verdicts else
                "pass" if set(verdicts) == {"pass"} else "inconclusive")
    assert result.verdict == expected


def test_a_clear_regression_stops_early():
    base, cand = _runs(n=2000, loss=0.08, seed=3)
    result = sequential_gate(base, cand, margin=0.01)
    t = result.tasks[0]
    assert result.verdict == "regression" and 0 < t.comparison.stopped_at < 2000
    assert t.interval[1] < -0.01


def test_a_growing_log_keeps_its_earlier_decisions():
    """Anytime validity in practice: the looks of a log's first 200 items are the first 200
    looks of the same log at 500 items."""
    base, cand = _runs(evaluated=500, seed=4)
    early = sequential_gate(base, cand.iloc[:200], margin=0.03).tasks[0].comparison
    later = sequential_gate(base, cand, margin=0.03).tasks[0].comparison
    np.testing.assert_array_equal(early.sequence.lower, later.sequence.lower[:200])
    assert early.decisions.tolist() == later.decisions.tolist()[:200]


def test_a_loss_metric_is_the_mirror_of_its_score():
    base, cand = _runs(evaluated=300, seed=5)
    as_loss = [d.assign(score=1 - d["score"]) for d in (base, cand)]
    score = sequential_gate(base, cand, margin=0.04).tasks[0].comparison
    loss = sequential_gate(*as_loss, margin=0.04, higher_is_better=False).tasks[0].comparison
    np.testing.assert_allclose(loss.sequence.lower, score.sequence.lower, atol=1e-12)
    assert loss.decision == score.decision


def test_items_in_sorted_order_are_flagged_and_shuffle_is_seeded():
    base, cand = _runs(evaluated=300, seed=6)
    sorted_cand = cand.sort_values("item")
    flagged = sequential_gate(base, sorted_cand, margin=0.05)
    assert any("increasing order of their ids" in w for w in flagged.warnings)
    one = sequential_gate(base, sorted_cand, margin=0.05, order="shuffle", random_state=2)
    two = sequential_gate(base, sorted_cand, margin=0.05, order="shuffle", random_state=2)
    assert one.tasks[0].comparison.stopped_at == two.tasks[0].comparison.stopped_at
    assert not any("increasing order" in w for w in one.warnings)


@pytest.mark.parametrize("kwargs, message", [
    ({"order": "sorted"}, "choose one of file, shuffle"),
    ({"margin": -0.1}, "margin"),
    ({"bounds": (0.0, 0.5)}, "outside the bounds"),
])
def test_odd_inputs_are_refused(kwargs, message):
    base, cand = _runs(n=100, evaluated=50)
    with pytest.raises(InvalidInputError) as error:
        sequential_gate(base, cand, **kwargs)
    assert message in str(error.value)
