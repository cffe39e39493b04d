"""Runs x tasks: the order of the table's rows changes no number (tasks sorted, models drawn
in sorted order), and the pairs shown change no pair's numbers (shared draws)."""
import numpy as np
import pandas as pd
import pytest

from outperform.compare import compare_runs, sample_efficiency

TASKS = ("walker", "ant", "hopper", "cheetah")      # first appearance is not sorted order
MODELS = ("sac", "ppo", "td3", "dqn", "a2c", "ddpg", "trpo")


def _table(shared_runs=True, steps=None, seed=0):
    rng = np.random.default_rng(seed)
    rows = [{"task": t, "model": m, "run": r if shared_runs else 10 * i + r,
             **({} if steps is None else {"step": s}),
             "return": 0.1 * i + 0.05 * (s or 0) + rng.normal(0, 0.2)}
            for t in TASKS for i, m in enumerate(MODELS) for r in range(4)
            for s in (steps or [None])]
    return pd.DataFrame(rows)


def _shuffled(frame):
    return frame.sample(frac=1, random_state=3).reset_index(drop=True)


def _same_estimates(a, b):
    for x, y in zip(np.atleast_1d(a), np.atleast_1d(b)):
        np.testing.assert_array_equal(x.distribution, y.distribution)
        assert (x.estimate, x.low, x.high) == (y.estimate, y.low, y.high)


@pytest.mark.parametrize("shared_runs", [True, False])
def test_shuffled_rows_give_the_same_comparison(shared_runs):
    frame = _table(shared_runs)
    a = compare_runs(frame, n_resamples=200, random_state=5)
    b = compare_runs(_shuffled(frame), n_resamples=200, random_state=5)
    assert a.paired is shared_runs and a.tasks == b.tasks == tuple(sorted(TASKS))
    for m in MODELS:
        for s in a.aggregates[m]:
            _same_estimates(a.aggregates[m][s], b.aggregates[m][s])
        np.testing.assert_array_equal(a.profiles[m].low, b.profiles[m].low)
        np.testing.assert_array_equal(a.profiles[m].high, b.profiles[m].high)
    assert list(a.improvements) == list(b.improvements)
    for pair in a.improvements:
        _same_estimates(a.improvements[pair], b.improvements[pair])


def test_shuffled_rows_give_the_same_sample_efficiency():
    frame = _table(steps=[0, 1, 2])
    a = sample_efficiency(frame, n_resamples=200, random_state=5)
    b = sample_efficiency(_shuffled(frame), n_resamples=200, random_state=5)
    for m in MODELS:
        np.testing.assert_array_equal(a.low[m], b.low[m])
        np.testing.assert_array_equal(a.high[m], b.high[m])
        np.testing.assert_array_equal(a.estimate[m], b.estimate[m])


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
