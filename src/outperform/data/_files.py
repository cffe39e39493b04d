"""Reading result files: CSV/TSV/TXT and Parquet, with their format told from their bytes.

A CSV file's encoding (UTF-8 with or without a byte-order mark, UTF-16 with one), field
delimiter (``,``, ``;``, tab or ``|``) and decimal mark (``0.91`` or, in files not separated by
commas, ``0,91``) are detected from a sample of its first lines; the whole file is then parsed
by pandas' C parser, which streams it in chunks. Task and model columns are read as
categorical text, never as numbers or missing values, so models named ``NA``, ``None``, ``1``
and ``1.0`` stay four distinct names. Every unreadable file raises
:class:`~outperform.InvalidInputError` naming the file and what to do.
"""
from __future__ import annotations

import codecs
import csv
import functools
import io
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .._validation import InvalidInputError
from ._columns import MODEL, TASK, column_role

TEXT_SUFFIXES = (".csv", ".txt", ".tsv")
PARQUET_SUFFIXES = (".parquet", ".pq")
DELIMITERS = (",", "\t", ";", "|")  # preference order when several split the sample evenly
SAMPLE_LINES = 20  # complete lines wanted in the sample (a wide header may span many KB)
SAMPLE_MAX_BYTES = 1 << 20
# pandas' default missing-value strings; task and model columns do not use them.
NA_STRINGS = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
              "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")
COMMA_NUMBER = re.compile(r"\s*[-+]?\d*,\d+(?:[eE][-+]?\d+)?\s*")
_DOT_NUMBER = re.compile(r"\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")
_BINARY = {b"PAR1": "a Parquet file", b"PK\x03\x04": "a ZIP archive (an Excel .xlsx workbook?)",
           b"\xd0\xcf\x11\xe0": "an Excel .xls workbook", b"\x1f\x8b": "gzip-compressed",
           b"%PDF": "a PDF document"}
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


@dataclass(frozen=True)
class CsvFormat:
    """What the sample of a text file says about how to parse it."""

    encoding: str
    sep: str
    decimal: str
    header: tuple[str, ...]


def _text_columns(header) -> set[str]:
    """Header names of the task and model columns (or their aliases): read as text."""
    return {h for h in header if column_role(h) in (TASK, MODEL)}


def _check_path(path: Path) -> None:
    if not path.exists():
        raise InvalidInputError(f"results file {str(path)!r} does not exist.")
    if path.is_dir() and not _holds_parquet(path):
        raise InvalidInputError(
            f"{str(path)!r} is a directory, not a results file: give the path of a .csv, .tsv or "
            ".parquet file (a directory is read only as a partitioned Parquet data set).")


def _holds_parquet(folder: Path, limit: int = 1000) -> bool:
    """Whether a folder holds .parquet files, looking at no more than ``limit`` entries."""
    for seen, entry in enumerate(folder.rglob("*")):
        if entry.suffix.lower() == ".parquet":
            return True
        if seen >= limit:
            return False
    return False


def _head(path: Path) -> bytes:
    """The file's first bytes, up to SAMPLE_LINES complete lines (or SAMPLE_MAX_BYTES)."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 16)
            while data.count(b"\n") <= SAMPLE_LINES and len(data) < SAMPLE_MAX_BYTES:
                more = f.read(1 << 16)
                if not more:
                    break
                data += more
    except PermissionError:
        raise InvalidInputError(f"cannot open {str(path)!r}: permission denied.") from None
    return data


def _not_decodable(path: Path, encoding: str, offset: int, line: int, bad: bytes) -> InvalidInputError:
    return InvalidInputError(
        f"cannot read {path.name!r} as {encoding}: byte {offset} (line {line}) is {bad!r}, which is "
        f"not valid {encoding}. The file was probably saved in another encoding (spreadsheet "
        "programs often write Windows-1252): re-save it as UTF-8 (in Excel: 'CSV UTF-8'), or "
        "name its encoding: --encoding cp1252 on the command line, encoding='cp1252' in "
        "Python.")


def _locate_undecodable(path: Path, encoding: str) -> InvalidInputError:
    """Scan the file for its first undecodable byte (called only after a decoding failure)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    offset, lines = 0, 1
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                # exc.start counts from the undecoded bytes the decoder carried into this chunk.
                carried = len(exc.object) - len(chunk)
                at = offset - carried + exc.start
                head = exc.object[:exc.start]
                return _not_decodable(path, encoding, at, lines + head.count(b"\n"),
                                      exc.object[exc.start:exc.end])
            offset += len(chunk)
            lines += chunk.count(b"\n")
    return InvalidInputError(f"cannot read {path.name!r} as {encoding}: re-save it as UTF-8.")


