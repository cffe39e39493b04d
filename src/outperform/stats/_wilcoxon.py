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

from typing import NamedTuple

import numpy as np
from scipy import stats

from .._validation import (DegenerateDataError, TooFewError, as_paired, check_alternative,
                           check_choice)
from ..results import FrequentistResult
from ._ranks import paired_tie_tolerance, rank_with_tolerance

ZERO_METHODS = ("demsar", "wilcox", "pratt", "zsplit")
METHODS = ("auto", "exact", "normal")
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
    check_choice(method, "method", METHODS)
    check_alternative(alternative)
    x, y = as_paired(a, b)
    if x.size < 2:
        raise TooFewError(f"the Wilcoxon test needs at least 2 paired values, got {x.size}.")
    tol = paired_tie_tolerance(x, y, tie_tolerance)
    d = x - y
    if np.all(np.abs(d) <= tol):
        raise DegenerateDataError(
            "all differences are zero: the two models scored identically (up to rounding "
            "errors, see tie_tolerance), there is nothing to rank.")
    res = signed_rank_test(d[None], tol[None], zero_method=zero_method,
                           correction=correction, method=method, alternative=alternative)
    r_plus, r_minus = float(res.r_plus[0]), float(res.r_minus[0])
    ties, method = bool(res.ties[0]), res.method
    label = "normal approximation" if method == "normal" else (
        "exact, conditional on ties" if ties or res.n_zero[0] > res.dropped[0] else "exact")
    return FrequentistResult(
        statistic=float(min(r_plus, r_minus) if alternative == "two-sided" else r_plus),
        pvalue=float(res.pvalue[0]),
        method=f"Wilcoxon signed-rank test ({label}, zeros: {zero_method})",
        alternative=alternative,
        effect_size=float(res.effect_size[0]),
        effect_size_name="matched-pairs rank-biserial correlation",
        details={"R_plus": r_plus, "R_minus": r_minus, "n": int(res.n[0]),
                 "n_zero": int(res.n_zero[0]), "zeros_dropped": int(res.dropped[0]),
                 "ties": ties, "z": float(res.z[0]), "method": method,
                 "zero_method": zero_method, "correction": bool(correction),
                 "tie_tolerance": None if tie_tolerance is None else float(tie_tolerance)},
    )


class SignedRanks(NamedTuple):
    """The signed-rank test of each row of a batch (:func:`signed_rank_test`)."""

    r_plus: np.ndarray       # R+ (zeros' split ranks included), shape (B,)
    r_minus: np.ndarray      # R-
    z: np.ndarray            # standardised R+ (continuity-corrected if asked)
    effect_size: np.ndarray  # matched-pairs rank-biserial correlation (R+ - R-) / (R+ + R-)
    pvalue: np.ndarray
    n: np.ndarray            # differences ranked (zeros included unless dropped)
    n_zero: np.ndarray       # zero differences in the data
    dropped: np.ndarray      # zeros dropped before ranking
    ties: np.ndarray         # whether ranked values tie (zeros included)
    random_ranks: np.ndarray  # (B, n): ranks whose sign is random under H0, 0 elsewhere
    method: str              # "exact" or "normal"


