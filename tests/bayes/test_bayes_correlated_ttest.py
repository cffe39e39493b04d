"""Correlated Bayesian t-test (Corani & Benavoli 2015): published numbers, an independent
matrix implementation of Theorem 2, numerical integration of the generative model, the
matching-prior limit (Corollary 1) and symmetries."""
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import integrate, stats

from outperform import DegenerateDataError, InvalidInputError, TooFewError
from outperform.bayes import NormalGammaPrior, correlated_bayesian_ttest
from outperform.results import BayesianResult
from outperform.stats import corrected_resampled_ttest

RNG = np.random.default_rng(20150101)
A = RNG.normal(0.80, 0.03, 30)
B = A - RNG.normal(0.01, 0.02, 30)


@pytest.fixture(scope="module")
def uci54(shared_data):
    from outperform.data import load_uci54

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the duplicated credit line
        df = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt", as_fraction=True)
    return {key: g["score"].to_numpy() for key, g in df.groupby(["model", "task"])}


# Issue 4 ("It must show"): x = aode/100, y = nbc/100, rho = 0.1, ROPE 0.01,
# P(aode better, rope, nbc better); values as produced by baycomp's correlated t-test.
@pytest.mark.parametrize("task, expected", [
    ("anneal", (0.9542856649905699, 0.045714032898925394, 3.021105047240624e-07)),
    ("audiology", (0.08196272657407605, 0.9087251242585637, 0.009312149167360229)),
])
def test_uci54_published_probabilities(uci54, task, expected):
    scores = uci54
    res = correlated_bayesian_ttest(scores[("aode", task)], scores[("nbc", task)],
                                    rho=0.1, rope=0.01)
    got = (res.p_a_better, res.p_equivalent, res.p_b_better)
    assert got == pytest.approx(expected, abs=1e-9)


def test_uci54_decisions(uci54):
    scores = uci54
    anneal = correlated_bayesian_ttest(scores[("aode", "anneal")], scores[("nbc", "anneal")],
                                       rho=0.1, rope=0.01)
    audiology = correlated_bayesian_ttest(scores[("aode", "audiology")],
                                          scores[("nbc", "audiology")], rho=0.1, rope=0.01)
    assert anneal.decision == "A better"
    assert audiology.decision == "undecided"
    # hayes-roth: nbc and aode have identical accuracies on all 100 folds.
    same = correlated_bayesian_ttest(scores[("aode", "hayes-roth")],
                                     scores[("nbc", "hayes-roth")], rho=0.1, rope=0.01)
    assert (same.p_left, same.p_rope, same.p_right) == (0.0, 1.0, 0.0)
    assert same.decision == "practically equivalent"


def test_result_fields():
    res = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.01)
    assert isinstance(res, BayesianResult)
    assert res.a_better_side == "right" and res.rope == (-0.01, 0.01)
    assert res.p_left + res.p_rope + res.p_right == pytest.approx(1)
    assert res.posterior_mean == pytest.approx(np.mean(A - B))
    lo, hi = res.credible_interval_95
    assert res.posterior.cdf(hi) - res.posterior.cdf(lo) == pytest.approx(0.95)
    assert res.details["df"] == 29
    assert res.to_dict()["p_a_better"] == res.p_right


# --- Corollary 1: the matching prior reproduces the frequentist correlated t-test ----------

def _matching_scale(d, rho):
    n = d.size
    return math.sqrt((1 / n + rho / (1 - rho)) * np.var(d, ddof=1))


def test_matching_prior_is_corollary_1():
    # Corollary 1: mu | x ~ St(n - 1, mean(x), (1/n + rho/(1 - rho)) var(x)).
    d = A - B
    res = correlated_bayesian_ttest(A, B, rho=0.1)
    ref = stats.t(d.size - 1, d.mean(), _matching_scale(d, 0.1))
    q = np.array([0.001, 0.1, 0.5, 0.9, 0.999])
    np.testing.assert_allclose(res.posterior.ppf(q), ref.ppf(q), rtol=1e-12)
    assert res.details["df"] == d.size - 1


paired = st.integers(2, 40).flatmap(lambda n: st.tuples(
    arrays(float, n, elements=st.floats(0, 1)), arrays(float, n, elements=st.floats(0, 1))))


