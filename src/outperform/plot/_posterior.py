"""Posterior of a comparison with its ROPE and region probabilities, and the histogram of the
paired differences (Williams 2026, Figures 1-3)."""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError, as_paired
from ._common import annotate_posterior, new_axes
from ._student_posterior import plot_student_posterior
from ._style import ACCENT, INK, grey, styled


@styled
def plot_posterior(result, *, names=("A", "B"), n_points: int = 400, bins: int | None = None,
                   ax=None):
    """Posterior density of the compared parameter, the ROPE shaded, and the three region
    probabilities (Williams 2026, Figures 1(b), 2(b), 3).

    Parameters
    ----------
    result : BayesianResult
        A closed-form posterior (``bayesian_ttest``, ``bayesian_mcnemar``,
        ``correlated_bayesian_ttest``) is drawn exactly (by
        :func:`outperform.plot._student_posterior.plot_student_posterior`, which handles any
        frozen scipy distribution); a sampled one (``robust_bayesian_ttest``, 1-D
        ``samples``) as a histogram of the draws with a kernel density estimate.
    names : (str, str)
        Names of A and B for the labels ("P(GNN better) = 0.571").
    n_points : int
        Points of the density curve.
    bins : int, optional
        Histogram bins for sampled posteriors (default: about sqrt of the draws, <= 80).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The region probabilities are written left to right in the order of the parameter
        axis (for McNemar's phi, A better is on the left); the title is the decision.

    Raises
    ------
    InvalidInputError
        The result has neither a closed-form posterior nor 1-D samples.

    Examples
    --------
    Williams (2026) Figure 3(a), da-en with A = GNN, B = LLM:

    >>> from outperform.bayes._mcnemar import bayesian_mcnemar
    >>> ax = plot_posterior(bayesian_mcnemar(159, 198), names=("GNN", "LLM"))
    >>> [t.get_text() for t in ax.texts]
    ['P(GNN better) = 0.571', 'P(equivalent) = 0.429', 'P(LLM better) = 3.92e-05']
    """
    if result.posterior is not None or result.degenerate:
        return plot_student_posterior(result, names=names, n_points=n_points, ax=ax)
    samples = None if result.samples is None else np.asarray(result.samples, dtype=float)
    if samples is None or samples.ndim != 1 or samples.size < 2:
        raise InvalidInputError(
            f"{result.method} has no closed-form posterior nor 1-D posterior samples to draw "
            "(region-probability samples of shape (n, 3) belong on a simplex plot).")
    ax, new_figure = new_axes(ax)
    low, high = result.rope
    nbins = bins or int(min(80, max(10, np.sqrt(samples.size))))
    heights = ax.hist(samples, bins=nbins, density=True, color=grey(0.85), edgecolor=grey(0.6),
                      lw=0.5, label="posterior draws")[0]
    top = float(heights.max())
    span = np.ptp(samples)
    if span > 0:
        grid = np.linspace(min(samples.min(), low) - 0.05 * span,
                           max(samples.max(), high) + 0.05 * span, n_points)
        density = stats.gaussian_kde(samples)(grid)
        ax.plot(grid, density, color=INK, lw=1.5, label="kernel density")
        ax.set_xlim(grid[0], grid[-1])
        top = max(top, float(density.max()))
    ax.set_ylim(0, 1.35 * top)   # headroom for the labels
    ax.set_ylabel("posterior density")
    annotate_posterior(ax, result, names)
    if new_figure:
        ax.figure.tight_layout()
    return ax


@styled
def plot_differences(a, b, *, names=("A", "B"), bins: int | str = "auto", ax=None):
    """Histogram of the paired differences a - b with their mean and median
    (Williams 2026, Figures 1(a) and 2(a)).

    Parameters
    ----------
    a, b : array_like, shape (N,)
        Paired per-example scores (higher is better) of A and B.
    names : (str, str)
    bins : int or str
        Passed to :func:`numpy.histogram_bin_edges`.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        With a dashed line at the mean, a dotted one at the median and a grey one at 0; a
        skewed histogram (mean far from median) warns that the normal model of the Bayesian
        t-test may not fit (Williams §6.1).

    Raises
    ------
    InvalidInputError
        Unpaired or non-numeric inputs.

    Examples
    --------
    >>> ax = plot_differences([0.9, 0.7, 0.8, 0.95], [0.6, 0.75, 0.7, 0.8], names=("LgR", "SVM"))
    >>> ax.get_xlabel()
    'LgR - SVM'
    """
    x, y = as_paired(a, b)
    d = x - y
    ax, new_figure = new_axes(ax)
    ax.hist(d, bins=np.histogram_bin_edges(d, bins=bins), color=grey(0.75), edgecolor=grey(0.4), lw=0.5)
    ax.axvline(0.0, color=grey(0.5), lw=1.0)
    ax.axvline(float(np.mean(d)), color=INK, ls="--", lw=1.2,
               label=f"mean {np.mean(d):.3g}")
    ax.axvline(float(np.median(d)), color=ACCENT, ls=":", lw=1.5,
               label=f"median {np.median(d):.3g}")
    ax.set_xlabel(f"{names[0]} - {names[1]}")
    ax.set_ylabel("number of examples")
    ax.legend(fontsize="small", frameon=False)
    if new_figure:
        ax.figure.tight_layout()
    return ax
