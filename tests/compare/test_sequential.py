"""Sequential comparisons and racing (compare/_sequential.py): decisions valid at every look."""
from __future__ import annotations

import numpy as np
import pytest

from outperform._validation import InvalidInputError
from outperform.compare._sequential import SequentialGate, decide, race, sequential_compare
from outperform.stats._confseq import betting_confidence_sequence, betting_crossing_times


def test_decisions_follow_the_interval_of_the_difference():
    lower = np.array([0.01, -0.04, -0.3, -0.06, -0.06])
    upper = np.array([0.30, 0.02, -0.06, 0.02, -0.049])
    assert decide(lower, upper, 0.05).tolist() == [
        "superior", "non-inferior", "regression", "continue", "continue"]
    assert decide(lower, upper, 0.0).tolist() == [
        "superior", "continue", "regression", "continue", "regression"]


def test_the_sequence_is_that_of_the_paired_difference():
    rng = np.random.default_rng(11)
    base = rng.binomial(1, 0.7, 500)
    cand = np.where(rng.random(500) < 0.85, base, 1 - base)
    result = sequential_compare(base, cand, margin=0.02)
    direct = betting_confidence_sequence(cand - base, bounds=(-1, 1))
    np.testing.assert_array_equal(result.sequence.lower, direct.lower)
    np.testing.assert_array_equal(result.sequence.upper, direct.upper)
    expected = decide(direct.lower, direct.upper, 0.02)
    assert result.decisions.tolist() == expected.tolist()
    first = np.flatnonzero(expected != "continue")
    assert result.stopped_at == (first[0] + 1 if first.size else 0)


def test_identical_runs_are_never_superior_nor_regressions():
    """All differences 0: the capital at 0 never moves, so the sequence always holds 0."""
    scores = np.random.default_rng(12).binomial(1, 0.6, 1500)
    without = sequential_compare(scores, scores)
    assert without.decision == "continue" and without.stopped_at == 0
    within = sequential_compare(scores, scores, margin=0.02)
    assert within.decision == "non-inferior"
    assert within.sequence.lower[within.stopped_at - 1] > -0.02


def test_clear_cases_stop_early_on_the_right_side():
    ones, zeros = np.ones(200), np.zeros(200)
    better = sequential_compare(zeros, ones)
    worse = sequential_compare(ones, zeros)
    assert better.decision == "superior" and worse.decision == "regression"
    assert better.stopped_at == worse.stopped_at < 20


def test_batches_give_the_same_decision_as_one_pass():
    rng = np.random.default_rng(13)
    base, cand = rng.binomial(1, 0.8, 1200), rng.binomial(1, 0.8, 1200)
    gate = SequentialGate(margin=0.05, population=1500)
    for part in np.array_split(np.arange(1200), 7):
        result = gate.update(base[part], cand[part])
    whole = sequential_compare(base, cand, margin=0.05, population=1500)
    assert (result.decision, result.stopped_at) == (whole.decision, whole.stopped_at)


def test_non_inferiority_at_the_margin_is_declared_in_at_most_alpha_of_streams():
    """Truth exactly at −margin (the boundary of the null): a wrong 'non-inferior' at any of
    2,000 looks happens in at most alpha of streams. Checked with the grid-free test at
    −margin, which excludes it no later than the gridded sequence the decisions use."""
    alpha, margin, streams, n = 0.05, 0.05, 1000, 2000
    rng = np.random.default_rng(14)
    # P(+1) − P(−1) = −margin: the candidate is worse by exactly the margin
    d = rng.choice([-1.0, 0.0, 1.0], p=[0.125, 0.80, 0.075], size=(streams, n))
    times = betting_crossing_times(d, -margin, alpha=alpha, bounds=(-1, 1), signed=True)
    assert (times > 0).mean() <= alpha


def test_race_keeps_the_best_and_drops_the_clearly_worse():
    rng = np.random.default_rng(15)
    truth = rng.random(2000)
    scores = np.column_stack([truth < p for p in (0.5, 0.7, 0.72, 0.9)]).astype(float)
    result = race(scores, models=["a", "b", "c", "d"])
    assert result.survivors == ("d",)
    assert all(by == "d" or by in ("b", "c") for by in result.dropped_by[:3])
    assert result.dropped_at[0] < result.dropped_at[1]        # the worst goes first


@pytest.mark.slow
def test_race_of_equal_models_drops_one_in_at_most_alpha_of_races():
    alpha, races = 0.1, 200
    rng = np.random.default_rng(16)
    dropped = 0
    for _ in range(races):
        scores = rng.binomial(1, 0.7, (1500, 4)).astype(float)
        dropped += len(race(scores, alpha=alpha).survivors) < 4
    assert dropped / races <= alpha


@pytest.mark.parametrize("call, message", [
    (lambda: sequential_compare([1, 0], [1]), "same items in the same order"),
    (lambda: sequential_compare([1, 0], [1, 2]), "outside the bounds [0, 1]"),
    (lambda: sequential_compare([1, 0], [1, 0], margin=-0.05), "margin must be a number ≥ 0"),
    (lambda: sequential_compare([1, 0], [1, 0], margin=5), "Is it in percent?"),
    (lambda: sequential_compare([1, 0], [1, 0], alpha=0), "alpha must be in (0, 1)"),
    (lambda: sequential_compare([1, 0, 1], [1, 0, 1], population=2), "population of 2 items"),
    (lambda: race(np.ones((5, 1))), "at least two models"),
    (lambda: race(np.ones((5, 2)), models=["a", "a"]), "2 distinct names"),
    (lambda: race(np.full((5, 2), 3.0)), "outside the bounds"),
])
def test_odd_inputs_are_refused(call, message):
    with pytest.raises(InvalidInputError) as error:
        call()
    assert message in str(error.value)
