"""Dunnett's many-to-one comparisons with a control, on blocked (paired) data.

Dunnett (1955), "A multiple comparison procedure for comparing several treatments with a
control", JASA 50, 1096–1121; Hsu (1996) ch. 3 and §7.1 (blocked designs: the error of the
two-way ANOVA). ``scipy.stats.dunnett`` covers independent samples; machine-learning models
are compared on the same items, folds or data sets, whose block effects the two-way ANOVA
removes: the result is that of R's ``multcomp::glht(aov(y ~ model + block),
linfct = mcp(model = "Dunnett"))``.

Statistics T_j = (ȳ_j − ȳ_c) / se_j, j ≠ c, with se_j = √(2 MSE / b) (blocked) or
√(MSE (1/n_j + 1/n_c)) (independent samples, pooled MSE); jointly multivariate t with ν
degrees of freedom and correlation λ_i λ_j, λ_j = √(n_j / (n_j + n_c)) (1/√2 when blocked).
The critical value and the single-step adjusted p-values come from
:mod:`._multivariate_t` (deterministic quadrature, error below 1e-8).
"""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import InvalidInputError, TooFewError, as_float_array, check_choice, \
    check_probability
from ..results import PairwiseResult
from ._blocked_means import blocked_means, model_names
from ._multivariate_t import max_t_quantile, max_t_sf

ALTERNATIVES = ("two-sided", "greater", "less")
DESIGNS = ("blocked", "independent")


def dunnett_paired(scores, *, control, alternative: str = "two-sided", alpha: float = 0.05,
                   names=None, higher_is_better: bool = True,
                   design: str = "blocked") -> PairwiseResult:
    """Compare every model with a control: simultaneous intervals and adjusted p-values.

    Parameters
    ----------
    scores : array_like, shape (b, k), or sequence of 1-D arrays
        ``design="blocked"``: one score per (block, model), rows are test items, folds or
        data sets, every cell present. ``design="independent"``: one 1-D sample per model
        (sizes may differ), as ``scipy.stats.dunnett`` takes them.
    control : str or int
        The control model: a name of ``names`` or a column index.
    alternative : {"two-sided", "greater", "less"}
        About μ_j − μ_control, in the metric's units (``"greater"``: the models' means are
        larger than the control's), as ``scipy.stats.dunnett``.
    alpha : float
        Family-wise level of the k − 1 comparisons; intervals at 1 − alpha.
    names : sequence of str, optional
    higher_is_better : bool
        Orients ``statistic`` (positive favours the row model) and nothing else.
    design : {"blocked", "independent"}

    Returns
    -------
    PairwiseResult
        k x k matrices filled in the control's row and column: ``statistic`` (t, positive
        favours the row model), ``pvalue`` (per comparison, Student's t), ``pvalue_adjusted``
        (single-step, multivariate t), ``reject``; ``details``: ``mean_difference`` (row −
        column), ``ci_low``/``ci_high`` (simultaneous 1 − alpha bounds of row − column, ±inf
        on the open side of a one-sided alternative), ``critical_value``, ``df``, ``mse``,
        ``means``, ``alternative``, ``design``, ``higher_is_better``.

    Raises
    ------
    InvalidInputError
        A control that is not one of the models; missing cells of a blocked table (the
        message names the procedures of incomplete tables); a bad alternative or design.
    TooFewError
        Fewer than 2 models, or too few blocks / observations for the error variance.
    DegenerateDataError
        Zero residual variance.

    Examples
    --------
    Four models on five data sets (blocks), model "a" the control; R's
    ``confint(glht(aov(y ~ model + block), linfct = mcp(model = "Dunnett")))`` gives
    b − a: [−0.6247, 2.3447] and the adjusted p-value 0.3199:

    >>> y = np.array([10.2, 11.1, 9.8, 12.0, 10.9, 11.7, 9.5, 10.1, 11.3, 12.4, 10.8, 11.9,
    ...               10.0, 10.7, 11.6, 12.8, 11.4, 12.2, 9.9, 10.4]).reshape(5, 4)
    >>> res = dunnett_paired(y, control="a", names="abcd")
    >>> res.details["ci_low"][1, 0].round(4), res.details["ci_high"][1, 0].round(4)
    (np.float64(-0.6247), np.float64(2.3447))
    >>> round(float(res.pvalue_adjusted[1, 0]), 4)
    0.3199
    """
    check_probability(alpha, "alpha")
    check_choice(alternative, "alternative", ALTERNATIVES)
    check_choice(design, "design", DESIGNS)
    if design == "blocked":
        fit = blocked_means(scores, procedure="Dunnett's test", min_models=2)
        means, mse, df = fit.means, fit.mse, fit.df
        k = means.size
        sizes = np.full(k, float(fit.n_blocks))
        lam = np.full(k - 1, np.sqrt(0.5))
    else:
        means, mse, df, sizes = _independent(scores)
        k = means.size
    names = model_names(names, k)
    c = _control_index(control, names)
    others = np.delete(np.arange(k), c)
    if design == "independent":
        lam = np.sqrt(sizes[others] / (sizes[others] + sizes[c]))
    if design == "blocked":
        se = np.full(k - 1, np.sqrt(2.0 * mse / sizes[0]))
    else:
        se = np.sqrt(mse * (1.0 / sizes[others] + 1.0 / sizes[c]))
    diff = means[others] - means[c]
    t = diff / se
    two = alternative == "two-sided"
    crit = max_t_quantile(1.0 - alpha, lam, df, two_sided=two)
    oriented = t if alternative != "less" else -t
    p_adj = max_t_sf(np.abs(t) if two else oriented, lam, df, two_sided=two)
    tail = special.stdtr(df, -np.abs(t)) if np.isfinite(df) else special.ndtr(-np.abs(t))
    p_raw = 2.0 * tail if two else (special.stdtr(df, -oriented) if np.isfinite(df)
                                    else special.ndtr(-oriented))
    low = np.where(alternative == "less", -np.inf, diff - crit * se)
    high = np.where(alternative == "greater", np.inf, diff + crit * se)

    def matrix(fill=np.nan):
        return np.full((k, k), fill, dtype=float)

    stat, p, padj, md, lo, hi = (matrix() for _ in range(6))
    sign = 1.0 if higher_is_better else -1.0
    stat[others, c], stat[c, others] = sign * t, -sign * t
    p[others, c] = p[c, others] = p_raw
    padj[others, c] = padj[c, others] = p_adj
    md[others, c], md[c, others] = diff, -diff
    lo[others, c], hi[others, c] = low, high
    lo[c, others], hi[c, others] = -high, -low
    reject = np.zeros((k, k), dtype=bool)
    reject[others, c] = reject[c, others] = p_adj < alpha
    return PairwiseResult(
        method=f"Dunnett's test ({design})", names=names, statistic=stat, pvalue=p,
        pvalue_adjusted=padj, reject=reject, alpha=float(alpha), adjustment="dunnett",
        control=names[c],
        details={"mean_difference": md, "ci_low": lo, "ci_high": hi,
                 "critical_value": float(crit), "df": float(df), "mse": float(mse),
                 "means": means, "alternative": alternative, "design": design,
                 "higher_is_better": bool(higher_is_better)})


