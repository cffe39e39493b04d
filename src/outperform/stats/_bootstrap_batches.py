"""The paired bootstrap of :func:`outperform.stats.rank_sets`, batch by batch, here or on Dask.

The resamples are drawn in batches whose sizes depend only on the number of resampled units
and of resamples (:func:`batch_sizes`), never on where they run. Batch c draws its weights
from one generator, in order, continuing where batch c - 1 stopped; the resampled means of
the batch are two matrix products (weights x unit sums, weights x unit sizes).

On a Dask cluster (``client``), each batch is one task. The task's generator starts in the
state the local run's generator has when it reaches batch c: this process replays the
draws of the batches before it (the integers only: ~1 ns each, next to the counts and the
products the workers compute, and while they compute), so the weights of every resample are
the local run's, bit for bit. The products run with this process's BLAS thread count
(``threadpoolctl``), because OpenBLAS sums a product in another order with another count of
threads. Same seed, same numpy and OpenBLAS and CPU type: the same deviations as the local
run, whatever the cluster's size or the order the tasks finish in.
"""
from __future__ import annotations

import functools

import numpy as np

from .._validation import InvalidInputError

#: Weights drawn per batch (x 4 bytes for float32, 128 MiB): the batch's matrix product
#: streams the unit sums once, and BLAS runs ~3x faster per flop with a few hundred rows of
#: weights than with a few dozen (1,000 models x 100,000 items).
BATCH_WEIGHTS = 1 << 25
#: Integers drawn at a time when the draws of a batch are replayed (x 4 bytes: 16 MiB).
_REPLAY_DRAWS = 1 << 22


@functools.cache
def poisson_table() -> np.ndarray:
    """Poisson(1) quantiles at the 2^16 midpoints (i + 1/2) / 2^16: a lookup table that turns
    uniform 16-bit integers into Poisson(1) counts (probabilities exact to 2^-16). Built on
    first use (0.2 s), not at import."""
    from scipy.stats import poisson

    u = (np.arange(1 << 16) + 0.5) / (1 << 16)
    return poisson.ppf(u, 1.0).astype(np.float32)


