"""Bayesian McNemar test: Beta posterior of phi = theta01 / (theta01 + theta10) with a ROPE.

Counts follow the sign convention of :mod:`outperform.stats._mcnemar`: ``n01`` = A wrong and B
right, ``n10`` = A right and B wrong, so **phi < 0.5 favours A** and the result has
``a_better_side = "left"`` (``p_left`` = P(A practically better)).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError, as_counts, as_float_array, check_probability
from ..results import BayesianResult
from ._beta_mixture import beta_regions
from ._rope import decide

__all__ = ["bayesian_mcnemar", "default_phi_rope"]


def default_phi_rope(posterior_mean):
    """Williams (2026) eq. 7 ROPE [0.5 - 0.1 s, 0.5 + 0.1 s], s = sqrt(phi_bar (1 - phi_bar)).

    Vectorised over ``posterior_mean``; returns ``(low, high)``.

    Examples
    --------
    >>> default_phi_rope(0.5)
    (0.45, 0.55)
    """
    s = np.sqrt(np.asarray(posterior_mean) * (1 - np.asarray(posterior_mean)))
    low, high = 0.5 - 0.1 * s, 0.5 + 0.1 * s
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


def phi_rope_bounds(rope) -> tuple[float, float]:
    """ROPE on phi from a half-width r ([0.5 - r, 0.5 + r]) or a (low, high) pair.

    Raises
    ------
    InvalidInputError
        r outside [0, 0.5], or bounds outside [0, 1] or not containing 0.5.
    """
    if np.ndim(rope) == 0:
        r = float(rope)
        if not 0 <= r <= 0.5:
            raise InvalidInputError(
                "rope half-width for phi must lie in [0, 0.5] (ROPE = [0.5 - r, 0.5 + r]), "
                f"got {rope!r}.")
        return (0.5 - r, 0.5 + r)
    low, high = (float(v) for v in rope)
    if not 0 <= low <= 0.5 <= high <= 1:
        raise InvalidInputError(
            f"rope for phi must be (low, high) with 0 <= low <= 0.5 <= high <= 1, got {rope!r}.")
    return (low, high)


def check_beta_prior(prior) -> tuple[float, float]:
    """Return the Beta prior (alpha01, alpha10), raising ``InvalidInputError`` unless both > 0."""
    arr = as_float_array(prior, "prior")
    if arr.shape != (2,) or not np.all(arr > 0):
        raise InvalidInputError(
            f"prior must be two positive numbers (alpha01, alpha10), got {prior!r}.")
    return float(arr[0]), float(arr[1])


def bayesian_mcnemar(n01, n10, *, prior=(1.0, 1.0), rope=None,
                     threshold: float = 0.95) -> BayesianResult:
    """Bayesian McNemar test (Lacoste et al. 2012 Theorem 4.1) with the ROPE of Williams (2026).

    With a Dirichlet prior on the four cell probabilities, the posterior of
    phi = theta01 / (theta01 + theta10) is Beta(alpha01 + n01, alpha10 + n10)
    (Lacoste Theorem 4.1; Chechile 2020 §4.3.2), whatever n00 and n11 are.

    Parameters
    ----------
    n01 : int
        Number of examples A gets wrong and B gets right.
    n10 : int
        Number of examples A gets right and B gets wrong.
    prior : (float, float)
        Prior (alpha01, alpha10), both > 0. Default (1, 1) (uniform, Lacoste §4.1). Keep them
        equal to avoid favouring a model.
    rope : float or (float, float), optional
        ROPE on phi. A number r means [0.5 - r, 0.5 + r]; a pair gives the bounds; 0 gives no
        ROPE. Default: [0.5 - 0.1 s, 0.5 + 0.1 s], s = sqrt(phi_bar (1 - phi_bar)) with phi_bar
        the posterior mean (Williams 2026 eq. 7).
    threshold : float
        Decision threshold theta of Williams (2026) §5.2.

    Returns
    -------
    BayesianResult
        ``p_left`` = P(phi < low) = P(A practically better), ``p_right`` = P(B practically
        better), ``a_better_side = "left"``; ``posterior`` is the frozen Beta;
        ``details`` holds ``posterior_median``, ``alpha``/``beta``, ``p_phi_below_half``
        (Lacoste's Pr(A better), no ROPE) and ``p_phi_above_half``.

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, non-positive prior, ROPE outside [0, 1] or not
        containing 0.5, threshold outside (0, 1).

    References
    ----------
    Lacoste, Laviolette & Marchand (2012) §4, Theorem 4.1; Williams (2026) §5.4 eq. 7, §6.2.
    (Williams writes phi_bar = alpha01 + n01 / (...); the mean of the Beta is
    (alpha01 + n01) / (alpha01 + n01 + alpha10 + n10), which is what reproduces §6.2.)

    Examples
    --------
    Williams (2026) §6.2, da-en with A = GNN, B = LLM:

    >>> res = bayesian_mcnemar(159, 198)
    >>> round(res.p_a_better, 3), round(res.p_equivalent, 3), f"{res.p_b_better:.0e}"
    (0.571, 0.429, '4e-05')
    >>> res.decision
    'undecided'
    """
    n01 = as_counts(n01, "n01")
    n10 = as_counts(n10, "n10")
    if n01.ndim or n10.ndim:
        raise InvalidInputError("n01 and n10 must be single counts.")
    a0, b0 = check_beta_prior(prior)
    check_probability(threshold, "threshold")
    alpha, beta = float(a0 + n01), float(b0 + n10)
    post = stats.beta(alpha, beta)
    mean = alpha / (alpha + beta)
    bounds = default_phi_rope(mean) if rope is None else phi_rope_bounds(rope)
    p_left, p_rope, p_right = (float(p) for p in beta_regions(alpha, beta, bounds))
    lo, hi = post.ppf([0.025, 0.975])
    details = {"n01": int(n01), "n10": int(n10), "alpha": alpha, "beta": beta,
               "prior": (float(a0), float(b0)), "posterior_median": float(post.median()),
               "p_phi_below_half": float(post.cdf(0.5)), "p_phi_above_half": float(post.sf(0.5)),
               "rope_rule": "Williams 2026 eq. 7" if rope is None else "user"}
    return BayesianResult(
        method="Bayesian McNemar test (Beta posterior, Lacoste et al. 2012 Thm 4.1)",
        parameter="phi = theta01 / (theta01 + theta10) (share of A's errors among discordant)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=bounds, a_better_side="left",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, a_better_side="left",
                                             threshold=threshold),
        posterior_mean=mean, credible_interval_95=(float(lo), float(hi)), details=details,
        posterior=post)
