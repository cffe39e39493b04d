"""Hsu's multiple comparisons with the best (MCB) on a blocked design.

Hsu (1984), "Constrained simultaneous confidence intervals for multiple comparisons with
the best", Annals of Statistics 12(3), 1136–1144; Hsu (1996), *Multiple Comparisons: Theory
and Methods*, ch. 4 (§4.1.1 balanced designs; §7 blocked designs use the ANOVA error).

For k models measured on the same b blocks (test items, folds or data sets), with means ȳ_j,
the residual mean square MSE of the two-way ANOVA (df ν = (b − 1)(k − 1)) and
h = d · √(2 MSE / b), where d is the one-sided Dunnett quantile of k − 1 comparisons with
common correlation 1/2 (:func:`._multivariate_t.max_t_quantile`), the intervals

    [min(0, ȳ_i − max_{j≠i} ȳ_j − h),  max(0, ȳ_i − max_{j≠i} ȳ_j + h)],   i = 1, ..., k,

cover μ_i − max_{j≠i} μ_j for every i at once with probability at least 1 − α (Hsu 1984,
Theorem 1; Hsu 1996 Theorem 4.1.2). A model whose upper bound is 0 is worse than the best;
one whose lower bound is 0 (and upper bound positive) is the best; the models with a positive
upper bound are those that could be the best. With "lower is better" the best is the
smallest mean: the intervals are for μ_i − min_{j≠i} μ_j, [min(0, ȳ_i − min_{j≠i} ȳ_j − h),
max(0, ȳ_i − min_{j≠i} ȳ_j + h)].
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, check_probability
from ..results._best import ComparisonWithBest
from ._blocked_means import blocked_means, model_names
from ._multivariate_t import max_t_quantile, max_t_sf

#: Correlation factor of the k − 1 differences of a balanced design: corr = λ² = 1/2.
_HALF = np.sqrt(0.5)
UNITS = ("block", "item", "fold", "task")


def mcb(scores, *, higher_is_better: bool = True, alpha: float = 0.05, names=None,
        unit: str = "block") -> ComparisonWithBest:
    """Hsu's constrained multiple comparisons with the best, blocks × models.

    Parameters
    ----------
    scores : array_like, shape (b, k)
        One score per (block, model): rows are test items (Q1), folds (Q2) or data sets (Q3),
        columns are the k >= 2 models. Every cell present (see Raises).
    higher_is_better : bool
        True: the best is the largest mean (intervals for μ_i − max_{j≠i} μ_j); False: the
        smallest (μ_i − min_{j≠i} μ_j, e.g. losses, error rates).
    alpha : float
        Simultaneous level: all k intervals hold together with probability >= 1 − alpha.
    names : sequence of str, optional
        Model names (default "0", "1", ...).
    unit : {"block", "item", "fold", "task"}
        What the rows are, for the report's words.

    Returns
    -------
    ComparisonWithBest
        ``lower``, ``upper`` (metric units), ``could_be_best``, ``is_best``, the adjusted
        p-values of "not the best", the critical value, MSE and df.

    Raises
    ------
    InvalidInputError
        Missing cells (NaN): the message points to the procedures of incomplete tables;
        non-numeric values; names of the wrong length; an unknown unit.
    TooFewError
        One model, or fewer than 2 blocks.
    DegenerateDataError
        Zero residual variance: the intervals would have zero width.

    Notes
    -----
    Assumptions (Hsu 1996 §7.1): block and model effects add up; errors independent across
    blocks, normal, with one variance. The common correlation 1/2 of the k − 1 differences
    with one model holds exactly because the design is complete (balanced). Folds of a
    cross-validation share training data, so their errors are correlated and the intervals
    too narrow (Nadeau & Bengio 2003): prefer data sets or test items as blocks. With k = 2
    the critical value is Student's one-sided t quantile and the intervals are the one-sided
    paired t bounds, clipped at 0.

    The p-value of model i is that of JMP's "with Max" column: the single-step one-sided
    Dunnett test of the sample best of the other models against i as the control,
    P(max_{j≠i} T_j ≥ (best_{j≠i} ȳ_j − ȳ_i)/se) (with the sign reversed for lower is better).

    Examples
    --------
    Five data sets (blocks), three models, accuracy:

    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73]]
    >>> res = mcb(scores, names=["A", "B", "C"])
    >>> round(res.critical_value, 4), res.df
    (2.2173, 8.0)
    >>> res.lower.round(4).tolist(), res.upper.round(4).tolist()
    ([-0.0022, -0.0422, -0.0662], [0.0422, 0.0022, 0.0])
    >>> res.candidates()
    ('A', 'B')
    """
    check_probability(alpha, "alpha")
    if unit not in UNITS:
        raise InvalidInputError(f"unit must be one of {UNITS}, got {unit!r}.")
    fit = blocked_means(scores, procedure="Hsu's MCB", min_models=2)
    k = fit.means.size
    names = model_names(names, k)
    low, high, diff, d = mcb_intervals(np.asarray(scores, dtype=float),
                                       higher_is_better=higher_is_better, alpha=alpha)
    se = fit.standard_error
    oriented = diff if higher_is_better else -diff
    pvalue = max_t_sf(-oriented / se, np.full(k - 1, _HALF), fit.df)
    return ComparisonWithBest(
        names=names, means=fit.means, difference=diff, lower=low, upper=high,
        pvalue=np.asarray(pvalue, dtype=float), critical_value=float(d), standard_error=se,
        df=fit.df, mse=fit.mse, n_blocks=fit.n_blocks,
        higher_is_better=bool(higher_is_better), alpha=float(alpha), unit=unit)


def mcb_intervals(scores, *, higher_is_better: bool = True, alpha: float = 0.05
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The row form of :func:`mcb`: Hsu's constrained bounds of many tables at once.

    Parameters
    ----------
    scores : ndarray, shape (..., b, k)
        Complete tables (no checks: :func:`mcb` checks its input), b >= 2, k >= 2.
    higher_is_better, alpha :
        As :func:`mcb`.

    Returns
    -------
    lower, upper, difference : ndarray, shape (..., k)
        The bounds and ȳ_i − best_{j≠i} ȳ_j, metric units.
    critical_value : float
        The one-sided Dunnett quantile (one for all tables: b and k are shared).

    Examples
    --------
    >>> x = np.array([[[1.0, 2.0], [2.0, 4.0], [3.0, 3.0]]])   # one table, b = 3, k = 2
    >>> low, high, diff, d = mcb_intervals(x)
    >>> diff.tolist(), round(d, 4)         # d is Student's t(0.95; 2)
    ([[-1.0, 1.0]], 2.92)
    """
    x = np.asarray(scores, dtype=float)
    b, k = x.shape[-2:]
    means = x.mean(axis=-2)
    resid = x - x.mean(axis=-1, keepdims=True) - means[..., None, :] \
        + x.mean(axis=(-2, -1))[..., None, None]
    df = float((b - 1) * (k - 1))
    se = np.sqrt(2.0 * np.sum(resid * resid, axis=(-2, -1)) / df / b)[..., None]
    sign = 1.0 if higher_is_better else -1.0
    y = sign * means                           # higher is better from here on
    diff = y - _best_of_others(y)              # ȳ_i − max_{j≠i} ȳ_j, oriented
    d = max_t_quantile(1.0 - alpha, np.full(k - 1, _HALF), df)
    low, high = np.minimum(0.0, diff - d * se), np.maximum(0.0, diff + d * se)
    if not higher_is_better:                   # back to μ_i − min_{j≠i} μ_j, metric units
        low, high = -high, -low
    return low + 0.0, high + 0.0, sign * diff, float(d)


