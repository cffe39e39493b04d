"""``outperform leaderboard FILE --battles --control-for length,markdown``: style control.

Called by the leaderboard command (:mod:`._leaderboard`); bad input raises an
``OutperformError``, which the shared handler of :mod:`._errors` turns into one line and exit
code 1. The tables and sentences are :func:`outperform.report.style_control_output`'s.
"""
from __future__ import annotations

from pathlib import Path

from rich.markup import escape

from ._errors import err
from ._options import Format
from ._battles import check_battle_options
from ._output import emit_output


def leaderboard_style(path: Path, control_for: str, *, l2: float = 0.0, alpha: float = 0.05,
                      n_resamples: int = 1000, random_state: int | None = 0,
                      anchor: str | None = None, fmt: Format | str = Format.text,
                      plot: Path | None = None, out: Path | None = None,
                      fragment: bool = False, encoding: str | None = None) -> None:
    """Read battles with style columns, fit the style-controlled Bradley–Terry, print it.

    Parameters
    ----------
    path : Path
        Battles (model_a, model_b, winner, optional weight) with the style columns
        ``<feature>_a``/``<feature>_b`` the names of ``control_for`` stand for.
    control_for : str
        Comma-separated: ``length``, ``markdown`` or column stems.
    l2 : float
        L2 penalty on the style coefficients (arena-rank's ``reg``).
    n_resamples : int
        Bootstrap resamples of the rank sets (0: no rank sets).
    plot : Path, optional
        Also draw the rank changes into this figure file.

    Raises
    ------
    InvalidInputError
        Bad options, and every error of :func:`outperform.compare.bradley_terry_style`.
    """
    from ..compare import bradley_terry_style
    from ..report import style_control_output

    fmt = check_battle_options(fmt, alpha, n_resamples, plot)
    result = bradley_terry_style(path, control_for, l2=l2, anchor=anchor, alpha=alpha,
                                 rank_sets=n_resamples > 0, n_resamples=max(n_resamples, 100),
                                 random_state=random_state, encoding=encoding)
    emit_output(style_control_output(result), fmt, out, fragment)
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ..plot import plot_rank_changes
        from ._output import save_figure

        figure = plot_rank_changes(result).figure
        save_figure(figure, plot)
        plt.close(figure)
        err.print(f"figure written to {escape(str(plot))}")
