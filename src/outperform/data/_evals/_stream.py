"""Hugging Face evaluation details streamed into bit-packed items x models matrices.

One file or thousands (lighteval's ``details/<org>/<model>/<date>/details_<task>_<date>.parquet``,
the schemas of :mod:`._hf_details`), read one at a time with Parquet column projection: the
item id (``doc.id``; the flat schema's ``example`` and ``gold``, which its id is a hash
of), the chosen metric and, with ``cluster``, the specifics. Prompts, predictions and
every other column are never read. Item ids become integer codes once per task
(``pyarrow.compute.index_in`` against the ids seen so far); each model's scores go into its
row of the task's :class:`~outperform.data._item_matrix.ItemMatrix`, bit-packed while
reading when they are 0/1. No (model, item) table of Python objects is built.

Memory: about ``k * n / 8`` bytes per task for 0/1 scores (k models, n items), ``4 * k * n``
for graded ones, plus one file's projected columns; 2,000 models x 6 tasks x 10,000 0/1 items
hold 15 MB of scores. Differences from :func:`read_eval_logs` + :func:`pair_items` (same
scores, same pairing): the nested schema's ``doc.id`` is trusted without hashing the
document (the content check needs the text columns this reader skips); graded scores are
float32.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..._validation import InvalidInputError, TooFewError
from .._item_matrix import ItemMatrix, pack
from ._hf_details import FLAT, NAME, NESTED, _clusters, _metric_columns, _model, _text, no_metrics, \
    item_ids
from ._schema import BINARY, UNIT, EvalRun

FIRST = 5   # ids shown in a message


@dataclass(frozen=True)
class StreamedDetails:
    """Per task, the models' scores as an :class:`ItemMatrix`, with the provenance.

    Attributes
    ----------
    matrices : dict of str to ItemMatrix
        In order of first appearance of the tasks.
    runs : tuple of EvalRun
        One per file read.
    timings : dict of str to float
        Seconds spent reading the files (``read``: Parquet decoding of the projected
        columns) and pairing them (``pair``: ids to codes, packing, assembly).
    notes : tuple of str
    hashed : dict of str to set of str
        Per task, the models whose ``doc.id`` was repeated or empty, their items then
        identified by the content hash (the rule of :mod:`._hf_details`).
    """

    matrices: dict
    runs: tuple
    timings: dict
    notes: tuple = field(default_factory=tuple)
    hashed: dict = field(default_factory=dict)

    def why_missing(self, task: str, models) -> str:
        """Words to add to a refusal for items missing in ``task``: the models among
        ``models`` whose ids are content hashes because their ``doc.id`` is unusable."""
        found = [m for m in models if m in self.hashed.get(task, ())]
        if not found:
            return ""
        return (f" The doc.id values of {found[:FIRST]} are repeated or empty, so their items "
                "are identified by a hash of query, choices and gold instead: fix their ids.")

    @property
    def models(self) -> tuple[str, ...]:
        return next(iter(self.matrices.values())).models


def details_files(paths) -> list[Path] | None:
    """The details files of ``paths`` (files or folders searched recursively) when every
    evaluation log among them is one, else None (another reader applies)."""
    from ._read import _sources

    items = paths if isinstance(paths, (list, tuple)) else [paths]
    if not items or not all(isinstance(p, (str, Path)) and Path(p).exists() for p in items):
        return None
    found, folders = [], [Path(p) for p in items if Path(p).is_dir()]
    try:
        for kind, source in _sources(items, "auto", []):
            if kind not in ("hf-details", "csv"):
                return None     # logs of several tools: the whole-file readers pair them
            if kind == "csv":
                other = f"{source} is not a Hugging Face details file."
                break
            found.append(Path(source))
        else:
            return found or None
    except InvalidInputError as exc:    # not an evaluation log: another reader's message...
        other = str(exc)
    # ...unless details files are beside it: then the folder was meant as one of details
    if found or any(next(f.rglob("details_*.parquet"), None) for f in folders):
        raise InvalidInputError(f"{other} The folder also holds Hugging Face details files: "
                                "a folder of details must hold only them (move the other "
                                "file out, or give the details files).")
    return None


def stream_details(paths, *, metric=None, cluster: str | None = None,
                   task: str | None = None, progress: bool = False) -> StreamedDetails:
    """Read Hugging Face details files into one :class:`ItemMatrix` per task.

    Parameters
    ----------
    paths : path or sequence of paths
        Details files, or folders holding them (searched recursively).
    metric : str or mapping of str to str, optional
        Per-sample metric (one for all tasks, or per task); default each task's first
        numeric one in its first file. A task whose first file lacks it is left out (a note).
    cluster : str, optional
        Field of each sample's specifics grouping the items.
    task : str, optional
        Read the files of this task only.
    progress : bool
        A progress bar over the files, and the time split on stderr at the end.

    Raises
    ------
    InvalidInputError
        No details file; a file of another schema (names the columns it lacks); one model
        with one task in two files; the metric missing from a file of a task that has it;
        a score that is not a finite number, or outside its metric's range (``acc`` not 0/1);
        item ids repeated within a file after the content-hash rule; an item in two clusters.

    Examples
    --------
    >>> import pyarrow as pa, pyarrow.parquet as pq, tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for model, acc in (("a", [1, 0, 1]), ("b", [1, 1, 0])):
    ...     folder = root / "details" / "org" / model / "2025-01-01T00-00-00"
    ...     folder.mkdir(parents=True)
    ...     rows = [{"doc": {"id": str(i), "query": "q"}, "metric": {"acc": float(s)}}
    ...             for i, s in enumerate(acc)]
    ...     pq.write_table(pa.Table.from_pylist(rows[::-1] if model == "b" else rows),
    ...                    folder / "details_arc|0_2025-01-01T00-00-00.parquet")
    >>> m = stream_details(root).matrices["arc|0"]
    >>> m.models, m.items.tolist(), m.scores().tolist()
    (('org/a', 'org/b'), ['0', '1', '2'], [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    """
    from ..._parallel import progress_bar

    files = details_files(paths)
    if not files:
        raise InvalidInputError(f"no Hugging Face details file (details_<task>_<date>.parquet) "
                                f"in {paths!s}.")
    tasks: dict[str, _Task] = {}
    models: dict[str, None] = {}
    runs, notes, seen, hashed = [], [], {}, {}
    for path in files:          # names only: the (model, task) of every file, checked first
        match = NAME.match(path.name)
        name, model = (match["task"] if match else path.stem), _model(path)
        if (model, name) in seen:
            raise InvalidInputError(f"model {model!r} has task {name!r} in several runs "
                                    f"({seen[model, name]}, {path}); give one run per model "
                                    "and task.")
        seen[model, name] = path
        models.setdefault(model)
    if task is not None:
        found = list(dict.fromkeys(t for _, t in seen))
        if task not in found:
            raise InvalidInputError(f"task {task!r} is not among the details files' tasks "
                                    f"{', '.join(map(repr, found[:10]))}"
                                    + (f" and {len(found) - 10} more." if len(found) > 10
                                       else "."))
        seen = {key: path for key, path in seen.items() if key[1] == task}
    _cost(seen)
    clock = {"read": 0.0, "pair": 0.0}
    started = time.perf_counter()
    with progress_bar(len(files), progress, "reading details files") as advance:
        for (model, task), got in _prefetched(seen, metric, cluster):
            path = seen[model, task]
            ids, values, labels, found, available, unusable_ids = got
            if unusable_ids:
                hashed.setdefault(task, set()).add(model)
            t1 = time.perf_counter()
            state = tasks.get(task)
            if state is None:
                state = tasks[task] = _Task(task, found if ids is not None else None)
                if ids is None:
                    notes.append(f"task {task!r} left out: it has no metric "
                                 f"{_wanted(metric, task)!r} (it has {available}).")
            elif state.metric is not None and found != state.metric:
                if state.metric not in available:
                    raise InvalidInputError(
                        f"{path}: metric {state.metric!r} is missing (this file logs "
                        f"{available}); the models must be scored by the same metric.")
                ids, values, labels, found, available, _ = _read_file(path, state.metric,
                                                                      cluster)
            if state.metric is not None:
                state.add(model, ids, values, labels, path)
            shots = task.rsplit("|", 1)[-1] if "|" in task else None
            runs.append(EvalRun(harness="lighteval", harness_version="details, streamed",
                                file=str(path), model=model, task=task,
                                prompt={"num_fewshot": shots} if shots is not None else {}))
            clock["pair"] += time.perf_counter() - t1
            advance()
    clock["read"] = time.perf_counter() - started - clock["pair"]
    t0 = time.perf_counter()
    order = tuple(models)
    matrices = {t: s.matrix(order) for t, s in tasks.items() if s.metric is not None}
    clock["pair"] += time.perf_counter() - t0
    if not matrices:
        raise TooFewError("no task is shared by all models with the chosen metric. "
                          + " ".join(notes))
    if progress:
        from rich.console import Console

        Console(stderr=True).print(f"read {len(files):,} details files in {clock['read']:.1f} s; "
                                   f"paired their items in {clock['pair']:.1f} s")
    return StreamedDetails(matrices=matrices, runs=tuple(runs), timings=clock,
                           notes=tuple(notes), hashed=hashed)


def _cost(files: dict) -> None:
    """Costed before reading (check_cost): per file, its rows (those of the first file) as
    the float64 matrix the callers unpack to (8 bytes each), at 3 ms a file (the fast end
    of 3-8 ms measured on 10,000-row files, 2 cores under load)."""
    import pyarrow.parquet as pq

    from ..._cost import check_cost

    try:
        rows = pq.ParquetFile(next(iter(files.values()))).metadata.num_rows
    except Exception:           # an unreadable file is refused by name when it is read
        return
    check_cost("details files", len(files),
               work=f"{len(files):,} details files of ~{rows:,} items",
               bytes_per_unit=8.0 * rows, seconds_per_unit=3e-3,
               advice="read fewer models' files, or one task with --task")


#: Files read ahead by the reading threads (bounds the memory held by read files).
AHEAD = 8


def _wanted(metric, task):
    return metric.get(task) if isinstance(metric, dict) else metric


def _prefetched(files: dict, metric, cluster):
    """((model, task), :func:`_read_file`'s result) of every file, in order, read by two
    threads at most ``AHEAD`` files ahead (Parquet decoding releases the GIL)."""
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    keys = iter(files)
    with ThreadPoolExecutor(max_workers=2) as pool:
        window = deque()
        for key in keys:
            window.append((key, pool.submit(_read_file, files[key], _wanted(metric, key[1]),
                                            cluster)))
            if len(window) >= AHEAD:
                key, future = window.popleft()
                yield key, future.result()
        while window:
            key, future = window.popleft()
            yield key, future.result()


def _read_file(path: Path, wanted, cluster):
    """(ids, float scores, cluster labels or None, metric name, metrics it has, whether
    ``doc.id`` was unusable) of one file, projected: the ids a pyarrow string array, the
    metric ``wanted`` or by default the file's first numeric one; no ids, scores, labels
    or name when it lacks ``wanted``."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    try:
        handle = pq.ParquetFile(path)
        schema = handle.schema_arrow
    except (OSError, ValueError, pa.ArrowException) as exc:
        raise InvalidInputError(f"{path}: not a readable Parquet file ({str(exc)[:160]}).") \
            from None
    if handle.metadata.num_rows == 0:
        raise InvalidInputError(f"{path}: the details file has no rows (samples).")
    names = set(schema.names)
    nested = set(NESTED) <= names and pa.types.is_struct(schema.field("doc").type)
    if not nested and not set(FLAT) <= names:
        raise no_metrics(path, names)
    box = "metric" if nested else "metrics"
    kind = schema.field(box).type
    numeric = ([f.name for f in kind if pa.types.is_integer(f.type) or pa.types.is_floating(
        f.type) or pa.types.is_boolean(f.type)] if pa.types.is_struct(kind) else None)
    doc = {f.name for f in schema.field("doc").type} if nested else set()
    asked = ([f"doc.{f}" for f in ("query", "choices", "gold_index") if f in doc] if nested
             else [c for c in ("example", "gold", "gold_index") if c in names][:2])
    columns = ((["doc.id", "doc.gold_index"] if "gold_index" in doc else ["doc.id"])
               if "id" in doc else asked) if nested else list(asked)
    name = wanted
    if numeric is not None and (name is None or (name in numeric and "." not in name)):
        name = name or (numeric[0] if numeric else None)
        columns.append(f"{box}.{name}" if name else box)
    else:
        columns.append(box)        # text-cast metrics, parsed per sample
    if cluster is not None:
        columns.append("doc.specific" if nested and "specific" in doc else
                       "specifics" if "specifics" in names else columns[0])
    table = handle.read(columns=list(dict.fromkeys(columns)))
    metrics = _metric_columns(table[box], box, path)
    if name is None:     # the first numeric one, as read_hf_details chooses
        name = next((k for k, v in metrics.items() if np.asarray(v).dtype.kind == "f"),
                    next(iter(metrics)))
    if name not in metrics:
        return None, None, None, None, sorted(metrics), False
    values = np.asarray(metrics[name])
    if values.dtype.kind != "f" or not np.isfinite(values).all():
        bad = int(np.flatnonzero(~np.isfinite(np.asarray(values, dtype=float)))[0]) \
            if values.dtype.kind == "f" else 0
        raise InvalidInputError(f"{path}: scores of metric {name!r} are not all finite numbers, "
                                f"e.g. {values[bad]!r} in row {bad}; fix the log or compare "
                                "another metric (--metric).")
    ids, unusable_ids = None, False
    if nested and "id" in doc:
        ids = table["doc"].combine_chunks().field("id").cast(pa.string())
        if ids.null_count or pc.any(pc.equal(ids, "")).as_py() \
                or pc.count_distinct(ids).as_py() < len(ids):
            ids, unusable_ids = None, True      # the content-hash rule: read what was asked
    if ids is None:
        extra = handle.read(columns=asked) if nested else table
        cols = ([extra["doc"].combine_chunks().field(c.split(".")[1]) for c in asked] if nested
                else [extra[c] for c in asked])
        ids = pa.array(item_ids([_text(c) for c in cols], None)[0].astype(str), pa.string())
    _check_range(name, values, ids, path)
    labels = {}
    if cluster is not None:
        specific = (table["doc"].combine_chunks().field("specific")
                    if nested and "specific" in doc else
                    table["specifics"].combine_chunks() if "specifics" in names else None)
        labels["cluster"] = _clusters(specific, cluster, path, ids.to_pylist())
    if nested and "gold_index" in doc and not unusable_ids:   # (hashed ids hold the gold)
        labels["gold"] = _text(table["doc"].combine_chunks().field("gold_index"))
    return ids, values, labels, name, sorted(metrics), unusable_ids


def _check_range(metric, values, ids, path) -> None:
    base = metric.split(",")[0].split("/")[-1]
    bad = ((~np.isin(values, (0.0, 1.0))) if base in BINARY else
           ((values < 0) | (values > 1)) if base in UNIT else None)
    if bad is not None and bad.any():
        k = int(np.flatnonzero(bad)[0])
        kind = "0 or 1 (wrong or right)" if base in BINARY else "between 0 and 1"
        raise InvalidInputError(
            f"{path}: {int(bad.sum())} score(s) of metric {metric!r} are not {kind}, first "
            f"{float(values[k])!r} for example {ids[k].as_py()!r}; the log is damaged or the "
            "metric misnamed: fix it or compare another metric (--metric).")


class _Task:
    """One task's rows as they are read: the ids seen (codes = positions), per model its
    scores (packed when 0/1) and the mask of the items it has."""

    def __init__(self, task: str, metric: str | None):
        self.task, self.metric = task, metric
        self.ids = None                 # pyarrow string array, grows with new ids
        self.labels: dict = {}          # per code: its cluster, its gold answer (nested)
        self.rows: dict[str, tuple] = {}

    def add(self, model, ids, values, labels: dict, path) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        if self.ids is None:
            codes = np.arange(len(ids))
            self.ids, self.labels = ids, dict(labels)
        elif len(ids) == len(self.ids) and ids.equals(self.ids) and all(
                k in self.labels and (v == self.labels[k]).all() for k, v in labels.items()):
            codes = np.arange(len(ids))         # the same items in the same order
        else:
            found = pc.index_in(ids, value_set=self.ids)
            new = found.is_null().to_numpy(zero_copy_only=False)
            codes = found.fill_null(-1).to_numpy().astype(np.int64)
            if new.any():
                codes[new] = len(self.ids) + np.arange(int(new.sum()))
                self.ids = pa.concat_arrays([self.ids, ids.filter(pa.array(new))])
                for key in list(self.labels):
                    if key in labels:
                        self.labels[key] = np.concatenate([self.labels[key], labels[key][new]])
                    else:               # a file without gold answers: no more gold checks
                        del self.labels[key]
            for key, v in labels.items():
                if key not in self.labels:
                    continue
                differ = v != self.labels[key][codes]
                if differ.any():
                    bad = ids.filter(pa.array(differ)).to_pylist()[:FIRST]
                    raise InvalidInputError(
                        f"task {self.task!r}: items {bad} are in different clusters for "
                        f"different models; the cluster of an item must be one ({path})."
                        if key == "cluster" else
                        f"task {self.task!r}: {int(differ.sum())} item(s) have a different gold "
                        f"answer (doc.gold_index) for different models, first {bad}: the runs "
                        f"used different data under the same ids; re-run on the same data "
                        f"({path}).")
        n = len(self.ids)
        binary = bool(np.isin(values, (0.0, 1.0)).all())
        row = np.zeros(n, dtype=bool if binary else np.float32)
        row[codes] = values
        has = None
        if len(codes) < n:
            has = np.zeros(n, dtype=bool)
            has[codes] = True
            has = pack(has)
        self.rows[model] = (pack(row) if binary else row, n, binary, has)

    def matrix(self, models) -> ItemMatrix:
        """The task's matrix over ``models`` (those lacking the task: every item absent)."""
        from .._item_matrix import unpack

        n, k = len(self.ids), len(models)
        nb = (n + 7) // 8
        binary = all(r[2] for r in self.rows.values())
        bits = np.zeros((k, nb), dtype=np.uint8) if binary else None
        values = None if binary else np.zeros((k, n), dtype=np.float32)
        complete = len(self.rows) == k and all(r[1] == n and r[3] is None
                                               for r in self.rows.values())
        present = None if complete else np.zeros((k, nb), dtype=np.uint8)
        for j, model in enumerate(models):      # one row per model
            if model not in self.rows:
                continue
            row, m, is_bits, has = self.rows[model]
            if binary:
                bits[j, :row.size] = row
            else:
                values[j, :m] = unpack(row, m) if is_bits else row
            if present is not None:
                present[j, :(m + 7) // 8] = has if has is not None else pack(np.ones(m, bool))
        return ItemMatrix(task=self.task, metric=self.metric, models=tuple(models),
                          items=np.asarray(self.ids.to_pylist(), dtype=str), bits=bits,
                          values=values, present=present,
                          clusters=None if "cluster" not in self.labels else
                          np.asarray(self.labels["cluster"], dtype=str))
