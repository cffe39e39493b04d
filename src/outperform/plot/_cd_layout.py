"""Layout of a critical-difference diagram, in inches, before anything is drawn.

Every method name is measured, wrapped if needed and stacked one per row on each side of the
rank axis; the figure (or the font, when drawing into a given ``ax``) is sized so that no two
names overlap. :mod:`._cd_diagram` draws what this module lays out.
"""
from __future__ import annotations

import re
import warnings

from .._validation import OutperformWarning
from dataclasses import dataclass

import numpy as np
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path

_MIN_AXIS = 1.5       # shortest rank axis (inches) accepted when fitting into a given ax
_MIN_FONT = 4.0       # points; below this a diagram is unreadable anyway
_LINESPACING = 1.1    # between the lines of a wrapped name
_SAFETY = 1.04        # text measured from glyph outlines; renderers hint it slightly wider

_BREAKS = (re.compile(r"(?<=\s)"), re.compile(r"(?<=[,;/(=+])"), re.compile(r"(?<=[_.\-])"))


def _pieces(text, width, level=0):
    if len(text) <= width:
        return [text]
    if level == len(_BREAKS):
        return [text[i:i + width] for i in range(0, len(text), width)]
    return [q for p in _BREAKS[level].split(text) for q in _pieces(p, width, level + 1)]


def _wrap(name, width):
    """Split a name longer than ``width`` characters into lines, packed greedily."""
    if width is None or len(name) <= width:
        return [name]
    lines = [""]
    for piece in _pieces(name, width):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines.append("")
        lines[-1] += piece
    return [line.strip() for line in lines if line.strip()]


# --------------------------------------------------------------------------- layout

@dataclass
class _Spec:
    ranks: np.ndarray
    lines: list          # wrapped names, one list of lines per method
    bold: set
    cd: float | None
    control: int | None
    groups: list
    title: str | None
    reverse: bool

    @property
    def low(self):
        return float(min(1.0, np.floor(self.ranks.min())))

    @property
    def high(self):
        return float(max(self.ranks.size, np.ceil(self.ranks.max())))


def _text_width(text, fontsize, bold=False):
    """Width (inches) of one line of text, from the font's glyph outlines."""
    prop = FontProperties(size=fontsize, weight="bold" if bold else "normal")
    w, _, _ = text_to_path.get_text_width_height_descent(text, prop, ismath=False)
    return w / 72 * _SAFETY


def _literal(text):
    return text.replace("$", r"\$")


