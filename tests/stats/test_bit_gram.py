"""Gram matrix of bit-packed 0/1 rows (outperform.stats._bit_gram): both kernels, one answer.

The reference is numpy's float matrix product C C^T of the same 0/1 rows (exact: every
entry is an integer below 2^24).
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

from outperform.stats import _bit_gram as bit_gram

SHAPES = [(2, 1), (3, 63), (4, 64), (5, 65), (8, 1000), (9, 40_000), (13, 70_001)]


def rows(k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.random((k, n)) < rng.uniform(0.05, 0.95, size=(k, 1))


def reference(x: np.ndarray) -> np.ndarray:
    c = x.astype(np.float64)
    return (c @ c.T).astype(np.int64)


@pytest.mark.parametrize("k, n", SHAPES)
def test_numpy_kernel_equals_the_matrix_product(k, n):
    x = rows(k, n, k * n)
    assert np.array_equal(np.triu(bit_gram.gram_numpy(x)), np.triu(reference(x)))
    assert np.array_equal(bit_gram.bit_gram(x), reference(x))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("k, n", SHAPES)
def test_compiled_kernel_equals_the_matrix_product(k, n, threads):
    pytest.importorskip("numba")
    x = rows(k, n, k + n)
    # 70,001 examples = 1,094 words: several 512-word blocks, split unevenly between threads.
    assert np.array_equal(np.triu(bit_gram.gram_numba(x, threads)), np.triu(reference(x)))


def test_large_work_goes_to_the_compiled_kernel_and_small_to_numpy(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.delitem(sys.modules, "outperform.stats._bit_gram_numba", raising=False)
    used = []
    for name in ("gram_numpy", "gram_numba"):
        original = getattr(bit_gram, name)
        monkeypatch.setattr(bit_gram, name,
                            lambda x, _f=original, _n=name: used.append(_n) or _f(x))
    x = rows(6, 3000, 1)           # 21 pairs x 47 words = 987 word operations
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS", 988)
    small = bit_gram.bit_gram(x)
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS", 987)
    large = bit_gram.bit_gram(x)
    assert used == ["gram_numpy", "gram_numba"]
    assert np.array_equal(small, large) and np.array_equal(large, reference(x))
    # Loaded now: the lower threshold applies.
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS", 10**12)
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS_LOADED", 987)
    assert np.array_equal(bit_gram.bit_gram(x), reference(x))
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS_LOADED", 988)
    assert np.array_equal(bit_gram.bit_gram(x), reference(x))
    assert used == ["gram_numpy", "gram_numba", "gram_numba", "gram_numpy"]


def test_without_numba_large_work_stays_on_numpy(monkeypatch):
    monkeypatch.delitem(sys.modules, "outperform.stats._bit_gram_numba", raising=False)
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS", 0)
    monkeypatch.setattr(bit_gram.importlib.util, "find_spec",
                        lambda name: None if name == "numba" else object())
    monkeypatch.setattr(bit_gram, "gram_numba", lambda x: pytest.fail("numba path taken"))
    x = rows(4, 500, 2)
    assert np.array_equal(bit_gram.bit_gram(x), reference(x))


def test_a_kernel_that_cannot_load_warns_and_counts_with_numpy(monkeypatch):
    pytest.importorskip("numba")
    monkeypatch.delitem(sys.modules, "outperform.stats._bit_gram_numba", raising=False)
    monkeypatch.setattr(bit_gram, "_NUMBA_WORDS", 0)
    real_import = bit_gram.importlib.import_module

    def broken(name, *args):
        if name == "outperform.stats._bit_gram_numba":
            raise RuntimeError("cannot cache function: no locator available")
        return real_import(name, *args)

    monkeypatch.setattr(bit_gram.importlib, "import_module", broken)
    x = rows(5, 700, 3)
    with pytest.warns(RuntimeWarning, match="counting with numpy instead"):
        g = bit_gram.bit_gram(x)
    assert np.array_equal(g, reference(x))


@pytest.mark.parametrize("limit, expected", [("1", 1), ("64", None), ("", None), ("x", None)])
def test_threads_respect_omp_num_threads(monkeypatch, limit, expected):
    # joblib's workers set OMP_NUM_THREADS to their share of the cores.
    numba = pytest.importorskip("numba")
    monkeypatch.setenv("OMP_NUM_THREADS", limit)
    assert bit_gram._default_threads() == (expected or numba.get_num_threads())
