"""The cost guard: memory and time of long or large work, estimated before it starts.

One function, :func:`check_cost`, used by every entry point whose work grows with an option
(resamples, test examples, simulated experiments); its message names the option and the
largest value that fits.
"""
from __future__ import annotations

import math
import warnings

from ._validation import InvalidInputError, PerformanceWarning

#: Longest work (seconds, estimated) accepted: beyond it the work is refused.
MAX_SECONDS = 3600.0
#: Work estimated to take at least this long (seconds) is announced with its estimate
#: (a PerformanceWarning, one ``warning:`` line on the command line) before it starts.
NOTICE_SECONDS = 10.0
#: Share of the available memory one piece of work may take (the rest is left to the system,
#: to other processes and to the temporaries the estimate leaves out).
MEMORY_SHARE = 0.5

# Rates measured on this project's 2-core machine (AMD EPYC, 24 GiB), the faster end taken so
# that a refusal is never premature; each says how it was measured.
#: Seconds per pair of models to render a comparison report (cli/_output.py), by format:
#: text (rich lays out ~6 table cells per pair, 2.2e-4 s per cell and rendering, twice on a
#: terminal) 2.8e-3 s per pair at load 9 (Q3, 150 models, `--out`), about half that idle;
#: the others build the document (2.3e-5 s per pair) and write it (JSON 3e-5 s per pair),
#: measured at load 8 on 500 and 1,000 models.
RENDER_SECONDS_PER_PAIR = {"text": 1e-3, "other": 2e-5}
#: CPU seconds per simulated experiment of ``simulate``'s studies (one repetition at one point
#: of the grid; for the grids over N, one data set of it): the quick size of each study run
#: once in one process (``time.process_time``, load 7.6, 2026-11-27), its CPU time divided by
#: its experiments. lacoste-fig5's full grid has larger test sets (n up to 100,001), so its
#: estimate is a lower bound.
#: CPU seconds of one fit and prediction of ``benchmark``'s named models on the built-in data
#: sets (iris, wine, breast_cancer, digits), each fitted once on 90 % of the rows (a 10-fold
#: split) with ``time.process_time`` and OPENBLAS_NUM_THREADS=1, load 7.6, 2026-11-27. The
#: runner adds a few percent (benchmarks/README.md, "Runner overhead").
FIT_SECONDS = {
    "logreg": (0.0145, 0.0057, 0.0053, 0.0249), "rf": (0.0946, 0.0905, 0.1354, 0.245),
    "nb": (0.0015, 0.0012, 0.0014, 0.0029), "knn": (0.0037, 0.003, 0.0117, 0.0691),
    "svm": (0.0057, 0.0031, 0.0047, 0.0426), "tree": (0.0018, 0.0014, 0.0053, 0.0135),
    "dummy": (0.0004, 0.0002, 0.0001, 0.0001), "lda": (0.0018, 0.0011, 0.0019, 0.0073),
    "bagging": (0.0154, 0.0181, 0.0427, 0.0997), "et": (0.0753, 0.0812, 0.0909, 0.2679),
    "linear_svm": (0.0028, 0.0023, 0.003, 0.3528), "mlp": (0.1539, 0.119, 0.3268, 0.7569),
    "adaboost": (0.0659, 0.0709, 0.1229, 0.1689)}
