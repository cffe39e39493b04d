"""Rogan–Gladen: the corrected rate, its delta-method standard error (Lang & Reiczigel 2014)
against the spread of the estimator in simulation, and its limits."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats._rogan_gladen import rogan_gladen_estimates


def test_perfect_judge_is_the_plain_rate():
    gold = [1, 0, 1, 0] + [np.nan] * 6
    judge = [1, 0, 1, 0, 1, 1, 1, 0, 1, 1]
    out = rogan_gladen_estimates(gold, judge)
    p = 5 / 6                       # the judge's rate on the 6 unlabelled items
    assert out["estimate"][0] == pytest.approx(p)
    # Se = Sp = 1: the variance is the binomial p(1 − p)/n alone
    assert out["standard_error"][0] == pytest.approx(np.sqrt(p * (1 - p) / 6))


def test_rogan_gladen_equation():
    # p̂ = 0.8 (unlabelled items), Se = 2/3, Sp = 1/2: (0.8 + 0.5 − 1) / (2/3 + 1/2 − 1)
    # = 1.8 (Rogan & Gladen 1978 eq. 1), clipped to 1
    out = rogan_gladen_estimates([1, 1, 1, 0, 0] + [np.nan] * 5, [1, 1, 0, 1, 0, 1, 1, 1, 0, 1])
    assert out["raw"][0] == pytest.approx(1.8) and out["estimate"][0] == 1.0


def test_delta_method_matches_the_simulated_spread():
    rng = np.random.default_rng(5)
    reps, n, n_gold, truth = 1500, 800, 300, 0.4
    y = (rng.random((reps, n)) < truth).astype(float)
    f = np.where(y == 1, rng.random(y.shape) < 0.85, rng.random(y.shape) < 0.2) * 1.0
    gold = np.where(np.arange(n) < n_gold, y, np.nan)
    out = rogan_gladen_estimates(gold, f)
    assert out["raw"].mean() == pytest.approx(truth, abs=0.005)
    assert np.median(out["standard_error"]) == pytest.approx(out["raw"].std(), rel=0.1)


def test_chance_judge_and_bad_values():
    out = rogan_gladen_estimates([1, 0, 1, 0, np.nan], [0, 1, 1, 0, 1])   # Se + Sp = 1
    assert np.isnan(out["estimate"][0])
    with pytest.raises(InvalidInputError, match="0/1"):
        rogan_gladen_estimates([1, 0, 0.5], [1, 0, 1])
