"""leaderboard() and compare_evals() with ``scheduler=`` (issue 31, item 1): the rank sets'
bootstrap runs on a Dask cluster and the result is the local run's with the same seed, bit
for bit (np.testing.assert_array_equal on the rank sets, tiers, percentile intervals,
letters and pairwise decisions; == on the critical values). A two-worker LocalCluster of
threads stands for the cluster (one of processes in the slow test)."""
import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from outperform.cli import app
from outperform.compare import compare_evals, leaderboard
from outperform.stats import _bootstrap_batches as bb

distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")
runner = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster):
    with distributed.Client(cluster, set_as_default=False) as c:
        yield c


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of 2^15 weights: several bootstrap tasks on these small tables."""
    monkeypatch.setattr(bb, "BATCH_WEIGHTS", 1 << 15)


def _items(models=6, n=600, tasks=("qa",), graded=False, seed=0):
    rng = np.random.default_rng(seed)
    acc = np.linspace(0.55, 0.75, models)
    rows = []
    for task in tasks:
        for j, p in enumerate(acc):
            score = (rng.normal(p, 0.3, n) if graded else (rng.random(n) < p)).astype(float)
            rows.append(pd.DataFrame({"task": task, "model": f"m{j}", "item": np.arange(n),
                                      "cluster": np.arange(n) // 5, "score": score}))
    return pd.concat(rows, ignore_index=True)


def _assert_same_board(remote, local):
    a, b = remote.rank_sets, local.rank_sets
    for field in ("simultaneous", "marginal", "percentile", "better", "estimate",
                  "standard_error"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    np.testing.assert_array_equal(a.tiers(), b.tiers())
    assert a.critical_value == b.critical_value
    assert remote.letters == local.letters
    np.testing.assert_array_equal(remote.pairwise.reject, local.pairwise.reject)


@pytest.mark.parametrize("kwargs", [
    {},                                                       # 0/1 items
    {"weights": "poisson"},
    {"cluster": "cluster"},                                   # clusters resampled whole
    {"graded": True, "n_resamples": 300, "random_state": 9},
])
def test_leaderboard_on_the_cluster_is_the_local_one(client, small_batches, kwargs):
    kwargs = dict(kwargs)
    table = _items(graded=kwargs.pop("graded", False)).drop(columns="task")
    if "cluster" not in kwargs:
        table = table.drop(columns="cluster")
    local = leaderboard(table, **kwargs)
    remote = leaderboard(table, scheduler=client, **kwargs)
    _assert_same_board(remote, local)
    assert "bootstrap_batch" in client.cluster.scheduler.task_prefixes


def test_leaderboard_by_the_scheduler_address(cluster, small_batches):
    table = _items(models=4, n=600).drop(columns=["task", "cluster"])
    _assert_same_board(leaderboard(table, scheduler=cluster.scheduler_address),
                       leaderboard(table))


@pytest.mark.slow
def test_compare_evals_on_the_cluster_is_the_local_one(client, small_batches):
    table = _items(models=3, n=300, tasks=("qa", "math"))
    local = compare_evals(table, cluster="cluster")
    remote = compare_evals(table, cluster="cluster", scheduler=client)
    assert set(remote.leaderboards) == {"qa", "math"}
    for task in ("qa", "math"):
        _assert_same_board(remote.leaderboards[task], local.leaderboards[task])
        assert [r.conclusions for r in remote.per_task[task]] == \
            [r.conclusions for r in local.per_task[task]]
    assert remote.warnings == local.warnings


def test_compare_evals_of_two_models_says_the_cluster_was_not_used(client):
    table = _items(models=2, n=200)
    res = compare_evals(table, scheduler=client)
    assert res.leaderboards == {}
    assert any("nothing is resampled: the comparison ran here, not on the Dask cluster" in w
               for w in res.warnings)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["leaderboard", "compare-evals"])
def test_the_cli_prints_the_local_output_with_scheduler(cluster, small_batches, tmp_path,
                                                        command):
    path = tmp_path / "items.csv"
    table = _items(models=3, n=200)
    (table.drop(columns="task") if command == "leaderboard" else table).to_csv(path,
                                                                               index=False)
    local = runner.invoke(app, [command, str(path), "--format", "json"])
    remote = runner.invoke(app, [command, str(path), "--format", "json",
                                 "--scheduler", cluster.scheduler_address])
    assert local.exit_code == 0 and remote.exit_code == 0, remote.output
    assert remote.stdout == local.stdout
    assert "running on the Dask cluster at" in remote.stderr


@pytest.mark.slow
def test_leaderboard_on_worker_processes_is_the_local_one(small_batches):
    table = _items(models=12, n=3000).drop(columns=["task", "cluster"])
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local_cluster:
        remote = leaderboard(table, n_resamples=500, scheduler=local_cluster.scheduler_address)
    _assert_same_board(remote, leaderboard(table, n_resamples=500))
