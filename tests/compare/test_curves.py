"""Sample-efficiency curves (Agarwal et al. 2021, Fig. 9): an aggregate at every step."""
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from outperform._validation import InvalidInputError  # noqa: E402
from outperform.compare import compare_runs, sample_efficiency  # noqa: E402
from outperform.plot import plot_sample_efficiency  # noqa: E402
from outperform.stats import aggregate_runs  # noqa: E402

PEERS = "/tmp/runs_peers"
STEPS = (0, 100, 200, 300, 400)


def _curves(seed=0, n_tasks=6, n_runs=4):
    """Learning curves rising to a model-specific plateau; steps every 100."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(n_tasks):
        for m, rate in (("fast", 0.02), ("slow", 0.005)):
            for r in range(n_runs):
                for s in STEPS:
                    rows.append({"task": f"t{t}", "model": m, "run": r, "step": s,
                                 "return": 1 - np.exp(-rate * s) + rng.normal(0, 0.05)})
    return pd.DataFrame(rows)


def test_each_step_is_the_aggregate_of_that_steps_runs():
    frame = _curves()
    res = sample_efficiency(frame, n_resamples=300, random_state=0)
    assert res.steps["fast"].tolist() == list(STEPS)
    for m in ("fast", "slow"):
        for i, s in enumerate(STEPS):
            part = frame[(frame.model == m) & (frame.step == s)]
            x = part.pivot(index="run", columns="task", values="return").to_numpy()
            one = aggregate_runs(x, statistics=("iqm",), n_resamples=10)["iqm"]
            assert res.estimate[m][i] == pytest.approx(one.estimate, abs=1e-12)
            assert res.low[m][i] <= res.estimate[m][i] <= res.high[m][i]
    assert res.estimate["fast"][2] > res.estimate["slow"][2]
    # the last step is what compare_runs aggregates
    last = compare_runs(frame, n_resamples=20, random_state=0)
    assert res.estimate["slow"][-1] == pytest.approx(last.aggregates["slow"]["iqm"].estimate,
                                                      abs=1e-12)
    assert "step" in str(res) and len(res.to_frame()) == 2 * len(STEPS)


def test_iqm_curve_equals_rliable_on_runs_tasks_steps_arrays():
    if PEERS not in sys.path:
        sys.path.append(PEERS)
    metrics = pytest.importorskip("rliable.metrics")
    frame = _curves()
    res = sample_efficiency(frame, n_resamples=10, random_state=0)
    part = frame[frame.model == "fast"].sort_values(["step", "run", "task"])
    scores = part["return"].to_numpy().reshape(len(STEPS), 4, 6)     # (steps, runs, tasks)
    # rliable's sample-efficiency curve: metrics.aggregate_iqm(scores[..., frame]) per frame
    expected = [metrics.aggregate_iqm(scores[i]) for i in range(len(STEPS))]
    np.testing.assert_allclose(res.estimate["fast"], expected, atol=1e-12)


def test_one_resample_draws_the_same_runs_at_every_step():
    """Two identical steps get identical bootstrap bands (the same drawn runs)."""
    frame = _curves()
    frame = pd.concat([frame, frame[frame.step == 400].assign(step=500)])
    res = sample_efficiency(frame, n_resamples=300, random_state=0)
    assert res.low["fast"][-1] == res.low["fast"][-2]
    assert res.high["slow"][-1] == res.high["slow"][-2]


def test_incomplete_curves_are_refused():
    frame = _curves()
    with pytest.raises(InvalidInputError, match="each of the model's"):
        sample_efficiency(frame.drop(index=frame.index[3]))
    with pytest.raises(InvalidInputError, match="'step'"):
        sample_efficiency(frame.drop(columns="step"))


def test_the_figure_draws_the_curves(tmp_path):
    res = sample_efficiency(_curves(), n_resamples=300, random_state=0)
    ax = plot_sample_efficiency(res)
    np.testing.assert_allclose(ax.lines[0].get_ydata(), res.estimate["fast"])
    ax.figure.savefig(tmp_path / "curves.png")