def _independent(samples):
    """Means, pooled MSE, its df and the sizes of k independent samples."""
    if isinstance(samples, np.ndarray) and samples.ndim == 2:
        samples = list(samples.T)
    try:
        arrays = [as_float_array(s, f"sample {i}", ndim=1) for i, s in enumerate(samples)]
    except TypeError:
        raise InvalidInputError("design='independent' takes a sequence of 1-D samples, one "
                                "per model.") from None
    if len(arrays) < 2:
        raise TooFewError(f"Dunnett's test needs at least 2 models, got {len(arrays)}.")
    sizes = np.array([a.size for a in arrays], dtype=float)
    if np.any(sizes < 1) or sizes.sum() - len(arrays) < 1:
        raise TooFewError("Dunnett's test on independent samples needs at least one "
                          "observation per model and more observations than models.")
    means = np.array([a.mean() for a in arrays])
    df = float(sizes.sum() - len(arrays))
    mse = float(sum(np.sum((a - a.mean()) ** 2) for a in arrays) / df)
    if not mse > 0:
        from .._validation import DegenerateDataError
        raise DegenerateDataError("Dunnett's test: every sample is constant (zero pooled "
                                  "variance); the comparisons have no sampling variability.")
    return means, mse, df, sizes


def _control_index(control, names) -> int:
    if isinstance(control, (int, np.integer)) and not isinstance(control, bool):
        if 0 <= control < len(names):
            return int(control)
    elif str(control) in names:
        return names.index(str(control))
    raise InvalidInputError(f"control {control!r} is not one of the models {list(names)}.")
