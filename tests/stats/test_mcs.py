"""The model confidence set (stats/_mcs.py) against arch.bootstrap.MCS, its properties, and a
simulation of its coverage of the best model (Hansen, Lunde & Nason 2011, Theorem 1)."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from outperform import InvalidInputError, MissingDependencyError, TooFewError
from outperform.stats import model_confidence_set
from outperform.stats._mcs import mcs_bootstrap_indices, mcs_from_indices

arch_bootstrap = pytest.importorskip("arch.bootstrap")


def _losses(seed=3, n=250, shifts=(0.0, 0.02, 0.05, 0.1, 0.2, 0.3)):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, len(shifts))) + np.asarray(shifts)


def _arch(losses, **kw):
    """arch.bootstrap.MCS(losses, size=..., reps=..., block_size=..., method=..., bootstrap=...,
    seed=...).compute(): p-values by model index, and its elimination order."""
    mcs = arch_bootstrap.MCS(losses, **kw)
    mcs.compute()
    pv = mcs.pvalues["Pvalue"]
    return pv.sort_index().to_numpy(), [int(i) for i in pv.index], mcs


@pytest.mark.parametrize("method", ["R", "max"])
@pytest.mark.parametrize("bootstrap", ["stationary", "circular"])
@pytest.mark.parametrize("block_size", [1, 7])
def test_equals_arch_mcs_on_the_same_losses_and_seed(method, bootstrap, block_size):
    x = _losses()
    expected, order, mcs = _arch(x, size=0.1, reps=400, block_size=block_size, method=method,
                                 bootstrap=bootstrap, seed=11)
    ours = model_confidence_set(x, alpha=0.1, statistic=method, bootstrap=bootstrap,
                                block_size=block_size, n_resamples=400, random_state=11)
    # exactly: the p-values are counts of resamples over 400, from the same resamples
    np.testing.assert_array_equal(ours.pvalues, expected)
    assert [int(m.split()[1]) for m in ours.elimination_order] == order
    assert sorted(int(m.split()[1]) for m in ours.included) == mcs.included


def test_kernel_on_arch_resampling_indices_equals_arch():
    # arch keeps the indices it drew (MCS._bootstrap_indices, "for testing"): fed to our
    # kernel, they give arch's p-values, whatever the seed handling.
    x = _losses(seed=8, n=120)
    for method in ("R", "max"):
        expected, order, mcs = _arch(x, size=0.05, reps=300, block_size=4, method=method,
                                     bootstrap="stationary", seed=np.random.default_rng(5))
        res = mcs_from_indices(x, np.array(mcs._bootstrap_indices), statistic=method)
        np.testing.assert_array_equal(res["pvalues"], expected)
        assert res["order"].tolist() == order


def test_indices_are_arch_stream():
    idx = mcs_bootstrap_indices(50, 20, block_size=3, bootstrap="circular", random_state=2)
    bs = arch_bootstrap.CircularBlockBootstrap(3, np.arange(50), seed=2)
    expected = np.array([bs.update_indices() for _ in range(20)])
    np.testing.assert_array_equal(idx, expected)


def test_relabelling_models_permutes_the_answer():
    x = _losses(seed=4, n=150, shifts=(0.0, 0.1, 0.3, 0.05))
    perm = [2, 0, 3, 1]
    a = model_confidence_set(x, n_resamples=300, names=list("abcd"))
    b = model_confidence_set(x[:, perm], n_resamples=300, names=[list("abcd")[j] for j in perm])
    for m in "abcd":
        assert a.pvalue(m) == b.pvalue(m)


def test_scores_are_negated_losses():
    x = _losses(seed=6, n=100, shifts=(0.0, 0.3, 0.6))
    a = model_confidence_set(x, n_resamples=200)
    b = model_confidence_set(-x, n_resamples=200, higher_is_better=True)
    np.testing.assert_array_equal(a.pvalues, b.pvalues)
    assert a.included == b.included


def test_clusters_of_duplicated_items_resample_like_the_items():
    # Each item twice, the two copies one cluster: resampling clusters is resampling items.
    x = _losses(seed=9, n=80, shifts=(0.0, 0.15, 0.4))
    doubled = np.repeat(x, 2, axis=0)
    clusters = np.repeat(np.arange(80), 2)
    a = model_confidence_set(x, n_resamples=300, random_state=1)
    b = model_confidence_set(doubled, clusters=clusters, n_resamples=300, random_state=1)
    np.testing.assert_allclose(a.pvalues, b.pvalues)
    assert b.n_clusters == 80 and b.n_items == 160


def test_identical_models_are_kept_with_pvalue_one():
    rng = np.random.default_rng(0)
    col = rng.normal(size=60)
    x = np.column_stack([col, col, col + 1.0])
    for stat in ("R", "max"):
        res = model_confidence_set(x, statistic=stat, n_resamples=200, names=list("abc"))
        assert res.pvalue("a") == res.pvalue("b") == 1.0
        assert res.included == ("a", "b") and res.indistinguishable


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(alpha=1.5), InvalidInputError, "alpha must lie in"),
    (dict(alpha=0.0), InvalidInputError, "alpha must lie in"),
    (dict(block_size=500), InvalidInputError, "block_size must be a whole number from 1"),
    (dict(block_size=0), InvalidInputError, "block_size must be a whole number from 1"),
    (dict(statistic="mean"), InvalidInputError, "statistic"),
    (dict(bootstrap="moving"), InvalidInputError, "bootstrap"),
    (dict(n_resamples=0), InvalidInputError, "n_resamples"),
])
def test_bad_options_are_refused(kwargs, error, match):
    with pytest.raises(error, match=match):
        model_confidence_set(_losses(n=40), **kwargs)


def test_bad_losses_are_refused():
    x = _losses(n=40)
    x[3, 1] = np.nan
    with pytest.raises(InvalidInputError, match="NaN"):
        model_confidence_set(x)
    with pytest.raises(TooFewError, match="at least 2 models"):
        model_confidence_set(_losses(n=40)[:, :1])
    with pytest.raises(TooFewError, match="at least 2 items"):
        model_confidence_set(_losses(n=1))


def test_without_arch_the_extra_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "arch", None)
    with pytest.raises(MissingDependencyError, match=r"outperform\[mcs\]"):
        model_confidence_set(_losses(n=40), n_resamples=10)


@pytest.mark.slow
@pytest.mark.parametrize("statistic", ["R", "max"])
def test_the_set_contains_the_best_model_with_probability_at_least_the_level(statistic):
    """HLN 2011 Theorem 1: P(best ∈ MCS) >= 1 - alpha. Two designs: all five models equal
    (every model is best: the whole set must survive) and a best one with close rivals. The
    bound is checked one-sided at three binomial standard errors of 400 replications."""
    alpha, reps = 0.1, 400
    slack = 3 * np.sqrt(alpha * (1 - alpha) / reps)
    rng = np.random.default_rng(2011)
    for shifts in ((0.0,) * 5, (0.0, 0.05, 0.1, 0.2, 0.4)):
        covered = 0
        for r in range(reps):
            x = rng.normal(size=(100, 5)) + np.asarray(shifts)
            res = model_confidence_set(x, alpha=alpha, statistic=statistic, n_resamples=200,
                                       random_state=r, names=list("abcde"))
            best = [n for n, s in zip("abcde", shifts) if s == 0.0]
            covered += set(best) <= set(res.included)
        assert covered / reps >= 1 - alpha - slack, (shifts, covered / reps)
