"""Q1 plots: posterior with ROPE, histogram of differences, pairwise heatmap."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from outperform._validation import InvalidInputError
from outperform.bayes import bayesian_mcnemar
from outperform.bayes import bayesian_ttest
from outperform.plot import plot_pairwise_heatmap
from outperform.plot import plot_differences, plot_posterior
from outperform.plot._style import ALERT
from outperform.results import BayesianResult
from outperform.bayes import pairwise_bayesian_mcnemar
from outperform.stats import against_control, pairwise_mcnemar


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def sampled_result(samples, rope=(-0.1, 0.1)):
    s = np.asarray(samples)
    left, right = np.mean(s < rope[0]), np.mean(s > rope[1])
    return BayesianResult(method="test", parameter="mean difference A - B", p_left=left,
                          p_rope=1 - left - right, p_right=right, rope=rope,
                          a_better_side="right", threshold=0.95, decision="undecided",
                          samples=s)


def test_mcnemar_posterior_labels_follow_phi_orientation():
    """Williams Figure 3(b), tr-en: A = GNN is on the left of phi = 0.5."""
    res = bayesian_mcnemar(64, 30)
    ax = plot_posterior(res, names=("GNN", "LLM"))
    texts = [t.get_text() for t in ax.texts]
    assert texts[0].startswith("P(GNN better) = 4.65e-06")
    assert texts[2] == "P(LLM better) = 0.996"
    assert ax.get_title().startswith("LLM better")
    # the ROPE bounds are drawn in the style's alert colour (plot/_style.py, issue 28)
    red = [line.get_xdata()[0] for line in ax.lines if line.get_color() == ALERT]
    assert sorted(red) == pytest.approx(list(res.rope))


def test_ttest_posterior_peaks_at_the_mean():
    rng = np.random.default_rng(0)
    a, b = rng.normal(0.3, 1, 100), np.zeros(100)
    res = bayesian_ttest(a, b)
    ax = plot_posterior(res)
    x, y = ax.lines[0].get_data()
    assert x[np.argmax(y)] == pytest.approx(res.posterior_mean, abs=0.01)


def test_sampled_posterior_is_drawn_from_samples():
    rng = np.random.default_rng(1)
    res = sampled_result(rng.normal(0.2, 0.05, 4000))
    ax = plot_posterior(res, names=("LgR", "MLP"))
    texts = [t.get_text() for t in ax.texts]
    assert texts[0].startswith("P(MLP better)") and texts[2].startswith("P(LgR better)")
    kde = next(line for line in ax.lines if line.get_label() == "kernel density")
    x, y = kde.get_data()
    assert x[np.argmax(y)] == pytest.approx(0.2, abs=0.02)
    assert len(ax.patches) > 10   # histogram bars


def test_posterior_without_anything_to_draw():
    res = sampled_result(np.zeros((10, 3)))
    with pytest.raises(InvalidInputError, match="nor 1-D posterior samples"):
        plot_posterior(res)


def test_differences_histogram():
    a = np.array([0.9, 0.7, 0.8, 0.95, 0.2])
    b = np.array([0.6, 0.75, 0.7, 0.8, 0.9])
    fig, ax = plt.subplots()
    out = plot_differences(a, b, names=("LgR", "SVM"), ax=ax)
    assert out is ax
    assert sum(p.get_height() for p in ax.patches) == 5
    labels = ax.get_legend_handles_labels()[1]
    assert labels == [f"mean {np.mean(a - b):.3g}", f"median {np.median(a - b):.3g}"]
    with pytest.raises(InvalidInputError, match="paired"):
        plot_differences([1, 2], [1])


def correct_matrix():
    rng = np.random.default_rng(2)
    return rng.random((4, 600)) < np.array([[0.7], [0.9], [0.8], [0.6]])


def test_bayesian_heatmap_sorted_by_accuracy():
    res = pairwise_bayesian_mcnemar(correct_matrix(), names=["c", "a", "b", "d"])
    ax = plot_pairwise_heatmap(res)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c", "d"]
    data = ax.images[0].get_array()
    # Row "a" (best) against column "d" (worst): P(a better) close to 1.
    assert data[0, 3] == pytest.approx(res.statistic[1, 3])
    assert data[0, 3] > 0.99
    assert "P(row practically better" in ax.images[0].colorbar.ax.get_ylabel()
    assert len(ax.texts) == 12   # off-diagonal cells annotated


def test_frequentist_heatmap_marks_rejections():
    res = pairwise_mcnemar(correct_matrix(), names=list("wxyz"))
    ax = plot_pairwise_heatmap(res, order=None)
    starred = sum(t.get_text().endswith("*") for t in ax.texts)
    assert starred == int(res.reject.sum())
    ax2 = plot_pairwise_heatmap(res, values="cohens_g", order=None)
    assert ax2.images[0].get_array()[1, 0] == pytest.approx(res.details["cohens_g"][1, 0])


def test_reference_heatmap_and_bad_values():
    res = against_control(correct_matrix(), 0)
    ax = plot_pairwise_heatmap(res, annotate=False)
    assert not ax.texts
    with pytest.raises(InvalidInputError, match="p_rope"):
        plot_pairwise_heatmap(res, values="p_rope")
    with pytest.raises(InvalidInputError, match="values"):
        plot_pairwise_heatmap(res, values="zscore")
