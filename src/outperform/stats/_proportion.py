"""Confidence intervals of a proportion (an accuracy k / n): Wilson and Jeffreys.

Brown, Cai & DasGupta (2001), "Interval estimation for a binomial proportion", Statist. Sci.
16: 101–133, recommend both over the Wald interval p ± z·sqrt(p(1−p)/n), whose coverage
falls far below its level near 0 and 1 and for small n (their §4.1).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._deprecation import renamed
from .._validation import InvalidInputError, check_alpha, check_choice

METHODS = ("wilson", "jeffreys")


@renamed(confidence_level="alpha")
def proportion_confint(count, nobs, *, method: str = "wilson",
                       alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided confidence interval of the proportion ``count / nobs``, elementwise.

    Parameters
    ----------
    count, nobs : array_like of int
        Successes (e.g. items answered correctly) and trials, broadcast together;
        0 <= count <= nobs, nobs >= 1.
    method : {"wilson", "jeffreys"}
        ``"wilson"``: the score interval, centre (k + z²/2)/(n + z²), half-width
        z·sqrt(k(n−k)/n + z²/4)/(n + z²) (Wilson 1927; Brown et al. 2001 eq. 4).
        ``"jeffreys"``: the equal-tailed interval of the Beta(k + 1/2, n − k + 1/2) posterior
        (Brown et al. 2001 eq. 5), without their boundary modification, as statsmodels.
    alpha : float
        1 − the level of the intervals (default 0.05: 95% intervals). ``confidence_level=`` is
        its deprecated name (``alpha = 1 - confidence_level``).

    Returns
    -------
    (low, high) : tuple of ndarray
        Bounds in [0, 1], of the broadcast shape of ``count`` and ``nobs`` (0-d for scalars).

    Raises
    ------
    InvalidInputError
        Counts that are negative, not integers, or larger than ``nobs``; ``nobs`` < 1; a level
        outside (0, 1); an unknown method.

    Notes
    -----
    Equal to ``statsmodels.stats.proportion.proportion_confint(count, nobs, alpha=1 − level,
    method="wilson" | "jeffreys")``.

    Examples
    --------
    >>> low, high = proportion_confint(81, 100)     # statsmodels: (0.7222, 0.8749)
    >>> round(float(low), 4), round(float(high), 4)
    (0.7222, 0.8749)
    >>> low, high = proportion_confint(81, 100, method="jeffreys")   # statsmodels: (0.7249, 0.8775)
    >>> round(float(low), 4), round(float(high), 4)
    (0.7249, 0.8775)
    """
    check_choice(method, "method", METHODS)
    confidence_level = 1.0 - check_alpha(alpha)
    k, n = np.broadcast_arrays(np.asarray(count, dtype=float), np.asarray(nobs, dtype=float))
    if (not np.isfinite(k).all() or np.any(k != np.round(k)) or np.any(n != np.round(n))
            or np.any(k < 0) or np.any(n < 1) or np.any(k > n)):
        raise InvalidInputError("count and nobs must be integers with 0 <= count <= nobs and "
                                "nobs >= 1.")
    tail = (1 - confidence_level) / 2
    if method == "jeffreys":
        return special.betaincinv(k + 0.5, n - k + 0.5, tail), \
            special.betaincinv(k + 0.5, n - k + 0.5, 1 - tail)
    z = special.ndtri(1 - tail)
    centre = (k + z * z / 2) / (n + z * z)
    half = z * np.sqrt(k * (n - k) / n + z * z / 4) / (n + z * z)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)
