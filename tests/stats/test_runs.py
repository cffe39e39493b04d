"""Aggregates over runs x tasks (Agarwal et al. 2021) against rliable and by their properties.

rliable is a peer installed outside the venv (``pip install --no-deps --target /tmp/runs_peers
rliable arch absl-py``); the tests that call it skip without it. rliable 1.2 passes
``random_state=`` to arch's bootstraps, which arch >= 6 no longer accepts; the fixture drops it
(rliable draws its indices from numpy's global RNG anyway, seeded below).
"""
import pickle
import sys

import numpy as np
import pytest
from scipy import stats as sps

from outperform._validation import InvalidInputError
from outperform.stats import aggregate_runs, performance_profile, probability_of_improvement

PEERS = "/tmp/runs_peers"


@pytest.fixture(scope="module")
def rliable():
    if PEERS not in sys.path:
        sys.path.append(PEERS)
    arch_bs = pytest.importorskip("arch.bootstrap")
    library = pytest.importorskip("rliable.library")
    metrics = pytest.importorskip("rliable.metrics")
    saved = {}
    for cls in (arch_bs.IIDBootstrap, arch_bs.IndependentSamplesBootstrap):
        saved[cls] = cls.__init__

        def init(self, *args, random_state=None, _init=cls.__init__, **kwargs):
            _init(self, *args, **kwargs)
        cls.__init__ = init
    yield library, metrics
    for cls, init in saved.items():
        cls.__init__ = init


def _scores(seed=1, shape=(5, 8), loc=0.5):
    return np.random.default_rng(seed).normal(loc, 0.3, shape)


# ---- point estimates equal rliable's to 1e-12 ------------------------------------------------

@pytest.mark.parametrize("shape", [(5, 8), (3, 20), (10, 1), (1, 7)])
def test_point_estimates_equal_rliable(rliable, shape):
    _, metrics = rliable
    x = _scores(shape=shape)
    got = aggregate_runs(x, n_resamples=10, random_state=0)
    # rliable.metrics.aggregate_{mean,median,iqm,optimality_gap}(x), x of shape (runs, tasks)
    assert got["mean"].estimate == pytest.approx(metrics.aggregate_mean(x), abs=1e-12)
    assert got["median"].estimate == pytest.approx(metrics.aggregate_median(x), abs=1e-12)
    assert got["iqm"].estimate == pytest.approx(metrics.aggregate_iqm(x), abs=1e-12)
    assert got["optimality_gap"].estimate == pytest.approx(
        metrics.aggregate_optimality_gap(x, gamma=1), abs=1e-12)


@pytest.mark.parametrize("runs_y", [4, 5])
def test_probability_of_improvement_equals_rliable(rliable, runs_y):
    _, metrics = rliable
    x, y = _scores(1), _scores(2, (runs_y, 8), 0.45)
    y[0, 0] = x[0, 0]                     # a tie counts one half
    got = probability_of_improvement(x, y, n_resamples=10, random_state=0)
    # rliable.metrics.probability_of_improvement(x, y): mean over tasks of U / (n_x n_y)
    assert got.estimate == pytest.approx(metrics.probability_of_improvement(x, y), abs=1e-12)


def test_performance_profile_equals_rliable(rliable):
    library, _ = rliable
    x = _scores()
    taus = np.linspace(0, 1, 11)
    # rliable.library.create_performance_profile({"a": x}, taus, reps=...)[0]["a"]
    profiles, _ = library.create_performance_profile({"a": x}, taus, reps=10)
    np.testing.assert_allclose(performance_profile(x, taus, n_resamples=10).fraction,
                               profiles["a"], atol=1e-12)


# ---- intervals: the same as a direct computation on the same resamples; rliable within MC ---

