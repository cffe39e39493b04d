"""Curves of simulation studies: AUC of tests, power, replicability.

Each function draws a tidy table of :mod:`outperform.simulate` (one row per point and test)
with bands of +-2 Monte Carlo standard errors:

* :func:`plot_auc_curves`: AUC against the number of data sets N or the test-set size n
  (Lacoste et al. 2012, Figures 3-5), from :func:`outperform.simulate._auc.lacoste_auc`.
* :func:`plot_power_curves`: rejection rate against delta_acc, one line per test and number
  of CV runs (Corani & Benavoli 2015, Figure 2), from
  :func:`outperform.simulate._corani.corani_power` or :func:`outperform.simulate._study.power`.
* :func:`plot_replicability`: mean p-value with R(p), and rejection rate with R(e), against
  the selection bias k (Demšar 2006, Figures 3-5), from
  :func:`outperform.simulate._replicability.demsar_study`.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError
from ._style import figsize, grey, styled

_LINESTYLES = ("-", "--", ":", "-.")


def _require(table, columns, what):
    missing = [c for c in columns if c not in getattr(table, "columns", ())]
    if missing:
        raise InvalidInputError(
            f"{what} needs a table with the columns {list(columns)}; missing {missing}."
        )
    if len(table) == 0:
        raise InvalidInputError(f"{what} needs a non-empty table.")


def _axes(ax, size=(6, 4)):
    if ax is not None:
        return ax, False
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize(size))
    return ax, True


def _band(ax, x, y, se, **style):
    line, = ax.plot(x, y, marker="o", ms=3, **style)
    if se is not None and np.all(np.isfinite(se)):
        ax.fill_between(x, y - 2 * se, y + 2 * se, color=line.get_color(), alpha=0.15, lw=0)
    return line


@styled
def plot_auc_curves(table, *, x: str = "n_data_sets", ax=None):
    """AUC of each test against N (data sets) or n (test-set size), Lacoste Figures 3-5.

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``test``, ``auc``, ``mc_se`` and ``x`` (e.g. from ``lacoste_auc``); a
        ``context`` column names the title.
    x : {"n_data_sets", "n_test"}
        Horizontal axis; ``"n_test"`` is drawn on a log scale.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        One line per test with a +-2 standard-error band; a dotted line at AUC = 0.5.

    Raises
    ------
    InvalidInputError
        Missing columns or an empty table.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"test": ["sign", "sign"], "n_data_sets": [5, 10],
    ...                   "auc": [0.7, 0.8], "mc_se": [0.01, 0.01]})
    >>> ax = plot_auc_curves(t)
    >>> ax.get_lines()[0].get_ydata().tolist()
    [0.7, 0.8]
    """
    _require(table, ("test", "auc", "mc_se", x), "plot_auc_curves")
    ax, new = _axes(ax)
    labels = {"sign": "sign test", "wilcoxon": "Wilcoxon signed-rank",
              "poisson_binomial": "Poisson-binomial"}
    for test, rows in table.groupby("test", sort=False):
        rows = rows.sort_values(x)
        _band(ax, rows[x].to_numpy(float), rows["auc"].to_numpy(float),
              rows["mc_se"].to_numpy(float), label=labels.get(test, test))
    ax.axhline(0.5, color=grey(0.5), lw=0.8, ls=":")
    if x == "n_test":
        ax.set_xscale("log")
    ax.set_xlabel({"n_data_sets": "number of data sets N",
                   "n_test": "test-set size n"}.get(x, x))
    ax.set_ylabel("AUC")
    if "context" in table.columns:
        ax.set_title(f"{table['context'].iloc[0]} context", fontsize="medium")
    ax.legend(fontsize="small", frameon=False)
    if new:
        ax.figure.tight_layout()
    return ax


@styled
def plot_power_curves(table, *, x: str = "delta_acc", ax=None):
    """Rejection rate against the effect, one line per test and number of runs (Corani Fig. 2).

    Parameters
    ----------
    table : pandas.DataFrame
        Columns ``test``, ``rejection_rate``, ``mc_se``, ``x``, and optionally ``n_runs``
        (line style) and ``alpha`` (drawn as a horizontal line).
    x : str
        Column of the effect (``"delta_acc"`` for Corani's study, ``"effect"`` for
        :func:`outperform.simulate._study.power`).
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        Missing columns or an empty table.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"test": ["Poisson"] * 2, "n_runs": [10, 10], "delta_acc": [0, 0.05],
    ...                   "rejection_rate": [0.0, 0.7], "mc_se": [0.0, 0.02], "alpha": 0.05})
    >>> ax = plot_power_curves(t)
    >>> ax.get_lines()[0].get_label(), list(ax.get_lines()[1].get_ydata())
    ('Poisson, 10 runs', [0.05, 0.05])
    """
    _require(table, ("test", "rejection_rate", "mc_se", x), "plot_power_curves")
    ax, new = _axes(ax)
    groups = ["test", "n_runs"] if "n_runs" in table.columns else ["test"]
    runs = sorted(table["n_runs"].unique()) if "n_runs" in table.columns else [None]
    colours = {}
    for key, rows in table.groupby(groups, sort=False):
        test, m = (key if isinstance(key, tuple) else (key,)) + (None,) * (2 - len(groups))
        rows = rows.sort_values(x)
        label = test if m is None else f"{test}, {m} run{'s' if m != 1 else ''}"
        style = {"ls": _LINESTYLES[runs.index(m) % len(_LINESTYLES)], "label": label}
        if test in colours:
            style["color"] = colours[test]
        line = _band(ax, rows[x].to_numpy(float), rows["rejection_rate"].to_numpy(float),
                     rows["mc_se"].to_numpy(float), **style)
        colours.setdefault(test, line.get_color())
    if "alpha" in table.columns:
        ax.axhline(float(table["alpha"].iloc[0]), color=grey(0.5), lw=0.8, ls=":")
    ax.set_xlabel("δ_acc" if x == "delta_acc" else x)
    ax.set_ylabel("rejection rate (power; type I error at 0)")
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize="small", frameon=False)
    if new:
        ax.figure.tight_layout()
    return ax


@styled
def plot_replicability(table, *, kind: str | None = None, axes=None):
    """Mean p-value and R(p), rejection rate and R(e), against the bias k (Demšar Figs. 3-5).

    Parameters
    ----------
    table : pandas.DataFrame
        From :func:`outperform.simulate._replicability.demsar_study`: columns ``k``,
        ``test``, ``mean_pvalue``, ``replicability_p``, ``rejection_rate``, ``mc_se``,
        ``replicability_e`` (and ``kind``).
    kind : {"two classifiers", "multiple classifiers"}, optional
        Keep only these tests.
    axes : sequence of two matplotlib Axes, optional

    Returns
    -------
    ndarray of two Axes
        Left: mean p-values (solid; axis upside down, as Demšar, so the curves rise with
        power) and R(p) (dashed, right axis). Right: rejection rates (solid) and R(e)
        (dashed, right axis).

    Raises
    ------
    InvalidInputError
        Missing columns, an empty selection.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"k": [0, 10], "test": "sign test", "mean_pvalue": [0.4, 0.1],
    ...                   "replicability_p": [0.9, 0.95], "rejection_rate": [0.1, 0.5],
    ...                   "mc_se": [0.01, 0.02], "replicability_e": [0.82, 0.5]})
    >>> axes = plot_replicability(t)
    >>> bool(axes[0].yaxis_inverted()), len(axes)
    (True, 2)
    """
    _require(table, ("k", "test", "mean_pvalue", "replicability_p", "rejection_rate", "mc_se",
                     "replicability_e"), "plot_replicability")
    if kind is not None:
        table = table[table["kind"] == kind]
        if len(table) == 0:
            raise InvalidInputError(f"no test of kind {kind!r} in the table.")
    if axes is None:
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=figsize((10, 4)))
        new = True
    else:
        new = False
    left, right = axes
    twin_l, twin_r = left.twinx(), right.twinx()
    for test, rows in table.groupby("test", sort=False):
        rows = rows.sort_values("k")
        k = rows["k"].to_numpy(float)
        line = _band(left, k, rows["mean_pvalue"].to_numpy(float), None, label=test)
        twin_l.plot(k, rows["replicability_p"], ls="--", color=line.get_color())
        _band(right, k, rows["rejection_rate"].to_numpy(float), rows["mc_se"].to_numpy(float),
              color=line.get_color(), label=test)
        twin_r.plot(k, rows["replicability_e"], ls="--", color=line.get_color())
    left.invert_yaxis()
    left.set_ylabel("mean p-value (solid)")
    twin_l.set_ylabel("R(p) (dashed)")
    right.set_ylabel("rejection rate (solid)")
    twin_r.set_ylabel("R(e) (dashed)")
    for ax in (left, right):
        ax.set_xlabel("selection bias k")
    left.legend(fontsize="small", frameon=False)
    if new:
        axes[0].figure.tight_layout()
    return np.asarray([left, right])
