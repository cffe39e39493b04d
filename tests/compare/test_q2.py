"""compare() for Q2 on one task's cross-validation folds: correlated tests, never the naive one."""
import warnings

import numpy as np
import pandas as pd
import pytest

from outperform import InvalidInputError, TooFewError
from outperform.bayes import correlated_bayesian_ttest
from outperform.compare import compare
from outperform.stats import corrected_resampled_ttest


def _cv(models=("A", "B", "C"), runs=3, folds=10, shift=(0.02, 0.0, -0.01), seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(runs):
        for f in range(folds):
            base = rng.normal(0.8, 0.02)
            for m, s in zip(models, shift):
                rows.append(dict(task="iris", model=m, run=r, fold=f, n_train=135, n_test=15,
                                 accuracy=base + s + rng.normal(0, 0.01)))
    return pd.DataFrame(rows)


def test_two_models_match_the_kernels():
    df = _cv(models=("A", "B"), shift=(0.02, 0.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the naive, uncalibrated t-test must not run
        rep = compare(df, rope=0.01)
    assert rep.question == "Q2" and rep.recommended == "correlated_bayes"
    a = df[df.model == "A"].sort_values(["run", "fold"]).accuracy.to_numpy()
    b = df[df.model == "B"].sort_values(["run", "fold"]).accuracy.to_numpy()
    rho = 15 / 150
    assert rep.tests["corrected_t"].pvalue == pytest.approx(corrected_resampled_ttest(a, b, rho=rho).pvalue)
    ref = correlated_bayesian_ttest(a, b, rho=rho, rope=0.01)
    assert rep.tests["correlated_bayes"].p_right == pytest.approx(ref.p_right)
    assert "rho" in rep.rationale and rep.details["rho"] == pytest.approx(0.1)


def test_rho_from_folds_without_sizes():
    df = _cv(models=("A", "B"), shift=(0.02, 0.0), folds=5).drop(columns=["n_train", "n_test"])
    rep = compare(df)
    assert rep.details["rho"] == pytest.approx(0.2) and "5-fold" in rep.details["rho_source"]


def test_three_models_give_a_holm_table_and_swap_symmetry():
    rep = compare(_cv(), rope=0.005)
    post = rep.posthoc["corrected_t_holm"]
    assert post.adjustment == "holm"
    p = np.array(post.details["p_row_better"])
    i, j = post.names.index("A"), post.names.index("C")
    assert p[i, j] > 0.9 and p[j, i] < 0.1
    assert np.allclose(post.statistic, -post.statistic.T, equal_nan=True)


def test_loss_direction():
    df = _cv(models=("A", "B"), shift=(0.02, 0.0)).rename(columns={"accuracy": "error"})
    rep = compare(df, rope=0.001)
    # A has the larger error, so B is the better model.
    assert rep.tests["correlated_bayes"].p_b_better > 0.9
    assert rep.summary[0]["model"] == "B"


def test_single_split_points_to_mcnemar():
    df = _cv(models=("A", "B"), runs=1, folds=1, shift=(0.0, 0.0))
    with pytest.raises(TooFewError, match="McNemar"):
        compare(df)


def test_unknown_correlation_needs_rho():
    df = _cv(models=("A", "B"), shift=(0.0, 0.0)).drop(columns=["n_train", "n_test", "fold"])
    df["run"] = np.arange(len(df)) // 2  # repeated holdout: replicates without folds or sizes
    with pytest.raises(InvalidInputError, match="rho"):
        compare(df)
