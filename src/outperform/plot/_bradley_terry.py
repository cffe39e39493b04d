"""Bradley–Terry ratings with their intervals, best model on top (Elo scale)."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import ACCENT, grey, styled

__all__ = ["plot_bradley_terry"]

_SHORT = {"sandwich": "normal, sandwich SE", "model": "normal, model SE",
          "bootstrap": "percentile bootstrap"}


@styled
def plot_bradley_terry(result, *, top: int | None = None, ax=None):
    """Each model's Elo-scale rating as a point with its confidence interval, sorted.

    Parameters
    ----------
    result : BradleyTerryResult
        From :func:`outperform.compare.bradley_terry` or :func:`outperform.stats.bradley_terry`.
    top : int, optional
        Draw only the ``top`` best-rated models (all by default).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InvalidInputError
        ``top`` below 1.
    """
    order = result.order
    if top is not None:
        if int(top) != top or top < 1:
            raise InvalidInputError(f"top must be a positive integer, got {top!r}.")
        order = order[:int(top)]
    k = len(order)
    ax, _ = new_axes(ax, (6, 0.8 + 0.32 * k), rows=True)
    y = np.arange(k)
    rating = result.ratings[order]
    low, high = result.rating_low[order], result.rating_high[order]
    ax.errorbar(rating, y, xerr=[rating - low, high - rating], fmt="o", color=ACCENT,
                ecolor=ACCENT, elinewidth=2, capsize=3, markersize=5)
    if result.anchor is not None and result.anchor in [result.models[i] for i in order]:
        ax.axvline(result.anchor_rating, color=grey(0.5), lw=0.8, ls=":")
    ax.set_yticks(y, [result.models[i] + (" (anchor)" if result.models[i] == result.anchor
                                          else "") for i in order])
    ax.invert_yaxis()
    ax.set_xlabel(f"Elo-scale rating ({result.anchor_rule}; 400 points = 10:1 odds)")
    method = "Bradley-Terry" + (", Davidson ties" if result.ties == "davidson" else "")
    ax.set_title(f"{method}: {100 * result.confidence_level:g}% intervals, "
                 f"{_SHORT[result.interval]}",
                 fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    ax.margins(y=0.5 / max(k, 1))
    return ax
