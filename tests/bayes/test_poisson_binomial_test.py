"""Poisson-binomial test of Lacoste et al. (2012) and cycle detection."""
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from outperform import InvalidInputError, TooFewError
from outperform.bayes import find_cycles
from outperform.bayes import bayesian_mcnemar
from outperform.bayes import (
    BetaMixture,
    pairwise_poisson_binomial_test,
    poisson_binomial_test,
    task_probability_a_better,
)

# Lacoste et al. (2012) Figure 2: exact risks of algorithms A, B, C (columns) on data sets
# a, b, c (rows); W uniform on the three data sets.
FIGURE2_RISK = np.array([[0.1, 0.2, 0.3], [0.3, 0.1, 0.2], [0.2, 0.3, 0.1]])
# A beats B on 2 of the 3 data sets with certainty, so kappa = 2 and
# P(r > 1/2) for r ~ Beta(2 + 1, 1 + 1) is 1 - I_{1/2}(3, 2) = 1 - 5/16 = 11/16.
FIGURE2_P = float(Fraction(11, 16))

counts = st.lists(st.integers(0, 60), min_size=1, max_size=25)


def certain_comparisons(risk):
    """data[d, i, j] = P(i better than j on d) when the risks are known exactly."""
    return (risk[:, :, None] < risk[:, None, :]) + 0.5 * (risk[:, :, None] == risk[:, None, :])


def brute_force_context_probability(p, beta=1.0):
    """Lacoste eq. 5 by enumerating every win/loss vector d in {0, 1}^N."""
    p = np.asarray(p)
    n = p.size
    total = 0.0
    for d in itertools.product((0, 1), repeat=n):
        d = np.array(d)
        prob_d = np.prod(np.where(d == 1, p, 1 - p))
        kappa = d.sum()
        total += prob_d * stats.beta.sf(0.5, kappa + beta, n - kappa + beta)
    return total


# --- Lacoste Figure 2 and Table 1 ---------------------------------------------------------

def test_figure2_yields_the_cycle_a_b_c():
    res = pairwise_poisson_binomial_test(certain_comparisons(FIGURE2_RISK), kind="probability",
                                         names=["A", "B", "C"])
    assert res.statistic[0, 1] == pytest.approx(FIGURE2_P, abs=1e-12)   # A > B
    assert res.statistic[1, 2] == pytest.approx(FIGURE2_P, abs=1e-12)   # B > C
    assert res.statistic[2, 0] == pytest.approx(FIGURE2_P, abs=1e-12)   # C > A
    assert res.details["cycles"] == [["A", "B", "C"]]
    assert find_cycles(res.statistic, names=res.names) == [("A", "B", "C")]
    # None of the three is decided at 0.95: three data sets cannot settle it.
    assert not res.reject.any()


def test_figure2_single_pair():
    # A vs B: A wins on data sets a and c, loses on b.
    res = poisson_binomial_test([1.0, 0.0, 1.0], kind="probability")
    assert res.p_right == pytest.approx(FIGURE2_P, abs=1e-12)
    assert res.p_left == pytest.approx(1 - FIGURE2_P, abs=1e-12)
    assert res.p_rope == 0 and res.rope == (0.5, 0.5)
    assert res.posterior_mean == pytest.approx(3 / 5)            # mean of Beta(3, 2)


def test_table1_equal_classifiers_give_one_half():
    # Lacoste Table 1, Mushrooms: svm and ann both make no error -> 0.50.
    assert task_probability_a_better([0], [0])[0] == 0.5


# --- Theorem 4.1 --------------------------------------------------------------------------

def test_theorem41_against_beta_cdf_and_bayesian_mcnemar():
    k_a = np.array([0, 3, 7, 10, 40, 1, 250])
    k_b = np.array([0, 7, 3, 12, 10, 0, 300])
    p = task_probability_a_better(k_a, k_b)
    np.testing.assert_allclose(p, stats.beta.cdf(0.5, 1 + k_a, 1 + k_b), rtol=1e-12)
    peer = [bayesian_mcnemar(x, y).details["p_phi_below_half"] for x, y in zip(k_a, k_b)]
    np.testing.assert_allclose(p, peer, rtol=1e-12)
    # Exact rational value: I_{1/2}(4, 8) = P(Binomial(11, 1/2) >= 4) = 1816 / 2048.
    assert p[1] == pytest.approx(1816 / 2048, abs=1e-15)
    p2 = task_probability_a_better(k_a, k_b, prior=0.5)
    np.testing.assert_allclose(p2, stats.beta.cdf(0.5, 0.5 + k_a, 0.5 + k_b), rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 500), st.integers(0, 500), st.floats(0.1, 5))
