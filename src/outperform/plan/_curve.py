"""Power curves: the power of a planned test along a grid of sample sizes or effects."""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError

__all__ = ["power_curve"]


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
        ``power`` given, an empty grid, or any input the planner refuses.

    Examples
    --------
    >>> from outperform.plan import paired_ttest_power
    >>> power_curve(paired_ttest_power, "n", [10, 40], effect=0.5)["power"].round(3).tolist()
    [0.293, 0.869]
    """
    import pandas as pd

    if design.get("power") is not None:
        raise InvalidInputError("a power curve computes the power: leave power out.")
    grid = np.atleast_1d(np.asarray(values, dtype=float))
    if grid.ndim != 1 or grid.size == 0:
        raise InvalidInputError(f"give a non-empty 1-D grid of {over} values.")
    results = [planner(**{**design, over: (int(v) if over in ("n", "runs") else float(v))})
               for v in grid]
    frame = pd.DataFrame({over: grid, "power": [r.power for r in results]})
    frame.attrs.update(test=results[0].test, method=results[0].method,
                       alpha=results[0].alpha, n_unit=results[0].n_unit,
                       effect_name=results[0].effect_name, design=dict(design))
    return frame
