"""Rogan–Gladen correction of a rate judged by an imperfect 0/1 judge.

A judge that calls an answer correct with sensitivity Se (on answers people call correct)
and specificity Sp (on answers people call wrong) reports the rate p = Se·π + (1 − Sp)(1 − π)
for a true rate π, so (Rogan & Gladen 1978, "Estimating prevalence from the results of a
screening test", Am. J. Epidemiol. 107:71, eq. 1)

    π̂ = (p̂ + Sp − 1) / (Se + Sp − 1),

with Se and Sp estimated on the human-labelled items. Its delta-method variance, the three
estimates independent binomials (Rogan & Gladen 1978, the variance with Se and Sp estimated
from samples; restated as "the Rogan–Gladen variance estimate" by Lang & Reiczigel 2014,
"Confidence limits for prevalence of disease adjusted for estimated sensitivity and
specificity", Prev. Vet. Med. 113:13, Methods), is

    var(π̂) = [p̂(1 − p̂)/n + π̂² Se(1 − Se)/n₁ + (1 − π̂)² Sp(1 − Sp)/n₀] / (Se + Sp − 1)²,

n the items the judge alone scored (p̂ is their judged rate: the three samples disjoint, as
the variance assumes), n₁ and n₀ the labelled items people call right and wrong. The normal
(Wald) interval on it can fall short of its level with few labels; Lang & Reiczigel (2014)
add two successes and two failures to each proportion for that (not done here).
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import InvalidInputError, check_probability

__all__ = ["rogan_gladen_estimates"]


def rogan_gladen_estimates(gold, judge, *, alpha: float = 0.05) -> dict[str, np.ndarray]:
    """Rogan–Gladen corrected rates of B models at once, with delta-method intervals.

    Parameters
    ----------
    gold : array_like, shape (B, n) or (n,)
        Human 0/1 label of each item, NaN where there is none.
    judge : array_like, same shape
        The judge's 0/1 verdict on every item.
    alpha : float
        1 − level of the intervals.

    Returns
    -------
    dict of str to ndarray of shape (B,)
        ``estimate`` (clipped to [0, 1]), ``raw`` (unclipped), ``standard_error``, ``low``,
        ``high`` (clipped to [0, 1]), ``judge_rate`` p̂ (over the n unlabelled items),
        ``sensitivity``, ``specificity``, ``n_positive`` n₁, ``n_negative`` n₀. NaN
        where Se + Sp ≤ 1 (a judge no better than chance carries nothing to correct with)
        or where the labelled items hold no positive or no negative, or no item is
        unlabelled.

    Raises
    ------
    InvalidInputError
        Values other than 0/1 (and NaN in ``gold``), shapes that differ.

    Examples
    --------
    >>> gold = [1, 1, 1, 0, 0] + [np.nan] * 5
    >>> judge = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1]
    >>> out = rogan_gladen_estimates(gold, judge)
    >>> [round(float(out[k][0]), 4) for k in ("sensitivity", "specificity", "raw", "estimate")]
    [0.6667, 0.5, 1.8, 1.0]
    """
    check_probability(alpha, "alpha")
    y = np.asarray(gold, dtype=float)
    f = np.asarray(judge, dtype=float)
    y, f = (y[None, :], f[None, :]) if y.ndim == 1 else (y, f)
    if y.shape != f.shape or y.ndim != 2:
        raise InvalidInputError(f"gold and judge must both have shape (B, n_items), got "
                                f"{y.shape} and {f.shape}.")
    lab = np.isfinite(y)
    if not np.isin(f, (0.0, 1.0)).all() or not np.isin(y[lab], (0.0, 1.0)).all():
        raise InvalidInputError("the Rogan–Gladen correction needs 0/1 verdicts from the "
                                "judge and 0/1 human labels.")
    pos, neg = lab & (y == 1), lab & (y == 0)
    n1, n0, n = pos.sum(1), neg.sum(1), (~lab).sum(1)
    p = np.where(lab, 0.0, f).sum(1) / np.maximum(n, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        se_ = (pos & (f == 1)).sum(1) / n1
        sp_ = (neg & (f == 0)).sum(1) / n0
        j = se_ + sp_ - 1
        raw = (p + sp_ - 1) / j
        pi = np.clip(raw, 0.0, 1.0)
        var = (p * (1 - p) / n + pi ** 2 * se_ * (1 - se_) / n1
               + (1 - pi) ** 2 * sp_ * (1 - sp_) / n0) / j ** 2
    bad = ~(j > 0) | (n1 == 0) | (n0 == 0) | (n == 0)
    raw, pi, var = (np.where(bad, np.nan, v) for v in (raw, pi, var))
    sd = np.sqrt(var)
    z = stats.norm.ppf(1 - alpha / 2)
    return {"estimate": pi, "raw": raw, "standard_error": sd,
            "low": np.clip(raw - z * sd, 0.0, 1.0), "high": np.clip(raw + z * sd, 0.0, 1.0),
            "judge_rate": p, "sensitivity": se_, "specificity": sp_,
            "n_positive": n1, "n_negative": n0}
