"""t-tests on the per-fold score differences of a resampling design (Q2).

The folds of k-fold (or repeated k-fold, or repeated random-split) cross-validation share
training examples, so their score differences are positively correlated. A paired t-test
that treats them as independent underestimates the variance of the mean and rejects far too
often (Dietterich 1998; Nadeau & Bengio 2003). The corrected resampled ("correlated") t-test
of Nadeau & Bengio (2003) inflates the variance by the correlation heuristic
rho = n_test / (n_train + n_test) (Corani & Benavoli 2015, eq. 1).
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy import special

from .._validation import (
    DegenerateDataError,
    InvalidInputError,
    OutperformWarning,
    TooFewError,
    as_float_array,
    as_paired,
    as_paired_rows,
    check_alternative,
)
from ..results import FrequentistResult
from ..results import LocationInterval


CORRECTED_METHOD = "corrected resampled t-test (Nadeau & Bengio)"


def correlation_heuristic(n_train, n_test) -> float:
    """Correlation between fold differences assumed by Nadeau & Bengio (2003).

    rho = n_test / (n_train + n_test), so that rho / (1 - rho) = n_test / n_train. For
    k-fold cross-validation this is 1/k.

    Parameters
    ----------
    n_train, n_test : float or array_like
        Number of training and test examples of one fold. Per-fold arrays (folds differ by
        one example when k does not divide n) are averaged first.

    Returns
    -------
    float
        rho in (0, 1).

    Raises
    ------
    InvalidInputError
        If a size is not positive or the arrays have different lengths.

    Examples
    --------
    >>> correlation_heuristic(900, 100)   # one fold of 10-fold CV on 1000 examples
    0.1
    """
    train = as_float_array(n_train, "n_train")
    test = as_float_array(n_test, "n_test")
    if train.shape != test.shape and train.ndim and test.ndim:
        raise InvalidInputError(
            f"n_train and n_test must have the same length (one per fold), got {train.shape} "
            f"and {test.shape}."
        )
    if train.size == 0 or test.size == 0 or np.any(train <= 0) or np.any(test <= 0):
        raise InvalidInputError(
            "n_train and n_test must be positive numbers of examples, got "
            f"n_train={n_train!r}, n_test={n_test!r}."
        )
    mean_train, mean_test = float(np.mean(train)), float(np.mean(test))
    return mean_test / (mean_train + mean_test)


def resolve_rho(rho=None, n_train=None, n_test=None) -> float:
    """Return rho given directly or through ``correlation_heuristic(n_train, n_test)``.

    Raises
    ------
    InvalidInputError
        If neither or both ways are given, only one of n_train / n_test is given, or rho is
        outside [0, 1).
    """
    sizes_given = (n_train is not None, n_test is not None)
    if rho is not None and any(sizes_given):
        raise InvalidInputError(
            "Give either rho or (n_train, n_test), not both: rho = n_test / (n_train + n_test)."
        )
    if rho is None:
        if not all(sizes_given):
            raise InvalidInputError(
                "The correlated t-test needs the correlation between folds: pass rho "
                "(1/k for k-fold or r x k-fold cross-validation) or both n_train and n_test "
                "(sizes of one fold's training and test sets)."
            )
        return correlation_heuristic(n_train, n_test)
    value = float(rho)
    if not 0 <= value < 1:
        raise InvalidInputError(
            f"rho must lie in [0, 1) (1/k for k-fold cross-validation), got {rho!r}."
        )
    return value


def _fold_differences(a, b) -> np.ndarray:
    x, y = as_paired(a, b)
    if x.size < 2:
        raise TooFewError(
            f"a t-test on fold differences needs at least 2 folds, got {x.size}."
        )
    return x - y


def _flat_error(n: int, value: float) -> DegenerateDataError:
    return DegenerateDataError(
        f"all {n} fold differences are equal ({value:g}), so their variance is 0 and the t "
        "statistic is undefined. correlated_bayesian_ttest handles this case (point mass at "
        "the common difference).")


def _p_value(t, df: int, alternative: str):
    # Student t cdf from scipy.special: a frozen scipy.stats.t costs ~1 ms per call, which
    # dominates simulation studies that call this test thousands of times.
    if alternative == "two-sided":
        return 2 * special.stdtr(df, -np.abs(t))
    return special.stdtr(df, -t if alternative == "greater" else t)


def _result(t: float, p: float, mean: float, sd: float, se: float, n: int, alternative: str,
            method: str, details: dict) -> FrequentistResult:
    return FrequentistResult(
        statistic=float(t), pvalue=float(p), method=method, alternative=alternative,
        df=float(n - 1), estimate=mean, effect_size=mean / sd,
        effect_size_name="Cohen's d_z (mean / sd of the fold differences)",
        details={"n_folds": n, "standard_error": float(se), **details},
        _interval=LocationInterval(mean, float(se), alternative, df=float(n - 1)))


def _t_result(d: np.ndarray, variance_factor: float, alternative: str, method: str,
              details: dict) -> FrequentistResult:
    """Student t test of mean(d) = 0 with squared standard error var(d) * variance_factor.

    One row of :func:`_t_results` on Python floats (the per-call cost of a test called in
    loops); the same arithmetic, so the same bits (tests/stats/test_correlated_ttest_batched.py).
    """
    n = d.size
    mean = float(np.mean(d))
    if np.ptp(d) == 0:
        raise _flat_error(n, d[0])
    sd = float(np.std(d, ddof=1))
    se = sd * np.sqrt(variance_factor)
    t = mean / se
    return _result(t, _p_value(t, n - 1, alternative), mean, sd, se, n, alternative, method,
                   details)


def _t_results(d: np.ndarray, variance_factor: float, alternative: str, method: str,
               details: dict) -> list[FrequentistResult]:
    """:func:`_t_result` of each row of d (n_tests, n). Row reductions add in the same order
    as 1-D ones, so each result equals the one-row call's, bit for bit."""
    n = d.shape[1]
    flat = np.ptp(d, axis=1) == 0
    if flat.any():
        raise _flat_error(n, d[flat.argmax(), 0])
    mean = np.mean(d, axis=1)
    sd = np.std(d, axis=1, ddof=1)
    se = sd * np.sqrt(variance_factor)
    t = mean / se
    p = _p_value(t, n - 1, alternative)
    return [_result(*row, n, alternative, method, details)
            for row in zip(*(v.tolist() for v in (t, p, mean, sd, se)))]


