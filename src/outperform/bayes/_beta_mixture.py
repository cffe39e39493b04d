"""Beta tail probabilities and finite mixtures of Beta distributions.

One kernel, :func:`beta_tail`, gives P(phi < x) or P(phi > x) for phi ~ Beta(a, b), for
arrays of parameters and points. :class:`BetaMixture` builds on it: the posterior of r in
the Poisson-binomial test (Lacoste et al. 2012, §5) and the predictive distribution of
phi_next in the hierarchical McNemar test (Williams 2026 §5.5) are both mixtures of Betas.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy import special

from .._validation import InvalidInputError, check_probability

if TYPE_CHECKING:  # pragma: no cover
    from ._beta_binomial_grid import BetaBinomialHyperposterior

__all__ = ["BetaMixture", "beta_regions", "beta_tail"]

#: betainc is used up to this a + b: it agrees with the normal limit to 1e-9 there (checked at
#: 1e8, 1e10 and 1e12 on tails of 0.05) and loses accuracy beyond (0.0496 for 0.04998 at 1e14).
#: Above it, the normal distribution of the same mean and variance (the Beta's skewness is
#: below 2e-6 there).
CDF_MAX_CONCENTRATION = 1e12
# Points x times components evaluated at once: bounds the (x, components) arrays.
_CELLS_PER_BLOCK = 1_000_000


def beta_tail(a, b, x, upper: bool = False) -> np.ndarray:
    """P(phi < x) (or P(phi > x) if ``upper``) for phi ~ Beta(a, b), elementwise.

    ``a``, ``b`` and ``x`` broadcast together. Beta(a, b) is sub-Gaussian with variance proxy
    1 / (4 (a + b + 1)) (Marchal & Arbel 2017), so P(|phi - mean| > t) <= exp(-2 (a + b + 1)
    t^2) < 5e-18 once (a + b + 1) t^2 > 20: there the tail is exactly 0 or 1 to double
    precision and betainc is skipped (it is slow, and loses accuracy beyond a + b ~ 1e15).
    Concentrations above ``CDF_MAX_CONCENTRATION`` take the normal approximation of the same
    mean and variance (scaling them down, as before, widened the posterior: at a = b = 1e8, a
    5 % tail came out 12 %).
    """
    a, b, x = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float),
                                  np.asarray(x, float))
    shape = a.shape
    a, b, x = a.ravel(), b.ravel(), x.ravel()
    c = a + b
    d = x - a / c
    out = np.where(d > 0, 0.0, 1.0) if upper else np.where(d > 0, 1.0, 0.0)
    near = (c + 1) * d * d <= 20.0
    huge = near & (c > CDF_MAX_CONCENTRATION)
    near &= ~huge
    fun = special.betaincc if upper else special.betainc
    out[near] = fun(a[near], b[near], x[near])
    if huge.any():
        ch = c[huge]
        z = d[huge] / np.sqrt(a[huge] * b[huge] / (ch * ch * (ch + 1)))
        out[huge] = special.ndtr(-z if upper else z)
    return out.reshape(shape)


def beta_regions(a, b, rope) -> np.ndarray:
    """P(phi < low), P(low <= phi <= high), P(phi > high) for phi ~ Beta(a, b), batched.

    ``a``, ``b`` and the bounds ``rope = (low, high)`` broadcast together (one ROPE per
    posterior is allowed); returns shape (..., 3). Both tails come from :func:`beta_tail`,
    so each keeps its precision.
    """
    low, high = rope
    left = beta_tail(a, b, low)
    right = beta_tail(a, b, high, upper=True)
    return np.stack([left, np.clip(1.0 - left - right, 0.0, 1.0), right], axis=-1)


@dataclass(frozen=True, eq=False)
class BetaMixture:
    """Finite mixture of Beta distributions, vectorised over the points it is evaluated at.

    ``pdf``, ``cdf``, ``sf``, ``ppf``, ``mean``, ``var`` and ``interval`` follow the names of
    scipy's frozen distributions, so that it stands where one is expected (the
    ``posterior`` of a result, the plots).

    Parameters
    ----------
    weights : array_like, shape (m,)
        Mixture weights (non-negative, summing to 1).
    a, b : array_like, shape (m,)
        Beta parameters of the components (> 0).
    smooth_concentration : array_like, shape (m,), optional
        Per-component cap on a + b used by :meth:`pdf` only: the hierarchical McNemar
        test's components can be narrower than the spacing of its quadrature nodes, and
        capping their concentration draws a smooth density (see :meth:`pdf`).
    hyperposterior : BetaBinomialHyperposterior, optional
        The posterior of (a, b) the mixture was taken over (grid and weights, for plots).

    Raises
    ------
    InvalidInputError
        Shapes that differ, non-positive Beta parameters, negative weights.

    Examples
    --------
    >>> post = BetaMixture([0.5, 0.5], [3, 1], [1, 3])
    >>> post.mean(), round(post.cdf(0.5), 4)
    (0.5, 0.5)

    Beta(3, 1) has cdf x^3 and Beta(1, 3) 1 - (1 - x)^3, so at 1/4 the mixture has
    (1/64 + 1 - 27/64) / 2 = 0.296875:

    >>> post.cdf([0.25, 0.75])
    array([0.296875, 0.703125])
    """

    weights: np.ndarray = field(repr=False)
    a: np.ndarray = field(repr=False)
    b: np.ndarray = field(repr=False)
    smooth_concentration: np.ndarray | None = field(default=None, repr=False)
    hyperposterior: BetaBinomialHyperposterior | None = field(default=None, repr=False)

    def __post_init__(self):
        for name in ("weights", "a", "b"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), dtype=float))
        if not self.weights.ndim == 1 or not self.weights.shape == self.a.shape == self.b.shape:
            raise InvalidInputError(
                "weights, a and b must be 1-D with one entry per component, got shapes "
                f"{self.weights.shape}, {self.a.shape} and {self.b.shape}.")
        if np.any(self.weights < 0) or not (np.all(self.a > 0) and np.all(self.b > 0)):
            raise InvalidInputError("a BetaMixture needs weights >= 0 and a, b > 0.")

    def _mix(self, fn, x):
        """sum_k w_k fn(x, a_k, b_k) for every x, in blocks of points."""
        x = np.asarray(x, dtype=float)
        flat = x.ravel()
        out = np.empty(flat.shape)
        block = max(1, _CELLS_PER_BLOCK // max(self.a.size, 1))
        for lo in range(0, flat.size, block):
            # Row sums, not a matrix product: BLAS rounds a (B, m) @ (m,) product differently
            # for different B, and a point must give the same bits alone or in an array.
            out[lo:lo + block] = (fn(flat[lo:lo + block, None]) * self.weights).sum(axis=-1)
        return float(out[0]) if x.ndim == 0 else out.reshape(x.shape)

    def cdf(self, x):
        """P(phi <= x); a float for a scalar x, else an array of x's shape."""
        return self._mix(lambda t: beta_tail(self.a, self.b, t), x)

    def sf(self, x):
        """P(phi > x), summed from the upper tails (accurate where it is small)."""
        return self._mix(lambda t: beta_tail(self.a, self.b, t, upper=True), x)

    def pdf(self, x):
        """Density at x (0 outside [0, 1]).

        With ``smooth_concentration``, components are first widened to at most that a + b
        (same mean): a kernel smoothing for display. No reported number uses this density.
        """
        a, b = self.a, self.b
        if self.smooth_concentration is not None:
            scale = np.minimum(1.0, self.smooth_concentration / (a + b))
            a, b = a * scale, b * scale
        from scipy import stats   # on use: importing scipy.stats costs about a second

        return self._mix(lambda t: stats.beta.pdf(t, a, b), x)

    def mean(self) -> float:
        """E[phi]."""
        return float(self.weights @ (self.a / (self.a + self.b)))

    def var(self) -> float:
        """Var[phi]."""
        c = self.a + self.b
        second = self.weights @ (self.a * (self.a + 1) / (c * (c + 1)))
        return float(second - self.mean() ** 2)

    def ppf(self, q):
        """Quantile: the root of cdf(x) = q (Brent's method, to 1e-12), per value of q.

        A float for a scalar q, else an array of q's shape; q = 0 and 1 give 0 and 1.
        """
        q_arr = np.asarray(q, dtype=float)
        if np.any(~((q_arr >= 0) & (q_arr <= 1))):
            raise InvalidInputError(f"q must hold probabilities in [0, 1], got {q!r}.")
        mean, sd = self.mean(), np.sqrt(max(self.var(), 0.0))
        # A bracket of 10 sds holds any quantile not far in the tails: fewer Brent steps.
        near_lo, near_hi = max(mean - 10 * sd, 0.0), min(mean + 10 * sd, 1.0)
        cdf_lo, cdf_hi = self.cdf(near_lo), self.cdf(near_hi)
        from scipy import optimize   # on use: scipy.optimize takes 0.3 s to import

        out = np.empty(q_arr.size)
        for t, p in enumerate(q_arr.ravel()):      # one root per quantile asked for
            if p in (0.0, 1.0):
                out[t] = p
                continue
            lo = near_lo if cdf_lo <= p else 0.0
            hi = near_hi if cdf_hi >= p else 1.0
            out[t] = optimize.brentq(lambda x: self.cdf(x) - p, lo, hi, xtol=1e-12)
        return float(out[0]) if q_arr.ndim == 0 else out.reshape(q_arr.shape)

    def interval(self, confidence: float) -> tuple[float, float]:
        """Central credible interval holding ``confidence`` of the mass."""
        tail = (1 - check_probability(confidence, "confidence")) / 2
        lo, hi = self.ppf([tail, 1 - tail])
        return float(lo), float(hi)
