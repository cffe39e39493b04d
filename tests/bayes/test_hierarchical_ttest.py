"""Hierarchical correlated Bayesian t-test (Benavoli et al. 2017 §4.3.1).

Every sampling test uses the same configuration (54 data sets, 2 chains x (500 + 1000)
draws), as does the module's doctest: the sampler is compiled once per process, and every
further call costs a second or two.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import integrate, stats

from outperform._validation import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import _hierarchical_model as hm
from outperform.bayes import _hierarchical_ttest as ht
from outperform.bayes import HierarchicalPrior, hierarchical_correlated_ttest
from outperform.data import load_uci54_arrays

CONFIG = dict(n_chains=2, n_samples=1000, n_warmup=500)





@pytest.fixture(scope="module")
def uci(shared_data):
    return load_uci54_arrays(shared_data / "uci54_10x10cv_accuracies.txt", keep_duplicates=True)


@pytest.fixture(scope="module")
def hnb_vs_nbc(uci):
    names, hnb = uci["hnb"]
    return hierarchical_correlated_ttest(hnb, uci["nbc"][1], rho=0.1, rope=1.0, names=names,
                                         random_state=3, **CONFIG)


# --- published conclusions and a long reference run ----------------------------------------

@pytest.mark.slow
def test_hnb_is_better_than_nbc_with_high_probability(hnb_vs_nbc):
    # Benavoli, Corani, Demšar & Zaffalon (2017) §4.3: on these 54 data sets (rope 1%) the
    # hierarchical test finds hnb practically better than nbc with high probability.
    res = hnb_vs_nbc
    assert res.a_better_side == "right"
    assert res.p_a_better > 0.95
    assert res.decision == "A better"
    assert np.mean(res.posterior.delta0 > 0) > 0.99
    left, _, right = res.details["p_regions_averaged"]
    assert right > 2 * left


# Reference: baycomp's Stan model written independently as a NumPyro model (sigma_i sampled,
# not integrated out; the full 54 x 100 difference matrix with the explicit M^-1 quadratic
# form; float64), 4 chains x (1,000 warm-up + 5,000) draws, ESS of delta0 23,692, R-hat 1.000:
#   python benchmarks/bench_hierarchical.py --reference --draws 5000 --warmup 1000 --seed 1
# Same priors (baycomp's), rho = 0.1, rope = 1, a = hnb, b = nbc.
REFERENCE = {"delta0_mean": 1.5217, "delta0_sd": 0.4536, "std0_mean": 2.1596,
             "nu_mean": 2.3324, "p_averaged": (0.1798, 0.2362, 0.5839),
             "p_argmax_right": 0.9977}


@pytest.mark.slow
def test_agrees_with_a_long_reference_run(hnb_vs_nbc):
    res, post = hnb_vs_nbc, hnb_vs_nbc.posterior
    # 2,000 draws with ESS > 1,000: MC standard errors ~0.015 on delta0, ~0.03 on sigma0.
    assert post.delta0.mean() == pytest.approx(REFERENCE["delta0_mean"], abs=0.07)
    assert post.delta0.std() == pytest.approx(REFERENCE["delta0_sd"], abs=0.05)
    assert post.std0.mean() == pytest.approx(REFERENCE["std0_mean"], abs=0.12)
    assert post.nu.mean() == pytest.approx(REFERENCE["nu_mean"], abs=0.15)
    np.testing.assert_allclose(res.details["p_regions_averaged"], REFERENCE["p_averaged"],
                               atol=0.02)
    assert res.details["p_regions_argmax"][2] == pytest.approx(REFERENCE["p_argmax_right"],
                                                               abs=0.01)
    assert res.details["rhat_max"] < 1.01
    assert res.details["divergent"] == 0


@pytest.mark.slow
def test_zero_variance_data_sets_against_the_reference(uci):
    # aode vs nbc: two data sets (hayes-roth, liver-disorders) have the same accuracy in all
    # 100 folds. Reference as above (the two rows replaced by +-1/sqrt(3), the variance
    # outperform gives them): 4 x 5,000 draws, R-hat 1.0006, ESS of delta0 6,902:
    #   python benchmarks/bench_hierarchical.py --reference --draws 5000 --warmup 1000 \
    #       --seed 1 --pair aode nbc
    names, aode = uci["aode"]
    res = hierarchical_correlated_ttest(aode, uci["nbc"][1], rho=0.1, rope=1.0, names=names,
                                        random_state=5, **CONFIG)
    post = res.posterior
    assert post.delta0.mean() == pytest.approx(0.9672, abs=0.05)
    assert post.std0.mean() == pytest.approx(1.2233, abs=0.08)
    assert post.nu.mean() == pytest.approx(2.2466, abs=0.2)
    np.testing.assert_allclose(res.details["p_regions_averaged"], (0.1260, 0.3978, 0.4762),
                               atol=0.03)
    assert res.details["p_regions_argmax"][1] == pytest.approx(0.3098, abs=0.06)
    assert res.decision == "undecided"


@pytest.mark.slow
def test_shrinkage_pulls_data_set_means_towards_delta0(hnb_vs_nbc):
    d = hnb_vs_nbc.details
    raw, shrunk, centre = d["raw_means"], d["shrunk_means"], d["delta0_mean"]
    assert np.mean(np.abs(shrunk - centre) <= np.abs(raw - centre) + 0.05) > 0.9
    assert stats.spearmanr(raw, shrunk)[0] > 0.9  # shrinkage keeps the order, roughly
    lo, hi = d["shrunk_ci95"].T
    assert np.all(lo < shrunk) and np.all(shrunk < hi)


# --- properties ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_swapping_a_and_b_mirrors_the_result_in_any_units(uci, hnb_vs_nbc):
    # B and A swapped, and scores as fractions with rope 0.01 instead of percent with rope 1:
    # the data are standardised, so the posterior is the mirror image, in the new units, up
    # to Monte Carlo error (float32 rounding differs, and NUTS trajectories amplify it).
    names, hnb = uci["hnb"]
    rev = hierarchical_correlated_ttest(uci["nbc"][1] / 100, hnb / 100, rho=0.1, rope=0.01,
                                        names=names, random_state=4, **CONFIG)
    res = hnb_vs_nbc
    assert rev.p_b_better == pytest.approx(res.p_a_better, abs=0.01)
    assert rev.decision == "B better"
    np.testing.assert_allclose(rev.details["p_regions_averaged"][::-1],
                               res.details["p_regions_averaged"], atol=0.02)
    assert rev.posterior_mean * 100 == pytest.approx(-res.posterior_mean, abs=0.07)
    assert rev.rope == (-0.01, 0.01)


@pytest.mark.slow
def test_averaged_rule_and_region_samples(uci, hnb_vs_nbc):
    res = hnb_vs_nbc
    regions = res.samples
    assert regions.shape == (2000, 3)
    np.testing.assert_allclose(regions.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(res.details["p_regions_averaged"], regions.mean(axis=0))
    assert res.mc_standard_error < 0.01
    # The predictive draws of delta_next follow t_nu(delta0, sigma0): their region shares
    # match the averaged probabilities.
    nxt = res.posterior.delta_next
    shares = np.mean(nxt < -1), np.mean(np.abs(nxt) <= 1), np.mean(nxt > 1)
    np.testing.assert_allclose(shares, res.details["p_regions_averaged"], atol=0.03)


# --- the likelihood: sufficient statistics and sigma_i integrated out --------------------------

def _log_marginal(x, delta, rho, s_max):
    """log ∫_0^s_max MVN(x; 1 delta, sigma^2 M) dsigma / s_max, by quadrature (full M)."""
    n = x.size
    m = (1 - rho) * np.eye(n) + rho
    def integrand(log_sigma):
        sigma = np.exp(log_sigma)
        return np.exp(stats.multivariate_normal.logpdf(x, np.full(n, delta), sigma**2 * m)
                      + log_sigma + 40.0)
    val, _ = integrate.quad(integrand, -12, np.log(s_max), limit=200, epsabs=0, epsrel=1e-10)
    return np.log(val) - 40.0


@pytest.mark.parametrize("sigma_scale, centre", [(1000.0, 1.0), (1000.0, 0.3), (1.5, 0.7)])
@pytest.mark.slow
def test_potential_matches_the_integrated_mvn_likelihood(sigma_scale, centre):
    # The compiled potential, as a function of one data set's delta, against the exact
    # likelihood: the n x n MVN density with M(rho), integrated over sigma ~ U(0, sigma_bar)
    # by quadrature, times the Student prior of delta. Checks the sufficient statistics,
    # the integration of sigma, the truncation term (sigma_bar = 1.5) and the partially
    # centred coordinate z of delta (centre < 1).
    import jax.numpy as jnp

    rng = np.random.default_rng(7)
    a, b = rng.normal(0.3, 1.0, size=(3, 8)), rng.normal(0.0, 1.0, size=(3, 8))
    rho, n = 0.2, 8
    means, within, _ = ht._summaries(a, b, 0.0)
    scale = float(np.mean(np.sqrt(within / n)))
    xbar, w = means / scale, within / scale**2
    q_ref = w / (1 - rho)
    c = n / (1 + (n - 1) * rho) / q_ref
    bounds = np.array([5.0, 10.0, sigma_scale])
    truncate = ht._truncation_matters(q_ref, c, xbar, 5.0, n, sigma_scale)
    assert truncate == (sigma_scale < 10)
    centres = np.full(3, centre)
    potential = ht._potential_gen(truncate)(
        *(jnp.asarray(v, dtype=jnp.float32) for v in (xbar, c, q_ref, centres, float(n),
                                                       bounds, [1.0, 2.0, 0.01, 0.1])))
    base = {"alpha": 0.3, "beta": -0.2, "log_nu_minus_one": 1.5, "delta0": 0.1, "std0": -3.0}
    nu, d0 = np.exp(1.5) + 1, 5.0 * (2 / (1 + np.exp(-0.1)) - 1)
    s0 = 10.0 / (1 + np.exp(3.0))
    x0 = (a[0] - b[0]) / scale
    values = []
    for delta_1 in (-0.5, 0.2, 1.1):
        delta = np.array([delta_1, 0.0, 0.4])
        z = centre * d0 + (delta - d0) / s0 ** (1 - centre)
        params = {k: jnp.float32(v) for k, v in base.items()}
        params["z"] = jnp.asarray(z, dtype=jnp.float32)
        expected = (_log_marginal(x0, delta_1, rho, sigma_scale)
                    + stats.t.logpdf(delta_1, nu, d0, s0))
        values.append((-float(potential(params)), expected))
    got, want = np.array(values).T
    np.testing.assert_allclose(got - got[0], want - want[0], atol=2e-4)


def test_centredness_follows_the_information_per_data_set():
    xbar = np.array([0.0, 1.0, 2.0, 3.0])
    # Precise data sets (large c) get the centred form, vague ones the non-centred one.
    w = ht._centredness(xbar, np.array([1e4, 1e4, 1e-2, 1e-2]), 100)
    assert w[0] > 0.99 and w[2] < 0.5
    assert np.all((w >= 0) & (w <= 1))


def test_summaries_and_zero_variance_data_sets():
    a = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 5.0, 5.0, 5.0]])
    b = np.array([[0.0, 2.0, 2.0, 5.0], [4.0, 4.0, 4.0, 4.0]])
    with pytest.raises(DegenerateDataError, match="same difference in every fold"):
        ht._summaries(a, b, 0.0)
    means, within, max_abs = ht._summaries(a, b, 0.5)
    np.testing.assert_allclose(means, [0.25, 1.0])
    np.testing.assert_allclose(within, [np.sum((np.array([1, 0, 1, -1]) - 0.25) ** 2),
                                        4 * 0.25 / 3])
    assert max_abs == 1.0


@pytest.mark.slow
def test_seeded_and_warns_on_poor_convergence(uci, hnb_vs_nbc, monkeypatch):
    # Same data and seed: the same draws. With an impossible ESS limit, the warning fires.
    from outperform.bayes import _mcmc        # the one convergence check all MCMC models use

    monkeypatch.setattr(_mcmc, "ESS_LIMIT", 10**9)
    names, hnb = uci["hnb"]
    with pytest.warns(RuntimeWarning, match="may not have converged"):
        again = hierarchical_correlated_ttest(hnb, uci["nbc"][1], rho=0.1, rope=1.0,
                                              names=names, random_state=3, **CONFIG)
    np.testing.assert_array_equal(again.posterior.delta0, hnb_vs_nbc.posterior.delta0)
    assert again.details["p_regions_argmax"] == hnb_vs_nbc.details["p_regions_argmax"]


@pytest.mark.slow
def test_a_later_process_loads_the_stored_sampler_and_gets_the_same_draws(uci, hnb_vs_nbc,
                                                                         monkeypatch):
    # Issue 14: the traced sampler is stored (jax.export) in the cache folder, so a later
    # process does not trace NumPyro's NUTS again. Forgetting this process's programs and
    # forbidding tracing, the stored one must be found and give the same draws.
    pytest.importorskip("flatbuffers")
    import jax

    from outperform.bayes import _mcmc

    folder = _mcmc.enable_compilation_cache()
    if folder is None:
        pytest.skip("the cache folder is off (OUTPERFORM_JAX_CACHE=0)")
    assert list((folder / "exported").glob("hierarchical_ttest-*.jaxexport"))
    _mcmc._program.cache_clear()

    def no_tracing(*args, **kwargs):
        raise AssertionError("the sampler was traced again instead of loaded")

    monkeypatch.setattr(jax.export, "export", no_tracing)
    names, hnb = uci["hnb"]
    again = hierarchical_correlated_ttest(hnb, uci["nbc"][1], rho=0.1, rope=1.0, names=names,
                                          random_state=3, **CONFIG)
    np.testing.assert_array_equal(again.posterior.delta0, hnb_vs_nbc.posterior.delta0)


# --- options and bad input ---------------------------------------------------------------------

def test_prior_presets_and_validation():
    assert HierarchicalPrior.baycomp() == HierarchicalPrior()
    assert HierarchicalPrior().alpha_bounds == (1.0, 2.0)
    assert HierarchicalPrior().beta_bounds == (0.01, 0.1)
    r = HierarchicalPrior.r_version()
    assert (r.alpha_bounds, r.beta_bounds, r.delta0_bound) == ((0.5, 5.0), (0.05, 0.15), 1.0)
    with pytest.raises(InvalidInputError, match="alpha_bounds"):
        HierarchicalPrior(alpha_bounds=(2.0, 1.0))
    with pytest.raises(InvalidInputError, match="sigma_scale"):
        HierarchicalPrior(sigma_scale=0.5)
    with pytest.raises(InvalidInputError, match="delta0_bound"):
        HierarchicalPrior(delta0_bound=-1.0)


@pytest.mark.parametrize("a, b, kwargs, exc, msg", [
    (np.ones((3, 5)), np.ones((3, 4)), {}, InvalidInputError, "paired"),
    (np.ones(5), np.ones(5), {}, InvalidInputError, "2-dimensional"),
    (np.ones((1, 5)), np.zeros((1, 5)), {}, TooFewError, "at least 2 data sets"),
    (np.ones((3, 1)), np.zeros((3, 1)), {}, TooFewError, "at least 2 folds"),
    (np.ones((3, 5)), np.ones((3, 5)), {}, DegenerateDataError, "identical"),
    (np.full((3, 5), np.nan), np.ones((3, 5)), {}, InvalidInputError, "NaN"),
    (np.eye(3, 5), np.zeros((3, 5)), {"rho": 1.0}, InvalidInputError, "rho"),
    (np.eye(3, 5), np.zeros((3, 5)), {"rope": -1}, InvalidInputError, "rope"),
    (np.eye(3, 5), np.zeros((3, 5)), {"region_rule": "max"}, InvalidInputError, "region_rule"),
    (np.eye(3, 5), np.zeros((3, 5)), {"n_samples": 0}, InvalidInputError, "n_samples"),
    (np.eye(3, 5), np.zeros((3, 5)), {"names": ["x"]}, InvalidInputError, "names"),
    (np.eye(3, 5), np.zeros((3, 5)), {"chain_method": "parallel"}, InvalidInputError,
     "chain_method"),
    (np.eye(3, 5), np.zeros((3, 5)), {"prior": {"alpha": 1}}, InvalidInputError, "prior"),
])
def test_bad_input(a, b, kwargs, exc, msg):
    kwargs = {"rho": 0.1, **kwargs}
    with pytest.raises(exc, match=msg):
        hierarchical_correlated_ttest(a, b, **kwargs)


@pytest.mark.parametrize("truncate", [False, True])
@pytest.mark.slow
def test_padding_leaves_the_potential_of_the_data_sets_unchanged(truncate):
    # One compiled sampler serves every q of a bucket: padded data sets must add exactly
    # independent standard normals, whatever the other parameters (a property of the mask).
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(11)
    q = 5
    xbar, c, q_ref = rng.normal(0, 1, q), rng.uniform(0.5, 2, q), rng.uniform(5, 20, q)
    centre = rng.uniform(0, 1, q)
    tail = (8.0, np.array([5.0, 10.0, 1.5 if truncate else 1000.0]), [1.0, 2.0, 0.01, 0.1])
    *padded, mask = hm.padded_args(xbar, c, q_ref, centre)
    assert mask.size == hm.padded_size(q) == 16 and mask.sum() == q

    def f32(values):
        return [jnp.asarray(v, dtype=jnp.float32) for v in values]

    plain = ht._potential_gen(truncate)(*f32((xbar, c, q_ref, centre, *tail)))
    masked = ht._potential_gen(truncate)(*f32((*padded, *tail, mask)))
    for _ in range(5):
        params = {k: jnp.float32(v) for k, v in zip(
            ("alpha", "beta", "log_nu_minus_one", "delta0", "std0"), rng.normal(0, 1, 5))}
        z = rng.normal(0, 2, mask.size)
        pad_z = z[q:]
        got = float(masked({**params, "z": jnp.asarray(z, dtype=jnp.float32)}))
        want = (float(plain({**params, "z": jnp.asarray(z[:q], dtype=jnp.float32)}))
                + 0.5 * float(np.sum(pad_z ** 2)))
        assert got == pytest.approx(want, rel=1e-5, abs=1e-3)
        # The gradient NUTS follows: the same for the real coordinates, z for the padding,
        # finite even where a padded z is far out (it would make the masked terms infinite).
        z[q:] = 1e4
        g_masked = jax.grad(masked)({**params, "z": jnp.asarray(z, dtype=jnp.float32)})
        g_plain = jax.grad(plain)({**params, "z": jnp.asarray(z[:q], dtype=jnp.float32)})
        for k in params:   # (NaN in both where the truncation term underflows: equal_nan)
            np.testing.assert_allclose(float(g_masked[k]), float(g_plain[k]), rtol=1e-4,
                                       atol=1e-4)
        np.testing.assert_allclose(g_masked["z"][:q], g_plain["z"], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(g_masked["z"][q:], z[q:], rtol=1e-6)


@pytest.mark.slow
def test_data_set_counts_of_one_bucket_share_one_compiled_sampler():
    from outperform.bayes import _mcmc

    rng = np.random.default_rng(12)
    a, b = rng.normal(0.5, 1, (20, 10)), rng.normal(0, 1, (20, 10))
    kwargs = dict(rho=0.1, rope=0.1, n_chains=2, n_samples=50, n_warmup=50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # 50 draws: too few to converge
        ht.hierarchical_correlated_ttest(a, b, **kwargs)
        before = _mcmc._program.cache_info()
        res = ht.hierarchical_correlated_ttest(a[:17], b[:17], **kwargs)   # 17 and 20: 32
    after = _mcmc._program.cache_info()
    assert (after.hits, after.misses) == (before.hits + 1, before.misses)
    assert res.details["shrunk_means"].shape == (17,)
    assert res.posterior.delta.shape == (2, 50, 17)
