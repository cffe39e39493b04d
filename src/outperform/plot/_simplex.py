"""Posterior draws of (theta_left, theta_rope, theta_right) on the probability simplex.

The Bayesian sign and signed-rank tests (Benavoli et al. 2017) give draws of three
probabilities that sum to 1. Each draw is a point of a triangle in barycentric coordinates:
"B better" at the bottom left, "A better" at the bottom right, "equivalent" at the top. The
lines from the centre to the middles of the sides split the triangle into the three regions
where that theta is the largest, whose posterior mass is P(left), P(rope), P(right). The
draws are drawn as a hexagonal-bin density (fast for any number of draws, like baycomp) or
as a scatter of at most ``max_points`` of them.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, check_choice, check_random_state
from ._common import new_axes, region_labels, set_decision_title
from ._style import ACCENT, DENSITY, INK, SECOND, styled

# Vertices (x, y) of the triangle: left (B better), rope (top), right (A better).
_VERTICES = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])


def barycentric_to_xy(theta) -> np.ndarray:
    """Plane coordinates of points given by their (theta_left, theta_rope, theta_right).

    Examples
    --------
    >>> barycentric_to_xy([[1, 0, 0], [0, 0, 1], [1/3, 1/3, 1/3]]).round(3)
    array([[0.   , 0.   ],
           [1.   , 0.   ],
           [0.5  , 0.289]])
    """
    return np.asarray(theta, dtype=float) @ _VERTICES


@styled
def plot_simplex(result, *, names=("A", "B"), kind: str = "hexbin", max_points: int = 5000,
                 gridsize: int = 40, random_state=0, ax=None):
    """Draw the posterior draws of a Bayesian sign or signed-rank test in the simplex.

    Parameters
    ----------
    result : BayesianResult
        With ``samples`` of shape (n, 3): (theta_left, theta_rope, theta_right) draws, as
        returned by ``bayesian_sign_test`` and ``bayesian_signed_rank_test``.
    names : (str, str)
        Names of A and B for the corner labels.
    kind : {"hexbin", "scatter"}
        Hexagonal-bin density of all draws, or a scatter of a random subset.
    max_points : int
        Largest number of draws in a scatter.
    gridsize : int
        Hexagons across the triangle.
    random_state : None, int or numpy.random.Generator
        Chooses the scattered subset.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Corners labelled with the region probabilities ("B better" bottom left, "equivalent"
        top, "A better" bottom right, or the other way round if ``a_better_side="left"``).

    Raises
    ------
    InvalidInputError
        No (n, 3) samples in the result, unknown kind.

    Examples
    --------
    >>> from outperform.bayes import bayesian_signed_rank_test
    >>> a = [0.815, 0.92, 0.77, 0.85, 0.90, 0.68, 0.88, 0.95, 0.792, 0.83]
    >>> b = [0.80, 0.90, 0.775, 0.81, 0.86, 0.695, 0.85, 0.91, 0.79, 0.805]
    >>> res = bayesian_signed_rank_test(a, b, rope=0.01, random_state=0)
    >>> ax = plot_simplex(res, names=("LgR", "MLP"))
    >>> [t.get_text() for t in ax.texts]
    ['P(MLP better) = 0.00012', 'P(equivalent) = 0.0593', 'P(LgR better) = 0.941']
    """
    check_choice(kind, "kind", ("hexbin", "scatter"))
    samples = getattr(result, "samples", None)
    if samples is None or np.ndim(samples) != 2 or np.shape(samples)[1] != 3:
        raise InvalidInputError(
            f"{getattr(result, 'method', 'this result')} has no (n, 3) posterior draws of "
            "(theta_left, theta_rope, theta_right) to place in the simplex; it needs a "
            "Bayesian sign or signed-rank test result."
        )
    ax, new_figure = new_axes(ax, (5, 4.6))
    xy = barycentric_to_xy(samples)
    if kind == "hexbin":
        ax.hexbin(xy[:, 0], xy[:, 1], gridsize=gridsize, mincnt=1, cmap=DENSITY,
                  extent=(0, 1, 0, np.sqrt(3) / 2), linewidths=0)
    else:
        rng = check_random_state(random_state)
        if len(xy) > max_points:
            xy = xy[rng.choice(len(xy), max_points, replace=False)]
        ax.scatter(xy[:, 0], xy[:, 1], s=2, alpha=0.3, color=ACCENT, linewidths=0)
    triangle = np.vstack([_VERTICES, _VERTICES[:1]])
    ax.plot(triangle[:, 0], triangle[:, 1], color=INK, lw=1)
    centre = _VERTICES.mean(axis=0)
    for i, j in ((0, 1), (1, 2), (2, 0)):
        middle = (_VERTICES[i] + _VERTICES[j]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color=SECOND, lw=1)
    offsets = ((0.0, -0.04, "center", "top"), (0.0, 0.03, "center", "bottom"),
               (0.0, -0.04, "center", "top"))
    labels = region_labels(result, names)
    for (x, y), (dx, dy, ha, va), text in zip(_VERTICES, offsets, labels):
        ax.text(x + dx, y + dy, text, ha=ha, va=va, fontsize="small")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.12, np.sqrt(3) / 2 + 0.12)
    ax.set_aspect("equal")
    ax.axis("off")
    set_decision_title(ax, result, names)
    if new_figure:
        ax.figure.tight_layout()
    return ax
