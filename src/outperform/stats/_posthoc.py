"""Post-hoc tests after Friedman's test: which of k models differ (Demšar 2006, §3.2.2).

All functions take ``scores`` of shape (N data sets, k models) and return a
:class:`~outperform.results.PairwiseResult` whose k x k matrices compare the row model i with
the column model j. Signed statistics are positive when the *row* model is the better one:
for rank tests z[i, j] = (R_j - R_i) / SE with R the average ranks (1 = best) and
SE = sqrt(k(k+1) / (6N)).
"""
from __future__ import annotations

import math
import warnings
from typing import Sequence

import numpy as np
from scipy.special import ndtr

from .._validation import (InvalidInputError, OutperformWarning, as_score_matrix,
                           check_choice, check_probability)
from ..results import PairwiseResult
from .._names import model_names
from ._critical_values import (bonferroni_dunn_q, critical_difference, nemenyi_q, range_sf,
                              rank_standard_error)
from ._logical import (BERGMANN_MAX_K, bergmann_hommel_adjust, li_adjust, rom_adjust,
                       shaffer_adjust)
from ._multipletests import ADJUSTMENTS, adjust_pvalues
from ._ranks import average_ranks, paired_tie_tolerance, ranked_scores
from ._wilcoxon import ZERO_METHODS, signed_rank_test

#: Adjustments of the rank z tests: those of adjust_pvalues, plus the procedures that use
#: the logical relations among all pairs (Shaffer, Bergmann–Hommel) and Li's against a
#: control (García & Herrera 2008; García et al. 2010).
RANK_ADJUSTMENTS = ADJUSTMENTS + ("shaffer", "bergmann", "li", "rom")


def _control_index(control, names: tuple[str, ...]) -> int:
    """Index of the control model given by name or by column index."""
    if isinstance(control, str):
        if control not in names:
            raise InvalidInputError(f"control {control!r} is not one of the models {names}.")
        return names.index(control)
    if isinstance(control, (int, np.integer)) and not isinstance(control, bool):
        if not 0 <= control < len(names):
            raise InvalidInputError(
                f"control index {control} is out of range for {len(names)} models.")
        return int(control)
    raise InvalidInputError(
        f"control must be a model name or a column index, got {control!r}.")