def test_theorem41_swapping_is_complementary(k_a, k_b, prior):
    p_ab = task_probability_a_better([k_a], [k_b], prior=prior)[0]
    p_ba = task_probability_a_better([k_b], [k_a], prior=prior)[0]
    assert p_ab + p_ba == pytest.approx(1, abs=1e-15)
    if k_a == k_b:
        assert p_ab == 0.5


# --- Poisson-binomial over data sets --------------------------------------------------------

def test_matches_brute_force_eq5():
    rng = np.random.default_rng(0)
    for n in (1, 2, 5, 9):
        p = rng.random(n)
        for beta in (1.0, 0.5, 3.0):
            res = poisson_binomial_test(p, kind="probability", beta_prior=beta)
            assert res.p_right == pytest.approx(brute_force_context_probability(p, beta),
                                                abs=1e-13)
            assert res.p_left + res.p_right == pytest.approx(1, abs=1e-13)


def test_matches_simulation_of_the_graphical_model():
    # Figure 1 of Lacoste: d_i ~ Bernoulli(p_i), kappa = sum d, r | kappa ~ Beta.
    rng = np.random.default_rng(1)
    p = np.array([0.95, 0.8, 0.6, 0.3, 0.9, 0.5, 0.7])
    kappa = (rng.random((200_000, p.size)) < p).sum(axis=1)
    r = rng.beta(kappa + 1, p.size - kappa + 1)
    res = poisson_binomial_test(p, kind="probability")
    assert res.p_right == pytest.approx(np.mean(r > 0.5), abs=4 * 0.5 / np.sqrt(r.size))
    assert res.posterior_mean == pytest.approx(r.mean(), abs=0.003)
    lo, hi = res.credible_interval_95
    assert lo == pytest.approx(np.quantile(r, 0.025), abs=0.01)
    assert hi == pytest.approx(np.quantile(r, 0.975), abs=0.01)


