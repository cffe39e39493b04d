"""Many predictors on one test set: all pairwise McNemar tests from a correctness matrix.

Input is a models x examples 0/1 matrix ``correct`` (1 = the model gets the example right).
Entry ``[i, j]`` of every k x k matrix compares row model i (as A) with column model j (as B),
with the sign convention of :mod:`outperform.stats._mcnemar`: ``n01[i, j]`` = examples i gets
wrong and j gets right, and ``n10 = n01.T``.

All discordance counts come from one Gram matrix G = C C^T of the correctness rows
(G[i, j] = examples both get right): n01[i, j] = G[j, j] - G[i, j]. G is computed on rows
bit-packed into 64-bit words, with AND + popcount (:mod:`outperform.stats._bit_gram`: a
compiled kernel on all cores with the ``fast`` extra, numpy otherwise). The work grows as
k^2 n / 128 word operations (only i <= j is computed); ``benchmarks/bench_leaderboard.py``
prints it next to the read-once floor and a chunked float32 BLAS product.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._names import model_names
from .._validation import InvalidInputError, TooFewError, check_choice, check_probability
from ..results import PairwiseResult
from ._bit_gram import bit_gram
from ._effect_size import cohens_g
from ._mcnemar import exact_pvalues
from ._multipletests import ADJUSTMENTS, adjust_pvalues

__all__ = ["PairwiseCounts", "against_control", "pairwise_discordance", "pairwise_mcnemar"]


def _as_correct_matrix(correct) -> np.ndarray:
    x = np.asarray(correct)
    if x.ndim != 2:
        raise InvalidInputError(
            f"correct must be a 2-D models x examples matrix of 0/1, got shape {x.shape}.")
    if x.dtype != bool:
        if x.dtype.kind not in "iuf" or not np.all((x == 0) | (x == 1)):
            raise InvalidInputError(
                "correct must hold 0/1 (or bool) correctness: 1 where the model (row) gets "
                "the example (column) right. NaN and other values are not allowed.")
        x = x.astype(bool)
    # Rows are packed into 64-bit words: they must be contiguous (a transposed view is not).
    x = np.ascontiguousarray(x)
    k, n = x.shape
    if k < 2:
        raise TooFewError(f"correct has {k} model(s) (rows); comparing needs at least 2.")
    if n < 1:
        raise TooFewError("correct has no examples (columns).")
    return x


class PairwiseCounts(NamedTuple):
    """Discordance counts of every ordered pair of models (from :func:`pairwise_discordance`).

    Attributes
    ----------
    n01 : ndarray of int64, shape (k, k)
        ``n01[i, j]`` = examples model i gets wrong and model j gets right; 0 on the diagonal.
    n_correct : ndarray of int64, shape (k,)
        Examples each model gets right.
    n_examples : int
    """

    n01: np.ndarray
    n_correct: np.ndarray
    n_examples: int

    @property
    def n10(self) -> np.ndarray:
        """``n10[i, j]`` = examples i gets right and j gets wrong (= ``n01.T``)."""
        return self.n01.T

    @property
    def accuracy(self) -> np.ndarray:
        """Accuracy of each model."""
        return self.n_correct / self.n_examples


def pairwise_discordance(correct) -> PairwiseCounts:
    """Discordant counts of every ordered pair of models, in one pass over the matrix.

    Parameters
    ----------
    correct : array_like of bool or 0/1, shape (n_models, n_examples)
        A bool array is used without a copy; other dtypes are checked and converted.

    Returns
    -------
    PairwiseCounts
        ``n01[i, j]`` = number of examples model i gets wrong and model j gets right; the
        opposite count is ``n01[j, i]`` (``n10 = n01.T``). Pass the result instead of the
        matrix to :func:`pairwise_mcnemar`, :func:`pairwise_bayesian_mcnemar` or
        :func:`against_control` to count only once.

    Raises
    ------
    InvalidInputError
        Not a 2-D matrix of 0/1 values.
    TooFewError
        Fewer than 2 models or no examples.

    Notes
    -----
    The counts come from AND + popcount on bit-packed rows, k^2 n / 128 word operations. With
    numba installed (``pip install 'outperform[fast]'``) large inputs run a compiled kernel
    on all cores: 200 models x 10^6 examples in ~0.04 s on 2 cores, against ~0.35 s for the
    numpy kernel used otherwise (``benchmarks/bench_leaderboard.py``); the counts are equal.

    Examples
    --------
    >>> counts = pairwise_discordance([[1, 1, 0, 1], [0, 1, 1, 1], [0, 0, 0, 1]])
    >>> counts.n01
    array([[0, 1, 0],
           [1, 0, 0],
           [2, 2, 0]])
    >>> counts.accuracy
    array([0.75, 0.75, 0.25])
    """
    x = _as_correct_matrix(correct)
    g = bit_gram(x)
    n_correct = np.diag(g).copy()
    return PairwiseCounts(n_correct[None, :] - g, n_correct, x.shape[1])


def _counts(correct, names) -> tuple[PairwiseCounts, tuple[str, ...]]:
    """The discordance counts (computed unless given) and the model names."""
    counts = correct if isinstance(correct, PairwiseCounts) else pairwise_discordance(correct)
    return counts, model_names(names, counts.n_correct.size)


def _pairs_result(method, names, statistic, pvalue, adjustment, alpha, details, control=None):
    """Adjust the tested pairs' p-values and assemble a PairwiseResult."""
    k = len(names)
    if control is None:
        iu = np.triu_indices(k, 1)
    else:
        c = names.index(control)
        others = np.array([j for j in range(k) if j != c])
        iu = (np.full(k - 1, c), others)
    adjusted = np.full((k, k), np.nan)
    adjusted[iu] = adjust_pvalues(pvalue[iu], adjustment)
    adjusted[iu[1], iu[0]] = adjusted[iu]
    reject = np.nan_to_num(adjusted, nan=1.0) <= alpha
    return PairwiseResult(method=method, names=names, statistic=statistic, pvalue=pvalue,
                          pvalue_adjusted=adjusted, reject=reject, alpha=alpha,
                          adjustment=adjustment, control=control, details=details)


