"""Chatbot Arena's battle logs as published: JSON (a list of records) or JSON Lines, and
the filters its leaderboard applies (anonymous votes only, ties, language).

A record of FastChat's ``clean_battle_data.py`` (the lmsys / LMArena battle dumps) has
``model_a``, ``model_b``, ``winner`` in {``model_a``, ``model_b``, ``tie``,
``tie (bothbad)``}, and ``judge``, ``turn``, ``anony`` (the models' names were hidden from
the voter), ``language``, ``tstamp``, ``question_id``, the conversations. FastChat's
``elo_analysis.py`` rates the anonymous battles only (``battles[battles["anony"]]``),
optionally of some languages (``--langs``) and without ties (``--exclude-tie``): the
options of :func:`battle_filters` here; which ones were applied is stated in the output.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError

__all__: list[str] = []   # read through outperform.data.read_battles

ARENA_SUFFIXES = (".json", ".jsonl", ".ndjson")
#: which ties ``drop_ties`` removes: none, every tie, or the "tie (bothbad)" votes only
DROP_TIES = ("none", "all", "bothbad")
BOTHBAD = "tie (bothbad)"
_TRUE = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _bad_line(path: Path, encoding: str) -> str:
    """'line N: reason' of the first line of a JSON Lines file that is not a JSON object."""
    with open(path, encoding=encoding) as f:
        for number, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                return f"line {number} is not valid JSON ({e.msg}, column {e.colno})"
            if not isinstance(record, dict):
                return f"line {number} is not a JSON object ({type(record).__name__})"
    return "a line could not be read"


def read_arena_log(path, *, encoding: str | None = None) -> pd.DataFrame:
    """Read a battle log: a ``.json`` file holding a list of records, or ``.jsonl``
    (``.ndjson``), one record per line; every field kept as a column.

    Raises
    ------
    InvalidInputError
        A file that is not valid JSON (JSON Lines: the number of the first bad line), a JSON
        file that is not a list of records, or no records.
    """
    path = Path(path)
    encoding = encoding or "utf-8"
    if not path.is_file():
        raise InvalidInputError(f"battles file {str(path)!r} does not exist.")
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        try:
            df = pd.read_json(path, lines=True, orient="records", encoding=encoding,
                              dtype=False, convert_dates=False)
        except ValueError:
            raise InvalidInputError(
                f"{path.name}: {_bad_line(path, encoding)}; a JSON Lines battle log holds "
                "one JSON object per line (model_a, model_b, winner, ...). Fix or delete "
                "that line.") from None
    else:
        try:
            with open(path, encoding=encoding) as f:
                records = json.load(f)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            where = (f" (line {e.lineno}, column {e.colno}: {e.msg})"
                     if isinstance(e, json.JSONDecodeError) else "")
            raise InvalidInputError(
                f"{path.name} is not valid JSON{where}: a battle log is a JSON list of "
                "records (or JSON Lines, .jsonl, one record per line).") from None
        if isinstance(records, dict) and len(records) == 1 and isinstance(
                next(iter(records.values())), list):
            records = next(iter(records.values()))      # {"battles": [...]}
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise InvalidInputError(
                f"{path.name} is not a list of battle records: a battle log is a JSON list "
                "of objects with model_a, model_b and winner (Chatbot Arena's "
                "clean_battle files), or JSON Lines (.jsonl).")
        df = pd.DataFrame.from_records(records)
    if df.empty:
        raise TooFewError(f"{path.name} holds no battle.")
    return df


def _flags(column: pd.Series, name: str) -> np.ndarray:
    """A true/false column (JSON booleans, 0/1, "true"/"false") as a bool array."""
    if column.dtype == bool:
        return column.to_numpy()
    codes, uniques = pd.factorize(column, use_na_sentinel=True)
    values = np.empty(len(uniques), dtype=bool)
    for k, u in enumerate(uniques):
        v = _TRUE.get(str(u).strip().lower()) if not isinstance(u, bool) else u
        if v is None:
            raise InvalidInputError(f"{name} must be true or false; row "
                                    f"{int(np.flatnonzero(codes == k)[0]) + 1} has {u!r}.")
        values[k] = v
    if (codes < 0).any():
        raise InvalidInputError(f"{name} is missing in row "
                                f"{int(np.flatnonzero(codes < 0)[0]) + 1}: give every battle "
                                "true or false.")
    return values[codes]


def battle_filters(df: pd.DataFrame, side: np.ndarray, bothbad: np.ndarray, *,
                   anony_only: bool = False, drop_ties: str = "none",
                   language=None) -> tuple[np.ndarray, list[str]]:
    """Rows kept by the filters, and what each filter did, in words.

    Parameters
    ----------
    df : DataFrame
        The battles as read (lower-cased column names), for ``anony`` and ``language``.
    side : ndarray of int, shape (n,)
        0 = model_a won, 1 = model_b won, 2 = tie.
    bothbad : ndarray of bool, shape (n,)
        The tie was spelled "tie (bothbad)".
    anony_only : bool
        Keep the battles with ``anony`` true (the models' names were hidden).
    drop_ties : {"none", "all", "bothbad"}
        Drop no tie, every tie, or the "tie (bothbad)" votes only.
    language : str or sequence of str, optional
        Keep the battles whose ``language`` is one of these.

    Raises
    ------
    InvalidInputError
        A filter whose column is missing (named), an unknown ``drop_ties``, an ``anony``
        value that is not true/false.
    TooFewError
        No battle left (the languages found are listed).
    """
    if drop_ties not in DROP_TIES:
        raise InvalidInputError(f"drop_ties (--drop-ties) must be one of "
                                f"{', '.join(DROP_TIES)}, got {drop_ties!r}.")
    keep = np.ones(len(df), dtype=bool)
    steps = []
    if anony_only:
        if "anony" not in df.columns:
            raise InvalidInputError(
                "anonymous battles only (--anony-only) needs a column 'anony' (true where the "
                "voter did not see the models' names), which the battles table lacks "
                f"(columns found: {', '.join(map(str, df.columns))}).")
        keep &= _flags(df["anony"], "anony")
        steps.append(f"anonymous battles only (anony true): {int(keep.sum()):,} kept")
    if language is not None:
        wanted = [language] if isinstance(language, str) else list(language)
        if "language" not in df.columns:
            raise InvalidInputError(
                f"--language {', '.join(wanted)} needs a column 'language', which the battles "
                f"table lacks (columns found: {', '.join(map(str, df.columns))}).")
        spoken = df["language"].astype(str).str.strip()
        here = spoken.isin([w.strip() for w in wanted]).to_numpy()
        if not (keep & here).any():
            common = spoken[keep].value_counts().index[:8]
            raise TooFewError(
                f"no battle in language {', '.join(map(repr, wanted))} (languages found: "
                f"{', '.join(map(repr, common))}; the names are matched exactly).")
        keep &= here
        steps.append(f"language {', '.join(wanted)}: {int(keep.sum()):,} kept")
    n_bothbad = int((keep & bothbad).sum())
    if drop_ties == "all":
        dropped = int((keep & (side == 2)).sum())
        keep &= side != 2
        steps.append(f"ties dropped: {dropped:,}"
                     + (f" (of them {n_bothbad:,} '{BOTHBAD}')" if n_bothbad else ""))
    elif drop_ties == "bothbad":
        keep &= ~bothbad
        steps.append(f"'{BOTHBAD}' votes dropped: {n_bothbad:,}, other ties kept")
    elif n_bothbad:
        steps.append(f"ties kept, '{BOTHBAD}' ({n_bothbad:,}) counted as a tie")
    return keep, steps