def _decode_sample(path: Path, data: bytes, encoding: str | None, whole: bool) -> tuple[str, str]:
    """The encoding to use and the decoded sample (a trailing partial character dropped)."""
    if encoding is not None:
        try:
            encoding = codecs.lookup(encoding).name
        except LookupError:
            raise InvalidInputError(f"unknown encoding {encoding!r}; use a Python codec name such "
                                    "as 'utf-8', 'cp1252' or 'latin-1'.") from None
    bom = next((name for mark, name in _BOMS if data.startswith(mark)), None)
    if encoding is None or (bom == "utf-8-sig" and encoding == "utf-8"):
        encoding = bom or encoding or "utf-8"
    decoder = codecs.getincrementaldecoder(encoding)()
    try:
        text = decoder.decode(data, final=whole)
    except UnicodeDecodeError as exc:
        raise _not_decodable(path, encoding, exc.start, data[:exc.start].count(b"\n") + 1,
                             data[exc.start:exc.end]) from None
    if "\x00" in text:
        raise InvalidInputError(
            f"{path.name!r} holds NUL bytes: it is a binary file, not a CSV text file. Export the "
            "results as CSV (UTF-8) or Parquet.")
    return encoding, text


def _records(text: str, sep: str, whole: bool) -> list[list[str]]:
    try:
        rows = [r for r in csv.reader(io.StringIO(text, newline=""), delimiter=sep) if r]
    except csv.Error:
        return []
    return rows if whole or len(rows) < 2 else rows[:-1]  # the last line may be cut short


def _delimiter(records_by_sep: dict[str, list[list[str]]]) -> str:
    """The delimiter that splits every sample line into the same number (> 1) of fields."""
    even = {sep: len(rows[0]) for sep, rows in records_by_sep.items()
            if rows and len(rows[0]) > 1 and all(len(r) == len(rows[0]) for r in rows)}
    if even:
        return max(even, key=lambda s: (even[s], -DELIMITERS.index(s)))
    # Ragged lines: take the delimiter most lines agree on; the parser then names the bad line.
    def agreement(sep):
        counts = [len(r) for r in records_by_sep[sep]]
        top = max(set(counts), key=counts.count, default=1)
        return (top > 1, counts.count(top) if top > 1 else 0)
    return max(DELIMITERS, key=agreement)


def _decimal_mark(path: Path, rows: list[list[str]], sep: str) -> str:
    """``","`` when the numeric columns write ``0,91`` (and none ``0.91``), else ``"."``."""
    header, data = rows[0], rows[1:]
    text = _text_columns(header)
    comma, dot = [], []
    for j, name in enumerate(header):
        if name in text:
            continue
        values = [r[j].strip() for r in data if j < len(r) and r[j].strip() not in NA_STRINGS]
        if not all(COMMA_NUMBER.fullmatch(v) or _DOT_NUMBER.fullmatch(v) for v in values):
            continue  # a text column
        # Integers fit both marks; one "0,91" or "0.91" tells the column's mark.
        with_comma = [v for v in values if "," in v]
        with_dot = [v for v in values if "." in v]
        if with_comma:
            comma.append((name, with_comma[0]))
        if with_dot:
            dot.append((name, with_dot[0]))
    if not comma:
        return "."
    if sep == ",":
        raise InvalidInputError(
            f"column {comma[0][0]!r} of {path.name!r} holds numbers with a decimal comma (e.g. "
            f"{comma[0][1]!r}) in a comma-separated file: re-save it with decimal points, or with "
            "';' between fields (a ';'-separated file with decimal commas is read as such).")
    if dot:
        raise InvalidInputError(
            f"{path.name!r} mixes decimal marks: column {comma[0][0]!r} writes {comma[0][1]!r} and "
            f"column {dot[0][0]!r} writes {dot[0][1]!r}. Use one decimal mark for every number.")
    return ","


