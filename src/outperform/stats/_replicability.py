"""Replicability analysis over data sets (Dror, Baumer, Bogomolov & Reichart 2017, TACL).

From N per-data-set p-values of "A is not better than B on data set i", how many data sets
show the effect? The partial conjunction null H^{u/N} says "A is better on fewer than u data
sets"; its p-value combines the N − u + 1 largest p-values p_(u) ≤ ... ≤ p_(N) (Benjamini &
Heller 2008):

- Bonferroni: p^{u/N} = min(1, (N − u + 1) p_(u));
- Fisher: p^{u/N} = P(χ²_{2(N−u+1)} ≥ −2 Σ_{i=u}^{N} ln p_(i)).

k̂ = the largest u such that H^{1/N}, ..., H^{u/N} are all rejected at α (Dror et al. 2017
§4.1, the partial conjunctions tested in order: the running maximum of their p-values is
compared with α), a lower bound on the number of data sets with an effect at confidence
1 − α. Which data sets: Holm's procedure on the individual p-values (family-wise error α;
Dror et al. §4.2). Bonferroni is valid under any dependence between data sets; Fisher
assumes independent p-values and is the more powerful.
"""
from __future__ import annotations

import numpy as np
from scipy.special import chdtrc

from .._validation import InvalidInputError, TooFewError, as_float_array, check_alpha
from ..results._replicability import Replicability

__all__ = ["replicability", "partial_conjunction_pvalues"]


def _check_pvalues(pvalues) -> np.ndarray:
    p = as_float_array(pvalues, "pvalues", ndim=1)
    if p.size < 1:
        raise TooFewError("replicability analysis needs at least 1 data set's p-value.")
    if ((p < 0) | (p > 1)).any():
        bad = float(p[(p < 0) | (p > 1)][0])
        raise InvalidInputError(f"pvalues must lie in [0, 1], got {bad!r}: give the p-value "
                                "of each data set's test, not a statistic or a difference.")
    return p


def partial_conjunction_pvalues(pvalues, method: str = "bonferroni") -> np.ndarray:
    """p^{u/N} for u = 1..N (Benjamini & Heller 2008; Dror et al. 2017 eq. 1-2).

    Parameters
    ----------
    pvalues : array_like, shape (N,)
        One p-value per data set, in [0, 1].
    method : {"bonferroni", "fisher"}

    Returns
    -------
    ndarray, shape (N,)
        Entry u − 1: the p-value of "the effect holds on fewer than u data sets" (not made
        monotone).

    Examples
    --------
    >>> partial_conjunction_pvalues([0.01, 0.2, 0.04]).round(3).tolist()
    [0.03, 0.08, 0.2]
    """
    p = np.sort(_check_pvalues(pvalues))
    n = p.size
    left = n - np.arange(n)                         # N − u + 1 for u = 1..N
    if method == "bonferroni":
        return np.minimum(1.0, left * p)
    if method != "fisher":
        raise InvalidInputError(f"method must be 'bonferroni' or 'fisher', got {method!r}.")
    with np.errstate(divide="ignore"):
        logs = -2.0 * np.log(p)
    stat = np.cumsum(logs[::-1])[::-1]              # Σ_{i=u}^{N} −2 ln p_(i)
    return chdtrc(2 * left, stat)


def _count(pc: np.ndarray, alpha: float) -> int:
    """Leading partial conjunctions rejected: k̂ = max{u : max_{v<=u} p^{v/N} <= alpha}."""
    return int(np.sum(np.maximum.accumulate(pc) <= alpha))


def _holm(p: np.ndarray, alpha: float) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    n = p.size
    ok = p[order] <= alpha / (n - np.arange(n))
    stop = n if ok.all() else int(np.argmin(ok))
    reject = np.zeros(n, dtype=bool)
    reject[order[:stop]] = True
    return reject


def replicability(pvalues, *, alpha: float = 0.05, names=None) -> Replicability:
    """How many data sets show the effect, and which (Dror et al. 2017).

    Parameters
    ----------
    pvalues : array_like, shape (N,)
        One-sided p-value of each data set's test of "A is not better than B" (e.g. the
        corrected resampled t-test on its folds), in [0, 1].
    alpha : float
    names : sequence of str, optional
        The data sets (default "1".."N").

    Returns
    -------
    Replicability
        ``k_bonferroni``, ``k_fisher`` (k̂ of each method), ``rejected`` (Holm), the partial
        conjunction p-values.

    Raises
    ------
    InvalidInputError
        p-values outside [0, 1] or NaN; alpha outside (0, 1); names of the wrong length.
    TooFewError
        No p-value.

    Examples
    --------
    Dror et al. (2017) §4.3's example: six data sets, α = 0.05.

    >>> res = replicability([0.168, 0.297, 0.357, 0.019, 0.218, 0.001])
    >>> res.k_bonferroni, res.k_fisher, res.rejected_names
    (1, 2, ('6',))
    """
    alpha = check_alpha(alpha)
    p = _check_pvalues(pvalues)
    names = tuple(str(j + 1) for j in range(p.size)) if names is None \
        else tuple(map(str, names))
    if len(names) != p.size:
        raise InvalidInputError(f"{len(names)} names for {p.size} p-values.")
    bonf = partial_conjunction_pvalues(p, "bonferroni")
    fisher = partial_conjunction_pvalues(p, "fisher")
    return Replicability(names=names, pvalues=p, alpha=alpha,
                         k_bonferroni=_count(bonf, alpha), k_fisher=_count(fisher, alpha),
                         partial_bonferroni=bonf, partial_fisher=fisher,
                         rejected=_holm(p, alpha))
