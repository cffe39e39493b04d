"""Runs x tasks aggregates at their edges (issue 25): one run, scores near 1e300, learning
curves that end at different steps, a two-level bootstrap over one task."""
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from outperform import InvalidInputError
from outperform.compare import compare_runs, sample_efficiency
from outperform.stats import aggregate_runs, performance_profile, probability_of_improvement


def _table(n_runs, scale=1.0, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"task": f"t{t}", "model": m, "run": r,
                          "score": scale * (0.5 + 0.1 * i + 0.05 * rng.random())}
                         for t in range(4) for i, m in enumerate("AB") for r in range(n_runs)])


# --- one run per task ------------------------------------------------------------------------

def test_one_run_gives_nan_intervals_and_one_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = compare_runs(_table(1), n_resamples=200, random_state=0)
    one_run = [w for w in caught if "one run per task" in str(w.message)]
    assert len(one_run) == 1
    for stats_ in res.aggregates.values():
        for est in stats_.values():
            assert np.isnan(est.low) and np.isnan(est.high) and np.isfinite(est.estimate)
    for est in res.improvements.values():
        assert np.isnan(est.low) and np.isnan(est.high)
    for st in res.differences.values():
        assert all(np.isnan(e.low) and np.isnan(e.high) for e in st.values())
    assert any("one run per task" in n for n in res.notes)
    for prof in res.profiles.values():
        assert np.all(np.isnan(prof.low))


def test_one_run_stats_kernels_warn():
    x = np.array([[0.2, 0.5, 0.9]])
    with pytest.warns(UserWarning, match="one run per task"):
        r = aggregate_runs(x, n_resamples=100, random_state=0)
    assert np.isnan(r["mean"].low) and r["mean"].estimate == pytest.approx(np.mean(x[0]))
    with pytest.warns(UserWarning, match="one run per task"):
        p = probability_of_improvement(x, x[:, ::-1], n_resamples=100, random_state=0)
    assert np.isnan(p.high)
    with pytest.warns(UserWarning, match="one run per task"):
        prof = performance_profile(x, n_resamples=100, random_state=0)
    assert np.all(np.isnan(prof.high))


def test_one_run_with_tasks_resampled_keeps_its_interval():
    x = np.array([[0.2, 0.5, 0.9, 0.4]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = aggregate_runs(x, n_resamples=500, task_bootstrap=True, random_state=0)
    assert r["mean"].low < r["mean"].estimate < r["mean"].high


def test_one_run_learning_curves_give_nan_bands():
    rows = [{"task": t, "model": m, "run": 0, "step": s, "score": s / 10 + 0.01 * i}
            for t in ("u", "v") for i, m in enumerate("AB") for s in (1, 2, 3)]
    with pytest.warns(UserWarning, match="one run per task"):
        res = sample_efficiency(pd.DataFrame(rows), n_resamples=100, random_state=0)
    assert np.all(np.isnan(res.low["A"])) and np.all(np.isfinite(res.estimate["A"]))


# --- scores near 1e300 -----------------------------------------------------------------------

def test_huge_scores_scale_with_the_data():
    """The aggregates are homogeneous of degree 1 (gamma scaled too): c * data gives c times
    every estimate and interval bound (same seed, same resamples)."""
    small = compare_runs(_table(5), n_resamples=300, random_state=1, gamma=1.0)
    c = 1e300
    huge = compare_runs(_table(5, scale=c), n_resamples=300, random_state=1, gamma=c)
    for m in "AB":
        for s in ("mean", "median", "iqm", "optimality_gap"):
            a, b = small.aggregates[m][s], huge.aggregates[m][s]
            assert np.isfinite([b.low, b.high]).all()
            np.testing.assert_allclose([b.estimate / c, b.low / c, b.high / c],
                                       [a.estimate, a.low, a.high], rtol=1e-6, atol=1e-7)


def test_huge_scores_estimate_is_the_float64_aggregate():
    rng = np.random.default_rng(0)
    x = 1e300 * (1 + rng.random((4, 5)))
    r = aggregate_runs(x, n_resamples=200, random_state=0)
    # scipy.stats.trim_mean(x, 0.25, axis=None) is rliable's IQM
    assert r["iqm"].estimate == pytest.approx(stats.trim_mean(x, 0.25, axis=None), rel=1e-12)
    assert r["mean"].estimate == pytest.approx(np.mean(x), rel=1e-12)
    assert r["mean"].low <= r["mean"].estimate <= r["mean"].high
    assert np.isfinite([r["median"].low, r["median"].high]).all()
    # every score is above gamma = 1: gamma - mean(min(x, gamma)) = 0 on every resample
    gap = r["optimality_gap"]
    assert gap.estimate == pytest.approx(0, abs=1e-12)
    assert gap.low == pytest.approx(0, abs=1e-12) and gap.high == pytest.approx(0, abs=1e-12)


def test_tiny_scores_are_not_flushed_to_zero():
    rng = np.random.default_rng(0)
    x = 1e-300 * (1 + rng.random((4, 5)))
    r = aggregate_runs(x, n_resamples=200, random_state=0)
    assert 0 < r["mean"].low <= r["mean"].estimate <= r["mean"].high


# --- learning curves that end at different steps ---------------------------------------------

def _curves(ends):
    rows = []
    for t in ("u", "v"):
        for i, m in enumerate("AB"):
            for r in range(3):
                for s in range(1, ends[m] + 1):
                    rows.append({"task": t, "model": m, "run": r, "step": s,
                                 "score": 0.1 * s + 0.01 * r + 0.001 * i})
    return pd.DataFrame(rows)


def test_curves_ending_at_different_steps_are_compared_at_the_last_common_step():
    frame = _curves({"A": 10, "B": 4})
    res = compare_runs(frame, n_resamples=100, random_state=0)
    note = next(n for n in res.notes if "end at different steps" in n)
    assert "step 4" in note
    # at step 4: A scores 0.4 + 0.01 r, B 0.4 + 0.01 r + 0.001; the mean over runs 0..2
    assert res.aggregates["A"]["mean"].estimate == pytest.approx(0.41)
    assert res.aggregates["B"]["mean"].estimate == pytest.approx(0.411)


def test_curves_ending_at_one_step_keep_the_last_step_note():
    res = compare_runs(_curves({"A": 5, "B": 5}), n_resamples=100, random_state=0)
    assert "each run's last step" in res.notes[0]
    assert res.aggregates["A"]["mean"].estimate == pytest.approx(0.51)


def test_curves_without_a_common_step_are_refused():
    frame = _curves({"A": 3, "B": 3})
    frame.loc[frame["model"] == "B", "step"] += 100
    with pytest.raises(InvalidInputError, match="no step is shared"):
        compare_runs(frame, n_resamples=100)


# --- a two-level bootstrap over one task -----------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda x: aggregate_runs(x, task_bootstrap=True, n_resamples=100),
    lambda x: probability_of_improvement(x, x, task_bootstrap=True, n_resamples=100),
    lambda x: performance_profile(x, task_bootstrap=True, n_resamples=100),
])
def test_task_bootstrap_over_one_task_is_refused(call):
    with pytest.raises(InvalidInputError, match="only 1 task"):
        call(np.array([[0.1], [0.3], [0.2]]))


def test_compare_runs_task_bootstrap_over_one_task_is_refused():
    frame = _table(3)
    with pytest.raises(InvalidInputError, match="--tasks-random"):
        compare_runs(frame[frame["task"] == "t0"], task_bootstrap=True, n_resamples=100)
