"""`--n-jobs` and `--scheduler ADDRESS` of the long commands (`simulate`, `benchmark`).

A two-worker `distributed.LocalCluster` of separate processes, started here, stands for a
cluster; each command must print exactly what the local run with the same seed prints, and a
cluster that cannot be used must be one line and exit code 1.
"""
from __future__ import annotations

import socket
import sys
import time

import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform import __version__
from outperform.cli import app

distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")
runner = CliRunner()

SIMULATE = ["simulate", "lacoste-fig3", "--seed", "7"]
BENCHMARK = ["benchmark", "--models", "nb,dummy", "--datasets", "iris", "--cv", "2x3"]


@pytest.fixture(scope="module")
def cluster():
    # Worker processes, as on a real cluster; distributed's nanny starts each with one
    # OpenBLAS/MKL/OpenMP thread (its `pre-spawn-environ` setting), checked below.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        yield local


def _tasks_run(cluster) -> set[str]:
    """Names of the tasks the scheduler has seen (their function's name, for joblib's)."""
    return set(cluster.scheduler.task_prefixes)


def _invoke(args):
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    return res


@pytest.mark.slow
def test_workers_use_one_blas_thread(cluster):
    with distributed.Client(cluster) as client:
        threads = client.run(eval, "__import__('os').environ.get('OPENBLAS_NUM_THREADS')")
    assert set(threads.values()) == {"1"}


@pytest.mark.slow
def test_simulate_on_a_dask_cluster_prints_the_local_table(cluster):
    local = _invoke(SIMULATE)
    on_dask = _invoke([*SIMULATE, "--scheduler", cluster.scheduler_address])
    assert on_dask.stdout == local.stdout
    assert len(local.stdout.splitlines()) == 1 + 4 * 3   # header, (N, test) rows
    assert "running on the Dask cluster" in on_dask.stderr
    assert "2 workers, 2 threads" in on_dask.stderr
    # The chunks of experiments went to the workers (the joblib batches of _lacoste_chunk).
    assert any("lacoste_chunk" in name for name in _tasks_run(cluster))


@pytest.mark.slow
def test_simulate_n_jobs_prints_the_local_table():
    # Threads would do as well; loky processes are what --n-jobs gives a user.
    local = _invoke(SIMULATE)
    assert _invoke([*SIMULATE, "--n-jobs", "2"]).stdout == local.stdout


@pytest.mark.slow
def test_benchmark_on_a_dask_cluster_gives_the_local_results(cluster, tmp_path):
    local = _invoke([*BENCHMARK, "--out", str(tmp_path / "local.csv")])
    on_dask = _invoke([*BENCHMARK, "--out", str(tmp_path / "dask.csv"),
                       "--scheduler", cluster.scheduler_address])
    assert on_dask.stdout == local.stdout
    assert "Q2 on iris" in local.stdout
    assert any("fit_and_score" in name for name in _tasks_run(cluster))
    # The files hold the fits in the order they finished; the times are the machines'.
    key = ["task", "model", "run", "fold"]
    tables = [pd.read_csv(tmp_path / name).drop(columns=["fit_time", "score_time"])
              .sort_values(key, ignore_index=True) for name in ("local.csv", "dask.csv")]
    assert len(tables[0]) == 2 * 2 * 3
    pd.testing.assert_frame_equal(*tables)


@pytest.mark.slow
def test_n_jobs_with_a_scheduler_is_said_to_be_ignored(cluster):
    res = _invoke([*SIMULATE, "--scheduler", cluster.scheduler_address, "--n-jobs", "4"])
    assert "--n-jobs 4 is ignored with --scheduler" in res.stderr


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("command", [SIMULATE, BENCHMARK])
@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line_and_exit_1_within_seconds(command, tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)   # where benchmark would write its results
    address = f"tcp://127.0.0.1:{_free_port()}"
    started = time.perf_counter()
    res = runner.invoke(app, [*command, "--scheduler", address])
    took = time.perf_counter() - started
    assert res.exit_code == 1, res.output
    assert f"cannot reach a Dask scheduler at {address!r}" in res.stderr
    assert "Traceback" not in res.output and res.stdout == ""
    assert not list(tmp_path.iterdir())   # nothing started
    # distributed's own default connect timeout is 30 s.
    assert took < 20


@pytest.mark.parametrize("address, says", [
    ("http://127.0.0.1:8786", "unknown address scheme 'http'"),
    ("127.0.0.1", "missing port"),
    ("tcp://127.0.0.1:eighty", "tcp://HOST:PORT"),
])
def test_a_malformed_address_is_named(address, says):
    res = runner.invoke(app, [*SIMULATE, "--scheduler", address])
    assert res.exit_code == 1, res.output
    assert f"Dask scheduler address {address!r}" in res.stderr and says in res.stderr
    assert "Traceback" not in res.output


@pytest.mark.slow
def test_a_scheduler_without_workers_says_to_start_some(monkeypatch):
    from outperform import _parallel

    monkeypatch.setattr(_parallel, "CONNECT_TIMEOUT", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False,
                                  dashboard_address=":0") as empty:
        res = runner.invoke(app, [*SIMULATE, "--scheduler", empty.scheduler_address])
    assert res.exit_code == 1, res.output
    assert "has no worker" in res.stderr and "dask worker" in res.stderr


class _Client:
    """A scheduler's client whose workers answer the version probe with ``answers``."""

    answers: list = []

    def __init__(self, address, timeout=None, set_as_default=True):
        pass

    def wait_for_workers(self, n, timeout=None):
        pass

    def run(self, function, *args, on_error="raise"):
        return {f"tcp://10.0.0.{i}:4000": a for i, a in enumerate(self.answers)}

    def nthreads(self):
        return {f"tcp://10.0.0.{i}:4000": 1 for i in range(len(self.answers))}

    def close(self):
        pass


def test_workers_without_outperform_are_named(monkeypatch):
    monkeypatch.setattr(distributed, "Client", _Client)
    monkeypatch.setattr(_Client, "answers",
                        [__version__, ModuleNotFoundError("No module named 'outperform'")])
    res = runner.invoke(app, [*SIMULATE, "--scheduler", "tcp://10.0.0.9:8786"])
    assert res.exit_code == 1, res.output
    assert "1 of the 2 Dask workers cannot import outperform (tcp://10.0.0.1:4000)" in res.stderr


@pytest.mark.slow
def test_workers_with_another_version_are_warned_about(cluster, monkeypatch):
    import outperform

    monkeypatch.setattr(outperform, "__version__", "9.9.9")   # the workers have the real one
    res = _invoke([*SIMULATE, "--scheduler", cluster.scheduler_address])
    assert f"Dask workers run outperform {__version__} and this process 9.9.9" in res.stderr


def test_missing_distributed_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # import distributed fails
    for command in (SIMULATE, BENCHMARK):
        res = runner.invoke(app, [*command, "--scheduler", "tcp://127.0.0.1:8786"])
        assert res.exit_code == 1, res.output
        assert "pip install 'outperform[dask]'" in res.stderr


@pytest.mark.slow
def test_help_names_the_option_and_its_extra():
    for command in ("simulate", "benchmark"):
        res = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
        assert "--scheduler" in res.output and "--n-jobs" in res.output
        assert "outperform[dask]" in res.output
