"""Parallel execution and progress shared by the experiment runner and the simulations.

joblib runs the work; ``backend="dask"`` (or a ``dask.distributed.Client``) sends it to a Dask
cluster through joblib's Dask backend, so the same code scales from a laptop to a cluster.
Progress bars are rich, on stderr, and only drawn on a terminal.
"""
from __future__ import annotations

import contextlib
import sys
import time

from ._validation import InvalidInputError, check_choice


def joblib_backend(backend):
    """Context manager selecting joblib's backend: None (joblib's default), "loky",
    "threading", "dask" (the current Dask client) or a ``dask.distributed.Client``.

    Raises
    ------
    InvalidInputError
        Unknown backend, or Dask requested without dask.distributed or without a client.
    """
    if backend is None:
        return contextlib.nullcontext()
    from joblib import parallel_config

    if isinstance(backend, str):
        check_choice(backend, "backend", ("loky", "threading", "dask"))
        if backend == "dask":
            dask_client()  # fail early with a clear message
        return parallel_config(backend=backend)
    return parallel_config(backend="dask", client=dask_client(backend))


def dask_client(client=None):
    """``client`` checked to be a ``dask.distributed.Client``, or the running one if None."""
    try:
        from distributed import Client, get_client
    except ImportError:
        raise InvalidInputError(
            "the Dask backend needs dask.distributed: pip install 'dask[distributed]'."
        ) from None
    if client is None:
        try:
            return get_client()
        except ValueError:
            raise InvalidInputError(
                "backend='dask' needs a running dask.distributed Client; create one "
                "(Client(...)) or pass it as backend=client."
            ) from None
    if not isinstance(client, Client):
        raise InvalidInputError(
            "backend must be None, 'loky', 'threading', 'dask' or a dask.distributed Client, "
            f"got {type(client).__name__}."
        )
    return client


@contextlib.contextmanager
def progress_bar(total: int, enabled: bool, description: str = "working"):
    """A rich progress bar on stderr, drawn on a terminal only; yields ``advance(n=1)``.

    It shows the steps done out of ``total``, the percentage, the time elapsed and the
    estimated time remaining, and vanishes when the work ends. Whether stderr is a terminal
    is rich's decision, so ``FORCE_COLOR`` or ``TTY_COMPATIBLE=1`` force the bar on.
    """
    if not (enabled and total):
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn,
                               TextColumn, TimeElapsedColumn, TimeRemainingColumn)

    console = Console(stderr=True)
    bar = Progress(TextColumn("[progress.description]{task.description}"), BarColumn(),
                   MofNCompleteColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                   TextColumn("ETA"), TimeRemainingColumn(),
                   console=console, transient=True, disable=not console.is_terminal)
    with bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


@contextlib.contextmanager
def progress_status(description: str, enabled: bool):
    """Progress of one long step that has no countable parts (e.g. one compiled MCMC run).

    On a terminal, a spinner with ``description`` and the time elapsed, removed at the end;
    elsewhere (a log file) ``description`` when the step starts. Then, in both cases, one
    line on stderr with the time the step took.
    """
    if not enabled:
        yield
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    started = time.perf_counter()
    if console.is_terminal:
        with Progress(SpinnerColumn(), TextColumn("{task.description}", markup=False),
                      TimeElapsedColumn(), console=console, transient=True) as bar:
            bar.add_task(description, total=None)
            yield
    else:
        print(f"{description} ...", file=sys.stderr, flush=True)
        yield
    print(f"{description}: done in {time.perf_counter() - started:.1f} s.", file=sys.stderr,
          flush=True)
