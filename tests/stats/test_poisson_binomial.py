"""Poisson-binomial and Poisson-multinomial distributions (outperform.stats._poisson_binomial)."""
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from outperform import InvalidInputError
from outperform.stats import (
    PoissonBinomial,
    poisson_binomial_pmf,
    poisson_multinomial_pmf,
)

METHODS = ("recursion", "fft", "convolution", "auto")

# R package poibin 1.6: dpoibin(kk = 0:3, pp = c(0.4163448, 0.3340270, 0.9689613))
POIBIN_P1 = [0.4163448, 0.3340270, 0.9689613]
POIBIN_PMF1 = [0.0120647, 0.39129134, 0.46189012, 0.13475384]
# dpoibin(kk = 0:10, pp = c(0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5))
POIBIN_P2 = [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5]
POIBIN_PMF2 = [0.02286144, 0.11231136, 0.23694372, 0.28171848, 0.20829484, 0.09968032,
               0.03113484, 0.00623848, 0.00076372, 0.00005136, 0.00000144]

probability_vectors = st.lists(st.floats(0, 1), min_size=1, max_size=40)


def brute_force_pmf(p):
    """Sum over all 2^N outcome vectors (independent of every method under test)."""
    p = np.asarray(p)
    pmf = np.zeros(p.size + 1)
    for outcome in itertools.product((0, 1), repeat=p.size):
        o = np.array(outcome)
        pmf[o.sum()] += np.prod(np.where(o == 1, p, 1 - p))
    return pmf


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("p, expected", [(POIBIN_P1, POIBIN_PMF1), (POIBIN_P2, POIBIN_PMF2)])
def test_matches_r_poibin(method, p, expected):
    np.testing.assert_allclose(poisson_binomial_pmf(p, method=method), expected, atol=5e-9)