@settings(max_examples=40, deadline=None)
@given(counts, counts)
def test_swapping_a_and_b_gives_complementary_probabilities(k_a, k_b):
    n = min(len(k_a), len(k_b))
    ab = poisson_binomial_test(k_a[:n], k_b[:n])
    ba = poisson_binomial_test(k_b[:n], k_a[:n])
    assert ab.p_right == pytest.approx(ba.p_left, abs=1e-12)
    assert ab.p_left == pytest.approx(ba.p_right, abs=1e-12)
    assert ab.p_right + ab.p_left == pytest.approx(1, abs=1e-12)
    assert ab.posterior_mean == pytest.approx(1 - ba.posterior_mean, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(counts, st.randoms(use_true_random=False))
def test_reordering_data_sets_changes_nothing(k_a, rnd):
    k_b = list(reversed(k_a))
    order = list(range(len(k_a)))
    rnd.shuffle(order)
    res = poisson_binomial_test(k_a, k_b)
    shuffled = poisson_binomial_test([k_a[i] for i in order], [k_b[i] for i in order])
    assert shuffled.p_right == pytest.approx(res.p_right, abs=1e-13)


def test_data_sets_without_discordant_errors_contribute_one_half():
    res = poisson_binomial_test([0, 5, 3], [0, 1, 3])
    assert res.details["p_data_sets"][0] == 0.5
    assert res.details["p_data_sets"][2] == 0.5
    # A single data set with no discordant example: nothing is known either way.
    alone = poisson_binomial_test([0], [0])
    assert alone.p_right == 0.5 and alone.p_left == 0.5 and alone.decision == "undecided"


def test_duplicating_every_data_set_sharpens_the_posterior():
    k_a, k_b = [3, 10, 4, 1, 12, 5], [9, 14, 2, 6, 30, 11]
    once = poisson_binomial_test(k_a, k_b)
    twice = poisson_binomial_test(k_a * 2, k_b * 2)
    four = poisson_binomial_test(k_a * 4, k_b * 4)
    assert 0.5 < once.p_right < twice.p_right < four.p_right
    assert once.posterior.var() > twice.posterior.var() > four.posterior.var()
    width = [r.credible_interval_95[1] - r.credible_interval_95[0] for r in (once, twice, four)]
    assert width[0] > width[1] > width[2]


def test_decision_at_threshold():
    strong = poisson_binomial_test([0] * 12, [20] * 12)
    assert strong.p_right > 0.999 and strong.decision == "A better"
    assert strong.p_a_better == strong.p_right
    weak = poisson_binomial_test([0] * 12, [20] * 12, threshold=0.9999999)
    assert weak.decision == "undecided"
    worse = poisson_binomial_test([20] * 12, [0] * 12)
    assert worse.decision == "B better"


def test_input_kinds_agree():
    rng = np.random.default_rng(2)
    correct_a, correct_b, k_a, k_b = [], [], [], []
    for n in (30, 55, 80):                     # test sets of different sizes
        a = rng.random(n) < 0.8
        b = rng.random(n) < 0.7
        correct_a.append(a.astype(int))
        correct_b.append(b)
        k_a.append(int(np.sum(~a & b)))
        k_b.append(int(np.sum(a & ~b)))
    from_correct = poisson_binomial_test(correct_a, correct_b, kind="correct")
    from_counts = poisson_binomial_test(k_a, k_b)
    assert from_correct.p_right == from_counts.p_right
    np.testing.assert_array_equal(from_correct.details["errors_a_only"], k_a)
    from_p = poisson_binomial_test(task_probability_a_better(k_a, k_b), kind="probability")
    assert from_p.p_right == pytest.approx(from_counts.p_right, abs=1e-15)


def test_beta_prior_pulls_towards_one_half():
    flat = poisson_binomial_test([2, 3, 1], [8, 9, 7])
    strong = poisson_binomial_test([2, 3, 1], [8, 9, 7], beta_prior=20)
    assert 0.5 < strong.p_right < flat.p_right


def test_result_serialises():
    d = poisson_binomial_test([3, 1], [5, 4]).to_dict()
    assert d["method"].startswith("Poisson-binomial test")
    assert len(d["details"]["wins_pmf"]) == 3 and d["p_rope"] == 0.0


# --- BetaMixture --------------------------------------------------------------------------

def test_beta_mixture_is_a_distribution():
    post = BetaMixture([0.2, 0.5, 0.3], [2, 5, 9], [8, 5, 1])
    assert integrate.quad(post.pdf, 0, 1)[0] == pytest.approx(1)
    mean = integrate.quad(lambda x: x * post.pdf(x), 0, 1)[0]
    assert post.mean() == pytest.approx(mean)
    var = integrate.quad(lambda x: (x - mean) ** 2 * post.pdf(x), 0, 1)[0]
    assert post.var() == pytest.approx(var)
    x = np.linspace(0, 1, 11)
    np.testing.assert_allclose(post.cdf(x) + post.sf(x), 1)
    for q in (0.025, 0.5, 0.975):
        assert float(post.cdf(post.ppf(q))) == pytest.approx(q, abs=1e-9)
    assert post.ppf(0) == 0 and post.ppf(1) == 1


# --- all pairs ----------------------------------------------------------------------------

def test_pairwise_kinds_agree_and_match_single_tests():
    rng = np.random.default_rng(3)
    accuracy = [0.9, 0.8, 0.75, 0.85]
    correct = [np.array([rng.random(n) < acc for acc in accuracy]) for n in (40, 70, 25, 90, 60)]
    res = pairwise_poisson_binomial_test(correct, names=["w", "x", "y", "z"])
    counts = np.stack([(~c).astype(int) @ c.T.astype(int) for c in correct])
    res_counts = pairwise_poisson_binomial_test(counts, kind="discordant",
                                                names=["w", "x", "y", "z"])
    np.testing.assert_array_equal(res.statistic, res_counts.statistic)
    for i, j in itertools.permutations(range(4), 2):
        single = poisson_binomial_test([c[i] for c in correct], [c[j] for c in correct],
                                       kind="correct")
        assert res.statistic[i, j] == pytest.approx(single.p_right, abs=1e-12)
        assert res.statistic[i, j] + res.statistic[j, i] == pytest.approx(1, abs=1e-12)
    assert np.isnan(np.diag(res.statistic)).all()
    assert res.names == ("w", "x", "y", "z") and res.adjustment == "none"
    assert res.details["decision"][0, 2] in ("A better", "undecided")
    assert res.details["cycles"] == []


def test_pairwise_decisions_and_reject():
    # Three models: 0 clearly best on all 15 data sets, 1 and 2 tied.
    counts = np.zeros((15, 3, 3), dtype=int)
    counts[:, 1, 0] = counts[:, 2, 0] = 20     # 1 and 2 err where 0 is right
    counts[:, 0, 1] = counts[:, 0, 2] = 2
    counts[:, 1, 2] = counts[:, 2, 1] = 5
    res = pairwise_poisson_binomial_test(counts, kind="discordant")
    assert res.details["decision"][0, 1] == "A better"
    assert res.details["decision"][1, 0] == "B better"
    assert res.details["decision"][1, 2] == "undecided"
    assert res.statistic[1, 2] == pytest.approx(0.5)
    assert res.reject[0, 1] and res.reject[1, 0] and not res.reject[1, 2]
    assert res.alpha == pytest.approx(0.05)


def test_find_cycles_on_tables():
    transitive = [[0.5, 0.9, 0.95], [0.1, 0.5, 0.8], [0.05, 0.2, 0.5]]
    assert find_cycles(transitive) == []
    # A 4-cycle with no triangle: 0 > 1 > 2 > 3 > 0 and the diagonals undecided at 0.6.
    p = np.full((4, 4), 0.5)
    for i, j in [(0, 1), (1, 2), (2, 3), (3, 0)]:
        p[i, j], p[j, i] = 0.8, 0.2
    assert find_cycles(p, threshold=0.6) == [(0, 1, 2, 3)]
    assert find_cycles(p, threshold=0.85) == []
    # Two disjoint triangles, reported shortest first and by index.
    q = np.full((6, 6), 0.5)
    for i, j in [(0, 1), (1, 2), (2, 0), (3, 5), (5, 4), (4, 3)]:
        q[i, j], q[j, i] = 0.7, 0.3
    assert find_cycles(q, names=list("uvwxyz")) == [("u", "v", "w"), ("x", "z", "y")]


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7).flatmap(
    lambda k: st.lists(st.floats(0, 1), min_size=k * k, max_size=k * k)))