def corrected_resampled_ttest(a, b, *, rho=None, n_train=None, n_test=None,
                              alternative: str = "two-sided") -> FrequentistResult:
    """Corrected resampled (correlated) t-test of Nadeau & Bengio (2003) on fold scores.

    With d_i = a_i - b_i the score differences on the n = r * k test folds,

        t = mean(d) / sqrt(var(d) * (1/n + rho / (1 - rho))),

    referred to Student's t with n - 1 degrees of freedom (Corani & Benavoli 2015, eq. 1;
    ``var`` with ddof=1). rho / (1 - rho) = n_test / n_train; for r x k-fold CV rho = 1/k.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Scores of model A and model B on the same folds, in the same order (all runs of all
        folds, flattened). Higher is better; for losses pass ``a=loss_B, b=loss_A``.
    rho : float, optional
        Correlation between fold differences, in [0, 1). ``rho=0`` is the naive paired t-test.
    n_train, n_test : float or array_like, optional
        Training and test set sizes of a fold (scalars, or one per fold, averaged); used for
        rho = n_test / (n_train + n_test) when ``rho`` is not given.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A's expected score is higher than B's.

    Returns
    -------
    FrequentistResult
        ``statistic`` t, ``pvalue``, ``df`` = n - 1, ``estimate`` mean(d) (positive favours A),
        ``confidence_interval(level)`` mean(d) -/+ t quantile * corrected standard error
        (one-sided for one-sided alternatives, like scipy), ``effect_size`` mean(d)/sd(d),
        ``details`` with rho, n_folds and the standard error.

    Raises
    ------
    InvalidInputError
        Unpaired or non-finite scores; missing, conflicting or out-of-range rho / sizes.
    TooFewError
        Fewer than 2 folds.
    DegenerateDataError
        All fold differences equal (zero variance).

    Notes
    -----
    The heuristic models the overlap of training sets in one run of k-fold CV; the extra
    correlation between runs of repeated CV is ignored, as Corani & Benavoli (2015, §2.1)
    note; they report the heuristic effective with standard cross-validation (citing
    Bouckaert 2003).

    Examples
    --------
    >>> a = [0.81, 0.83, 0.79, 0.84, 0.80, 0.82, 0.85, 0.80, 0.83, 0.81]
    >>> b = [0.80, 0.80, 0.78, 0.81, 0.80, 0.79, 0.83, 0.79, 0.80, 0.80]
    >>> res = corrected_resampled_ttest(a, b, rho=0.1)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (3.451, 0.0073, 9.0)
    >>> [round(v, 4) for v in res.confidence_interval(0.95)]
    [0.0062, 0.0298]
    """
    check_alternative(alternative)
    d = _fold_differences(a, b)
    r = resolve_rho(rho, n_train, n_test)
    n = d.size
    return _t_result(d, 1 / n + r / (1 - r), alternative, CORRECTED_METHOD, {"rho": r})


