"""Power of t-tests: paired t on examples or data sets (with a design effect for clusters),
Wilcoxon signed-rank by its asymptotic relative efficiency, and the corrected resampled
t-test of Nadeau & Bengio (2003) over r runs of k-fold cross-validation.

The noncentral t power is statsmodels' :class:`~statsmodels.stats.power.TTestPower` (it
adds both tails for a two-sided test, like R's ``pwr.t.test``); this module only maps each
design onto its effective number of pairs and its noncentrality.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from statsmodels.stats.power import NormalIndPower, TTestPower

from .._validation import InvalidInputError, check_choice
from ._result import PowerAnalysis
from ._solve import check_inputs, solve_plan

__all__ = ["paired_ttest_power", "wilcoxon_power", "corrected_ttest_power",
           "corrected_ttest_table", "design_effect", "WILCOXON_ARE"]

_SM_ALTERNATIVE = {"two-sided": "two-sided", "greater": "larger"}

#: Asymptotic relative efficiency of the Wilcoxon signed-rank test to the t-test for a shift
#: of a symmetric distribution of differences (Hodges & Lehmann 1956; Lehmann 1975, §5.4).
WILCOXON_ARE = {"normal": 3 / math.pi, "logistic": math.pi ** 2 / 9, "laplace": 1.5,
                "uniform": 1.0}


def _t_power(d, nobs, alpha, alternative):
    """Noncentral t power of a one-sample t-test of n pairs at standardised effect d."""
    return float(TTestPower().power(effect_size=abs(d), nobs=nobs, alpha=alpha,
                                    alternative=_SM_ALTERNATIVE[alternative]))


def design_effect(cluster_size: float = 1, icc: float = 0.0) -> float:
    """Kish's design effect 1 + (m - 1) ICC of clusters of m correlated items.

    A test set of n items in clusters of m (e.g. several questions about one passage) carries
    the information of n / design_effect independent items.

    Raises
    ------
    InvalidInputError
        ICC outside [0, 1] or cluster size below 1.

    Examples
    --------
    >>> design_effect(5, 0.1)
    1.4
    """
    m, rho = float(cluster_size), float(icc)
    if not 0 <= rho <= 1 or math.isnan(rho):
        raise InvalidInputError(
            f"icc must lie in [0, 1] (the share of the variance of an item's score that its "
            f"cluster explains), got {icc!r}; use 0 for independent items.")
    if not m >= 1:
        raise InvalidInputError(f"cluster_size must be at least 1 item, got {cluster_size!r}.")
    return 1.0 + (m - 1.0) * rho


def paired_ttest_power(*, effect=None, n=None, power=None, alpha=0.05,
                       alternative="two-sided", cluster_size=1, icc=0.0,
                       n_unit="pairs") -> PowerAnalysis:
    """Power, sample size, minimum detectable effect or alpha of the paired t-test.

    Give all of ``effect``, ``n``, ``power`` and ``alpha`` but one (None); it is solved for.

    Parameters
    ----------
    effect : float, optional
        Cohen's d_z: the true mean of the paired differences (A - B, positive when A is
        better) divided by their standard deviation.
    n : float, optional
        Number of pairs: test examples (Q1) or data sets (Q3).
    power : float, optional
        Probability of rejecting H0 at ``alpha`` when the effect is ``effect``.
    alpha : float, optional
        Significance level.
    alternative : {"two-sided", "greater"}
        ``"greater"``: one-sided, A better.
    cluster_size, icc : float
        Items come in clusters of ``cluster_size`` with intra-class correlation ``icc`` of
        the differences: n items count as n / (1 + (m - 1) icc) independent pairs (Kish's
        design effect; the t-test's degrees of freedom follow the effective n, an
        approximation for clustered items).
    n_unit : str
        What n counts, for the messages and the result.

    Returns
    -------
    PowerAnalysis
        ``details["design_effect"]`` and ``details["n_effective"]``.

    Raises
    ------
    InvalidInputError
        Not exactly one of the four missing, power <= alpha, effect 0, ICC outside [0, 1],
        fewer than 2 effective pairs.

    References
    ----------
    Cohen (1988) ch. 2; statsmodels ``TTestPower``; R ``pwr::pwr.t.test(type="paired")``.

    Examples
    --------
    >>> round(paired_ttest_power(effect=0.5, power=0.8).n)
    34
    """
    deff = design_effect(cluster_size, icc)
    res = solve_plan(lambda n_, e, a: _t_power(e, n_ / deff, a, alternative),
                test="paired t-test", method="noncentral t (statsmodels TTestPower)",
                power=power, n=n, effect=effect, alpha=alpha, alternative=alternative,
                n_min=2 * deff, n_unit=n_unit, effect_name="Cohen's d_z",
                details={"design_effect": deff, "cluster_size": float(cluster_size),
                         "icc": float(icc)})
    res.details["n_effective"] = res.n / deff
    return res


def wilcoxon_power(*, effect=None, n=None, power=None, alpha=0.05, alternative="two-sided",
                   distribution="normal", n_unit="pairs") -> PowerAnalysis:
    """Approximate power of the Wilcoxon signed-rank test by its asymptotic relative efficiency.

    The signed-rank test on n pairs is taken to have the power of the paired t-test on
    ARE x n pairs, with ARE the Pitman efficiency for a shift of ``distribution``
    (:data:`WILCOXON_ARE`: 3/pi = 0.955 for normal differences). An approximation, labelled as
    such; check it by simulation for small n or ties (``outperform.simulate.power``).

    Parameters
    ----------
    effect : float, optional
        Shift of the differences divided by their standard deviation (A better when > 0).
    n, power, alpha, alternative, n_unit
        As in :func:`paired_ttest_power`.
    distribution : {"normal", "logistic", "laplace", "uniform"}
        Shape of the distribution of the differences.

    Returns
    -------
    PowerAnalysis
        With ``approximation`` set and ``details["are"]``.

    Raises
    ------
    InvalidInputError
        As :func:`paired_ttest_power`, or an unknown distribution.

    References
    ----------
    Hodges & Lehmann (1956); Lehmann (1975) Nonparametrics, §5.4; Noether (1987).
    """
    check_choice(distribution, "distribution", tuple(WILCOXON_ARE))
    are = WILCOXON_ARE[distribution]
    return solve_plan(lambda n_, e, a: _t_power(e, n_ * are, a, alternative),
                 test="Wilcoxon signed-rank test",
                 method=f"paired t-test power at ARE x n (ARE = {are:.4f}, {distribution})",
                 power=power, n=n, effect=effect, alpha=alpha, alternative=alternative,
                 n_min=2 / are, n_unit=n_unit, effect_name="shift / sd of the differences",
                 approximation="Wilcoxon power from the asymptotic relative efficiency: a "
                               "large-sample approximation, not an exact calculation.",
                 details={"are": are, "distribution": distribution})


def _check_rho(rho, folds):
    if rho is None:
        return 1.0 / folds
    rho = float(rho)
    if not 0 < rho < 1:
        raise InvalidInputError(f"rho = n_test / (n_train + n_test) must lie in (0, 1), got "
                                f"{rho!r}.")
    return rho


def _corrected_power(d, runs, folds, rho, alpha, alternative):
    """Power of the corrected resampled t-test on J = runs x folds fold differences.

    With exchangeable differences of correlation rho the statistic is exactly noncentral t
    with J - 1 df and noncentrality d / sqrt(rho + (1 - rho) / J); in statsmodels' terms an
    effect d / sqrt(J rho + 1 - rho) on J observations.
    """
    j = runs * folds
    return _t_power(d / math.sqrt(j * rho + 1 - rho), j, alpha, alternative)


def _power_ceiling(d, rho, alpha, alternative):
    """Limit of the corrected t-test's power as r -> infinity (noncentrality d / sqrt(rho))."""
    return float(NormalIndPower().power(effect_size=abs(d) / math.sqrt(rho), nobs1=1,
                                        alpha=alpha, ratio=0,
                                        alternative=_SM_ALTERNATIVE[alternative]))


