"""compare_runs: tidy runs x tasks tables to the aggregates of Agarwal et al. (2021)."""
import json
import pickle
import sys

import numpy as np
import pandas as pd
import pytest

from outperform._validation import InvalidInputError
from outperform.compare import compare_runs

PEERS = "/tmp/runs_peers"
MODELS = ("ppo", "dqn", "sac")


def _table(seed=0, n_tasks=6, n_runs=5):
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        base = rng.uniform(0.5, 0.9)
        for m, shift in zip(MODELS, (0.0, -0.05, 0.03)):
            for r in range(n_runs):
                rows.append({"task": f"t{t}", "model": m, "run": r,
                             "accuracy": base + shift + rng.normal(0, 0.05)})
    return pd.DataFrame(rows)


def _arrays(frame, metric="accuracy"):
    """(runs, tasks) arrays per model, min-max normalised per task (the stated rule)."""
    lo = frame.groupby("task")[metric].transform("min")
    hi = frame.groupby("task")[metric].transform("max")
    f = frame.assign(norm=(frame[metric] - lo) / (hi - lo))
    return {m: f[f.model == m].pivot(index="run", columns="task", values="norm").to_numpy()
            for m in MODELS}


def test_estimates_equal_rliable_on_the_normalised_arrays():
    if PEERS not in sys.path:
        sys.path.append(PEERS)
    metrics = pytest.importorskip("rliable.metrics")
    frame = _table()
    res = compare_runs(frame, normalize="min-max", n_resamples=20, random_state=0)
    arrays = _arrays(frame)
    for m in MODELS:
        # rliable.metrics.aggregate_iqm(x) / aggregate_optimality_gap(x) with x (runs, tasks)
        assert res.aggregates[m]["iqm"].estimate == pytest.approx(
            metrics.aggregate_iqm(arrays[m]), abs=1e-12)
        assert res.aggregates[m]["optimality_gap"].estimate == pytest.approx(
            metrics.aggregate_optimality_gap(arrays[m]), abs=1e-12)
    # rliable.metrics.probability_of_improvement(x, y)
    assert res.improvements[("ppo", "dqn")].estimate == pytest.approx(
        metrics.probability_of_improvement(arrays["ppo"], arrays["dqn"]), abs=1e-12)
    assert "min-max" in res.normalization and "min-max" in str(res)


def test_row_and_task_order_do_not_matter():
    frame = _table()
    a = compare_runs(frame, normalize="min-max", n_resamples=20, random_state=0)
    b = compare_runs(frame.sample(frac=1, random_state=1), normalize="min-max", n_resamples=20,
                     random_state=0)
    for m in MODELS:
        for s in a.aggregates[m]:
            assert a.aggregates[m][s].estimate == pytest.approx(b.aggregates[m][s].estimate,
                                                                abs=1e-14)


def test_lower_is_better_min_max_is_the_flipped_score():
    frame = _table()
    err = frame.assign(error=1 - frame.accuracy).drop(columns="accuracy")
    a = compare_runs(frame, normalize="min-max", n_resamples=20, random_state=0)
    b = compare_runs(err, normalize="min-max", n_resamples=20, random_state=0)
    assert b.aggregates["sac"]["iqm"].estimate == pytest.approx(
        a.aggregates["sac"]["iqm"].estimate, abs=1e-12)
    with pytest.raises(InvalidInputError, match="lower-is-better"):
        compare_runs(err)


def test_reference_scores_zero_one_leave_scores_unchanged():
    frame = _table()
    ref = {f"t{t}": (0.0, 1.0) for t in range(6)}
    a = compare_runs(frame, normalize=ref, n_resamples=20, random_state=0)
    b = compare_runs(frame, n_resamples=20, random_state=0)
    assert a.aggregates["ppo"]["mean"].estimate == pytest.approx(
        b.aggregates["ppo"]["mean"].estimate, abs=1e-14)
    assert "reference" in a.normalization and "none" in b.normalization
    with pytest.raises(InvalidInputError, match="no reference scores"):
        compare_runs(frame, normalize={"t0": (0, 1)})


