"""Paired means and their Poisson bootstrap for score tables beyond memory (Dask arrays).

A Dask array of scores (items x models, chunked by items) is read chunk by chunk, twice:
once for the means and the Gram matrix of the residuals (the standard errors of all
differences, :mod:`._paired_means`), once for the bootstrap. The bootstrap uses Poisson(1)
weights, which are independent from item to item, so each chunk draws its own weights from
its own seed (spawned from ``random_state``) and adds its share to every resampled mean;
the multinomial bootstrap would need all items at once. Memory: one chunk, its weights for
one batch of resamples, and k x n_resamples floats.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, TooFewError
from ._paired_means import _ZERO_VARIANCE, PairedMeans

#: Weights per batch of resamples within a chunk (x 4 bytes).
_BATCH_WEIGHTS = 1 << 25


def is_dask(x) -> bool:
    """Whether ``x`` is a Dask array (checked without importing Dask)."""
    return type(x).__module__.split(".")[0] == "dask" and hasattr(x, "chunks")


def _blocks(x, client=None):
    """The chunks of rows of a Dask array, computed one at a time (on ``client``'s cluster
    when given), as float64."""
    if x.ndim != 2:
        raise InvalidInputError(f"scores must be a 2-D items x models array, got shape {x.shape}.")
    x = x.rechunk({1: -1})  # whole rows: every model of an item in one chunk
    for i in range(x.numblocks[0]):
        block = x.blocks[i]
        yield np.asarray(block.compute() if client is None else
                         client.compute(block).result(), dtype=float)


def chunked_paired_means(x, *, higher_is_better: bool = True, client=None) -> PairedMeans:
    """:func:`outperform.stats._paired_means.paired_means` of a Dask array, by chunks.

    Items are the resampled units (clusters are not supported here). ``sums`` is None: the
    bootstrap reads the chunks again (:func:`chunked_deviations`). ``client``: a
    ``dask.distributed.Client`` whose cluster computes the chunks.

    Raises
    ------
    InvalidInputError
        Not 2-D, NaN or infinite values.
    TooFewError
        Fewer than 2 models or items.
    """
    n, k = (int(s) for s in x.shape)
    if k < 2:
        raise TooFewError(f"scores has {k} model(s) (columns); ranking needs at least 2.")
    if n < 2:
        raise TooFewError(f"scores has {n} item(s) (rows); a bootstrap needs at least 2.")
    sign = 1.0 if higher_is_better else -1.0
    total = np.zeros(k)
    for block in _blocks(x, client):
        if not np.isfinite(block).all():
            raise InvalidInputError("scores contain NaN or infinite values; every model needs "
                                    "a score on every item.")
        total += block.sum(axis=0)
    mean = sign * total / n
    gram = np.zeros((k, k))
    for block in _blocks(x, client):  # second pass: residuals about the mean, no cancellation
        u = sign * block - mean
        gram += u.T @ u
    gram *= 1.0 / (n - 1) / n
    v = np.diag(gram)
    var = v[:, None] + v[None, :] - 2 * gram
    var[var <= _ZERO_VARIANCE * (v[:, None] + v[None, :])] = 0.0
    return PairedMeans(mean, mean[:, None] - mean[None, :], np.sqrt(var), np.sqrt(v), None,
                       None, n)


def chunked_deviations(x, mean, *, higher_is_better, n_resamples, rng, table,
                       advance, client=None) -> np.ndarray:
    """Poisson-bootstrap deviations of the resampled means, (k, n_resamples) float32.

    ``table``: the Poisson(1) quantile table of :mod:`._rank_sets`; ``rng`` seeds one
    generator per chunk, so the result depends on the seed and the chunk sizes, not on
    where or in which order Dask computes the chunks. ``client``: a ``dask.distributed.Client``
    whose cluster reads the chunks (the bootstrap's arithmetic runs here, as without it).
    """
    k = mean.size
    sign = 1.0 if higher_is_better else -1.0
    num = np.zeros((n_resamples, k))
    den = np.zeros(n_resamples)
    seeds = np.random.SeedSequence(int(rng.integers(2 ** 63)))
    for block in _blocks(x, client):
        chunk_rng = np.random.default_rng(seeds.spawn(1)[0])
        s32 = (sign * block - mean).astype(np.float32)
        g = s32.shape[0]
        batch = int(np.clip(_BATCH_WEIGHTS // g, 1, n_resamples))
        for start in range(0, n_resamples, batch):
            b = min(batch, n_resamples - start)
            u = np.frombuffer(chunk_rng.bytes(2 * b * g), dtype=np.uint16).reshape(b, g)
            w = table[u]
            num[start:start + b] += w @ s32
            den[start:start + b] += w.sum(axis=1, dtype=np.float64)
    advance(n_resamples)
    den[den == 0] = np.inf   # no item drawn at all: no information, deviation 0
    return np.ascontiguousarray((num / den[:, None]).T.astype(np.float32))
