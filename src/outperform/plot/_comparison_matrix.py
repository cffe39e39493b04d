"""Multiple comparison matrix of a leaderboard (Ismail-Fawaz et al. 2023)."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import DIVERGING, INK, PAPER, styled

#: Largest number of models whose cells get their numbers written in them.
ANNOTATE_UP_TO = 12
#: Largest number of models named on the axes.
NAMES_UP_TO = 100


def _wins(board) -> np.ndarray | None:
    """wins[i, j]: items on which model i beats model j, when the leaderboard counted them."""
    wins = board.pairwise.wins
    return None if wins is None else np.asarray(wins, dtype=float)


@styled
def plot_comparison_matrix(board, *, top: int | None = None, annotate: bool | None = None,
                           cmap=DIVERGING, ax=None):
    """Draw every pair of a leaderboard as a multiple comparison matrix, best models first.

    The layout of Ismail-Fawaz, Dempster, Tan, Herrmann, Miller, Schmidt, Forestier & Webb
    (2023), "An approach to multiple comparison benchmark evaluations that is stable under
    manipulation of the comparate set" (arXiv:2305.11921): rows and columns are the models
    sorted by score (best first), cell (i, j) compares row model i with column model j. Its
    colour is the mean difference of the scores, row minus column, turned so that positive
    (blue) means the row model is better; with numbers written in (default up to
    12 models) the cell holds that difference, the row's wins / ties / losses against the
    column over the items and the adjusted p-value of the pair's paired test
    (``board.pairwise``), in bold and framed when significant. Above 12 models the matrix is
    drawn in colour only and significant pairs are marked with a dot; the caption under the
    axes says so, and ``board.pairwise.to_frame()`` holds every number.

    Parameters
    ----------
    board : Leaderboard
        From :func:`outperform.compare.leaderboard`.
    top : int, optional
        Only the ``top`` best-estimated models (rows and columns).
    annotate : bool, optional
        Write the numbers in the cells; default when at most 12 models are shown.
    cmap : str or Colormap
        Diverging colour map, centred on a difference of 0.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        The image is ``ax.images[0]``, its array the oriented mean differences (NaN on the
        diagonal).

    Raises
    ------
    InvalidInputError
        ``board`` is not a Leaderboard, or ``top`` is not >= 2.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from outperform.compare import leaderboard
    >>> rng = np.random.default_rng(0)
    >>> acc = {"A": 0.9, "B": 0.85, "C": 0.7}
    >>> rows = [{"model": m, "example": i, "correct": int(rng.random() < p)}
    ...         for m, p in acc.items() for i in range(400)]
    >>> ax = plot_comparison_matrix(leaderboard(pd.DataFrame(rows), n_resamples=200))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['A', 'B', 'C']
    """
    if not (hasattr(board, "rank_sets") and hasattr(board, "pairwise")):
        raise InvalidInputError(f"expected a Leaderboard, got {type(board).__name__}.")
    if top is not None and (isinstance(top, bool) or not isinstance(top, (int, np.integer))
                            or top < 2):
        raise InvalidInputError(f"top must be an integer >= 2, got {top!r}.")
    rs, pw = board.rank_sets, board.pairwise
    idx = rs.order[:top] if top is not None else rs.order
    m, names = len(idx), [rs.names[j] for j in idx]
    est = rs.estimate if rs.higher_is_better else -rs.estimate
    diff = (est[:, None] - est[None, :])[np.ix_(idx, idx)]
    np.fill_diagonal(diff, np.nan)
    p = np.asarray(pw.pvalue_adjusted, dtype=float)[np.ix_(idx, idx)]
    reject = np.asarray(pw.reject, dtype=bool)[np.ix_(idx, idx)]
    np.fill_diagonal(reject, False)
    annotate = m <= ANNOTATE_UP_TO if annotate is None else bool(annotate)
    side = (1.0 + 0.85 * m) if annotate else min(14.0, 3.0 + 0.16 * m)
    ax, new_figure = new_axes(ax, (side + 1.8, side + 0.6))
    lim = float(np.nanmax(np.abs(diff))) if np.isfinite(diff).any() else 1.0
    image = ax.imshow(np.ma.masked_invalid(diff), cmap=cmap, vmin=-lim, vmax=lim or 1.0)
    what = f"mean {board.metric}" if rs.higher_is_better else f"−mean {board.metric}"
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.03,
                       label=f"row − column, {what} (blue: row better)")
    if m <= NAMES_UP_TO:
        size = "small" if m <= 15 else "xx-small" if m > 40 else "x-small"
        ax.set_xticks(range(m), names, rotation=90, fontsize=size)
        ax.set_yticks(range(m), names, fontsize=size)
        ax.tick_params(length=0)
    else:
        from matplotlib.ticker import FuncFormatter

        # Positions counted from 1, like ranks: the 1st is the best estimate.
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v + 1:.0f}"))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v + 1:.0f}"))
        ax.set_xlabel(f"models, best estimate first (names left out above {NAMES_UP_TO} "
                      "models)")
        ax.set_ylabel("models, best estimate first")
    ax.xaxis.tick_top()
    ax.xaxis.set_label_position("top")
    if annotate:
        _write_cells(ax, image, diff, p, reject, _wins(board), idx, rs.n_items)
    elif reject.any():
        i, j = np.nonzero(reject)
        ax.plot(j, i, "o", color=INK, markersize=max(0.8, min(3.0, 120 / m)),
                linestyle="none")
    # Wins are counted over the items (or tasks), also when whole clusters were resampled.
    units = "tasks" if rs.unit == "task" else "items"
    note = (f"Cells: mean difference, wins/ties/losses of the row over the {rs.n_items} "
            f"{units}, {pw.adjustment}-adjusted p; bold and framed: significant at "
            f"α = {pw.alpha}." if annotate else
            f"Colour only ({m} models; numbers written up to {ANNOTATE_UP_TO}): dot = pair "
            f"significant at α = {pw.alpha} ({pw.adjustment}-adjusted); every number is in "
            "leaderboard.pairwise.to_frame().")
    ax.text(0.0, -0.015, note, transform=ax.transAxes, va="top", fontsize="x-small",
            wrap=True)
    ax.set_title(f"Multiple comparison matrix: {pw.method}", fontsize="medium", pad=12)
    if new_figure:
        ax.figure.tight_layout()
    return ax


def _write_cells(ax, image, diff, p, reject, wins, idx, n_items) -> None:
    from matplotlib.patches import Rectangle

    m = len(idx)
    if wins is not None:
        w = wins[np.ix_(idx, idx)]
        counts = w, n_items - w - w.T, w.T
    for i in range(m):         # m <= ANNOTATE_UP_TO cells a side: a few dozen texts
        for j in range(m):
            if i == j:
                continue
            r, g, b, _ = image.cmap(image.norm(diff[i, j]))
            ink = PAPER if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else INK
            lines = [f"{diff[i, j]:+.3g}"]
            if wins is not None:
                lines.append("/".join(f"{c[i, j]:.0f}" for c in counts))
            lines.append(_p_text(p[i, j]))
            ax.text(j, i, "\n".join(lines), ha="center", va="center", fontsize=6.5,
                    color=ink, fontweight="bold" if reject[i, j] else "normal",
                    linespacing=1.1)
            if reject[i, j]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=INK,
                                       linewidth=1.4))


def _p_text(p: float) -> str:
    # An exact p-value below the smallest double underflows to 0: say how small it is.
    return "p=–" if not np.isfinite(p) else "p<1e-300" if p < 1e-300 else f"p={p:.2g}"
