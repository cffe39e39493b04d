"""Per-fold score differences of a cross-validation comparison, with the mean and its
corrected confidence interval (the result of ``corrected_resampled_ttest``)."""
from __future__ import annotations

import math

import numpy as np

from .._deprecation import renamed
from .._validation import InvalidInputError, as_float_array, check_alpha
from ._common import new_axes
from ._style import ACCENT, grey, palette_cmap, styled


@renamed(confidence_level="alpha")
@styled
def plot_cv_differences(differences, result, *, n_folds: int | None = None,
                        alpha: float = 0.05, names=("A", "B"), ax=None):
    """Scatter the fold differences a - b with their mean and confidence interval.

    Parameters
    ----------
    differences : array_like, shape (n,)
        Score differences a - b per fold, in the order of the runs (positive favours A).
    result : FrequentistResult
        Output of ``corrected_resampled_ttest(a, b, ...)`` (or any test whose ``estimate``
        is the mean difference and that defines ``confidence_interval``) on the same folds.
    n_folds : int, optional
        Folds per run (k of r x k CV): points are coloured by run and runs are separated by
        vertical lines. Must divide n.
    alpha : float
        The band is the 1 − alpha interval (default 0.05: 95%). ``confidence_level=`` is its
        deprecated name (``alpha = 1 - confidence_level``).
    names : (str, str)
        Names of A and B for the axis label.
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; a new figure otherwise.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result.estimate`` is not the mean of ``differences`` (the result belongs to other
        data), or ``n_folds`` does not divide the number of differences.
    NotImplementedError
        The result defines no confidence interval.

    Examples
    --------
    >>> from outperform.stats._correlated_ttest import corrected_resampled_ttest
    >>> a = [0.81, 0.83, 0.79, 0.84, 0.80, 0.82, 0.85, 0.80, 0.83, 0.81]
    >>> b = [0.80, 0.80, 0.78, 0.81, 0.80, 0.79, 0.83, 0.79, 0.80, 0.80]
    >>> res = corrected_resampled_ttest(a, b, rho=0.2)
    >>> d = [x - y for x, y in zip(a, b)]
    >>> ax = plot_cv_differences(d, res, n_folds=5)
    >>> ax.get_ylabel()
    'score difference A - B'
    """
    d = as_float_array(differences, "differences", ndim=1)
    if result.estimate is None or not math.isclose(result.estimate, float(np.mean(d)),
                                                   rel_tol=1e-9, abs_tol=1e-12):
        raise InvalidInputError(
            f"result.estimate ({result.estimate}) is not the mean of the differences "
            f"({np.mean(d):g}); pass the differences a - b the result was computed from."
        )
    if n_folds is not None and (n_folds < 1 or d.size % n_folds):
        raise InvalidInputError(
            f"n_folds ({n_folds}) must divide the number of differences ({d.size})."
        )
    confidence_level = 1.0 - check_alpha(alpha)
    ax, new_figure = new_axes(ax, (7, 3.5))

    index = np.arange(d.size)
    if n_folds is None:
        ax.scatter(index, d, s=14, color=grey(0.2), zorder=3, label="fold")
    else:
        run = index // n_folds
        ax.scatter(index, d, s=14, c=run, cmap=palette_cmap(run.max() + 1), zorder=3,
                   label="fold (colour = run)")
        for boundary in range(n_folds, d.size, n_folds):
            ax.axvline(boundary - 0.5, color=grey(0.85), lw=0.8, zorder=1)

    low, high = result.confidence_interval(confidence_level)
    finite = [v for v in (low, high, *d) if math.isfinite(v)]
    pad = 0.1 * (max(finite) - min(finite) or 1.0)
    bottom, top = min(finite + [0.0]) - pad, max(finite + [0.0]) + pad
    # One-sided intervals are open on one side: shade up to the edge of the plot.
    ax.axhspan(max(low, bottom), min(high, top), color=ACCENT, alpha=0.18, zorder=0,
               label=f"{confidence_level:.0%} CI ({result.method})")
    ax.axhline(result.estimate, color=ACCENT, lw=1.5, zorder=2,
               label=f"mean = {result.estimate:.4g}")
    ax.axhline(0.0, color=grey(0.4), lw=0.8, ls="--", zorder=1)
    ax.set_ylim(bottom, top)
    ax.set_xlim(-0.5, d.size - 0.5)
    ax.set_xlabel("fold (runs in order)" if n_folds else "fold")
    ax.set_ylabel(f"score difference {names[0]} - {names[1]}")
    ax.legend(loc="best", fontsize="small")
    if new_figure:
        ax.figure.tight_layout()
    return ax
