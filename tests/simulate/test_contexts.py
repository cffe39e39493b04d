"""Synthetic contexts of Lacoste et al. (2012) §6 and the sampling of whole experiments."""
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import special

from outperform import DegenerateDataError, InvalidInputError
from outperform.bayes import task_probability_a_better
from outperform.simulate import (LACOSTE_TABLE5, CustomContext, DirichletContext,
                                          bimodal_context, multiple_dirichlet_context,
                                          sample_experiments, single_dirichlet_context)

PAPERS = Path("/work/shared/papers")


def _table5_from(path: Path) -> np.ndarray:
    text = path.read_text()
    start = text.index("n-kh-kg+1")
    rows = re.findall(r"^(\d+)\s+(\d+)\s+(\d+)\s*$", text[start:start + 2000], flags=re.M)
    return np.array(rows, dtype=int)


@pytest.mark.parametrize("name", ["lacoste2012_bayesian_comparison_poisson_binomial.txt",
                                  "lacoste2012_alt_text_extraction.txt"])
def test_table5_constant_matches_both_text_extractions(name):
    path = PAPERS / name
    if not path.exists():
        pytest.skip(f"{path} not available")
    np.testing.assert_array_equal(_table5_from(path), LACOSTE_TABLE5)


def test_table5_rows_are_posteriors_of_counts():
    # (k_h + 1, k_g + 1, n - k_h - k_g + 1): every entry >= 1 and the test sets are plausible.
    assert LACOSTE_TABLE5.shape == (22, 3)
    assert LACOSTE_TABLE5.min() >= 1
    n = LACOSTE_TABLE5.sum(axis=1) - 3
    assert n.min() > 100 and n.max() < 10_000


def test_prob_a_better_of_table5_is_the_mean_of_theorem_4_1():
    # Independent route: the kernel's Theorem 4.1 on the counts k = row - 1 with the uniform
    # prior gives the same Beta(k_h + 1, k_g + 1) probabilities.
    k = LACOSTE_TABLE5 - 1
    expected = task_probability_a_better(k[:, 0], k[:, 1]).mean()
    assert multiple_dirichlet_context().prob_a_better == pytest.approx(expected, rel=1e-12)


def test_bimodal_prob_mixes_its_two_components():
    q = 2 / 3 * special.betainc(100, 140, 0.5) + 1 / 3 * special.betainc(1400, 1000, 0.5)
    assert bimodal_context().prob_a_better == pytest.approx(q)
    # A is better on most data sets (q > 1/2) but loses more where it loses: the mean risk
    # difference p_g - p_h favours B, which is what fools the Wilcoxon test.
    mean_diff = 2 / 3 * (140 - 100) / 10000 + 1 / 3 * (1000 - 1400) / 10000
    assert q > 0.5 and mean_diff < 0


@pytest.mark.parametrize("context", [single_dirichlet_context(), multiple_dirichlet_context(),
                                     bimodal_context()], ids=lambda c: c.name)
def test_prob_a_better_agrees_with_monte_carlo(context):
    p = context.sample_parameters((200_000,), np.random.default_rng(1))
    assert p.shape == (200_000, 3)
    np.testing.assert_allclose(p.sum(axis=1), 1.0)
    hits = np.mean(p[:, 0] < p[:, 1])
    se = np.sqrt(hits * (1 - hits) / p.shape[0])
    assert abs(hits - context.prob_a_better) < 4 * se


def test_dirichlet_mixture_component_means():
    ctx = DirichletContext([[1, 1, 8], [30, 10, 60]], weights=[3, 1], n_test=50)
    p = ctx.sample_parameters((100_000,), np.random.default_rng(2))
    expected = 0.75 * np.array([0.1, 0.1, 0.8]) + 0.25 * np.array([0.3, 0.1, 0.6])
    np.testing.assert_allclose(p.mean(axis=0), expected, atol=0.005)


def test_counts_have_the_multinomial_moments():
    # Fixed parameters: (k_h, k_g) must be Multinomial(n, (p_h, p_g, p_bar)).
    ph, pg, n = 0.1, 0.3, 200
    ctx = CustomContext(lambda shape, rng: np.broadcast_to([ph, pg, 1 - ph - pg], shape + (3,)),
                        n_test=n, prob_a_better=1.0)
    exp = sample_experiments(ctx, 50, 4000, swap=False, random_state=3)
    k_h, k_g = exp.errors_a_only.ravel(), exp.errors_b_only.ravel()
    assert k_h.mean() == pytest.approx(n * ph, rel=0.01)
    assert k_g.mean() == pytest.approx(n * pg, rel=0.01)
    assert k_h.var() == pytest.approx(n * ph * (1 - ph), rel=0.03)
    assert np.cov(k_h, k_g)[0, 1] == pytest.approx(-n * ph * pg, rel=0.1)