@pytest.mark.parametrize("method", METHODS)
def test_matches_brute_force_enumeration(method):
    p = np.random.default_rng(3).random(9)
    np.testing.assert_allclose(poisson_binomial_pmf(p, method=method), brute_force_pmf(p),
                               rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("n", [1, 2, 3, 17, 63, 64, 65, 1000, 2000])
def test_methods_agree_on_random_vectors(n):
    p = np.random.default_rng(n).random(n)
    ref = poisson_binomial_pmf(p, method="recursion")
    for method in ("fft", "convolution"):
        np.testing.assert_allclose(poisson_binomial_pmf(p, method=method), ref, rtol=0, atol=1e-12)


def test_recursion_and_convolution_agree_at_ten_thousand():
    # (The O(N^2) DFT method at N = 10,000 is checked in benchmarks/bench_poisson_binomial.py.)
    p = np.random.default_rng(10_000).random(10_000)
    np.testing.assert_allclose(poisson_binomial_pmf(p, method="convolution"),
                               poisson_binomial_pmf(p, method="recursion"), rtol=0, atol=1e-12)


def test_agrees_with_scipy_poisson_binom():
    poisson_binom = getattr(stats, "poisson_binom", None)
    if poisson_binom is None:
        pytest.skip("scipy < 1.15 has no poisson_binom")
    p = np.random.default_rng(0).beta(0.5, 0.5, size=300)
    k = np.arange(301)
    X = PoissonBinomial(p)
    np.testing.assert_allclose(X.pmf(k), poisson_binom.pmf(k, p), rtol=1e-9, atol=1e-300)
    np.testing.assert_allclose(X.cdf(k), poisson_binom.cdf(k, p), rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(X.sf(k), poisson_binom.sf(k, p), rtol=1e-9, atol=1e-15)


def test_recursion_keeps_relative_precision_in_the_far_tails():
    # Equal probabilities give the binomial; its pmf(0) = 0.5^200 ~ 6e-61.
    pmf = poisson_binomial_pmf(np.full(200, 0.5), method="recursion")
    np.testing.assert_allclose(pmf, stats.binom.pmf(np.arange(201), 200, 0.5), rtol=1e-10)
    X = PoissonBinomial(np.full(50, 0.01))
    np.testing.assert_allclose(X.sf(49), 1e-100, rtol=1e-10)       # P(X = 50)
    np.testing.assert_allclose(X.cdf(0), 0.99 ** 50, rtol=1e-13)


EPS = np.finfo(float).eps
# The error each method's docstring states (module docstring of stats.poisson_binomial).
STATED_ERROR = {"recursion": lambda n: 2 * n * EPS,             # relative, every entry
                "fft": lambda n: n * EPS,                        # absolute
                "convolution": lambda n: 2 * np.log2(n) * EPS}   # absolute


@pytest.mark.parametrize("method", ["recursion", "fft", "convolution"])
@pytest.mark.parametrize("n, p", [(100, 0.5), (1000, 0.3), (1000, 0.02), (4000, 0.3)])
def test_each_method_keeps_its_stated_error(method, n, p):
    # Peer: scipy.stats.binom.pmf (equal probabilities give the binomial distribution).
    ref = stats.binom.pmf(np.arange(n + 1), n, p)
    pmf = poisson_binomial_pmf(np.full(n, p), method=method)
    if method == "recursion":
        tiny = ref > 1e-290   # below, scipy's own value is subnormal
        assert np.max(np.abs(pmf[tiny] - ref[tiny]) / ref[tiny]) <= STATED_ERROR[method](n)
    else:
        assert np.max(np.abs(pmf - ref)) <= STATED_ERROR[method](n)


def test_tail_seven_sd_out_is_as_precise_as_stated():
    # The module docstring: far tails lose their relative precision with the FFT methods.
    # Peer: scipy.stats.binom.sf(k, 4000, 0.3), about 1e-12 at 7 sd above the mean.
    n, p = 4000, 0.3
    k = int(n * p + 7 * np.sqrt(n * p * (1 - p)))
    ref = stats.binom.sf(k, n, p)
    errors = {m: abs(PoissonBinomial(np.full(n, p), method=m).sf(k) / ref - 1)
              for m in ("recursion", "fft", "convolution")}
    assert errors["recursion"] <= STATED_ERROR["recursion"](n)
    # The absolute errors stated for the FFT methods are all one may rely on there.
    for m in ("fft", "convolution"):
        assert errors[m] * ref <= (n + 1) * STATED_ERROR[m](n)


@pytest.mark.parametrize("method", METHODS)
def test_probabilities_at_and_near_zero_and_one(method):
    pmf = poisson_binomial_pmf([1.0, 0.0, 1.0, 1.0, 0.0], method=method)
    np.testing.assert_allclose(pmf, [0, 0, 0, 1, 0, 0], atol=1e-15)
    p = np.r_[np.full(20, 1 - 1e-13), np.full(20, 1e-13)]
    pmf = poisson_binomial_pmf(p, method=method)
    assert pmf.min() >= 0 and pmf.sum() == pytest.approx(1, abs=1e-14)
    assert pmf[20] == pytest.approx(1 - 40e-13, abs=1e-14)
    assert pmf[19] == pytest.approx(20e-13, rel=1e-3 if method != "recursion" else 1e-9)


def test_empty_vector_is_a_point_mass_at_zero():
    for method in METHODS:
        np.testing.assert_array_equal(poisson_binomial_pmf([], method=method), [1.0])


@pytest.mark.parametrize("method", METHODS)
def test_batch_equals_one_vector_at_a_time(method):
    P = np.random.default_rng(1).random((7, 30))
    batch = poisson_binomial_pmf(P, method=method)
    assert batch.shape == (7, 31)
    for row, p in zip(batch, P):
        np.testing.assert_allclose(row, poisson_binomial_pmf(p, method="recursion"), atol=1e-14)


def test_large_n_by_convolution_has_the_right_moments():
    p = np.random.default_rng(2).random(200_000)
    pmf = poisson_binomial_pmf(p)          # auto picks the convolution
    k = np.arange(p.size + 1)
    assert pmf.min() >= 0 and pmf.sum() == pytest.approx(1, abs=1e-12)
    mean = k @ pmf
    assert mean == pytest.approx(p.sum(), rel=1e-12)
    assert ((k - mean) ** 2) @ pmf == pytest.approx((p * (1 - p)).sum(), rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(probability_vectors, st.randoms(use_true_random=False))
def test_order_of_trials_does_not_matter(p, rnd):
    shuffled = list(p)
    rnd.shuffle(shuffled)
    for method in ("recursion", "convolution"):
        np.testing.assert_allclose(poisson_binomial_pmf(shuffled, method=method),
                                   poisson_binomial_pmf(p, method=method), atol=1e-13)


@settings(max_examples=60, deadline=None)
@given(probability_vectors)
def test_failures_mirror_successes(p):
    # N - X counts the failures, which have probabilities 1 - p.
    p = np.array(p)
    np.testing.assert_allclose(poisson_binomial_pmf(1 - p)[::-1], poisson_binomial_pmf(p),
                               atol=1e-14)


@settings(max_examples=40, deadline=None)
@given(probability_vectors)
def test_pmf_cdf_sf_are_consistent(p):
    X = PoissonBinomial(p)
    k = np.arange(-1, len(p) + 2)
    pmf = X.pmf(k)
    assert pmf.min() >= 0 and pmf.sum() == pytest.approx(1)
    np.testing.assert_allclose(X.cdf(k), np.cumsum(pmf), atol=1e-12)
    np.testing.assert_allclose(X.cdf(k) + X.sf(k), 1, atol=1e-12)


def test_frozen_distribution_lookups():
    X = PoissonBinomial(POIBIN_P1)
    assert X.n == 3
    assert float(X.pmf(1.5)) == 0 and float(X.pmf(-1)) == 0 and float(X.pmf(4)) == 0
    assert float(X.cdf(1.5)) == pytest.approx(POIBIN_PMF1[0] + POIBIN_PMF1[1], abs=1e-8)
    assert float(X.cdf(-0.5)) == 0 and float(X.cdf(10)) == 1
    assert float(X.sf(-1)) == 1 and float(X.sf(3)) == 0
    assert X.mean() == pytest.approx(sum(POIBIN_P1))
    assert X.std() == pytest.approx(np.sqrt(sum(q * (1 - q) for q in POIBIN_P1)))


def test_batched_frozen_distribution():
    P = np.array([POIBIN_P1, [0.5, 0.5, 0.5]])
    X = PoissonBinomial(P)
    np.testing.assert_allclose(X.pmf(1), [POIBIN_PMF1[1], 0.375], atol=1e-8)
    assert X.cdf([0, 1, 2]).shape == (2, 3)
    np.testing.assert_allclose(X.mean(), [sum(POIBIN_P1), 1.5])
    np.testing.assert_allclose(X.var(), [sum(q * (1 - q) for q in POIBIN_P1), 0.75])


def test_sampling_is_reproducible_and_follows_the_pmf():
    X = PoissonBinomial(POIBIN_P2)
    draws = X.rvs(200_000, random_state=1)
    np.testing.assert_array_equal(draws, X.rvs(200_000, random_state=1))
    assert isinstance(X.rvs(random_state=0), int)
    freq = np.bincount(draws, minlength=11) / draws.size
    se = np.sqrt(np.array(POIBIN_PMF2) * (1 - np.array(POIBIN_PMF2)) / draws.size)
    assert np.all(np.abs(freq - POIBIN_PMF2) < 5 * se + 1e-6)
    # A goodness-of-fit test on the well-filled cells, as a second check.
    cells = slice(0, 8)
    chi2 = stats.chisquare(np.bincount(draws, minlength=11)[cells],
                           np.array(POIBIN_PMF2)[cells] / sum(POIBIN_PMF2[cells])
                           * np.bincount(draws, minlength=11)[cells].sum())
    assert chi2.pvalue > 1e-4


def test_batched_sampling_shapes_and_degenerate_rows():
    X = PoissonBinomial([[1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])
    draws = X.rvs((4, 5), random_state=np.random.default_rng(0))
    assert draws.shape == (2, 4, 5)
    assert np.all(draws[0] == 2) and np.all(draws[1] == 0)
    assert X.rvs(random_state=0).shape == (2,)


@pytest.mark.parametrize("bad, message", [
    ([0.5, 1.2], "in \\[0, 1\\]"),
    ([0.5, -0.1], "in \\[0, 1\\]"),
    ([0.5, np.nan], "NaN"),
    (np.zeros((2, 2, 2)), "vector of N success probabilities"),
    (["a", "b"], "numeric"),
])
def test_bad_probabilities_are_rejected(bad, message):
    with pytest.raises(InvalidInputError, match=message):
        poisson_binomial_pmf(bad)
    with pytest.raises(InvalidInputError, match=message):
        PoissonBinomial(bad)


def test_unknown_method_is_rejected():
    with pytest.raises(InvalidInputError, match="method must be one of"):
        poisson_binomial_pmf([0.5], method="exact")
    with pytest.raises(InvalidInputError, match="method must be one of"):
        PoissonBinomial([0.5], method="dft")


# --- Poisson-multinomial ---------------------------------------------------------------

def brute_force_multinomial(probs):
    probs = np.asarray(probs)
    n = len(probs)
    out = np.zeros((n + 1, n + 1))
    for outcome in itertools.product(range(3), repeat=n):
        o = np.array(outcome)
        out[(o == 0).sum(), (o == 2).sum()] += np.prod(probs[np.arange(n), o])
    return out


def random_three_outcome_probs(n, seed):
    return np.random.default_rng(seed).dirichlet([1, 1, 1], size=n)


def test_poisson_multinomial_matches_enumeration():
    probs = random_three_outcome_probs(7, 0)
    np.testing.assert_allclose(poisson_multinomial_pmf(probs), brute_force_multinomial(probs),
                               rtol=1e-12, atol=1e-16)


def test_poisson_multinomial_marginals_are_poisson_binomial():
    probs = random_three_outcome_probs(40, 1)
    pmf = poisson_multinomial_pmf(probs)
    assert pmf.sum() == pytest.approx(1)
    np.testing.assert_allclose(pmf.sum(axis=1), poisson_binomial_pmf(probs[:, 0]), atol=1e-14)
    np.testing.assert_allclose(pmf.sum(axis=0), poisson_binomial_pmf(probs[:, 2]), atol=1e-14)
    i, j = np.indices(pmf.shape)
    n_rope = len(probs) - i - j
    rope_pmf = np.bincount(n_rope[n_rope >= 0], weights=pmf[n_rope >= 0], minlength=41)
    np.testing.assert_allclose(rope_pmf, poisson_binomial_pmf(probs[:, 1]), atol=1e-14)
    assert np.all(pmf[i + j > len(probs)] == 0)


def test_poisson_multinomial_without_rope_is_poisson_binomial():
    p = np.random.default_rng(4).random(12)
    pmf = poisson_multinomial_pmf(np.column_stack([1 - p, np.zeros(12), p]))
    np.testing.assert_allclose(pmf[12 - np.arange(13), np.arange(13)], poisson_binomial_pmf(p),
                               atol=1e-15)


@pytest.mark.parametrize("bad, message", [
    (np.full((3, 2), 0.5), "one row"),
    ([[0.5, 0.6, -0.1]], "in \\[0, 1\\]"),
    ([[0.5, 0.3, 0.1]], "sum to 1"),
    ([0.2, 0.3, 0.5], "2-dimensional"),
])
def test_poisson_multinomial_bad_input(bad, message):
    with pytest.raises(InvalidInputError, match=message):
        poisson_multinomial_pmf(bad)
