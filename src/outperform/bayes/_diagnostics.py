"""Split R-hat and effective sample size of MCMC draws, in numpy.

The estimators of NumPyro's ``numpyro.diagnostics`` (``split_gelman_rubin`` and
``effective_sample_size``: Gelman-Rubin on split chains; Geyer's initial monotone sequence on
the chains' FFT autocovariances, as the Stan reference manual 2.18 describes), written here so
that a process whose sampler was shipped precompiled does not import NumPyro at all (about a
second of a cold start, issue 31). tests/bayes/test_diagnostics.py checks them against
NumPyro's to 1e-12.
"""
from __future__ import annotations

import numpy as np


def _variances(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Within-chain variance W and the pooled estimator ((n-1)/n W + B/n) of draws x, shape
    (chains, draws, ...)."""
    n = x.shape[1]
    within = x.var(axis=1, ddof=1).mean(axis=0)
    pooled = within * (n - 1) / n
    if x.shape[0] > 1:
        pooled = pooled + x.mean(axis=1).var(axis=0, ddof=1)
    else:
        within = pooled
    return within, pooled


def split_rhat(x) -> np.ndarray:
    """Split R-hat of draws x, shape (chains, draws, ...), draws >= 4: each chain cut in two
    halves, then sqrt(pooled variance / within-chain variance) (Gelman et al., BDA3 §11.4).

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=(4, 1000))
    >>> bool(abs(split_rhat(x) - 1) < 0.01)
    True
    """
    x = np.asarray(x, dtype=float)
    half = x.shape[1] // 2
    within, pooled = _variances(np.concatenate([x[:, :half], x[:, -half:]], axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sqrt(pooled / within)


def _fast_length(target: int) -> int:
    """The smallest integer >= target whose only prime factors are 2, 3 and 5."""
    if target <= 2:
        return target
    while True:
        m = target
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return target
        target += 1


def _autocovariance(x: np.ndarray) -> np.ndarray:
    """Biased autocovariances of each chain along axis 1 (lags 0 .. draws - 1), by FFT."""
    import scipy.fft

    n = x.shape[1]
    size = 2 * _fast_length(n)
    centred = np.swapaxes(x, 1, -1)
    centred = (centred - centred.mean(axis=-1, keepdims=True)).astype(np.float64, copy=False)
    spectrum = scipy.fft.rfft(centred, n=size, axis=-1, workers=-1)
    acov = scipy.fft.irfft(spectrum * np.conjugate(spectrum), n=size, axis=-1, workers=-1)
    return np.swapaxes(acov[..., :n] / n, 1, -1)


def effective_sample_size(x) -> np.ndarray:
    """Effective sample size of draws x, shape (chains, draws, ...), draws >= 2.

    Autocorrelations combined over chains (Stan reference manual 2.18, §16.4), summed in
    pairs up to Geyer's (1992) initial monotone sequence: chains x draws / tau, with
    tau = -1 + 2 sum_k (rho_2k + rho_2k+1).

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(size=(4, 1000))
    >>> bool(3000 < effective_sample_size(x) < 5000)
    True
    """
    x = np.asarray(x, dtype=float)
    gamma = _autocovariance(x)
    within, pooled = _variances(x)
    rho = 1.0 - (within - gamma.mean(axis=0)) / pooled
    rho[0] = 1.0
    pairs = rho[:-1:2] + rho[1::2]
    pairs = np.concatenate([pairs[:1],
                            np.minimum.accumulate(np.clip(pairs[1:], 0, None), axis=0)], axis=0)
    tau = -1.0 + 2.0 * pairs.sum(axis=0)
    return np.prod(x.shape[:2]) / tau