@settings(max_examples=40, deadline=None)
@given(paired, st.sampled_from([0.0, 0.1, 0.2, 0.5, 1 / 3]))
def test_posterior_probability_equals_one_minus_one_sided_p(ab, rho):
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    bayes = correlated_bayesian_ttest(a, b, rho=rho)
    freq = corrected_resampled_ttest(a, b, rho=rho, alternative="greater")
    assert bayes.p_right == pytest.approx(1 - freq.pvalue, abs=1e-12)
    assert bayes.p_left == pytest.approx(freq.pvalue, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(paired)
def test_rho_zero_is_the_ordinary_bayesian_ttest_and_scipy(ab):
    # Williams (2026) eq. 6: Delta | d ~ t_{N-1}(m, s^2/N); and P(Delta > 0) = 1 - p of
    # scipy's one-sided paired t-test.
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    d = a - b
    res = correlated_bayesian_ttest(a, b, rho=0.0, rope=0.05)
    ref = stats.t(d.size - 1, d.mean(), d.std(ddof=1) / math.sqrt(d.size))
    assert res.p_right == pytest.approx(ref.sf(0.05), abs=1e-10)
    assert res.p_left == pytest.approx(ref.cdf(-0.05), abs=1e-10)
    p_greater = stats.ttest_rel(a, b, alternative="greater").pvalue
    assert correlated_bayesian_ttest(a, b, rho=0.0).p_right == pytest.approx(1 - p_greater,
                                                                            abs=1e-10)


# --- The general Normal-Gamma prior of Theorem 2 -----------------------------------------

def _theorem2_by_matrices(d, rho, mu0, k0, a, b):
    """Theorem 2 with explicit matrices (np.linalg.inv) instead of the closed forms.

    b_n is written with the prior-data conflict term as it results from completing the
    square (the printed table has the last three terms with the opposite sign)."""
    n = d.size
    m = np.full((n, n), rho) + (1 - rho) * np.eye(n)
    m_inv = np.linalg.inv(m)
    h = np.ones(n)
    s = h @ m_inv @ h
    mu_hat = (h @ m_inv @ d) / s
    mu_n = (h @ m_inv @ d + mu0 / k0) / (s + 1 / k0)
    k_n = 1 / (s + 1 / k0)
    a_n = a + n / 2
    r = d - h * mu_hat
    b_n = 0.5 * (r @ m_inv @ r + 2 * b + mu0**2 / k0 + mu_hat**2 * s - mu_n**2 * (s + 1 / k0))
    return stats.t(2 * a_n, mu_n, math.sqrt(b_n * k_n / a_n))


@pytest.mark.parametrize("prior", [NormalGammaPrior(0.0, 1.0, 1.0, 0.01),
                                   NormalGammaPrior(0.05, 0.1, 3.0, 0.002),
                                   NormalGammaPrior(-0.02, 10.0, 0.5, 0.0)])
@pytest.mark.parametrize("rho", [0.0, 0.1, 0.25])
def test_general_prior_matches_matrix_form(prior, rho):
    d = A - B
    res = correlated_bayesian_ttest(A, B, rho=rho, rope=0.01, prior=prior)
    ref = _theorem2_by_matrices(d, rho, prior.mu0, prior.k0, prior.a, prior.b)
    assert res.posterior.mean() == pytest.approx(ref.mean(), rel=1e-10)
    assert res.posterior.std() == pytest.approx(ref.std(), rel=1e-10)
    assert res.p_left == pytest.approx(ref.cdf(-0.01), abs=1e-10)
    assert res.p_right == pytest.approx(ref.sf(0.01), abs=1e-10)


def test_general_prior_matches_numerical_integration_of_the_model():
    # Marginal posterior of mu from the generative model itself: x ~ MVN(1 mu, M / nu),
    # mu | nu ~ N(mu0, k0 / nu), nu ~ Gamma(a, rate b); integrate nu out numerically.
    d = np.array([0.02, -0.01, 0.035, 0.01, 0.005])
    rho, mu0, k0, a, b = 0.2, 0.01, 2.0, 2.0, 0.001
    n = d.size
    m = np.full((n, n), rho) + (1 - rho) * np.eye(n)
    m_inv, logdet_m = np.linalg.inv(m), np.linalg.slogdet(m)[1]

    def log_joint(mu, log_nu):
        nu = math.exp(log_nu)
        r = d - mu
        log_lik = 0.5 * (n * log_nu - logdet_m - nu * r @ m_inv @ r - n * math.log(2 * math.pi))
        log_prior_mu = 0.5 * (log_nu - math.log(2 * math.pi * k0) - nu * (mu - mu0) ** 2 / k0)
        log_prior_nu = a * math.log(b) - math.lgamma(a) + (a - 1) * log_nu - b * nu
        return log_lik + log_prior_mu + log_prior_nu + log_nu   # + log-Jacobian of nu = e^t

    shift = log_joint(0.01, math.log(1 / 0.0003))

    def density(mu):
        return integrate.quad(lambda t: math.exp(log_joint(mu, t) - shift), -5, 25,
                              limit=200)[0]

    grid = np.array([-0.02, 0.0, 0.01, 0.02, 0.04])
    num = np.array([density(mu) for mu in grid])
    post = correlated_bayesian_ttest(d, np.zeros(n), rho=rho,
                                     prior=NormalGammaPrior(mu0, k0, a, b)).posterior
    np.testing.assert_allclose(num / num[2], post.pdf(grid) / post.pdf(grid[2]), rtol=1e-6)


def test_general_prior_tends_to_matching_prior():
    matching = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.01)
    gaps = []
    for k0 in (1e-2, 1.0, 1e2, 1e4, 1e8):
        res = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.01,
                                        prior=NormalGammaPrior(mu0=0.05, k0=k0, a=-0.5, b=0.0))
        gaps.append(abs(res.p_right - matching.p_right) + abs(res.p_left - matching.p_left))
    assert all(g1 > g2 for g1, g2 in zip(gaps, gaps[1:]))
    assert gaps[-1] < 1e-7
    assert gaps[0] > 1e-2   # the prior matters when it is strong


