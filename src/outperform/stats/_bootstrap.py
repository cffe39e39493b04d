"""Paired bootstrap of the difference of a whole-test-set metric between two models."""
from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from .._deprecation import renamed
from .._validation import (InvalidInputError, check_alpha, check_alternative, check_choice,
                           check_random_state)
from ..results import FrequentistResult
from ._ranks import RELATIVE_TIE_TOLERANCE

__all__ = ["paired_bootstrap"]


def _rows(x, name: str, n: int | None = None) -> np.ndarray:
    arr = np.asarray(x)
    if arr.ndim == 0 or arr.shape[0] < 2:
        raise InvalidInputError(f"{name} must hold one row per test example (at least 2).")
    if n is not None and arr.shape[0] != n:
        raise InvalidInputError(
            f"{name} must have one row per example of y_true ({n}), got {arr.shape[0]}.")
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        raise InvalidInputError(f"{name} contains NaN or infinite values; remove those examples.")
    return arr


@renamed(confidence_level="alpha")
def paired_bootstrap(y_true, pred_a, pred_b, metric, *, n_resamples: int = 2000,
                     alpha: float = 0.05, random_state=0,
                     method: str = "percentile", higher_is_better: bool = True,
                     alternative: str = "two-sided") -> FrequentistResult:
    """Paired bootstrap of metric(A) - metric(B) for any whole-test-set metric.

    Test examples are resampled with replacement, the same examples for both models, and the
    metric is recomputed on each resample: this keeps the correlation between the models
    that a shared test set induces (Williams 2026 §5.1; Everingham et al. 2015 for AP).

    Parameters
    ----------
    y_true : array_like, shape (n_examples, ...)
        True labels (or targets); resampled along the first axis.
    pred_a, pred_b : array_like, shape (n_examples, ...)
        Predictions of A and B in whatever form ``metric`` takes (labels, scores, class
        probabilities of shape (n_examples, n_classes), ...).
    metric : callable
        ``metric(y_true, pred) -> float``, e.g. ``sklearn.metrics.average_precision_score``.
        It must accept every resample (a resample may miss a class: AUC-type metrics then
        raise, so use enough examples of each class).
    n_resamples : int
        Number of bootstrap resamples. The metric is called twice per resample (``"BCa"``
        also twice per example, for the jackknife), so the run time is about
        2 x n_resamples x the metric's own; scikit-learn metrics cost ~1 ms per call for
        their input checks alone.
    alpha : float
        1 − the level of the intervals (default 0.05: 95% intervals). ``confidence_level=`` is
        its deprecated name (``alpha = 1 - confidence_level``).
    random_state : None, int, numpy SeedSequence or Generator
        Seed for the resampling.
    method : {"percentile", "BCa", "basic"}
        Confidence interval method of :func:`scipy.stats.bootstrap`.
    higher_is_better : bool
        True for scores (accuracy, AP, F1, BLEU); False for losses. The difference is
        oriented so that **positive favours A**: metric(A) - metric(B) for scores,
        metric(B) - metric(A) for losses.
    alternative : {"two-sided", "greater", "less"}
        For the p-value; ``"greater"`` = A better.

    Returns
    -------
    FrequentistResult
        ``statistic`` = ``estimate`` = observed difference (positive favours A);
        ``pvalue``: percentile-bootstrap p-value, (1 + #{d* <= 0}) / (1 + B) for "greater",
        (1 + #{d* >= 0}) / (1 + B) for "less", twice the smaller (capped at 1) for two-sided;
        two-sided ``confidence_interval(level)`` from the same resamples. ``details``: ``metric_a``,
        ``metric_b``, ``standard_error``, ``p_a_better`` = share of resamples with d* > 0,
        ``p_b_better`` (d* < 0), ``p_tie`` (d* = 0); ``samples`` holds the B values d*.
        Identical predictions give the degenerate distribution at 0 (CI (0, 0), p = 1)
        without resampling. A resampled difference within ``RELATIVE_TIE_TOLERANCE`` (1e-10)
        of the metrics' magnitude from the observed difference, or from 0, is set to it: so
        the same metric written two ways (accuracy, or error rate with
        ``higher_is_better=False``) gives the same interval and p-value up to rounding.

    Raises
    ------
    InvalidInputError
        Lengths differ, fewer than 2 examples, NaN predictions, ``metric`` not callable or
        not returning a finite number, bad options.

    References
    ----------
    Efron & Tibshirani (1993), An Introduction to the Bootstrap, ch. 13-16; Williams (2026)
    §5.1; :func:`scipy.stats.bootstrap`, here on example indices so any metric and any
    prediction shape works.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a = np.where(rng.random(300) < 0.85, y, 1 - y)
    >>> b = np.where(rng.random(300) < 0.75, y, 1 - y)
    >>> accuracy = lambda y, p: np.mean(y == p)
    >>> res = paired_bootstrap(y, a, b, accuracy, random_state=1)
    >>> round(res.estimate, 3), round(res.details["p_a_better"], 3)
    (0.07, 0.976)
    >>> [round(v, 3) for v in res.confidence_interval()]
    [0.003, 0.14]
    """
    if not callable(metric):
        raise InvalidInputError("metric must be a callable metric(y_true, pred) -> float.")
    check_choice(method, "method", ("percentile", "BCa", "basic"))
    check_alternative(alternative)
    confidence_level = 1.0 - check_alpha(alpha)
    rng = check_random_state(random_state)
    # scipy seeds a legacy RandomState from an int, a stream other than default_rng's: an int
    # goes to scipy as it is, so that a seed keeps giving the same resamples.
    seed = random_state if isinstance(random_state, (int, np.integer)) else rng
    if int(n_resamples) != n_resamples or n_resamples < 1:
        raise InvalidInputError(f"n_resamples must be a positive integer, got {n_resamples!r}.")
    y = _rows(y_true, "y_true")
    a, b = _rows(pred_a, "pred_a", y.shape[0]), _rows(pred_b, "pred_b", y.shape[0])
    sign = 1.0 if higher_is_better else -1.0
    everything = np.arange(y.shape[0])
    metric_a, metric_b = float(metric(y, a)), float(metric(y, b))
    if not (np.isfinite(metric_a) and np.isfinite(metric_b)):
        raise InvalidInputError(
            f"metric returned a non-finite value on the full test set ({metric_a}, {metric_b}).")
    observed = sign * (metric_a - metric_b)
    scale = max(abs(metric_a), abs(metric_b))

    def diff(idx):
        m_a, m_b = float(metric(y[idx], a[idx])), float(metric(y[idx], b[idx]))
        d = sign * (m_a - m_b)
        # BCa's bias correction counts the resamples below and equal to the observed value,
        # and the p-value those below and equal to 0. The last bits of a difference depend on
        # how the metric is written (0.85 - 0.75 != (1 - 0.75) - (1 - 0.85) in floating
        # point), so values equal up to rounding are made equal (tolerance as for ties).
        tol = RELATIVE_TIE_TOLERANCE * max(abs(m_a), abs(m_b), scale)
        if abs(d - observed) <= tol:
            return observed
        return 0.0 if abs(d) <= tol else d

    details = {"metric_a": metric_a, "metric_b": metric_b, "n_examples": int(y.shape[0]),
               "n_resamples": int(n_resamples), "ci_method": method,
               "higher_is_better": higher_is_better}
    if a.shape == b.shape and np.array_equal(a, b):
        details.update(standard_error=0.0, p_a_better=0.0, p_b_better=0.0, p_tie=1.0,
                       note="identical predictions: the difference is 0 on every resample")
        return FrequentistResult(statistic=0.0, pvalue=1.0, method="paired bootstrap",
                                 alternative=alternative, estimate=0.0, details=details,
                                 samples=np.zeros(int(n_resamples)),
                                 _interval=lambda level: (0.0, 0.0))

    def run(level, previous=None, resamples=int(n_resamples)):
        # A constant bootstrap distribution is handled below (point interval); BCa's
        # acceleration is then 0/0.
        with warnings.catch_warnings(), np.errstate(invalid="ignore", divide="ignore"):
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            return stats.bootstrap((everything,), diff, n_resamples=resamples,
                                   vectorized=False, confidence_level=level, method=method,
                                   bootstrap_result=previous, random_state=seed)

    boot = run(confidence_level)
    dist = np.asarray(boot.bootstrap_distribution, dtype=float)
    below, above = np.count_nonzero(dist <= 0), np.count_nonzero(dist >= 0)
    p_greater = (1 + below) / (1 + dist.size)
    p_less = (1 + above) / (1 + dist.size)
    pvalue = {"greater": p_greater, "less": p_less,
              "two-sided": min(1.0, 2 * min(p_greater, p_less))}[alternative]
    details.update(standard_error=float(boot.standard_error),
                   p_a_better=float(np.mean(dist > 0)), p_b_better=float(np.mean(dist < 0)),
                   p_tie=float(np.mean(dist == 0)))

    def interval(level: float) -> tuple[float, float]:
        if np.ptp(dist) == 0:  # constant distribution: every method degenerates to a point
            return (float(dist[0]), float(dist[0]))
        ci = run(level, boot, 0).confidence_interval
        return (float(ci.low), float(ci.high))

    return FrequentistResult(statistic=observed, pvalue=float(pvalue),
                             method=f"paired bootstrap ({method} interval)",
                             alternative=alternative, estimate=observed, details=details,
                             samples=dist, _interval=interval)
