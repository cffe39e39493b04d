"""Rank tests for tables with missing (data set, model) cells: incomplete block designs.

A model that timed out or crashed on some data sets leaves holes in the N x k table. The
Friedman test needs every cell; these tests use the cells present:

* Skillings & Mack (1981), "On the use of a Friedman-type statistic in balanced and
  unbalanced block designs", Technometrics 23(2): 171–177 — any pattern of missing cells;
  equals Friedman's statistic on a complete table and Durbin's on a balanced incomplete
  block design without ties (Chatfield & Mander 2009, Stata Journal 9(2): 299–305).
* Durbin (1951), as given by Conover (1999), *Practical Nonparametric Statistics*, 3rd ed.,
  §5.9 — balanced incomplete block designs (every data set has the same number of models,
  every model the same number of data sets), with its all-pairs post-hoc test.
* Pairwise Wilcoxon signed-rank tests on each pair's common data sets, adjusted by Holm.

``scores`` is an (N, k) array with NaN for a missing cell; rows with fewer than two values
must be removed by the caller (who says so: :func:`sparse_rows` finds them).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from scipy.stats import chi2, f as f_dist, rankdata, t as t_dist

from .._names import model_names
from .._validation import InvalidInputError, TooFewError, check_choice, check_probability
from ..results import FrequentistResult, PairwiseResult
from ._multipletests import ADJUSTMENTS, adjust_pvalues
from ._posthoc import _control_index, _pairs_result, _symmetric, _tested_pairs
from ._ranks import paired_tie_tolerance
from ._wilcoxon import ZERO_METHODS, signed_rank_test


def _incomplete_matrix(scores, *, min_tasks: int = 2) -> np.ndarray:
    """Float (N, k) array whose only non-finite values are NaN (missing cells)."""
    try:
        x = np.asarray(scores, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"scores must be numeric ({exc}).") from None
    if x.ndim != 2:
        raise InvalidInputError(f"scores must be 2-dimensional, got shape {x.shape}.")
    if np.isinf(x).any():
        i, j = np.argwhere(np.isinf(x))[0]
        raise InvalidInputError(f"scores[{i}, {j}] is infinite; only NaN marks a missing cell.")
    if x.shape[1] < 2:
        raise TooFewError(f"scores has {x.shape[1]} model(s); at least 2 are needed to compare.")
    sparse = sparse_rows(x)
    if sparse.any():
        raise InvalidInputError(
            f"data set row(s) {np.flatnonzero(sparse).tolist()} hold fewer than 2 scores: they "
            "compare nothing; remove them (compare() does so and says which).")
    if x.shape[0] < min_tasks:
        raise TooFewError(f"{x.shape[0]} data set(s); at least {min_tasks} are needed.")
    return x


def sparse_rows(scores) -> np.ndarray:
    """Boolean mask of the rows (data sets) with fewer than two present scores."""
    return np.sum(~np.isnan(np.asarray(scores, dtype=float)), axis=1) < 2


def incomplete_ranks(scores, *, higher_is_better: bool = True) -> np.ndarray:
    """Ranks within each data set among the models present (1 = best, ties averaged), NaN
    where the cell is missing. Shape (N, k)."""
    x = np.asarray(scores, dtype=float)
    return rankdata(-x if higher_is_better else x, axis=1, nan_policy="omit")


def is_balanced_incomplete(scores) -> bool:
    """True if every data set holds the same number of models, every model appears on the
    same number of data sets and every pair of models meets on the same number of data sets
    (a balanced incomplete block design, Conover 1999 §5.9)."""
    p = ~np.isnan(np.asarray(scores, dtype=float))
    meet = p.T.astype(np.int64) @ p
    off = meet[~np.eye(len(meet), dtype=bool)]
    return bool(len(set(p.sum(axis=1))) == 1 and len(set(p.sum(axis=0))) == 1
                and len(set(off)) == 1)


def skillings_mack(scores, *, higher_is_better: bool = True) -> FrequentistResult:
    """Skillings–Mack test that k models perform equally over N data sets with missing cells.

    Parameters
    ----------
    scores : array_like, shape (N, k)
        One score per (data set, model), NaN where the model has no result. Every row holds
        at least 2 scores.
    higher_is_better : bool, default True
        Orientation of the ranks (1 = best); the statistic does not depend on it.

    Returns
    -------
    FrequentistResult
        ``statistic`` SM = A' Σ⁻ A, with A_j = Σ_i sqrt(12 / (k_i + 1)) (r_ij − (k_i + 1)/2)
        over the data sets i where model j is present (k_i models there, r_ij its rank),
        and Σ the covariance of A under H0: Σ_jj' = −λ_jj' (the number of data sets holding
        both), Σ_jj = Σ_{j'≠j} λ_jj'; Σ⁻ its Moore–Penrose inverse. ``pvalue`` from
        chi-square with ``df`` = rank(Σ) (k − 1 when the models are connected by shared
        data sets). ``details``: ``adjusted_sums`` (A), ``average_ranks`` (mean rank of each
        model over its data sets, 1 = best), ``n_present`` per model, ``n_missing``.

    Raises
    ------
    InvalidInputError
        Non-numeric or infinite values, a row with fewer than 2 scores.
    TooFewError
        Fewer than 2 data sets or 2 models.

    Notes
    -----
    Skillings & Mack (1981), Technometrics 23: 171–177, eq. (2.2)–(2.4); Chatfield & Mander
    (2009). On a complete table SM equals Friedman's chi2_F (without tie correction). No tie
    correction: with many ties the chi-square p-value is conservative (Chatfield & Mander).
    """
    x = _incomplete_matrix(scores)
    present = ~np.isnan(x)
    r = incomplete_ranks(x, higher_is_better=higher_is_better)
    ki = present.sum(axis=1, keepdims=True)
    centred = np.where(present, r - (ki + 1) / 2, 0.0)
    a = np.sum(np.sqrt(12.0 / (ki + 1)) * centred, axis=0)
    lam = present.T.astype(float) @ present
    np.fill_diagonal(lam, 0.0)
    sigma = np.diag(lam.sum(axis=1)) - lam
    stat = float(a @ np.linalg.pinv(sigma, hermitian=True) @ a)
    df = int(np.linalg.matrix_rank(sigma, hermitian=True))
    return FrequentistResult(
        statistic=stat, pvalue=float(chi2.sf(stat, df)), method="Skillings–Mack test", df=df,
        details={"adjusted_sums": a.tolist(),
                 "average_ranks": np.nanmean(r, axis=0).tolist(),
                 "n_present": present.sum(axis=0).tolist(),
                 "n_missing": int((~present).sum()), "n_datasets": int(x.shape[0]),
                 "n_models": int(x.shape[1])})


def _durbin_core(x: np.ndarray, higher_is_better: bool) -> dict:
    present = ~np.isnan(x)
    if not is_balanced_incomplete(x):
        raise InvalidInputError(
            "the Durbin test needs a balanced incomplete block design (the same number of "
            "models on every data set, of data sets per model and per pair of models); use "
            "the Skillings–Mack test for other patterns of missing cells.")
    b, t = x.shape
    k, r = int(present[0].sum()), int(present[:, 0].sum())
    ranks = np.nan_to_num(incomplete_ranks(x, higher_is_better=higher_is_better))
    sums = ranks.sum(axis=0)
    big_a = float(np.sum(ranks ** 2))
    big_c = b * k * (k + 1) ** 2 / 4
    if big_a == big_c:
        raise InvalidInputError("every model ties on every data set: nothing to rank.")
    t1 = (t - 1) * float(np.sum((sums - r * (k + 1) / 2) ** 2)) / (big_a - big_c)
    df2 = b * k - b - t + 1
    return dict(b=b, t=t, k=k, r=r, sums=sums, A=big_a, C=big_c, t1=t1, df2=df2)


def durbin(scores, *, higher_is_better: bool = True) -> FrequentistResult:
    """Durbin's test for a balanced incomplete block design (Conover 1999, §5.9).

    Parameters
    ----------
    scores : array_like, shape (b, t)
        b data sets, t models, NaN for a missing cell; every data set holds k models, every
        model r data sets, every pair of models the same number of data sets.
    higher_is_better : bool, default True
        Orientation of the ranks; the statistic does not depend on it.

    Returns
    -------
    FrequentistResult
        ``statistic`` T1 = (t − 1) Σ_j (R_j − r(k + 1)/2)² / (A − C), R_j the rank sum of
        model j, A the sum of all squared ranks, C = b k (k + 1)² / 4 (A − C carries the tie
        correction); ``pvalue`` from chi-square with ``df`` = t − 1. ``details``: the F
        form ``f_statistic`` T2 = [T1/(t − 1)] / [(b(k − 1) − T1)/(bk − b − t + 1)],
        ``f_pvalue``, ``f_df``, ``rank_sums``, ``average_ranks``.

    Raises
    ------
    InvalidInputError
        Not a balanced incomplete block design (use :func:`skillings_mack`), bad values.
    TooFewError
        Fewer than 2 data sets or models.

    Notes
    -----
    Durbin (1951), Br. J. Psychol. Stat. Sec. 4: 85–90; Conover (1999) §5.9. On a complete
    table T1 is Friedman's tie-corrected statistic.
    """
    c = _durbin_core(_incomplete_matrix(scores), higher_is_better)
    t1, df1, df2 = c["t1"], c["t"] - 1, c["df2"]
    denom = c["b"] * (c["k"] - 1) - t1
    t2 = np.inf if denom <= 0 else (t1 / df1) / (denom / df2)
    return FrequentistResult(
        statistic=t1, pvalue=float(chi2.sf(t1, df1)), method="Durbin test", df=df1,
        details={"f_statistic": float(t2), "f_pvalue": float(f_dist.sf(t2, df1, df2)),
                 "f_df": (df1, df2), "rank_sums": c["sums"].tolist(),
                 "average_ranks": (c["sums"] / c["r"]).tolist(),
                 "block_size": c["k"], "replications": c["r"]})


def durbin_posthoc(scores, *, adjustment: str = "none", alpha: float = 0.05,
                   higher_is_better: bool = True,
                   names: Sequence[str] | None = None) -> PairwiseResult:
    """Conover's all-pairs comparison after Durbin's test (Conover 1999, §5.9, eq. 8).

    ``statistic[i, j]`` = (R_j − R_i) / sqrt(2 r (A − C) / (bk − b − t + 1) ·
    (1 − T1 / (b(k − 1)))) (positive: row model better, R the rank sums, 1 = best), with
    two-sided p-values from Student's t on bk − b − t + 1 degrees of freedom, adjusted over
    the t(t − 1)/2 pairs by ``adjustment`` (any of
    :func:`~outperform.stats._multipletests.adjust_pvalues`, or ``"none"``, as
    scikit-posthocs' ``posthoc_durbin``). Same inputs and errors as :func:`durbin`.
    """
    alpha = check_probability(alpha, "alpha")
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    x = _incomplete_matrix(scores)
    c = _durbin_core(x, higher_is_better)
    labels = model_names(names, c["t"])
    rows, cols = _tested_pairs(c["t"], None)
    se = np.sqrt(2 * c["r"] * (c["A"] - c["C"]) / c["df2"]
                 * (1 - c["t1"] / (c["b"] * (c["k"] - 1))))
    z = (c["sums"][cols] - c["sums"][rows]) / se
    p = 2 * t_dist.sf(np.abs(z), c["df2"])
    p_adj = p if adjustment == "none" else adjust_pvalues(p, adjustment)
    return _pairs_result(
        f"Durbin–Conover all-pairs test ({adjustment})", labels, rows, cols,
        _symmetric(c["t"], rows, cols, z, antisymmetric=True), p, p_adj, p_adj <= alpha,
        alpha=alpha, adjustment=adjustment, average_ranks=c["sums"] / c["r"],
        details={"df": c["df2"], "higher_is_better": higher_is_better,
                 "incomplete_data": bool(np.isnan(x).any())})


def pairwise_wilcoxon_available(scores, *, control=None, adjustment: str = "holm",
                                alpha: float = 0.05, higher_is_better: bool = True,
                                names: Sequence[str] | None = None,
                                zero_method: str = "demsar",
                                tie_tolerance: float | None = None) -> PairwiseResult:
    """Wilcoxon signed-rank tests between all pairs, each on the data sets the pair shares.

    As :func:`~outperform.stats.pairwise_wilcoxon` (same arguments, signs and fields), for
    a table with NaN in missing cells: pair (i, j) is tested on the rows where both scores
    are present, exactly as :func:`~outperform.stats.wilcoxon` on those rows; p-values are
    adjusted over the pairs that share at least one data set (the others get NaN and are
    listed in ``details["untested_pairs"]``). With ``control`` (a name or index) only the
    k − 1 pairs (control, j) are tested and adjusted. ``average_ranks``: each model's mean rank
    among the models present on its data sets (1 = best). ``details["n_common"]``: k x k
    counts of shared data sets.

    Raises
    ------
    InvalidInputError
        Bad values or options, a row with fewer than 2 scores.
    TooFewError
        Fewer than 2 data sets or 2 models.
    """
    alpha = check_probability(alpha, "alpha")
    check_choice(adjustment, "adjustment", ADJUSTMENTS)
    check_choice(zero_method, "zero_method", ZERO_METHODS)
    x = _incomplete_matrix(scores)
    k = x.shape[1]
    labels = model_names(names, k)
    c = None if control is None else _control_index(control, labels)
    oriented = x if higher_is_better else -x
    rows, cols = _tested_pairs(k, c)
    a, b = oriented[:, rows].T, oriented[:, cols].T
    both = ~np.isnan(a) & ~np.isnan(b)
    a0, b0 = np.where(both, a, 0.0), np.where(both, b, 0.0)
    tol = paired_tie_tolerance(a0, b0, tie_tolerance)
    with np.errstate(invalid="ignore", divide="ignore"):
        res = signed_rank_test(a0 - b0, tol, zero_method=zero_method, present=both)
    same = np.all((np.abs(a0 - b0) <= tol) | ~both, axis=-1)
    tested = both.any(axis=-1)
    z = np.where(same, 0.0, res.z)
    p = np.where(tested, np.where(same, 1.0, res.pvalue), np.nan)
    effect = np.where(same, 0.0, res.effect_size)
    p_adj = np.full(len(p), np.nan)
    p_adj[tested] = adjust_pvalues(p[tested], adjustment)
    # every pair's (and, on the diagonal, every model's) count of data sets with a result,
    # also for the pairs a control design does not test (NaN there would cast to garbage)
    present = (~np.isnan(x)).astype(np.int64)
    n_common = present.T @ present
    return _pairs_result(
        f"Pairwise Wilcoxon signed-rank tests on common data sets ({adjustment})", labels,
        rows, cols, _symmetric(k, rows, cols, z, antisymmetric=True), p, p_adj,
        np.nan_to_num(p_adj, nan=1.0) <= alpha, alpha=alpha, adjustment=adjustment,
        control=None if c is None else labels[c],
        average_ranks=np.nanmean(incomplete_ranks(x, higher_is_better=higher_is_better),
                                 axis=0),
        details={"rank_biserial": _symmetric(k, rows, cols, effect, antisymmetric=True).tolist(),
                 "identical_pairs": [(labels[i], labels[j])
                                     for i, j in zip(rows[same & tested], cols[same & tested])],
                 "untested_pairs": [(labels[i], labels[j])
                                    for i, j in zip(rows[~tested], cols[~tested])],
                 "n_common": n_common.tolist(), "zero_method": zero_method,
                 "tie_tolerance": None if tie_tolerance is None else float(tie_tolerance),
                 "n_datasets": int(x.shape[0]), "higher_is_better": higher_is_better,
                 "incomplete_data": bool(np.isnan(x).any())})