def test_informative_prior_shrinks_towards_mu0():
    flat = correlated_bayesian_ttest(A, B, rho=0.1)
    strong = correlated_bayesian_ttest(A, B, rho=0.1,
                                       prior=NormalGammaPrior(mu0=0.0, k0=0.001, a=1, b=0.01))
    assert abs(strong.posterior_mean) < abs(flat.posterior_mean)


# --- Symmetry and invariance ---------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(paired, st.sampled_from([0.0, 0.1, 0.5]), st.floats(0, 0.2))
def test_swapping_a_and_b_mirrors(ab, rho, rope):
    a, b = ab
    assume(np.ptp(a - b) > 1e-6)
    ab_res = correlated_bayesian_ttest(a, b, rho=rho, rope=rope)
    ba_res = correlated_bayesian_ttest(b, a, rho=rho, rope=rope)
    assert ab_res.p_left == pytest.approx(ba_res.p_right, abs=1e-12)
    assert ab_res.p_rope == pytest.approx(ba_res.p_rope, abs=1e-12)
    assert ab_res.posterior_mean == pytest.approx(-ba_res.posterior_mean, abs=1e-12)
    mirrored = {"A better": "B better", "B better": "A better"}
    assert ba_res.decision == mirrored.get(ab_res.decision, ab_res.decision)


@settings(max_examples=30, deadline=None)
@given(paired, st.integers(-3, 3))
def test_adding_a_constant_to_both_changes_nothing(ab, shift):
    a, b = ab
    assume(np.ptp(a - b) > 1e-3)
    c = shift / 4   # exact in binary, so a - b is unchanged up to one rounding
    r1 = correlated_bayesian_ttest(a, b, rho=0.1, rope=0.01)
    r2 = correlated_bayesian_ttest(a + c, b + c, rho=0.1, rope=0.01)
    assert (r2.p_left, r2.p_rope, r2.p_right) == pytest.approx(
        (r1.p_left, r1.p_rope, r1.p_right), abs=1e-9)


def test_fold_order_does_not_matter():
    perm = RNG.permutation(A.size)
    r1 = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.01)
    r2 = correlated_bayesian_ttest(A[perm], B[perm], rho=0.1, rope=0.01)
    assert r2.p_right == pytest.approx(r1.p_right, abs=1e-12)


# --- Zero variance -------------------------------------------------------------------------

