"""Coverage of rank confidence sets in simulation (:func:`outperform.simulate.rank_set_coverage`)."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ..results._rank_coverage import RankSetCoverage
from ..results._rank_sets import KINDS
from ._style import ACCENT, ALERT, figsize, grey, styled

_LABELS = {"simultaneous": "simultaneous\n(Mogstad et al.)",
           "marginal": "marginal\n(Mogstad et al.)",
           "percentile": "percentile bootstrap\n(no guarantee)"}


@styled
def plot_rank_set_coverage(result: RankSetCoverage, *, ax=None):
    """Joint coverage of each kind of rank set, ± 2 Monte Carlo errors, and 1 - alpha.

    Each kind gets a point at its joint coverage (all models' true ranks held at once) with
    a bar of ± 2 Monte Carlo standard errors, and small grey marks at each model's own
    coverage; the dashed line is the level 1 - alpha the simultaneous sets promise.

    Parameters
    ----------
    result : RankSetCoverage
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result`` is not a :class:`~outperform.results.RankSetCoverage`.
    """
    if not isinstance(result, RankSetCoverage):
        raise InvalidInputError("plot_rank_set_coverage needs the RankSetCoverage of "
                                "outperform.simulate.rank_set_coverage.")
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=figsize((6.4, 4)))
    kinds = [k for k in KINDS if k in result.covered]
    x = np.arange(len(kinds))
    joint = np.array([result.coverage(k) for k in kinds])
    err = 2 * np.array([result.monte_carlo_error(k) for k in kinds])
    for i, kind in enumerate(kinds):
        per_model = result.marginal_coverage(kind)
        ax.scatter(np.full(per_model.size, i + 0.18), per_model, s=10, color=grey(0.6),
                   label="one model's own coverage" if i == 0 else None, zorder=2)
    ax.errorbar(x, joint, yerr=err, fmt="o", color=ACCENT, capsize=4, ms=7, zorder=3,
                label="all models at once (± 2 MC s.e.)")
    for i, kind in enumerate(kinds):
        ax.annotate(f"{joint[i]:.3f}\nmean set: {result.sizes[kind].mean():.1f} ranks",
                    (x[i] - 0.08, joint[i]), ha="right", va="center", fontsize="small")
    level = 1 - result.alpha
    ax.axhline(level, ls="--", color=ALERT, lw=1, label=f"level {level:g}")
    ax.set_xticks(x, [_LABELS[k] for k in kinds])
    ax.set_xlim(-0.8, len(kinds) - 0.5)
    low = min(joint.min() - err.max(), min(result.marginal_coverage(k).min() for k in kinds))
    ax.set_ylim(max(0.0, low - 0.05), 1.01)
    ax.set_ylabel("coverage of the true ranks")
    ax.set_title(f"{len(result.means)} models, {result.n_items} items, "
                 f"{result.n_replications} replications", fontsize="medium")
    ax.legend(loc="lower left", fontsize="small", frameon=False)
    return ax