def test_stratified_intervals_are_percentiles_of_the_resamples_drawn():
    """Redraw the resample indices from the same seed and compute each aggregate on the
    resampled matrix by scipy/numpy, one resample at a time (the definition). The resamples
    are computed from float32 copies of the scores (their error, ~1e-7, is far below the
    Monte Carlo error of an interval), hence 1e-6; the estimates are float64 (1e-12 above)."""
    x = _scores(shape=(4, 6))
    b = 300
    got = aggregate_runs(x, n_resamples=b, random_state=7)
    rng = np.random.default_rng(7)
    # runs drawn per task slot: uint8 draws, 4 per task, tasks in order
    idx = rng.integers(0, 4, size=(b, 6 * 4), dtype=np.uint8).reshape(b, 6, 4)
    direct = {"mean": [], "median": [], "iqm": [], "optimality_gap": []}
    for k in range(b):
        res = np.stack([x[idx[k, t], t] for t in range(6)], axis=1)   # (runs, tasks)
        direct["mean"].append(res.mean(axis=0).mean())
        direct["median"].append(np.median(res.mean(axis=0)))
        direct["iqm"].append(sps.trim_mean(res, 0.25, axis=None))
        direct["optimality_gap"].append(1 - np.minimum(res, 1).mean())
    for name, values in direct.items():
        np.testing.assert_allclose(got[name].distribution, values, atol=1e-6)
        np.testing.assert_allclose((got[name].low, got[name].high),
                                   np.percentile(values, [2.5, 97.5]), atol=1e-6)


def test_two_level_intervals_are_percentiles_of_the_resamples_drawn():
    x = _scores(shape=(3, 5))
    b = 200
    got = aggregate_runs(x, n_resamples=b, random_state=3, task_bootstrap=True)
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 3, size=(b, 5 * 3), dtype=np.uint8).reshape(b, 5, 3)
    tasks = rng.integers(0, 5, size=(b, 5))
    iqm, median = [], []
    for k in range(b):
        res = np.stack([x[idx[k, s], tasks[k, s]] for s in range(5)], axis=1)
        iqm.append(sps.trim_mean(res, 0.25, axis=None))
        median.append(np.median(res.mean(axis=0)))
    np.testing.assert_allclose(got["iqm"].distribution, iqm, atol=1e-6)     # float32, as above
    np.testing.assert_allclose(got["median"].distribution, median, atol=1e-6)
    assert "tasks resampled" in got["iqm"].bootstrap


ALL = ("mean", "median", "iqm", "optimality_gap")


@pytest.mark.slow
@pytest.mark.parametrize("task_bootstrap, names", [(False, ALL), (True, ("mean", "iqm"))])
def test_intervals_match_rliable_within_monte_carlo_error(rliable, task_bootstrap, names):
    """50,000 resamples, as in rliable's figures. rliable (one run, np.random.seed(0)):
        library.get_interval_estimates({"a": x}, f, reps=50000, task_bootstrap=...)
    with f the rliable.metrics.aggregate_* of ``names`` (all four for the stratified
    bootstrap; mean and IQM for the two-level one, which rliable runs at ~3 ms a resample).
    Ours with seeds 0..19. Each of rliable's endpoints must lie within 4 Monte Carlo standard
    deviations of the mean of our twenty: sd(rliable - our mean) = sigma sqrt(1 + 1/20),
    sigma estimated from our twenty seeds (19 df); a false alarm has probability below 1e-3
    over the (up to eight) endpoints. The endpoints' sd is below 1/100 of the intervals'
    widths, so the check is sharp."""
    library, metrics = rliable
    x = _scores(shape=(5, 8))
    reps = 50_000
    np.random.seed(0)
    _, ci = library.get_interval_estimates(
        {"a": x}, lambda s: np.array([getattr(metrics, f"aggregate_{n}")(s) for n in names]),
        reps=reps, task_bootstrap=task_bootstrap)
    ours = np.array([[[r[s].low, r[s].high] for s in names] for r in (
        aggregate_runs(x, statistics=names, n_resamples=reps, random_state=seed,
                       task_bootstrap=task_bootstrap) for seed in range(20))])  # seed, stat, end
    sigma = ours.std(axis=0, ddof=1)
    assert np.all(sigma < 0.01 * (ours[:, :, 1] - ours[:, :, 0]).mean(axis=0)[:, None])
    assert np.all(np.abs(ours.mean(axis=0) - ci["a"].T) < 4 * sigma * np.sqrt(1 + 1 / 20))