@pytest.mark.parametrize("diff, rope, expected, decision", [
    (0.0, 0.0, (0.5, 0.0, 0.5), "undecided"),
    (0.0, 0.01, (0.0, 1.0, 0.0), "practically equivalent"),
    (0.02, 0.0, (0.0, 0.0, 1.0), "A better"),
    (-0.02, 0.0, (1.0, 0.0, 0.0), "B better"),
    (0.005, 0.01, (0.0, 1.0, 0.0), "practically equivalent"),
    (0.02, 0.01, (0.0, 0.0, 1.0), "A better"),
])
def test_equal_differences_give_the_limit_regions(diff, rope, expected, decision):
    b = np.linspace(0.7, 0.9, 10)
    res = correlated_bayesian_ttest(b + diff, b, rho=0.1, rope=rope)
    assert (res.p_left, res.p_rope, res.p_right) == pytest.approx(expected)
    assert res.decision == decision
    assert res.details["degenerate"] is True and res.posterior is None
    assert res.credible_interval_95 == pytest.approx((diff, diff))


@pytest.mark.parametrize("diff, rope", [(0.02, 0.01), (0.0, 0.0), (0.0, 0.01), (0.01, 0.01),
                                        (-0.01, 0.01)])
def test_degenerate_regions_are_the_limit_of_vanishing_variance(diff, rope):
    # Symmetric noise keeps the mean at diff exactly, so the Student posterior stays centred
    # on diff while its scale shrinks: a centre on a ROPE bound keeps half its mass each side.
    b = np.zeros(10)              # so that a - b is diff exactly, with no rounding
    noise = np.tile([1.0, -1.0], 5)
    exact = correlated_bayesian_ttest(b + diff, b, rho=0.1, rope=rope)
    for eps in (1e-6, 1e-9):
        near = correlated_bayesian_ttest(b + diff + eps * noise, b, rho=0.1, rope=rope)
        assert (near.p_left, near.p_rope, near.p_right) == pytest.approx(
            (exact.p_left, exact.p_rope, exact.p_right), abs=1e-6)


def test_degenerate_result_mirrors_when_a_and_b_swap():
    b = np.linspace(0.7, 0.9, 10)
    for diff in (0.0, 0.01, 0.03):
        ab = correlated_bayesian_ttest(b + diff, b, rho=0.1, rope=0.01)
        ba = correlated_bayesian_ttest(b, b + diff, rho=0.1, rope=0.01)
        assert (ab.p_left, ab.p_rope, ab.p_right) == (ba.p_right, ba.p_rope, ba.p_left)


def test_zero_variance_can_raise():
    x = np.full(10, 0.8)
    with pytest.raises(DegenerateDataError, match="point mass"):
        correlated_bayesian_ttest(x, x, rho=0.1, on_zero_variance="raise")


def test_proper_prior_needs_no_fallback():
    x = np.full(10, 0.8)
    res = correlated_bayesian_ttest(x + 0.01, x, rho=0.1, on_zero_variance="raise",
                                    prior=NormalGammaPrior(0.0, 1.0, 1.0, 1e-4))
    assert res.posterior is not None and 0.5 < res.p_right < 1


# --- Bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    (dict(rho=1.0), InvalidInputError, "rho must lie in"),
    (dict(rho=-0.1), InvalidInputError, "rho must lie in"),
    (dict(rho=0.1, rope=-0.01), InvalidInputError, "rope"),
    (dict(rho=0.1, threshold=1.5), InvalidInputError, "threshold"),
    (dict(rho=0.1, prior=(0, 1, 1, 1)), InvalidInputError, "NormalGammaPrior"),
    (dict(rho=0.1, prior=NormalGammaPrior(a=-20.0)), InvalidInputError, r"a \+ n/2"),
    (dict(rho=0.1, on_zero_variance="ignore"), InvalidInputError, "on_zero_variance"),
])
def test_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        correlated_bayesian_ttest(A, B, **kwargs)


def test_rho_is_required():
    with pytest.raises(TypeError, match="rho"):
        correlated_bayesian_ttest(A, B)


@pytest.mark.parametrize("kwargs, message", [
    (dict(k0=0.0), "k0"), (dict(b=-1.0), "b \\(Gamma rate\\)"), (dict(mu0=math.nan), "finite"),
])
def test_bad_prior(kwargs, message):
    with pytest.raises(InvalidInputError, match=message):
        NormalGammaPrior(**kwargs)


def test_bad_data():
    with pytest.raises(InvalidInputError, match="paired"):
        correlated_bayesian_ttest(A, B[:-1], rho=0.1)
    with pytest.raises(InvalidInputError, match="NaN"):
        correlated_bayesian_ttest(np.r_[A[:-1], np.nan], B, rho=0.1)
    with pytest.raises(TooFewError, match="at least 2"):
        correlated_bayesian_ttest([0.8], [0.7], rho=0.1)
