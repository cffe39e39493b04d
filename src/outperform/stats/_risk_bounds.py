"""Upper bounds on a classifier's true risk from k test errors out of n (Lacoste et al. 2012 §3).

Both bounds hold with probability at least 1 - delta over the draw of an i.i.d. test set:
the Bayesian one in the posterior sense (eq. 3), Langford's in the frequentist sense.
"""
from __future__ import annotations

from scipy import optimize, stats

from .._validation import InvalidInputError, as_counts, as_float_array, check_probability

__all__ = ["beta_risk_bound", "langford_test_set_bound"]


def _k_n(k, n) -> tuple[int, int]:
    k_arr, n_arr = as_counts(k, "k"), as_counts(n, "n")
    if k_arr.ndim or n_arr.ndim:
        raise InvalidInputError("k and n must be single counts.")
    k, n = int(k_arr), int(n_arr)
    if n < 1 or k > n:
        raise InvalidInputError(
            f"need 0 <= k <= n and n >= 1 (k errors out of n test examples), got k={k}, n={n}.")
    return k, n


def beta_risk_bound(k, n, *, delta: float = 0.05, prior=(1.0, 1.0)) -> float:
    """Bayesian upper bound on the true risk: the 1 - delta quantile of its Beta posterior.

    With a Beta(alpha', beta') prior on the risk p and k ~ Binomial(n, p), the posterior is
    Beta(alpha' + k, beta' + n - k) and Pr(p <= B_c^{-1}(1 - delta)) = 1 - delta
    (Lacoste et al. 2012 eq. 3). With alpha' = 1 and beta' -> 0 (all prior weight on risk 1)
    it becomes Langford's test-set bound (:func:`langford_test_set_bound`).

    Parameters
    ----------
    k : int
        Number of test errors.
    n : int
        Number of test examples.
    delta : float
        Probability that the bound fails, in (0, 1).
    prior : (float, float)
        (alpha', beta') > 0; default (1, 1), the uniform prior of Lacoste §3.

    Returns
    -------
    float
        Upper bound on the true risk, in (0, 1).

    Raises
    ------
    InvalidInputError
        Not 0 <= k <= n with n >= 1, delta outside (0, 1), non-positive prior.

    Examples
    --------
    5 errors in 100 examples; Langford's bound is a little looser (0.1023):

    >>> round(beta_risk_bound(5, 100), 4)
    0.1013
    """
    k, n = _k_n(k, n)
    check_probability(delta, "delta")
    arr = as_float_array(prior, "prior")
    if arr.shape != (2,) or not (arr > 0).all():
        raise InvalidInputError(
            f"prior must be two positive numbers (alpha', beta'), got {prior!r}.")
    return float(stats.beta.ppf(1 - delta, arr[0] + k, arr[1] + n - k))


def langford_test_set_bound(k, n, *, delta: float = 0.05) -> float:
    """Langford's test-set bound: the largest risk p still giving P(errors <= k) >= delta.

    Binomial tail inversion (Langford 2005, Theorem 3.3): with k errors out of n,
    Pr(true risk <= max{p : Binom_cdf(k; n, p) >= delta}) >= 1 - delta. Solved with Brent's
    method on the binomial cdf. By the identity Binom_cdf(k; n, p) = 1 - B_c(p; k + 1, n - k)
    (Lacoste et al. 2012 eq. 4) it equals the one-sided Clopper-Pearson upper limit
    ``beta.ppf(1 - delta, k + 1, n - k)``; it is 1 when k = n.

    Parameters
    ----------
    k : int
        Number of test errors.
    n : int
        Number of test examples.
    delta : float
        Probability that the bound fails, in (0, 1).

    Returns
    -------
    float
        Upper bound on the true risk, in (0, 1].

    Raises
    ------
    InvalidInputError
        Not 0 <= k <= n with n >= 1, or delta outside (0, 1).

    References
    ----------
    Langford (2005), Tutorial on practical prediction theory for classification, JMLR 6;
    Lacoste, Laviolette & Marchand (2012) §3.

    Examples
    --------
    No error in 100 examples: the bound is 1 - delta^(1/n) (about 3/n, the "rule of three").

    >>> round(langford_test_set_bound(0, 100), 4)
    0.0295
    """
    k, n = _k_n(k, n)
    check_probability(delta, "delta")
    if k == n:
        return 1.0
    # Binom_cdf(k; n, p) decreases from 1 at p = 0 to 0 at p = 1 (k < n): one root.
    return float(optimize.brentq(lambda p: stats.binom.cdf(k, n, p) - delta, 0.0, 1.0,
                                 xtol=1e-15, rtol=1e-15))
