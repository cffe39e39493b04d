"""P(X > Y) of many pairs on shared draws (stats/_improvement.py), against its definition.

The definition: on the resampled runs of a task, P(X > Y) is the Mann-Whitney U of X over Y
(``scipy.stats.mannwhitneyu(x, y).statistic``: pairs with x above y, ties one half) divided by
n_x n_y, averaged over the tasks (rliable's ``metrics.probability_of_improvement``). The
resampled runs are rebuilt here from the documented draws of the seed, one resample at a time.
"""
from itertools import combinations

import numpy as np
import pytest
from scipy.stats import mannwhitneyu

from outperform._validation import InvalidInputError
from outperform.stats import probability_of_improvement
from outperform.stats._improvement import probabilities_of_improvement


def _models(k=7, shape=(5, 6), seed=2):
    rng = np.random.default_rng(seed)
    return {f"m{i}": rng.normal(size=shape).round(1) for i in range(k)}   # rounded: ties


def _direct(x, y):
    """rliable's P(X > Y) of (runs, tasks) arrays, by scipy's Mann-Whitney U per task."""
    return np.mean(mannwhitneyu(x, y, axis=0).statistic / (len(x) * len(y)))


def _counts_to_runs(counts):
    """The run indices a row of counts stands for (their order does not change U)."""
    return np.repeat(np.arange(counts.size), counts)


@pytest.mark.parametrize("n_pairs", [3, 21])     # pair by pair, and the shared product
def test_paired_resamples_are_the_definition_on_the_drawn_runs(n_pairs):
    arrays = _models()
    pairs = list(combinations(arrays, 2))[:n_pairs]
    b, (n_runs, n_tasks) = 40, arrays["m0"].shape
    got = probabilities_of_improvement(arrays, pairs, paired=True, n_resamples=b,
                                       random_state=4)
    # the draws: rng.integers(0, n_runs, (b * n_tasks, n_runs)), resample-major, then counted
    draws = np.random.default_rng(4).integers(0, n_runs, size=(b * n_tasks, n_runs))
    draws = draws.reshape(b, n_tasks, n_runs)
    for x, y in pairs[:3]:
        want = []
        for k in range(b):
            runs = [_counts_to_runs(np.bincount(draws[k, t], minlength=n_runs))
                    for t in range(n_tasks)]
            xs = np.stack([arrays[x][runs[t], t] for t in range(n_tasks)], axis=1)
            ys = np.stack([arrays[y][runs[t], t] for t in range(n_tasks)], axis=1)
            want.append(_direct(xs, ys))
        np.testing.assert_allclose(got[(x, y)].distribution, want, rtol=0, atol=1e-14)
        assert got[(x, y)].estimate == pytest.approx(_direct(arrays[x], arrays[y]), abs=1e-14)
        np.testing.assert_allclose((got[(x, y)].low, got[(x, y)].high),
                                   np.percentile(want, [2.5, 97.5]), atol=1e-14)


@pytest.mark.parametrize("task_bootstrap", [False, True])
def test_each_paired_pair_is_the_one_pair_call_with_the_same_seed(task_bootstrap):
    """Shared draws change nothing for a pair: number for number the one-pair function."""
    arrays = _models()
    pairs = list(combinations(arrays, 2))
    many = probabilities_of_improvement(arrays, pairs, paired=True, n_resamples=300,
                                        random_state=9, task_bootstrap=task_bootstrap)
    for x, y in pairs[::5]:
        one = probability_of_improvement(arrays[x], arrays[y], paired=True, n_resamples=300,
                                         random_state=9, task_bootstrap=task_bootstrap)
        np.testing.assert_array_equal(many[(x, y)].distribution, one.distribution)
        assert (many[(x, y)].low, many[(x, y)].high) == (one.low, one.high)


def test_unpaired_models_rotate_one_pool_so_each_pair_draws_independently():
    """Unpaired: one pool of draws, model j's resample k is the pool's resample k - j, so the
    two models of a pair never share a draw; each side is the definition on its own runs."""
    arrays = _models(k=3, shape=(4, 5))
    pairs = [("m0", "m1"), ("m2", "m0")]
    b, (n_runs, n_tasks) = 30, arrays["m0"].shape
    got = probabilities_of_improvement(arrays, pairs, n_resamples=b, random_state=6)
    draws = np.random.default_rng(6).integers(0, n_runs, size=(b * n_tasks, n_runs))
    draws = draws.reshape(b, n_tasks, n_runs)
    index = {m: j for j, m in enumerate(arrays)}
    for x, y in pairs:
        want = []
        for k in range(b):
            def resampled(m):
                row = draws[(k - index[m]) % b]
                return np.stack([arrays[m][_counts_to_runs(np.bincount(row[t], minlength=n_runs)),
                                           t] for t in range(n_tasks)], axis=1)
            want.append(_direct(resampled(x), resampled(y)))
        np.testing.assert_allclose(got[(x, y)].distribution, want, rtol=0, atol=1e-14)


def test_a_pair_does_not_depend_on_the_other_pairs_asked():
    arrays = _models()
    every = list(combinations(arrays, 2))
    for paired in (True, False):
        all_pairs = probabilities_of_improvement(arrays, every, paired=paired, n_resamples=200,
                                                 random_state=1)
        two = probabilities_of_improvement(arrays, every[4:6], paired=paired, n_resamples=200,
                                           random_state=1)
        for pair in every[4:6]:
            np.testing.assert_array_equal(all_pairs[pair].distribution, two[pair].distribution)


def test_fewer_resamples_than_models_draw_each_model_on_its_own():
    arrays = _models(k=5)
    got = probabilities_of_improvement(arrays, [("m0", "m1")], n_resamples=3, random_state=0)
    assert got[("m0", "m1")].distribution.shape == (3,)
    assert got[("m0", "m1")].estimate == pytest.approx(_direct(arrays["m0"], arrays["m1"]),
                                                       abs=1e-14)


@pytest.mark.parametrize("kwargs, message", [
    ({"pairs": [("m0", "zz")]}, "unknown models ['zz']"),
    ({"pairs": [("m0", "m1")], "paired": True, "extra": (3, 6)}, "same runs"),
    ({"pairs": [("m0", "m1")], "extra": (5, 4)}, "same tasks"),
])
def test_bad_pairs_are_refused(kwargs, message):
    arrays = _models(k=2)
    shape = kwargs.pop("extra", None)
    if shape is not None:
        arrays["m1"] = np.zeros(shape)
    with pytest.raises(InvalidInputError) as error:
        probabilities_of_improvement(arrays, n_resamples=10, **kwargs)
    assert message in str(error.value)
