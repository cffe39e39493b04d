"""pass@k and k-of-k (Chen et al. 2021, eq. 1) against the paper's own numpy code and the
binomial coefficients counted exactly."""
from math import comb

import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.stats import all_k_of_k, pass_at_k


def _chen(n, c, k):
    # Chen et al. (2021), arXiv:2107.03374, Figure 3: the numerically stable estimator
    if n - c < k:
        return 1.0
    return 1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1))


CASES = [(n, c, k) for n in (1, 5, 20, 200) for c in sorted({0, 1, n // 3, n - 1, n})
         for k in (1, 2, 5, 10, 100) if k <= n and 0 <= c <= n]


def test_pass_at_k_is_the_papers_estimator():
    n, c, k = map(np.array, zip(*CASES))
    for kk in np.unique(k):
        sel = k == kk
        got = pass_at_k(n[sel], c[sel], int(kk))
        want = [_chen(a, b, int(kk)) for a, b in zip(n[sel], c[sel])]
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("n, c, k", [(10, 3, 2), (20, 7, 5), (50, 49, 10), (13, 0, 4)])
def test_exact_ratios_of_binomial_coefficients(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(1 - comb(n - c, k) / comb(n, k), rel=1e-12)
    assert all_k_of_k(n, c, k) == pytest.approx(comb(c, k) / comb(n, k), rel=1e-12, abs=0)


def test_k_1_is_the_share_correct_and_large_n_stays_finite():
    np.testing.assert_allclose(pass_at_k([10, 4], [3, 4], 1), [0.3, 1.0])
    np.testing.assert_allclose(all_k_of_k([10, 4], [3, 4], 1), [0.3, 1.0])
    big = pass_at_k(100_000, 10, 1000)                 # comb() would be astronomically large
    assert big == pytest.approx(_chen(100_000, 10, 1000), rel=1e-9)


@pytest.mark.parametrize("n, c, k, match", [(3, 4, 1, "0 <= c <= n"), (3, 1, 5, "fewer than"),
                                            (3.5, 1, 1, "whole"), (3, 1, 0, "k must")])
def test_refuses(n, c, k, match):
    with pytest.raises(InvalidInputError, match=match):
        pass_at_k(n, c, k)
