"""Hierarchical beta-binomial model and hierarchical McNemar test (Williams 2026 §5.5)."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import beta_binomial_hyperposterior, hierarchical_mcnemar
from outperform.bayes._beta_binomial import _sum_rising_excess

# Williams (2026) Table 1: counts for the 11 language pairs, A = GNN, B = LLM.
# n01 = GNN wrong and LLM right, n10 = GNN right and LLM wrong (the paper: "n10 indicates the
# number of test examples where the GNN was correct and the LLM incorrect").
TASKS = ["de-en", "da-en", "es-en", "fr-en", "it-en", "id-en", "nl-en", "sv-en", "tr-en",
         "tr-de", "zh-en"]
N01 = np.array([63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44])
N10 = np.array([66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46])


@pytest.fixture(scope="module")
def williams():
    return hierarchical_mcnemar(N01, N10, names=TASKS, n_samples=20_000, random_state=1)


@pytest.fixture(scope="module")
def rats(shared_data):
    return pd.read_csv(shared_data / "bda3_rat_tumors.csv")


# --- published numbers --------------------------------------------------------------------

def test_rat_tumours_bda3(rats):
    # Values given in issue 6 for BDA3 §5.3 (71 rat tumour experiments, same hyperprior).
    post = beta_binomial_hyperposterior(rats["y"], rats["n"])
    assert post.mean_fraction == pytest.approx(0.1442973, abs=1e-6)
    assert post.mean_log_concentration == pytest.approx(2.7555960, abs=1e-6)
    assert post.quadrature_error < 1e-7


def test_williams_table1_phi_bar_and_regions(williams):
    # Williams (2026) §6.2: phi_bar = 0.521; p(GNN > LLM) 0.053, p(GNN = LLM) 0.737,
    # p(GNN < LLM) 0.210 (from 10,000 ratio-of-uniforms draws, so +-0.005 of MC error).
    assert round(williams.posterior_mean, 3) == 0.521
    assert williams.p_a_better == pytest.approx(0.053, abs=0.01)
    assert williams.p_equivalent == pytest.approx(0.737, abs=0.01)
    assert williams.p_b_better == pytest.approx(0.210, abs=0.01)
    assert williams.a_better_side == "left"
    assert williams.decision == "undecided"
    s = np.sqrt(0.5212533 * (1 - 0.5212533))
    assert williams.rope == pytest.approx((0.5 - 0.1 * s, 0.5 + 0.1 * s), abs=1e-7)


def test_williams_mode_of_log_concentration(williams):
    # Williams §6.2: "log(a + b) ... around its modal value of 5.28"; "a and b very nearly
    # equal" (log(a / b) near 0).
    assert round(williams.details["mode_log_concentration"], 2) == 5.28
    assert abs(williams.details["mode_log_ratio"]) < 0.2


def test_williams_tr_en_is_shrunk_towards_phi_bar(williams):
    # tr-en has raw phi 64/94 = 0.681 (Williams §6.2, 'around 0.68'); pooling pulls it in.
    d = williams.details
    j = d["tasks"].index("tr-en")
    assert d["raw_phi"][j] == pytest.approx(64 / 94)
    assert williams.posterior_mean < d["shrunk_phi"][j] < d["raw_phi"][j]
    closer = np.abs(d["shrunk_phi"] - williams.posterior_mean) <= \
        np.abs(d["raw_phi"] - williams.posterior_mean) + 1e-12
    assert closer.all()


# --- independent implementations ------------------------------------------------------------

@given(x=st.floats(1e-3, 1e12), k=st.integers(0, 500))
@settings(max_examples=200, deadline=None)
def test_log_rising_excess_matches_the_log1p_sum(x, k):
    # R(x, k) = lgamma(x + k) - lgamma(x) - k log x = sum_{i<k} log(1 + i / x), exactly.
    exact = np.sum(np.log1p(np.arange(k) / x))
    computed = _sum_rising_excess(np.array([x]), [k], [1.0])[0]
    assert computed == pytest.approx(exact, rel=1e-12, abs=1e-11)


def test_rat_tumours_against_a_brute_force_grid(rats):
    # Plain 2-D Riemann sum on a wide uniform grid with scipy's betaln (no cancellation
    # issue for a + b < e^9, where all this posterior's mass lies).
    y, n = rats["y"].to_numpy(), rats["n"].to_numpy()
    u, v = np.meshgrid(np.linspace(-3.2, -0.3, 300), np.linspace(0.0, 9.0, 350), indexing="ij")
    a, b = np.exp(v) * special.expit(u), np.exp(v) * special.expit(-u)
    lp = np.log(a) + np.log(b) - 2.5 * v
    pairs, mult = np.unique(np.column_stack([y, n]), axis=0, return_counts=True)
    for (yj, nj), m in zip(pairs, mult):
        lp += m * (special.betaln(a + yj, b + nj - yj) - special.betaln(a, b))
    w = np.exp(lp - lp.max())
    w /= w.sum()
    post = beta_binomial_hyperposterior(y, n)
    assert post.mean_fraction == pytest.approx(np.sum(w * a / (a + b)), abs=1e-6)
    assert post.mean_log_concentration == pytest.approx(np.sum(w * v), abs=1e-5)
    shrunk, _ = post.shrunk_means()
    brute = np.array([np.sum(w * (a + yj) / (a + b + nj)) for yj, nj in zip(y, n)])
    np.testing.assert_allclose(shrunk, brute, atol=1e-6)


def test_williams_regions_against_monte_carlo_on_the_samples(williams):
    # The (a, b) draws and phi_next draws are independent of the quadrature of the region
    # probabilities; 20,000 draws give an MC standard error of ~0.003.
    lo, hi = williams.rope
    phi = williams.samples
    p_mc = np.mean(phi < lo), np.mean((phi >= lo) & (phi <= hi)), np.mean(phi > hi)
    np.testing.assert_allclose(p_mc, (williams.p_left, williams.p_rope, williams.p_right),
                               atol=0.012)
    assert np.mean(phi) == pytest.approx(williams.posterior_mean, abs=0.003)
    ab = williams.posterior.hyperposterior.sample(20_000, random_state=2)
    assert np.mean(np.log(ab.sum(axis=1))) == pytest.approx(
        williams.details["mean_log_concentration"], abs=0.05)
    assert np.mean(ab[:, 0] / ab.sum(axis=1)) == pytest.approx(williams.posterior_mean,
                                                               abs=0.002)


@pytest.mark.slow
def test_predictive_mixture_is_consistent(williams):
    mix = williams.posterior
    lo, hi = williams.rope
    assert mix.cdf(lo) == pytest.approx(williams.p_left, abs=1e-8)
    assert mix.sf(hi) == pytest.approx(williams.p_right, abs=1e-8)
    assert mix.mean() == pytest.approx(williams.posterior_mean, abs=1e-9)
    grid = np.linspace(0.3, 0.75, 451)
    assert np.trapezoid(mix.pdf(grid), grid) == pytest.approx(mix.cdf(0.75) - mix.cdf(0.3),
                                                              abs=2e-3)
    ci = williams.credible_interval_95
    assert mix.cdf(ci[0]) == pytest.approx(0.025, abs=1e-7)
    assert mix.cdf(ci[1]) == pytest.approx(0.975, abs=1e-7)


def test_region_probabilities_and_argmax_shares_sum_to_one(williams):
    d = williams.details
    assert sum(d["p_regions_averaged"]) == pytest.approx(1.0, abs=1e-12)
    assert sum(d["p_regions_argmax"]) == pytest.approx(1.0, abs=1e-12)
    assert d["p_regions_averaged"] == (williams.p_left, williams.p_rope, williams.p_right)
    # Benavoli et al.'s rule: the ROPE is the most probable region for most (a, b) draws.
    assert d["p_regions_argmax"][1] > 0.9


@pytest.mark.slow
def test_argmax_rule_against_the_draws(williams):
    # Benavoli et al.'s shares from 20,000 draws of (a, b), independently of the grid.
    res = hierarchical_mcnemar(N01, N10, region_rule="argmax", n_samples=0)
    assert (res.p_left, res.p_rope, res.p_right) == res.details["p_regions_argmax"]
    ab = williams.posterior.hyperposterior.sample(20_000, random_state=3)
    lo, hi = williams.rope
    left = stats.beta.cdf(lo, ab[:, 0], ab[:, 1])
    right = stats.beta.sf(hi, ab[:, 0], ab[:, 1])
    regions = np.column_stack([left, 1 - left - right, right])
    shares = np.bincount(regions.argmax(axis=1), minlength=3) / len(regions)
    np.testing.assert_allclose(shares, res.details["p_regions_argmax"], atol=0.006)


# --- properties -------------------------------------------------------------------------------

SMALL01 = np.array([12, 40, 25, 7, 33, 51, 18, 29])
SMALL10 = np.array([20, 31, 44, 9, 30, 40, 26, 21])


@pytest.fixture(scope="module")
def small():
    return hierarchical_mcnemar(SMALL01, SMALL10, n_samples=100, random_state=5)


@pytest.mark.slow
def test_swapping_a_and_b_mirrors_the_result(small):
    res = small
    rev = hierarchical_mcnemar(SMALL10, SMALL01, n_samples=0)
    assert rev.posterior_mean == pytest.approx(1 - res.posterior_mean, abs=1e-9)
    assert (rev.p_left, rev.p_rope, rev.p_right) == pytest.approx(
        (res.p_right, res.p_rope, res.p_left), abs=1e-8)
    np.testing.assert_allclose(rev.details["shrunk_phi"], 1 - res.details["shrunk_phi"],
                               atol=1e-8)
    assert rev.p_a_better == pytest.approx(res.p_b_better, abs=1e-8)


@pytest.mark.slow
def test_task_order_and_empty_tasks_change_nothing(small):
    n01, n10, res = SMALL01, SMALL10, small
    perm = np.random.default_rng(0).permutation(n01.size)
    shuffled = hierarchical_mcnemar(np.r_[n01[perm], 0], np.r_[n10[perm], 0], n_samples=0)
    assert (shuffled.p_left, shuffled.p_rope, shuffled.p_right) == pytest.approx(
        (res.p_left, res.p_rope, res.p_right), abs=1e-8)
    np.testing.assert_allclose(shuffled.details["shrunk_phi"][:-1],
                               res.details["shrunk_phi"][perm], atol=1e-8)
    # A task with no discordant pairs is shrunk all the way to phi_bar.
    assert shuffled.details["shrunk_phi"][-1] == pytest.approx(res.posterior_mean, abs=1e-8)


def test_deterministic_and_seeded(small):
    again = hierarchical_mcnemar(SMALL01, SMALL10, n_samples=100, random_state=5)
    assert (again.p_left, again.p_rope, again.p_right) == (small.p_left, small.p_rope,
                                                           small.p_right)
    np.testing.assert_array_equal(again.samples, small.samples)


def test_more_data_per_task_moves_probability_out_of_the_rope():
    # Ten tasks that all clearly favour A (phi ~ 0.3): A better with high probability.
    res = hierarchical_mcnemar([30] * 10, [70] * 10, n_samples=0)
    assert res.p_a_better > 0.95
    assert res.decision == "A better"


def test_single_informative_task_is_proper():
    post = beta_binomial_hyperposterior([0, 3, 10], [10, 8, 10])
    assert 0 < post.mean_fraction < 1
    assert np.isfinite(post.mean_log_concentration)


def test_to_dict_is_json_safe(williams):
    import json

    out = williams.to_dict()
    assert len(json.dumps(out)) < 5000  # the grid stays out of the summary
    assert out["p_a_better"] == williams.p_left


# --- bad input --------------------------------------------------------------------------------

def test_improper_posterior_raises():
    with pytest.raises(DegenerateDataError, match="improper"):
        hierarchical_mcnemar([0, 5, 0], [4, 0, 7])
    with pytest.raises(DegenerateDataError, match="improper"):
        beta_binomial_hyperposterior([0, 10], [10, 10])


@pytest.mark.parametrize("n01, n10, exc, msg", [
    ([1, -2], [3, 4], InvalidInputError, "non-negative"),
    ([1.5, 2], [3, 4], InvalidInputError, "whole numbers"),
    ([1, 2, 3], [3, 4], InvalidInputError, "one entry per task"),
    ([[1, 2]], [[3, 4]], InvalidInputError, "1-D"),
    ([], [], TooFewError, "no tasks"),
    ([1, np.nan], [3, 4], InvalidInputError, "NaN"),
])
def test_bad_counts(n01, n10, exc, msg):
    with pytest.raises(exc, match=msg):
        hierarchical_mcnemar(n01, n10)


def test_bad_options():
    with pytest.raises(InvalidInputError, match="names"):
        hierarchical_mcnemar([1, 2], [3, 4], names=["x"])
    with pytest.raises(InvalidInputError, match="threshold"):
        hierarchical_mcnemar([1, 2], [3, 4], threshold=1.5)
    with pytest.raises(InvalidInputError, match="region_rule"):
        hierarchical_mcnemar([1, 2], [3, 4], region_rule="max")
    with pytest.raises(InvalidInputError, match="cannot exceed"):
        beta_binomial_hyperposterior([5, 2], [3, 4])
    with pytest.raises(InvalidInputError, match="breakpoint"):
        beta_binomial_hyperposterior([1, 2], [3, 4], breakpoints=[1.2])
