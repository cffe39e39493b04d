"""The one look of every plot: sizes for a paper's page, fonts, the colour-blind-safe palette.

Every public plot function of :mod:`outperform.plot` is decorated with :func:`styled`: it draws
inside ``matplotlib.rc_context(RC)`` (fonts, line widths, the colour cycle; nothing global is
changed) and takes ``width=``:

* ``"column"``: 3.3 in, one column of a two-column paper (NeurIPS, ICML, IEEE, ACM);
* ``"page"``: 7.0 in, the full text width of a two-column page;
* a number of inches.

At these widths the figure goes into the paper at 100 % scale (``\\includegraphics`` without
``width=``, or ``width=\\linewidth`` in a column of that width), so its text is set at
:data:`FONT_SIZE` points (ticks and legends at 8), as the captions of a 10 pt paper (8–9 pt),
and within :data:`FONT_RANGE`. Save as vector graphics with :func:`outperform.plot.save_figure`
(``.pdf`` or ``.svg``; TrueType fonts embedded).

Colours come from this module only (a test reads every plot module for colour literals):
:data:`PALETTE` is the palette of Okabe & Ito (2008, "Color Universal Design (CUD): how to make
figures and presentations that are friendly to colorblind people"), distinguishable with the
common colour-vision deficiencies and in grey; :data:`INK` draws lines and text, :func:`grey`
the neutral shades, :data:`DIVERGING`, :data:`SEQUENTIAL` and :data:`DENSITY` are the colour
maps (matplotlib's RdBu, viridis and Blues, readable with colour-vision deficiencies).
"""
from __future__ import annotations

import functools
import inspect
from contextlib import contextmanager
from contextvars import ContextVar

from .._validation import InvalidInputError

#: Okabe & Ito (2008): name -> hex colour, in their order (black first).
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
}
#: The colour cycle of the plots: Okabe–Ito without black (lines and text are black) and with
#: yellow last (faint on white).
PALETTE = tuple(OKABE_ITO[n] for n in ("blue", "orange", "bluish green", "vermillion",
                                       "reddish purple", "sky blue", "yellow"))
#: Roles: the first model / the estimate, the second, the ROPE and reference lines, ink, paper.
ACCENT, SECOND, THIRD, ALERT = PALETTE[0], PALETTE[1], PALETTE[2], PALETTE[3]
INK, PAPER = OKABE_ITO["black"], "#FFFFFF"
#: Colour maps: differences around 0, probabilities or p-values, point densities.
DIVERGING, SEQUENTIAL, DENSITY = "RdBu", "viridis_r", "Blues"

#: Figure widths (inches) by name.
WIDTHS = {"column": 3.3, "page": 7.0}
#: Text size (points) of the plots: that of a 10 pt paper's captions at 100 % scale.
FONT_SIZE = 9.0
#: The smallest and largest text (points) a plot sets ("x-small" notes to titles).
FONT_RANGE = (6.0, 10.0)

RC = {
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE,
    "axes.labelsize": FONT_SIZE,
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "figure.titlesize": FONT_SIZE,
    "axes.linewidth": 0.6,
    "lines.linewidth": 1.2,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "axes.prop_cycle": None,          # set on first use (cycler imports matplotlib)
    "axes.edgecolor": INK,
    "text.color": INK,
    "axes.labelcolor": INK,
    "xtick.color": INK,
    "ytick.color": INK,
    "pdf.fonttype": 42,               # TrueType in PDF, as publishers ask
    "ps.fonttype": 42,
    "svg.fonttype": "none",           # text stays text in SVG
}

_WIDTH: ContextVar[float | None] = ContextVar("outperform_plot_width", default=None)


def grey(level: float) -> str:
    """A neutral shade: 0 is black, 1 white (matplotlib's grey-level strings)."""
    return f"{min(max(float(level), 0.0), 1.0):.2f}"


def palette_cmap(n: int):
    """A colour map of ``n`` colours of :data:`PALETTE` (cycled), one per integer 0..n-1."""
    from matplotlib.colors import ListedColormap

    return ListedColormap([PALETTE[i % len(PALETTE)] for i in range(max(int(n), 1))])


