"""joblib's backend for parallel fits and simulations (outperform._parallel).

The loky workers the package starts are told to end with the process that started them
(issue 25, item 5: killed, a run's workers went on for minutes); a backend the caller
configured is left as it is. The workers' actual ending is tested by killing processes in
tests/experiments/test_runner_faults.py.
"""
from __future__ import annotations

import os

import pytest
from joblib import parallel_config
from joblib.parallel import get_active_backend

from outperform._parallel import end_with_parent, joblib_backend


def _active():
    backend, _ = get_active_backend()
    return type(backend).__name__, backend.backend_kwargs


@pytest.mark.parametrize("backend", [None, "loky"])
def test_loky_workers_are_told_to_end_with_this_process(backend):
    with joblib_backend(backend):
        assert _active() == ("LokyBackend", {"initializer": end_with_parent,
                                             "initargs": (os.getpid(),)})


@pytest.mark.parametrize("configured, expected", [
    (dict(backend="threading"), ("ThreadingBackend", {})),
    (dict(backend="loky", idle_worker_timeout=5), ("LokyBackend", {"idle_worker_timeout": 5})),
])
def test_a_backend_the_caller_configured_is_kept(configured, expected):
    with parallel_config(**configured), joblib_backend(None):
        assert _active() == expected


def test_threading_gets_no_initializer():
    with joblib_backend("threading"):
        assert _active() == ("ThreadingBackend", {})


def test_scheduler_client_passes_none_and_a_client_through_and_refuses_the_rest():
    """``scheduler=`` of leaderboard(), compare_evals() and rank_sets(): None runs here; a
    Client is checked and left open (its owner closes it); anything else is refused."""
    distributed = pytest.importorskip("distributed")
    from outperform._parallel import scheduler_client
    from outperform._validation import InvalidInputError

    with scheduler_client(None) as none:
        assert none is None
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        with scheduler_client(client) as got:
            assert got is client
        assert client.status == "running"
        with scheduler_client(cluster.scheduler_address) as other:   # connected, then closed
            assert other is not client and other.status == "running"
        assert other.status == "closed"
    with pytest.raises(InvalidInputError, match="got float"):
        with scheduler_client(8786.0):
            pass