def test_experiments_shape_bounds_and_truth():
    exp = single_dirichlet_context().sample(7, 3000, random_state=0)
    assert exp.errors_a_only.shape == exp.errors_b_only.shape == exp.n_test.shape == (3000, 7)
    assert exp.n_repetitions == 3000 and exp.n_data_sets == 7
    assert np.all(exp.errors_a_only + exp.errors_b_only <= exp.n_test)
    assert np.all(exp.n_test == 1001)
    # About half the repetitions are swapped, and the truth follows the swap.
    assert abs(exp.swapped.mean() - 0.5) < 4 * np.sqrt(0.25 / 3000)
    np.testing.assert_array_equal(exp.a_better, ~exp.swapped)
    # In a swapped repetition, B's counts are drawn from the context's p_h: A now errs more.
    assert exp.errors_a_only[exp.swapped].mean() > exp.errors_b_only[exp.swapped].mean()
    assert exp.errors_a_only[~exp.swapped].mean() < exp.errors_b_only[~exp.swapped].mean()


def test_sampling_is_reproducible():
    ctx = multiple_dirichlet_context()
    a = sample_experiments(ctx, 5, 10, random_state=4)
    b = sample_experiments(ctx, 5, 10, random_state=np.random.default_rng(4))
    c = sample_experiments(ctx, 5, 10, random_state=5)
    np.testing.assert_array_equal(a.errors_a_only, b.errors_a_only)
    assert not np.array_equal(a.errors_a_only, c.errors_a_only)


def test_several_test_sizes_are_drawn_uniformly():
    ctx = single_dirichlet_context(n_test=[100, 1000])
    exp = sample_experiments(ctx, 10, 1000, random_state=0)
    assert set(np.unique(exp.n_test)) == {100, 1000}
    assert abs(np.mean(exp.n_test == 100) - 0.5) < 0.02
    assert ctx.with_test_size(55).n_test == (55,)


def test_symmetric_context_has_no_true_answer():
    exp = DirichletContext([5, 5, 90]).sample(3, 4, random_state=0)
    with pytest.raises(DegenerateDataError, match="no true answer"):
        exp.a_better


def test_custom_context_estimates_q_by_monte_carlo():
    def sampler(shape, rng):
        return rng.dirichlet([100, 110, 790], size=shape)

    ctx = CustomContext(sampler, n_test=1001, n_monte_carlo=100_000)
    assert ctx.prob_a_better == pytest.approx(single_dirichlet_context().prob_a_better,
                                              abs=4 * 0.5 / np.sqrt(100_000))


@pytest.mark.parametrize("kwargs, match", [
    ({"alphas": [1, 2]}, "alphas"),
    ({"alphas": [1, 0, 2]}, "> 0"),
    ({"alphas": [[1, 1, 1], [2, 2, 2]], "weights": [1]}, "weights"),
    ({"alphas": [1, 1, 1], "weights": [-1]}, "weights"),
    ({"alphas": [1, 1, 1], "n_test": 0}, "n_test"),
    ({"alphas": [1, np.nan, 1]}, "NaN"),
])
def test_dirichlet_context_rejects_bad_input(kwargs, match):
    with pytest.raises(InvalidInputError, match=match):
        DirichletContext(**kwargs)


def test_custom_context_rejects_bad_samplers():
    with pytest.raises(InvalidInputError, match="shape"):
        CustomContext(lambda shape, rng: np.zeros(shape), prob_a_better=0.7).sample(2, 2)
    with pytest.raises(InvalidInputError, match="sum to 1"):
        CustomContext(lambda shape, rng: np.full(shape + (3,), 0.5), prob_a_better=0.7
                      ).sample(2, 2)
    with pytest.raises(InvalidInputError, match="prob_a_better"):
        CustomContext(lambda shape, rng: None, prob_a_better=1.5)
    with pytest.raises(InvalidInputError, match="sampler"):
        CustomContext("not a function")


def test_sample_experiments_rejects_bad_sizes():
    with pytest.raises(InvalidInputError, match="n_data_sets"):
        sample_experiments(single_dirichlet_context(), 0, 5)
    with pytest.raises(InvalidInputError, match="n_repetitions"):
        sample_experiments(single_dirichlet_context(), 3, 2.5)
    with pytest.raises(InvalidInputError, match="SyntheticContext"):
        sample_experiments([100, 110, 790], 3, 5)
