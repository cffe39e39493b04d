"""The rank sets' bootstrap in batches, here or on a Dask cluster (issue 31, item 1).

Properties checked: replaying a batch's draws leaves the generator exactly where drawing its
weights does; the batches do not depend on where they run; on a two-worker LocalCluster the
deviations, the generator's final state and the rank sets are the local run's, bit for bit
(np.testing.assert_array_equal), for both weights, several batches, clusters and another bit
generator.
"""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats import rank_sets
from outperform.stats import _bootstrap_batches as bb

distributed = pytest.importorskip("distributed", reason="dask.distributed not installed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as c:   # local runs stay here
        yield c


@pytest.fixture
def small_batches(monkeypatch):
    """Batches of 2^14 weights: several batches on small tables (fast tests)."""
    monkeypatch.setattr(bb, "BATCH_WEIGHTS", 1 << 14)


@pytest.mark.parametrize("kind", ["multinomial", "poisson"])
@pytest.mark.parametrize("b, g", [(1, 1), (3, 7), (5, 1001), (2, 3), (7, 4099)])
def test_skipping_a_batch_leaves_the_generator_where_drawing_it_does(kind, b, g, monkeypatch):
    monkeypatch.setattr(bb, "_REPLAY_DRAWS", 1000)   # replayed in several pieces
    drawn, skipped = np.random.default_rng(11), np.random.default_rng(11)
    for _ in range(3):   # an odd count of 16-bit words leaves half a 32-bit word behind
        bb.draw_weights(drawn, kind, b, g)
        bb.skip_weights(skipped, kind, b, g)
        assert skipped.bit_generator.state == drawn.bit_generator.state
    assert skipped.random() == drawn.random()


@pytest.mark.parametrize("n, g", [(1000, 20_000), (100, 1 << 25), (5000, 30_000), (7, 1)])
def test_batches_cover_the_resamples_with_at_most_the_batch_of_weights(n, g):
    sizes = bb.batch_sizes(n, g)
    assert sum(sizes) == n and min(sizes) >= 1
    assert all(b * g <= bb.BATCH_WEIGHTS for b in sizes) or sizes == [1] * n


def _sums(seed=0, g=1500, k=6):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 4, g).astype(float)
    sums = rng.normal(0, 1, (g, k)) * sizes[:, None]
    return sums - sums.sum(axis=0) / sizes.sum() * sizes[:, None], sizes


@pytest.mark.parametrize("kind", ["multinomial", "poisson"])
@pytest.mark.parametrize("bitgen", [np.random.PCG64, np.random.MT19937])
def test_the_cluster_gives_the_local_deviations_bit_for_bit(client, small_batches, kind,
                                                            bitgen):
    sums, sizes = _sums()
    assert bb.batch_sizes(300, sums.shape[0]) == [10] * 30   # 2^14 // 1,500 units
    here, there = (np.random.Generator(bitgen(5)) for _ in range(2))
    local = bb.bootstrap_deviations(sums, sizes, 300, kind, here, lambda n=1: None)
    done = []
    remote = bb.bootstrap_deviations(sums, sizes, 300, kind, there, done.append,
                                     client=client)
    np.testing.assert_array_equal(remote, local)
    assert remote.dtype == np.float32 and remote.shape == (6, 300)
    assert sum(done) == 300
    # the generator is left where the local run leaves it (32-bit words: its half-used one)
    for draw in (lambda r: r.integers(0, 2**32, 9, dtype=np.uint32), lambda r: r.random(3)):
        np.testing.assert_array_equal(draw(there), draw(here))


@pytest.mark.parametrize("kwargs", [{}, {"weights": "poisson"}, {"clusters": "yes"},
                                    {"stepdown": False, "higher_is_better": False}])
def test_rank_sets_on_the_cluster_are_the_local_ones(client, small_batches, kwargs):
    rng = np.random.default_rng(1)
    y = rng.normal([0, 0.02, 0.05, 0.06, 0.1, 0.1], 1, size=(1200, 6))
    if kwargs.get("clusters"):
        kwargs = {"clusters": rng.integers(0, 300, 1200)}
    local = rank_sets(y, n_resamples=400, random_state=3, **kwargs)
    remote = rank_sets(y, n_resamples=400, random_state=3, scheduler=client, **kwargs)
    for field in ("simultaneous", "marginal", "percentile", "better", "estimate",
                  "standard_error"):
        np.testing.assert_array_equal(getattr(remote, field), getattr(local, field))
    np.testing.assert_array_equal(remote.tiers(), local.tiers())
    assert remote.critical_value == local.critical_value


@pytest.mark.slow
def test_a_dask_array_is_read_on_the_cluster_with_the_local_result(client):
    da = pytest.importorskip("dask.array")
    y = np.random.default_rng(2).normal([0.0, 0.1, 0.3], 1.0, size=(2000, 3))
    x = da.from_array(y, chunks=(500, 3))
    local = rank_sets(x, n_resamples=200, random_state=4, weights="poisson")
    before = set(client.cluster.scheduler.task_prefixes)
    assert "array-blocks" not in before
    remote = rank_sets(x, n_resamples=200, random_state=4, weights="poisson",
                       scheduler=client)
    assert set(client.cluster.scheduler.task_prefixes) - before   # the chunks ran there
    np.testing.assert_array_equal(remote.simultaneous, local.simultaneous)
    assert remote.critical_value == local.critical_value


@pytest.mark.parametrize("scheduler", [42, object()])
def test_a_scheduler_that_is_no_address_nor_client_is_refused(scheduler):
    with pytest.raises(InvalidInputError, match="scheduler must be None, a Dask scheduler's "
                                                "address"):
        rank_sets(np.eye(3)[[0, 1, 2, 0, 1, 2]] + np.arange(6)[:, None] * 0.1,
                  n_resamples=100, scheduler=scheduler)


@pytest.mark.slow
def test_worker_processes_with_one_blas_thread_give_the_two_thread_local_result():
    """OpenBLAS sums a (1000 x 5000) x (5000 x 40) float32 product in another order with one
    thread than with two (numpy 2.4, OpenBLAS 0.3.31, this machine): the workers, which the
    nanny starts with one thread, compute with the client's count."""
    from threadpoolctl import threadpool_limits

    y = np.random.default_rng(3).normal(np.linspace(0, 0.2, 40), 1.0, size=(5000, 40))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as c, threadpool_limits(2, user_api="blas"):
        local = rank_sets(y, n_resamples=1000, random_state=0)
        remote = rank_sets(y, n_resamples=1000, random_state=0, scheduler=c)
        by_address = rank_sets(y, n_resamples=1000, random_state=0,
                               scheduler=cluster.scheduler_address)
    for res in (remote, by_address):
        np.testing.assert_array_equal(res.simultaneous, local.simultaneous)
        np.testing.assert_array_equal(res.marginal, local.marginal)
        np.testing.assert_array_equal(res.percentile, local.percentile)
        assert res.critical_value == local.critical_value

