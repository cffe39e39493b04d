"""The rank of each model without and with style control: a slope chart."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import ACCENT, ALERT, grey, styled

__all__ = ["plot_rank_changes"]


@styled
def plot_rank_changes(result, *, top: int | None = None, ax=None):
    """Each model's rank without style control (left) and with it (right), joined by a line.

    A model that moves up under control is drawn in the accent colour, one that moves down
    in the alert colour, one that stays in grey (the Okabe–Ito roles of plot/_style.py).

    Parameters
    ----------
    result : StyleControlResult
        From :func:`outperform.compare.bradley_terry_style` or
        :func:`outperform.stats.bradley_terry_style`.
    top : int, optional
        Only the models ranked within the ``top`` best with or without control.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InvalidInputError
        ``top`` below 1.
    """
    before, after = result.uncontrolled_rank, result.rank
    shown = np.arange(len(result.models))
    if top is not None:
        if int(top) != top or top < 1:
            raise InvalidInputError(f"top must be a positive integer, got {top!r}.")
        shown = np.flatnonzero((before <= top) | (after <= top))
    k = int(max(before[shown].max(), after[shown].max()))
    ax, _ = new_axes(ax, (4.5, 0.8 + 0.3 * k), rows=True)
    for i in shown:
        change = before[i] - after[i]
        colour = ACCENT if change > 0 else ALERT if change < 0 else grey(0.6)
        ax.plot([0, 1], [before[i], after[i]], "-o", color=colour, lw=1.5, markersize=4)
        ax.annotate(result.models[i], (0, before[i]), xytext=(-6, 0),
                    textcoords="offset points", ha="right", va="center", fontsize="small")
        ax.annotate(f"{result.models[i]} ({change:+d})" if change else result.models[i],
                    (1, after[i]), xytext=(6, 0), textcoords="offset points", ha="left",
                    va="center", fontsize="small", color=colour if change else "black")
    ax.set_xlim(-0.6, 1.6)
    ax.set_ylim(k + 0.5, 0.5)
    ax.set_xticks([0, 1], ["without control", "with control"])
    ax.set_yticks([])
    ax.set_ylabel("rank (1 = best)")
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.set_title(f"Rank change when controlling for {', '.join(result.features)}",
                 fontsize="medium")
    return ax
