"""Battles with style features (LMArena's style control): the battles and the answers' values.

The battles are read by :func:`outperform.data.read_battles` (model_a, model_b, winner,
optional weight); the style columns a ``--control-for`` name stands for come from
:func:`outperform.data._columns.style_columns` (``length``: sum_assistant_tokens_a/_b or
tokens_a/_b ...; ``markdown``: header_count, list_count, bold_count _a/_b; any feature with
``<name>_a``/``<name>_b``; or one per-battle column used as it is).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ._battles import read_battles
from ._columns import style_columns
from ._files import read_table

__all__ = ["read_style_battles"]


def _numeric(df: pd.DataFrame, col) -> np.ndarray:
    """A style column as floats; a clear error for text, NaN or infinite values."""
    try:
        v = pd.to_numeric(df[col]).to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise InvalidInputError(f"style column {col!r} must be numeric (counts or lengths), "
                                f"e.g. row 1 is {df[col].iloc[0]!r}.") from None
    bad = ~np.isfinite(v)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InvalidInputError(f"style column {col!r} is missing or not finite in row "
                                f"{i + 1} (and {int(bad.sum()) - 1} other rows): fill or drop "
                                "those battles.")
    return v


def read_style_battles(source, control_for, *, encoding: str | None = None):
    """Read battles and the style features to control for.

    Parameters
    ----------
    source : str, Path or DataFrame
        The battles table (see :func:`outperform.data.read_battles`) with style columns.
    control_for : str or sequence of str
        Names, comma-separated in a string: ``length``, ``markdown`` or column stems.

    Returns
    -------
    battles : DataFrame
        As :func:`read_battles` returns it (rows of weight 0 dropped).
    names : tuple of str
        One name per feature.
    values_a, values_b : ndarray, shape (n, p)
        The answers' values; for a per-battle covariate, values_b's column is NaN.

    Raises
    ------
    InvalidInputError
        No style name, unknown or non-numeric style columns, missing values, and every
        error of :func:`read_battles`.
    """
    names = ([c.strip() for c in control_for.split(",")] if isinstance(control_for, str)
             else [str(c).strip() for c in control_for])
    names = [c for c in names if c]
    if not names:
        raise TooFewError("--control-for needs at least one style name (length, markdown, or "
                          "a column stem with _a and _b columns).")
    df = source.copy() if isinstance(source, pd.DataFrame) else read_table(
        source, encoding=encoding)
    df.columns = [str(c).strip().lower() for c in df.columns]
    df = df.reset_index(drop=True)
    battles = read_battles(df)
    found = [f for name in names for f in style_columns(df.columns, name)]
    seen = [f[0] for f in found]
    if len(set(seen)) < len(seen):
        raise InvalidInputError(f"--control-for names the feature "
                                f"{next(s for s in seen if seen.count(s) > 1)!r} twice.")
    keep = (pd.to_numeric(df["weight"]).to_numpy(dtype=float) > 0 if "weight" in df.columns
            else np.ones(len(df), dtype=bool))
    a = np.column_stack([_numeric(df, ca)[keep] for _, ca, _ in found])
    b = np.column_stack([_numeric(df, cb)[keep] if cb is not None else np.full(keep.sum(),
                                                                                np.nan)
                         for _, _, cb in found])
    return battles, tuple(seen), a, b