def mcb_bounds(difference, standard_error: float, df: float, k: int, *,
               alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray, float]:
    """Hsu's constrained bounds from summary statistics (higher is better).

    Parameters
    ----------
    difference : array_like, shape (k,)
        ȳ_i − max_{j≠i} ȳ_j.
    standard_error : float
        Standard error of a difference of two means, e.g. s √(2/n) for a balanced one-way
        layout with n observations per group and pooled standard deviation s.
    df : float
        Degrees of freedom of s.
    k : int
        Number of means.
    alpha : float

    Returns
    -------
    (lower, upper, critical_value)

    Examples
    --------
    Minitab's paint-hardness example (4 blends, 6 samples each, pooled s = 3.95012, 20 df):
    Blend 2's interval is (−14.5000, 0) in Minitab's output.

    >>> lo, hi, d = mcb_bounds([-9.5], 3.95012 * (2 / 6) ** 0.5, 20, 4)
    >>> round(float(lo[0]), 3), float(hi[0]), round(d, 2)
    (-14.5, 0.0, 2.19)
    """
    diff = np.asarray(difference, dtype=float)
    d = max_t_quantile(1.0 - alpha, np.full(k - 1, _HALF), df)
    h = d * standard_error
    return np.minimum(0.0, diff - h), np.maximum(0.0, diff + h), d


def _best_of_others(y: np.ndarray) -> np.ndarray:
    """max_{j≠i} y_j along the last axis: the largest, or for the argmax the second."""
    top2 = -np.sort(-y, axis=-1)[..., :2]
    first = np.argmax(y, axis=-1)[..., None]
    out = np.broadcast_to(top2[..., :1], y.shape).copy()
    np.put_along_axis(out, first, top2[..., 1:2], axis=-1)
    return out
