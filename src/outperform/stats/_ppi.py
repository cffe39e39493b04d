"""Prediction-powered inference of means from a judge's scores and a few human labels.

PPI++ (Angelopoulos, Duchi & Zrnic 2023, "PPI++: Efficient prediction-powered inference",
arXiv:2311.01453, §2 and Example 2.1 for the mean; power tuning eq. 6 / Prop. 2): with n
items labelled by people (human score ``Y``, judge score ``f``) and N further items scored
by the judge alone (``f~``), the power-tuned estimate of the mean human score is

    θ̂_λ = λ · mean(f~) + mean(Y − λ f),

unbiased for every λ; its standard error is sqrt(λ² var(f~) / N + var(Y − λ f) / n)
(variances with ddof = 0, as ppi-python) and its interval the normal one. λ is chosen to
minimise that variance, λ̂ = cov(Y, f) / ((1 + n/N) var(f, f~)) clipped to [0, 1]
(λ = 0 is the classical mean of the labelled items, λ = 1 the original PPI of
Angelopoulos et al. 2023, Science 382:669). The same estimator applied to per-item
differences A − B gives the corrected paired difference (Boyeau et al. 2025, "AutoEval done
right", §3): its rectifier is the gold items' difference of (human − λ · judge) differences.

This is the row form of ``ppi_py.ppi_mean_ci`` / ``ppi_mean_pointestimate`` /
``ppi_mean_pval`` with ``lam=None`` (tests: equal to them to 1e-10 on every row).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError, check_probability

__all__ = ["ppi_mean_estimates"]


def _rows(x, name: str) -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise InvalidInputError(f"{name} must be one row of per-item scores per estimate "
                                f"(shape (B, n_items)), got shape {arr.shape}.")
    return arr


def ppi_mean_estimates(gold, judge, *, alpha: float = 0.05, lam=None) -> dict[str, np.ndarray]:
    """PPI++ estimates and normal intervals of B means at once, beside the judge-only and the
    human-only (classical) ones.

    Parameters
    ----------
    gold : array_like, shape (B, n) or (n,)
        Human score of each item, NaN where the item has no human label (those items are the
        unlabelled sample of PPI: the two samples are disjoint, as in Angelopoulos et al.).
    judge : array_like, same shape
        The judge's score of every item (finite).
    alpha : float
        1 − level of the intervals.
    lam : None, float or array of shape (B,)
        None: power-tuned λ̂ per row (PPI++); 1: original PPI; 0: classical.

    Returns
    -------
    dict of str to ndarray of shape (B,)
        ``estimate``, ``standard_error``, ``low``, ``high``, ``pvalue`` (two-sided, of
        mean = 0: the paired difference's test), ``lam``; ``n_gold``, ``n_unlabelled``;
        ``judge_mean``, ``judge_se`` (every item's judge score: what the evaluation reports
        without people; biased when the judge is); ``classical_mean``, ``classical_se`` (the
        human labels alone); ``n_effective`` = n_gold · var_classical / var_PPI =
        var(Y) / SE², the number of human labels the classical mean would need for the
        PPI++ standard error (the "effective sample size" of Boyeau et al. 2025, §5).
        With no unlabelled item the estimate is the classical one (λ = 0); with a constant
        judge λ = 0 too (ppi-python returns NaN there).

    Raises
    ------
    InvalidInputError
        Shapes differ, non-finite judge scores, fewer than 2 labelled items in a row.

    Examples
    --------
    >>> gold = [1, 0, 1, 1, np.nan, np.nan, np.nan, np.nan]
    >>> judge = [1, 0, 1, 0, 1, 1, 0, 1]
    >>> out = ppi_mean_estimates(gold, judge, alpha=0.1)
    >>> round(float(out["lam"][0]), 4), round(float(out["estimate"][0]), 4)
    (0.2333, 0.8083)
    """
    check_probability(alpha, "alpha")
    y, f = _rows(gold, "gold"), _rows(judge, "judge")
    if y.shape != f.shape:
        raise InvalidInputError(f"gold and judge must have the same shape, got {y.shape} and "
                                f"{f.shape}.")
    if not np.isfinite(f).all():
        raise InvalidInputError("judge scores must be finite on every item.")
    lab = np.isfinite(y)
    n_l, n_u = lab.sum(axis=1), (~lab).sum(axis=1)
    if (n_l < 2).any():
        raise InvalidInputError("each estimate needs at least 2 items with a human label, "
                                f"got {int(n_l.min())}.")
    y0 = np.where(lab, y, 0.0)
    fl, fu = np.where(lab, f, 0.0), np.where(lab, 0.0, f)
    safe_u = np.maximum(n_u, 1)
    mean_y, mean_fl = y0.sum(1) / n_l, fl.sum(1) / n_l
    mean_fu = fu.sum(1) / safe_u
    if lam is None:
        cov = (lab * (y0 - mean_y[:, None]) * (fl - mean_fl[:, None])).sum(1) / n_l
        var_all = f.var(axis=1, ddof=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            lam_ = cov / ((1 + n_l / safe_u) * var_all)
        lam_ = np.where((var_all > 0) & (n_u > 0), np.clip(lam_, 0.0, 1.0), 0.0)
    else:
        lam_ = np.broadcast_to(np.asarray(lam, dtype=float), n_l.shape).copy()
        lam_[n_u == 0] = 0.0
    rect = y0 - lam_[:, None] * fl
    mean_r = (rect * lab).sum(1) / n_l
    var_r = (lab * (rect - mean_r[:, None]) ** 2).sum(1) / n_l
    var_fu = ((~lab) * (fu - mean_fu[:, None]) ** 2).sum(1) / safe_u
    estimate = lam_ * mean_fu + mean_r
    se = np.sqrt(lam_ ** 2 * var_fu / safe_u + var_r / n_l)
    z = stats.norm.ppf(1 - alpha / 2)
    var_y = (lab * (y0 - mean_y[:, None]) ** 2).sum(1) / n_l
    with np.errstate(divide="ignore", invalid="ignore"):
        zstat = estimate / np.maximum(se, 1e-16)
        n_eff = np.where(se > 0, var_y / se ** 2, np.nan)
    n_all = f.shape[1]
    return {"estimate": estimate, "standard_error": se, "low": estimate - z * se,
            "high": estimate + z * se, "pvalue": 2 * stats.norm.sf(np.abs(zstat)),
            "lam": lam_, "n_gold": n_l, "n_unlabelled": n_u,
            "judge_mean": f.mean(1), "judge_se": f.std(1) / np.sqrt(n_all),
            "classical_mean": mean_y, "classical_se": np.sqrt(var_y / n_l),
            "n_effective": n_eff}