@pytest.mark.slow
def test_probability_of_improvement_interval_matches_rliable(rliable):
    library, metrics = rliable
    x, y = _scores(1), _scores(2, (4, 8), 0.45)
    np.random.seed(0)
    # rliable's StratifiedIndependentBootstrap: runs of x and y resampled independently
    _, ci = library.get_interval_estimates(
        {"xy": [x, y]}, lambda a, b: np.array([metrics.probability_of_improvement(a, b)]),
        reps=2000)
    ours = np.array([[r.low, r.high] for r in (
        probability_of_improvement(x, y, n_resamples=2000, random_state=s) for s in range(5))])
    tolerance = 4 * np.sqrt(2) * np.maximum(ours.std(axis=0, ddof=1), 1e-3)
    assert np.all(np.abs(ours.mean(axis=0) - ci["xy"][:, 0]) < tolerance)


def test_stratified_interval_covers_at_its_level():
    """Coverage in simulation: tasks with known means, 10 runs each; the 90 % interval of the
    mean covers the true mean in at least 85 % of 200 experiments (binomial 3 sd below 0.9)."""
    rng = np.random.default_rng(11)
    centres = rng.uniform(0, 1, 6)
    hits = 0
    for _ in range(200):
        x = centres + rng.normal(0, 0.2, (10, 6))
        r = aggregate_runs(x, statistics=("mean",), n_resamples=500, confidence_level=0.9,
                           random_state=rng)["mean"]
        hits += r.low <= centres.mean() <= r.high
    assert hits / 200 >= 0.9 - 3 * np.sqrt(0.9 * 0.1 / 200)


# ---- properties ------------------------------------------------------------------------------

def test_iqm_of_a_constant_is_the_constant():
    r = aggregate_runs(np.full((5, 7), 0.37), n_resamples=50, random_state=0, task_bootstrap=True)
    for est in r.values():
        assert est.estimate == pytest.approx(0.63 if est.statistic == "optimality_gap" else 0.37,
                                             abs=1e-15)
        assert est.low == pytest.approx(est.estimate) and est.high == pytest.approx(est.estimate)


def test_swapping_x_and_y_gives_one_minus_the_probability():
    x, y = _scores(1), _scores(2, (4, 8))
    xy = probability_of_improvement(x, y, n_resamples=200, random_state=0)
    yx = probability_of_improvement(y, x, n_resamples=200, random_state=0)
    assert yx.estimate == pytest.approx(1 - xy.estimate, abs=1e-15)
    assert probability_of_improvement(x, x, n_resamples=5).estimate == 0.5


def test_invariant_to_task_order():
    x, y = _scores(1), _scores(2)
    perm = np.random.default_rng(0).permutation(8)
    for a, b in zip(aggregate_runs(x, n_resamples=5).values(),
                    aggregate_runs(x[:, perm], n_resamples=5).values()):
        assert a.estimate == pytest.approx(b.estimate, abs=1e-14)
    assert probability_of_improvement(x[:, perm], y[:, perm], n_resamples=5).estimate == \
        pytest.approx(probability_of_improvement(x, y, n_resamples=5).estimate, abs=1e-14)


def test_seeded_reproducible_and_pickles():
    x = _scores()
    a = aggregate_runs(x, n_resamples=100, random_state=5)["iqm"]
    b = aggregate_runs(x, n_resamples=100, random_state=5)["iqm"]
    np.testing.assert_array_equal(a.distribution, b.distribution)
    c = pickle.loads(pickle.dumps(a))
    assert c.confidence_interval() == (a.low, a.high)
    assert c.confidence_interval(0.5)[1] < a.high


