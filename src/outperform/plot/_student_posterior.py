"""Posterior density of a mean difference with the ROPE and the three region probabilities
(Williams 2026, Figure 1(b) style), for results with a closed-form posterior such as
``correlated_bayesian_ttest``."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import annotate_posterior, new_axes
from ._style import INK, styled


@styled
def plot_student_posterior(result, *, names=("A", "B"), n_points: int = 400, ax=None):
    """Draw the posterior density of the parameter, the ROPE, and P(left), P(rope), P(right).

    Parameters
    ----------
    result : BayesianResult
        With a scipy frozen continuous ``posterior`` (e.g. a Student t from
        ``correlated_bayesian_ttest``), or the degenerate result of that test on folds
        with identical differences (``details["degenerate"]``), drawn as a vertical arrow.
    names : (str, str)
        Names of A and B in the probability labels.
    n_points : int
        Points of the density curve.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The ROPE is shaded between two red lines; the three probabilities are written along
        the top of the axes, left to right, and the decision is the title.

    Raises
    ------
    InvalidInputError
        The result has no closed-form posterior (use ``outperform.plot._posterior`` for
        sampled posteriors).

    Examples
    --------
    >>> from outperform.bayes._correlated_ttest import correlated_bayesian_ttest
    >>> a = [0.81, 0.83, 0.79, 0.84, 0.80, 0.82, 0.85, 0.80, 0.83, 0.81]
    >>> b = [0.80, 0.80, 0.78, 0.81, 0.80, 0.79, 0.83, 0.79, 0.80, 0.80]
    >>> ax = plot_student_posterior(correlated_bayesian_ttest(a, b, rho=0.1, rope=0.01))
    >>> [t.get_text() for t in ax.texts]
    ['P(B better) = 0.000226', 'P(equivalent) = 0.0795', 'P(A better) = 0.92']
    """
    degenerate = bool(result.degenerate)
    if result.posterior is None and not degenerate:
        raise InvalidInputError(
            f"{result.method} has no closed-form posterior to draw; use "
            "outperform.plot._posterior for posteriors given by samples."
        )
    ax, new_figure = new_axes(ax)
    low, high = result.rope

    if degenerate:
        centre = result.posterior_mean
        half = max(high - low, abs(centre), 1e-3)
        ax.set_xlim(min(low, centre) - half, max(high, centre) + half)
        ax.set_ylim(0, 1.35)
        ax.annotate("", xy=(centre, 1.0), xytext=(centre, 0.0),
                    arrowprops={"arrowstyle": "-|>", "color": INK, "lw": 1.5})
        ax.set_ylabel("probability (point mass)")
    else:
        post = result.posterior
        lo, hi = post.ppf([0.0005, 0.9995])
        span = hi - lo
        grid = np.linspace(min(lo, low - 0.05 * span), max(hi, high + 0.05 * span), n_points)
        density = post.pdf(grid)
        ax.plot(grid, density, color=INK, lw=1.5, label="posterior")
        ax.set_xlim(grid[0], grid[-1])
        ax.set_ylim(0, 1.35 * float(np.max(density)))   # headroom for the labels
        ax.set_ylabel("posterior density")

    annotate_posterior(ax, result, names)
    if new_figure:
        ax.figure.tight_layout()
    return ax