def _tested_pairs(k: int, control: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices (i, j) of the tested pairs, i < j or (control, j)."""
    if control is None:
        return np.triu_indices(k, 1)
    others = np.array([j for j in range(k) if j != control], dtype=np.intp)
    return np.full(others.size, control, dtype=np.intp), others


def _symmetric(k: int, rows, cols, values, *, antisymmetric: bool = False) -> np.ndarray:
    """k x k float matrix: values at (rows, cols), mirrored at (cols, rows), NaN elsewhere."""
    values = np.asarray(values, dtype=float)
    out = np.full((k, k), np.nan)
    out[rows, cols] = values
    out[cols, rows] = -values if antisymmetric else values
    return out


def _symmetric_bool(k: int, rows, cols, values) -> np.ndarray:
    """k x k boolean matrix: values at (rows, cols) and (cols, rows), False elsewhere."""
    out = np.zeros((k, k), dtype=bool)
    out[rows, cols] = values
    out[cols, rows] = values
    return out


def _rank_z(scores, higher_is_better: bool):
    ranked = ranked_scores(scores, higher_is_better=higher_is_better, min_tasks=2)
    n, k = ranked.ranks.shape
    ranks = ranked.average.copy()   # the result owns its array
    se = rank_standard_error(k, n)
    # z[i, j] = (R_j - R_i) / SE: positive when row model i has the better (lower) rank.
    z = (ranks[None, :] - ranks[:, None]) / se
    return n, k, ranks, se, z


def nemenyi(scores, *, alpha: float = 0.05, higher_is_better: bool = True,
            names: Sequence[str] | None = None) -> PairwiseResult:
    """Nemenyi test comparing all pairs of k models by their average ranks.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model): rows are data sets, columns are models.
        Also a ``RankedScores`` from :func:`~outperform.stats._ranks.ranked_scores` (the
        ranks computed once for several tests; same ``higher_is_better``).
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        False for losses or error rates.
    names : sequence of str, optional
        Model names, default ``"model 0"`` ... ``"model k-1"``.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` z = (R_j - R_i) / SE (positive: row model ranks better);
        ``pvalue`` the unadjusted two-sided normal p-values of z; ``pvalue_adjusted`` the
        Nemenyi p-values P(Q > |z| sqrt(2)), Q the studentized range of k means with
        infinite degrees of freedom, which control the family-wise error of all
        k(k-1)/2 comparisons; ``reject`` where |R_i - R_j| >= ``critical_difference``
        = q_alpha SE, which is the same as ``pvalue_adjusted <= alpha``;
        ``average_ranks`` (1 = best). ``details``: ``standard_error``, ``q_alpha``,
        ``n_datasets``.

    Raises
    ------
    InvalidInputError
        Bad values, ``alpha`` outside (0, 1), wrong ``names``.
    TooFewError
        Fewer than 2 data sets or 2 models.

    Notes
    -----
    Nemenyi (1963); Demšar (2006), §3.2.2 and Table 5(a). On Demšar's Table 6 no pair
    differs at alpha = 0.05 (CD = 1.25); at alpha = 0.10 (CD = 1.12) C4.5 is worse than
    C4.5+m and C4.5+m+cf. Run it only after the omnibus test (:func:`friedman` or
    :func:`iman_davenport`) rejects.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73], [0.88, 0.84, 0.83]]
    >>> res = nemenyi(scores, names=["A", "B", "C"])
    >>> round(res.critical_difference, 3), res.average_ranks.round(3).tolist()
    (1.353, [1.167, 2.0, 2.833])
    >>> bool(res.reject[0, 2]), round(float(res.pvalue_adjusted[0, 2]), 4)
    (True, 0.0109)
    """
    alpha = check_probability(alpha, "alpha")
    n, k, ranks, se, z = _rank_z(scores, higher_is_better)
    labels = model_names(names, k)
    rows, cols = _tested_pairs(k, None)
    absz = np.abs(z[rows, cols])
    # Average ranks are multiples of 1/(2N), so rank differences repeat: evaluate the
    # studentized range tail once per distinct value.
    distinct, where = np.unique(absz, return_inverse=True)
    pvalue = 2.0 * ndtr(-absz)   # norm.sf(x) is ndtr(-x)
    # The range of k normals is at least |Z_i - Z_j|, so the adjusted p-value is never
    # below the unadjusted one; the maximum only removes quadrature error (~1e-12 at z = 0).
    adjusted = np.maximum(range_sf(distinct * math.sqrt(2.0), k)[where], pvalue)
    q_alpha = nemenyi_q(k, alpha)
    cd = q_alpha * se
    z[np.eye(k, dtype=bool)] = np.nan
    return _pairs_result(
        "Nemenyi test", labels, rows, cols, z, pvalue, adjusted, absz * se >= cd,
        alpha=alpha, adjustment="nemenyi", critical_difference=cd, average_ranks=ranks,
        details={"standard_error": se, "q_alpha": q_alpha, "n_datasets": n,
                 "higher_is_better": higher_is_better})


def _pairs_result(method, labels, rows, cols, statistic, pvalue, adjusted, reject,
                  **fields) -> PairwiseResult:
    """PairwiseResult with the k x k ``statistic`` and one value per tested pair.

    ``pvalue``, ``adjusted`` and ``reject`` hold one value per pair (rows[t], cols[t]) of
    :func:`_tested_pairs`, mirrored to (cols[t], rows[t]); NaN (False) elsewhere.
    """
    k = len(labels)
    return PairwiseResult(
        method=method, names=labels, statistic=statistic,
        pvalue=_symmetric(k, rows, cols, pvalue),
        pvalue_adjusted=_symmetric(k, rows, cols, adjusted),
        reject=_symmetric_bool(k, rows, cols, reject), **fields)


def bonferroni_dunn(scores, *, control, alpha: float = 0.05, higher_is_better: bool = True,
                    names: Sequence[str] | None = None) -> PairwiseResult:
    """Bonferroni-Dunn test comparing each of k - 1 models with a control by average ranks.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns are models.
        Also a ``RankedScores`` from :func:`~outperform.stats._ranks.ranked_scores` (the
        ranks computed once for several tests; same ``higher_is_better``).
    control : str or int
        The control model, by name (in ``names``) or by column index.
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        False for losses or error rates.
    names : sequence of str, optional
        Model names, default ``"model 0"`` ... ``"model k-1"``.

    Returns
    -------
    PairwiseResult
        Only the control's row and column are filled (NaN elsewhere). ``statistic[i, c]``
        z = (R_c - R_i) / SE (positive: model i ranks better than the control c);
        ``pvalue`` two-sided normal p-values; ``pvalue_adjusted`` = min(1, (k - 1) p);
        ``reject`` where |R_i - R_c| >= ``critical_difference`` = z_{1-alpha/(2(k-1))} SE,
        equivalently ``pvalue_adjusted <= alpha``.

    Raises
    ------
    InvalidInputError
        Bad values, unknown control, ``alpha`` outside (0, 1), wrong ``names``.
    TooFewError
        Fewer than 2 data sets or 2 models.

    Notes
    -----
    Dunn (1961); Demšar (2006), §3.2.2 and Table 5(b). On Demšar's Table 6 with control
    C4.5 at alpha = 0.05 (CD = 1.168, printed 1.16), only C4.5+m+cf is significantly better
    (1.179 > CD; C4.5+m's 1.143 is just below).

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73], [0.88, 0.84, 0.83]]
    >>> res = bonferroni_dunn(scores, control="C", names=["A", "B", "C"])
    >>> res.reject[:, 2].tolist(), round(res.critical_difference, 3)
    ([True, False, False], 1.294)
    """
    alpha = check_probability(alpha, "alpha")
    n, k, ranks, se, z = _rank_z(scores, higher_is_better)
    labels = model_names(names, k)
    c = _control_index(control, labels)
    rows, cols = _tested_pairs(k, c)
    z_c = z[rows, cols]
    pvalue = 2.0 * ndtr(-np.abs(z_c))
    cd = critical_difference(k, n, alpha, method="bonferroni-dunn")
    details = {"standard_error": se, "q_alpha": bonferroni_dunn_q(k, alpha),
               "n_datasets": n, "higher_is_better": higher_is_better}
    return _pairs_result(
        "Bonferroni-Dunn test", labels, rows, cols,
        _symmetric(k, rows, cols, z_c, antisymmetric=True), pvalue,
        np.minimum((k - 1) * pvalue, 1.0), np.abs(z_c) * se >= cd, alpha=alpha,
        adjustment="bonferroni-dunn", control=labels[c], critical_difference=cd,
        average_ranks=ranks, details=details)


def rank_posthoc(scores, *, control=None, adjustment: str = "holm", alpha: float = 0.05,
                 higher_is_better: bool = True,
                 names: Sequence[str] | None = None) -> PairwiseResult:
    """z tests of average-rank differences with a p-value adjustment (Holm, Hochberg, ...).

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns are models.
        Also a ``RankedScores`` from :func:`~outperform.stats._ranks.ranked_scores` (the
        ranks computed once for several tests; same ``higher_is_better``).
    control : str or int, optional
        Compare every model with this one (k - 1 hypotheses); by default all pairs
        (k(k-1)/2 hypotheses).
    adjustment : str, default "holm"
        Any method of :func:`~outperform.stats._multipletests.adjust_pvalues`: "holm",
        "hochberg", "hommel", "bonferroni", "sidak", "holland", "finner", "bh", "none";
        all pairs only: "shaffer" (Shaffer's static procedure) and "bergmann"
        (Bergmann–Hommel, k <= ``BERGMANN_MAX_K`` = 10; above it Shaffer's is used with a
        ``UserWarning`` and ``details["fallback"]`` says so); with a control only: "li"
        (Li 2008) and "rom" (Rom 1990; its adjusted values hold for this ``alpha`` only).
        See :mod:`outperform.stats._logical`.
    alpha : float, default 0.05
        Family-wise significance level (false discovery rate for "bh").
    higher_is_better : bool, default True
        False for losses or error rates.
    names : sequence of str, optional
        Model names, default ``"model 0"`` ... ``"model k-1"``.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` z = (R_j - R_i) / SE (positive: row model ranks better);
        ``pvalue`` two-sided normal p-values; ``pvalue_adjusted`` adjusted over the tested
        pairs; ``reject`` where ``pvalue_adjusted <= alpha``. With a control only its row
        and column are filled.

    Raises
    ------
    InvalidInputError
        Bad values, unknown control or adjustment, ``alpha`` outside (0, 1), wrong names,
        "shaffer"/"bergmann" with a control or "li"/"rom" without one.
    TooFewError
        Fewer than 2 data sets or 2 models.

    Notes
    -----
    Demšar (2006), §3.2.2: z = (R_i - R_j) / sqrt(k(k+1)/(6N)) compared with the normal
    distribution, then Holm's, Hochberg's or Hommel's procedure. For Table 6 with control
    C4.5: z = 2.416, 2.342, 0.512 and p = 0.016, 0.019, 0.607; Holm, Hochberg and Hommel
    reject the first two at alpha = 0.05.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73], [0.88, 0.84, 0.83]]
    >>> res = rank_posthoc(scores, control="C", names=["A", "B", "C"])
    >>> round(float(res.statistic[0, 2]), 3), round(float(res.pvalue_adjusted[0, 2]), 4)
    (2.887, 0.0078)
    """
    alpha = check_probability(alpha, "alpha")
    check_choice(adjustment, "adjustment", RANK_ADJUSTMENTS)
    n, k, ranks, se, z = _rank_z(scores, higher_is_better)
    labels = model_names(names, k)
    c = None if control is None else _control_index(control, labels)
    rows, cols = _tested_pairs(k, c)
    p = 2.0 * ndtr(-np.abs(z[rows, cols]))
    details = {"standard_error": se, "n_datasets": n, "higher_is_better": higher_is_better}
    if adjustment in ("shaffer", "bergmann") and c is not None:
        raise InvalidInputError(f"adjustment={adjustment!r} uses the logical relations among "
                                "all pairs: drop control=, or use 'li' or 'holm' with it.")
    if adjustment in ("li", "rom") and c is None:
        raise InvalidInputError(f"adjustment={adjustment!r} compares with a control: pass "
                                "control=.")
    if adjustment == "bergmann" and k > BERGMANN_MAX_K:
        details["fallback"] = (f"Bergmann–Hommel handles at most {BERGMANN_MAX_K} models "
                               f"(it enumerates their partitions); with {k}, Shaffer's static "
                               "procedure was used instead.")
        warnings.warn(details["fallback"], OutperformWarning, stacklevel=2)
        adjustment = "shaffer"
    p_adj = (shaffer_adjust(p, k) if adjustment == "shaffer" else
             bergmann_hommel_adjust(p, k) if adjustment == "bergmann" else
             li_adjust(p) if adjustment == "li" else
             rom_adjust(p, alpha) if adjustment == "rom" else adjust_pvalues(p, adjustment))
    if c is None:
        z[np.eye(k, dtype=bool)] = np.nan
    else:
        z = _symmetric(k, rows, cols, z[rows, cols], antisymmetric=True)
    return _pairs_result(
        f"Rank z test ({adjustment})", labels, rows, cols, z, p, p_adj, p_adj <= alpha,
        alpha=alpha, adjustment=adjustment, control=None if c is None else labels[c],
        average_ranks=ranks, details=details)


def pairwise_wilcoxon(scores, *, adjustment: str = "holm", alpha: float = 0.05,
                      higher_is_better: bool = True, names: Sequence[str] | None = None,
                      zero_method: str = "demsar",
                      tie_tolerance: float | None = None) -> PairwiseResult:
    """Wilcoxon signed-rank tests between all pairs of models, p-values adjusted (Holm).

    Parameters
    ----------
    scores : array_like, shape (N, k)
        Rows are data sets, columns are models.
    adjustment : str, default "holm"
        Any method of :func:`~outperform.stats._multipletests.adjust_pvalues`.
    alpha : float, default 0.05
        Family-wise significance level.
    higher_is_better : bool, default True
        False for losses or error rates.
    names : sequence of str, optional
        Model names, default ``"model 0"`` ... ``"model k-1"``.
    zero_method : {"demsar", "zsplit", "wilcox", "pratt"}
        Treatment of data sets where two models tie, see
        :func:`~outperform.stats._wilcoxon.wilcoxon`.
    tie_tolerance : float >= 0 or None
        Scores (and differences) equal within it are ties; default: up to rounding errors
        relative to the scores, 0: exact as scipy. See
        :func:`~outperform.stats._wilcoxon.wilcoxon`.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` the standardised Wilcoxon z of row model i minus column model
        j (positive: row model better); ``pvalue`` the two-sided Wilcoxon p-values (exact
        for N <= 50, see :func:`~outperform.stats._wilcoxon.wilcoxon`); ``pvalue_adjusted``
        over the k(k-1)/2 pairs; ``reject`` where ``pvalue_adjusted <= alpha``;
        ``average_ranks`` Friedman average ranks (1 = best), to place the models on a
        critical-difference diagram. ``details``: ``rank_biserial`` (k x k matrix of
        effect sizes, positive: row better) and ``identical_pairs``, the pairs of models
        with equal scores (within ``tie_tolerance``) on every data set, given p = 1 and
        z = 0.

    Raises
    ------
    InvalidInputError
        Bad values, unknown adjustment or zero_method, wrong names, bad tie_tolerance.
    TooFewError
        Fewer than 2 data sets or 2 models.

    Notes
    -----
    Benavoli, Corani & Mangili (2016), "Should we really use post-hoc tests based on
    mean-ranks?", JMLR 17: the outcome of a rank z test of two models depends on the other
    models in the comparison; they recommend pairwise Wilcoxon signed-rank tests with Holm's
    correction, drawn on a CD diagram. The pairs are one batch of the kernel of
    :func:`~outperform.stats._wilcoxon.wilcoxon`: the same numbers as one test per pair.

    Examples
    --------
    >>> scores = [[0.81, 0.79, 0.75], [0.92, 0.90, 0.91], [0.70, 0.66, 0.64],
    ...           [0.85, 0.86, 0.80], [0.77, 0.74, 0.73], [0.88, 0.84, 0.83]]
    >>> res = pairwise_wilcoxon(scores, names=["A", "B", "C"])
    >>> round(float(res.pvalue[0, 2]), 4), round(float(res.pvalue_adjusted[0, 2]), 4)
    (0.0312, 0.0938)
    """
    alpha = check_probability(alpha, "alpha")
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    check_choice(zero_method, "zero_method", ZERO_METHODS)
    x = as_score_matrix(scores)
    n, k = x.shape
    labels = model_names(names, k)
    # wilcoxon takes scores with higher = better; negating losses keeps d > 0 favouring A.
    oriented = x if higher_is_better else -x
    rows, cols = _tested_pairs(k, None)
    # All pairs as one batch of the signed-rank kernel of wilcoxon (row = pair).
    a, b = oriented[:, rows].T, oriented[:, cols].T
    tol = paired_tie_tolerance(a, b, tie_tolerance)
    res = signed_rank_test(a - b, tol, zero_method=zero_method)
    same = np.all(np.abs(a - b) <= tol, axis=-1)     # wilcoxon raises: nothing to rank
    z = np.where(same, 0.0, res.z)
    p = np.where(same, 1.0, res.pvalue)
    effect = np.where(same, 0.0, res.effect_size)
    identical = [(labels[i], labels[j]) for i, j in zip(rows[same], cols[same])]
    p_adj = adjust_pvalues(p, adjustment)
    return _pairs_result(
        f"Pairwise Wilcoxon signed-rank tests ({adjustment})", labels, rows, cols,
        _symmetric(k, rows, cols, z, antisymmetric=True), p, p_adj, p_adj <= alpha,
        alpha=alpha, adjustment=adjustment,
        average_ranks=average_ranks(x, higher_is_better=higher_is_better),
        details={"rank_biserial": _symmetric(k, rows, cols, effect, antisymmetric=True).tolist(),
                 "identical_pairs": identical, "zero_method": zero_method,
                 "tie_tolerance": None if tie_tolerance is None else float(tie_tolerance),
                 "n_datasets": n, "higher_is_better": higher_is_better})
