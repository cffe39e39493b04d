"""The figures of a report: CD diagrams, posteriors, simplex plots, wins distributions.

Each figure is described first (``ReportFigure``: what it shows and how to draw it) and drawn
only when a renderer saves it, so that a renderer that needs no figures pays nothing. Figures
are drawn by :mod:`outperform.plot` and closed as soon as they are saved.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable

from .._atomic import atomic_path
from ._sections import model_names

KINDS = ("cd", "posterior", "simplex", "wins", "ranks")
#: Figures written to files beside the Markdown and LaTeX reports (the HTML page draws all).
FILE_KINDS = ("cd", "ranks")
#: A rank-set plot of more models shows the best ones only (the table lists them all).
RANKS_SHOWN = 60


@dataclass(frozen=True)
class ReportFigure:
    """One figure of a report.

    Attributes
    ----------
    key : str
        Identifier safe in file names, e.g. ``"cd-nemenyi"``.
    kind : {"cd", "posterior", "simplex", "wins", "ranks"}
    caption : str
    draw : callable
        Returns the matplotlib Axes drawn into a new figure.
    """

    key: str
    kind: str
    caption: str
    draw: Callable


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "figure"


def _cd(res):
    from ..plot import cd_diagram_from_result

    return cd_diagram_from_result(res)


def _posterior(res, names):
    from ..plot import plot_posterior

    return plot_posterior(res, names=names)


def _simplex(res, names):
    from ..plot import plot_simplex

    return plot_simplex(res, names=names)


def _wins(res, names):
    from ..plot import plot_poisson_binomial

    return plot_poisson_binomial(res, names=names)


def _ranks(board, top):
    from ..plot import plot_rank_sets

    return plot_rank_sets(board, top=top)


def leaderboard_figures(board) -> list[ReportFigure]:
    """The rank-set plot of a leaderboard (:func:`outperform.plot.plot_rank_sets`)."""
    k = len(board.names)
    top = RANKS_SHOWN if k > RANKS_SHOWN else None
    level = f"{100 * board.rank_sets.confidence_level:g}%"
    shown = f" The {RANKS_SHOWN} best-estimated of the {k} models are shown." if top else ""
    return [ReportFigure(
        "ranks", "ranks",
        f"Rank confidence sets at {level}, models sorted by mean {board.metric}: light bars "
        "the simultaneous sets (Mogstad et al. 2024), dark lines the marginal sets, ticks "
        "the percentile bootstrap intervals (no coverage guarantee), dots the ranks of the "
        f"estimates; colours are the tiers.{shown}", partial(_ranks, board, top))]


def posthoc_figures(key: str, res) -> list[ReportFigure]:
    """The critical-difference diagram of a rank-based post-hoc result (none otherwise)."""
    if res.average_ranks is None or (res.control is not None and not res.critical_difference):
        return []
    form = ("methods outside the thick interval around the control differ from it"
            if res.control is not None else
            "methods joined by a thick bar, or sharing a letter after their names (compact "
            "letter display, Piepho 2004), are not significantly different")
    cd = f", CD = {res.critical_difference:.3f}" if res.critical_difference else ""
    holes = (" The ranks come from incomplete data: each model is ranked among the models "
             "present on each data set." if res.incomplete_data else "")
    return [ReportFigure(
        f"cd-{_slug(key)}", "cd",
        f"Critical-difference diagram, {res.method} at α = {res.alpha}{cd} (Demšar 2006, "
        f"Figure 1): average ranks, best on the right; {form}.{holes}", partial(_cd, res))]


def bayesian_figures(key: str, res, names=("A", "B"), kinds=KINDS) -> list[ReportFigure]:
    """Posterior, simplex and wins figures of a Bayesian result, of ``kinds``, in order."""
    out = []
    samples = getattr(res, "samples", None)
    ndim = None if samples is None else getattr(samples, "ndim", 0)
    # A continuous scipy posterior (not e.g. the Poisson test's distribution of wins).
    continuous = all(hasattr(res.posterior, m) for m in ("pdf", "ppf"))
    if "posterior" in kinds and (continuous or ndim == 1 or res.degenerate):
        out.append(ReportFigure(
            f"posterior-{_slug(key)}", "posterior",
            f"Posterior of the {res.parameter.replace('A - B', ' - '.join(names))} "
            f"({res.method}); the shaded band is the ROPE (Williams 2026 §5.2).",
            partial(_posterior, res, names)))
    if "simplex" in kinds and ndim == 2:
        out.append(ReportFigure(
            f"simplex-{_slug(key)}", "simplex",
            f"Posterior draws of the three region probabilities ({res.method}); each corner "
            "region holds the draws in which that outcome is the most probable "
            "(Benavoli et al. 2017).", partial(_simplex, res, names)))
    if "wins" in kinds and res.wins_pmf is not None:
        out.append(ReportFigure(
            f"wins-{_slug(key)}", "wins",
            f"Distribution of the number of data sets {names[0]} wins ({res.method}).",
            partial(_wins, res, names)))
    return out


def report_figures(report, kinds=KINDS) -> list[ReportFigure]:
    """Describe the figures the report's results can be drawn as, in reading order.

    Only described: matplotlib is imported when a figure is drawn (``figure.draw()``).
    """
    out = []
    if "cd" in kinds:
        for key, res in report.posthoc.items():
            out += posthoc_figures(key, res)
    names = model_names(report)
    for key, res in report.tests.items():
        if hasattr(res, "p_rope"):
            out += bayesian_figures(key, res, names, kinds)
    if "ranks" in kinds and getattr(report, "leaderboard", None) is not None:
        out += leaderboard_figures(report.leaderboard)
    return out


def _save(figure: ReportFigure, target, fmt: str, salt: str) -> float:
    """Draw and save the figure; return its width in inches (before tight cropping)."""
    import matplotlib
    import matplotlib.pyplot as plt

    # A salt per figure keeps the ids of clip paths unique when several SVGs share one HTML
    # page; embedding TrueType (42) rather than Type 3 fonts is what publishers ask of PDFs.
    with matplotlib.rc_context({"svg.hashsalt": f"{salt}-{figure.key}", "pdf.fonttype": 42}):
        fig = figure.draw().figure
        try:
            fig.savefig(target, format=fmt, bbox_inches="tight", metadata={"Date": None})
            return float(fig.get_size_inches()[0])
        finally:
            plt.close(fig)


def figure_svg(figure: ReportFigure, salt: str = "outperform", scale: float = 1.0) -> str:
    """The figure as an ``<svg>`` element (no XML prolog), ready to inline in HTML.

    ``scale`` multiplies the displayed width and height (the drawing is vector, so it stays
    sharp); CSS can still shrink it to the page width.
    """
    buffer = io.StringIO()
    _save(figure, buffer, "svg", salt)
    text = buffer.getvalue()
    svg = text[text.index("<svg"):]
    if scale != 1.0:
        head, rest = svg.split(">", 1)
        head = re.sub(r'(width|height)="([0-9.]+)pt"',
                      lambda m: f'{m.group(1)}="{float(m.group(2)) * scale:.2f}pt"', head)
        svg = head + ">" + rest
    return svg


def save_figure_file(figure: ReportFigure, path, salt: str = "outperform") -> float:
    """Write the figure to ``path`` in the format of its suffix (``.pdf``, ``.svg``, ``.png``).

    Returns the figure's width in inches. The file is replaced atomically
    (:func:`outperform._atomic.atomic_path`).
    """
    path = Path(path)
    with atomic_path(path) as tmp:   # a failed save leaves no truncated file
        return _save(figure, tmp, path.suffix.lstrip(".").lower(), salt)


def file_paths(figures: list[ReportFigure], base) -> dict[str, Path]:
    """File of each figure of :data:`FILE_KINDS` by its key: the critical-difference
    diagrams by :func:`figure_paths` of ``base`` (``report-cd.pdf``, ...), the rank-set plot
    beside them as ``<stem>-ranks`` (``report-ranks.pdf``), where ``<stem>`` is the name of
    ``base`` without a final ``-cd``."""
    base = Path(base)
    cds = [f for f in figures if f.kind == "cd"]
    out = dict(zip((f.key for f in cds), figure_paths(cds, base)))
    stem = base.stem.removesuffix("-cd")
    out.update({f.key: base.with_name(f"{stem}-{f.key}{base.suffix}")
                for f in figures if f.kind == "ranks"})
    return out


def figure_paths(figures: list[ReportFigure], base) -> list[Path]:
    """File of each figure: ``base`` for the first; for the others, ``base`` with the name of
    their result added (``report-cd.pdf``, ``report-cd-bonferroni-dunn.pdf``)."""
    base = Path(base)
    return [base if i == 0 else
            base.with_name(f"{base.stem}-{f.key.split('-', 1)[-1]}{base.suffix}")
            for i, f in enumerate(figures)]