def inches(width) -> float | None:
    """``width`` in inches: ``"column"`` (3.3), ``"page"`` (7.0), a positive number, or None.

    Raises
    ------
    InvalidInputError
        Another name, or a number that is not positive.

    Examples
    --------
    >>> inches("column"), inches("page"), inches(5)
    (3.3, 7.0, 5.0)
    """
    if width is None:
        return None
    if isinstance(width, str):
        if width not in WIDTHS:
            raise InvalidInputError(f"width must be 'column' (3.3 in), 'page' (7 in) or a "
                                    f"number of inches, got {width!r}.")
        return WIDTHS[width]
    if isinstance(width, bool) or not isinstance(width, (int, float)) or not width > 0:
        raise InvalidInputError(f"width must be 'column', 'page' or a positive number of "
                                f"inches, got {width!r}.")
    return float(width)


def requested_width() -> float | None:
    """The width (inches) asked of the plot being drawn, None for the plot's own."""
    return _WIDTH.get()


def figsize(default: tuple[float, float], rows: bool = False) -> tuple[float, float]:
    """The size of a new figure: ``default``, or the requested width with the height scaled
    as the width but not below 2 in (or the default height, if lower); ``rows=True`` (a
    height made of rows of names) keeps the default height."""
    width = _WIDTH.get()
    if width is None:
        return default
    w, h = default
    return width, (h if rows else max(h * width / w, min(h, 2.0)))


def rc() -> dict:
    """The rc parameters of the plots (:data:`RC` with the palette as colour cycle)."""
    from cycler import cycler

    return {**RC, "axes.prop_cycle": cycler(color=PALETTE)}


@contextmanager
def style(width=None):
    """Draw inside the plots' rc context, with ``width`` (see :func:`inches`) for new figures."""
    import matplotlib

    # a plot drawn by another (cd_diagram_from_result -> cd_diagram) keeps the outer width
    token = _WIDTH.set(inches(width) if width is not None else _WIDTH.get())
    try:
        with matplotlib.rc_context(rc()):
            yield
    finally:
        _WIDTH.reset(token)


def _fit_labels(out) -> None:
    """At a requested width the figure keeps its size: its axes shrink to make room for the
    labels (matplotlib's constrained layout, when the plot set no layout of its own)."""
    first = out[0] if isinstance(out, (list, tuple)) else out
    first = first.flat[0] if hasattr(first, "flat") else first
    fig = getattr(first, "figure", first)
    if not hasattr(fig, "get_layout_engine") or fig.get_layout_engine() is not None:
        return
    # only a grid of subplots: axes placed by hand (the CD diagram's) keep their place
    if fig.axes and all(ax.get_subplotspec() is not None for ax in fig.axes):
        fig.set_layout_engine("constrained")


_WIDTH_DOC = """
    width : {"column", "page"} or float, optional
        Width of a new figure: one column (3.3 in) or the text width (7 in) of a two-column
        paper, or inches; the plot's own size when omitted. Ignored with ``ax=``.
"""


def styled(func):
    """Draw ``func``'s plot in the plots' style and give it the keyword ``width=``."""

    @functools.wraps(func)
    def wrapper(*args, width=None, **kwargs):
        with style(width):
            out = func(*args, **kwargs)
        given = kwargs.get("ax") is not None or kwargs.get("axes") is not None
        if width is not None and not given:
            _fit_labels(out)
        return out

    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    extra = inspect.Parameter("width", inspect.Parameter.KEYWORD_ONLY, default=None)
    at = next((i for i, p in enumerate(params) if p.kind is inspect.Parameter.VAR_KEYWORD),
              len(params))
    wrapper.__signature__ = sig.replace(parameters=params[:at] + [extra] + params[at:])
    if func.__doc__ and "    Returns\n" in func.__doc__:
        head, tail = func.__doc__.split("    Returns\n", 1)
        wrapper.__doc__ = head.rstrip("\n") + "\n" + _WIDTH_DOC + "\n    Returns\n" + tail
    return wrapper
