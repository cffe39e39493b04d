"""Rank-set plot of a leaderboard: each model's confidence set of ranks as a horizontal bar."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import PALETTE, INK, grey, styled

#: Rows of models shown per inch of a new figure's height.
_ROWS_PER_INCH = 5.0


def _parts(board):
    """(RankSets, letters or None, metric) of a Leaderboard or a RankSets."""
    rank_sets = getattr(board, "rank_sets", board)
    if not hasattr(rank_sets, "simultaneous"):
        raise InvalidInputError(f"expected a Leaderboard or RankSets, got {type(board).__name__}.")
    return rank_sets, getattr(board, "letters", None), getattr(board, "metric", "score")


def tier_colours(tiers: np.ndarray) -> list:
    """One colour per model: tiers cycle through the palette (Okabe & Ito), so that
    neighbouring tiers differ."""
    return [PALETTE[(t - 1) % len(PALETTE)] for t in tiers]


@styled
def plot_rank_sets(board, *, top: int | None = None, percentile: bool = True, ax=None):
    """Draw each model's rank confidence sets, models sorted by score (best on top).

    The thick, light bar spans the **simultaneous** rank set (all models' true ranks inside
    their bars at once with probability >= 1 - alpha, Mogstad et al. 2024); the thin dark bar
    inside it the **marginal** set (each model's own rank, one at a time); the dot is the rank
    of the estimate; the two small vertical ticks, with ``percentile``, the ends of the
    percentile bootstrap interval of the rank (marginal, without coverage guarantee). Bars
    are coloured by tier (:meth:`outperform.results.RankSets.tiers`, the simultaneous
    procedure's tiers). Each row is labelled with the model's name on the left and its
    score ± the half-width of its confidence interval, tier and compact letters on the right.

    Parameters
    ----------
    board : Leaderboard or RankSets
        From :func:`outperform.compare.leaderboard` or :func:`outperform.stats.rank_sets`.
    top : int, optional
        Show only the ``top`` best-estimated models (the x axis still spans every rank, so
        a set reaching far down stays visible); default all. At 200 models ``top=60`` keeps
        the labels readable.
    percentile : bool
        Mark the percentile bootstrap interval of each rank.
    ax : matplotlib.axes.Axes, optional
        Default: a new figure 8 inches wide and tall enough for the rows shown.

    Returns
    -------
    matplotlib.axes.Axes
        One bar (``ax.patches``, in the simultaneous set's colour) per model shown, from the
        best estimate down; the y tick labels are the model names in the same order.

    Raises
    ------
    InvalidInputError
        ``board`` is neither a Leaderboard nor a RankSets, or ``top`` is not >= 1.

    Examples
    --------
    >>> import numpy as np
    >>> from outperform.stats import rank_sets
    >>> rng = np.random.default_rng(0)
    >>> scores = (rng.random((800, 4)) < [0.70, 0.72, 0.80, 0.60]).astype(float)
    >>> ax = plot_rank_sets(rank_sets(scores, names=["a", "b", "c", "d"], n_resamples=200))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['c', 'b', 'a', 'd']
    >>> len(ax.patches)
    4
    """
    rs, letters, metric = _parts(board)
    k = len(rs.names)
    if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer))
                            or top < 1):
        raise InvalidInputError(f"top must be a positive integer, got {top!r}.")
    order = rs.order[:top] if top is not None else rs.order
    m = len(order)
    ax, new_figure = new_axes(ax, (8.0, max(2.5, 1.4 + m / _ROWS_PER_INCH)), rows=True)
    tiers = rs.tiers()
    colours = tier_colours(tiers[order])
    y = np.arange(m)
    sim, mar, pct = rs.simultaneous[order], rs.marginal[order], rs.percentile[order]
    # Bars span whole ranks: the set [2, 4] covers the cells of ranks 2, 3 and 4.
    ax.barh(y, sim[:, 1] - sim[:, 0] + 1, left=sim[:, 0] - 0.5, height=0.8, color=colours,
            alpha=0.35, linewidth=0, label="simultaneous rank set")
    ax.hlines(y, mar[:, 0] - 0.5, mar[:, 1] + 0.5, colors=colours, linewidth=2.2,
              label="marginal rank set")
    ax.plot(rs.rank[order], y, "o", color=INK, markersize=2.5 if m > 60 else 3.5,
            label="rank of the estimate")
    if percentile:
        ax.plot(np.r_[pct[:, 0] - 0.5, pct[:, 1] + 0.5], np.r_[y, y], "|", color=grey(0.25),
                markersize=4 if m > 60 else 6, label="percentile bootstrap interval")
    small = "xx-small" if m > 60 else "x-small" if m > 25 else "small"
    ax.set_yticks(y, [rs.names[j] for j in order], fontsize=small)
    ax.set_ylim(m - 0.5, -0.5)
    ax.set_xlim(0.5, k + 0.5)
    ax.set_xlabel(f"rank (1 = best), {100 * rs.confidence_level:g}% confidence sets")
    ax.xaxis.set_major_locator(_rank_locator(k))
    show_letters = bool(letters) and max(len(letters[rs.names[j]]) for j in order) <= 8
    labels = [f"{text}  tier {tiers[j]}" + (f"  {letters[rs.names[j]]}" if show_letters else "")
              for j, text in zip(order, rs.score_texts(order))]
    right = ax.twinx()
    right.set_ylim(ax.get_ylim())
    right.set_yticks(y, labels, fontsize=small)
    right.tick_params(length=0)
    shown = f"top {m} of {k} models" if m < k else f"{k} models"
    ax.set_title(f"Rank confidence sets, {shown}, by mean {metric}", fontsize="medium",
                 pad=20)
    ax.grid(axis="x", color=grey(0.9), linewidth=0.6)
    ax.set_axisbelow(True)
    # Above the axes, under the title: inside, it would hide the sets of tied models.
    ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=4, frameon=False,
              fontsize="x-small", handlelength=1.5, columnspacing=1.2, borderaxespad=0.2)
    if new_figure:
        ax.figure.tight_layout()
    return ax


def _rank_locator(k: int):
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(nbins=min(k, 12), integer=True, min_n_ticks=1)