def _second_header(rows: list[list[str]]) -> str | None:
    """Advice for a file written from columns with two header rows (a pandas MultiIndex):
    the line under the header holds no number and tells the repeated
    names apart. None if it does not look like that."""
    if len(rows) < 2 or len(rows[1]) != len(rows[0]):
        return None
    names = Counter(h.strip() for h in rows[0])
    pairs = [(h.strip(), s.strip()) for h, s in zip(rows[0], rows[1])
             if h.strip() and names[h.strip()] > 1]
    below = [s for _, s in pairs]
    if len(set(pairs)) < len(pairs) or not all(below) or any(
            COMMA_NUMBER.fullmatch(s) or _is_number(s) for s in rows[1] if s.strip()):
        return None
    return (f"the file has 2 header rows (a column MultiIndex): flatten the columns to one "
            f"row of model names such as {' '.join(pairs[0])!r} (the second row starts "
            f"{below[0]!r}), e.g. df.columns = [' '.join(c) for c in df.columns] before "
            "writing it.")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sniff_csv(path: Path, *, encoding: str | None = None, sep: str | None = None) -> CsvFormat:
    """Encoding, delimiter, decimal mark and header of a text results file, from its first lines.

    The answer is remembered while the file keeps its size and modification time, so asking
    for the columns and then reading the file sniffs it once.

    Raises
    ------
    InvalidInputError
        Empty file, binary content (Parquet, Excel, gzip, PDF, NUL bytes), bytes not valid in
        the encoding, a single column, a header naming a column twice, decimal commas that
        cannot be told from field separators.
    """
    stat = path.stat()
    return _sniff(path.resolve(), stat.st_size, stat.st_mtime_ns, encoding, sep)


@functools.lru_cache(maxsize=16)
def _sniff(path: Path, size: int, mtime_ns: int, encoding: str | None, sep: str | None
           ) -> CsvFormat:
    data = _head(path)
    whole = len(data) == size
    if not data.strip(b" \t\r\n" + codecs.BOM_UTF8):
        raise InvalidInputError(f"{path.name!r} is empty: it has no header and no rows.")
    for magic, kind in _BINARY.items():
        if data.startswith(magic):
            hint = ("rename it to .parquet" if magic == b"PAR1" else
                    "export the results as CSV (UTF-8) or Parquet")
            raise InvalidInputError(f"{path.name!r} is {kind}, not a CSV text file: {hint}.")
    encoding, text = _decode_sample(path, data, encoding, whole)
    text = text.lstrip("\ufeff")
    if sep is None:
        by_sep = {s: _records(text, s, whole) for s in DELIMITERS}
        sep = _delimiter(by_sep)
        rows = by_sep[sep]
    else:
        rows = _records(text, sep, whole)
    if not rows or len(rows[0]) < 2:
        first = rows[0][0] if rows and rows[0] else ""
        raise InvalidInputError(
            f"{path.name!r} has a single column ({first[:60]!r}): separate the fields of each "
            "line with ',', ';', a tab or '|', and give a header such as 'task,model,score'.")
    header = tuple(rows[0])
    seen = Counter(h.strip() for h in header if h.strip())
    twice = [(name, n) for name, n in seen.items() if n > 1]
    if twice:
        raise InvalidInputError(
            f"the header of {path.name!r} names column {twice[0][0]!r} {twice[0][1]} times: "
            + (_second_header(rows) or "give each column (model) a distinct name."))
    return CsvFormat(encoding, sep, _decimal_mark(path, rows, sep), header)


def _read_csv(path: Path, fmt: CsvFormat) -> pd.DataFrame:
    # pandas names an empty header field "Unnamed: i"; an empty first one is a written index.
    names = [h if h.strip() else f"Unnamed: {i}" for i, h in enumerate(fmt.header)]
    text = _text_columns(names) | ({names[0]} if not fmt.header[0].strip() else set())
    try:
        return pd.read_csv(
            path, sep=fmt.sep, decimal=fmt.decimal, encoding=fmt.encoding, engine="c",
            dtype={c: "category" for c in text}, keep_default_na=False,
            na_values={c: list(NA_STRINGS) for c in names if c not in text},
            index_col=0 if not fmt.header[0].strip() else None)
    except UnicodeDecodeError:
        raise _locate_undecodable(path, fmt.encoding) from None
    except pd.errors.EmptyDataError:
        raise InvalidInputError(f"{path.name!r} is empty: it has no header and no rows.") from None
    except pd.errors.ParserError as exc:
        why = str(exc).replace("Error tokenizing data. C error: ", "").strip()
        raise InvalidInputError(
            f"cannot parse {path.name!r} (fields separated by {fmt.sep!r}): {why}. Every line "
            "needs as many fields as the header; quote fields that contain the separator.") from None