FIT_DATASETS = ("iris", "wine", "breast_cancer", "digits")
#: Seconds per NUTS draw (warm-up included, all chains) and data set of the hierarchical
#: correlated t-test (bayes/_hierarchical_ttest.py), compiled sampler excluded: 200 data sets
#: (padded to 256) x 4 chains x 3,500 draws sampled in 11.6 s at load 8 (3.2e-6), about half
#: that idle; the first call in a fresh process compiles for 3-12 s more.
MCMC_SECONDS_PER_DRAW_AND_DATA_SET = 1.5e-6
#: Seconds per row of per-item scores that ``items`` reads and turns into its models x items
#: matrix: 26 s to read and 57 s to pair 10^7 rows (500 models x 20,000 items, 0/1, one
#: 21 MB Parquet file) at load 7-8 (8.3e-6 s per row); the estimate takes 3e-6. A text file's
#: rows are counted as its bytes / :data:`BYTES_PER_ITEM_ROW` ("m123,4567,1" and longer).
ITEM_SECONDS_PER_ROW = 3e-6
BYTES_PER_ITEM_ROW = 16.0
#: Seconds per byte of a long results CSV read and analysed by ``compare`` (Q3): 2.9 s for
#: benchmarks/bench_large_csv.py's table at 200 tasks (1.6 M rows, 51 MB) at load 7
#: (5.7e-8); the estimate takes 3e-8 (the 500 MB file: ~15 s).
COMPARE_SECONDS_PER_BYTE = 3e-8
SIMULATION_SECONDS_PER_EXPERIMENT = {
    "lacoste-fig3": 1.05e-6, "lacoste-fig4": 8.8e-7, "lacoste-fig5": 1.65e-5,
    "lacoste-bimodal": 8.2e-7, "corani-fig2a": 1.48e-3, "corani-fig2b": 1.58e-3,
    "demsar-replicability": 9.3e-4}


def available_memory() -> float:
    """Bytes of memory this process can still use: psutil's ``available`` when psutil is
    installed, else Linux's MemAvailable, else the physical memory (``os.sysconf``)."""
    try:
        import psutil
        return float(psutil.virtual_memory().available)
    except ImportError:
        pass
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return 1024.0 * float(line.split()[1])
    except OSError:
        pass
    import os
    try:
        return float(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return math.inf


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n / 1e3:.3g} kB"


def _duration(s: float) -> str:
    return f"{s / 3600:.3g} h" if s >= 3600 else f"{s / 60:.3g} min" if s >= 60 else f"{s:.2g} s"


def check_cost(option: str, value: float, *, work: str, bytes_per_unit: float,
               seconds_per_unit: float = 0.0, fixed_bytes: float = 0.0,
               memory: float | None = None, max_seconds: float = MAX_SECONDS,
               advice: str | None = None) -> float:
    """Estimate the memory and time of work that grows with ``value`` and refuse what will not fit.

    The one cost guard of the package: work = ``value`` (resamples, test examples, ...) x
    its size per unit. Memory is ``fixed_bytes + value * bytes_per_unit`` (the largest arrays
    held at once); time is ``value * seconds_per_unit``, a rate measured on the kernels
    (callers give the faster end of the measured rates, so a refusal is never premature).

    Parameters
    ----------
    option : str
        The option to lower, as the user spells it, e.g. ``"n_resamples (--n-resamples)"``.
    value : float
        Its value; the estimate is linear in it, and so is the largest value that fits.
    work : str
        What is estimated, e.g. ``"5,000 items x 3 models"`` (printed in the message).
    bytes_per_unit, seconds_per_unit, fixed_bytes : float
        Size per unit (bytes), time per unit (seconds) and memory independent of ``value``.
    memory : float, optional
        Bytes the work may use; default :data:`MEMORY_SHARE` (half) of
        :func:`available_memory`.
    max_seconds : float
        Longest estimated time accepted (:data:`MAX_SECONDS`, 1 hour).
    advice : str, optional
        What to do instead, for work that no smaller ``value`` shortens (e.g. another output
        format); replaces "use option <= largest" and "lower it" in the messages.

    Returns
    -------
    float
        Estimated seconds (a lower bound), for a caller that reports it.

    Raises
    ------
    InvalidInputError
        The estimate exceeds the memory available or ``max_seconds``; the message gives the
        estimate, the bound, and the largest value of ``option`` that fits.

    Warns
    -----
    PerformanceWarning
        The estimate is at least :data:`NOTICE_SECONDS`: the work, its time and memory, and
        the option that sets them, before the work starts.
    """
    value = float(value)
    need = fixed_bytes + value * bytes_per_unit
    seconds = value * seconds_per_unit
    memory = MEMORY_SHARE * available_memory() if memory is None else float(memory)
    fits = []
    if bytes_per_unit > 0:
        fits.append((memory - fixed_bytes) / bytes_per_unit)
    if seconds_per_unit > 0 and math.isfinite(max_seconds):
        fits.append(max_seconds / seconds_per_unit)
    largest = max(0, int(min(fits))) if fits else math.inf
    fix = advice or f"use {option} <= {largest:,}"
    if need > memory:
        raise InvalidInputError(
            f"{option} = {value:,.0f} with {work} needs ~{_bytes(need)} of memory, more than "
            f"the {_bytes(memory)} it may use (half of what is available); {fix}.")
    if seconds > max_seconds:
        raise InvalidInputError(
            f"{option} = {value:,.0f} with {work} would run for at least ~{_duration(seconds)} "
            f"(bound {_duration(max_seconds)}); {fix}.")
    if seconds >= NOTICE_SECONDS:
        size = f" and ~{_bytes(need)} of memory" if need > 0 else ""
        warnings.warn(f"{work}: estimated to take at least ~{_duration(seconds)}{size} "
                      f"({option} = {value:,.0f}; "
                      f"{advice or 'lower it for quicker, less precise results'}).",
                      PerformanceWarning, stacklevel=3)
    return seconds


