"""Gram matrix of 0/1 rows: G[i, j] = number of columns where rows i and j are both 1.

For a models x examples correctness matrix, G[i, j] is the number of examples both models
get right, from which every discordance count of all-pairs McNemar follows
(:mod:`outperform.stats._leaderboard`). Rows are bit-packed into 64-bit words and G is the
sum of popcount(row_i AND row_j) over the words; only i <= j is computed, k^2 n / 128 word
operations in all. Two kernels give the same integers:

- compiled (numba, ``pip install 'outperform[fast]'``): AND, popcount and add fused in one
  loop over cache-sized blocks, on all cores (one thread per range of words). Used when
  numba is installed and the work is large enough to repay loading it (``_NUMBA_WORDS``),
  and from much less work once loaded (``_NUMBA_WORDS_LOADED``).
- numpy: tile by tile, three passes per tile (AND, ``np.bitwise_count``, row sums), one core.

200 models x 10^6 examples on 2 cores (``benchmarks/bench_leaderboard.py``): compiled about
0.06 s, numpy about 0.35 s, a single-thread float32 BLAS product C C^T 0.7 s.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import warnings

from .._validation import PerformanceWarning
from concurrent.futures import ThreadPoolExecutor

import numpy as np

#: Bytes of bit-packed correctness per numpy tile: the tile, its AND with one row and the
#: popcounts of that stay in a core's L2 cache (1-2 MiB) for any number of models.
_TILE_BYTES = 1 << 20
#: Words per numpy tile at most: 64 bits x 1023 words < 2^16, so per-tile sums fit in uint16.
_TILE_WORDS_MAX = 1023
#: Word operations (pairs x words) from which the compiled kernel is loaded: importing numba
#: and loading the cached kernel costs ~0.35 s once per process (2 cores, scipy already
#: imported), what numpy spends on ~3.5e8 words (1 ns each; the kernel: ~0.13 ns). From 2^28
#: words a single call loses at most ~0.1 s and every later call gains.
_NUMBA_WORDS = 1 << 28
#: Once the kernel is loaded in this process, it is used from this much work on (below, the
#: threads cost more than they save).
_NUMBA_WORDS_LOADED = 1 << 22

_KERNEL = __name__ + "_numba"

_BYTE_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.uint8)


def _popcount_rows(words: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Number of set bits of each row of a 2-D uint64 array.

    ``out``: an optional uint8 buffer of the same shape for the per-word counts.
    """
    if hasattr(np, "bitwise_count"):  # numpy >= 2.0
        # A row of at most 1023 words has at most 65,472 bits: uint16 sums are exact there.
        dtype = np.uint16 if words.shape[1] <= _TILE_WORDS_MAX else np.int64
        return np.bitwise_count(words, out=out).sum(axis=1, dtype=dtype)
    return _BYTE_POPCOUNT[words.view(np.uint8)].sum(axis=1, dtype=np.int64)


def _pack(x: np.ndarray) -> np.ndarray:
    """Rows of a bool matrix as uint64 words, zero-padded (zero bits add nothing to G)."""
    packed = np.packbits(x, axis=1)
    pad = -packed.shape[1] % 8
    if pad:
        packed = np.pad(packed, ((0, 0), (0, pad)))
    return packed.view(np.uint64)


def gram_numpy(x: np.ndarray) -> np.ndarray:
    """G (upper triangle and diagonal; zeros below) of a C-contiguous 2-D bool matrix, numpy.

    The examples are packed tile by tile, so the temporaries are bounded by the tile
    (k x width words) whatever the number of examples, and reused from the cache by all rows.
    """
    k, n = x.shape
    width = int(np.clip(_TILE_BYTES // (8 * k), 1, _TILE_WORDS_MAX))
    g = np.zeros((k, k), dtype=np.int64)
    both = np.empty((k, width), dtype=np.uint64)
    bits = np.empty((k, width), dtype=np.uint8)
    for start in range(0, n, 64 * width):
        tile = _pack(x[:, start:start + 64 * width])
        w = tile.shape[1]
        for i in range(k):  # a loop over models; each step is vectorised over the tile
            anded = np.bitwise_and(tile[i], tile[i:], out=both[:k - i, :w])
            g[i, i:] += _popcount_rows(anded, bits[:k - i, :w])
    return g


def _default_threads() -> int:
    """numba's thread count (``NUMBA_NUM_THREADS``, else the cores), capped by
    ``OMP_NUM_THREADS`` when set: joblib's workers set it to their share of the cores, so a
    count inside parallel work does not start a thread per core in every worker."""
    import numba

    threads = numba.get_num_threads()
    limit = os.environ.get("OMP_NUM_THREADS", "").strip()
    return min(threads, max(int(limit), 1)) if limit.isdigit() else threads


def gram_numba(x: np.ndarray, threads: int | None = None) -> np.ndarray:
    """G as :func:`gram_numpy`, by the compiled kernel on ``threads`` threads (default:
    :func:`_default_threads`).

    The examples are packed in tiles of ``_TILE_BYTES / 2`` (memory bounded by the tile, and
    a tile stays in L2 while the kernel reads it k / 2 times); each tile's words are split
    evenly between the threads, each adding to its own G.
    """
    from ._bit_gram_numba import gram_words

    k, n = x.shape
    threads = max(1, threads or _default_threads())
    step = 64 * max(1, _TILE_BYTES // (16 * k))
    partial = np.zeros((threads, k, k), dtype=np.int64)
    with ThreadPoolExecutor(threads) as pool:
        for start in range(0, n, step):
            words = np.ascontiguousarray(_pack(x[:, start:start + step]))
            bounds = np.linspace(0, words.shape[1], threads + 1).astype(int)
            list(pool.map(gram_words, [words] * threads, bounds[:-1], bounds[1:], partial))
    return partial.sum(axis=0)


def _load_kernel() -> bool:
    """Import the compiled kernel; False, with a warning, when numba cannot load it (e.g. an
    incompatible numba, or no writable folder for its cache)."""
    try:
        importlib.import_module(_KERNEL)
    except Exception as exc:  # noqa: BLE001  (any failure of numba: count with numpy)
        warnings.warn(f"the compiled counting kernel could not be loaded ({exc!r}); counting "
                      "with numpy instead: the same counts, about 6x slower.", PerformanceWarning,
                      stacklevel=4)
        return False
    return True


def bit_gram(x: np.ndarray) -> np.ndarray:
    """G[i, j] = columns where rows i and j of a C-contiguous 2-D bool matrix are both True.

    Returns the full symmetric (k, k) int64 matrix; the diagonal holds the row sums.
    """
    k, n = x.shape
    work = k * (k + 1) // 2 * -(-n // 64)
    if _KERNEL in sys.modules:
        fast = work >= _NUMBA_WORDS_LOADED
    else:
        fast = (work >= _NUMBA_WORDS and importlib.util.find_spec("numba") is not None
                and _load_kernel())
    g = gram_numba(x) if fast else gram_numpy(x)
    return g + np.triu(g, 1).T
