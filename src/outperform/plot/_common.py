"""Helpers shared by the plots of comparison results."""
from __future__ import annotations

from ._style import ALERT, figsize


def new_axes(ax, size=(6, 3.5), rows: bool = False):
    """``(ax, False)`` for a given axes, else ``(new axes of a new figure, True)``; the size
    is the style's (:func:`._style.figsize`: ``rows=True`` for a height made of rows)."""
    if ax is not None:
        return ax, False
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=figsize(size, rows))[1], True


def region_labels(result, names) -> tuple[str, str, str]:
    """Texts of the left, ROPE and right region probabilities of a Bayesian result."""
    a, b = names
    left, right = (b, a) if result.a_better_side == "right" else (a, b)
    return (f"P({left} better) = {result.p_left:.3g}", f"P(equivalent) = {result.p_rope:.3g}",
            f"P({right} better) = {result.p_right:.3g}")


def annotate_posterior(ax, result, names) -> None:
    """Draw the ROPE on a posterior's axes, its three region probabilities and the decision."""
    low, high = result.rope
    if high > low:
        ax.axvspan(low, high, color=ALERT, alpha=0.12, lw=0, label="ROPE")
    for bound in {low, high}:
        ax.axvline(bound, color=ALERT, lw=1.2)
    # Left and right labels in the corners, the ROPE's one on a second row, so that long
    # numbers (3.02e-07) never run into each other.
    positions = ((0.02, 0.97, "left"), (0.5, 0.89, "center"), (0.98, 0.97, "right"))
    for (x, y, align), text in zip(positions, region_labels(result, names), strict=True):
        ax.text(x, y, text, transform=ax.transAxes, ha=align, va="top", fontsize="small")
    ax.set_xlabel(result.parameter.replace("A - B", f"{names[0]} - {names[1]}"))
    set_decision_title(ax, result, names)


def set_decision_title(ax, result, names) -> None:
    """Title the axes with the decision of a Bayesian result and its threshold."""
    a, b = names
    decision = {"A better": f"{a} better", "B better": f"{b} better"}.get(result.decision,
                                                                          result.decision)
    ax.set_title(f"{decision} (threshold {result.threshold:g})", fontsize="medium")
