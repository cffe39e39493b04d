"""Figures of runs x tasks comparisons in rliable's conventions (Agarwal et al. 2021)."""
from __future__ import annotations

from .._validation import InvalidInputError
from ._common import new_axes
from ._style import PALETTE, ACCENT, INK, figsize, grey, styled

_LABELS = {"mean": "Mean", "median": "Median", "iqm": "IQM (interquartile mean)",
           "optimality_gap": "Optimality gap (lower is better)"}


def _colours(models):
    return {m: PALETTE[i % len(PALETTE)] for i, m in enumerate(models)}


@styled
def plot_interval_estimates(result, *, statistic: str = "iqm", ax=None):
    """One aggregate of every model as a point with its bootstrap interval (a bar).

    Parameters
    ----------
    result : RunsComparison
        From :func:`outperform.compare.compare_runs`.
    statistic : str
        One of the statistics the result holds (``"mean"``, ``"median"``, ``"iqm"``,
        ``"optimality_gap"``).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InvalidInputError
        A statistic the result does not hold.
    """
    held = list(next(iter(result.aggregates.values())))
    if statistic not in held:
        raise InvalidInputError(f"statistic must be one of {held}, got {statistic!r}.")
    models = list(result.aggregates)
    ax, _ = new_axes(ax, (5, 0.5 + 0.45 * len(models)), rows=True)
    colours = _colours(models)
    for y, m in enumerate(models):
        e = result.aggregates[m][statistic]
        ax.barh(y, e.high - e.low, left=e.low, height=0.6, color=colours[m], alpha=0.75)
        ax.plot([e.estimate] * 2, [y - 0.3, y + 0.3], color=INK, lw=1.5)
    ax.set_yticks(range(len(models)), models)
    ax.invert_yaxis()
    ax.set_xlabel(f"{_LABELS.get(statistic, statistic)}, normalised {result.metric}")
    ax.set_title(f"{100 * result.confidence_level:g}% {result.bootstrap.split(' (')[0]} "
                 "intervals", fontsize="medium")
    ax.grid(axis="x", alpha=0.3)
    return ax


@styled
def plot_performance_profiles(result, *, ax=None):
    """Performance profiles: fraction of runs scoring above tau, with pointwise bands.

    Parameters
    ----------
    result : RunsComparison
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    models = list(result.profiles)
    ax, _ = new_axes(ax, (6, 4))
    colours = _colours(models)
    for m in models:
        p = result.profiles[m]
        ax.plot(p.taus, p.fraction, color=colours[m], lw=2, label=m)
        ax.fill_between(p.taus, p.low, p.high, color=colours[m], alpha=0.2, lw=0)
    ax.set_xlabel(f"normalised {result.metric} (\u03c4)")
    ax.set_ylabel("fraction of runs with score > \u03c4")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title(f"Performance profiles, {100 * result.confidence_level:g}% bands",
                 fontsize="medium")
    return ax


@styled
def plot_probability_of_improvement(result, *, ax=None):
    """Average probability of improvement P(X > Y) of each pair with its interval.

    Parameters
    ----------
    result : RunsComparison
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Raises
    ------
    InvalidInputError
        A result with a single model (no pair).
    """
    pairs = list(result.improvements)
    if not pairs:
        raise InvalidInputError("the result has no pair of models to plot.")
    ax, _ = new_axes(ax, (5, 0.5 + 0.45 * len(pairs)), rows=True)
    for y, (x_model, y_model) in enumerate(pairs):
        e = result.improvements[(x_model, y_model)]
        ax.barh(y, e.high - e.low, left=e.low, height=0.6, color=ACCENT, alpha=0.6)
        ax.plot([e.estimate] * 2, [y - 0.3, y + 0.3], color=INK, lw=1.5)
    ax.axvline(0.5, color=grey(0.5), ls="--", lw=1)
    ax.set_yticks(range(len(pairs)), [f"P({x} > {y})" for x, y in pairs])
    ax.invert_yaxis()
    ax.set_xlim(min(0.0, min(e.low for e in result.improvements.values())), 1.0)
    ax.set_xlabel("probability of improvement (0.5: no difference)")
    ax.grid(axis="x", alpha=0.3)
    return ax


@styled
def plot_run_aggregates(result, *, statistics=None):
    """rliable's summary figure: one panel per aggregate, models as rows; a new figure.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt
    statistics = list(statistics or next(iter(result.aggregates.values())))
    fig, axes = plt.subplots(1, len(statistics), sharey=True, squeeze=False,
                             figsize=figsize((3.2 * len(statistics),
                                              0.8 + 0.45 * len(result.models)), rows=True))
    for ax, s in zip(axes[0], statistics):
        plot_interval_estimates(result, statistic=s, ax=ax)
        ax.set_title(_LABELS.get(s, s), fontsize="medium")
        ax.set_xlabel("")
    fig.supxlabel(f"normalised {result.metric}; {100 * result.confidence_level:g}% "
                  f"{result.bootstrap}", fontsize="small")
    fig.tight_layout()
    return fig


@styled
def plot_variance_components(result, *, ax=None):
    """Share of the variance of one score from each source (task, model x task, seed, ...).

    Parameters
    ----------
    result : VarianceComponents
        From :func:`outperform.compare.variance_components`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    shares = result.shares
    ax, _ = new_axes(ax, (5, 0.5 + 0.45 * len(shares)), rows=True)
    ax.barh(range(len(shares)), list(shares.values()), color=ACCENT, alpha=0.75)
    for y, share in enumerate(shares.values()):
        ax.text(share, y, f" {share:.1%}", va="center", fontsize="small")
    ax.set_yticks(range(len(shares)), list(shares))
    ax.invert_yaxis()
    ax.set_xlim(0, 1.12)
    ax.set_xlabel(f"share of the variance of {result.metric} (REML)")
    ax.grid(axis="x", alpha=0.3)
    return ax


@styled
def plot_sample_efficiency(result, *, ax=None):
    """Sample-efficiency curves: an aggregate against the step, with pointwise bands.

    Parameters
    ----------
    result : SampleEfficiency
        From :func:`outperform.compare.sample_efficiency`.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes
    """
    ax, _ = new_axes(ax, (6, 4))
    colours = _colours(result.models)
    for m in result.models:
        ax.plot(result.steps[m], result.estimate[m], color=colours[m], lw=2, label=m)
        ax.fill_between(result.steps[m], result.low[m], result.high[m], color=colours[m],
                        alpha=0.2, lw=0)
    ax.set_xlabel("step")
    scale = "" if result.normalization.startswith("none") else "normalised "
    ax.set_ylabel(f"{_LABELS.get(result.statistic, result.statistic)}, {scale}{result.metric}")
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title(f"Sample efficiency, {100 * result.confidence_level:g}% "
                 f"{result.bootstrap.split(' (')[0]} bands", fontsize="medium")
    return ax
