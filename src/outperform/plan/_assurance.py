"""Bayesian assurance: the probability that a planned Bayesian test reaches each decision of
Williams (2026) §5.2, before the data are collected."""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._cost import check_cost
from .._validation import InvalidInputError, check_probability
from ..bayes import decide, phi_posterior_regions
from ._binomial import _check_accuracies
from ._result import Assurance

__all__ = ["mcnemar_assurance"]

DECISIONS = ("A better", "B better", "practically equivalent", "undecided")
# Binomial tails below this are left out of the enumeration (their total mass is reported).
_TAIL = 1e-13


#: measured on the enumeration (n = 1e6, 2e7 cells): ~170 bytes and ~2.2 us per cell
_BYTES_PER_CELL, _SECONDS_PER_CELL = 170.0, 1e-6


def _grid(n, delta, psi):
    """Discordant counts d and counts n01 enumerated, and P(n01 | discordant)."""
    q01 = (psi - delta) / (2 * psi)
    d = np.arange(stats.binom.ppf(_TAIL, n, psi), stats.binom.isf(_TAIL, n, psi) + 1)
    k = np.arange(stats.binom.ppf(_TAIL, d[0], q01), stats.binom.isf(_TAIL, d[-1], q01) + 1)
    return d, k, q01


def _decision_probabilities(n, delta, psi, prior, rope, threshold):
    """P(each decision) of the Bayesian McNemar test on n examples, by exact enumeration of
    the discordant count D ~ Bin(n, psi) and n01 | D ~ Bin(D, (psi - delta) / (2 psi))."""
    d, k, q01 = _grid(n, delta, psi)
    d_grid, n01 = np.meshgrid(d, k, indexing="ij")
    inside = n01 <= d_grid
    weight = np.where(inside, stats.binom.pmf(d_grid, n, psi)
                      * stats.binom.pmf(n01, d_grid, q01), 0.0)
    n01, n10 = np.where(inside, n01, 0), np.where(inside, d_grid - n01, 0)
    r = phi_posterior_regions(n01, n10, prior=prior, rope=rope)
    decision = decide(r["p_left"], r["p_rope"], r["p_right"], a_better_side="left",
                      threshold=threshold)
    probs = np.array([weight[decision == name].sum() for name in DECISIONS])
    return probs, float(weight.sum())


def mcnemar_assurance(*, n, accuracy_a, accuracy_b, discordance, weights=None,
                      prior=(1.0, 1.0), rope=None, threshold=0.95) -> Assurance:
    """Probability that the Bayesian McNemar test on n test examples decides "A better",
    "B better", "practically equivalent" or "undecided".

    The decision is that of :func:`outperform.bayes.bayesian_mcnemar` (Beta posterior of
    phi = theta01 / (theta01 + theta10), Lacoste et al. 2012 Thm 4.1; ROPE and threshold of
    Williams 2026 §5.2), computed for every possible (n01, n10) and weighted by its
    probability under the design: exact, no simulation. With several ``accuracy_a`` values
    (draws or nodes of a design prior on A's accuracy, with ``weights``) the probabilities
    are averaged over them: the assurance of O'Hagan & Stevens (2001).

    Parameters
    ----------
    n : int
        Test-set size.
    accuracy_a : float or sequence of float
        A's expected accuracy, or values of a design prior on it.
    accuracy_b : float
        B's expected accuracy.
    discordance : float
        Share of examples on which exactly one model is right (>= |acc_a - acc_b| for every
        value).
    weights : sequence of float, optional
        Design-prior weights of the ``accuracy_a`` values (default equal).
    prior, rope, threshold
        As in :func:`outperform.bayes.bayesian_mcnemar` (rope None: Williams' eq. 7 ROPE).

    Returns
    -------
    Assurance
        ``probabilities`` by decision; ``details["mass_left_out"]`` bounds the binomial
        tails the enumeration skipped (< 1e-10).

    Raises
    ------
    InvalidInputError
        n < 1, weights not matching the values or not positive, inputs
        :func:`mcnemar_power` refuses, a bad ROPE, prior or threshold; an n whose exact
        enumeration would not fit in memory or would run for over an hour
        (:func:`outperform._validation.check_cost`, which names the largest n that fits).

    References
    ----------
    O'Hagan & Stevens (2001) Med Decis Making 21:219-230; Lacoste et al. (2012); Williams
    (2026) §5.2.
    """
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise InvalidInputError(f"n must be a whole number of test examples >= 1, got {n!r}.")
    check_probability(threshold, "threshold")
    values = np.atleast_1d(np.asarray(accuracy_a, dtype=float))
    w = np.ones(values.size) if weights is None else np.asarray(weights, dtype=float)
    if w.shape != values.shape or np.any(w < 0) or not w.sum() > 0:
        raise InvalidInputError("weights must be non-negative, one per accuracy_a value, and "
                                "not all zero.")
    psi = float(discordance)
    cells = 0
    for acc in values:
        _check_accuracies(float(acc), accuracy_b, psi)
        d, k, _ = _grid(int(n), float(acc) - accuracy_b, psi)
        cells += d.size * k.size
    # the (d, n01) grid grows like n: refuse before allocating one that will not fit
    check_cost("n (--n)", int(n), work=f"{values.size} design point(s), {cells:,} (d, n01) cells",
               bytes_per_unit=_BYTES_PER_CELL * cells / int(n),
               seconds_per_unit=_SECONDS_PER_CELL * cells / int(n))
    total, mass = np.zeros(len(DECISIONS)), 0.0
    for acc, wi in zip(values, w / w.sum()):          # a few design-prior nodes, not data
        probs, covered = _decision_probabilities(int(n), float(acc) - accuracy_b, psi, prior,
                                                 rope, threshold)
        total += wi * probs
        mass += wi * covered
    return Assurance(test="Bayesian McNemar test", n=int(n), n_unit="test examples",
                     probabilities=dict(zip(DECISIONS, total.tolist())),
                     details={"accuracy_a": values.tolist(), "accuracy_b": float(accuracy_b),
                              "discordance": psi, "threshold": float(threshold),
                              "rope": None if rope is None else rope,
                              "mass_left_out": max(0.0, 1.0 - mass)})