def check_mcmc_cost(n_data_sets: int, *, n_chains: int = 4, n_samples: int = 2500,
                    n_warmup: int = 1000) -> float:
    """:func:`check_cost` of the hierarchical t-test's NUTS run: draws (warm-up included, all
    chains) x data sets at :data:`MCMC_SECONDS_PER_DRAW_AND_DATA_SET`; memory the draws kept
    (8 bytes per draw, data set and the 3 global parameters). Returns the estimated seconds.
    """
    return check_cost("n_samples (draws per chain)", n_chains * (n_warmup + n_samples),
                      work=f"the hierarchical t-test's MCMC on {n_data_sets:,} data sets x "
                           f"{n_chains} chains (warm-up included)",
                      bytes_per_unit=8.0 * (n_data_sets + 3),
                      seconds_per_unit=MCMC_SECONDS_PER_DRAW_AND_DATA_SET * n_data_sets,
                      advice="fewer data sets, or the non-hierarchical tests (without "
                             "--hierarchical / hierarchical=)")


def _files(source) -> list:
    """The files of ``source`` (a path, a folder, or a list of them); [] for anything else
    (tables, URIs, missing paths: their readers say what is wrong)."""
    from pathlib import Path

    items = source if isinstance(source, (list, tuple)) else [source]
    out = []
    for item in items:
        if not isinstance(item, (str, Path)):
            return []
        path = Path(item)
        if path.is_file():
            out.append(path)
        elif path.is_dir():
            out.extend(p for p in path.rglob("*") if p.is_file())
    return out


def input_size(source) -> tuple[float, float]:
    """(rows, bytes) of the files of ``source``, known without reading them: a Parquet
    file's rows from its footer, any other file's bytes (rows NaN when not all are Parquet).
    (0, 0) for a table in memory."""
    rows, size = 0.0, 0.0
    for path in _files(source):
        size += path.stat().st_size
        if path.suffix.lower() == ".parquet":
            try:
                import pyarrow.parquet as pq

                rows += pq.ParquetFile(path).metadata.num_rows
                continue
            except Exception:            # noqa: BLE001 - not Parquet after all: its reader says
                pass
        rows = math.nan
    return rows, size


def check_read_cost(source, *, what: str, seconds_per_row: float | None = None,
                    bytes_per_row: float | None = None, seconds_per_byte: float | None = None,
                    advice: str) -> float:
    """:func:`check_cost` of reading and analysing the files of ``source`` before they are
    read, from their sizes (:func:`input_size`): rows x ``seconds_per_row`` (rows of text
    files: bytes / ``bytes_per_row``), or bytes x ``seconds_per_byte``. Returns the seconds
    estimated (0 for a table in memory)."""
    rows, size = input_size(source)
    if size == 0:
        return 0.0
    if seconds_per_row is not None:
        if math.isnan(rows):
            rows = size / bytes_per_row
        return check_cost("rows", rows, work=f"{what} of {size / 1e6:,.0f} MB (~{rows:,.0f} "
                          "rows)", bytes_per_unit=0.0, seconds_per_unit=seconds_per_row,
                          advice=advice)
    return check_cost("bytes", size, work=f"{what} of {size / 1e6:,.0f} MB", bytes_per_unit=0.0,
                      seconds_per_unit=seconds_per_byte, advice=advice)