def corrected_resampled_ttests(a, b, *, rho: float, alternative: str = "two-sided"
                               ) -> list[FrequentistResult]:
    """:func:`corrected_resampled_ttest` of many pairs at once (e.g. all pairs of models).

    One batch for all rows; each result equals the single-pair call's, bit for bit.

    Parameters
    ----------
    a, b : array_like, shape (n_pairs, n)
        Fold scores of model A and model B of each pair (row), n >= 2, higher is better.
    rho : float
        Correlation between fold differences, in [0, 1) (1/k for k-fold CV).
    alternative : {"two-sided", "greater", "less"}

    Returns
    -------
    list of FrequentistResult
        One per row, as :func:`corrected_resampled_ttest`.

    Raises
    ------
    InvalidInputError
        Not two (n_pairs, n) arrays of the same shape, non-finite scores, rho outside [0, 1).
    TooFewError
        Fewer than 2 folds.
    DegenerateDataError
        A pair whose fold differences are all equal (zero variance).

    Examples
    --------
    The p-values are scipy's ``2 * stats.t.sf(|t|, 3)`` with t = mean(d) / sqrt(var(d)
    (1/4 + rho / (1 - rho))) computed by hand for each row:

    >>> a = [[0.81, 0.83, 0.79, 0.84], [0.81, 0.83, 0.79, 0.84]]
    >>> b = [[0.80, 0.80, 0.78, 0.81], [0.82, 0.84, 0.80, 0.80]]
    >>> [round(res.pvalue, 4) for res in corrected_resampled_ttests(a, b, rho=0.25)]
    [0.1081, 0.9041]
    """
    check_alternative(alternative)
    x, y = as_paired_rows(a, b, "corrected resampled t-test")
    n = x.shape[1]
    r = resolve_rho(rho)
    return _t_results(x - y, 1 / n + r / (1 - r), alternative, CORRECTED_METHOD, {"rho": r})


def naive_kfold_ttest(a, b, *, alternative: str = "two-sided") -> FrequentistResult:
    """Paired t-test on fold scores as if the folds were independent (NOT calibrated).

    Provided only to reproduce published analyses. Cross-validation folds share training
    data, so this test rejects a true null far more often than its nominal level
    (Dietterich 1998; Nadeau & Bengio 2003); it always emits a ``UserWarning``. Use
    :func:`corrected_resampled_ttest` instead.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Scores of A and B on the same folds (higher is better).
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A better.

    Returns
    -------
    FrequentistResult
        As ``scipy.stats.ttest_rel(a, b)``: t = mean(d) / (sd(d) / sqrt(n)), df = n - 1.

    Raises
    ------
    InvalidInputError, TooFewError, DegenerateDataError
        As :func:`corrected_resampled_ttest`.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     res = naive_kfold_ttest([0.81, 0.83, 0.79, 0.84], [0.80, 0.80, 0.78, 0.81])
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (3.464, 0.0405)
    """
    warnings.warn(
        "naive_kfold_ttest treats cross-validation folds as independent; it is not "
        "calibrated and rejects a true null far more often than alpha (Dietterich 1998; "
        "Nadeau & Bengio 2003). Use corrected_resampled_ttest (or "
        "correlated_bayesian_ttest) instead.",
        OutperformWarning, stacklevel=2)
    check_alternative(alternative)
    d = _fold_differences(a, b)
    return _t_result(d, 1 / d.size, alternative, "naive paired t-test on folds (uncalibrated)",
                     {"rho": 0.0})
