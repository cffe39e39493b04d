"""Normal QQ-plot of paired differences: the check the t-tests' normality assumption needs."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from scipy import stats

from .._validation import as_float_array
from ._style import figsize, styled


@styled
def qq_plot(differences, *, ax=None, title: str | None = None):
    """Normal QQ-plot of ``differences`` with the Shapiro–Wilk p-value in the title.

    Parameters
    ----------
    differences : array_like, shape (n,)
        Paired differences (e.g. per-example losses of B minus A), n >= 3.
    ax : matplotlib Axes, optional
    title : str, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InvalidInputError
        NaN or non-numeric values, or not 1-D.
    """
    d = as_float_array(differences, "differences", ndim=1)
    if ax is None:
        _, ax = plt.subplots(figsize=figsize((4.5, 4.5)))
    (theoretical, ordered), (slope, intercept, _) = stats.probplot(d, dist="norm")
    ax.plot(theoretical, ordered, "o", ms=3, alpha=0.7)
    ax.plot(theoretical, slope * np.asarray(theoretical) + intercept, "r-", lw=1)
    ax.set_xlabel("normal quantiles")
    ax.set_ylabel("ordered differences")
    if title is None and d.size >= 3 and np.ptp(d) > 0:
        title = f"Normal QQ-plot (Shapiro–Wilk p = {stats.shapiro(d[:5000]).pvalue:.2g})"
    ax.set_title(title or "Normal QQ-plot")
    return ax