def test_find_cycles_returns_real_cycles_and_finds_one_if_any(values):
    k = int(round(np.sqrt(len(values))))
    upper = np.triu(np.reshape(values, (k, k)), 1)
    p = upper + np.tril(1 - upper.T, -1)
    cycles = find_cycles(p)
    for c in cycles:
        for x, y in zip(c, c[1:] + c[:1]):
            assert p[x, y] > 0.5
    # A tournament is acyclic iff its models can be ordered so that earlier beats later.
    edges = p > 0.5
    np.fill_diagonal(edges, False)
    acyclic = any(all(edges[o[i], o[j]] or p[o[i], o[j]] == 0.5
                      for i in range(k) for j in range(i + 1, k))
                  for o in itertools.permutations(range(k)))
    if not np.any((p == 0.5) & ~np.eye(k, dtype=bool)):
        assert acyclic == (cycles == [])


# --- bad input ----------------------------------------------------------------------------

@pytest.mark.parametrize("call, exc, message", [
    (lambda: poisson_binomial_test([1, -2], [3, 4]), InvalidInputError, "non-negative"),
    (lambda: poisson_binomial_test([1, 2.5], [3, 4]), InvalidInputError, "whole numbers"),
    (lambda: poisson_binomial_test([1, 2], [3]), InvalidInputError, "same shape"),
    (lambda: poisson_binomial_test([], []), TooFewError, "no data set"),
    (lambda: poisson_binomial_test([1, 2]), InvalidInputError, "needs both"),
    (lambda: poisson_binomial_test([0.5], [0.5], kind="probability"), InvalidInputError,
     "leave b"),
    (lambda: poisson_binomial_test([0.5, 1.5], kind="probability"), InvalidInputError,
     "probabilities"),
    (lambda: poisson_binomial_test([1], [2], prior=0), InvalidInputError, "prior"),
    (lambda: poisson_binomial_test([1], [2], beta_prior=-1), InvalidInputError, "beta_prior"),
    (lambda: poisson_binomial_test([1], [2], kind="errors"), InvalidInputError, "kind"),
    (lambda: poisson_binomial_test([[1, 0, 2]], [[1, 1, 1]], kind="correct"),
     InvalidInputError, "correctness"),
    (lambda: poisson_binomial_test([[1, 0]], [[1, 1, 1]], kind="correct"), InvalidInputError,
     "same test examples"),
    (lambda: poisson_binomial_test([[1, 0]], [[1, 1], [0, 0]], kind="correct"),
     InvalidInputError, "one correctness array per data set"),
    (lambda: pairwise_poisson_binomial_test(np.full((2, 3, 3), 0.7), kind="probability"),
     InvalidInputError, "complementary"),
    (lambda: pairwise_poisson_binomial_test(np.ones((2, 3)), kind="discordant"), InvalidInputError,
     "\\(q, k, k\\)"),
    (lambda: pairwise_poisson_binomial_test([np.ones((1, 5))]), TooFewError, "at least 2 models"),
    (lambda: pairwise_poisson_binomial_test([np.ones((2, 5)), np.ones((3, 5))]), InvalidInputError,
     "same number of models"),
    (lambda: find_cycles(np.ones((2, 3))), InvalidInputError, "square"),
])
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


