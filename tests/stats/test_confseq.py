"""Betting confidence sequences (stats/_confseq.py) against confseq, and their anytime validity.

The peer is ``confseq.betting.betting_cs`` (github.com/gostevehoward/confseq, commit 70b1ef3,
pure-Python betting module): its outputs on fixed inputs are in
tests/fixtures/peers/confseq_betting_cs.json, written by make_confseq.py beside it (the call
and its arguments recorded there); the live comparison runs when confseq imports.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from _paths import FIXTURES
from outperform._validation import InvalidInputError
from outperform.stats._confseq import (
    BettingConfidenceSequence,
    betting_confidence_sequence,
    betting_crossing_times,
)

CASES = json.loads((FIXTURES / "peers" / "confseq_betting_cs.json").read_text())


def _ours(x, kwargs):
    """Our call with confseq's arguments (its defaults: breaks=1000, no running intersection)."""
    return betting_confidence_sequence(
        x, alpha=kwargs["alpha"], grid=kwargs.get("breaks", 1000), population=kwargs.get("N"),
        running_intersection=kwargs.get("running_intersection", False))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_equal_to_confseq_betting_cs(case):
    cs = _ours(case["x"], case["kwargs"])
    np.testing.assert_allclose(cs.lower, case["lower"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(cs.upper, case["upper"], rtol=0, atol=1e-12)


def test_equal_to_confseq_live():
    betting = pytest.importorskip("confseq.betting")
    rng = np.random.default_rng(7)
    for x, kwargs in [(rng.beta(0.5, 0.5, 120), {"alpha": 0.2}),
                      (rng.binomial(1, 0.3, 150).astype(float), {"alpha": 0.01, "breaks": 500}),
                      (rng.permutation(np.repeat([0.0, 0.5, 1.0], 40))[:100], {"alpha": 0.05, "N": 120})]:
        lower, upper = betting.betting_cs(x, **kwargs)
        cs = _ours(x, kwargs)
        np.testing.assert_allclose(cs.lower, lower, rtol=0, atol=1e-12)
        np.testing.assert_allclose(cs.upper, upper, rtol=0, atol=1e-12)


def test_batches_equal_one_pass():
    x = np.random.default_rng(2).beta(2, 2, 700)
    stream = BettingConfidenceSequence(alpha=0.1, population=900)
    for part in np.split(x, [1, 50, 51, 400]):
        result = stream.update(part)
    whole = betting_confidence_sequence(x, alpha=0.1, population=900)
    np.testing.assert_array_equal(result.lower, whole.lower)
    np.testing.assert_array_equal(result.upper, whole.upper)


def test_bounds_rescale_the_sequence():
    """A score on [−1, 1] gives the sequence of its [0, 1] image mapped back (affine map)."""
    d = np.random.default_rng(4).choice([-1.0, 0.0, 1.0], p=[0.1, 0.75, 0.15], size=300)
    unit = betting_confidence_sequence((d + 1) / 2)
    wide = betting_confidence_sequence(d, bounds=(-1, 1))
    np.testing.assert_allclose(wide.lower, 2 * unit.lower - 1, atol=1e-12)
    np.testing.assert_allclose(wide.upper, 2 * unit.upper - 1, atol=1e-12)


def test_running_intersection_is_nested_and_inside():
    x = np.random.default_rng(5).uniform(size=400)
    plain = betting_confidence_sequence(x, running_intersection=False)
    nested = betting_confidence_sequence(x)
    assert (np.diff(nested.lower) >= 0).all() and (np.diff(nested.upper) <= 0).all()
    assert (nested.lower >= plain.lower).all() and (nested.upper <= plain.upper).all()


def test_without_replacement_closes_on_the_population_mean():
    """After all N items the logical bounds pin the mean of the N items exactly."""
    population = np.random.default_rng(6).binomial(1, 0.37, 250).astype(float)
    cs = betting_confidence_sequence(population, population=250)
    assert cs.lower[-1] == pytest.approx(population.mean()) == cs.upper[-1]


def test_crossing_times_agree_with_the_gridded_sequence():
    """The grid-free test at m is the CS's exclusion of m when m is a grid point."""
    rng = np.random.default_rng(8)
    x = rng.binomial(1, 0.62, (12, 600)).astype(float)
    times = betting_crossing_times(x, 0.5, signed=True)
    for row, t in zip(x, times):
        cs = betting_confidence_sequence(row, running_intersection=False)
        # excluded at 0.5 ⇔ 0.5 outside [lower, upper] widened by one grid step, which the
        # gridded sequence already holds: it excludes 0.5 only when the capital at 0.5 and
        # at its neighbours crossed, so it never excludes earlier than the exact test.
        gridded = cs.first_excluding(0.5)
        assert gridded == 0 or (t != 0 and gridded >= abs(t))
        if t:
            assert np.sign(t) == np.sign(row[: abs(t)].mean() - 0.5)


@pytest.mark.slow
def test_continuous_monitoring_keeps_alpha_where_a_fixed_n_interval_does_not(capsys):
    """1,000 null streams checked after every item up to 5,000 items (issue 26, item 6).

    The betting sequence's guarantee is P(ever excludes the truth) ≤ alpha (Ville's
    inequality, Waudby-Smith & Ramdas 2024); the rate of these 1,000 streams (seeded) is held
    to it without allowance (it is 0.030; its Monte Carlo standard error is 0.007). The 95% t
    interval checked
    after every item from the 10th on has no such guarantee: its rate is several times alpha
    (the law of the iterated logarithm: it reaches 1 as the looks go on).
    """
    alpha, streams, n = 0.05, 1000, 5000
    rng = np.random.default_rng(26)
    # paired differences of 0/1 scores: 12% discordant items, no true difference
    d = rng.choice([-1.0, 0.0, 1.0], p=[0.06, 0.88, 0.06], size=(streams, n))
    sequential = (betting_crossing_times(d, 0.0, alpha=alpha, bounds=(-1, 1)) > 0).mean()
    t = np.arange(1, n + 1)
    mean = np.cumsum(d, axis=1) / t
    var = (np.cumsum(d ** 2, axis=1) - t * mean ** 2) / np.maximum(t - 1, 1)
    from scipy.stats import t as student
    half = student.ppf(1 - alpha / 2, np.maximum(t - 1, 1)) * np.sqrt(var / t)
    looks = slice(9, None)
    fixed = (np.abs(mean[:, looks]) > half[:, looks]).any(axis=1).mean()
    with capsys.disabled():
        print(f"\nnull streams excluding the truth at some look (alpha {alpha}): "
              f"betting confidence sequence {sequential:.3f}, fixed-n t interval {fixed:.3f}")
    assert sequential <= alpha
    assert fixed > 4 * alpha


@pytest.mark.slow
def test_without_replacement_coverage_of_the_benchmark_mean():
    """Random orders of one fixed benchmark: the sequence misses its mean in ≤ alpha of orders."""
    alpha, orders = 0.1, 1000
    rng = np.random.default_rng(27)
    benchmark = rng.binomial(1, 0.7, 800).astype(float)
    x = np.stack([rng.permutation(benchmark) for _ in range(orders)])
    missed = (betting_crossing_times(x, benchmark.mean(), alpha=alpha, population=800) > 0).mean()
    assert missed <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / orders)


@pytest.mark.parametrize("call, message", [
    (lambda: betting_confidence_sequence([0.2, 1.4]), "outside the bounds"),
    (lambda: betting_confidence_sequence([0.2, np.nan]), "missing or infinite"),
    (lambda: betting_confidence_sequence([0.2, 0.3], alpha=5), "alpha must be in (0, 1)"),
    (lambda: betting_confidence_sequence([0.2, 0.3], bounds=(1, 0)), "lower < upper"),
    (lambda: betting_confidence_sequence([0.2, 0.3], grid=1), "grid must be an integer"),
    (lambda: betting_confidence_sequence([0.2, 0.3, 0.1], population=2), "population of 2 items"),
    (lambda: betting_confidence_sequence([[0.2, 0.3]]), "1-D"),
    (lambda: betting_crossing_times(np.empty((3, 0)), 0.5), "at least one observation"),
])
def test_odd_inputs_are_refused(call, message):
    with pytest.raises(InvalidInputError, match=None) as error:
        call()
    assert message in str(error.value)
