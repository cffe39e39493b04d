"""Plots of cross-validation comparisons: fold differences and the Student posterior."""
import matplotlib.pyplot as plt
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.bayes import correlated_bayesian_ttest
from outperform.plot import plot_cv_differences
from outperform.plot import plot_student_posterior
from outperform.results import BayesianResult
from outperform.stats import corrected_resampled_ttest

RNG = np.random.default_rng(7)
A = RNG.normal(0.8, 0.02, 30)
B = A - RNG.normal(0.005, 0.01, 30)
D = A - B


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _spans(ax):
    """(x0, x1, y0, y1) in data units of the shaded spans (axhspan / axvspan rectangles)."""
    out = []
    for patch in ax.patches:
        verts = patch.get_transform().transform(patch.get_path().vertices)
        x, y = ax.transData.inverted().transform(verts).T
        out.append((x.min(), x.max(), y.min(), y.max()))
    return out


def test_cv_differences_draws_points_mean_and_interval():
    res = corrected_resampled_ttest(A, B, rho=0.1)
    fig, ax = plt.subplots()
    assert plot_cv_differences(D, res, n_folds=10, ax=ax) is ax
    points = ax.collections[0].get_offsets()
    np.testing.assert_allclose(points[:, 1], D)
    np.testing.assert_array_equal(ax.collections[0].get_array(), np.repeat([0, 1, 2], 10))
    assert any(np.allclose(line.get_ydata(), res.estimate) for line in ax.lines)
    lo, hi = res.confidence_interval(0.95)
    assert any(s[2] == pytest.approx(lo) and s[3] == pytest.approx(hi) for s in _spans(ax))
    run_separators = [ln for ln in ax.lines if np.allclose(ln.get_xdata(), [9.5, 9.5])
                      or np.allclose(ln.get_xdata(), [19.5, 19.5])]
    assert len(run_separators) == 2


def test_cv_differences_one_sided_interval_reaches_the_edge():
    res = corrected_resampled_ttest(A, B, rho=0.1, alternative="greater")
    ax = plot_cv_differences(D, res)
    lo, _ = res.confidence_interval(0.95)
    top = ax.get_ylim()[1]
    assert any(s[2] == pytest.approx(lo) and s[3] == pytest.approx(top) for s in _spans(ax))


def test_cv_differences_rejects_a_foreign_result():
    res = corrected_resampled_ttest(A, B, rho=0.1)
    with pytest.raises(InvalidInputError, match="not the mean"):
        plot_cv_differences(-D, res)
    with pytest.raises(InvalidInputError, match="must divide"):
        plot_cv_differences(D, res, n_folds=7)


def test_student_posterior_curve_rope_and_probabilities():
    res = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.005)
    fig, ax = plt.subplots()
    assert plot_student_posterior(res, names=("svm", "rf"), ax=ax) is ax
    curve = ax.lines[0]
    x, y = curve.get_xdata(), curve.get_ydata()
    np.testing.assert_allclose(y, res.posterior.pdf(x))
    assert x.min() < -0.005 and x.max() > 0.005     # the whole ROPE is visible
    assert any(s[0] == pytest.approx(-0.005) and s[1] == pytest.approx(0.005)
               for s in _spans(ax))
    texts = [t.get_text() for t in ax.texts]
    assert texts == [f"P(rf better) = {res.p_left:.3g}", f"P(equivalent) = {res.p_rope:.3g}",
                     f"P(svm better) = {res.p_right:.3g}"]
    expected = {"A better": "svm better", "B better": "rf better"}.get(res.decision, res.decision)
    assert ax.get_title().startswith(expected)
    assert ax.get_xlabel() == "mean difference svm - rf"


def test_student_posterior_left_side_labels():
    res = correlated_bayesian_ttest(A, B, rho=0.1, rope=0.005)
    flipped = BayesianResult(**{**{f: getattr(res, f) for f in
                                   ("method", "parameter", "p_left", "p_rope", "p_right",
                                    "rope", "threshold", "decision", "details")},
                                "a_better_side": "left", "posterior": res.posterior})
    texts = [t.get_text() for t in plot_student_posterior(flipped).texts]
    assert texts[0].startswith("P(A better)") and texts[2].startswith("P(B better)")


def test_student_posterior_point_mass():
    res = correlated_bayesian_ttest(B + 0.02, B, rho=0.1, rope=0.01)
    ax = plot_student_posterior(res)
    arrow = [t for t in ax.texts if hasattr(t, "xy")][0]
    assert arrow.xy[0] == pytest.approx(0.02)
    assert "P(A better) = 1" in [t.get_text() for t in ax.texts]


def test_student_posterior_needs_a_closed_form():
    res = correlated_bayesian_ttest(A, B, rho=0.1)
    sampled = BayesianResult(method="sampled", parameter="x", p_left=0.1, p_rope=0.2,
                             p_right=0.7, rope=(-1, 1), a_better_side="right",
                             threshold=0.95, decision=res.decision)
    with pytest.raises(InvalidInputError, match="no closed-form posterior"):
        plot_student_posterior(sampled)