def test_many_resamples_are_chunked():
    """20 x 50 x 10 scores: 50,000 resamples of all four aggregates, in chunks (memory bounded
    by the chunks). Their speed is measured in benchmarks/bench_runs.py, not here."""
    x = _scores(shape=(10, 50))
    r = aggregate_runs(x, n_resamples=50_000, random_state=0)
    assert r["iqm"].n_resamples == 50_000 == r["iqm"].distribution.size


@pytest.mark.parametrize("bad, message", [
    (np.ones(5), "2-D array"), (np.array([[1.0, np.nan]]), "missing or infinite")])
def test_bad_scores_are_refused(bad, message):
    with pytest.raises(InvalidInputError, match=message):
        aggregate_runs(bad)


def test_bad_options_are_refused():
    with pytest.raises(InvalidInputError, match="statistics"):
        aggregate_runs(np.ones((2, 2)), statistics=("mode",))
    with pytest.raises(InvalidInputError, match="n_resamples"):
        aggregate_runs(np.ones((2, 2)), n_resamples=0)
    with pytest.raises(InvalidInputError, match="same tasks"):
        probability_of_improvement(np.ones((2, 2)), np.ones((2, 3)))
    with pytest.raises(InvalidInputError, match="random_state"):
        aggregate_runs(np.ones((2, 2)), random_state="seed")


# ---- several models at once: shared draws, paired or independent ------------------------------

def test_models_in_a_mapping_reuse_one_model_calls_resamples():
    """A mapping with paired=True draws run i of every model together: each model's
    resamples are those of a one-model call with the same seed. Unpaired, model j's are
    rotated by j places, so resample k of two models comes from different draws."""
    a, b = _scores(1), _scores(2)
    one_a = aggregate_runs(a, n_resamples=500, random_state=4)["iqm"].distribution
    one_b = aggregate_runs(b, n_resamples=500, random_state=4)["iqm"].distribution
    paired = aggregate_runs({"a": a, "b": b}, n_resamples=500, random_state=4, paired=True)
    np.testing.assert_array_equal(paired["a"]["iqm"].distribution, one_a)
    np.testing.assert_array_equal(paired["b"]["iqm"].distribution, one_b)
    unpaired = aggregate_runs({"a": a, "b": b}, n_resamples=500, random_state=4)
    np.testing.assert_array_equal(unpaired["a"]["iqm"].distribution, one_a)
    np.testing.assert_array_equal(unpaired["b"]["iqm"].distribution, np.roll(one_b, 1))
    assert unpaired["b"]["iqm"].low == aggregate_runs(b, n_resamples=500,
                                                      random_state=4)["iqm"].low


def test_paired_draws_cancel_what_the_runs_share():
    """b = a + 0.1: every run of b is its run of a shifted. The paired bootstrap difference
    of the means is exactly 0.1 on every resample; the unpaired one varies like a sum of two
    independent means (variance twice a model's)."""
    a = _scores(3, (6, 10))
    scores = {"a": a, "b": a + 0.1}
    p = aggregate_runs(scores, statistics=("mean",), n_resamples=2000, random_state=0,
                       paired=True)
    diff = p["b"]["mean"].distribution - p["a"]["mean"].distribution
    np.testing.assert_allclose(diff, 0.1, atol=1e-6)                 # float32 resamples
    u = aggregate_runs(scores, statistics=("mean",), n_resamples=2000, random_state=0)
    var_one = u["a"]["mean"].distribution.var()
    var_diff = (u["b"]["mean"].distribution - u["a"]["mean"].distribution).var()
    assert var_diff == pytest.approx(2 * var_one, rel=0.15)          # 2000 resamples: MC ~6%
    with pytest.raises(InvalidInputError, match="same"):
        aggregate_runs({"a": a, "b": a[:4]}, paired=True)
