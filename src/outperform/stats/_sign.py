"""Sign test: counts of wins, losses and ties of model A over paired measurements.

Demšar (2006, §3.1.4) counts the data sets on which each algorithm wins and splits ties
evenly between the two (ignoring one tie if their number is odd), because ties support the
null hypothesis. Lacoste et al. (2012, §6.1) drop ties instead. Under the null hypothesis the
number of wins of A is Binomial(n, 1/2).

Unlike a plain ``a > b``, scores equal up to a rounding error (0.1 + 0.2 versus 0.3) are a
tie, not a win (see ``tie_tolerance``).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import (DegenerateDataError, TooFewError, as_paired, check_alternative,
                           check_choice)
from ..results import FrequentistResult
from ..results import BinomialInterval
from ._effect_size import cohens_g
from ._mcnemar import exact_pvalues
from ._ranks import paired_tie_tolerance

_NORMAL_P = {
    "two-sided": lambda z: 2 * stats.norm.sf(abs(z)),
    "greater": stats.norm.sf,
    "less": stats.norm.cdf,
}


def sign_test(a, b, *, ties: str = "split", method: str = "auto",
              alternative: str = "two-sided",
              tie_tolerance: float | None = None) -> FrequentistResult:
    """Sign test of whether A wins on more paired measurements (data sets) than B.

    A wins where ``a > b`` beyond the tie tolerance (scores, higher is better; for losses
    pass ``b, a`` instead).

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Paired scores of models A and B, one per data set (or fold, or example).
    ties : {"split", "drop"}
        ``"split"`` (Demšar 2006, §3.1.4): each model is credited with half of the ties; if
        their number is odd, one tie is ignored. ``"drop"`` (Lacoste et al. 2012, §6.1):
        ties are ignored.
    method : {"auto", "exact", "normal"}
        ``"exact"``: binomial test (:func:`scipy.stats.binomtest`). ``"normal"``: Demšar's
        z-test, wins ~ N(n/2, sqrt(n)/2) under the null hypothesis, no continuity
        correction. ``"auto"`` is ``"exact"``.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A wins more often than B.
    tie_tolerance : float >= 0 or None
        A pair with ``|a_i - b_i|`` at most this tolerance is a tie. ``None`` (default):
        1e-10 times ``max(|a_i|, |b_i|)``, a rounding error of scores stored as decimals
        (0.1 + 0.2 = 0.30000000000000004 ties with 0.3), scale-free, see
        :func:`~outperform.stats._ranks.paired_tie_tolerance`. A number: an absolute
        tolerance in the units of the scores. ``0``: exact comparison, as counting
        ``a > b`` (e.g. with :func:`scipy.stats.binomtest`) would do.

    Returns
    -------
    FrequentistResult
        ``statistic``: wins of A after tie handling (``wins + ties_credited``);
        ``estimate``: that number over ``n``, the estimated probability that A wins, with a
        Clopper-Pearson ``confidence_interval`` (one-sided for one-sided alternatives);
        ``effect_size``: Cohen's g = estimate - 1/2 (Cohen 1988, ch. 5), positive favours A;
        ``details``: ``wins``, ``losses``, ``ties`` (raw counts), ``ties_credited`` (ties
        added to each side), ``n`` (trials used), ``tie_tolerance`` (as given), ``z``
        (normal method only).

    Raises
    ------
    InvalidInputError
        NaN, non-numeric values, different lengths, an unknown option, or a negative, NaN
        or infinite ``tie_tolerance``.
    TooFewError
        Fewer than 2 pairs.
    DegenerateDataError
        All pairs are ties (no win and no loss).

    Notes
    -----
    Demšar's Table 3 of critical numbers of wins, captioned "two-tailed", matches the exact
    *one-sided* binomial test (``alternative="greater"``) at alpha = 0.05 for N <= 22 and at
    alpha = 0.10 for every N = 5..25; for N = 23, 24 its 0.05 row holds the two-sided values
    17, 18 (one-sided: 16, 17). Likewise his example, 11 wins of 14 data sets, is significant
    one-sided (p = 0.029) or with his normal approximation (p = 0.033) but not with the exact
    two-sided test (p = 0.057).

    Examples
    --------
    Demšar (2006) Table 2, A = C4.5 with tuned m, B = C4.5 (AUC on 14 data sets): 10 wins,
    2 losses, 2 ties, counted as 11 wins of 14.

    >>> c45 = [.763, .599, .954, .628, .882, .936, .661, .583, .775, 1., .940, .619, .972, .957]
    >>> c45m = [.768, .591, .971, .661, .888, .931, .668, .583, .838, 1., .962, .666, .981, .978]
    >>> res = sign_test(c45m, c45, method="normal")
    >>> res.statistic, res.details["n"], round(res.pvalue, 4)
    (11, 14, 0.0325)
    >>> round(sign_test(c45m, c45, alternative="greater").pvalue, 4)
    0.0287

    0.1 + 0.2 versus 0.3 is a tie, not a win of A, unless comparing exactly:

    >>> sign_test([0.1 + 0.2, 0.9, 0.8], [0.3, 0.5, 0.7]).details["ties"]
    1
    >>> sign_test([0.1 + 0.2, 0.9, 0.8], [0.3, 0.5, 0.7], tie_tolerance=0).details["ties"]
    0
    """
    check_choice(ties, "ties", ("split", "drop"))
    check_choice(method, "method", ("auto", "exact", "normal"))
    check_alternative(alternative)
    x, y = as_paired(a, b)
    if x.size < 2:
        raise TooFewError(f"the sign test needs at least 2 paired values, got {x.size}.")

    d, tol = x - y, paired_tie_tolerance(x, y, tie_tolerance)
    wins, losses = int(np.sum(d > tol)), int(np.sum(d < -tol))
    n_ties = x.size - wins - losses
    credited = n_ties // 2 if ties == "split" else 0
    if wins + losses == 0:
        raise DegenerateDataError(
            f"all {n_ties} pairs are ties: the two models scored identically (up to rounding "
            "errors, see tie_tolerance), so there is no win or loss to test.")
    k, n = wins + credited, wins + losses + 2 * credited

    details = {"wins": wins, "losses": losses, "ties": n_ties, "ties_credited": credited,
               "n": n, "ties_handling": ties,
               "tie_tolerance": None if tie_tolerance is None else float(tie_tolerance)}
    if method == "normal":
        z = (k - n / 2) / (np.sqrt(n) / 2)
        pvalue, details["z"], label = float(_NORMAL_P[alternative](z)), float(z), "normal"
    else:
        # The exact binomial test of k wins out of n: McNemar's exact test is the same test
        # of the discordant pairs, and its vectorised kernel serves both.
        pvalue, label = float(exact_pvalues(n - k, k, alternative)), "exact"

    return FrequentistResult(
        statistic=k,
        pvalue=min(pvalue, 1.0),
        method=f"sign test ({label}, ties {'split' if ties == 'split' else 'dropped'})",
        alternative=alternative,
        estimate=k / n,
        effect_size=cohens_g(n - k, k),
        effect_size_name="Cohen's g",
        details=details,
        _interval=BinomialInterval(int(k), int(n), alternative),
    )