def _read_parquet(path: Path) -> pd.DataFrame:
    if path.is_file():
        with open(path, "rb") as f:
            magic = f.read(4)
        if not magic:
            raise InvalidInputError(f"{path.name!r} is empty: it has no header and no rows.")
        if magic != b"PAR1":
            kind = "a text file (CSV?)" if _looks_like_text(path) else "not a Parquet file"
            raise InvalidInputError(
                f"{path.name!r} is named {path.suffix} but is {kind}: rename it to match its "
                "content (.csv for comma-separated text), or export it again as Parquet.")
    try:
        if path.is_dir():
            return pd.read_parquet(path)
        import pyarrow.parquet as pq

        # Task and model strings decoded as dictionaries: categorical columns, one string each.
        text = _text_columns(pq.read_schema(path).names)
        return pd.read_parquet(path, read_dictionary=sorted(text))
    except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
        raise InvalidInputError(f"cannot read the Parquet file {path.name!r}: {exc}. Export it "
                                "again, or as CSV.") from None


def _looks_like_text(path: Path) -> bool:
    with open(path, "rb") as f:
        data = f.read(4096)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start > len(data) - 4  # only a character cut at the sample's end
    return b"\x00" not in data


def read_table(path: str | Path, *, encoding: str | None = None) -> pd.DataFrame:
    """Read a CSV, TSV or Parquet file into a DataFrame, chosen by the file suffix.

    Text files: the encoding (UTF-8, a UTF-8 or UTF-16 byte-order mark), the delimiter (``,``,
    ``;``, tab, ``|``; a ``.tsv`` file is tab-separated) and the decimal mark (a decimal comma
    in a file not separated by commas) come from the first lines. Task and model columns (and
    their aliases, see :mod:`outperform.data._schema`) are categorical text: ``NA``, ``None``,
    ``1`` and ``1.0`` are names, not missing values or numbers. An unnamed first column (a
    written pandas index) becomes the index.

    Parameters
    ----------
    path : str or Path
        A .csv, .txt, .tsv or .parquet/.pq file, or a directory of a partitioned Parquet data set.
    encoding : str, optional
        Text encoding (a Python codec name such as ``"cp1252"``) when the file is not UTF-8.

    Raises
    ------
    InvalidInputError
        Missing file, a directory without Parquet files, an unknown suffix, an empty file, a
        file whose content does not match its suffix, undecodable bytes (the message names the
        byte offset and line), lines with the wrong number of fields, a header naming a column
        twice.
    """
    path = Path(path)
    _check_path(path)
    suffix = path.suffix.lower()
    if path.is_dir() or suffix in PARQUET_SUFFIXES:
        return _read_parquet(path)
    if suffix in TEXT_SUFFIXES:
        return _read_csv(path, sniff_csv(path, encoding=encoding,
                                         sep="\t" if suffix == ".tsv" else None))
    raise InvalidInputError(
        f"cannot read {path.name!r}: use a .csv, .tsv or .parquet file, or pass a DataFrame.")


def read_columns(path: str | Path, *, encoding: str | None = None) -> tuple[str, ...]:
    """Column names of a results file, read from its header (or Parquet schema) only.

    Raises
    ------
    InvalidInputError
        As :func:`read_table`.
    """
    path = Path(path)
    _check_path(path)
    suffix = path.suffix.lower()
    if path.is_dir():
        return tuple(read_table(path).columns)
    if suffix in PARQUET_SUFFIXES:
        import pyarrow.parquet as pq

        try:
            names = pq.read_schema(path).names
        except (OSError, ValueError):
            return tuple(_read_parquet(path).columns)  # raises the full read's message
        return tuple(n for n in names if not n.startswith("__index_level_"))
    if suffix in TEXT_SUFFIXES:
        fmt = sniff_csv(path, encoding=encoding, sep="\t" if suffix == ".tsv" else None)
        return fmt.header[1:] if not fmt.header[0].strip() else fmt.header
    raise InvalidInputError(
        f"cannot read {path.name!r}: use a .csv, .tsv or .parquet file, or pass a DataFrame.")
