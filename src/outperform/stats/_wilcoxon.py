"""Wilcoxon signed-rank test for paired measurements (Demšar 2006, §3.1.3).

The absolute differences are ranked (average ranks for ties); R+ is the rank sum where A is
better, R- where B is better. Zero differences are handled in one of four ways:

* ``"demsar"`` (Demšar 2006, §3.1.3): the ranks of zero differences are split evenly between
  R+ and R-; if their number is odd, one zero is ignored first. All zeros are equal, so which
  one does not matter: one zero is removed and the others keep the lowest ranks.
* ``"zsplit"``: as scipy's ``zero_method="zsplit"``: zeros ranked and split, none dropped.
* ``"wilcox"``: zeros dropped before ranking (Wilcoxon 1945; Lacoste et al. 2012, §6.2;
  R's ``wilcox.test``).
* ``"pratt"``: zeros ranked with the others, then dropped (Pratt 1959).

Unlike scipy, differences equal up to a rounding error are ties and a difference within
rounding error of 0 is a zero (see ``tie_tolerance``).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import (DegenerateDataError, TooFewError, as_paired, check_alternative,
                           check_choice)
from ..results import FrequentistResult
from ._effect_size import rank_biserial
from ._ranks import paired_tie_tolerance, rank_with_tolerance

ZERO_METHODS = ("demsar", "wilcox", "pratt", "zsplit")
#: Above this many pairs, ``method="auto"`` uses the normal approximation (as scipy does).
EXACT_MAX_N = 50


def wilcoxon(a, b, *, zero_method: str = "demsar", correction: bool = False,
             method: str = "auto", alternative: str = "two-sided",
             tie_tolerance: float | None = None) -> FrequentistResult:
    """Wilcoxon signed-rank test of whether A's paired scores tend to exceed B's.

    Differences are ``d = a - b`` (scores, higher is better; for losses pass ``b, a``), so a
    positive difference favours A.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Paired scores of models A and B, one per data set (or fold, or example).
    zero_method : {"demsar", "zsplit", "wilcox", "pratt"}
        Treatment of zero differences, see the module docstring. ``"demsar"`` (default)
        deliberately differs from scipy, which has no option dropping one zero of an odd
        number; the other three give scipy's statistic and p-value.
    correction : bool
        Continuity correction of 1/2 in the normal approximation (ignored by the exact test).
    method : {"auto", "exact", "normal"}
        ``"exact"``: the null distribution of R+ obtained by convolution. Without ties and
        zeros it is Wilcoxon's distribution; with them it is the exact permutation
        distribution of the actual midranks under random signs (what scipy computes with a
        ``PermutationMethod`` for small n; scipy's ``method="exact"`` instead rounds the
        statistic). The cost grows as n**3. ``"normal"``: z-test with the variance
        corrected for ties, as scipy's ``method="asymptotic"``. ``"auto"``: exact for
        n <= 50 pairs, normal above. Unlike scipy, "auto" stays exact with ties or zeros for
        14 <= n <= 50 (scipy switches to the normal approximation there).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A better (differences shifted above zero).
    tie_tolerance : float >= 0 or None
        Differences whose absolute values agree within this tolerance are ties, and a
        difference within it of 0 is a zero. ``None`` (default): 1e-10 times the larger of
        ``|a_i|, |b_i|`` for pair i (for two differences, the larger of their two
        tolerances), so that scores stored as decimals behave as the decimals they stand for:
        0.3 - 0.1 and 0.4 - 0.2 tie, 0.1 + 0.2 versus 0.3 is a zero. This is scale-free
        (multiplying all scores by 1000 changes nothing) and far below any real difference
        between reported scores, see :func:`~outperform.stats._ranks.paired_tie_tolerance`.
        A number: an absolute tolerance in the units of the scores. ``0``: exact comparison,
        as :func:`scipy.stats.wilcoxon`, which ranks the floating-point differences as they
        are and so turns such near-ties into distinct ranks and tiny nonzero differences,
        changing R+, the tie correction, the zero handling (and whether scipy's "auto"
        method is exact). Tie
        groups are bounded: a chain of values each within the tolerance of the next but
        spanning more than it is ranked exactly, see
        :func:`~outperform.stats._ranks.rank_with_tolerance`.

    Returns
    -------
    FrequentistResult
        ``statistic``: T = min(R+, R-) for two-sided tests, R+ for one-sided ones (as
        scipy); ``effect_size``: matched-pairs rank-biserial correlation (R+ - R-)/(R+ + R-),
        positive favours A; ``details``: ``R_plus``, ``R_minus``, ``n`` (differences ranked),
        ``n_zero`` (zero differences in the data), ``zeros_dropped``, ``ties`` (whether
        ranked values tie, zeros included), ``z`` (standardised R+, with the continuity
        correction if requested; positive favours A; Demšar's z of T is ``-abs(z)``),
        ``method`` ("exact" or "normal"), ``zero_method``, ``tie_tolerance`` (as given).

    Raises
    ------
    InvalidInputError
        NaN, non-numeric values, different lengths, an unknown option, or a negative, NaN
        or infinite ``tie_tolerance``.
    TooFewError
        Fewer than 2 pairs.
    DegenerateDataError
        All differences are zero (within ``tie_tolerance``).

    Notes
    -----
    Demšar's z = (T - N(N+1)/4) / sqrt(N(N+1)(2N+1)/24) is the normal method here with no
    ties. With split zeros the variance keeps the zeros' ranks as if their signs were random,
    as in Demšar's formula (N counts the zeros) and scipy; the exact method treats them as
    the constants they are.

    Examples
    --------
    Demšar (2006) Table 2, A = C4.5 with tuned m, B = C4.5: R+ = 93, R- = 12, and
    T = 12 <= 21, the critical value for N = 14 at alpha = 0.05.

    >>> c45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1., .940, .619, .972, .957]
    >>> c45m = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1., .962, .666, .981, .978]
    >>> res = wilcoxon(c45m, c45)
    >>> res.details["R_plus"], res.details["R_minus"], res.statistic
    (93.0, 12.0, 12.0)
    >>> round(res.pvalue, 4), round(res.effect_size, 3)
    (0.0078, 0.771)

    Scores stored as decimals: |0.3 - 0.1| and |0.2 - 0.4| tie, as |3 - 1| and |2 - 4| do;
    comparing exactly, as scipy does, ranks 0.19999999999999998 below 0.2.

    >>> a, b = [0.3, 0.2, 0.9, 0.5], [0.1, 0.4, 0.4, 0.6]
    >>> wilcoxon(a, b).details["R_plus"], wilcoxon([3, 2, 9, 5], [1, 4, 4, 6]).details["R_plus"]
    (6.5, 6.5)
    >>> wilcoxon(a, b, tie_tolerance=0).details["R_plus"]
    6.0
    """
    check_choice(zero_method, "zero_method", ZERO_METHODS)
    check_choice(method, "method", ("auto", "exact", "normal"))
    check_alternative(alternative)
    x, y = as_paired(a, b)
    if x.size < 2:
        raise TooFewError(f"the Wilcoxon test needs at least 2 paired values, got {x.size}.")
    tol = paired_tie_tolerance(x, y, tie_tolerance)
    d = x - y
    d[np.abs(d) <= tol] = 0.0  # rounding errors of a zero difference
    n_zero = int(np.sum(d == 0))
    if n_zero == d.size:
        raise DegenerateDataError(
            "all differences are zero: the two models scored identically (up to rounding "
            "errors, see tie_tolerance), there is nothing to rank.")

    dropped = 0
    if zero_method == "wilcox":
        d, tol, dropped = d[d != 0], tol[d != 0], n_zero
    elif zero_method == "demsar" and n_zero % 2:
        first_zero = np.flatnonzero(d == 0)[0]
        d, tol, dropped = np.delete(d, first_zero), np.delete(tol, first_zero), 1
    zero = d == 0
    # Zeros get tolerance 0, so they tie with each other only, below every nonzero |d|.
    ranks = rank_with_tolerance(np.abs(d), atol=np.where(zero, 0.0, tol))
    split = zero_method in ("zsplit", "demsar")
    # Zeros add half their rank to each side ("split") or nothing; either way, a constant.
    shift = ranks[zero].sum() / 2 if split else 0.0
    r_plus = ranks[d > 0].sum() + shift
    r_minus = ranks[d < 0].sum() + shift

    # Under H0 each nonzero difference puts its rank in R+ with probability 1/2. The normal
    # approximation also counts split zeros as random, as Demšar's z (N includes them) and
    # scipy's zsplit do.
    random_ranks = ranks[~zero]
    counted = ranks if split else random_ranks
    sd = np.sqrt(np.sum(counted ** 2) / 4)
    z = r_plus - np.sum(counted) / 2
    if correction:
        z -= {"greater": 0.5, "less": -0.5}.get(alternative, np.sign(z) * 0.5)
    z /= sd

    if method == "auto":
        method = "exact" if x.size <= EXACT_MAX_N else "normal"
    if method == "exact":
        pvalue = _exact_pvalue(r_plus - shift, random_ranks, alternative)
    elif alternative == "two-sided":
        pvalue = 2 * stats.norm.sf(abs(z))
    else:
        pvalue = stats.norm.sf(z) if alternative == "greater" else stats.norm.cdf(z)

    ties = bool(np.unique(ranks).size < ranks.size)
    label = "normal approximation" if method == "normal" else (
        "exact, conditional on ties" if ties or zero.any() else "exact")
    return FrequentistResult(
        statistic=float(min(r_plus, r_minus) if alternative == "two-sided" else r_plus),
        pvalue=float(min(pvalue, 1.0)),
        method=f"Wilcoxon signed-rank test ({label}, zeros: {zero_method})",
        alternative=alternative,
        effect_size=rank_biserial(r_plus, r_minus),
        effect_size_name="matched-pairs rank-biserial correlation",
        details={"R_plus": float(r_plus), "R_minus": float(r_minus), "n": int(ranks.size),
                 "n_zero": n_zero, "zeros_dropped": dropped, "ties": ties, "z": float(z),
                 "method": method, "zero_method": zero_method, "correction": bool(correction),
                 "tie_tolerance": None if tie_tolerance is None else float(tie_tolerance)},
    )


def _exact_pvalue(r_plus: float, ranks: np.ndarray, alternative: str) -> float:
    """p-value of R+ = sum of the ranks given a + sign, each sign + with probability 1/2."""
    pmf = _signed_rank_pmf(ranks)
    k = int(np.rint(2 * r_plus))
    lower, upper = pmf[:k + 1].sum(), pmf[k:].sum()
    if alternative == "greater":
        return float(upper)
    if alternative == "less":
        return float(lower)
    return float(2 * min(lower, upper))


def _signed_rank_pmf(ranks: np.ndarray) -> np.ndarray:
    """Null pmf of the sum of a random subset of ``ranks``, on the grid 0, 1/2, 1, ...

    Average ranks are multiples of 1/2, so doubled ranks are integer shifts and the pmf is
    the product of the generating functions (1 + x**(2 r)) / 2, one convolution per rank.
    """
    steps = np.rint(2 * ranks).astype(np.int64)
    pmf = np.zeros(int(steps.sum()) + 1)
    pmf[0] = 1.0
    for s in steps:
        shifted = np.zeros_like(pmf)
        shifted[s:] = pmf[:pmf.size - s]
        pmf = 0.5 * (pmf + shifted)
    return pmf