def _mcnemar_matrices(n01: np.ndarray):
    n10 = n01.T
    p = exact_pvalues(n01, n10, "two-sided").astype(float)
    np.fill_diagonal(p, np.nan)
    total = n01 + n10
    g = np.full(n01.shape, np.nan)
    has = total > 0
    g[has] = cohens_g(n01[has], n10[has])
    return n01, p, g


def pairwise_mcnemar(correct, *, names=None, adjustment: str = "holm",
                     alpha: float = 0.05) -> PairwiseResult:
    """Exact McNemar test for every pair of models on one test set, adjusted for multiplicity.

    Parameters
    ----------
    correct : array_like of bool or 0/1, shape (n_models, n_examples), or PairwiseCounts
        1 where the model (row) gets the example (column) right; or the counts already
        computed by :func:`pairwise_discordance`.
    names : sequence of str, optional
        Model names (default ``model 0``, ``model 1``, ...).
    adjustment : str
        Any method of :func:`outperform.stats._multipletests.adjust_pvalues` (default Holm),
        applied to the k (k - 1) / 2 pairs.
    alpha : float
        Family-wise level for ``reject``.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = n01[i, j] (i wrong, j right; the exact test's count, so
        ``statistic.T`` is n10); ``pvalue`` two-sided exact binomial p-values (symmetric, NaN
        on the diagonal). ``details``: ``cohens_g`` (k x k, positive when the row model is
        better, NaN without discordant examples), ``accuracy`` per model, ``n_examples`` and
        ``n_identical_pairs``. Pairs that never disagree get p = 1 (the exact conditional
        p-value; :func:`outperform.stats._mcnemar.mcnemar` raises for them instead).

    Raises
    ------
    InvalidInputError
        Bad matrix, names, adjustment or alpha.
    TooFewError
        Fewer than 2 models or no examples.

    References
    ----------
    Williams (2026) §5.1, §5.6 (multiple comparisons); Holm (1979).

    Examples
    --------
    Three models with true accuracies 0.80, 0.79 and 0.70 on 2000 examples:

    >>> rng = np.random.default_rng(0)
    >>> correct = rng.random((3, 2000)) < np.array([[0.80], [0.79], [0.70]])
    >>> res = pairwise_mcnemar(correct, names=["a", "b", "c"])
    >>> res.reject.astype(int)
    array([[0, 0, 1],
           [0, 0, 1],
           [1, 1, 0]])
    """
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    check_probability(alpha, "alpha")
    counts, labels = _counts(correct, names)
    n01, p, g = _mcnemar_matrices(counts.n01)
    identical = (n01 + n01.T == 0) & ~np.eye(len(labels), dtype=bool)
    details = {"cohens_g": g, "accuracy": counts.accuracy, "n_examples": counts.n_examples,
               "n_identical_pairs": int(identical.sum() // 2)}
    return _pairs_result("McNemar's test (exact binomial), all pairs", labels, n01.astype(float),
                         p, adjustment, alpha, details)


def against_control(correct, control, *, names=None, adjustment: str = "holm",
                    alpha: float = 0.05) -> PairwiseResult:
    """Exact McNemar test of every model against one control model (Williams 2026 §5.6).

    Only k - 1 hypotheses are tested, so the multiplicity adjustment is milder than for all
    pairs. Entries of the control's row and column are filled, the rest is NaN.

    Parameters
    ----------
    correct : array_like of bool or 0/1, shape (n_models, n_examples), or PairwiseCounts
    control : str or int
        Name (in ``names``) or row index of the control model (the baseline, e.g. the
        production model; Demšar's term).
    names : sequence of str, optional
    adjustment : str
        Default ``"holm"``; ``"bonferroni"`` is Williams' example.
    alpha : float

    Returns
    -------
    PairwiseResult
        ``control`` = the control's name; ``statistic[c, j]`` = n01 (control wrong, j
        right), ``statistic[j, r]`` = n10; ``details["cohens_g"]`` as in
        :func:`pairwise_mcnemar` (its control column is positive where a model beats the
        control).

    Raises
    ------
    InvalidInputError
        Unknown control, bad matrix, names, adjustment or alpha.
    TooFewError
        Fewer than 2 models.

    Examples
    --------
    >>> correct = [[1, 1, 1, 0, 1, 1, 1, 1, 1, 1], [0, 1, 0, 0, 0, 1, 0, 1, 0, 0],
    ...            [1, 1, 1, 1, 1, 0, 1, 1, 1, 1]]
    >>> res = against_control(correct, "ref", names=["ref", "x", "y"], adjustment="bonferroni")
    >>> res.pvalue_adjusted[0].round(4)
    array([   nan, 0.0625, 1.    ])
    """
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    check_probability(alpha, "alpha")
    counts, labels = _counts(correct, names)
    if isinstance(control, (int, np.integer)) and not isinstance(control, bool):
        if not 0 <= control < len(labels):
            raise InvalidInputError(
                f"control index {control} is out of range 0..{len(labels) - 1}.")
        control = labels[control]
    elif str(control) in labels:
        control = str(control)
    else:
        raise InvalidInputError(f"control {control!r} is not one of the names {list(labels)}.")
    n01, p, g = _mcnemar_matrices(counts.n01)
    c = labels.index(control)
    mask = np.zeros(p.shape, dtype=bool)
    mask[c, :] = mask[:, c] = True
    np.fill_diagonal(mask, False)
    stat = np.where(mask, n01, np.nan)
    p = np.where(mask, p, np.nan)
    details = {"cohens_g": np.where(mask, g, np.nan), "accuracy": counts.accuracy,
               "n_examples": counts.n_examples}
    return _pairs_result("McNemar's test (exact binomial) against a control", labels, stat, p,
                         adjustment, alpha, details, control=control)
