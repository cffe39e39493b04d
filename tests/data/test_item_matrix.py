"""data/_item_matrix.py: bit-packed 0/1 scores and float32 graded scores, unpacked in
chunks of models. Properties only: every unpacked value equals the dense value packed."""
import numpy as np
import pytest

from outperform.data._item_matrix import ItemMatrix, pack, unpack

RNG = np.random.default_rng(31)


@pytest.mark.parametrize("n", [1, 7, 8, 9, 1000, 10_001])
def test_pack_round_trip_and_size(n):
    bits = RNG.random((3, n)) < 0.5
    packed = pack(bits)
    assert packed.dtype == np.uint8 and packed.shape == (3, (n + 7) // 8)
    np.testing.assert_array_equal(unpack(packed, n).astype(bool), bits)


@pytest.mark.parametrize("chunk", [1, 2, 256])
def test_scores_equal_the_dense_matrix_whatever_the_chunk(chunk):
    n, k = 37, 5
    dense = (RNG.random((n, k)) < 0.6).astype(float)
    m = ItemMatrix(task="t", metric="acc", models=tuple("abcde"),
                   items=np.array([str(i) for i in range(n)]), bits=pack(dense.T),
                   values=None)
    out = m.scores(chunk=chunk)
    assert out.flags["C_CONTIGUOUS"] and out.dtype == np.float64
    np.testing.assert_array_equal(out, dense)
    keep = np.flatnonzero(RNG.random(n) < 0.5)
    np.testing.assert_array_equal(m.scores(keep, chunk=chunk), dense[keep])
    assert m.nbytes == k * ((n + 7) // 8) and m.binary


def test_graded_scores_float32_and_missing_items_nan():
    n, k = 10, 3
    dense = RNG.random((n, k)).astype(np.float32)
    has = RNG.random((k, n)) < 0.8
    m = ItemMatrix(task="t", metric="f1", models=("a", "b", "c"),
                   items=np.array([f"i{i}" for i in range(n)]), bits=None,
                   values=dense.T.copy(), present=pack(has))
    out = m.scores(chunk=2)
    np.testing.assert_array_equal(np.isnan(out), ~has.T)
    np.testing.assert_array_equal(out[has.T], dense.astype(float)[has.T])
    np.testing.assert_array_equal(m.complete(), has.all(axis=0))
    lacking = m.lacking()
    for j, model in enumerate(m.models):
        if (~has[j]).any():
            np.testing.assert_array_equal(lacking[model], m.items[~has[j]])
        else:
            assert model not in lacking
