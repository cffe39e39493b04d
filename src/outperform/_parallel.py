"""Parallel execution and progress shared by the experiment runner and the simulations.

joblib runs the work; ``backend="dask"`` (or a ``dask.distributed.Client``) sends it to a Dask
cluster through joblib's Dask backend, so the same code scales from a laptop to a cluster;
:func:`dask_scheduler` connects to a running scheduler by its address (the command line's
``--scheduler``). Progress bars are rich, on stderr, and only drawn on a terminal.
"""
from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import weakref

from ._validation import InvalidInputError, OutperformWarning, check_choice, require

#: Seconds to wait for a Dask scheduler, and then for its first worker, before giving up: a
#: live scheduler answers in milliseconds, and a wrong address should fail fast.
CONNECT_TIMEOUT = 5.0

# Evaluated on each worker by the builtin eval, which unpickles there even when outperform is
# not installed (a function of this module would not).
_VERSION_PROBE = "__import__('outperform').__version__"


def joblib_backend(backend):
    """Context manager selecting joblib's backend: None (joblib's default), "loky",
    "threading", "dask" (the current Dask client) or a ``dask.distributed.Client``.

    loky's worker processes end with this process (:func:`end_with_parent`), however it
    ends: killed, they would otherwise run on until their idle timeout (300 s), finishing
    fits nobody collects. With None, this applies when joblib's active backend is its
    default (loky without options); a backend the caller configured is left as it is.

    Raises
    ------
    InvalidInputError
        Unknown backend, or Dask requested without dask.distributed or without a client.
    """
    from joblib import parallel_config

    if backend is None:
        from joblib.parallel import LokyBackend, get_active_backend

        active, _ = get_active_backend()
        if type(active) is not LokyBackend or active.backend_kwargs:
            return contextlib.nullcontext()
        backend = "loky"
    if isinstance(backend, str):
        check_choice(backend, "backend", ("loky", "threading", "dask"))
        if backend == "dask":
            dask_client()  # fail early with a clear message
        if backend == "loky":
            return parallel_config(backend="loky", initializer=end_with_parent,
                                   initargs=(os.getpid(),))
        return parallel_config(backend=backend)
    return parallel_config(backend="dask", client=dask_client(backend))


#: Seconds between two checks, in a worker process, that its parent is still alive.
PARENT_CHECK_SECONDS = 0.5


def end_with_parent(parent_pid: int) -> None:
    """Initializer of joblib's loky workers: end this worker when ``parent_pid`` is gone.

    A daemon thread checks every :data:`PARENT_CHECK_SECONDS` that this process is still the
    child of ``parent_pid`` (a process whose parent ends is given another one, so
    ``os.getppid()`` changes) and ends the process at once when not. Polling, not Linux's
    ``PR_SET_PDEATHSIG``: that signal follows the *thread* that started the worker, and
    loky's reused workers outlive the thread that started them. A no-op off POSIX.
    """
    if os.name != "posix":
        return

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="outperform-end-with-parent", daemon=True).start()


def _distributed():
    # MissingDependencyError: "dask.distributed is needed ...: pip install 'outperform[dask]'"
    return require("distributed", "running on Dask")


