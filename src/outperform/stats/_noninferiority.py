"""Non-inferiority of one classifier against another on a shared test set: Tango's score test
for the difference of paired proportions (the McNemar-type test with a margin).

With the module convention of :mod:`outperform.stats._mcnemar` (``n01``: A wrong and B
right, ``n10``: A right and B wrong, ``n`` examples in all), the difference of accuracies is
δ = acc_A − acc_B, estimated by (n10 − n01)/n. The score statistic for H0: δ = δ0 is

    Z(δ0) = (n10 − n01 − n δ0) / sqrt(n (2 q̃ + δ0 (1 − δ0))),

q̃ the maximum-likelihood estimate of P(A wrong, B right) under H0:
q̃ = (sqrt(B² − 4AC) − B) / (2A), A = 2n, B = −n10 − n01 + (2n − n10 + n01) δ0,
C = −n01 δ0 (1 − δ0) (Tango 1998, eqs. 3–5; Nam 1997 derived the same restricted score test
for equivalence). δ0 = 0 gives McNemar's z without continuity correction. Non-inferiority of
A within a margin m > 0 is the one-sided test of H0: δ <= −m against δ > −m; the confidence
interval inverts Z (Tango 1998, eq. 6), as R's ``PropCIs::scoreci.mp`` and
``contingencytables::Tango_asymptotic_score_CI_paired_2x2``.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from .._validation import DegenerateDataError, InvalidInputError, check_alternative
from ..results import FrequentistResult
from ._mcnemar import _count

__all__ = ["noninferiority_test", "tango_score_test"]

_EDGE = 1e-12   # open ends of (−1, 1) for the root search


def _restricted_q(d, n01: int, n10: int, n: int):
    """q̃: the MLE of P(A wrong, B right) given δ = d (Tango 1998, eq. 5)."""
    a = 2.0 * n
    b = -n10 - n01 + (2.0 * n - n10 + n01) * d
    c = -n01 * d * (1.0 - d)
    return (np.sqrt(np.maximum(b * b - 4.0 * a * c, 0.0)) - b) / (2.0 * a)


def _score(delta0, n01: int, n10: int, n: int):
    """Z(δ0), vectorised over δ0 (Tango 1998, eq. 3 with the restricted MLE of eq. 5)."""
    d = np.asarray(delta0, dtype=float)
    var = n * (2.0 * _restricted_q(d, n01, n10, n) + d * (1.0 - d))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (n10 - n01 - n * d) / np.sqrt(var)


@dataclass(frozen=True)
class TangoInterval:
    """Tango's score interval of δ = acc_A − acc_B: the δ0 where Z(δ0) crosses the normal
    quantile (Z decreases in δ0); one-sided for one-sided alternatives."""

    n01: int
    n10: int
    n: int
    alternative: str = "two-sided"

    def _root(self, target: float, end: float) -> float:
        est = (self.n10 - self.n01) / self.n
        if est == end:
            return float(end)
        f = lambda d: float(_score(d, self.n01, self.n10, self.n)) - target  # noqa: E731
        return float(optimize.brentq(f, -1 + _EDGE, 1 - _EDGE, xtol=1e-12))

    def __call__(self, level: float) -> tuple[float, float]:
        if self.alternative == "two-sided":
            z = float(special.ndtri(0.5 + level / 2))
            return (self._root(z, -1.0), self._root(-z, 1.0))
        z = float(special.ndtri(level))
        if self.alternative == "greater":
            return (self._root(z, -1.0), 1.0)
        return (-1.0, self._root(-z, 1.0))


def _counts(n01, n10, n) -> tuple[int, int, int]:
    n01, n10, n = _count(n01, "n01"), _count(n10, "n10"), _count(n, "n")
    if n < n01 + n10 or n == 0:
        raise InvalidInputError(f"n = {n} examples cannot hold n01 + n10 = {n01 + n10} "
                                "discordant ones; n is the size of the whole test set.")
    return n01, n10, n


def tango_score_test(n01, n10, n, *, delta0: float = 0.0,
                     alternative: str = "two-sided") -> FrequentistResult:
    """Tango's score test of H0: acc_A − acc_B = ``delta0`` for two classifiers on one test set.

    Parameters
    ----------
    n01, n10 : int
        Examples A gets wrong and B right; A right and B wrong.
    n : int
        Size of the test set (the concordant examples count in the variance).
    delta0 : float in (−1, 1)
        Difference of accuracies under H0, in accuracy units.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: δ > ``delta0``.

    Returns
    -------
    FrequentistResult
        ``statistic`` Z(δ0) (module docstring), ``estimate`` δ̂ = (n10 − n01)/n,
        ``confidence_interval`` Tango's score interval (one-sided for one-sided
        alternatives), ``details``: counts, ``delta0``, ``q_restricted`` (q̃).

    Raises
    ------
    InvalidInputError
        Counts not whole and non-negative, n below n01 + n10, ``delta0`` outside (−1, 1).
    DegenerateDataError
        δ0 = 0 with no discordant example: the statistic is 0/0.

    References
    ----------
    Tango (1998), "Equivalence test and confidence interval for the difference in proportions
    for the paired-sample design", Statistics in Medicine 17: 891–908; Nam (1997),
    Biometrics 53: 1422–1430.

    Examples
    --------
    Cavo et al. (2012), the paired table of Fagerland, Lydersen & Laake, *Statistical Analysis
    of Contingency Tables* (2017), ch. 8 (R ``contingencytables``: estimate −0.0621, 95% CI
    −0.1240 to −0.0054):

    >>> res = tango_score_test(16, 6, 161)
    >>> [round(v, 4) for v in (res.estimate, *res.confidence_interval(0.95))]
    [-0.0621, -0.124, -0.0054]
    """
    n01, n10, n = _counts(n01, n10, n)
    check_alternative(alternative)
    if not (np.isfinite(delta0) and -1 < delta0 < 1):
        raise InvalidInputError(f"delta0 must lie in (−1, 1) (a difference of accuracies), "
                                f"got {delta0!r}.")
    if delta0 == 0 and n01 + n10 == 0:
        raise DegenerateDataError(
            "no discordant example and delta0 = 0: A and B are right on the same examples, so "
            "the score statistic is 0/0; a non-zero margin (noninferiority_test) is defined.")
    z = float(_score(delta0, n01, n10, n))
    if alternative == "greater":
        p = float(special.ndtr(-z))
    elif alternative == "less":
        p = float(special.ndtr(z))
    else:
        p = float(min(1.0, 2 * special.ndtr(-abs(z))))
    q = _restricted_q(float(delta0), n01, n10, n)
    return FrequentistResult(
        statistic=z, pvalue=p, method="Tango's score test for paired proportions",
        alternative=alternative, estimate=(n10 - n01) / n,
        details={"n01": n01, "n10": n10, "n": n, "delta0": float(delta0),
                 "q_restricted": float(q)},
        _interval=TangoInterval(n01, n10, n, alternative))


def noninferiority_test(n01, n10, n, *, margin: float) -> FrequentistResult:
    """Is classifier A non-inferior to B within ``margin`` accuracy on a shared test set?

    Tango's score test of H0: acc_A − acc_B <= −``margin`` against acc_A − acc_B >
    −``margin`` (A loses at most ``margin`` accuracy). A is non-inferior at level α when
    ``pvalue`` < α, equivalently when the lower end of ``confidence_interval(1 − α)``
    (one-sided) is above −``margin``.

    Parameters
    ----------
    n01, n10 : int
        Examples A (the new model) gets wrong and B (the reference) right; the reverse.
    n : int
        Size of the test set.
    margin : float in (0, 1)
        Largest acceptable loss of accuracy, in accuracy units (0.01 = one point).

    Returns
    -------
    FrequentistResult
        As :func:`tango_score_test` with ``delta0 = −margin`` and ``alternative="greater"``;
        ``details["margin"]``.

    Raises
    ------
    InvalidInputError
        ``margin`` not in (0, 1) (for margin 0, a superiority test, use
        :func:`~outperform.stats.mcnemar` with ``alternative="greater"``); bad counts.

    Examples
    --------
    The Cavo et al. (2012) table of :func:`tango_score_test`: A right on 6 examples B
    misses, wrong on 16 it gets right, 161 in all (δ̂ = −0.062). Not non-inferior within
    0.05; at the margin 0.124, the lower end of the published 95% interval, p = 0.025.

    >>> round(noninferiority_test(16, 6, 161, margin=0.05).pvalue, 3)
    0.665
    >>> round(noninferiority_test(16, 6, 161, margin=0.124).pvalue, 3)
    0.025
    """
    if not (isinstance(margin, (int, float, np.integer, np.floating))
            and not isinstance(margin, bool) and np.isfinite(margin) and 0 < margin < 1):
        raise InvalidInputError(
            f"margin must be a loss of accuracy in (0, 1), e.g. 0.01 for one point, got "
            f"{margin!r}; for margin 0 (superiority) use mcnemar(..., alternative='greater').")
    res = tango_score_test(n01, n10, n, delta0=-float(margin), alternative="greater")
    return FrequentistResult(
        statistic=res.statistic, pvalue=res.pvalue,
        method="Tango's score test of non-inferiority", alternative="greater",
        estimate=res.estimate, details=dict(res.details, margin=float(margin)),
        _interval=res._interval)
