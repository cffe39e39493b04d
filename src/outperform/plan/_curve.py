"""Power curves: the power of a planned test along a grid of sample sizes or effects."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError

__all__ = ["power_curve"]


def _check_names(planner, over: str, design: dict) -> None:
    """``over`` and every keyword of ``design`` are parameters of ``planner``."""
    import inspect

    if not callable(planner):
        raise InvalidInputError(f"planner must be one of the planners of outperform.plan (e.g. "
                                f"mcnemar_power), got {planner!r}.")
    try:
        names = [p for p, v in inspect.signature(planner).parameters.items()
                 if v.kind in (v.KEYWORD_ONLY, v.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return
    unknown = [k for k in [over, *design] if k not in names]
    if unknown:
        valid = [p for p in names if p != "power"]
        raise InvalidInputError(
            f"{getattr(planner, '__name__', 'the planner')} has no parameter "
            f"{', '.join(map(repr, unknown))}; its parameters are {', '.join(valid)}.")


def power_curve(planner, over: str, values, **design):
    """Power of ``planner`` at each value of one of its inputs, the others held fixed.

    Parameters
    ----------
    planner : callable
        One of the planners of :mod:`outperform.plan` (e.g. :func:`mcnemar_power`).
    over : str
        The keyword to vary: ``"n"``, ``"effect"``, ``"runs"``, ``"accuracy_a"``, ``"p_win"``...
    values : sequence of float
        Its grid.
    **design
        The planner's other keywords (``power`` must not be given: it is what is computed).

    Returns
    -------
    pandas.DataFrame
        Columns ``over`` and ``power``; ``attrs`` hold the test, alpha and the fixed design.

    Raises
    ------
    InvalidInputError
        ``power`` given, a planner that is not a function, ``over`` or a design keyword the
        planner does not take (the message lists those it takes), an empty grid or one with
        NaN (or non-whole n), or any input the planner refuses.

    Examples
    --------
    >>> from outperform.plan import paired_ttest_power
    >>> power_curve(paired_ttest_power, "n", [10, 40], effect=0.5)["power"].round(3).tolist()
    [0.293, 0.869]
    """
    import pandas as pd

    if design.get("power") is not None or over == "power":
        raise InvalidInputError("a power curve computes the power: leave power out.")
    _check_names(planner, over, design)
    try:
        grid = np.atleast_1d(np.asarray(values, dtype=float))
    except (TypeError, ValueError):
        raise InvalidInputError(f"the grid of {over} values must be numbers, got "
                                f"{values!r}.") from None
    if grid.ndim != 1 or grid.size == 0:
        raise InvalidInputError(f"give a non-empty 1-D grid of {over} values.")
    if not np.all(np.isfinite(grid)):
        raise InvalidInputError(f"the grid of {over} values holds NaN or infinite values: "
                                f"{float(grid[~np.isfinite(grid)][0]):g}.")
    if over in ("n", "runs") and np.any(grid != np.round(grid)):
        raise InvalidInputError(f"{over} must be whole numbers, got "
                                f"{float(grid[grid != np.round(grid)][0]):g}.")
    results = [planner(**{**design, over: (int(v) if over in ("n", "runs") else float(v))})
               for v in grid]
    frame = pd.DataFrame({over: grid, "power": [r.power for r in results]})
    frame.attrs.update(test=results[0].test, method=results[0].method,
                       alpha=results[0].alpha, n_unit=results[0].n_unit,
                       effect_name=results[0].effect_name, design=dict(design))
    return frame
