"""Heatmap of a pairwise comparison table: P(row better than column), p-values or effect sizes."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, check_choice
from ._common import new_axes
from ._style import ALERT, DIVERGING, INK, PAPER, SEQUENTIAL, styled

_VALUES = ("auto", "statistic", "pvalue", "pvalue_adjusted", "cohens_g", "p_rope")


def _matrix(result, values: str) -> tuple[np.ndarray, str]:
    if values == "auto":
        values = "statistic" if result.adjustment == "none" and np.isnan(result.pvalue).all() \
            else "pvalue_adjusted"
    if values in ("statistic", "pvalue", "pvalue_adjusted"):
        matrix = getattr(result, values)
    elif values in result.details:
        matrix = result.details[values]
    else:
        raise InvalidInputError(f"{result.method} has no {values!r} matrix in its details.")
    labels = {"statistic": "statistic", "pvalue": "p-value",
              "pvalue_adjusted": f"p-value ({result.adjustment}-adjusted)",
              "cohens_g": "Cohen's g (positive: row better)", "p_rope": "P(equivalent)"}
    if values == "statistic" and result.adjustment == "none":
        labels["statistic"] = "P(row practically better than column)"
    return np.asarray(matrix, dtype=float), labels[values]


def _mark_cycles(ax, result, names: list[str]) -> None:
    """Outline in red the cells (i beats j) of each non-transitive cycle (Lacoste et al. §5.1)."""
    from matplotlib.patches import Rectangle

    cycles = result.cycles or []
    position = {name: p for p, name in enumerate(names)}
    for cycle in cycles:
        members = [m if isinstance(m, str) else result.names[m] for m in cycle]
        for winner, loser in zip(members, members[1:] + members[:1]):
            i, j = position[winner], position[loser]
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor=ALERT, lw=2))
    if cycles:
        ax.text(0.0, -0.02, f"red: {len(cycles)} non-transitive cycle(s)", color=ALERT,
                fontsize="x-small", transform=ax.transAxes, va="top")


@styled
def plot_pairwise_heatmap(result, *, values: str = "auto", order: str | None = "accuracy",
                          annotate: bool | None = None, cmap=None, ax=None):
    """Draw a k x k table of pairwise comparisons as a heatmap (row model vs column model).

    Parameters
    ----------
    result : PairwiseResult
        From ``pairwise_bayesian_mcnemar``, ``pairwise_mcnemar``, ``against_control`` or
        a post-hoc test.
    values : {"auto", "statistic", "pvalue", "pvalue_adjusted", "cohens_g", "p_rope"}
        Matrix to draw (cells of non-transitive cycles in ``details["cycles"]`` are outlined
        in red). ``"auto"``: P(row better than column) for a Bayesian table
        (no p-values), the adjusted p-values otherwise. ``"cohens_g"`` and ``"p_rope"`` are
        read from ``details``.
    order : {"accuracy", None}
        ``"accuracy"`` sorts the models by ``details["accuracy"]`` (best first) when the
        result has it; None keeps the result's order.
    annotate : bool, optional
        Write the values in the cells; default when k <= 15.
    cmap : str or Colormap, optional
        Default: "RdBu" for probabilities and effect sizes (centred on 0.5 or 0), "viridis_r"
        for p-values (small p-values bright).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Rows are model A, columns model B; rejected pairs of a frequentist table are marked
        with a star; a colour bar is added.

    Raises
    ------
    InvalidInputError
        Unknown ``values`` or a matrix missing from the result.

    Examples
    --------
    >>> from outperform.bayes import pairwise_bayesian_mcnemar
    >>> rng = np.random.default_rng(0)
    >>> correct = rng.random((3, 500)) < np.array([[0.9], [0.8], [0.7]])
    >>> ax = plot_pairwise_heatmap(pairwise_bayesian_mcnemar(correct, names=["x", "y", "z"]))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['x', 'y', 'z']
    """
    check_choice(values, "values", _VALUES)
    check_choice(str(order), "order", ("accuracy", "None"))
    matrix, label = _matrix(result, values)
    names = list(result.names)
    idx = np.arange(len(names))
    accuracy = result.accuracy
    if order == "accuracy" and accuracy is not None:
        idx = np.argsort(-np.asarray(accuracy, dtype=float), kind="stable")
    matrix = matrix[np.ix_(idx, idx)]
    names = [names[i] for i in idx]
    k = len(names)
    is_p = label.startswith("p-value")
    if cmap is None:
        cmap = SEQUENTIAL if is_p else DIVERGING
    if is_p or label.startswith("P("):
        vmin, vmax = 0.0, 1.0
    else:
        lim = float(np.nanmax(np.abs(matrix))) if np.isfinite(matrix).any() else 1.0
        vmin, vmax = -lim, lim
    side = min(12.0, 2.0 + 0.45 * k)
    ax, new_figure = new_axes(ax, (side + 1.2, side))
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=vmin, vmax=vmax)
    ax.figure.colorbar(image, ax=ax, label=label, fraction=0.046, pad=0.04)
    if k <= 60:
        ax.set_xticks(range(k), names, rotation=90)
        ax.set_yticks(range(k), names)
    ax.set_xlabel("model B (column)")
    ax.set_ylabel("model A (row)")
    reject = np.asarray(result.reject)[np.ix_(idx, idx)] if is_p else np.zeros((k, k), bool)
    if annotate if annotate is not None else k <= 15:
        for i in range(k):
            for j in range(k):
                if np.isfinite(matrix[i, j]):
                    star = "*" if reject[i, j] else ""
                    r, g, b, _ = image.cmap(image.norm(matrix[i, j]))
                    ink = PAPER if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else INK
                    ax.text(j, i, f"{matrix[i, j]:.2g}{star}", ha="center", va="center",
                            fontsize="x-small", color=ink)
    _mark_cycles(ax, result, names)
    ax.set_title(result.method, fontsize="medium")
    if new_figure:
        ax.figure.tight_layout()
    return ax
