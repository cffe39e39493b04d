"""pass@k and k-of-k from n samples per item, c of them correct (Chen et al. 2021).

With n samples of an item and c correct, the unbiased estimator of the probability that at
least one of k samples is correct is (Chen et al. 2021, "Evaluating large language models
trained on code", §2.1, eq. 1)

    pass@k = 1 − C(n − c, k) / C(n, k),

and of the probability that all k are correct (k-of-k, "pass^k") C(c, k) / C(n, k): the
share of the C(n, k) subsets of k samples that hold a correct one (only correct ones). The
ratios of binomial coefficients are computed as exp of differences of log-gamma functions,
which is the product form of the paper's numerically stable code,
∏_{i = n−c+1}^{n} (1 − k/i), without its loop, for arrays of items at once.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError

__all__ = ["pass_at_k", "all_k_of_k"]


def _counts(n, c, k):
    n, c = np.asarray(n, dtype=float), np.asarray(c, dtype=float)
    if isinstance(k, bool) or not float(k).is_integer() or k < 1:
        raise InvalidInputError(f"k must be a whole number >= 1, got {k!r}.")
    bad = ~np.isfinite(n) | ~np.isfinite(c) | (n != np.round(n)) | (c != np.round(c)) \
        | (c < 0) | (c > n)
    if bad.any():
        raise InvalidInputError("samples n and correct c must be whole numbers with "
                                f"0 <= c <= n, got n = {n[bad].ravel()[0]!r}, "
                                f"c = {c[bad].ravel()[0]!r}.")
    if np.any(n < k):
        raise InvalidInputError(f"an item has {int(n[n < k].min())} sample(s), fewer than "
                                f"k = {int(k)}: pass@k needs at least k samples of every "
                                "item; lower k or sample more.")
    return n, c, float(k)


def _log_products(terms, n, num, k):
    """Per item i, sum over j < terms[i] of log1p(−num[i] / (n[i] − j)): the logarithm of the
    product form, all items' factors in one flat array (no loop over items)."""
    terms = terms.astype(np.int64).ravel()
    owner = np.repeat(np.arange(terms.size), terms)
    j = np.arange(owner.size) - np.repeat(np.cumsum(terms) - terms, terms)
    factors = np.log1p(-num.ravel()[owner] / (n.ravel()[owner] - j))
    return np.bincount(owner, factors, minlength=terms.size)


def pass_at_k(n, c, k: int) -> np.ndarray:
    """Unbiased estimate of pass@k per item: 1 − C(n − c, k) / C(n, k).

    Parameters
    ----------
    n, c : array_like of int
        Samples and correct samples of each item (broadcast together), 0 <= c <= n, n >= k.
    k : int

    Returns
    -------
    ndarray of float
        In [0, 1], 1 where n − c < k (every subset of k holds a correct sample).

    Raises
    ------
    InvalidInputError
        k not a whole number >= 1; counts not whole, c outside [0, n]; n < k.

    References
    ----------
    Chen et al. (2021), arXiv:2107.03374, §2.1, eq. 1 and its numpy code.

    Examples
    --------
    >>> pass_at_k([10, 10, 5], [0, 3, 5], 2).round(4).tolist()   # 1 − C(7,2)/C(10,2) = 8/15
    [0.0, 0.5333, 1.0]
    """
    n, c, k = _counts(n, c, k)
    n, c = np.broadcast_arrays(n, c)
    open_ = n - c >= k                 # else every subset of k holds a correct sample
    # C(n − c, k) / C(n, k) = prod_{i = n−c+1}^{n} (1 − k / i): c factors
    logs = _log_products(np.where(open_, c, 0), n, np.full(n.shape, k), k)
    return np.where(open_, 0.0 - np.expm1(logs.reshape(n.shape)), 1.0)


def all_k_of_k(n, c, k: int) -> np.ndarray:
    """Unbiased estimate of the probability that k samples are all correct: C(c, k) / C(n, k).

    Parameters and errors as :func:`pass_at_k`; 0 where c < k.

    Examples
    --------
    >>> all_k_of_k([10, 10], [3, 10], 2).round(4).tolist()       # C(3,2)/C(10,2) = 3/45
    [0.0667, 1.0]
    """
    n, c, k = _counts(n, c, k)
    n, c = np.broadcast_arrays(n, c)
    # C(c, k) / C(n, k) = prod_{j < k} (c − j) / (n − j) = prod_{j < k} (1 − (n − c) / (n − j))
    logs = _log_products(np.where(c >= k, k, 0), n, n - c, k)
    return np.where(c >= k, np.exp(logs.reshape(n.shape)), 0.0)
