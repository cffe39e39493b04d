"""Agreement between raters (a judge and people, several judges): Cohen's and Fleiss' κ,
Gwet's AC1 and Krippendorff's α, each with a percentile bootstrap interval over items.

Every coefficient is written as sums over items, so one matrix product with the bootstrap's
count weights (resamples × items; row 0 all ones: the estimate itself) gives the estimate
and every resample at once:

- Cohen (1960) κ of two raters, optionally weighted (Cohen 1968; linear or quadratic
  disagreement weights on the categories' positions, as ``statsmodels.stats.inter_rater.
  cohens_kappa(table, wt=...)``); items missing either rating are left out;
- Fleiss (1971) κ of m raters (items rated by fewer are left out), as
  ``statsmodels.stats.inter_rater.fleiss_kappa(table, method="fleiss")``;
- Gwet (2008, "Computing inter-rater reliability and its variance in the presence of high
  agreement", Br. J. Math. Stat. Psychol. 61:29, eq. 17–18; multi-rater form with missing
  ratings of Gwet 2014, Handbook, §4, as ``irrCAC::gwet.ac1.raw``) AC1: the chance agreement
  is Σ_k π_k(1 − π_k)/(q − 1), π_k the mean over items of the share of ratings in k;
- Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's alpha-reliability", §C–E;
  as the ``krippendorff`` package): 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck from the
  coincidence matrix o of the units with two or more values, any number of raters and
  missing values; δ² nominal, ordinal, interval or ratio.

The bootstrap resamples items (units) with replacement (the unit of the evaluation), not
Krippendorff's own resampling of pairable values.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError, check_choice, check_probability, check_random_state
from ..results._judges import Agreement

__all__ = ["cohen_kappa", "fleiss_kappa", "gwet_ac1", "krippendorff_alpha"]

#: largest resamples × items weight block held at once (float64: 32 MB)
_BLOCK = 4_000_000


def _ratings(ratings, min_raters: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(codes (n, r) of category positions, -1 for missing; the sorted category values)."""
    arr = np.asarray(ratings)
    if arr.ndim != 2 or arr.shape[1] < min_raters:
        raise InvalidInputError(f"ratings must be a table of items × raters (at least "
                                f"{min_raters} raters), got shape {arr.shape}.")
    if arr.dtype.kind not in "biuf":
        raise InvalidInputError("ratings must be numeric category codes or scores (NaN for a "
                                "missing rating); map text labels to numbers first.")
    arr = arr.astype(float)
    if np.isinf(arr).any():
        raise InvalidInputError("ratings contain infinite values.")
    seen = np.isfinite(arr)
    values = np.unique(arr[seen])
    if values.size < 1:
        raise InvalidInputError("ratings hold no value.")
    codes = np.where(seen, np.searchsorted(values, np.where(seen, arr, values[0])), -1)
    return codes, values


def _counts(codes: np.ndarray, q: int) -> np.ndarray:
    """(n, q): how many raters put each item in each category."""
    n = codes.shape[0]
    if n * q > 4 * _BLOCK:
        raise InvalidInputError(
            f"{q} distinct values over {n} items: too many categories for a categorical "
            "coefficient (scores, not categories?); use krippendorff_alpha(..., "
            "level='interval') or round the values to a few categories.")
    rows = np.repeat(np.arange(n), codes.shape[1])
    flat = codes.ravel()
    keep = flat >= 0
    return np.bincount(rows[keep] * q + flat[keep], minlength=n * q).reshape(n, q).astype(float)


