"""Adjustment of p-values for multiple comparisons (Demšar 2006, §3.2.2).

Each method returns adjusted p-values: hypothesis i is rejected at family-wise level alpha
(false discovery rate for "bh") exactly when its adjusted p-value is <= alpha.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, as_float_array, check_choice

ADJUSTMENTS = ("holm", "hochberg", "hommel", "bonferroni", "sidak", "holland", "finner",
               "bh", "none")

# Our names -> statsmodels.stats.multitest.multipletests method names.
_STATSMODELS = {"hochberg": "simes-hochberg", "hommel": "hommel", "bonferroni": "bonferroni",
                "sidak": "sidak", "holland": "holm-sidak", "bh": "fdr_bh"}


def adjust_pvalues(pvalues, method: str = "holm") -> np.ndarray:
    """Adjust p-values of m hypotheses for multiplicity.

    Parameters
    ----------
    pvalues : array_like, shape (m,)
        Unadjusted p-values in [0, 1].
    method : str, default "holm"
        * ``"holm"``: Holm (1979) step-down, max_{j<=i} (m - j + 1) p_(j).
        * ``"hochberg"``: Hochberg (1988) step-up, min_{j>=i} (m - j + 1) p_(j).
        * ``"hommel"``: Hommel (1988); Demšar (2006) §3.2.2 describes it.
        * ``"bonferroni"``: m p_i (the Bonferroni-Dunn test of Demšar §3.2.2).
        * ``"sidak"``: 1 - (1 - p_i)^m.
        * ``"holland"``: Holland & Copenhaver (1987) step-down with Šidák's adjustment
          (statsmodels' "holm-sidak"), max_{j<=i} 1 - (1 - p_(j))^(m - j + 1).
        * ``"finner"``: Finner (1993) step-down, max_{j<=i} 1 - (1 - p_(j))^(m / j).
        * ``"bh"``: Benjamini & Hochberg (1995) false discovery rate (not family-wise).
        * ``"none"``: no adjustment.

    Returns
    -------
    ndarray, shape (m,)
        Adjusted p-values in [0, 1], in the input order; p_(j) above is the j-th smallest.

    Raises
    ------
    InvalidInputError
        Unknown method, NaN, values outside [0, 1], or not 1-D.

    Notes
    -----
    statsmodels' ``multipletests`` computes hochberg, hommel, bonferroni, sidak, holland
    and bh. Holm is computed here because statsmodels' holm branch calls ``gc.collect()``,
    which costs tens of milliseconds per call and dominates all-pairs post-hoc tests on
    many models. Finner's procedure is not in statsmodels; it is used by García & Herrera
    (2008) after Friedman-type tests.

    Examples
    --------
    Demšar (2006) §3.2.2: p-values of three models compared with C4.5 (Table 6).

    >>> adjust_pvalues([0.016, 0.019, 0.607], "holm").round(3)
    array([0.048, 0.048, 0.607])
    >>> adjust_pvalues([0.016, 0.019, 0.607], "hochberg").round(3)
    array([0.038, 0.038, 0.607])
    """
    check_choice(method, "method", ADJUSTMENTS)
    p = as_float_array(pvalues, "pvalues", ndim=1)
    if np.any((p < 0) | (p > 1)):
        raise InvalidInputError(
            f"pvalues must lie in [0, 1], got {p[(p < 0) | (p > 1)][0]!r}.")
    if method == "none" or p.size == 0:
        return p.copy()
    if method in _STATSMODELS:
        # Imported here: statsmodels is slow to import and most users never adjust.
        from statsmodels.stats.multitest import multipletests

        with np.errstate(divide="ignore"):  # Šidák-type methods take log1p(-1) for p = 1
            adjusted = multipletests(p, method=_STATSMODELS[method])[1]
        return np.clip(adjusted, 0.0, 1.0)
    m = p.size
    order = np.argsort(p, kind="stable")
    j = np.arange(1, m + 1)
    if method == "holm":
        stepped = (m - j + 1) * p[order]
    else:  # finner
        with np.errstate(divide="ignore"):  # p = 1 gives log1p(-1) = -inf, adjusted 1
            stepped = -np.expm1((m / j) * np.log1p(-p[order]))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(np.maximum.accumulate(stepped), 1.0)
    return adjusted


def holm_rows(pvalues) -> np.ndarray:
    """Holm-adjusted p-values of each row of a (B, m) array: the row form of
    ``adjust_pvalues(row, "holm")`` (one family of m hypotheses per row: a resample, a
    simulated data set), equal to it row by row.

    Parameters
    ----------
    pvalues : array_like, shape (B, m)
        Unadjusted p-values in [0, 1].

    Returns
    -------
    ndarray, shape (B, m)

    Raises
    ------
    InvalidInputError
        Not 2-D, NaN or values outside [0, 1].

    Examples
    --------
    >>> holm_rows([[0.016, 0.019, 0.607], [0.5, 0.01, 0.02]]).round(3).tolist()
    [[0.048, 0.048, 0.607], [0.5, 0.03, 0.04]]
    """
    p = as_float_array(pvalues, "pvalues", ndim=2)
    if np.any((p < 0) | (p > 1)):
        raise InvalidInputError(
            f"pvalues must lie in [0, 1], got {p[(p < 0) | (p > 1)][0]!r}.")
    m = p.shape[1]
    order = np.argsort(p, axis=1, kind="stable")
    stepped = (m - np.arange(m)) * np.take_along_axis(p, order, axis=1)
    adjusted = np.empty_like(p)
    np.put_along_axis(adjusted, order, np.minimum(np.maximum.accumulate(stepped, axis=1), 1.0),
                      axis=1)
    return adjusted
