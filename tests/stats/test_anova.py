"""Repeated-measures ANOVA (Demšar 2006, §3.2.1) against statsmodels' AnovaRM."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.anova import AnovaRM

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.stats import repeated_measures_anova


def _anova_rm(scores):
    n, k = scores.shape
    long = pd.DataFrame({"dataset": np.repeat(np.arange(n), k), "model": np.tile(np.arange(k), n),
                         "score": scores.ravel()})
    return AnovaRM(long, "score", "dataset", within=["model"]).fit().anova_table.iloc[0]


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 12), st.integers(2, 6), st.integers(0, 2 ** 32 - 1))
def test_matches_statsmodels(n, k, seed):
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=(n, k)) + rng.normal(size=(n, 1)) * 3 + np.arange(k) * 0.2
    res = repeated_measures_anova(scores)
    ref = _anova_rm(scores)
    assert res.statistic == pytest.approx(ref["F Value"], rel=1e-9)
    assert res.pvalue == pytest.approx(ref["Pr > F"], rel=1e-7, abs=1e-14)
    assert res.df == (ref["Num DF"], ref["Den DF"])


def test_effect_sizes_and_sums_of_squares():
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(10, 4)) + [0.0, 0.2, 0.5, 0.1]
    res = repeated_measures_anova(scores)
    d = res.details
    df1, df2 = res.df
    # Partial eta squared from F alone: F df1 / (F df1 + df2).
    assert res.effect_size == pytest.approx(res.statistic * df1 / (res.statistic * df1 + df2))
    total = np.sum((scores - scores.mean()) ** 2)
    assert d["ss_models"] + d["ss_datasets"] + d["ss_error"] == pytest.approx(total)
    assert d["generalized_eta_squared"] == pytest.approx(d["ss_models"] / total)
    assert d["generalized_eta_squared"] <= res.effect_size


def _gg_epsilon_helmert(scores):
    """Greenhouse-Geisser epsilon from orthonormal Helmert contrasts (another route)."""
    k = scores.shape[1]
    contrasts = np.zeros((k, k - 1))
    for j in range(1, k):
        contrasts[:j, j - 1] = 1.0
        contrasts[j, j - 1] = -j
        contrasts[:, j - 1] /= np.linalg.norm(contrasts[:, j - 1])
    eig = np.linalg.eigvalsh(contrasts.T @ np.cov(scores, rowvar=False) @ contrasts)
    return eig.sum() ** 2 / ((k - 1) * np.sum(eig ** 2))


def test_greenhouse_geisser_epsilon():
    rng = np.random.default_rng(6)
    # Very unequal variances of the models: sphericity fails, epsilon well below 1.
    scores = rng.normal(size=(15, 4)) * [0.1, 0.1, 1.0, 3.0]
    res = repeated_measures_anova(scores)
    eps = res.details["greenhouse_geisser_epsilon"]
    assert eps == pytest.approx(_gg_epsilon_helmert(scores))
    assert 1 / 3 <= eps < 0.8
    df1, df2 = res.df
    assert res.details["pvalue_greenhouse_geisser"] == pytest.approx(
        stats.f.sf(res.statistic, eps * df1, eps * df2))
    # Two models: one contrast, epsilon = 1.
    two = repeated_measures_anova(rng.normal(size=(8, 2)))
    assert two.details["greenhouse_geisser_epsilon"] == pytest.approx(1.0)


def test_invariances():
    rng = np.random.default_rng(7)
    scores = rng.normal(size=(9, 5))
    base = repeated_measures_anova(scores)
    # Data-set effects are removed; affine maps of the whole table change nothing.
    for other in (scores + rng.normal(size=(9, 1)) * 10, 3 * scores - 2,
                  scores[::-1], scores[:, [4, 2, 0, 1, 3]]):
        assert repeated_measures_anova(other).statistic == pytest.approx(base.statistic)


def test_type_one_error_under_the_null():
    rng = np.random.default_rng(8)
    sims = rng.normal(size=(600, 12, 4)) + rng.normal(size=(600, 12, 1))
    rejected = np.mean([repeated_measures_anova(s).pvalue <= 0.05 for s in sims])
    assert rejected <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 600)


def test_bad_input():
    with pytest.raises(DegenerateDataError, match="residual variance is zero"):
        repeated_measures_anova([[0.5, 0.6, 0.7], [0.1, 0.2, 0.3]])  # exactly additive
    with pytest.raises(DegenerateDataError):
        repeated_measures_anova([[0.5, 0.5], [0.5, 0.5]])
    with pytest.raises(TooFewError, match="data set"):
        repeated_measures_anova([[0.5, 0.6]])
    with pytest.raises(InvalidInputError, match="NaN"):
        repeated_measures_anova([[0.5, np.nan], [0.1, 0.2]])