def _resampled(per_item: np.ndarray, n_resamples: int, rng) -> np.ndarray:
    """Σ over items of ``per_item`` (n, k) weighted by bootstrap counts: (1 + R, k), row 0
    the plain sum (the estimate), rows 1.. the resamples."""
    n = per_item.shape[0]
    out = [per_item.sum(0, keepdims=True)]
    step = max(1, _BLOCK // max(n, 1))
    for start in range(0, n_resamples, step):
        r = min(step, n_resamples - start)
        idx = rng.integers(0, n, size=(r, n))
        w = np.bincount((np.arange(r)[:, None] * n + idx).ravel(),
                        minlength=r * n).reshape(r, n)
        out.append(w @ per_item)
    return np.concatenate(out)


def _result(name, method, values, *, alpha, n_items, n_raters, n_resamples, details=None):
    est = float(values[0])
    boot = values[1:]
    boot = boot[np.isfinite(boot)]
    lo, hi = ((float(np.quantile(boot, alpha / 2)), float(np.quantile(boot, 1 - alpha / 2)))
              if boot.size else (np.nan, np.nan))
    return Agreement(statistic=name, method=method, estimate=est, low=lo, high=hi, alpha=alpha,
                     n_items=int(n_items), n_raters=int(n_raters), n_resamples=n_resamples,
                     details=details or {})


def _check(alpha, n_resamples, random_state):
    check_probability(alpha, "alpha")
    if int(n_resamples) != n_resamples or n_resamples < 0:
        raise InvalidInputError(f"n_resamples must be a whole number ≥ 0, got {n_resamples}.")
    return check_random_state(random_state)


def _ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore"):
        return num / den


def cohen_kappa(a, b, *, weights: str | None = None, alpha: float = 0.05,
                n_resamples: int = 2000, random_state=0) -> Agreement:
    """Cohen's κ of two raters' ratings of the same items, with a bootstrap interval.

    Parameters
    ----------
    a, b : array_like, shape (n_items,)
        Numeric category codes; NaN marks a missing rating (the item is left out).
    weights : {None, "linear", "quadratic"}
        Disagreement weights |i − j| or (i − j)² on the categories' positions among the
        values seen (Cohen 1968); None: unweighted.
    alpha, n_resamples, random_state
        Percentile bootstrap over items: 1 − level, resamples (0: none), seed.

    Returns
    -------
    Agreement
        ``estimate`` κ (1 perfect, 0 chance), ``low``/``high`` the interval; ``details``
        ``observed`` and ``expected`` agreement.

    Examples
    --------
    >>> res = cohen_kappa([1, 1, 0, 0, 1, 0], [1, 1, 0, 1, 1, 0], n_resamples=0)
    >>> round(res.estimate, 4)                      # (5/6 − 1/2) / (1 − 1/2)
    0.6667
    """
    rng = _check(alpha, n_resamples, random_state)
    check_choice(weights, "weights", (None, "linear", "quadratic"))
    codes, values = _ratings(np.column_stack([np.asarray(a, float), np.asarray(b, float)]))
    codes = codes[(codes >= 0).all(1)]
    if codes.shape[0] < 2:
        raise InvalidInputError("Cohen's κ needs at least 2 items rated by both raters.")
    q = values.size
    pos = np.arange(q)
    dist = {None: (pos[:, None] != pos[None, :]).astype(float),
            "linear": np.abs(pos[:, None] - pos[None, :]).astype(float),
            "quadratic": ((pos[:, None] - pos[None, :]) ** 2).astype(float)}[weights]
    n = codes.shape[0]
    eye = np.eye(q)
    # per item: its disagreement weight, and the two raters' categories (one-hot): the
    # observed disagreement and both marginals are sums over items
    per_item = np.column_stack([dist[codes[:, 0], codes[:, 1]], eye[codes[:, 0]],
                                eye[codes[:, 1]]])
    sums = _resampled(per_item, n_resamples, rng) / n
    observed, pa, pb = sums[:, 0], sums[:, 1:q + 1], sums[:, q + 1:]
    expected = np.einsum("rk,kl,rl->r", pa, dist, pb)
    kappa = 1 - _ratio(observed, expected)
    scale = max(float(dist.max()), 1.0)
    return _result("cohen_kappa", "Cohen's κ" + (f" ({weights} weights)" if weights else ""),
                   kappa, alpha=alpha, n_items=codes.shape[0], n_raters=2,
                   n_resamples=n_resamples,
                   details={"observed_agreement": float(1 - observed[0] / scale),
                            "expected_agreement": float(1 - expected[0] / scale)})


def fleiss_kappa(ratings, *, alpha: float = 0.05, n_resamples: int = 2000,
                 random_state=0) -> Agreement:
    """Fleiss' κ of m raters per item, with a bootstrap interval over items.

    Parameters
    ----------
    ratings : array_like, shape (n_items, n_raters)
        Numeric category codes, NaN for missing: items with a missing rating are left out
        (Fleiss' κ needs the same number of ratings per item).

    Returns
    -------
    Agreement

    Examples
    --------
    >>> res = fleiss_kappa([[1, 1, 1], [0, 0, 0], [1, 0, 1], [0, 0, 1]], n_resamples=0)
    >>> round(res.estimate, 4)
    0.3333
    """
    rng = _check(alpha, n_resamples, random_state)
    codes, values = _ratings(ratings)
    codes = codes[(codes >= 0).all(1)]
    n, m = codes.shape
    if n < 2:
        raise InvalidInputError("Fleiss' κ needs at least 2 items rated by every rater.")
    counts = _counts(codes, values.size)
    p_item = ((counts ** 2).sum(1) - m) / (m * (m - 1))
    sums = _resampled(np.column_stack([p_item, counts]), n_resamples, rng)
    p_bar = sums[:, 0] / n
    p_cat = sums[:, 1:] / (n * m)
    p_e = (p_cat ** 2).sum(1)
    return _result("fleiss_kappa", "Fleiss' κ", _ratio(p_bar - p_e, 1 - p_e), alpha=alpha,
                   n_items=n, n_raters=m, n_resamples=n_resamples)


def gwet_ac1(ratings, *, alpha: float = 0.05, n_resamples: int = 2000,
             random_state=0) -> Agreement:
    """Gwet's AC1 of two or more raters (missing ratings allowed), with a bootstrap interval.

    Parameters
    ----------
    ratings : array_like, shape (n_items, n_raters)
        Numeric category codes, NaN for missing. The agreement is averaged over the items
        with two ratings or more; the category shares π_k over the items with one or more.

    Returns
    -------
    Agreement
        ``details``: ``observed_agreement`` p_a and ``chance_agreement`` p_e.

    Examples
    --------
    >>> res = gwet_ac1([[1, 1], [1, 1], [0, 0], [1, 0]], n_resamples=0)
    >>> round(res.estimate, 4)    # p_a = 0.75, π = (3/8, 5/8), p_e = 2 · 15/64 / (2 − 1)
    0.5294
    """
    rng = _check(alpha, n_resamples, random_state)
    codes, values = _ratings(ratings)
    q = values.size
    if q < 2:
        raise InvalidInputError("Gwet's AC1 needs at least two categories among the ratings.")
    counts = _counts(codes, q)
    r = counts.sum(1)
    rated, paired = r >= 1, r >= 2
    if paired.sum() < 1:
        raise InvalidInputError("Gwet's AC1 needs items with at least 2 ratings.")
    safe = np.maximum(r, 2)
    agree = np.where(paired, (counts * (counts - 1)).sum(1) / (safe * (safe - 1)), 0.0)
    share = np.where(rated[:, None], counts / np.maximum(r, 1)[:, None], 0.0)
    sums = _resampled(np.column_stack([agree, paired, rated, share]), n_resamples, rng)
    pa = _ratio(sums[:, 0], sums[:, 1])
    pi = sums[:, 3:] / sums[:, 2:3]
    pe = (pi * (1 - pi)).sum(1) / (q - 1)
    return _result("gwet_ac1", "Gwet's AC1", _ratio(pa - pe, 1 - pe), alpha=alpha,
                   n_items=int(paired.sum()), n_raters=codes.shape[1],
                   n_resamples=n_resamples,
                   details={"observed_agreement": float(pa[0]),
                            "chance_agreement": float(pe[0])})


LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _delta2(level: str, values: np.ndarray, n_c: np.ndarray) -> np.ndarray:
    """δ² of Krippendorff (2011, §E): (q, q), or (R, q, q) for ordinal (it depends on the
    marginal counts n_c of each replicate)."""
    v = values
    if level == "nominal":
        return (v[:, None] != v[None, :]).astype(float)
    if level == "interval":
        return (v[:, None] - v[None, :]) ** 2
    if level == "ratio":
        with np.errstate(divide="ignore", invalid="ignore"):
            d = ((v[:, None] - v[None, :]) / (v[:, None] + v[None, :])) ** 2
        return np.nan_to_num(d)
    cum = np.cumsum(n_c, axis=1)
    lo = np.minimum.outer(np.arange(v.size), np.arange(v.size))
    hi = np.maximum.outer(np.arange(v.size), np.arange(v.size))
    between = cum[:, hi] - cum[:, lo] + n_c[:, lo]         # Σ n_g for g from c to k
    return (between - (n_c[:, :, None] + n_c[:, None, :]) / 2) ** 2


def _alpha_by_sums(level, counts, m, n_resamples, rng):
    """Nominal and interval α from per-unit sums (no q × q coincidence matrix per unit):

    nominal: Σ o_ck δ² = Σ_u (m_u² − Σ_c n_uc²)/(m_u − 1), Σ n_c n_k δ² = n² − Σ n_c²;
    interval: Σ o_ck δ² = Σ_u (2 m_u Σv² − 2 (Σv)²)/(m_u − 1), Σ n_c n_k δ² = 2 n S₂ − 2 S₁²
    (S₁, S₂ the sums of the pairable values and of their squares)."""
    if level == "nominal":
        disagree = (m ** 2 - (counts ** 2).sum(1)) / (m - 1)
        sums = _resampled(np.column_stack([disagree, counts]), n_resamples, rng)
        n_c = sums[:, 1:]
        n = n_c.sum(1)
        expected = n ** 2 - (n_c ** 2).sum(1)
    else:                                  # ``counts`` holds per unit (m, Σv, Σv²)
        s1, s2 = counts[:, 1], counts[:, 2]
        disagree = (2 * m * s2 - 2 * s1 ** 2) / (m - 1)
        sums = _resampled(np.column_stack([disagree, m, s1, s2]), n_resamples, rng)
        n = sums[:, 1]
        expected = 2 * n * sums[:, 3] - 2 * sums[:, 2] ** 2
    return 1 - (n - 1) * _ratio(sums[:, 0], expected), n


def krippendorff_alpha(ratings, *, level: str = "nominal", alpha: float = 0.05,
                       n_resamples: int = 2000, random_state=0) -> Agreement:
    """Krippendorff's α of any number of raters with missing values, bootstrap interval over
    units (items).

    Parameters
    ----------
    ratings : array_like, shape (n_units, n_raters)
        Numeric values, NaN for missing (units with fewer than two values are not pairable
        and left out, as Krippendorff does). Note the orientation: the ``krippendorff``
        package takes raters × units.
    level : {"nominal", "ordinal", "interval", "ratio"}
        Level of measurement: the difference function δ² of Krippendorff (2011, §E).

    Returns
    -------
    Agreement
        ``details["pairable_values"]``: n, the values in pairable units.

    Examples
    --------
    Krippendorff's (2011) example C: 4 observers, 12 units, missing values; α = 0.743.

    >>> nan = float("nan")
    >>> data = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...         [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...         [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...         [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> round(krippendorff_alpha(np.transpose(data), n_resamples=0).estimate, 3)
    0.743
    """
    rng = _check(alpha, n_resamples, random_state)
    check_choice(level, "level", LEVELS)
    codes, values = _ratings(ratings)
    if level == "ratio" and (values < 0).any():
        raise InvalidInputError("the ratio level of measurement needs values ≥ 0.")
    q = values.size
    if level == "interval":                        # from the values' sums: no categories
        v = np.where(codes >= 0, values[np.maximum(codes, 0)], 0.0)
        m = (codes >= 0).sum(1).astype(float)
        keep = m >= 2
        if keep.sum() < 1:
            raise InvalidInputError("Krippendorff's α needs a unit with at least 2 values.")
        sums = np.column_stack([m, v.sum(1), (v ** 2).sum(1)])[keep]
        a, n = _alpha_by_sums(level, sums, sums[:, 0], n_resamples, rng)
        return _result("krippendorff_alpha", f"Krippendorff's α ({level})", a, alpha=alpha,
                       n_items=int(keep.sum()), n_raters=codes.shape[1],
                       n_resamples=n_resamples,
                       details={"level": level, "pairable_values": float(n[0])})
    counts = _counts(codes, q)
    m = counts.sum(1)
    keep = m >= 2
    if keep.sum() < 1:
        raise InvalidInputError("Krippendorff's α needs a unit with at least 2 values.")
    counts, m = counts[keep], m[keep]
    if level == "nominal":
        a, n = _alpha_by_sums(level, counts, m, n_resamples, rng)
    else:
        if q * q * keep.sum() > _BLOCK * 4:
            raise InvalidInputError(
                f"{q} distinct values in {int(keep.sum())} units: the {level} level's "
                f"coincidence matrices would take {q * q * int(keep.sum()) * 8 / 1e9:.1f} GB; "
                "round the values to fewer categories, or use level='interval'.")
        coinc = (counts[:, :, None] * counts[:, None, :]
                 - counts[:, :, None] * np.eye(q)[None]) / (m - 1)[:, None, None]
        o = _resampled(coinc.reshape(-1, q * q), n_resamples, rng).reshape(-1, q, q)
        n_c = o.sum(2)
        n = n_c.sum(1)
        d2 = _delta2(level, values, n_c)
        observed = (o * d2).sum((1, 2)) if d2.ndim == 3 else np.einsum("rck,ck->r", o, d2)
        expected = (n_c[:, :, None] * n_c[:, None, :] * d2).sum((1, 2))
        a = 1 - (n - 1) * _ratio(observed, expected)
    return _result("krippendorff_alpha", f"Krippendorff's α ({level})", a, alpha=alpha,
                   n_items=int(keep.sum()), n_raters=codes.shape[1], n_resamples=n_resamples,
                   details={"level": level, "pairable_values": float(n[0])})