def dask_client(client=None):
    """``client`` checked to be a ``dask.distributed.Client``, or the running one if None."""
    distributed = _distributed()
    Client, get_client = distributed.Client, distributed.get_client
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
def dask_scheduler(address: str, *, timeout: float | None = None):
    """A ``dask.distributed.Client`` of the scheduler at ``address``, closed on exit.

    Pass it as ``backend=`` to :func:`joblib_backend` (and so to the experiment runner and
    the simulations). The client is not made the default one, so it does not outlive the
    ``with`` block.

    Parameters
    ----------
    address : str
        The scheduler's address, as ``dask scheduler`` prints it (``tcp://HOST:8786``).
    timeout : float, optional
        Seconds to wait for the scheduler to answer, then for one worker to join it;
        default :data:`CONNECT_TIMEOUT`.

    Yields
    ------
    distributed.Client

    Raises
    ------
    InvalidInputError
        dask.distributed is not installed (the message names the extra
        ``outperform[dask]``); the address is malformed; the scheduler does not answer
        within ``timeout``; it has no worker; or a worker cannot import outperform.

    Warns
    -----
    UserWarning
        A worker runs another version of outperform than this process (its results may
        differ from a local run).
    """
    distributed = _distributed()
    from distributed.comm import parse_address, registry

    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        # Checked first: a Client that fails on a malformed address hangs at exit.
        scheme, location = parse_address(address)
        with contextlib.suppress(NotImplementedError):  # transports without host and port
            registry.get_backend(scheme).get_address_host_port(location)
    except (TypeError, ValueError) as exc:  # an unknown protocol, no port, a port not a number
        raise InvalidInputError(f"Dask scheduler address {address!r}: {exc}; give it as "
                                "tcp://HOST:PORT.") from None
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError):
        raise InvalidInputError(
            f"cannot reach a Dask scheduler at {address!r} within {timeout:g} s: check the "
            "address (tcp://HOST:PORT, as `dask scheduler` prints it), that the scheduler "
            "runs, and that no firewall blocks the port.") from None
    try:
        _check_workers(client, address, timeout)
        yield client
    finally:
        client.close()


@contextlib.contextmanager
def scheduler_client(scheduler):
    """The ``scheduler=`` argument of the library's functions as a Dask client, or None.

    ``scheduler``: None (run here; yields None), a scheduler's address (connected and
    checked by :func:`dask_scheduler`, closed on exit) or a ``dask.distributed.Client``
    (checked to be one, its workers checked as :func:`dask_scheduler` checks them the first
    time it is given, and left open).

    Raises
    ------
    InvalidInputError
        As :func:`dask_scheduler`; or ``scheduler`` is neither None, a str nor a Client.
    """
    if scheduler is None:
        yield None
    elif isinstance(scheduler, str):
        with dask_scheduler(scheduler) as client:
            yield client
    else:
        if not isinstance(scheduler, _distributed().Client):
            raise InvalidInputError(
                "scheduler must be None, a Dask scheduler's address (tcp://HOST:PORT) or a "
                f"dask.distributed Client, got {type(scheduler).__name__}.")
        if scheduler not in _CHECKED:   # once: compare_evals passes it for every task
            _check_workers(scheduler, str(scheduler.scheduler.address), CONNECT_TIMEOUT)
            _CHECKED.add(scheduler)
        yield scheduler


#: Clients whose workers :func:`scheduler_client` has checked (a round trip each).
_CHECKED: weakref.WeakSet = weakref.WeakSet()


def _check_workers(client, address: str, timeout: float) -> None:
    import warnings

    # The package itself is loaded before any of its modules; importing it here would make
    # this bottom layer import every layer above (see the import-linter contract).
    __version__ = sys.modules["outperform"].__version__
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise InvalidInputError(
            f"the Dask scheduler at {address!r} has no worker (none joined within "
            f"{timeout:g} s): start some with `dask worker {address}`.") from None
    versions = client.run(eval, _VERSION_PROBE, on_error="return")
    missing = sorted(w for w, v in versions.items() if isinstance(v, BaseException))
    if missing:
        raise InvalidInputError(
            f"{len(missing)} of the {len(versions)} Dask workers cannot import outperform "
            f"({', '.join(missing[:3])}{', ...' if len(missing) > 3 else ''}): install it "
            "in the workers' environment, the same version as here "
            f"({__version__}).")
    other = sorted({v for v in versions.values() if v != __version__})
    if other:
        warnings.warn(f"Dask workers run outperform {', '.join(other)} and this process "
                      f"{__version__}: the results may differ from a local run; install the "
                      "same version on the workers.", OutperformWarning, stacklevel=3)


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
