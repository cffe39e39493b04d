"""Distribution of the number of data sets won, with the majority threshold q/2.

The Poisson-binomial test (Lacoste et al. 2012) and the Poisson test (Corani & Benavoli 2015)
both rest on the Poisson-binomial distribution of the number of data sets on which A beats B.
This draws its pmf as bars, those above q/2 (a majority for A) in one colour and those below
(a majority for B) in another, with the threshold q/2 as a vertical line.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import ACCENT, INK, SECOND, grey, styled


@styled
def plot_poisson_binomial(result, *, names=("A", "B"), ax=None):
    """Draw the pmf of the number of data sets A wins, and the threshold q/2.

    Parameters
    ----------
    result : BayesianResult
        From ``poisson_binomial_test`` or ``poisson_test``: ``details["wins_pmf"]`` holds
        P(A wins on k data sets), k = 0..q (for the Poisson test with a ROPE: A practically
        better on k data sets).
    names : (str, str)
        Names of A and B for the legend.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        One bar per k; the title gives P(A better) and P(B better) as the test defines them
        (Lacoste: P(r > 1/2); Corani: P(more than q/2 data sets)).

    Raises
    ------
    InvalidInputError
        The result has no ``wins_pmf``.

    Examples
    --------
    >>> from outperform.bayes._poisson_binomial_test import poisson_binomial_test
    >>> res = poisson_binomial_test([3, 10, 4, 0, 12, 5], [9, 14, 4, 0, 30, 2])
    >>> ax = plot_poisson_binomial(res, names=("svm", "ann"))
    >>> len(ax.patches), ax.lines[0].get_xdata()[0]
    (7, 3.0)
    """
    pmf = getattr(result, "wins_pmf", None)
    if pmf is None:
        raise InvalidInputError(
            "the result has no details['wins_pmf']: plot_poisson_binomial draws the results of "
            "poisson_binomial_test and poisson_test."
        )
    pmf = np.asarray(pmf, dtype=float)
    q = pmf.size - 1
    ax, new_figure = new_axes(ax)
    k = np.arange(q + 1)
    a, b = names
    colours = np.where(k > q / 2, ACCENT, np.where(k < q / 2, SECOND, grey(0.5)))
    bars = ax.bar(k, pmf, width=0.8, color=colours, edgecolor="none")
    ax.axvline(q / 2, color=INK, lw=1.2, ls="--")
    handles = [bars[int(np.argmax(k > q / 2))] if q > 0 else bars[0]]
    labels = [f"{a} wins on more than q/2 = {q / 2:g} data sets"]
    if q > 0 and np.any(k < q / 2):
        handles.append(bars[0])
        labels.append(f"{b} wins on more than q/2")
    ax.legend(handles, labels, fontsize="small", frameon=False, loc="upper left")
    ax.set_xlabel(f"number of data sets on which {a} beats {b}")
    ax.set_ylabel("probability")
    ax.set_xlim(-0.6, q + 0.6)
    ax.set_ylim(0, 1.3 * float(pmf.max()) if pmf.max() > 0 else 1)
    p_a, p_b = ((result.p_right, result.p_left) if result.a_better_side == "right"
                else (result.p_left, result.p_right))
    ax.set_title(f"P({a} better) = {p_a:.3g}, P({b} better) = {p_b:.3g}", fontsize="medium")
    if new_figure:
        ax.figure.tight_layout()
    return ax
