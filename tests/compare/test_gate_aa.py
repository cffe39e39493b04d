"""The A/A check: the flip rate of a gate's verdict on two runs of one build."""
import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError
from outperform.compare import gate
from outperform.compare._gate_aa import verdict_rows


def _aa(n=400, p=0.8, noise=0.04, seed=0):
    """Two runs of one build: each item right with its own probability, re-sampled."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < p
    flip = rng.random(n) < noise
    b = pd.DataFrame({"model": "build", "item": np.arange(n), "score": y.astype(int)})
    return b, b.assign(score=np.where(flip, ~y, y).astype(int))


def test_a_calibrated_gate_is_stable():
    b, c = _aa()
    res = gate(b, c, margin=0.03, aa=True, n_resamples=400)
    aa = res.aa
    assert aa["n_resamples"] == 400 and not aa["misspecified"]
    assert aa["flip_rate"] <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 400)
    assert sum(aa["shares"].values()) == pytest.approx(1.0)
    assert "stable" in aa["message"]


def test_the_resamples_follow_the_seed():
    b, c = _aa()
    one = gate(b, c, aa=True, n_resamples=200, random_state=1).aa
    assert gate(b, c, aa=True, n_resamples=200, random_state=1).aa == one


def test_the_flag_is_alpha_beyond_monte_carlo_error():
    from statsmodels.stats.proportion import proportion_confint

    from outperform.compare._gate_aa import flagged

    # statsmodels proportion_confint(80, 1000, method="wilson") = (0.0646, 0.0986)
    lo, hi = proportion_confint(80, 1000, method="wilson")
    assert flagged(80, 1000, 0.05) == (True, pytest.approx((lo, hi)))
    assert flagged(55, 1000, 0.05)[0] is False        # above α, within Monte Carlo error
    assert flagged(0, 1000, 0.05)[0] is False


def test_verdicts_of_rows_follow_the_rule():
    p = np.array([[0.01], [0.2], [0.03]])
    assert verdict_rows(p, None, 0.05).tolist() == [2, 0, 2]
    assert verdict_rows(p, np.array([[0.5], [0.01], [0.01]]), 0.05).tolist() == [2, 0, 2]
    # two tasks, Holm: 0.03 x 2 = 0.06 is no regression; a task not shown non-inferior
    assert verdict_rows(np.array([[0.03, 0.2]]), np.array([[0.01, 0.2]]), 0.05).tolist() == [1]
    assert verdict_rows(np.array([[0.02, 0.2]]), None, 0.05).tolist() == [2]


def test_refusals():
    b, c = _aa()
    with pytest.raises(InvalidInputError, match=">= 100"):
        gate(b, c, aa=True, n_resamples=10)
    bc, cc = b.assign(cluster=b.item // 4), c.assign(cluster=c.item // 4)
    with pytest.raises(InvalidInputError, match="without --cluster"):
        gate(bc, cc, aa=True, cluster="cluster")