class _Layout:
    """Positions in inches, origin at the top left of the drawing, y growing downwards.

    Every gap is a multiple of the font size (``em``), so the whole drawing except the rank
    axis scales with the font: that is what lets :func:`_fit_into` solve for the font size.
    """

    def __init__(self, spec: _Spec, fontsize: float, axis_length: float | None,
                 min_font: float = 0.0):
        self.fontsize = fs = fontsize
        self.tick_fontsize = max(0.9 * fs, min(min_font, fs))
        self.em = em = fs / 72
        self.low, self.reverse = spec.low, spec.reverse
        k = spec.ranks.size
        span = spec.high - spec.low
        order = np.argsort(spec.ranks, kind="stable")
        display = order if spec.reverse else order[::-1]   # left to right on the page
        n_left = (k + 1) // 2
        # The method nearest each end of the axis gets the row nearest the axis, so lines
        # never cross: left names from the left end inwards, right names from the right end.
        self.left = list(display[:n_left])
        self.right = list(display[n_left:][::-1])

        widths = [max(_text_width(line, fs, i in spec.bold) for line in spec.lines[i])
                  for i in range(k)]
        left_width = max(widths[i] for i in self.left)
        right_width = max(widths[i] for i in self.right)
        # Matplotlib spaces the lines of a text by linespacing x the ascent of "lp".
        _, lp_height, lp_descent = text_to_path.get_text_width_height_descent(
            "lp", FontProperties(size=fs), ismath=False)
        self.pitch = _LINESPACING * (lp_height - lp_descent) / 72 * _SAFETY
        pad = 0.6 * em
        row_heights = [len(spec.lines[i]) * self.pitch + pad for i in range(k)]

        if axis_length is None:
            axis_length = float(np.clip(0.6 * span, 3.0, 8.0))
        margin, self.hook, self.gap = 0.9 * em, 1.3 * em, 0.45 * em
        self.x0 = margin + left_width + self.gap + self.hook
        self.x1 = self.x0 + axis_length
        self.scale = axis_length / span        # inches per rank unit
        # The CD is drawn as a labelled ruler in both forms (Demšar 2006 Figure 1 (a), (b)).
        self.ruler = spec.cd * self.scale if spec.cd is not None else 0
        self.width = max(self.x1 + self.hook + self.gap + right_width + margin,
                         self.x0 + self.ruler + margin)

        y = margin
        if spec.title:
            y += 1.3 * em
            self.y_title = y
            y += 0.9 * em
        if self.ruler:
            y += 1.1 * self.tick_fontsize / 72
            self.y_ruler_text = y
            y += 0.7 * em
            self.y_ruler = y
            y += 0.6 * em
        y += 1.1 * self.tick_fontsize / 72
        self.y_tick_labels = y
        self.tick = 0.45 * em
        y += 0.5 * em + self.tick
        self.y_axis = y

        self.bar_pitch = 0.65 * em
        self.bar_rows = self._pack_bars(spec)
        n_bar_rows = 1 if spec.control is not None else max(self.bar_rows, default=-1) + 1
        self.y_first_bar = self.y_axis + 0.85 * em
        y = self.y_first_bar + n_bar_rows * self.bar_pitch + 0.3 * em
        self.row_y = {}
        for side in (self.left, self.right):
            yy = y
            for i in side:
                self.row_y[i] = yy + (pad + self.pitch) / 2   # centre of the first line
                yy += row_heights[i]
        self.height = max(y + sum(row_heights[i] for i in side) for side in
                          (self.left, self.right)) + margin

    def x(self, rank):
        """Horizontal position (inches) of a rank; best on the right unless reversed."""
        offset = (rank - self.low) * self.scale
        return self.x0 + offset if self.reverse else self.x1 - offset

    def _pack_bars(self, spec):
        overhang = 0.35 * self.em   # a bar joining tied methods stays visible
        self.bar_extent = []
        for g in spec.groups:
            xs = [self.x(spec.ranks[i]) for i in g]
            self.bar_extent.append((min(xs) - overhang, max(xs) + overhang))
        # Greedy interval packing: bars that do not overlap share a row, with a clear gap.
        rows, ends = [], []
        for a, b in sorted(self.bar_extent):
            row = next((r for r, e in enumerate(ends) if e + self.em < a), None)
            if row is None:
                row = len(ends)
                ends.append(b)
            ends[row] = b
            rows.append(row)
        self.bar_extent.sort()
        return rows


def _fit_into(spec, fontsize, ax):
    """Largest font (up to ``fontsize``) whose layout fits the axes, axis stretched to fill."""
    bbox = ax.get_position()
    fig_w, fig_h = ax.figure.get_size_inches()
    avail_w, avail_h = bbox.width * fig_w, bbox.height * fig_h
    probe = _Layout(spec, fontsize, axis_length=_MIN_AXIS)
    # Height and width less the axis are proportional to the font size.
    shrink = min(1.0, avail_h / probe.height,
                 max(avail_w - _MIN_AXIS, 0) / (probe.width - _MIN_AXIS))
    fs = max(_MIN_FONT, fontsize * shrink)
    if fontsize * shrink < _MIN_FONT:
        warnings.warn("the axes are too small for this CD diagram: names may overlap; "
                      "use a larger figure or let cd_diagram create one (ax=None).",
                      OutperformWarning, stacklevel=3)
    probe = _Layout(spec, fs, axis_length=_MIN_AXIS)
    layout = _Layout(spec, fs, axis_length=max(_MIN_AXIS, _MIN_AXIS + avail_w - probe.width))
    layout.width, layout.height = max(avail_w, layout.width), max(avail_h, layout.height)
    return layout


def _fit_width(spec, fontsize, width, min_font, min_axis=1.2):
    """The layout of a new figure ``width`` inches wide: the rank axis takes what the names
    leave; when that is under ``min_axis`` inches, the font shrinks, not below ``min_font``."""
    def rest(fs):     # names, hooks and margins: about proportional to the font
        return _Layout(spec, fs, axis_length=min_axis).width - min_axis

    fs = fontsize
    for _ in range(3):    # the widths are not exactly proportional: settle in a few steps
        if width - rest(fs) >= min_axis:
            break
        fs = max(min_font, fs * (width - min_axis) / rest(fs))
    if width - rest(fs) < min_axis - 1e-9:
        warnings.warn(f"a CD diagram {width:g} in wide is too narrow for these names at "
                      f"{min_font:g} pt: it is drawn wider; shorten the names (wrap=) or "
                      "use width='page'.", OutperformWarning, stacklevel=4)
    layout = _Layout(spec, fs, axis_length=max(min_axis, width - rest(fs)), min_font=min_font)
    layout.width = max(width, layout.width)
    return layout


# --------------------------------------------------------------------------- drawing
