"""Plots of the hierarchical models over many tasks (Williams 2026 §5.5, §6.2, Figure 4).

* :func:`plot_hierarchical_posterior`: posterior of delta0 and predictive density of the next
  data set's delta (hierarchical correlated t-test), with the ROPE;
* :func:`plot_shrinkage`: raw per-task estimates against the pooled (shrunk) ones, for both
  hierarchical models;
* :func:`plot_ab_posterior`: posterior of (a, b) of the hierarchical McNemar model (Williams
  Figure 4(a)), as draws or as density contours;
* :func:`plot_phi_next`: predictive density of phi_next with the ROPE (Williams Figure 4(b)).

The simplex of the per-draw (left, rope, right) probabilities of the t-test is
:func:`outperform.plot._simplex.plot_simplex` (``result.samples`` has that shape).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError
from ._common import annotate_posterior, new_axes
from ._style import ACCENT, ALERT, INK, PAPER, grey, styled


def _hierarchical_ttest_posterior(result):
    post = result.posterior
    if post is None or not hasattr(post, "delta0"):
        raise InvalidInputError(
            f"{result.method} is not a hierarchical correlated t-test result (it has no "
            "posterior draws of delta0).")
    return post


def _hyperposterior(result):
    hyper = getattr(result.posterior, "hyperposterior", None)
    if hyper is None:
        raise InvalidInputError(
            f"{result.method} is not a hierarchical McNemar result (it has no posterior of "
            "(a, b)).")
    return hyper


@styled
def plot_hierarchical_posterior(result, *, names=("A", "B"), n_points: int = 400,
                                coverage: float = 0.95, ax=None):
    """Posterior of delta0 and the predictive density of the next data set's delta.

    Both are kernel density estimates of the draws of
    :func:`outperform.bayes._hierarchical_ttest.hierarchical_correlated_ttest`; delta_next has
    heavy tails (t_nu with small nu), so the axis spans its central ``coverage`` share and
    the ROPE. The region probabilities written on the plot are those of ``result``.

    Parameters
    ----------
    result : BayesianResult
        Of ``hierarchical_correlated_ttest``.
    names : (str, str)
        Names of A and B.
    n_points : int
        Points of each density curve.
    coverage : float
        Central share of the delta_next draws the axis spans.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result`` is not a hierarchical t-test result.

    Examples
    --------
    >>> from outperform.bayes._hierarchical_ttest import hierarchical_correlated_ttest
    >>> rng = np.random.default_rng(0)
    >>> effect = rng.normal(1.0, 0.5, size=(54, 1))
    >>> a = 80 + effect + rng.normal(0, 1, size=(54, 10))
    >>> b = 80 + rng.normal(0, 1, size=(54, 10))
    >>> res = hierarchical_correlated_ttest(a, b, rho=0.1, rope=0.5, n_chains=2,
    ...                                     n_samples=1000, n_warmup=500)
    >>> ax = plot_hierarchical_posterior(res, names=("new", "old"))
    >>> ax.texts[2].get_text()
    'P(new better) = 1'
    """
    post = _hierarchical_ttest_posterior(result)
    ax, new_figure = new_axes(ax)
    delta0, nxt = post.delta0.ravel(), post.delta_next
    tail = 0.5 * (1.0 - coverage)
    low, high = np.quantile(nxt, [tail, 1.0 - tail])
    low, high = min(low, result.rope[0], delta0.min()), max(high, result.rope[1], delta0.max())
    pad = 0.03 * (high - low)
    grid = np.linspace(low - pad, high + pad, n_points)
    inside = nxt[(nxt >= grid[0]) & (nxt <= grid[-1])]
    dens_next = stats.gaussian_kde(inside)(grid) * inside.size / nxt.size
    dens0 = stats.gaussian_kde(delta0)(grid)
    ax.fill_between(grid, dens0, color=ACCENT, alpha=0.25, lw=0)
    ax.plot(grid, dens0, color=ACCENT, lw=1.5, label="delta0 (mean difference)")
    ax.plot(grid, dens_next, color=INK, lw=1.5, label="delta on a new data set")
    ax.set_xlim(grid[0], grid[-1])
    ax.set_ylim(0, 1.35 * max(dens0.max(), dens_next.max()))
    ax.set_ylabel("posterior density")
    annotate_posterior(ax, result, names)
    ax.set_xlabel(f"mean difference {names[0]} - {names[1]}")
    ax.legend(loc="center right", fontsize="small", frameon=False)
    if new_figure:
        ax.figure.tight_layout()
    return ax


@styled
def plot_shrinkage(result, *, names=("A", "B"), task_names=None, max_tasks: int = 60,
                   ax=None):
    """Raw per-task estimates and the pooled ones of a hierarchical model, task by task.

    Each task is a row: an open circle at its raw estimate (mean fold difference, or
    n01 / (n01 + n10)), an arrow to its posterior mean under the hierarchical model (filled,
    with a 95% interval for the t-test, +-2 sd for McNemar's phi), and a vertical line at the
    pooled centre (E[delta0], or phi_bar).

    Parameters
    ----------
    result : BayesianResult
        Of ``hierarchical_correlated_ttest`` or ``hierarchical_mcnemar``.
    names : (str, str)
        Names of A and B, for the axis label.
    task_names : sequence of str, optional
        Labels (default: the names stored in the result).
    max_tasks : int
        Draw at most this many tasks (those whose estimates move most).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result`` is neither hierarchical model.

    Examples
    --------
    Williams (2026) Table 1 (A = GNN, B = LLM): tr-en, with the fewest discordant pairs and
    the most extreme raw phi, moves most.

    >>> from outperform.bayes._hierarchical_mcnemar import hierarchical_mcnemar
    >>> res = hierarchical_mcnemar([63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44],
    ...                            [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46],
    ...                            names=["de-en", "da-en", "es-en", "fr-en", "it-en", "id-en",
    ...                                   "nl-en", "sv-en", "tr-en", "tr-de", "zh-en"],
    ...                            n_samples=0)
    >>> ax = plot_shrinkage(res, names=("GNN", "LLM"), max_tasks=1)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['tr-en']
    """
    d = result.details
    if "shrunk_means" in d:
        raw, pooled = np.asarray(d["raw_means"]), np.asarray(d["shrunk_means"])
        low, high = np.asarray(d["shrunk_ci95"]).T
        centre, labels = d["delta0_mean"], d["names"]
        what = f"mean difference {names[0]} - {names[1]}"
    elif "shrunk_phi" in d:
        raw, pooled = np.asarray(d["raw_phi"], float), np.asarray(d["shrunk_phi"])
        sd = np.asarray(d["shrunk_phi_sd"])
        low, high = pooled - 2 * sd, pooled + 2 * sd
        centre, labels = result.posterior_mean, d["tasks"]
        what = f"phi ({names[0]}'s share of the discordant errors)"
    else:
        raise InvalidInputError(f"{result.method} has no per-task shrunk estimates to draw.")
    labels = list(task_names) if task_names is not None else list(labels)
    if len(labels) != raw.size:
        raise InvalidInputError(f"task_names has {len(labels)} entries for {raw.size} tasks.")
    order = np.arange(raw.size)
    if raw.size > max_tasks:
        moved = np.abs(np.nan_to_num(raw, nan=centre) - pooled)
        order = np.sort(np.argsort(moved)[::-1][:max_tasks])
    order = order[np.argsort(pooled[order])]
    ax, new_figure = new_axes(ax, size=(6, 1.0 + 0.22 * order.size), rows=True)
    rows = np.arange(order.size)
    ax.hlines(rows, low[order], high[order], color=ACCENT, lw=1.2, alpha=0.6)
    ax.plot(raw[order], rows, "o", mfc=PAPER, mec=grey(0.3), label="raw estimate")
    ax.plot(pooled[order], rows, "o", color=ACCENT, label="pooled (shrunk) estimate")
    for r, j in zip(rows, order):
        if np.isfinite(raw[j]) and abs(raw[j] - pooled[j]) > 0:
            ax.annotate("", xy=(pooled[j], r), xytext=(raw[j], r),
                        arrowprops=dict(arrowstyle="->", color=grey(0.5), lw=0.8))
    ax.axvline(centre, color=INK, lw=1, ls="--", label="pooled centre")
    ax.set_yticks(rows, [labels[j] for j in order], fontsize="small")
    ax.set_xlabel(what)
    ax.set_ylim(-0.7, order.size - 0.3)
    ax.legend(loc="lower right", fontsize="small")
    if new_figure:
        ax.figure.tight_layout()
    return ax


@styled
def plot_ab_posterior(result, *, kind: str = "samples", n_samples: int = 10_000,
                      random_state=0, quantile: float = 0.978, ax=None):
    """Posterior of (a, b) of the hierarchical McNemar model (Williams 2026 Figure 4(a)).

    Parameters
    ----------
    result : BayesianResult
        Of :func:`outperform.bayes._hierarchical_mcnemar.hierarchical_mcnemar`.
    kind : {"samples", "contour"}
        Draws from the quadrature grid (as the figure), or contours of the posterior density
        in (a, b) (at 50%, 10%, 1%, 0.1% and 0.01% of the height at the mode).
    n_samples : int
        Number of draws for ``kind="samples"``.
    random_state : int, optional
        Seed of the draws.
    quantile : float
        The axes end at this quantile of a and of b (the figure leaves out the 2.2% of its
        draws beyond the top right corner).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result`` is not a hierarchical McNemar result, or ``kind`` is unknown.

    Examples
    --------
    >>> from outperform.bayes._hierarchical_mcnemar import hierarchical_mcnemar
    >>> res = hierarchical_mcnemar([63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44],
    ...                            [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46],
    ...                            n_samples=0)
    >>> ax = plot_ab_posterior(res, n_samples=1000)
    >>> ax.get_xlabel(), ax.get_ylabel(), len(ax.lines[0].get_xdata())
    ('a', 'b', 1000)
    """
    hyper = _hyperposterior(result)
    if kind not in ("samples", "contour"):
        raise InvalidInputError(f"kind must be 'samples' or 'contour', got {kind!r}.")
    ab = hyper.sample(n_samples, random_state)
    top = max(np.quantile(ab[:, 0], quantile), np.quantile(ab[:, 1], quantile))
    ax, new_figure = new_axes(ax, size=(4.5, 4.5))
    if kind == "samples":
        ax.plot(ab[:, 0], ab[:, 1], ".", ms=2, color=INK, alpha=0.4)
    else:
        a = np.linspace(top / 400, top, 300)
        grid_a, grid_b = np.meshgrid(a, a, indexing="ij")
        dens = hyper.density_ab(grid_a, grid_b)
        levels = [1e-4, 1e-3, 1e-2, 1e-1, 0.5]
        cs = ax.contour(grid_a, grid_b, dens, levels=levels, colors=INK, linewidths=1)
        ax.clabel(cs, fmt={lv: f"{lv:g}" for lv in levels}, fontsize="x-small")
    ax.plot([0, top], [0, top], color=ALERT, lw=0.8, ls=":", label="a = b (phi = 0.5)")
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_aspect("equal")
    ax.set_xlabel("a")
    ax.set_ylabel("b")
    ax.legend(loc="upper left", fontsize="small")
    ax.set_title("posterior of (a, b)", fontsize="medium")
    if new_figure:
        ax.figure.tight_layout()
    return ax


@styled
def plot_phi_next(result, *, names=("A", "B"), n_points: int = 400, ax=None):
    """Predictive density of phi_next with the ROPE (Williams 2026 Figure 4(b)).

    Parameters
    ----------
    result : BayesianResult
        Of :func:`outperform.bayes._hierarchical_mcnemar.hierarchical_mcnemar`.
    names : (str, str)
        Names of A and B (phi < 0.5 favours A).
    n_points : int
        Points of the density curve.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        ``result`` is not a hierarchical McNemar result.

    Examples
    --------
    >>> from outperform.bayes._hierarchical_mcnemar import hierarchical_mcnemar
    >>> res = hierarchical_mcnemar([63, 159, 175, 180, 202, 185, 195, 156, 64, 113, 44],
    ...                            [66, 198, 149, 167, 167, 193, 176, 133, 30, 103, 46],
    ...                            n_samples=0)
    >>> ax = plot_phi_next(res, names=("GNN", "LLM"))
    >>> [t.get_text() for t in ax.texts]
    ['P(GNN better) = 0.0525', 'P(equivalent) = 0.736', 'P(LLM better) = 0.212']
    """
    _hyperposterior(result)
    mix = result.posterior
    ax, new_figure = new_axes(ax)
    low, high = mix.ppf([0.0005, 0.9995])
    low, high = min(low, result.rope[0]), max(high, result.rope[1])
    pad = 0.05 * (high - low)
    grid = np.linspace(max(low - pad, 1e-6), min(high + pad, 1 - 1e-6), n_points)
    dens = mix.pdf(grid)
    ax.plot(grid, dens, color=INK, lw=1.5)
    ax.set_xlim(grid[0], grid[-1])
    ax.set_ylim(0, 1.35 * dens.max())
    ax.set_ylabel("predictive density")
    annotate_posterior(ax, result, names)
    ax.set_xlabel(f"phi_next (share of {names[0]}'s errors among the discordant pairs)")
    if new_figure:
        ax.figure.tight_layout()
    return ax
