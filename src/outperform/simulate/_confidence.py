"""Confidence levels of the tests of Lacoste, Laviolette & Marchand (2012, §6.1-6.3), batched.

A test given the counts of one experiment answers "A better" or "B better" with a confidence
level gamma; here for whole batches of experiments at once, from the kernels of the tests:

* sign test (§6.1): ties k_h = k_g dropped; gamma = 1 - rho_s with
  rho_s = 2 sum_{i <= min(kappa+, kappa-)} C(kappa+ + kappa-, i) / 2^(kappa+ + kappa-)
  (capped at 1, like :func:`outperform.stats.sign_test` with ``ties="drop"``);
  answer A when kappa+ > kappa- (A's classifier made fewer errors on more data sets).
* Wilcoxon signed-rank (§6.2): d_i = (k_g - k_h) / n_i, zeros dropped, midranks r_i of
  |d_i|, c+ and c- the rank sums of positive and negative d_i, gamma = 1 - rho_w with
  rho_w = 2 sum_{c <= min(c+, c-)} w_|J|(c), w_n the null distribution of the signed-rank
  statistic without ties (the recursion of §6.2, as a probability: the paper's w_1 = 1 on
  {0, 1} would make it sum to 2); answer A when c+ > c-.
* Poisson-binomial test (§5): gamma = max(P(A better in W), P(B better in W)), from
  :func:`outperform.bayes.task_probability_a_better` (Theorem 4.1) and
  :func:`outperform.bayes.context_posterior` (eq. 5), the kernels of the test itself.

A test that cannot tell (kappa+ = kappa-, c+ = c-, P(A) = P(B), or no information at all)
answers 0 with its lowest confidence.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, as_counts
from ..bayes._poisson_binomial_test import context_posterior, task_probability_a_better
from ..stats._mcnemar import exact_pvalues
from ..stats._wilcoxon import signed_rank_pvalues, signed_rank_test

__all__ = ["LACOSTE_TESTS", "poisson_binomial_confidence", "sign_confidence",
           "wilcoxon_confidence"]

LACOSTE_TESTS = ("sign", "wilcoxon", "poisson_binomial")


def _counts(errors_a_only, errors_b_only):
    k_a = as_counts(errors_a_only, "errors_a_only")
    k_b = as_counts(errors_b_only, "errors_b_only")
    if k_a.shape != k_b.shape or k_a.ndim not in (1, 2):
        raise InvalidInputError(
            "errors_a_only and errors_b_only must have the same shape, (N,) for one experiment "
            f"or (M, N) for M experiments, got {k_a.shape} and {k_b.shape}."
        )
    return np.atleast_2d(k_a), np.atleast_2d(k_b), k_a.ndim == 1


def _out(direction, confidence, single):
    direction = direction.astype(np.int64)
    return (direction[0], confidence[0]) if single else (direction, confidence)


def sign_confidence(errors_a_only, errors_b_only):
    """Answer and confidence 1 - rho_s of the sign test (Lacoste §6.1, §6.3), batched.

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
        k_h and k_g of each data set (of each of M experiments).

    Returns
    -------
    direction : int or ndarray of int
        +1 A better (kappa+ > kappa-), -1 B better, 0 no answer.
    confidence : float or ndarray
        1 - rho_s, in [0, 1].

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, shapes that differ.

    Examples
    --------
    A has fewer exclusive errors on 9 of 10 data sets:

    >>> d, c = sign_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8])
    >>> int(d), round(float(c), 4)
    (1, 0.9785)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    plus, minus = np.sum(k_a < k_b, axis=-1), np.sum(k_a > k_b, axis=-1)
    # The kernel of sign_test: the exact binomial test of the wins of A (McNemar's form).
    rho = exact_pvalues(minus, plus, "two-sided")
    return _out(np.sign(plus - minus), 1 - rho, single)


def wilcoxon_confidence(errors_a_only, errors_b_only, n_test):
    """Answer and confidence 1 - rho_w of the Wilcoxon signed-rank test (Lacoste §6.2), batched.

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
        k_h and k_g of each data set.
    n_test : int or array_like of int, broadcastable to the counts
        Test-set sizes m_i (the differences are d_i = (k_g - k_h) / m_i).

    Returns
    -------
    direction : int or ndarray of int
        +1 A better (c+ > c-), -1 B better, 0 no answer.
    confidence : float or ndarray
        1 - rho_w in [0, 1]. Without tied |d_i| this is 1 minus the exact two-sided p-value
        of :func:`outperform.stats._wilcoxon` (``zero_method="wilcox"``); with ties, rho_w
        evaluates the untied null distribution at floor(min(c+, c-)) as the paper defines
        it, where the kernel's exact test conditions on the ties.

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, shapes that differ, test-set sizes below 1.

    Examples
    --------
    >>> d, c = wilcoxon_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8],
    ...                            100)
    >>> int(d), round(float(c), 4)
    (1, 0.9902)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    sizes = np.broadcast_to(as_counts(n_test, "n_test"), k_a.shape)
    if np.any(sizes < 1):
        raise InvalidInputError("n_test must hold test-set sizes >= 1.")
    d = (k_b - k_a) / sizes
    # The kernel of wilcoxon: midranks of |d_i| with zeros dropped, c+ and c-.
    ranked = signed_rank_test(d, np.zeros(d.shape), zero_method="wilcox", method="normal")
    c_plus, c_minus = ranked.r_plus, ranked.r_minus
    # rho_w: the untied null distribution of n = #{d_i != 0} ranks at floor(min(c+, c-)).
    n = d.shape[-1]
    untied = np.where(np.arange(n) < ranked.n[:, None], np.arange(1, n + 1), 0)
    rho = signed_rank_pvalues(untied, np.floor(np.minimum(c_plus, c_minus)), "two-sided")
    return _out(np.sign(c_plus - c_minus), 1 - rho, single)


def poisson_binomial_confidence(errors_a_only, errors_b_only, *, prior: float = 1.0,
                                beta_prior: float = 1.0):
    """Answer and confidence max(P(A better), P(B better)) of the Poisson-binomial test, batched.

    Same numbers as :func:`outperform.bayes._poisson_binomial_test.poisson_binomial_test`
    row by row (Lacoste §5: Theorem 4.1 per data set, eq. 5 over data sets, Beta(beta,
    beta) prior on r).

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
    prior : float
        alpha~ of Theorem 4.1 (1 = uniform).
    beta_prior : float
        beta of the prior on r (1 = uniform).

    Returns
    -------
    direction : int or ndarray of int
        +1 when P(A better in W) > P(B better in W), -1 when smaller, 0 when equal.
    confidence : float or ndarray
        max(P(A better in W), P(B better in W)).

    Raises
    ------
    InvalidInputError
        Bad counts, non-positive priors.

    Examples
    --------
    >>> d, c = poisson_binomial_confidence([3, 10, 4, 0, 12], [9, 14, 4, 0, 30])
    >>> int(d), round(float(c), 4)
    (1, 0.7978)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    if not (np.isfinite(beta_prior) and beta_prior > 0):
        raise InvalidInputError(f"beta_prior must be a positive number, got {beta_prior!r}.")
    p = task_probability_a_better(k_a, k_b, prior=prior)
    p_a, p_b, _ = context_posterior(p, beta_prior=beta_prior)
    return _out(np.sign(p_a - p_b), np.maximum(p_a, p_b), single)