# --- pmf plot -------------------------------------------------------------------------------

def test_plot_poisson_binomial_bars_threshold_and_title():
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from outperform.plot import plot_poisson_binomial

    res = poisson_binomial_test([3, 10, 4, 0, 12], [9, 14, 4, 0, 30])
    fig, ax = plt.subplots()
    assert plot_poisson_binomial(res, names=("svm", "ann"), ax=ax) is ax
    heights = [p.get_height() for p in ax.patches]
    np.testing.assert_allclose(heights, res.details["wins_pmf"])
    assert ax.lines[0].get_xdata()[0] == 2.5                 # q / 2 with q = 5
    colours = [p.get_facecolor() for p in ax.patches]
    # the two sides in the style's two first colours (plot/_style.py, issue 28)
    from outperform.plot._style import ACCENT, SECOND

    assert colours[0] == to_rgba(SECOND) and colours[5] == to_rgba(ACCENT)
    assert ax.get_title() == f"P(svm better) = {res.p_right:.3g}, P(ann better) = {res.p_left:.3g}"
    plt.close("all")


def test_plot_poisson_binomial_of_a_poisson_test_and_bad_input():
    import matplotlib.pyplot as plt

    from outperform.bayes import bayesian_sign_test
    from outperform.bayes import poisson_test
    from outperform.plot import plot_poisson_binomial

    rng = np.random.default_rng(0)
    b = rng.normal(0.8, 0.02, (6, 10))
    ax = plot_poisson_binomial(poisson_test(b + 0.01, b, rho=0.1))
    assert len(ax.patches) == 7
    colours = {tuple(p.get_facecolor()) for p in ax.patches}
    assert len(colours) == 3                                  # q even: a grey bar at q/2
    with pytest.raises(InvalidInputError, match="wins_pmf"):
        plot_poisson_binomial(bayesian_sign_test([0.1], [0.0], n_samples=10))
    plt.close("all")


def test_heatmap_marks_the_figure2_cycle():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.patches import Rectangle

    from outperform.plot import plot_pairwise_heatmap

    res = pairwise_poisson_binomial_test(certain_comparisons(FIGURE2_RISK), kind="probability",
                                         names=["A", "B", "C"])
    ax = plot_pairwise_heatmap(res, order=None)
    outlined = {(round(p.get_y() + 0.5), round(p.get_x() + 0.5)) for p in ax.patches
                if isinstance(p, Rectangle) and not p.get_fill()}
    assert outlined == {(0, 1), (1, 2), (2, 0)}  # A > B, B > C, C > A