def corrected_ttest_power(*, effect=None, runs=None, folds=10, rho=None, power=None, alpha=0.05,
                          alternative="two-sided") -> PowerAnalysis:
    """Power, runs, minimum detectable effect or alpha of the corrected resampled t-test.

    Nadeau & Bengio's (2003) test on the J = r x k differences of r runs of k-fold
    cross-validation (or r x k random splits) divides by sqrt((1/J + rho/(1 - rho)) s^2).
    When the differences are normal with a common correlation rho (the model behind the
    correction, rho = n_test / n_total), the statistic is exactly noncentral t with J - 1
    degrees of freedom and noncentrality d / sqrt(rho + (1 - rho) / J). The noncentrality
    tends to d / sqrt(rho) as r grows: power has a ceiling that more runs cannot pass, only a
    larger effect or more independent data.

    Parameters
    ----------
    effect : float, optional
        d: the true mean difference of one fold (A - B, positive when A is better) divided by
        the standard deviation of one fold's difference.
    runs : int, optional
        r, repetitions of the cross-validation; solved for (the smallest whole r) when None.
    folds : int
        k (>= 2).
    rho : float, optional
        Correlation of the fold differences, n_test / n_total; default 1/k (k-fold CV).
    power, alpha, alternative
        As in :func:`paired_ttest_power`.

    Returns
    -------
    PowerAnalysis
        ``n`` = r (unit "runs"), ``details`` with ``folds``, ``rho``, ``n_differences`` and
        ``power_ceiling`` (the limit as r grows).

    Raises
    ------
    InvalidInputError
        As :func:`paired_ttest_power`; folds < 2; rho outside (0, 1); a power above the
        ceiling when solving for r.

    References
    ----------
    Nadeau & Bengio (2003) Machine Learning 52; Bouckaert & Frank (2004); Williams (2026) §5.
    """
    if isinstance(folds, bool) or int(folds) != folds or folds < 2:
        raise InvalidInputError(f"folds must be a whole number >= 2, got {folds!r}.")
    folds = int(folds)
    rho = _check_rho(rho, folds)
    missing = check_inputs(power=power, n=runs, effect=effect, alpha=alpha,
                           alternative=alternative, n_min=1, n_unit="runs", effect_name="d")
    if missing == "n":
        ceiling = _power_ceiling(effect, rho, alpha, alternative)
        if ceiling < power:
            raise InvalidInputError(
                f"with k = {folds} and rho = {rho:g} the corrected t-test cannot reach power "
                f"{power:g} at d = {effect:g} however many runs: its power tends to "
                f"{ceiling:.3f} (noncentrality d / sqrt(rho)). Plan for a larger effect, a "
                "smaller rho (a larger training set share), or more data.")
        r = np.arange(1, 10**4)
        pw = TTestPower().power(effect_size=abs(effect) / np.sqrt(r * folds * rho + 1 - rho),
                                nobs=r * folds, alpha=alpha,
                                alternative=_SM_ALTERNATIVE[alternative])
        hit = np.flatnonzero(pw >= power)
        if not hit.size:
            raise InvalidInputError(f"more than 10,000 runs are needed for power {power:g}; "
                                    "plan for a larger effect.")
        runs = int(r[hit[0]])
    if isinstance(runs, bool) or int(runs) != runs:
        raise InvalidInputError(f"runs must be a whole number >= 1, got {runs!r}.")
    res = solve_plan(lambda r_, e, a: _corrected_power(e, r_, folds, rho, a, alternative),
                test="corrected resampled t-test", method="noncentral t, Nadeau & Bengio (2003)",
                power=None if missing == "n" else power, n=int(runs), effect=effect,
                alpha=alpha, alternative=alternative, n_min=1, n_unit="runs", effect_name="d",
                details={"folds": folds, "rho": rho, "n_differences": int(runs) * folds})
    res.details["power_ceiling"] = _power_ceiling(res.effect, rho, res.alpha, alternative)
    return replace(res, solved_for=missing)


