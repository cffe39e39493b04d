"""Plots of the hierarchical models (Williams 2026 Figure 4; Benavoli et al. 2017 §4.3)."""
from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from outperform._validation import InvalidInputError  # noqa: E402
from outperform.bayes import hierarchical_mcnemar  # noqa: E402
from outperform.bayes import HierarchicalPosterior  # noqa: E402
from outperform.plot._hierarchical import (  # noqa: E402
    plot_ab_posterior, plot_hierarchical_posterior, plot_phi_next, plot_shrinkage)
from outperform.results import BayesianResult  # noqa: E402

# Williams (2026) Table 1, A = GNN, B = LLM (n01 = GNN wrong and LLM right).
TASKS = ["de-en", "da-en", "es-en", "fr-en", "it-en", "id-en", "nl-en", "sv-en", "tr-en",
         "tr-de", "zh-en"]
N01 = [63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44]
N10 = [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46]


@pytest.fixture(scope="module")
def mcnemar():
    return hierarchical_mcnemar(N01, N10, names=TASKS, n_samples=0)


@pytest.fixture(scope="module")
def ttest():
    """A hierarchical t-test result with known draws (no sampling needed to test plots)."""
    rng = np.random.default_rng(0)
    shape, q = (2, 500), 6
    delta0 = rng.normal(1.5, 0.4, shape)
    std0 = np.abs(rng.normal(2.0, 0.2, shape))
    nu = 2.0 + rng.gamma(2.0, 0.5, shape)
    delta = delta0[..., None] + rng.normal(0, 0.3, shape + (q,))
    nxt = delta0.ravel() + std0.ravel() * rng.standard_t(nu.ravel())
    regions = rng.dirichlet([1, 2, 6], size=delta0.size)
    raw = np.array([-3.0, 0.5, 1.0, 2.0, 4.0, 8.0])
    flat = delta.reshape(-1, q)
    names = [f"set{i}" for i in range(q)]
    post = HierarchicalPosterior(delta0=delta0, std0=std0, nu=nu, delta=delta, delta_next=nxt,
                                 regions=regions, names=names, raw_means=raw, rope=(-1.0, 1.0))
    details = {"raw_means": raw, "shrunk_means": flat.mean(axis=0),
               "shrunk_ci95": np.quantile(flat, [0.025, 0.975], axis=0).T,
               "delta0_mean": float(delta0.mean()), "names": names}
    p = regions.mean(axis=0)
    return BayesianResult(method="hierarchical correlated Bayesian t-test", parameter="delta",
                          p_left=p[0], p_rope=p[1], p_right=p[2], rope=(-1.0, 1.0),
                          a_better_side="right", threshold=0.95, decision="undecided",
                          details=details, posterior=post, samples=regions)


@pytest.mark.slow
def test_phi_next_is_williams_figure_4b(mcnemar):
    ax = plot_phi_next(mcnemar, names=("GNN", "LLM"))
    texts = [t.get_text() for t in ax.texts]
    assert texts[0].startswith("P(GNN better) = 0.05")
    assert texts[2].startswith("P(LLM better) = 0.21")
    x, y = ax.lines[0].get_data()
    assert np.all((x > 0) & (x < 1)) and np.all(y >= 0)
    # The predictive density peaks near the posterior of the population mean (0.52).
    assert abs(x[np.argmax(y)] - mcnemar.posterior_mean) < 0.02
    # Riemann sum over the drawn range: almost all the mass.
    assert np.sum(y[:-1] * np.diff(x)) == pytest.approx(1.0, abs=0.01)
    # ROPE borders drawn where the result has them.
    vlines = sorted({round(float(line.get_xdata()[0]), 8) for line in ax.lines[1:]})
    assert vlines == pytest.approx(sorted(mcnemar.rope), abs=1e-8)
    plt.close(ax.figure)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["samples", "contour"])
def test_ab_posterior_is_williams_figure_4a(mcnemar, kind):
    ax = plot_ab_posterior(mcnemar, kind=kind, n_samples=2000, random_state=1)
    top = ax.get_xlim()[1]
    assert ax.get_ylim()[1] == top
    if kind == "samples":
        a, b = ax.lines[0].get_data()
        assert a.size == 2000
        # Williams: "a and b are very nearly equal": the draws hug the diagonal.
        assert np.median(np.abs(np.log(a / b))) < 0.2
        assert 0.95 < np.mean((a < top) & (b < top)) < 1.0
    else:
        assert len(ax.collections) > 0
    plt.close(ax.figure)


def test_shrinkage_of_mcnemar_tasks(mcnemar):
    ax = plot_shrinkage(mcnemar)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(labels) == sorted(TASKS)
    raw_x, _ = ax.lines[0].get_data()
    pooled_x, _ = ax.lines[1].get_data()
    d = mcnemar.details
    order = [TASKS.index(name) for name in labels]
    np.testing.assert_allclose(raw_x, np.asarray(d["raw_phi"])[order])
    np.testing.assert_allclose(pooled_x, np.asarray(d["shrunk_phi"])[order])
    assert np.all(np.diff(pooled_x) >= 0)          # rows sorted by the pooled estimate
    plt.close(ax.figure)


def test_hierarchical_posterior_and_shrinkage_of_ttest(ttest):
    ax = plot_hierarchical_posterior(ttest, names=("hnb", "nbc"))
    labels = [line.get_label() for line in ax.lines]
    assert "delta0 (mean difference)" in labels and "delta on a new data set" in labels
    texts = [t.get_text() for t in ax.texts]
    assert texts[2] == f"P(hnb better) = {ttest.p_right:.3g}"
    lo, hi = ax.get_xlim()
    assert lo < -1 and hi > 1                     # the ROPE is in view
    plt.close(ax.figure)
    ax = plot_shrinkage(ttest, max_tasks=4)
    assert len(ax.get_yticklabels()) == 4
    # The tasks kept are those that move most: the extreme raw means -3 and 8.
    kept = {t.get_text() for t in ax.get_yticklabels()}
    assert {"set0", "set5"} <= kept
    plt.close(ax.figure)


def test_plots_reject_the_wrong_result(mcnemar, ttest):
    with pytest.raises(InvalidInputError, match="hierarchical McNemar"):
        plot_phi_next(ttest)
    with pytest.raises(InvalidInputError, match="hierarchical McNemar"):
        plot_ab_posterior(ttest)
    with pytest.raises(InvalidInputError, match="hierarchical correlated t-test"):
        plot_hierarchical_posterior(mcnemar)
    with pytest.raises(InvalidInputError, match="kind"):
        plot_ab_posterior(mcnemar, kind="hexbin")
    with pytest.raises(InvalidInputError, match="task_names"):
        plot_shrinkage(mcnemar, task_names=["x"])


@pytest.mark.slow
def test_draws_into_a_given_axes(mcnemar):
    fig, axes = plt.subplots(1, 2)
    assert plot_phi_next(mcnemar, ax=axes[0]) is axes[0]
    assert plot_shrinkage(mcnemar, ax=axes[1]) is axes[1]
    plt.close(fig)
