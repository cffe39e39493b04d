"""Bayesian paired t-test on per-example scores: posterior t_{N-1}(m, s^2 / N) (Williams eq. 6)."""
from __future__ import annotations

import numpy as np
from scipy import special

from .._validation import (DegenerateDataError, TooFewError, as_paired, check_threshold,
                           check_rope)
from ..results import BayesianResult
from ..stats._effect_size import cohens_d, effect_size_label
from ._correlated_ttest import _MATCHING, posterior_parameters_1d
from ._lazy import LazyFrozen
from ._rope import decide, student_regions_1d

__all__ = ["bayesian_ttest"]


def bayesian_ttest(a, b, *, rope=None, threshold: float = 0.95) -> BayesianResult:
    """Bayesian t-test of the mean paired difference d = a - b, with a ROPE.

    With d_j ~ N(Delta, sigma^2) independent and the non-informative prior
    p(Delta, sigma^2) proportional to 1 / sigma^2, the marginal posterior of Delta is Student t
    with N - 1 degrees of freedom, location m = mean(d) and scale s / sqrt(N), s the sample
    standard deviation (ddof = 1) (Williams 2026 eq. 6; Murphy 2012 §4.6). Its credible
    intervals are the paired t confidence intervals.

    Parameters
    ----------
    a, b : array_like, shape (N,)
        Paired per-example (or per-group) **scores, higher is better** (e.g. log probability
        of the true label) of models A and B. For losses, pass ``a = loss_b``,
        ``b = loss_a`` (or negated losses) so that a positive difference favours A.
    rope : float or (float, float), optional
        ROPE on Delta in the units of the scores; a number r means [-r, r], 0 means none.
        Default: [-0.1 s, 0.1 s], s = sd(d) (Williams 2026 §5.2, §6.1; Kruschke 2015).
    threshold : float
        Decision threshold theta of Williams (2026) §5.2.

    Returns
    -------
    BayesianResult
        ``a_better_side = "right"``: ``p_right`` = P(Delta > high) = P(A practically better).
        ``posterior`` is the frozen scipy Student t (built on first use); ``details`` holds
        ``n``, ``mean``, ``sd``,
        ``cohens_d`` = m / s with its ``effect_size_label``, and ``p_positive`` = P(Delta > 0)
        (one minus the one-sided p-value of the paired t-test for "A better").

    Raises
    ------
    InvalidInputError
        Unpaired lengths, NaN or non-numeric values, bad ROPE or threshold.
    TooFewError
        Fewer than 2 pairs.
    DegenerateDataError
        All differences are equal (s = 0): the posterior is a point mass and the model
        (normal differences with unknown variance) does not apply.

    References
    ----------
    Williams (2026) §5.3 eq. 6 and §6.1; Murphy (2012) §4.6; Kruschke (2015) for the ROPE.

    Examples
    --------
    >>> a = [0.71, 0.83, 0.64, 0.90, 0.77, 0.69, 0.81, 0.75]
    >>> b = [0.70, 0.80, 0.66, 0.85, 0.74, 0.70, 0.78, 0.71]
    >>> res = bayesian_ttest(a, b)
    >>> round(res.p_a_better, 3), round(res.p_equivalent, 3), res.decision
    (0.959, 0.023, 'A better')
    """
    x, y = as_paired(a, b)
    d = x - y
    n = d.size
    if n < 2:
        raise TooFewError(f"the Bayesian t-test needs at least 2 paired values, got {n}.")
    m = float(np.mean(d))
    s = float(np.std(d, ddof=1))
    # Rounding noise of equal differences is ~1e-16 of the inputs' magnitude.
    if s <= 1e-12 * max(np.max(np.abs(x)), np.max(np.abs(y))):
        raise DegenerateDataError(
            f"all {n} differences a - b are equal ({m:g}): their standard deviation is 0, so "
            "the t posterior is undefined. Check the inputs (identical models give all zeros).")
    check_threshold(threshold)
    bounds = (-0.1 * s, 0.1 * s) if rope is None else check_rope(rope)
    # Eq. 6 is the correlated t-test's Theorem 2 with rho = 0 under the matching prior.
    location, df, scale = posterior_parameters_1d(d, 0.0, _MATCHING)
    post = LazyFrozen("t", df=df, loc=location, scale=scale)
    p_left, p_rope, p_right = student_regions_1d(df, location, scale, bounds)
    # scipy.stats.t(df, location, scale).ppf([0.025, 0.975]) and .sf(0.0), unfrozen.
    lo, hi = special.stdtrit(df, np.array([0.025, 0.975])) * scale + location
    p_positive = float(special.stdtr(df, -((0.0 - location) / scale)))
    d_eff = cohens_d(x, y)
    details = {"n": n, "mean": m, "sd": s, "cohens_d": d_eff,
               "effect_size_label": effect_size_label(d_eff, "d"),
               "p_positive": p_positive, "df": n - 1,
               "rope_rule": "-+0.1 sd(d)" if rope is None else "user"}
    return BayesianResult(
        method="Bayesian paired t-test (Williams 2026 eq. 6)",
        parameter="mean difference A - B (scores, higher is better)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=bounds, a_better_side="right",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, a_better_side="right",
                                             threshold=threshold),
        posterior_mean=m, credible_interval_95=(float(lo), float(hi)), details=details,
        posterior=post)
