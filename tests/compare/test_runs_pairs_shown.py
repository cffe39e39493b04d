"""Runs x tasks: the pairs shown change no pair's numbers (every pair on the same draws)."""
import numpy as np
import pandas as pd
import pytest

from outperform.compare import compare_runs

TASKS = ("walker", "ant", "hopper", "cheetah")
MODELS = ("sac", "ppo", "td3", "dqn", "a2c", "ddpg", "trpo")


def _table(shared_runs=True, steps=None, seed=0):
    rng = np.random.default_rng(seed)
    rows = [{"task": t, "model": m, "run": r if shared_runs else 10 * i + r,
             **({} if steps is None else {"step": s}),
             "return": 0.1 * i + 0.05 * (s or 0) + rng.normal(0, 0.2)}
            for t in TASKS for i, m in enumerate(MODELS) for r in range(4)
            for s in (steps or [None])]
    return pd.DataFrame(rows)


def _same_estimates(a, b):
    for x, y in zip(np.atleast_1d(a), np.atleast_1d(b)):
        np.testing.assert_array_equal(x.distribution, y.distribution)
        assert (x.estimate, x.low, x.high) == (y.estimate, y.low, y.high)


@pytest.mark.parametrize("shared_runs", [True, False])
def test_every_pair_on_request_repeats_the_pairs_shown_by_default(shared_runs):
    """The default (neighbours in the ranking) and pairs="all" draw the same resamples for a
    pair, so a pair printed by both carries the same numbers, and so do the profiles."""
    frame = _table(shared_runs)
    shown = compare_runs(frame, n_resamples=200, random_state=2)
    every = compare_runs(frame, n_resamples=200, random_state=2, pairs="all")
    assert len(shown.improvements) == 6 and len(every.improvements) == 21
    for x, y in shown.improvements:
        pair = (x, y) if (x, y) in every.improvements else (y, x)
        if pair == (x, y):
            _same_estimates(shown.improvements[(x, y)], every.improvements[pair])
        else:       # the other way round: P(Y > X) = 1 - P(X > Y) on every resample
            np.testing.assert_allclose(shown.improvements[(x, y)].distribution,
                                       1 - every.improvements[pair].distribution, atol=1e-15)
    for m in MODELS:
        np.testing.assert_array_equal(shown.profiles[m].low, every.profiles[m].low)


@pytest.mark.parametrize("n", [7, 200, 2000])
@pytest.mark.parametrize("level", [0.95, 0.9, 0.5])
def test_the_count_of_differing_pairs_is_that_of_the_percentiles(n, level):
    """_excludes_zero against np.percentile (the definition of the interval) on columns made
    to put 0 at and around the interval's ends: ties at 0, shifts by one value, NaN."""
    from outperform.compare._runs import _excludes_zero

    rng = np.random.default_rng(n)
    base = np.sort(rng.normal(size=(n, 1)), axis=0)
    ends = np.floor((n - 1) * np.array([(1 - level) / 2, (1 + level) / 2]))
    at = np.clip((ends[:, None] + np.arange(-3, 5)).ravel().astype(int), 0, n - 1)
    shifts = np.concatenate([base[at, 0], -base[at, 0], [0.0]])   # a 0 at and near each end
    d = np.concatenate([base - shifts, -base - shifts, np.round(rng.normal(0.3, 1, (n, 300)))],
                       axis=1)
    d[0, -1] = np.nan
    low, high = np.percentile(d, [50 * (1 - level), 50 * (1 + level)], axis=0)
    np.testing.assert_array_equal(_excludes_zero(d, level), (low > 0) | (high < 0))
