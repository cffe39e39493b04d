"""Style-controlled Bradley–Terry ratings of a battles table (LMArena's style control)."""
from __future__ import annotations

import numpy as np

from ..data._style_battles import read_style_battles
from ..results._style import StyleControlResult
from ..stats._bt_style import bradley_terry_style as _fit
from ..stats._bt_style_design import relative_differences

__all__ = ["bradley_terry_style"]


def bradley_terry_style(battles, control_for, *, l2: float = 0.0, reweight: bool = False,
                        anchor: str | None = None, anchor_rating: float = 1000.0,
                        alpha: float = 0.05, rank_sets: bool = True, n_resamples: int = 1000,
                        random_state=0, encoding: str | None = None) -> StyleControlResult:
    """Bradley–Terry ratings controlled for answer style, and the ratings without control.

    Reads the table with :func:`outperform.data.read_battles` and the style columns named by
    ``control_for`` (``length``, ``markdown`` or column stems ``<name>_a``/``<name>_b``;
    a single per-battle column is a covariate used as it is), builds LMArena's features
    (f_A - f_B) / (f_A + f_B) and fits :func:`outperform.stats.bradley_terry_style`.

    Parameters
    ----------
    battles : str, Path or DataFrame
    control_for : str or sequence of str
        E.g. ``"length,markdown"``.
    l2, reweight, anchor, anchor_rating, alpha, rank_sets, n_resamples, random_state
        As in :func:`outperform.stats.bradley_terry_style`.
    encoding : str, optional

    Returns
    -------
    StyleControlResult

    Raises
    ------
    InvalidInputError, TooFewError, DegenerateDataError
        See :func:`outperform.data._style_battles.read_style_battles` and the kernel.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"model_a": ["x", "x", "y", "y", "z", "z", "x", "y"],
    ...                    "model_b": ["y", "z", "z", "x", "x", "y", "z", "x"],
    ...                    "winner": ["a", "a", "b", "tie", "b", "a", "b", "a"],
    ...                    "tokens_a": [300, 200, 100, 400, 250, 120, 80, 90],
    ...                    "tokens_b": [100, 250, 300, 100, 200, 300, 90, 300]})
    >>> res = bradley_terry_style(df, "length", rank_sets=False)
    >>> res.features, res.rank_change.tolist()
    (('tokens',), [0, 0, 0])
    """
    table, names, a, b = read_style_battles(battles, control_for, encoding=encoding)
    paired = ~np.isnan(b[0]) if len(b) else np.ones(a.shape[1], dtype=bool)
    x = a.copy()
    if paired.any():
        x[:, paired] = relative_differences(a[:, paired], b[:, paired])
    return _fit(table["model_a"].to_numpy(), table["model_b"].to_numpy(),
                table["winner"].to_numpy(), x, features=names,
                weights=table["weight"].to_numpy(), l2=l2, reweight=reweight, anchor=anchor,
                anchor_rating=anchor_rating, alpha=alpha, rank_sets=rank_sets,
                n_resamples=n_resamples, random_state=random_state)