def test_last_step_of_learning_curves_and_folds_averaged():
    frame = _table()
    early = frame.assign(accuracy=0.0, step=10)
    curves = pd.concat([early, frame.assign(step=100)])
    a = compare_runs(curves, normalize="min-max", n_resamples=20, random_state=0)
    b = compare_runs(frame, normalize="min-max", n_resamples=20, random_state=0)
    assert a.aggregates["dqn"]["iqm"].estimate == pytest.approx(
        b.aggregates["dqn"]["iqm"].estimate, abs=1e-14)
    assert any("last step" in n for n in a.notes)
    folds = pd.concat([frame.assign(fold=0, accuracy=frame.accuracy - 0.01),
                       frame.assign(fold=1, accuracy=frame.accuracy + 0.01)])
    c = compare_runs(folds, n_resamples=20, random_state=0)
    d = compare_runs(frame, n_resamples=20, random_state=0)
    assert c.aggregates["dqn"]["mean"].estimate == pytest.approx(
        d.aggregates["dqn"]["mean"].estimate, abs=1e-12)


def test_control_pairs_and_serialisation():
    res = compare_runs(_table(), normalize="min-max", control="ppo", n_resamples=20,
                       random_state=0)
    assert set(res.improvements) == {("dqn", "ppo"), ("sac", "ppo")}
    json.dumps(res.to_dict())
    assert len(res.to_frame()) == 3 * 4 + 2 + 2 * 4      # aggregates, P(X > Y), differences
    assert pickle.loads(pickle.dumps(res)).models == MODELS


def test_bad_tables_are_refused():
    frame = _table()
    with pytest.raises(InvalidInputError, match="'run' column"):
        compare_runs(frame.drop(columns="run").drop_duplicates(["task", "model"]))
    with pytest.raises(InvalidInputError, match="runs per task"):
        compare_runs(frame[~((frame.task == "t1") & (frame.run == 4))])
    with pytest.raises(InvalidInputError, match="unknown control"):
        compare_runs(frame, control="a2c")
    flat = frame.assign(accuracy=np.where(frame.task == "t0", 0.5, frame.accuracy))
    with pytest.raises(InvalidInputError, match="same score on task"):
        compare_runs(flat, normalize="min-max")


# ---- paired where the design is paired (issue 18, item 3) ------------------------------------

def _seeded_table(seed=0, n_tasks=8, n_runs=5):
    """Every run's seed moves all models alike (a hard or easy split): shared run ids."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        base = rng.uniform(0.5, 0.9)
        split = rng.normal(0, 0.1, n_runs)                 # what run r's split does to all
        for m, shift in zip(MODELS, (0.0, -0.02, 0.02)):
            for r in range(n_runs):
                rows.append({"task": f"t{t}", "model": m, "run": r,
                             "accuracy": base + shift + split[r] + rng.normal(0, 0.01)})
    return pd.DataFrame(rows)


def test_shared_run_ids_are_resampled_as_pairs_and_the_report_says_so():
    frame = _seeded_table()
    paired = compare_runs(frame, n_resamples=2000, random_state=0)
    assert paired.paired and "paired design" in str(paired)
    forced = compare_runs(frame, n_resamples=2000, random_state=0, paired=False)
    assert not forced.paired and "unpaired design (paired=False was asked)" in str(forced)
    # same estimates; the paired interval of a difference is far narrower, because the
    # split effect (sd 0.1) cancels in it while the model noise is sd 0.01
    for s in ("mean", "iqm"):
        p, u = paired.differences[("ppo", "sac")][s], forced.differences[("ppo", "sac")][s]
        assert p.estimate == pytest.approx(u.estimate, abs=1e-12)
        assert (p.high - p.low) < 0.5 * (u.high - u.low)
        assert p.high < 0                                     # sac is better, paired sees it
    assert paired.to_dict()["paired"] is True


def test_different_run_ids_are_read_as_unpaired_and_the_report_says_why():
    frame = _seeded_table()
    frame.loc[frame.model == "dqn", "run"] += 10              # dqn's seeds are its own
    res = compare_runs(frame, n_resamples=200, random_state=0)
    assert not res.paired
    assert "run ids differ on task(s)" in str(res) and "less power" in str(res)
    with pytest.raises(InvalidInputError, match="run ids differ"):
        compare_runs(frame, n_resamples=20, paired=True)


def test_read_results_refuses_unshared_runs_for_paired_tests_only():
    from outperform.data import read_results
    frame = _seeded_table()
    frame.loc[frame.model == "dqn", "run"] += 10
    with pytest.raises(InvalidInputError, match="compare_runs"):
        read_results(frame)
    assert read_results(frame, paired=False).models == MODELS
