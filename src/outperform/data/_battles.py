"""Pairwise battles (Chatbot Arena style): one row per comparison of two models.

Tidy schema: ``model_a``, ``model_b``, ``winner`` in {``a``, ``b``, ``tie``} and an optional
``weight`` (a frequency weight: how many battles the row stands for, fractional allowed).
The Chatbot Arena spelling of the winner, ``model_a`` / ``model_b`` / ``tie`` /
``tie (bothbad)``, is read as the same three outcomes (a "both bad" tie is a tie), and its
battle logs (JSON, JSON Lines) are read as published (:mod:`._arena`), with its filters.

Every check and filter runs on integer codes of the distinct values (``pandas.factorize``,
hashing, linear time), never on the strings of each row, so that millions of battles are
read in about a second; :func:`battle_counts` aggregates them into distinct (model_a,
model_b, winner, weight) rows with their counts, on which Bradley–Terry is fitted.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ._arena import ARENA_SUFFIXES, BOTHBAD, battle_filters, read_arena_log
from ._columns import BATTLE_COLUMNS
from ._files import read_table

__all__ = ["read_battles", "battle_counts"]

#: accepted spellings of the winner (after stripping and lower-casing) -> a, b or tie
WINNERS = {"a": "a", "b": "b", "tie": "tie",
           # Chatbot Arena's battle logs (lmsys clean_battle files)
           "model_a": "a", "model_b": "b", "tie (bothbad)": "tie"}
SIDE = {"a": 0, "b": 1, "tie": 2}
#: most (model_a, model_b, winner) keys counted by one np.bincount rather than sorted
MAX_BINCOUNT_KEYS = 50_000_000


def _first_bad(mask: np.ndarray, df: pd.DataFrame, column: str) -> str:
    """'row R (value V)' of the first row flagged by ``mask``, numbered from 1 as in a file."""
    i = int(np.flatnonzero(mask)[0])
    return f"row {i + 1} ({column} = {df[column].iloc[i]!r})"


def _factorize(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """``pandas.factorize`` (codes, -1 for a missing value; distinct values); for text held
    by pyarrow (pandas' default string type) Arrow's ``dictionary_encode``, which does the
    same hashing with fewer copies (a third of the time on 10 million rows)."""
    if isinstance(column.dtype, (pd.StringDtype, pd.ArrowDtype)) and hasattr(
            column.array, "__arrow_array__"):
        try:
            import pyarrow as pa
            import pyarrow.compute as pc
        except ImportError:
            return pd.factorize(column)
        try:
            arrow = column.array.__arrow_array__()
            if not isinstance(arrow, pa.ChunkedArray):
                arrow = pa.chunked_array([arrow])
            if arrow.num_chunks == 0:
                return pd.factorize(column)
            # one dictionary for every chunk (a Parquet file is read in several)
            encoded = arrow.dictionary_encode().unify_dictionaries()
            indices = pa.chunked_array([c.indices for c in encoded.chunks])
            if indices.null_count:
                indices = pc.fill_null(indices, -1)
            return (indices.to_numpy(),
                    pd.Index(encoded.chunk(0).dictionary.to_pylist(), dtype=object))
        except (TypeError, pa.ArrowException):
            pass
    return pd.factorize(column)


def _codes(column: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """Codes of a column's values as stripped text (``astype(str).str.strip()``, computed
    on the distinct values only; -1 for a missing value), and those texts."""
    codes, uniques = _factorize(column)         # missing values: code -1
    text = pd.Index(pd.Index(uniques).astype(str).str.strip())
    merged, names = pd.factorize(text)          # "x" and " x" are one name
    if len(merged) and not np.array_equal(merged, np.arange(len(merged))):
        codes = np.where(codes < 0, -1, merged[codes])
    return codes, pd.Index(names)


def _winner_by_name(raw: pd.Index, wcode: np.ndarray, model_of: np.ndarray,
                    ia: np.ndarray, ib: np.ndarray, side: np.ndarray,
                    names: pd.Index) -> np.ndarray:
    """The winner as a side (0 = a, 1 = b, 2 = tie, -1 unknown), where ``winner`` holds the
    winning model's name.

    When every row's winner is a tie or the name of one of the row's two models, the names
    give the side. If those names are also spellings of a side ("A"/"B", "model_a") and the
    two readings disagree on some row, the table is ambiguous and refused. Otherwise the
    side spellings (``side``) stand. ``raw``: the stripped winner texts, ``wcode`` each
    row's code into them, ``model_of`` the model code of each text (-1: no model's name).
    """
    if (model_of < 0).all():                # no winner is a model's name
        return side
    named = model_of[wcode]
    is_a, is_b = named == ia, named == ib
    tie = side == 2
    if not (is_a | is_b).any() or not (is_a | is_b | tie).all():
        return side
    by_name = np.where(is_a, 0, np.where(is_b, 1, 2)).astype(side.dtype)
    if (side >= 0).all():
        differ = side != by_name
        if differ.any():
            i = int(np.flatnonzero(differ)[0])
            values = sorted(set(raw[np.unique(wcode)]))[:4]
            raise InvalidInputError(
                f"column 'winner' is ambiguous: its values ({', '.join(map(repr, values))}) "
                "are the names of the models that won and also the spellings of a side (a = "
                "model_a won, b = model_b won), and the two readings disagree on "
                f"{int(differ.sum())} rows, e.g. row {i + 1} (model_a = {names[ia[i]]!r}, "
                f"model_b = {names[ib[i]]!r}, winner = {raw[wcode[i]]!r}). Write the winner "
                "as the side (a, b or tie), or rename the models so that no model is called "
                "a or b.")
    return by_name


def _raw_table(source, encoding) -> tuple[pd.DataFrame, bool]:
    """The battles as read, with lower-cased column names; whether it is an Arena log."""
    arena = False
    if isinstance(source, pd.DataFrame):
        df = source.copy(deep=False)
    elif isinstance(source, list):
        df, arena = pd.DataFrame.from_records(source), True
    elif str(source).lower().endswith(ARENA_SUFFIXES):
        df, arena = read_arena_log(source, encoding=encoding), True
    else:
        df = read_table(source, encoding=encoding)
    df.columns = [str(c).strip().lower() for c in df.columns]
    return df.reset_index(drop=True), arena


def _battle_codes(source, encoding, anony_only, drop_ties, language):
    """Checked battles as codes: (names, ia, ib, side, weight, notes), rows of weight 0 and
    the rows the filters drop left out."""
    df, arena = _raw_table(source, encoding)
    missing = [c for c in BATTLE_COLUMNS if c not in df.columns]
    if missing:
        raise InvalidInputError(
            f"the battles table has no column {', '.join(map(repr, missing))}; it needs "
            "model_a, model_b, winner (a, b or tie) and optionally weight, one row per "
            f"battle (columns found: {', '.join(map(str, df.columns))}).")
    coded = {col: _codes(df[col]) for col in BATTLE_COLUMNS}
    for col in BATTLE_COLUMNS:
        absent = coded[col][0] < 0          # pandas' missing values have no code
        if absent.any():
            raise InvalidInputError(
                f"{col} is missing in row {int(np.flatnonzero(absent)[0]) + 1} (and "
                f"{int(absent.sum()) - 1} other rows): every battle needs both models and a "
                "winner; drop or fill those rows.")
    (ca, names_a), (cb, names_b), (wcode, raw) = (coded[c] for c in BATTLE_COLUMNS)
    names = names_a.append(names_b).unique()
    ia = names.get_indexer(names_a)[ca] if len(ca) else ca
    ib = names.get_indexer(names_b)[cb] if len(cb) else cb
    spelled = raw.str.lower()
    side_of = np.array([SIDE.get(WINNERS.get(v), -1) for v in spelled], dtype=np.int8)
    side = _winner_by_name(raw, wcode, names.get_indexer(raw), ia, ib, side_of[wcode], names)
    unknown = side < 0
    if unknown.any():
        values = sorted(set(df["winner"][unknown].astype(str)))[:5]
        if all(v.strip() in set(names) for v in values):
            raise InvalidInputError(
                f"column 'winner' holds model names on some rows ({', '.join(map(repr, values))}"
                f", e.g. {_first_bad(unknown, df, 'winner')}) but not the name of one of the "
                "two models of every battle: write every winner as the name of one of its "
                "row's models or 'tie', or every winner as a side (a, b or tie).")
        raise InvalidInputError(
            f"winner must be a, b or tie (Chatbot Arena's model_a, model_b, tie and "
            f"'tie (bothbad)' are read as these); {_first_bad(unknown, df, 'winner')} is not "
            f"one of them (unknown values: {', '.join(map(repr, values))}).")
    itself = ia == ib
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
    keep, steps = battle_filters(df, side, np.asarray(spelled == BOTHBAD)[wcode],
                                 anony_only=anony_only, drop_ties=drop_ties,
                                 language=language)
    notes = []
    filtered = anony_only or language is not None or drop_ties != "none"
    if arena or steps:
        what = "Chatbot Arena battle log" if arena else "battles"
        if not filtered:
            steps.insert(0, "all kept (no filter on anony, language or ties)")
        notes.append(f"{what}: {len(df):,} battles read; " + "; ".join(steps) + ".")
    keep &= weight > 0
    if not keep.any():
        raise TooFewError("the battles table has no battle of positive weight"
                          + (" left after the filters." if filtered else "."))
    if not keep.all():
        ia, ib, side, weight = ia[keep], ib[keep], side[keep], weight[keep]
    n_models = int(np.count_nonzero(np.bincount(ia, minlength=len(names))
                                    + np.bincount(ib, minlength=len(names))))
    if n_models < 2:
        raise TooFewError(f"the battles involve {n_models} model; a rating needs at least 2.")
    return np.asarray(names, dtype=object), ia, ib, side, weight, notes


def read_battles(source, *, anony_only: bool = False, drop_ties: str = "none",
                 language=None, encoding: str | None = None) -> pd.DataFrame:
    """Read and check pairwise battles: who played whom and who won.

    Parameters
    ----------
    source : str, Path, DataFrame or list of dict
        A .csv/.tsv/.parquet file (read by :func:`read_table`), a Chatbot Arena battle log
        (.json: a list of records; .jsonl: one record per line) or its records, or a
        DataFrame, with columns ``model_a``, ``model_b``, ``winner`` and optionally
        ``weight``; other columns are ignored but by the filters. ``winner`` is ``a``
        (model_a won), ``b`` (model_b won) or ``tie``, in any case; Chatbot Arena's
        ``model_a``, ``model_b``, ``tie`` and ``tie (bothbad)`` are accepted too, and so is
        the name of the model that won (when every winner is a tie or a name of its row's
        models). ``weight`` (default 1) is the number of battles a row stands for.
    anony_only : bool
        Keep the battles whose column ``anony`` is true (Chatbot Arena's leaderboard rates
        these only: the voter did not see the models' names).
    drop_ties : {"none", "all", "bothbad"}
        Drop no tie (default), every tie, or the ``tie (bothbad)`` votes only.
    language : str or list of str, optional
        Keep the battles whose column ``language`` is one of these (e.g. "English").
    encoding : str, optional
        Text encoding of a file that is not UTF-8.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_a``, ``model_b`` (str), ``winner`` (``"a"``, ``"b"`` or ``"tie"``) and
        ``weight`` (float), one row per input row kept, rows of weight 0 dropped. With a
        battle log or a filter, ``attrs["notes"]`` says what was read and kept.

    Raises
    ------
    InvalidInputError
        A missing column; a missing model name or winner; a winner outside the accepted
        spellings; winners that are model names called like a side ("A"/"B") when the two
        readings differ; a model battling itself; a weight that is negative, NaN or infinite;
        a filter's missing column; a battle log that is not JSON (the line named).
    TooFewError
        No battle of positive weight (left by the filters), or fewer than 2 models.

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
    names, ia, ib, side, weight, notes = _battle_codes(source, encoding, anony_only,
                                                       drop_ties, language)
    out = pd.DataFrame({"model_a": names[ia], "model_b": names[ib],
                        "winner": np.array(["a", "b", "tie"], dtype=object)[side],
                        "weight": weight})
    out.attrs["notes"] = tuple(notes)
    return out


def battle_counts(source, *, anony_only: bool = False, drop_ties: str = "none",
                  language=None, encoding: str | None = None) -> pd.DataFrame:
    """Battles aggregated into counts: the distinct (model_a, model_b, winner, weight) rows
    and how many battles each stands for.

    The same reading, checks and filters as :func:`read_battles` (same parameters); the
    rows are counted on integer codes (``np.bincount``, or ``np.unique`` when the models
    are too many for a dense tally), never per battle in Python. Fitting Bradley–Terry on
    the counts (``counts=``) gives the fit on the battles, and resampling the counts
    multinomially is resampling the battles.

    Returns
    -------
    pandas.DataFrame
        Columns ``model_a``, ``model_b``, ``winner`` (a, b, tie), ``weight`` (float) and
        ``count`` (int64, >= 1), sorted by model_a, model_b (in order of first appearance),
        winner and weight; ``attrs["notes"]`` as in :func:`read_battles`.

    Examples
    --------
    >>> df = pd.DataFrame({"model_a": ["x", "x", "y", "x"], "model_b": ["y", "y", "x", "y"],
    ...                    "winner": ["model_a", "model_a", "tie", "model_b"]})
    >>> battle_counts(df)
      model_a model_b winner  weight  count
    0       x       y      a     1.0      2
    1       x       y      b     1.0      1
    2       y       x    tie     1.0      1
    """
    names, ia, ib, side, weight, notes = _battle_codes(source, encoding, anony_only,
                                                       drop_ties, language)
    m = len(names)
    key = (ia.astype(np.int64) * m + ib) * 3 + side
    if np.all(weight == weight[0]) and m * m * 3 <= MAX_BINCOUNT_KEYS:
        tally = np.bincount(key, minlength=m * m * 3)
        keys = np.flatnonzero(tally)
        count, w = tally[keys], np.full(keys.size, weight[0])
    else:
        both, count = np.unique(np.column_stack([key, weight]), axis=0, return_counts=True)
        keys, w = both[:, 0].astype(np.int64), both[:, 1]
    pair, out_side = np.divmod(keys, 3)
    out = pd.DataFrame({"model_a": names[pair // m], "model_b": names[pair % m],
                        "winner": np.array(["a", "b", "tie"], dtype=object)[out_side],
                        "weight": w, "count": count.astype(np.int64)})
    out.attrs["notes"] = tuple(notes)
    return out
