"""Critical-difference diagrams (Demšar 2006, §3.2.4, Figure 1).

The layout is computed in inches before anything is drawn: the text of every method name is
measured, the names are stacked one per row on each side of the rank axis, and the figure
(or the font, when drawing into a given ``ax``) is sized so that no two names overlap.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .._atomic import save_figure as _save_atomically
from .._validation import InvalidInputError, TooFewError, as_float_array
from ._cd_layout import _LINESPACING, _fit_into, _fit_width, _Layout, _literal, _Spec, _wrap
from ..stats._cliques import groups_from_critical_difference, nonsignificant_groups
from ..stats._letters import compact_letters
from ._style import FONT_RANGE, FONT_SIZE, INK, PAPER, requested_width, styled



@styled
def cd_diagram(average_ranks, names, *, critical_difference=None, groups=None, reject=None,
               control=None, ax=None, title=None, reverse=False, highlight=None,
               fontsize=None, wrap=40, letters=None):
    """Draw a critical-difference diagram (Demšar 2006, Figure 1).

    The top line is the axis of average ranks. By default it is turned as in Demšar's
    figure, with the lowest (best) ranks on the right; ``reverse=True`` puts rank 1 on the
    left. Each method is joined by a line to its name, the worse-ranked half named on one
    side and the other half on the other side.

    Two forms:

    * all pairs (Figure 1(a)): thick bars join the groups of methods that are not
      significantly different, computed by
      :func:`outperform.stats._cliques.nonsignificant_groups` from ``reject`` (any all-pairs
      test, e.g. Nemenyi or Wilcoxon–Holm), else from ``critical_difference``, unless
      ``groups`` is given; the critical difference is drawn as a ruler above the axis.
    * against a control (Figure 1(b), Bonferroni–Dunn): when ``control`` is given, a thick
      line marks the interval of one critical difference on both sides of the control's
      average rank; methods outside it differ significantly from the control. The critical
      difference is drawn as a labelled ruler above the axis, as in the other form.
      ``groups`` and ``reject`` are not used in this form.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
        Average rank of each method (rank 1 = best), k >= 2.
    names : sequence of str, length k
        Method names, unique. Dollar signs are shown literally.
    critical_difference : float, optional
        Critical difference of average ranks (Nemenyi or Bonferroni–Dunn). Required with
        ``control``.
    groups : sequence of sequences of int, optional
        Groups to join by bars (indices into ``names``), overriding ``reject`` and the CD.
    reject : array_like of bool, shape (k, k), optional
        Symmetric all-pairs decisions (True = significantly different).
    control : str or int, optional
        Control method (name or index): draws Figure 1(b).
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; its frame and ticks are switched off and the font is reduced if
        the names do not fit. By default a new figure is made whose size grows with the
        number of methods and the length of their names.
    title : str, optional
    reverse : bool, default False
        False: rank 1 (best) on the right, as in Demšar (2006). True: rank 1 on the left.
    highlight : sequence of str or int, optional
        Methods whose names are set in bold (the control always is).
    fontsize : float, optional
        Size of the names in points; by default 9 (:data:`._style.FONT_SIZE`) for up to 20
        methods, 8.5 up to 40, else 8.
    wrap : int or None, default 40
        Names longer than this many characters are broken over several lines (after spaces,
        commas, underscores, ...); None keeps every name on one line.
    letters : sequence of str (length k) or mapping name -> str, optional
        Compact letter display (Piepho 2004, :func:`~outperform.stats.compact_letters`)
        written in parentheses after each name, e.g. ``C4.5+m (ab)``: methods that share a
        letter do not differ significantly.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn into; ``ax.figure`` is the figure to save.

    Raises
    ------
    InvalidInputError
        Ranks not finite, names of the wrong length or repeated, unknown control or
        highlighted method, non-positive critical difference, ``control`` without
        ``critical_difference``, group indices out of range, bad ``reject``.
    TooFewError
        Fewer than two methods.

    Notes
    -----
    Source: Demšar (2006), JMLR 7, §3.2.4 and Figure 1. Save with
    ``ax.figure.savefig(path)`` or :func:`save_figure`.

    Examples
    --------
    Demšar Table 6, Nemenyi at α = 0.10 (CD = 1.12), Figure 1(a):

    >>> ax = cd_diagram([3.143, 2.000, 2.893, 1.964],
    ...                 ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
    ...                 critical_difference=1.12)
    >>> sorted(t.get_text() for t in ax.texts if t.get_gid() == "method-name")
    ['C4.5', 'C4.5+cf', 'C4.5+m', 'C4.5+m+cf']
    >>> len([p for p in ax.lines if p.get_gid() == "group-bar"])
    2
    """
    ranks = as_float_array(average_ranks, "average_ranks", ndim=1)
    k = ranks.size
    if k < 2:
        raise TooFewError(f"a CD diagram needs at least 2 methods, got {k}.")
    labels = _check_names(names, k)
    cd = _check_cd(critical_difference)
    c = None if control is None else _index_of(control, labels, "control")
    bold = {c} if c is not None else set()
    bold.update(_index_of(h, labels, "highlight") for h in (highlight or ()))
    if c is not None:
        if cd is None:
            raise InvalidInputError(
                "a comparison with a control needs critical_difference (Bonferroni–Dunn, "
                "Demšar 2006 Figure 1(b)); for step-wise procedures (Holm, Hochberg, ...) "
                "the critical interval differs per method, so report them as a table."
            )
        bars: list[tuple[int, ...]] = []
    elif groups is not None:
        bars = _check_groups(groups, k)
    elif reject is not None:
        bars = nonsignificant_groups(ranks, reject)
    elif cd is not None:
        bars = groups_from_critical_difference(ranks, cd)
    else:
        bars = []
    if fontsize is None:
        fontsize = FONT_SIZE if k <= 20 else 8.5 if k <= 40 else 8.0
    elif not fontsize > 0:
        raise InvalidInputError(f"fontsize must be a positive number of points, got {fontsize!r}.")
    if wrap is not None and not (isinstance(wrap, (int, np.integer)) and wrap >= 1):
        raise InvalidInputError(
            f"wrap must be a positive number of characters or None, got {wrap!r}.")
    wrapped = [_wrap(name, wrap) for name in labels]
    if letters is not None:
        tags = _check_letters(letters, labels)
        wrapped = [lines[:-1] + [f"{lines[-1]} ({tag})"] for lines, tag in zip(wrapped, tags)]
    spec = _Spec(ranks, wrapped, bold, cd, c, bars, title, bool(reverse))

    if ax is None:
        import matplotlib.pyplot as plt

        width = requested_width()
        layout = (_Layout(spec, float(fontsize), axis_length=None) if width is None
                  else _fit_width(spec, float(fontsize), width, FONT_RANGE[0]))
        fig = plt.figure(figsize=(layout.width, layout.height))
        ax = fig.add_axes((0, 0, 1, 1))
    else:
        layout = _fit_into(spec, float(fontsize), ax)
    _draw(ax, spec, layout)
    return ax


@styled
def cd_diagram_from_result(result, *, ax=None, letters=True, **kw):
    """Draw the CD diagram of a rank-based post-hoc result.

    Parameters
    ----------
    result : PairwiseResult
        An all-pairs result (Nemenyi, pairwise Wilcoxon–Holm, ...) whose ``reject`` gives the
        bars, or a comparison with a control that has a ``critical_difference``
        (Bonferroni–Dunn). ``average_ranks`` must be filled.
    ax : matplotlib.axes.Axes, optional
    letters : bool, default True
        All-pairs results: write the compact letter display of ``result.reject`` after the
        names ("a" for the best-ranked group, as in the report's tables).
    **kw
        Passed to :func:`cd_diagram` (``title``, ``reverse``, ``highlight``, ...); they take
        precedence over the result's fields. A result computed on a table with missing cells
        (``details["incomplete_data"]``) gets the title "average ranks from incomplete data
        (missing cells)" unless ``title`` is given.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    InvalidInputError
        The result has no average ranks, or compares with a control without a critical
        difference.

    Examples
    --------
    >>> import numpy as np
    >>> from outperform.results import PairwiseResult
    >>> ranks = np.array([3.143, 2.000, 2.893, 1.964])
    >>> reject = np.abs(ranks[:, None] - ranks) >= 1.12
    >>> res = PairwiseResult(method="Nemenyi", names=("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"),
    ...     statistic=np.zeros((4, 4)), pvalue=np.ones((4, 4)), pvalue_adjusted=np.ones((4, 4)),
    ...     reject=reject, alpha=0.10, adjustment="nemenyi", critical_difference=1.12,
    ...     average_ranks=ranks)
    >>> ax = cd_diagram_from_result(res, title="Nemenyi, α = 0.10")
    >>> ax.get_title()
    'Nemenyi, α = 0.10'
    """
    if getattr(result, "average_ranks", None) is None:
        raise InvalidInputError(
            f"this {getattr(result, 'method', 'result')!r} result has no average ranks, so "
            "it cannot be placed on a rank axis; call cd_diagram(average_ranks, names, "
            "reject=result.reject) with the ranks."
        )
    args = {
        "critical_difference": result.critical_difference,
        "control": result.control,
        "reject": None if result.control is not None else result.reject,
    }
    if letters and result.control is None and result.reject is not None:
        order = np.argsort(result.average_ranks, kind="stable")     # best first: "a"
        names = [result.names[i] for i in order]
        args["letters"] = compact_letters(np.asarray(result.reject)[np.ix_(order, order)], names)
    if (getattr(result, "details", None) or {}).get("incomplete_data"):
        # The diagram itself says so: it may be shown without the report around it.
        args["title"] = "average ranks from incomplete data (missing cells)"
    args.update(kw)
    return cd_diagram(result.average_ranks, result.names, ax=ax, **args)


def save_figure(fig, path, *, dpi=300):
    """Save a figure (or the figure of an Axes) as PNG, SVG or PDF, chosen by the suffix.

    Parameters
    ----------
    fig : matplotlib.figure.Figure or matplotlib.axes.Axes
    path : str or path-like
        Ends in ``.png``, ``.svg`` or ``.pdf``.
    dpi : int, default 300
        Resolution of PNG files.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    InvalidInputError
        Unsupported suffix.
    OSError
        The file cannot be written (``errno.ENOSPC``: a full disk); it is replaced
        atomically, so a failure leaves the previous file and no truncated one.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> ax = cd_diagram([1.5, 1.5], ["A", "B"])
    >>> with tempfile.TemporaryDirectory() as d:
    ...     save_figure(ax, pathlib.Path(d) / "cd.svg").suffix
    '.svg'
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise InvalidInputError(
            f"cannot tell the format of {str(path)!r}: use a name ending in .png, .svg or .pdf."
        )
    figure = getattr(fig, "figure", None) or fig
    return _save_atomically(figure, path, format=suffix[1:], dpi=dpi)


# --------------------------------------------------------------------------- checks

def _check_names(names, k):
    labels = [str(n) for n in names]
    if len(labels) != k:
        raise InvalidInputError(
            f"names has {len(labels)} entries but average_ranks has {k}: give one name per method."
        )
    if len(set(labels)) != k:
        dup = next(n for n in labels if labels.count(n) > 1)
        raise InvalidInputError(f"method names must be unique; {dup!r} appears more than once.")
    return labels


def _check_cd(cd):
    if cd is None:
        return None
    value = float(as_float_array(cd, "critical_difference", ndim=0))
    if value <= 0:
        raise InvalidInputError(f"critical_difference must be positive, got {value!r}.")
    return value


def _index_of(item, labels, what):
    if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
        if 0 <= item < len(labels):
            return int(item)
        raise InvalidInputError(f"{what} index {item} is out of range for {len(labels)} methods.")
    if str(item) in labels:
        return labels.index(str(item))
    raise InvalidInputError(f"{what} {item!r} is not one of the method names {labels}.")


def _check_letters(letters, labels):
    if hasattr(letters, "keys"):
        missing = [n for n in labels if n not in letters]
        if missing:
            raise InvalidInputError(f"letters has no entry for {missing}.")
        letters = [letters[n] for n in labels]
    letters = [str(t) for t in letters]
    if len(letters) != len(labels):
        raise InvalidInputError(f"{len(letters)} letters for {len(labels)} methods.")
    return letters


def _check_groups(groups, k):
    out = []
    for g in groups:
        members = tuple(int(i) for i in g)
        if not members or min(members) < 0 or max(members) >= k:
            raise InvalidInputError(
                f"each group must list method indices in 0..{k - 1}, got {tuple(g)!r}."
            )
        out.append(members)
    return out


# Where a long name may be broken, most preferred first (model names often have no spaces:
# ``SVC(C=1,kernel='rbf')``); a break goes after the separator.
def _draw(ax, spec: _Spec, lay: _Layout):
    ax.set_axis_off()
    ax.set_xlim(0, lay.width)
    ax.set_ylim(lay.height, 0)
    ink = INK
    line_kw = dict(color=ink, linewidth=0.8, solid_capstyle="butt", clip_on=False)

    if spec.title:
        ax.set_title(spec.title, fontsize=1.1 * lay.fontsize, y=1 - lay.y_title / lay.height,
                     va="bottom", pad=0)

    # Rank axis with integer ticks; label every tick when there are few, else every step.
    ax.plot([lay.x0, lay.x1], [lay.y_axis, lay.y_axis], color=ink, linewidth=1.0,
            clip_on=False)
    low, high = int(spec.low), int(spec.high)
    step = 1 if high - low <= 15 else 2 if high - low <= 30 else 5
    labelled = {low} | {t for t in range(low, high + 1) if t % step == 0 and t - low > step / 2}
    if high - max(labelled) > step / 2:
        labelled.add(high)
    for t in range(low, high + 1):
        xt = lay.x(t)
        tick = lay.tick if t in labelled else lay.tick / 2
        ax.plot([xt, xt], [lay.y_axis, lay.y_axis - tick], **line_kw)
        if t in labelled:
            ax.text(xt, lay.y_tick_labels, str(t), ha="center", va="baseline",
                    fontsize=lay.tick_fontsize)

    if lay.ruler:
        a, b = lay.x0, lay.x0 + lay.ruler
        ax.plot([a, b], [lay.y_ruler] * 2, color=ink, linewidth=1.0, clip_on=False)
        for end in (a, b):
            ax.plot([end, end], [lay.y_ruler - 0.3 * lay.em, lay.y_ruler + 0.3 * lay.em], **line_kw)
        ax.text((a + b) / 2, lay.y_ruler_text, f"CD = {spec.cd:.2f}", ha="center",
                va="baseline", fontsize=lay.tick_fontsize)

    # Method lines and names.
    for side, sign in ((lay.left, -1), (lay.right, +1)):
        end = lay.x0 - lay.hook if sign < 0 else lay.x1 + lay.hook
        for i in side:
            xr, yr = lay.x(spec.ranks[i]), lay.row_y[i]
            ax.plot([xr, xr, end], [lay.y_axis, yr, yr], gid="method-line", **line_kw)
            n_lines = len(spec.lines[i])
            ax.text(end + sign * lay.gap, yr + (n_lines - 1) * lay.pitch / 2,
                    _literal("\n".join(spec.lines[i])),
                    ha="left" if sign > 0 else "right", va="center",
                    multialignment="left" if sign > 0 else "right",
                    fontsize=lay.fontsize, linespacing=_LINESPACING,
                    fontweight="bold" if i in spec.bold else "normal", gid="method-name")

    bar_kw = dict(color=ink, linewidth=0.3 * lay.fontsize, solid_capstyle="butt", clip_on=False)
    for (a, b), row in zip(lay.bar_extent, lay.bar_rows):
        y = lay.y_first_bar + row * lay.bar_pitch
        ax.plot([a, b], [y, y], gid="group-bar", **bar_kw)

    if spec.control is not None:
        rc = spec.ranks[spec.control]
        lo = max(spec.low, rc - spec.cd)
        hi = min(spec.high, rc + spec.cd)
        y = lay.y_first_bar
        ax.plot([lay.x(lo), lay.x(hi)], [y, y], gid="control-interval", **bar_kw)
        ax.plot([lay.x(rc)], [y], marker="o", markersize=0.5 * lay.fontsize, color=PAPER,
                markeredgecolor=ink, markeredgewidth=1.0, clip_on=False)
