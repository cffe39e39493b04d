"""Pairwise battles (Chatbot Arena style): one row per comparison of two models.

Tidy schema: ``model_a``, ``model_b``, ``winner`` in {``a``, ``b``, ``tie``} and an optional
``weight`` (a frequency weight: how many battles the row stands for, fractional allowed).
The Chatbot Arena spelling of the winner, ``model_a`` / ``model_b`` / ``tie`` /
``tie (bothbad)``, is read as the same three outcomes (a "both bad" tie is a tie).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ._columns import BATTLE_COLUMNS
from ._files import read_table

__all__ = ["read_battles"]

#: accepted spellings of the winner (after stripping and lower-casing) -> a, b or tie
WINNERS = {"a": "a", "b": "b", "tie": "tie",
           # Chatbot Arena's battle logs (lmsys clean_battle files)
           "model_a": "a", "model_b": "b", "tie (bothbad)": "tie"}


def _first_bad(mask: np.ndarray, df: pd.DataFrame, column: str) -> str:
    """'row R (value V)' of the first row flagged by ``mask``, numbered from 1 as in a file."""
    i = int(np.flatnonzero(mask)[0])
    return f"row {i + 1} ({column} = {df[column].iloc[i]!r})"


def _winner_by_name(raw: pd.Series, a: pd.Series, b: pd.Series,
                    side: pd.Series) -> pd.Series:
    """The winner as a side (a, b, tie), where ``winner`` holds the winning model's name.

    When every row's winner is a tie or the name of one of the row's two models, the names
    give the side. If those names are also spellings of a side ("A"/"B", "model_a") and the
    two readings disagree on some row, the table is ambiguous and refused. Otherwise the
    side spellings (``side``) stand.
    """
    is_a, is_b = (raw == a).to_numpy(), (raw == b).to_numpy()
    tie = (side == "tie").to_numpy()
    if not (is_a | is_b).any() or not (is_a | is_b | tie).all():
        return side
    by_name = pd.Series(np.where(is_a, "a", np.where(is_b, "b", "tie")), index=raw.index)
    if side.notna().all():
        differ = (side != by_name).to_numpy()
        if differ.any():
            i = int(np.flatnonzero(differ)[0])
            raise InvalidInputError(
                f"column 'winner' is ambiguous: its values ({', '.join(map(repr, sorted(set(raw))[:4]))}) "
                "are the names of the models that won and also the spellings of a side (a = "
                "model_a won, b = model_b won), and the two readings disagree on "
                f"{int(differ.sum())} rows, e.g. row {i + 1} (model_a = {a.iloc[i]!r}, model_b "
                f"= {b.iloc[i]!r}, winner = {raw.iloc[i]!r}). Write the winner as the side "
                "(a, b or tie), or rename the models so that no model is called a or b.")
    return by_name


def read_battles(source, *, encoding: str | None = None) -> pd.DataFrame:
    """Read and check pairwise battles: who played whom and who won.

    Parameters
    ----------
    source : str, Path or DataFrame
        A .csv/.tsv/.parquet file (read by :func:`read_table`) or a DataFrame with columns
        ``model_a``, ``model_b``, ``winner`` and optionally ``weight``; other columns are
        ignored. ``winner`` is ``a`` (model_a won), ``b`` (model_b won) or ``tie``, in any
        case; Chatbot Arena's ``model_a``, ``model_b``, ``tie`` and ``tie (bothbad)`` are
        accepted too, and so is the name of the model that won (when every winner is a tie
        or a name of its row's models). ``weight`` (default 1) is the number of battles a row stands for.
    encoding : str, optional
        Text encoding of a file that is not UTF-8.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_a``, ``model_b`` (str), ``winner`` (``"a"``, ``"b"`` or ``"tie"``) and
        ``weight`` (float), one row per input row, rows of weight 0 dropped.

    Raises
    ------
    InvalidInputError
        A missing column; a missing model name or winner; a winner outside the accepted
        spellings; winners that are model names called like a side ("A"/"B") when the two
        readings differ; a model battling itself; a weight that is negative, NaN or infinite.
    TooFewError
        No battle of positive weight, or fewer than 2 models.

    Examples
    --------
    >>> df = pd.DataFrame({"model_a": ["x", "y", "x"], "model_b": ["y", "z", "z"],
    ...                    "winner": ["model_a", "tie (bothbad)", "B"]})
    >>> read_battles(df)
      model_a model_b winner  weight
    0       x       y      a     1.0
    1       y       z    tie     1.0
    2       x       z      b     1.0
    """
    if isinstance(source, pd.DataFrame):
        df = source.copy()
    else:
        df = read_table(source, encoding=encoding)
    df.columns = [str(c).strip().lower() for c in df.columns]
    missing = [c for c in BATTLE_COLUMNS if c not in df.columns]
    if missing:
        raise InvalidInputError(
            f"the battles table has no column {', '.join(map(repr, missing))}; it needs "
            "model_a, model_b, winner (a, b or tie) and optionally weight, one row per "
            f"battle (columns found: {', '.join(map(str, df.columns))}).")
    df = df.reset_index(drop=True)
    for col in BATTLE_COLUMNS:
        absent = df[col].isna().to_numpy()
        if absent.any():
            raise InvalidInputError(
                f"{col} is missing in row {int(np.flatnonzero(absent)[0]) + 1} (and "
                f"{int(absent.sum()) - 1} other rows): every battle needs both models and a "
                "winner; drop or fill those rows.")
    a = df["model_a"].astype(str).str.strip()
    b = df["model_b"].astype(str).str.strip()
    spelled = df["winner"].astype(str).str.strip().str.lower()
    winner = _winner_by_name(df["winner"].astype(str).str.strip(), a, b, spelled.map(WINNERS))
    unknown = winner.isna().to_numpy()
    if unknown.any():
        values = sorted(set(df["winner"][unknown].astype(str)))[:5]
        names = set(a) | set(b)
        if all(v.strip() in names for v in values):
            raise InvalidInputError(
                f"column 'winner' holds model names on some rows ({', '.join(map(repr, values))}"
                f", e.g. {_first_bad(unknown, df, 'winner')}) but not the name of one of the "
                "two models of every battle: write every winner as the name of one of its "
                "row's models or 'tie', or every winner as a side (a, b or tie).")
        raise InvalidInputError(
            f"winner must be a, b or tie (Chatbot Arena's model_a, model_b, tie and "
            f"'tie (bothbad)' are read as these); {_first_bad(unknown, df, 'winner')} is not "
            f"one of them (unknown values: {', '.join(map(repr, values))}).")
    itself = (a == b).to_numpy()
    if itself.any():
        raise InvalidInputError(
            f"{_first_bad(itself, df, 'model_a')} battles itself (model_b is the same): a "
            "battle compares two different models; drop such rows.")
    if "weight" in df.columns:
        try:
            weight = pd.to_numeric(df["weight"]).to_numpy(dtype=float)
        except (TypeError, ValueError):
            raise InvalidInputError(
                "weight must be numeric (the number of battles a row stands for).") from None
        bad = ~np.isfinite(weight)
        if bad.any():
            raise InvalidInputError(
                f"weight is NaN or infinite in {_first_bad(bad, df, 'weight')}: give every "
                "row a finite weight (1 for one battle).")
        if np.any(weight < 0):
            raise InvalidInputError(
                f"weight is negative in {_first_bad(weight < 0, df, 'weight')}: a weight "
                "counts battles and must be 0 or more.")
    else:
        weight = np.ones(len(df))
    out = pd.DataFrame({"model_a": a, "model_b": b, "winner": winner, "weight": weight})
    out = out[out["weight"] > 0].reset_index(drop=True)
    if out.empty:
        raise TooFewError("the battles table has no battle of positive weight.")
    n_models = len(set(out["model_a"]) | set(out["model_b"]))
    if n_models < 2:
        raise TooFewError(f"the battles involve {n_models} model; a rating needs at least 2.")
    return out
