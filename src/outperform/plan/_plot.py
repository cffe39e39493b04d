"""Power curves drawn with matplotlib (imported on use)."""
from __future__ import annotations

__all__ = ["plot_power_curve"]


def plot_power_curve(curves, *, target: float | None = 0.8, ax=None):
    """Draw one or several power curves from :func:`power_curve` on one axes.

    Parameters
    ----------
    curves : DataFrame or dict of str -> DataFrame
        Frames of :func:`power_curve` sharing their x variable; a dict labels each curve.
    target : float or None
        Draw the target power as a dashed line (and alpha as a dotted one).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    if not isinstance(curves, dict):
        curves = {None: curves}
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 4))
    first = next(iter(curves.values()))
    x = first.columns[0]
    for label, frame in curves.items():
        ax.plot(frame[x], frame["power"], marker="o", markersize=3, label=label)
    if target is not None:
        ax.axhline(target, ls="--", color="grey", lw=1, label=f"target power {target:g}")
    ax.axhline(first.attrs.get("alpha", 0.05), ls=":", color="grey", lw=1,
               label=f"alpha {first.attrs.get('alpha', 0.05):g}")
    unit = {"n": first.attrs.get("n_unit", "n"), "effect": first.attrs.get("effect_name")}
    ax.set_xlabel(unit.get(x) or x)
    ax.set_ylabel("power")
    ax.set_ylim(0, 1.02)
    title = first.attrs.get("test", "")
    if len(curves) == 1:
        title += f": {first.attrs.get('method', '')}"
    ax.set_title(title, fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return ax
