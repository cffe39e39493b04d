"""Poisson-binomial distribution: the number of successes of independent, non-identical trials.

If trial i succeeds with probability p_i, X = sum of the N trial outcomes follows the
Poisson-binomial distribution (Wang 1993). Lacoste, Laviolette & Marchand (2012, §5, eq. 5)
use it for the number of data sets on which algorithm A beats algorithm B; Corani & Benavoli
(2015, §3.1) for the number of data sets on which one classifier is more accurate.

Three ways to compute the whole pmf (all vectorised over a batch of probability vectors).
Their errors, eps = 2.2e-16 the machine epsilon, as measured against
``scipy.stats.binom.pmf`` (all p_i equal) and checked in ``tests/stats/test_poisson_binomial.py``:

``"recursion"``
    The dynamic programme of Lacoste §5, q_i(k) = p_i q_{i-1}(k-1) + (1 - p_i) q_{i-1}(k),
    vectorised over k: O(N^2). Sums of positive terms only, so every entry, however small,
    keeps its *relative* precision: relative error below 2 N eps (each of the N steps adds
    a couple of roundings; measured 0.7 N eps for N = 10^4). The only method for tail
    probabilities far below 1e-14.
``"fft"``
    The DFT of the characteristic function (Hong 2013, "DFT-CF"): O(N^2) to evaluate the
    characteristic function, then one FFT. *Absolute* error per entry below N eps (measured
    up to 0.02 N eps: 1e-15 at N = 1000, 5e-14 at N = 10^4), so entries and tail sums
    smaller than that are rounding noise.
``"convolution"``
    Divide and conquer: multiply the N polynomials (1 - p_i) + p_i z pairwise in a
    balanced tree, directly while they are short, by FFT convolution (scipy.signal.fftconvolve)
    once they are long. O(N log^2 N): the one to use for N in the hundreds of thousands.
    *Absolute* error per entry below 2 log2(N) eps (a rounding per level of the tree;
    measured up to 7 eps = 1.5e-15 for N = 10^5). Tails of that order lose their relative
    precision: at 7 standard deviations above the mean of N = 10^5 trials (P ~ 1.5e-12) the
    survival function is off by about 1e-3 of its value.

``"auto"`` takes the recursion up to N = 1000 trials (and B N^2 <= 1e8 for a batch of B
vectors), so its tails keep their relative precision there, and the convolution above, where
they are good to about 1e-15 absolute only: ask for ``method="recursion"`` when a tail
probability far below that matters for large N. FFT round-off can leave entries of order
-1e-17; they are clipped to 0 and the pmf renormalised.

The Poisson-multinomial (each trial has three outcomes: left, rope, right) is what the
Poisson test with a ROPE needs for the joint counts (Corani & Benavoli 2015 §3.1 with the
ROPE of Benavoli et al. 2017).
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, as_float_array, check_choice, check_random_state

__all__ = ["PoissonBinomial", "poisson_binomial_pmf", "poisson_multinomial_pmf"]

METHODS = ("auto", "recursion", "fft", "convolution")
AUTO_RECURSION_MAX_N = 1000
# "auto" also leaves the O(B N^2) recursion when a batch would make it slow (B N^2 > 1e8).
_AUTO_RECURSION_WORK = 10**8
# Below this polynomial length the tree multiplies directly (exact positive sums), above it
# by FFT; 32 is about where fftconvolve starts to win.
_DIRECT_MAX_LEN = 32
# Number of complex factors the DFT method forms at once (small enough to stay in cache).
_DFT_CHUNK = 1 << 14


def batch_method(n: int) -> str:
    """The method ``"auto"`` picks for N = ``n`` trials whatever the batch size.

    The recursion up to AUTO_RECURSION_MAX_N trials, the convolution above. Kernels that
    must give a row the same bits alone or in a batch pass this instead of ``"auto"``, whose
    choice also depends on the batch size.
    """
    return "recursion" if n <= AUTO_RECURSION_MAX_N else "convolution"


def _as_probabilities(p, name: str = "p") -> np.ndarray:
    arr = as_float_array(p, name)
    if arr.ndim not in (1, 2):
        raise InvalidInputError(
            f"{name} must be a vector of N success probabilities or a (B, N) batch of them, "
            f"got shape {arr.shape}."
        )
    if arr.size and (arr.min() < 0 or arr.max() > 1):
        bad = arr[(arr < 0) | (arr > 1)][0]
        raise InvalidInputError(f"{name} must hold probabilities in [0, 1], got {bad:g}.")
    return arr


def _pmf_recursion(p: np.ndarray) -> np.ndarray:
    batch, n = p.shape
    q = np.zeros((batch, n + 1))
    q[:, 0] = 1.0
    for i in range(n):
        pi = p[:, i:i + 1]
        # The right-hand side is evaluated before assignment, so q[:, :i+1] is still q_{i-1}.
        q[:, 1:i + 2] = q[:, 1:i + 2] * (1 - pi) + q[:, :i + 1] * pi
        q[:, 0] *= 1 - pi[:, 0]
    return q


def _pmf_dft(p: np.ndarray) -> np.ndarray:
    batch, n = p.shape
    size = n + 1
    # Characteristic function phi(l) = prod_j (1 - p_j + p_j e^{i w l}), w = 2 pi / (N + 1),
    # as a plain product (Hong 2013): its factors have modulus <= 1, so it can only underflow
    # to 0, where the true value is negligible anyway. Only l <= (N+1)/2 is needed, since
    # phi(N + 1 - l) = conj(phi(l)).
    rotation = np.exp(2j * np.pi * np.arange(size // 2 + 1) / size)
    phi = np.empty((batch, rotation.size), dtype=complex)
    step = max(1, _DFT_CHUNK // max(1, batch * n))
    for start in range(0, rotation.size, step):
        sl = slice(start, start + step)
        factors = p[:, None, :] * rotation[None, sl, None]
        factors += (1 - p)[:, None, :]
        phi[:, sl] = factors.prod(axis=-1)
    # phi(l) = sum_k pmf_k e^{+i w l k} is the conjugate of the forward DFT that irfft inverts.
    return np.fft.irfft(np.conj(phi), n=size, axis=-1)


def _multiply_direct(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    length = x.shape[-1]
    out = np.zeros(x.shape[:-1] + (2 * length - 1,))
    for i in range(length):
        out[..., i:i + length] += x[..., i:i + 1] * y
    return out


def _pmf_convolution(p: np.ndarray) -> np.ndarray:
    from scipy import signal  # imported on use: it costs more than the rest of the package

    batch, n = p.shape
    # Pad to a power of two with trials that never succeed (factor 1 + 0 z): the tree stays
    # balanced and every polynomial of a level has the same length.
    width = 1 << max(0, int(np.ceil(np.log2(max(n, 1)))))
    polys = np.zeros((batch, width, 2))
    polys[:, :, 0] = 1.0
    polys[:, :n, 0] = 1 - p
    polys[:, :n, 1] = p
    while polys.shape[1] > 1:
        left, right = polys[:, 0::2], polys[:, 1::2]
        if polys.shape[-1] <= _DIRECT_MAX_LEN:
            polys = _multiply_direct(left, right)
        else:
            polys = signal.fftconvolve(left, right, axes=-1)
    return polys[:, 0, :n + 1]


_KERNELS = {"recursion": _pmf_recursion, "fft": _pmf_dft, "convolution": _pmf_convolution}


def poisson_binomial_pmf(p, *, method: str = "auto") -> np.ndarray:
    """Whole probability mass function of the Poisson-binomial distribution.

    Parameters
    ----------
    p : array_like, shape (N,) or (B, N)
        Success probabilities of the N independent trials, in [0, 1]; a 2-D array is a batch
        of B probability vectors, computed together.
    method : {"auto", "recursion", "fft", "convolution"}
        Algorithm (see the module docstring for the errors): ``"recursion"`` is the O(N^2)
        dynamic programme of Lacoste et al. (2012) §5, relative error below 2 N eps in every
        entry, the far tails included; ``"fft"`` the DFT of the characteristic function
        (Hong 2013), absolute error below N eps; ``"convolution"`` the O(N log^2 N)
        divide-and-conquer FFT product, absolute error below 2 log2(N) eps. ``"auto"``:
        recursion for N <= 1000 (and B N^2 <= 1e8), convolution above.

    Returns
    -------
    ndarray, shape (N + 1,) or (B, N + 1)
        ``pmf[..., k]`` = P(X = k), k = 0..N; non-negative, summing to 1.

    Raises
    ------
    InvalidInputError
        Probabilities outside [0, 1], NaN, more than 2 dimensions, unknown method.

    References
    ----------
    Lacoste, Laviolette & Marchand (2012) §5; Hong (2013), Computational Statistics & Data
    Analysis 59, 41-51.

    Examples
    --------
    The example of the R package poibin (``dpoibin(0:3, c(0.4163448, 0.3340270, 0.9689613))``):

    >>> poisson_binomial_pmf([0.4163448, 0.3340270, 0.9689613]).round(8)
    array([0.0120647 , 0.39129134, 0.46189012, 0.13475384])
    >>> poisson_binomial_pmf([[0.5, 0.5], [1.0, 0.0]], method="fft").round(12)
    array([[0.25, 0.5 , 0.25],
           [0.  , 1.  , 0.  ]])
    """
    check_choice(method, "method", METHODS)
    arr = _as_probabilities(p)
    batch = arr if arr.ndim == 2 else arr[None, :]
    if method == "auto":
        n_vectors, n = batch.shape
        small = n <= AUTO_RECURSION_MAX_N and n_vectors * n * n <= _AUTO_RECURSION_WORK
        method = "recursion" if small else "convolution"
    pmf = _KERNELS[method](batch)
    if method != "recursion":
        np.clip(pmf, 0.0, None, out=pmf)
        pmf /= pmf.sum(axis=-1, keepdims=True)
    return pmf if arr.ndim == 2 else pmf[0]


class PoissonBinomial:
    """Frozen Poisson-binomial distribution of N independent trials (batched).

    The pmf is computed once, on first use, by :func:`poisson_binomial_pmf`; ``cdf`` and
    ``sf`` are cumulative sums from the left and from the right, so that each tail is as
    precise as the pmf entries it adds: to relative precision with the recursion (``"auto"``
    for N <= 1000), to about 1e-15 absolute with the FFT methods (see the module docstring).

    Parameters
    ----------
    p : array_like, shape (N,) or (B, N)
        Success probabilities; a 2-D array is a batch of B distributions.
    method : {"auto", "recursion", "fft", "convolution"}
        See :func:`poisson_binomial_pmf`.

    Attributes
    ----------
    p : ndarray
    n : int
        Number of trials N (the support is 0..N).

    Raises
    ------
    InvalidInputError
        Probabilities outside [0, 1] or NaN, wrong shape, unknown method.

    Examples
    --------
    >>> X = PoissonBinomial([0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5])
    >>> X.mean(), X.var()
    (3.0, 1.9)
    >>> round(float(X.pmf(3)), 8), round(float(X.cdf(3)), 8), round(float(X.sf(5)), 8)
    (0.28171848, 0.653835, 0.03818984)
    >>> X.rvs(size=5, random_state=0)
    array([3, 2, 1, 0, 4])
    """

    def __init__(self, p, *, method: str = "auto"):
        check_choice(method, "method", METHODS)
        self.p = _as_probabilities(p)
        self.n = int(self.p.shape[-1])
        self.method = method
        self._pmf = None
        self._cdf = None
        self._sf = None

    @property
    def pmf_table(self) -> np.ndarray:
        """All of P(X = k), k = 0..N, shape (N + 1,) or (B, N + 1)."""
        if self._pmf is None:
            self._pmf = poisson_binomial_pmf(self.p, method=self.method)
        return self._pmf

    def _lookup(self, table: np.ndarray, k, below: float, above: float) -> np.ndarray:
        """``table[..., k]`` with the value ``below`` for k < 0 and ``above`` for k > N."""
        k = np.floor(np.asarray(k, dtype=float))
        idx = np.clip(k, 0, self.n).astype(np.int64)
        out = table[..., idx]
        out = np.where(k < 0, below, out)
        return np.where(k > self.n, above, out)

    def pmf(self, k) -> np.ndarray:
        """P(X = k); 0 outside 0..N and for non-integer k. Batched: shape (B,) + k.shape."""
        k = np.asarray(k, dtype=float)
        out = self._lookup(self.pmf_table, k, 0.0, 0.0)
        return np.where(k == np.floor(k), out, 0.0)

    def cdf(self, k) -> np.ndarray:
        """P(X <= k)."""
        if self._cdf is None:
            self._cdf = np.minimum(np.cumsum(self.pmf_table, axis=-1), 1.0)
        return self._lookup(self._cdf, k, 0.0, 1.0)

    def sf(self, k) -> np.ndarray:
        """P(X > k), summed from the right tail (precise when it is tiny)."""
        if self._sf is None:
            right = np.cumsum(self.pmf_table[..., ::-1], axis=-1)[..., ::-1]
            # sf(k) = sum_{j > k} pmf_j: shift by one, sf(N) = 0.
            self._sf = np.minimum(np.concatenate(
                [right[..., 1:], np.zeros(right.shape[:-1] + (1,))], axis=-1), 1.0)
        return self._lookup(self._sf, k, 1.0, 0.0)

    def mean(self):
        """E[X] = sum p_i."""
        m = self.p.sum(axis=-1)
        return float(m) if np.ndim(m) == 0 else m

    def var(self):
        """Var[X] = sum p_i (1 - p_i)."""
        v = (self.p * (1 - self.p)).sum(axis=-1)
        return float(v) if np.ndim(v) == 0 else v

    def std(self):
        """Standard deviation of X."""
        return np.sqrt(self.var())

    def rvs(self, size=None, *, random_state=None) -> np.ndarray:
        """Random draws by inversion of the cdf (exact for the computed pmf).

        Parameters
        ----------
        size : int or tuple of int, optional
            Number (shape) of draws per distribution; None gives one draw.
        random_state : None, int or numpy.random.Generator
            Default None: fresh draws on each call, as ``scipy.stats`` distributions' ``rvs``
            (a distribution's draws are meant to differ; the package's functions default to 0).

        Returns
        -------
        int or ndarray
            Shape ``size`` for a single distribution, (B,) + ``size`` for a batch.
        """
        rng = check_random_state(random_state)
        shape = () if size is None else tuple(np.atleast_1d(size).astype(int))
        cdf = np.atleast_2d(np.cumsum(self.pmf_table, axis=-1))
        cdf[:, -1] = 1.0
        u = rng.random((cdf.shape[0],) + shape)
        draws = np.stack([np.searchsorted(row, ui, side="right") for row, ui in zip(cdf, u)])
        draws = np.minimum(draws, self.n).astype(np.int64)
        if self.p.ndim == 1:
            draws = draws[0]
            return int(draws) if size is None else draws
        return draws


def poisson_multinomial_pmf(probs) -> np.ndarray:
    """Joint pmf of the counts of N independent three-outcome trials (Poisson-multinomial).

    Trial i ends *left*, *rope* or *right* with probabilities ``probs[i]``; the counts
    (n_left, n_rope, n_right) sum to N, so the pmf is a table over (n_left, n_right).
    Computed by the two-dimensional analogue of the recursion of Lacoste §5 (sums of positive
    terms, O(N^3)): fine for the tens to hundreds of data sets of a comparison.

    Parameters
    ----------
    probs : array_like, shape (N, 3)
        Rows (P(left), P(rope), P(right)) of each trial; each row sums to 1.

    Returns
    -------
    ndarray, shape (N + 1, N + 1)
        ``pmf[i, j]`` = P(n_left = i, n_right = j); zero where i + j > N.

    Raises
    ------
    InvalidInputError
        Wrong shape, entries outside [0, 1], rows not summing to 1 (tolerance 1e-9).

    Examples
    --------
    >>> pmf = poisson_multinomial_pmf([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    >>> pmf.round(2)          # rows n_left = 0, 1, 2; columns n_right = 0, 1, 2
    array([[0.03, 0.29, 0.4 ],
           [0.05, 0.21, 0.  ],
           [0.02, 0.  , 0.  ]])
    >>> i, j = np.indices(pmf.shape)
    >>> round(float(pmf[j > i].sum()), 4)  # P(n_right > n_left)
    0.69
    """
    arr = as_float_array(probs, "probs", ndim=2)
    if arr.shape[1] != 3:
        raise InvalidInputError(
            "probs must have one row (P(left), P(rope), P(right)) per trial, got shape "
            f"{arr.shape}."
        )
    if arr.size and (arr.min() < 0 or arr.max() > 1):
        raise InvalidInputError("probs must hold probabilities in [0, 1].")
    if arr.size and np.max(np.abs(arr.sum(axis=1) - 1)) > 1e-9:
        raise InvalidInputError("each row of probs must sum to 1 (left + rope + right).")
    n = arr.shape[0]
    q = np.zeros((n + 1, n + 1))
    q[0, 0] = 1.0
    for t, (pl, pr0, pr) in enumerate(arr):
        # Only the triangle i + j <= t is non-zero before trial t; update the (t+2)^2 corner.
        s = t + 2
        old = q[:s, :s].copy()
        q[:s, :s] = pr0 * old
        q[1:s, :s] += pl * old[:-1, :]
        q[:s, 1:s] += pr * old[:, :-1]
    return q
