"""Means of k models over b blocks and the error variance of the two-way ANOVA, shared by
Dunnett's many-to-one comparisons and Hsu's comparisons with the best.

A block is what every model was measured on: a test item (Q1), a fold (Q2) or a data set
(Q3). The additive model y_ij = μ + β_i + τ_j + ε_ij (block i, model j) has residual mean
square MSE = Σ_ij (y_ij − ȳ_i· − ȳ_·j + ȳ_··)² / ((b − 1)(k − 1)), and the difference of two
model means has standard error √(2 MSE / b) (Hsu 1996 §7.1; Montgomery 2017 §4.1).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import DegenerateDataError, InvalidInputError, TooFewError, as_float_array

#: What a table with missing cells should be analysed with instead.
INCOMPLETE_HINT = ("the Skillings–Mack test with posthoc='wilcoxon-holm' or 'durbin' "
                   "(outperform compare FILE --posthoc wilcoxon-holm), which use the cells "
                   "present, or complete the table")


@dataclass(frozen=True)
class BlockedMeans:
    """Model means, MSE and its degrees of freedom of a complete blocks × models table."""

    means: np.ndarray
    mse: float
    df: float
    n_blocks: int

    @property
    def standard_error(self) -> float:
        """Standard error of a difference of two model means, √(2 MSE / b)."""
        return float(np.sqrt(2.0 * self.mse / self.n_blocks))


def blocked_means(scores, *, procedure: str, min_models: int = 1) -> BlockedMeans:
    """Read a (b, k) table of scores and fit the additive two-way ANOVA.

    Parameters
    ----------
    scores : array_like, shape (b, k)
        One score per (block, model); rows are blocks.
    procedure : str
        Its name, for the messages.
    min_models : int
        Fewest columns accepted.

    Raises
    ------
    InvalidInputError
        Not 2-D, non-numeric, NaN (missing cells: the message names the procedures of
        incomplete tables) or infinite values.
    TooFewError
        Fewer than 2 blocks or ``min_models`` models.
    DegenerateDataError
        Zero residual variance (the scores are exactly additive in block and model, e.g.
        every model's column equal up to a constant): the intervals would have zero width.

    Examples
    --------
    >>> fit = blocked_means([[1.0, 2.0], [2.0, 4.0], [3.0, 3.0]], procedure="MCB")
    >>> fit.means.tolist(), round(fit.mse, 4), fit.df
    ([2.0, 3.0], 0.5, 2.0)
    """
    try:
        arr = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        arr = None     # as_float_array says what is wrong
    if arr is not None and arr.ndim == 2 and np.isnan(arr).any():
        i, j = np.argwhere(np.isnan(arr))[0]
        raise InvalidInputError(
            f"{procedure} needs a score for every (block, model) cell, but "
            f"{int(np.isnan(arr).sum())} are missing (e.g. row {i}, column {j}): use "
            + INCOMPLETE_HINT + ".")
    x = as_float_array(scores, "scores", ndim=2)
    b, k = x.shape
    if k < min_models:
        raise TooFewError(f"{procedure} needs at least {min_models} models (columns), got {k}.")
    if b < 2:
        raise TooFewError(f"{procedure} needs at least 2 blocks (rows: items, folds or data "
                          f"sets) to estimate the error variance, got {b}.")
    means = x.mean(axis=0)
    resid = x - x.mean(axis=1, keepdims=True) - means + x.mean()
    df = float((b - 1) * (k - 1))
    mse = float(np.sum(resid * resid) / df)
    scale = float(np.max(np.abs(x - x.mean()))) if x.size else 0.0
    if not mse > (1e-12 * max(scale, 1e-300)) ** 2:
        raise DegenerateDataError(
            f"{procedure}: the scores are exactly additive in block and model (zero residual "
            "variance, e.g. every model's column equal up to a constant), so the error "
            "variance is 0 and every interval would have zero width; there is no sampling "
            "variability to compare the models with. Check that the columns are different "
            "models' scores.")
    return BlockedMeans(means=means, mse=mse, df=df, n_blocks=b)


def model_names(names, k: int) -> tuple[str, ...]:
    """The names of k models as strings (default ``"0"``, ``"1"``, ...); InvalidInputError
    when their number is not k."""
    if names is None:
        return tuple(str(i) for i in range(k))
    names = tuple(str(n) for n in names)
    if len(names) != k:
        raise InvalidInputError(f"names has {len(names)} entries for {k} models.")
    return names
