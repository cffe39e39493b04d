"""Bradley–Terry bootstrap where most resamples have no finite estimate (issue 25).

Zermelo (1929) / Ford (1957): the maximum likelihood abilities exist iff the "beat or tied"
graph is strongly connected. A cycle x > y > z > x of one battle each is connected, but a
resample of its 3 battles keeps all three (the only resample that is) with probability
3!/3^3 = 2/9; every other resample drops a battle and has no finite estimate.
"""
import warnings

import numpy as np
import pandas as pd
import pytest

from outperform.compare import bradley_terry as bt_table
from outperform.stats import bradley_terry

CYCLE = pd.DataFrame({"model_a": ["x", "y", "z"], "model_b": ["y", "z", "x"],
                      "winner": ["a", "a", "a"]})


def test_cycle_of_one_battle_each_gives_no_interval_and_says_why():
    with pytest.warns(UserWarning, match="no bootstrap interval.*Ford 1957"):
        res = bt_table(CYCLE, interval="bootstrap", n_resamples=1000, random_state=0)
    # the surviving share is 2/9 (all three battles drawn once): far below 90%
    survived = 1000 - res.n_failed_resamples
    assert abs(survived / 1000 - 2 / 9) < 4 * np.sqrt(2 / 9 * 7 / 9 / 1000)
    assert np.all(np.isnan(res.rating_low)) and np.all(np.isnan(res.rating_high))
    assert np.all(np.isnan(res.rating_standard_error))
    # the point estimate is still the MLE: a symmetric cycle rates every model equally
    np.testing.assert_allclose(res.ratings, 1000.0, atol=1e-6)
    assert any("no bootstrap interval" in n for n in res.notes)
    assert "no bootstrap interval" in str(res)
    assert res.to_dict()["notes"] and "[nan, nan]" in str(res)


def test_all_resamples_fail_gives_nan_not_a_traceback():
    # two battles x>y, y>x: a resample keeps both with probability 1/2; with 2 resamples...
    a, b, w = ["x", "y"], ["y", "x"], ["a", "a"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(20):
            res = bradley_terry(a, b, w, interval="bootstrap", n_resamples=2, random_state=seed)
            if res.n_failed_resamples == 2:
                break
    assert res.n_failed_resamples == 2 and res.bootstrap_ratings.shape == (0, 2)
    assert np.all(np.isnan(res.rating_low))


def test_well_connected_battles_keep_their_bootstrap_interval():
    rng = np.random.default_rng(0)
    a = rng.choice(["p", "q", "r"], 600)
    b = np.where(a == "p", "q", np.where(a == "q", "r", "p"))
    w = rng.choice(["a", "b"], 600)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # no degenerate-bootstrap warning
        res = bradley_terry(a, b, w, interval="bootstrap", n_resamples=200, random_state=0)
    assert res.n_failed_resamples == 0 and not res.notes
    assert np.all(res.rating_low < res.ratings) and np.all(res.ratings < res.rating_high)
