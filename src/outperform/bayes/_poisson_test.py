"""Poisson test of Corani & Benavoli (2015, §3.1): cross-validation results on many data sets.

On each of q data sets, the correlated Bayesian t-test (Corani & Benavoli 2015 §2, in
:mod:`outperform.bayes._correlated_ttest`) of the fold differences a - b gives
p_i = P(mu_i > 0 | x_i), the probability that A is more accurate than B on that data set.
Each data set is then an independent Bernoulli trial, and the number X of data sets on which A
is better follows the Poisson-binomial distribution of (p_1, ..., p_q). A is declared better
when P(X > q/2) > 1 - alpha (Corani & Benavoli §3.1, after Lacoste et al. 2012).

With a ROPE, each data set has three outcomes (B practically better / equivalent / A
practically better) with the t-test's probabilities, and the counts (n_left, n_rope, n_right)
follow a Poisson-multinomial distribution. The paper has no ROPE; this module extends its
rule "more than half of the data sets" region by region:

    p_right = P(n_right > q/2),  p_left = P(n_left > q/2),  p_rope = P(n_rope > q/2).

Each is the upper tail of a Poisson-binomial (a marginal of the Poisson-multinomial), and
without a ROPE p_right is exactly the paper's P(X > q/2). These events exclude each other but
need not cover everything: when no outcome holds on more than half of the data sets
(always possible with a ROPE, and with an even q when X = q/2) none of them occurs, so
p_left + p_rope + p_right can be below 1; the rest is ``details["p_no_majority"]``.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .._validation import (
    DegenerateDataError,
    InvalidInputError,
    TooFewError,
    as_float_array,
    as_paired,
    check_choice,
    check_probability, check_threshold,
    check_rope,
)
from ..results import BayesianResult, PairwiseResult
from .._names import model_names
from ..stats._poisson_binomial import PoissonBinomial, batch_method, poisson_multinomial_pmf
from ._correlated_ttest import (ZERO_VARIANCE, NormalGammaPrior, _check_prior, _check_rho,
                                posterior_parameters, posterior_regions)
from ._pairwise import bayesian_pairwise_result
from ._rope import decide

__all__ = ["pairwise_poisson_test", "poisson_test"]

METHOD = "Poisson test (Corani & Benavoli 2015)"
PARAMETER = ("number of data sets on which A is (practically) better, B is, or they are "
             "equivalent; each probability is that of a majority of the q data sets")


def _per_data_set(x, name: str) -> list[np.ndarray]:
    """Fold scores as a list of q 1-D arrays (from a (q, n_folds) array or a list)."""
    if isinstance(x, np.ndarray) and x.ndim == 2:
        return [as_float_array(row, f"{name}[{d}]", ndim=1) for d, row in enumerate(x)]
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence | np.ndarray):
        raise InvalidInputError(
            f"{name} must be a (q, n_folds) array or a list of q arrays of fold scores."
        )
    return [as_float_array(row, f"{name}[{d}]", ndim=1) for d, row in enumerate(x)]


def _rhos(rho, q: int) -> np.ndarray:
    arr = as_float_array(rho, "rho")
    if arr.ndim == 0:
        arr = np.full(q, float(arr))
    if arr.shape != (q,):
        raise InvalidInputError(
            f"rho must be one number or one per data set ({q}), got shape {arr.shape}."
        )
    return arr


def _matrix_differences(a, b, rho, prior):
    """:func:`_differences` of two valid (q, n_folds) float arrays in one pass, else None.

    The common case (54 data sets, 100 folds) checked as whole arrays instead of 2 q rows
    twice; any doubt (another type, a bad value) returns None, and the row-by-row checks
    then name the data set at fault.
    """
    if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim == b.ndim == 2
            and a.shape == b.shape and a.shape[0] >= 1 and a.shape[1] >= 2
            and a.dtype.kind == b.dtype.kind == "f"):
        return None
    try:
        rhos = np.asarray(rho, dtype=float) if np.ndim(rho) else np.full(a.shape[0], float(rho))
    except (TypeError, ValueError):
        return None
    if not (rhos.shape == (a.shape[0],) and np.all((rhos >= 0) & (rhos < 1))
            and np.isfinite(a).all() and np.isfinite(b).all()):
        return None
    try:
        prior = _check_prior(prior, a.shape[1])
    except InvalidInputError:
        return None
    return list(a - b), rhos, prior


def _differences(a, b, rho, prior) -> tuple[list[np.ndarray], np.ndarray, NormalGammaPrior]:
    """Fold differences a - b of each data set (checked one by one: lengths may differ)."""
    fast = _matrix_differences(a, b, rho, prior)
    if fast is not None:
        return fast
    xa, xb = _per_data_set(a, "a"), _per_data_set(b, "b")
    if len(xa) != len(xb):
        raise InvalidInputError(
            f"a and b must cover the same data sets, got {len(xa)} and {len(xb)}."
        )
    if not xa:
        raise TooFewError("no data set: the Poisson test needs at least one.")
    rhos = _rhos(rho, len(xa))
    diffs = []
    for d, (x, y, r) in enumerate(zip(xa, xb, rhos)):
        try:
            x, y = as_paired(x, y)
            if x.size < 2:
                raise TooFewError(
                    f"the correlated Bayesian t-test needs at least 2 folds, got {x.size}.")
            _check_rho(r)
            prior = _check_prior(prior, x.size)
        except (InvalidInputError, TooFewError) as exc:
            raise type(exc)(f"data set {d}: {exc}") from None
        diffs.append(x - y)
    return diffs, rhos, prior


def _data_set_probabilities(diffs, rhos, rope, prior, on_zero_variance) -> np.ndarray:
    """(..., q, 3) array of (P(left), P(rope), P(right)) from the correlated Bayesian t-test.

    ``diffs[d]``: data set d's fold differences, shape (..., n_folds_d) with the same
    leading (batch) shape for every data set. Data sets with the same number of folds are
    computed as one batch of :func:`posterior_parameters`.
    """
    lengths = np.array([x.shape[-1] for x in diffs])
    probs = np.empty(diffs[0].shape[:-1] + (len(diffs), 3))
    for n in np.unique(lengths):             # one batch per number of folds
        sets = np.flatnonzero(lengths == n)
        d = np.stack([diffs[i] for i in sets], axis=-2)          # (..., sets, n)
        location, df, scale = posterior_parameters(d, rhos[sets], prior)
        if on_zero_variance == "raise" and np.any(scale == 0):
            first = int(sets[np.nonzero(scale == 0)[-1][0]])
            raise DegenerateDataError(
                f"data set {first}: all {n} fold differences are equal and the prior adds no "
                "variance (b = 0), so the posterior of the mean difference is a point mass. "
                "Use on_zero_variance='limit' or a prior with b > 0.")
        probs[..., sets, :] = posterior_regions(location, df, scale, rope)
    return probs


def majorities(probs: np.ndarray) -> np.ndarray:
    """P(n_left > q/2), P(n_rope > q/2), P(n_right > q/2) for probs of shape (..., q, 3).

    Each is the upper tail of a Poisson-binomial over the q data sets, computed by a method
    chosen from q alone, so a batch gives each row the bits it gets alone.
    """
    q = probs.shape[-2]
    by_region = np.swapaxes(probs, -1, -2)                          # (..., 3, q)
    counts = PoissonBinomial(by_region.reshape(-1, q), method=batch_method(q))
    return counts.sf(q // 2).reshape(by_region.shape[:-1])


def poisson_test(a, b, *, rho, rope=0.0, prior: NormalGammaPrior | None = None,
                 threshold: float = 0.95, on_zero_variance: str = "limit"
                 ) -> BayesianResult:
    """Poisson test: is A better than B on most of q data sets, from their cross-validation?

    Parameters
    ----------
    a, b : array_like (q, n_folds) or list of q arrays
        Fold scores of model A and model B on each data set (r runs of k-fold CV, same folds
        for both, higher is better); the number of folds may differ between data sets.
    rho : float or array_like (q,)
        Correlation heuristic n_test / n_total of each data set's resampling (1/k for
        k-fold CV), as in :func:`outperform.bayes._correlated_ttest.correlated_bayesian_ttest`.
    rope : float or (float, float)
        ROPE on each data set's mean difference, in score units; 0 gives the paper's test.
    prior : NormalGammaPrior, optional
        Prior of the per-data-set t-test; default the matching prior (Corollary 1).
    threshold : float
        1 - alpha: a region is decided when the probability that it holds on more than half
        of the data sets reaches it (Corani & Benavoli use alpha = 0.05, one-sided).
    on_zero_variance : {"limit", "raise"}
        Passed to the t-test for data sets whose fold differences are all equal. With
        ``"limit"`` a data set where A and B score the same on every fold counts as half a
        win for each when ``rope=0`` (and as equivalent with a ROPE), so the test stays
        symmetric in A and B and is not biased by small data sets where both learners
        predict alike.

    Returns
    -------
    BayesianResult
        ``p_right`` = P(A practically better on more than q/2 data sets) (without ROPE,
        P(X > q/2) of the paper), ``p_left`` the same for B, ``p_rope`` for equivalence;
        ``a_better_side="right"``; ``posterior`` the Poisson-binomial distribution of
        n_right (:class:`outperform.stats._poisson_binomial.PoissonBinomial`), with
        ``posterior_mean`` and the 95% interval of n_right. ``details``: ``p_data_sets``
        (q x 3 per-data-set (P(left), P(rope), P(right))), ``wins_pmf`` (pmf of n_right),
        ``p_no_majority``, and from the joint Poisson-multinomial ``p_more_wins``
        = P(n_right > n_left), ``p_more_losses`` = P(n_left > n_right), ``p_equal``.

    Raises
    ------
    InvalidInputError
        Unpaired or non-finite scores, rho outside [0, 1), bad ROPE, prior or threshold.
    TooFewError
        No data set, or a data set with fewer than 2 folds.

    References
    ----------
    Corani & Benavoli (2015), Machine Learning 100, §2 (correlated Bayesian t-test) and §3.1
    (Poisson-binomial over data sets); Lacoste, Laviolette & Marchand (2012) §5.

    Examples
    --------
    Ten data sets, 10-fold CV; A gains about one point on most of them:

    >>> rng = np.random.default_rng(0)
    >>> b = rng.normal(0.80, 0.03, (10, 10))
    >>> a = b + rng.normal(0.01, 0.01, (10, 10))
    >>> res = poisson_test(a, b, rho=0.1)
    >>> res.details["p_data_sets"][:3, 2].round(3)    # P(A better) on the first data sets
    array([0.927, 0.999, 0.94 ])
    >>> round(res.p_right, 4), res.decision, round(res.posterior_mean, 2)
    (1.0, 'A better', 9.5)

    With a ROPE of one point, A is rarely *practically* better on a majority of data sets:

    >>> res = poisson_test(a, b, rho=0.1, rope=0.01)
    >>> round(res.p_left, 3), round(res.p_rope, 3), round(res.p_right, 3), res.decision
    (0.0, 0.445, 0.277, 'undecided')
    >>> round(res.details["p_no_majority"], 3), round(res.details["p_more_wins"], 3)
    (0.278, 0.999)
    """
    check_threshold(threshold)
    rope = check_rope(rope)
    check_choice(on_zero_variance, "on_zero_variance", ZERO_VARIANCE)
    diffs, rhos, prior = _differences(a, b, rho, prior)
    probs = _data_set_probabilities(diffs, rhos, rope, prior, on_zero_variance)
    q = probs.shape[0]
    p_left, p_rope, p_right = majorities(probs)
    n_right = PoissonBinomial(probs[:, 2], method=batch_method(q))
    joint = poisson_multinomial_pmf(probs)
    i, j = np.indices(joint.shape)
    cdf = n_right.cdf(np.arange(q + 1))
    lo, hi = int(np.argmax(cdf >= 0.025)), int(np.argmax(cdf >= 0.975))
    details = {
        "n_data_sets": q, "rho": rhos, "p_data_sets": probs,
        "wins_pmf": n_right.pmf_table, "expected_counts": probs.sum(axis=0),
        "p_no_majority": float(max(0.0, 1.0 - p_left - p_rope - p_right)),
        "p_more_wins": float(joint[j > i].sum()), "p_more_losses": float(joint[i > j].sum()),
        "p_equal": float(joint[i == j].sum()),
    }
    return BayesianResult(
        method=METHOD, parameter=PARAMETER, p_left=float(p_left), p_rope=float(p_rope),
        p_right=float(p_right), rope=rope, a_better_side="right", threshold=threshold,
        decision=decide(p_left, p_rope, p_right, a_better_side="right",
                        threshold=threshold), posterior_mean=n_right.mean(),
        credible_interval_95=(float(lo), float(hi)), details=details, posterior=n_right)


def pairwise_poisson_test(scores, *, rho, names: Sequence[str] | None = None, rope=0.0,
                          prior: NormalGammaPrior | None = None, threshold: float = 0.95,
                          cycle_threshold: float = 0.5,
                          on_zero_variance: str = "limit") -> PairwiseResult:
    """Poisson test for every pair of k models.

    Parameters
    ----------
    scores : array_like (q, n_folds, k) or list of q arrays (n_folds_d, k)
        Fold scores of the k models (columns) on each data set, same folds for all models.
    rho, rope, prior, threshold, on_zero_variance
        As in :func:`poisson_test`.
    names : sequence of str, optional
    cycle_threshold : float
        "i beats j" in the cycle search when P(i better on a majority) exceeds it.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = P(model i practically better than model j on more than half of
        the data sets); ``details``: ``p_rope`` (P(equivalent on more than half)),
        ``p_no_majority`` (k x k, 1 minus the three: no region holds a majority),
        ``decision`` (k x k, "A better" meaning the row model), ``cycles``. No p-values.

    Raises
    ------
    InvalidInputError, TooFewError
        As :func:`poisson_test`; fewer than 2 models.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> base = rng.normal(0.8, 0.03, (8, 10, 1))
    >>> scores = base + np.array([0.0, 0.02, 0.021]) + rng.normal(0, 0.005, (8, 10, 3))
    >>> res = pairwise_poisson_test(scores, rho=0.1, names=["x", "y", "z"], rope=0.01)
    >>> res.details["decision"][1, 0], res.details["decision"][1, 2]
    ('A better', 'practically equivalent')
    """
    mats = [as_float_array(m, f"scores[{d}]", ndim=2) for d, m in enumerate(scores)]
    if not mats:
        raise TooFewError("no data set: the Poisson test needs at least one.")
    k = mats[0].shape[1]
    if any(m.shape[1] != k for m in mats):
        raise InvalidInputError("every data set must have the same models (columns).")
    if k < 2:
        raise TooFewError(f"pairwise comparison needs at least 2 models, got {k}.")
    labels = model_names(names, k)
    check_threshold(threshold)
    check_probability(cycle_threshold, "cycle_threshold")
    check_choice(on_zero_variance, "on_zero_variance", ZERO_VARIANCE)
    rope = check_rope(rope)
    iu, ju = np.triu_indices(k, 1)
    # Checked on the first pair (the data sets' fold counts and rho), then all pairs at once:
    # a batch (pairs, n_folds) of differences per data set.
    _, rhos, prior = _differences([m[:, 0] for m in mats], [m[:, 1] for m in mats], rho, prior)
    diffs = [(m[:, iu] - m[:, ju]).T.copy() for m in mats]
    probs = _data_set_probabilities(diffs, rhos, rope, prior, on_zero_variance)
    left, equal, right = np.moveaxis(majorities(probs), -1, 0)
    better, p_rope = np.zeros((k, k)), np.zeros((k, k))
    expected = np.full((k, k), np.nan)
    better[iu, ju], better[ju, iu] = right, left
    p_rope[iu, ju] = p_rope[ju, iu] = equal
    expected[iu, ju], expected[ju, iu] = probs[..., 2].sum(axis=-1), probs[..., 0].sum(axis=-1)
    no_majority = np.zeros((k, k))
    no_majority[iu, ju] = no_majority[ju, iu] = np.maximum(0.0, 1.0 - left - equal - right)
    details = {"n_data_sets": len(mats), "rope": rope, "expected_wins": expected,
               "p_no_majority": no_majority}
    return bayesian_pairwise_result(f"{METHOD}, all pairs", labels, better, p_rope, threshold,
                                    cycle_threshold, details)
