"""The compiled kernel of :mod:`outperform.stats._bit_gram` (needs numba: the ``fast`` extra).

One fused loop per pair of rows: AND, popcount and add, on words that stay in the L1/L2
cache (a block of ``_BLOCK`` words of every row), four pairs at a time so each word of the
left row is loaded once for four right rows. LLVM turns the popcount of the word loop into
VPOPCNTQ where the CPU has AVX-512 VPOPCNTDQ, into POPCNT elsewhere. The kernel releases the
GIL (``nogil``), so :func:`outperform.stats._bit_gram.bit_gram` runs one call per thread on
disjoint ranges of words; numba's own parallel layer is not used (its default "workqueue"
layer aborts the process when two Python threads launch parallel kernels at once).
Compiled code is cached on disk (``cache=True``): a later process loads it in milliseconds.
"""
from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

#: Words of each row per block: 200 rows x 512 words x 8 bytes = 800 KiB stay in L2.
_BLOCK = 512


@intrinsic
def _popcount(typingctx, word):
    """Number of set bits of a uint64 (LLVM's ctpop intrinsic; numba has no popcount)."""
    if word != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@numba.njit(nogil=True, cache=True)
def _and_count(a, b):
    total = np.uint64(0)
    for w in range(a.shape[0]):
        total += _popcount(a[w] & b[w])
    return total


@numba.njit(nogil=True, cache=True)
def _and_count4(a, b0, b1, b2, b3):
    s0 = s1 = s2 = s3 = np.uint64(0)
    for w in range(a.shape[0]):
        x = a[w]
        s0 += _popcount(x & b0[w])
        s1 += _popcount(x & b1[w])
        s2 += _popcount(x & b2[w])
        s3 += _popcount(x & b3[w])
    return s0, s1, s2, s3


@numba.njit(nogil=True, cache=True)
def gram_words(words, start, stop, g):
    """Add to ``g[i, j]`` (i <= j) the set bits of ``words[i] & words[j]`` over words
    ``start:stop``; ``words``: C-contiguous (k, W) uint64, ``g``: (k, k) int64."""
    k = words.shape[0]
    for w0 in range(start, stop, _BLOCK):
        w1 = min(stop, w0 + _BLOCK)
        for i in range(k):
            a = words[i, w0:w1]
            j = i
            while j + 4 <= k:
                c0, c1, c2, c3 = _and_count4(a, words[j, w0:w1], words[j + 1, w0:w1],
                                             words[j + 2, w0:w1], words[j + 3, w0:w1])
                g[i, j] += c0
                g[i, j + 1] += c1
                g[i, j + 2] += c2
                g[i, j + 3] += c3
                j += 4
            while j < k:
                g[i, j] += _and_count(a, words[j, w0:w1])
                j += 1
