"""Bayesian McNemar test: Beta posterior of phi = theta01 / (theta01 + theta10) with a ROPE.

Counts follow the sign convention of :mod:`outperform.stats._mcnemar`: ``n01`` = A wrong and B
right, ``n10`` = A right and B wrong, so **phi < 0.5 favours A** and the result has
``a_better_side = "left"`` (``p_left`` = P(A practically better)).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import InvalidInputError, as_counts, as_float_array, check_threshold
from .._names import model_names
from ..results import BayesianResult, PairwiseResult
from ..stats import PairwiseCounts, pairwise_discordance
from ._beta_mixture import beta_regions
from ._lazy import LazyFrozen
from ._rope import decide

__all__ = ["bayesian_mcnemar", "default_phi_rope", "pairwise_bayesian_mcnemar",
           "phi_posterior_regions"]


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


def phi_posterior_regions(n01, n10, *, prior=(1.0, 1.0), rope=None):
    """Beta posterior of phi and its three ROPE regions, for any array of count pairs.

    The one kernel of :func:`bayesian_mcnemar` and :func:`pairwise_bayesian_mcnemar`
    (Lacoste et al. 2012 Thm 4.1; Williams 2026 eq. 7 ROPE unless ``rope`` is given).

    Parameters
    ----------
    n01, n10 : ndarray of int, same shape
        Examples A gets wrong and B right, and the reverse.
    prior : (float, float)
    rope : None, float or (float, float)

    Returns
    -------
    dict of ndarray (shape of the counts)
        ``alpha``, ``beta``, ``mean``, ``low``, ``high``, ``p_left`` = P(phi < low) (A
        practically better), ``p_rope``, ``p_right`` = P(phi > high).
    """
    a0, b0 = check_beta_prior(prior)
    alpha = a0 + np.asarray(n01, dtype=float)
    beta = b0 + np.asarray(n10, dtype=float)
    mean = alpha / (alpha + beta)
    if rope is None:
        low, high = (np.asarray(v, dtype=float) for v in default_phi_rope(mean))
    else:
        low, high = (np.full(mean.shape, v) for v in phi_rope_bounds(rope))
    p_left, p_rope, p_right = np.moveaxis(beta_regions(alpha, beta, (low, high)), -1, 0)
    return {"alpha": alpha, "beta": beta, "mean": mean, "low": low, "high": high,
            "p_left": p_left, "p_rope": p_rope, "p_right": p_right}


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
        better), ``a_better_side = "left"``; ``posterior`` is the frozen Beta (built on first use);
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
    check_threshold(threshold)
    regions = phi_posterior_regions(n01, n10, prior=(a0, b0), rope=rope)
    alpha, beta, mean = (float(regions[k]) for k in ("alpha", "beta", "mean"))
    bounds = (float(regions["low"]), float(regions["high"]))
    p_left, p_rope, p_right = (float(regions[k]) for k in ("p_left", "p_rope", "p_right"))
    # The frozen Beta is built only if a user reads it; its ppf (median = ppf(0.5)), cdf and
    # sf are the unfrozen calls with the same arithmetic.
    post = LazyFrozen("beta", alpha, beta)
    # = scipy.stats.beta.ppf (the same Boost ibeta_inv) without importing scipy.stats.
    lo, hi, median = special.betaincinv(alpha, beta, [0.025, 0.975, 0.5])
    details = {"n01": int(n01), "n10": int(n10), "alpha": alpha, "beta": beta,
               "prior": (float(a0), float(b0)), "posterior_median": float(median),
               "p_phi_below_half": float(special.betainc(alpha, beta, 0.5)),
               "p_phi_above_half": float(special.betaincc(alpha, beta, 0.5)),
               "rope_rule": "Williams 2026 eq. 7" if rope is None else "user"}
    return BayesianResult(
        method="Bayesian McNemar test (Beta posterior, Lacoste et al. 2012 Thm 4.1)",
        parameter="phi = theta01 / (theta01 + theta10) (share of A's errors among discordant)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=bounds, a_better_side="left",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, a_better_side="left",
                                             threshold=threshold),
        posterior_mean=mean, credible_interval_95=(float(lo), float(hi)), details=details,
        posterior=post)


def pairwise_bayesian_mcnemar(correct, *, names=None, prior=(1.0, 1.0), rope=None,
                              threshold: float = 0.95) -> PairwiseResult:
    """Bayesian McNemar test (Beta posterior of phi with a ROPE) for every pair of models.

    Pair (i, j) has phi_ij ~ Beta(alpha01 + n01[i, j], alpha10 + n10[i, j]) as in
    :func:`bayesian_mcnemar` (the same kernel, :func:`phi_posterior_regions`), with the Williams (2026) eq. 7 ROPE
    computed per pair unless ``rope`` is given (same forms as there).

    Parameters
    ----------
    correct : array_like of bool or 0/1, shape (n_models, n_examples), or PairwiseCounts
        1 where the model (row) gets the example (column) right; or the counts already
        computed by :func:`outperform.stats.pairwise_discordance`.
    names : sequence of str, optional
    prior : (float, float)
        Beta prior (alpha01, alpha10), default (1, 1).
    rope : float or (float, float), optional
        Half-width r ([0.5 - r, 0.5 + r]) or bounds on phi; default Williams eq. 7 per pair.
    threshold : float
        Decision threshold of Williams (2026) §5.2.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = P(row model i practically better than column model j)
        = P(phi_ij < low_ij); so ``statistic[j, i]`` = P(j practically better than i).
        ``details``: ``p_rope`` (symmetric), ``posterior_mean`` of phi_ij, and ``decision``
        (k x k strings, "A better" meaning the row model). There are no p-values:
        ``pvalue``/``pvalue_adjusted`` are NaN, ``adjustment = "none"`` (a posterior needs
        no multiplicity correction, Williams §5.6 after Gelman et al. 2012) and
        ``reject[i, j]`` is True when a practical difference was decided in either direction
        at ``threshold``; ``alpha = 1 - threshold``.

    Raises
    ------
    InvalidInputError
        Bad matrix, names, prior, ROPE or threshold.
    TooFewError
        Fewer than 2 models or no examples.

    Examples
    --------
    >>> correct = np.array([[1] * 90 + [0] * 10, [1] * 60 + [0] * 40])
    >>> res = pairwise_bayesian_mcnemar(correct, names=["good", "poor"])
    >>> res.statistic.round(3)
    array([[nan,  1.],
           [ 0., nan]])
    >>> str(res.details["decision"][0, 1])
    'A better'
    """
    a0, b0 = check_beta_prior(prior)
    check_threshold(threshold)
    counts = correct if isinstance(correct, PairwiseCounts) else pairwise_discordance(correct)
    labels = model_names(names, counts.n_correct.size)
    regions = phi_posterior_regions(counts.n01, counts.n01.T, prior=(a0, b0), rope=rope)
    p_better, p_rope, p_worse, mean = (regions[k] for k in ("p_left", "p_rope", "p_right", "mean"))
    # Row model i is A: phi_ij < low favours A, so A's side is the left one.
    decision = decide(p_better, p_rope, p_worse, a_better_side="left", threshold=threshold)
    eye = np.eye(len(labels), dtype=bool)
    for m in (p_better, p_rope, mean):
        m[eye] = np.nan
    decision[eye] = ""
    details = {"p_rope": p_rope, "posterior_mean": mean, "decision": decision,
               "prior": (a0, b0), "rope_rule": "Williams 2026 eq. 7" if rope is None else "user",
               "accuracy": counts.accuracy}
    nan = np.full(mean.shape, np.nan)
    return PairwiseResult(method="Bayesian McNemar test, all pairs", names=labels,
                          statistic=p_better, pvalue=nan, pvalue_adjusted=nan.copy(),
                          reject=(decision == "A better") | (decision == "B better"),
                          alpha=round(1.0 - threshold, 12), adjustment="none", details=details)
