"""Which pairs a comparison shows in full (compare/_pair_choice.py), and its use by
compare_runs: neighbours in the ranking by default for many models, every pair on request,
and a count over all pairs (issue 31, item 2)."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import trim_mean

from outperform._validation import InvalidInputError
from outperform.compare import compare_runs
from outperform.compare._pair_choice import ALL_PAIRS_UP_TO, choose_pairs
from outperform.stats import performance_profile
from outperform.stats._runs import performance_profiles


def _runs(n_models=9, n_tasks=6, n_runs=5, seed=0):
    rng = np.random.default_rng(seed)
    skill = np.linspace(0.0, 0.08, n_models)
    rows = [{"task": f"t{t}", "model": f"m{i}", "run": r,
             "accuracy": 0.5 + skill[i] + 0.05 * t / n_tasks + rng.normal(0, 0.03)}
            for t in range(n_tasks) for i in range(n_models) for r in range(n_runs)]
    return pd.DataFrame(rows)


def test_default_rule_by_number_of_models_and_control():
    few = [f"m{i}" for i in range(ALL_PAIRS_UP_TO)]
    many = few + ["extra"]
    assert choose_pairs(few) == (list(combinations(few, 2)), "every pair")
    assert choose_pairs(many)[0] == list(zip(many[:-1], many[1:]))
    assert choose_pairs(many, control="m2")[0] == [(m, "m2") for m in many if m != "m2"]
    assert len(choose_pairs(many, pairs="all")[0]) == 21


@pytest.mark.parametrize("kwargs, message", [
    ({"pairs": "some"}, "choose one of all, neighbours, control"),
    ({"pairs": "control"}, "needs a control model"),
])
def test_bad_choices_are_refused(kwargs, message):
    with pytest.raises(InvalidInputError) as error:
        choose_pairs(["a", "b", "c"], **kwargs)
    assert message in str(error.value)


def test_runs_show_neighbours_of_the_iqm_ranking_and_count_all_pairs():
    frame = _runs()
    result = compare_runs(frame, n_resamples=300, random_state=1)
    # the ranking by IQM computed here: scipy's trim_mean(0.25) of all runs x tasks scores
    iqm = frame.groupby("model")["accuracy"].apply(lambda s: trim_mean(s, 0.25))
    order = list(iqm.sort_values(ascending=False).index)
    assert list(result.improvements) == list(zip(order[:-1], order[1:]))
    assert result.pair_summary["shown"] == 8 and result.pair_summary["total"] == 36
    # the count over all 36 pairs, by a loop over the pairs and np.percentile
    for statistic in ("mean", "iqm"):
        count = 0
        for x, y in combinations(result.models, 2):
            d = (result.aggregates[x][statistic].distribution
                 - result.aggregates[y][statistic].distribution)
            low, high = np.percentile(d, [2.5, 97.5])
            count += low > 0 or high < 0
        assert result.pair_summary["differing"][statistic] == count
    text = str(result)
    assert "8 of 36 pairs are shown" in text and "difference to next" in text


def test_every_pair_on_request():
    result = compare_runs(_runs(n_models=7), n_resamples=200, pairs="all")
    assert len(result.improvements) == 21 == result.pair_summary["shown"]
    assert "all 21 pairs are shown" in str(result)


def test_shared_profiles_equal_one_model_at_a_time():
    """The one-pass profiles draw the same runs for every model: each model's band is exactly
    what performance_profile gives it alone with the same seed."""
    stack = np.random.default_rng(3).random((4, 5, 7))
    taus = np.linspace(0, 1, 11)
    shared = performance_profiles(stack, taus, n_resamples=150, random_state=9)
    for x, profile in zip(stack, shared):
        alone = performance_profile(x, taus, n_resamples=150, random_state=9)
        np.testing.assert_array_equal(profile.low, alone.low)
        np.testing.assert_array_equal(profile.high, alone.high)
        np.testing.assert_array_equal(profile.fraction, alone.fraction)