def corrected_ttest_table(*, effect=None, power=None, runs=(1, 2, 3, 5, 10), folds=(2, 5, 10),
                          rho=None, alpha=0.05, alternative="two-sided"):
    """The r x k table of the corrected resampled t-test: power at ``effect``, or the minimum
    detectable effect d at ``power`` (give exactly one of them).

    Parameters
    ----------
    effect, power : float, optional
    runs, folds : sequence of int
        Rows (r) and columns (k) of the table.
    rho : float, optional
        n_test / n_total for every cell; default 1/k, which is k-fold cross-validation.
    alpha, alternative
        As in :func:`corrected_ttest_power`.

    Returns
    -------
    pandas.DataFrame
        Index ``runs``, one column per number of folds; power or minimum detectable d
        (NaN where it cannot be computed, e.g. 1 run of 2 folds: 1 df).

    Raises
    ------
    InvalidInputError
        Both or neither of effect and power, or any input :func:`corrected_ttest_power`
        refuses.
    """
    import pandas as pd

    if (effect is None) == (power is None):
        raise InvalidInputError("give either effect (for a table of power) or power (for a "
                                "table of minimum detectable effects), not both or neither.")
    key = "power" if effect is not None else "effect"
    # power, alpha and effect checked once here: a bad one is an error, not a table of NaN
    check_inputs(power=power, n=2, effect=effect, alpha=alpha, alternative=alternative,
                 n_min=1, n_unit="runs", effect_name="d")   # n: any valid one
    for name, grid in (("runs", runs), ("folds", folds)):
        if np.ndim(grid) != 1 or len(grid) == 0:
            raise InvalidInputError(f"{name} must be a non-empty sequence of whole numbers "
                                    f"(the table's {'rows' if name == 'runs' else 'columns'}), "
                                    f"got {grid!r}.")

    def cell(r, k):
        try:
            return getattr(corrected_ttest_power(effect=effect, runs=r, folds=k, rho=rho,
                                                 power=power, alpha=alpha,
                                                 alternative=alternative), key)
        except InvalidInputError:
            if key == "power":
                raise
            return math.nan                            # out of the computable range

    cells = [[cell(r, k) for k in folds] for r in runs]
    name = "power" if key == "power" else "minimum detectable d"
    frame = pd.DataFrame(cells, index=pd.Index(list(runs), name="runs"),
                         columns=pd.Index(list(folds), name="folds"))
    frame.attrs["value"] = name
    return frame