def signed_rank_test(d, tol, *, zero_method: str = "demsar", correction: bool = False,
                     method: str = "auto", alternative: str = "two-sided",
                     present=None) -> SignedRanks:
    """The Wilcoxon signed-rank test of every row of a batch of paired differences.

    The one kernel of :func:`wilcoxon`, the all-pairs tests and the simulations: each row's
    numbers do not depend on the other rows (ranks, sums and null distributions are computed
    row by row), so a batch equals the loop over :func:`wilcoxon` bit for bit.

    Parameters
    ----------
    d : ndarray, shape (B, n)
        Differences a - b (positive favours A), finite (validated by the caller).
    tol : ndarray, broadcastable to ``d``
        Tie tolerance per difference (see :func:`wilcoxon`); a difference within it of 0 is
        a zero. A row of zeros only gives NaN statistics and p-value (:func:`wilcoxon`
        raises instead).
    zero_method, correction, method, alternative
        As :func:`wilcoxon` (validated by the caller); ``method="auto"`` is exact for
        n <= ``EXACT_MAX_N`` (n counted per row, present differences only).
    present : ndarray of bool, shape (B, n), optional
        Differences that exist (incomplete tables: a pair's common data sets). Absent ones
        are left out as if the row held only the present ones, so each row equals
        :func:`wilcoxon` on its present differences.

    Returns
    -------
    SignedRanks
    """
    present = np.ones(np.shape(d), dtype=bool) if present is None else present
    d = np.where(present, d, 0.0)
    d = np.where(np.abs(d) <= tol, 0.0, d)          # rounding errors of a zero difference
    tol = np.broadcast_to(tol, d.shape)
    zero = (d == 0) & present
    keep = present & ~zero if zero_method == "wilcox" else present.copy()
    if zero_method == "demsar":
        # Demšar drops one zero when their number is odd (any one: all zeros are equal).
        odd = np.flatnonzero(zero.sum(axis=-1) % 2 == 1)
        keep[odd, np.argmax(zero[odd], axis=-1)] = False
    # Zeros get tolerance 0, so they tie with each other only, below every nonzero |d|.
    ranks = rank_with_tolerance(np.abs(d), atol=np.where(zero, 0.0, tol), keep=keep)
    ranks = np.where(keep, ranks, 0.0)
    split = zero_method in ("zsplit", "demsar")
    # Zeros add half their rank to each side ("split") or nothing; either way, a constant.
    shift = np.where(zero, ranks, 0.0).sum(axis=-1) / 2 if split else 0.0
    r_plus = np.where(d > 0, ranks, 0.0).sum(axis=-1) + shift
    r_minus = np.where(d < 0, ranks, 0.0).sum(axis=-1) + shift

    # Under H0 each nonzero difference puts its rank in R+ with probability 1/2. The normal
    # approximation also counts split zeros as random, as Demšar's z (N includes them) and
    # scipy's zsplit do.
    random_ranks = np.where(zero, 0.0, ranks)
    counted = ranks if split else random_ranks
    with np.errstate(invalid="ignore", divide="ignore"):     # rows of zeros only: NaN
        sd = np.sqrt(np.sum(counted ** 2, axis=-1) / 4)
        z = r_plus - np.sum(counted, axis=-1) / 2
        if correction:
            z = z - {"greater": 0.5, "less": -0.5}.get(alternative, np.sign(z) * 0.5)
        z = z / sd

    if alternative == "two-sided":
        pvalue = 2 * stats.norm.sf(np.abs(z))
    else:
        pvalue = stats.norm.sf(z) if alternative == "greater" else stats.norm.cdf(z)
    # Exact per row: a row's own number of differences decides "auto" (incomplete tables).
    exact = (present.sum(axis=-1) <= EXACT_MAX_N if method == "auto"
             else np.full(np.shape(pvalue), method == "exact"))
    if exact.any():
        pvalue = np.array(pvalue, dtype=float)
        pvalue[exact] = signed_rank_pvalues(random_ranks[exact], (r_plus - shift)[exact],
                                            alternative)
    if method == "auto":
        method = "exact" if exact.all() else "normal" if not exact.any() else "exact/normal"

    # Ties among the ranked values: equal neighbours once sorted (left-out ones made unique).
    marked = np.where(keep, ranks, -1.0 - np.arange(d.shape[-1]))
    ties = np.any(np.diff(np.sort(marked, axis=-1), axis=-1) == 0, axis=-1)
    n_zero = zero.sum(axis=-1)
    with np.errstate(invalid="ignore"):
        effect = (r_plus - r_minus) / (r_plus + r_minus)   # as rank_biserial, row by row
    return SignedRanks(r_plus=r_plus, r_minus=r_minus, z=z, effect_size=effect,
                       pvalue=np.minimum(pvalue, 1.0),
                       n=keep.sum(axis=-1), n_zero=n_zero,
                       dropped=(~keep).sum(axis=-1), ties=ties, random_ranks=random_ranks,
                       method=method)


def signed_rank_pvalues(ranks, r, alternative: str) -> np.ndarray:
    """Exact p-values of R = r, the sum of the ranks given a + sign, each with probability 1/2.

    Parameters
    ----------
    ranks : ndarray, shape (B, n)
        Each row's ranks whose signs are random (multiples of 1/2; 0 for none).
    r : ndarray, shape (B,)
        The observed sums (on the grid of half-integers).
    alternative : {"two-sided", "greater", "less"}
        "greater": P(R >= r); "less": P(R <= r); two-sided: twice the smaller, capped at 1.

    Returns
    -------
    ndarray, shape (B,)
        Computed from the lower tail of the null distribution (P(R >= r) = P(R <= total - r)
        by symmetry), so small p-values keep their precision. Rows with the same ranks share
        one null distribution.
    """
    steps = np.rint(2 * ranks).astype(np.int64)
    k = np.rint(2 * np.asarray(r, dtype=float)).astype(np.int64)
    total = steps.sum(axis=-1)
    if alternative == "greater":
        k = total - k
    elif alternative == "two-sided":
        k = np.minimum(k, total - k)
    ordered = np.sort(steps, axis=-1)
    # Rows of m untied ranks (1..m, so doubled 2..2m) share Wilcoxon's distribution for m:
    # grouped by m alone, the common case costs no row comparison.
    n, m = steps.shape[-1], np.count_nonzero(steps, axis=-1)
    pos = np.arange(n) - (n - m)[:, None]
    untied = np.all(ordered == np.where(pos >= 0, 2 * (pos + 1), 0), axis=-1)
    cdf = np.empty(k.shape)
    for size in np.unique(m[untied]):
        rows = untied & (m == size)
        cdf[rows] = np.cumsum(_signed_rank_pmf(2 * np.arange(1, size + 1)))[k[rows]]
    tied = np.flatnonzero(~untied)
    if tied.size:
        keys, inverse = np.unique(ordered[tied], axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        for g, key in enumerate(keys):    # one null distribution per multiset of ranks
            rows = tied[inverse == g]
            cdf[rows] = np.cumsum(_signed_rank_pmf(key[key > 0]))[k[rows]]
    return np.minimum(2 * cdf if alternative == "two-sided" else cdf, 1.0)


def _signed_rank_pmf(steps: np.ndarray) -> np.ndarray:
    """Null pmf of the sum of a random subset of doubled ranks ``steps`` (integers).

    Average ranks are multiples of 1/2, so doubled ranks are integer shifts and the pmf is
    the product of the generating functions (1 + x**s) / 2, one convolution per rank.
    """
    pmf = np.zeros(int(steps.sum()) + 1)
    pmf[0] = 1.0
    for s in steps:
        shifted = np.zeros_like(pmf)
        shifted[s:] = pmf[:pmf.size - s]
        pmf = 0.5 * (pmf + shifted)
    return pmf