def draw_weights(rng, kind: str, b: int, g: int) -> np.ndarray:
    """b resampling weight vectors over g units, float32 (b, g).

    Multinomial: the counts of g draws with replacement (the ordinary bootstrap). Poisson:
    independent Poisson(1) counts, by table lookup of uniform 16-bit integers (ten times
    faster than drawing them one by one).
    """
    if kind == "poisson":
        u = np.frombuffer(rng.bytes(2 * b * g), dtype=np.uint16).reshape(b, g)
        return poisson_table()[u]
    idx = rng.integers(0, g, size=(b, g), dtype=np.uint32)
    out = np.empty((b, g), dtype=np.float32)
    rows = max(1, (1 << 18) // g)  # counts of a few rows at a time stay in cache
    for s in range(0, b, rows):
        r = min(rows, b - s)
        flat = (idx[s:s + r].astype(np.intp) + (np.arange(r) * g)[:, None]).ravel()
        out[s:s + r] = np.bincount(flat, minlength=r * g).reshape(r, g)
    return out


def skip_weights(rng, kind: str, b: int, g: int) -> None:
    """Advance ``rng`` exactly as :func:`draw_weights` ``(rng, kind, b, g)`` does, drawing
    only the integers, :data:`_REPLAY_DRAWS` at a time.

    Multinomial: the b g bounded integers (their rejections, hence their count of 32-bit
    words, are known only by drawing them). Poisson: ``rng.bytes(2 b g)``, which is
    ``integers(0, 2**32, size=ceil(2 b g / 4), dtype=uint32)``.
    """
    high = g if kind == "multinomial" else 1 << 32
    n = b * g if kind == "multinomial" else -(-2 * b * g // 4)
    for start in range(0, n, _REPLAY_DRAWS):
        rng.integers(0, high, size=min(_REPLAY_DRAWS, n - start), dtype=np.uint32)


def batch_sizes(n_resamples: int, g: int) -> list[int]:
    """Resamples per batch: :data:`BATCH_WEIGHTS` weights (at least one resample)."""
    batch = int(np.clip(BATCH_WEIGHTS // g, 1, n_resamples))
    return [min(batch, n_resamples - s) for s in range(0, n_resamples, batch)]


def batch_deviations(rng, kind: str, b: int, s32: np.ndarray, n32: np.ndarray) -> np.ndarray:
    """Resampled mean minus sample mean of every model for the next b resamples: (b, k)
    float32, from the centred unit sums ``s32`` (g, k) and unit sizes ``n32`` (g,)."""
    w = draw_weights(rng, kind, b, s32.shape[0])
    den = w @ n32
    # A Poisson resample may draw no unit at all (probability e^-G): it carries no
    # information, and its deviation is taken as 0.
    den[den == 0] = np.inf
    return np.divide(w @ s32, den[:, None])


def bootstrap_deviations(sums, sizes, n_resamples, kind, rng, advance,
                         client=None) -> np.ndarray:
    """Resampled mean minus sample mean of every model: float32 array (k, n_resamples).

    ``sums`` (g, k): centred sums of the g units; ``sizes`` (g,): their sizes; ``advance(n)``:
    progress; ``client``: a ``dask.distributed.Client`` to run the batches on (the same
    result). ``rng`` ends in the state the local run leaves it in.
    """
    g, k = sums.shape
    s32, n32 = sums.astype(np.float32), sizes.astype(np.float32)
    sizes_ = batch_sizes(n_resamples, g)
    if client is not None:
        out = _on_cluster(client, s32, n32, sizes_, kind, rng, advance)
        return np.ascontiguousarray(out.T)
    out = np.empty((n_resamples, k), dtype=np.float32)
    start = 0
    for b in sizes_:
        out[start:start + b] = batch_deviations(rng, kind, b, s32, n32)
        start += b
        advance(b)
    return np.ascontiguousarray(out.T)


def _blas_threads() -> dict:
    """Thread count of each loaded BLAS library, by its file prefix (threadpoolctl)."""
    from threadpoolctl import threadpool_info

    return {i["prefix"]: i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}


def _bootstrap_batch(state: dict, kind: str, b: int, s32, n32, blas: dict):
    """One batch on a worker: the generator set to ``state``, the products with ``blas``
    threads. Returns the (b, k) deviations and the generator's state after the batch."""
    from threadpoolctl import threadpool_limits

    bitgen = getattr(np.random, state["bit_generator"])()
    bitgen.state = state
    with threadpool_limits(limits=blas):
        dev = batch_deviations(np.random.Generator(bitgen), kind, b, s32, n32)
    return dev, bitgen.state


def _on_cluster(client, s32, n32, sizes, kind, rng, advance) -> np.ndarray:
    """The batches as tasks of ``client``'s cluster: (n_resamples, k) float32."""
    name = rng.bit_generator.state["bit_generator"]
    if not isinstance(getattr(np.random, name, None), type):
        raise InvalidInputError(
            f"random_state: a Generator of {name}, which is not one of numpy's bit "
            "generators, cannot be rebuilt on the Dask workers; give an int seed (PCG64).")
    blas = _blas_threads()
    # Unique keys (hash=False): a key shared with an earlier call could be cancelled by it.
    s_remote, n_remote = client.scatter([s32, n32], broadcast=True, hash=False)
    futures = []
    for c, b in enumerate(sizes):
        futures.append(client.submit(_bootstrap_batch, rng.bit_generator.state, kind, b,
                                     s_remote, n_remote, blas, pure=False))
        if c < len(sizes) - 1:   # the last batch's end state comes back with its result
            skip_weights(rng, kind, b, s32.shape[0])
    out = np.empty((sum(sizes), s32.shape[1]), dtype=np.float32)
    start = 0
    try:
        for future, b in zip(futures, sizes):   # in order: the progress bar's count
            dev, state = future.result()
            out[start:start + b] = dev
            start += b
            advance(b)
        rng.bit_generator.state = state
    finally:
        client.cancel([*futures, s_remote, n_remote])
    return out
