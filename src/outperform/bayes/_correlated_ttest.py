"""Correlated Bayesian t-test of Corani & Benavoli (2015) for cross-validation results (Q2).

Model (Corani & Benavoli 2015, §2.3-2.4): the n fold differences x = a - b follow
x ~ MVN(1 mu, sigma^2 M), M the intraclass correlation matrix (1 on the diagonal, rho
elsewhere) with rho fixed by the heuristic of Nadeau & Bengio, and (mu, nu = 1/sigma^2) has
the Normal-Gamma prior mu | nu ~ N(mu0, k0 / nu), nu ~ Gamma(a, rate=b).

Posterior (Theorem 2), with S = 1' M^-1 1 = n / (1 + (n - 1) rho), mu_hat = mean(x) and
R = (x - 1 mu_hat)' M^-1 (x - 1 mu_hat) = sum((x - mean(x))^2) / (1 - rho), both closed
forms of M^-1 = (I - rho / (1 + (n - 1) rho) 11') / (1 - rho) (NOTES.md):

    mu_n = (S mu_hat + mu0 / k0) / (S + 1 / k0)
    k_n  = 1 / (S + 1 / k0)
    a_n  = a + n / 2
    b_n  = b + (R + (S / k0) / (S + 1 / k0) * (mu_hat - mu0)^2) / 2

and mu | x ~ Student t(2 a_n, location mu_n, scale^2 = b_n k_n / a_n). The last term of b_n
is the usual prior-data conflict term, >= 0: it equals
mu_hat^2 S + mu0^2 / k0 - mu_n^2 (S + 1 / k0). The published table of Theorem 2 prints these
three terms with the opposite sign, which can make b_n negative; completing the square
(and the uncorrelated table of §2.2, the case rho = 0) gives the sign used here.

The matching prior (Corollary 1) is k0 -> inf, a = -1/2, b = 0; then
mu | x ~ St(n - 1, mean(x), (1/n + rho / (1 - rho)) var(x)), and P(mu > 0 | x) equals
1 - p of the one-sided corrected resampled t-test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._validation import (
    DegenerateDataError,
    InvalidInputError,
    TooFewError,
    as_paired,
    as_paired_rows,
    check_choice,
    check_threshold,
    check_rope,
)
from ..results import BayesianResult
from ._lazy import LazyFrozen
from ._rope import decide, student_regions, student_regions_1d

METHOD = "correlated Bayesian t-test (Corani & Benavoli 2015)"
PARAMETER = "mean difference A - B"
#: Policies for all-equal fold differences under a prior with b = 0.
ZERO_VARIANCE = ("limit", "raise")


@dataclass(frozen=True)
class NormalGammaPrior:
    """Normal-Gamma prior on (mu, nu = 1/sigma^2) of Corani & Benavoli (2015), Theorem 2.

    mu | nu ~ N(mu0, k0 / nu) and nu ~ Gamma(shape=a, rate=b). The defaults are the improper
    *matching prior* of Corollary 1 (k0 = inf, a = -1/2, b = 0), under which the Bayesian and
    the frequentist correlated t-tests agree.

    Attributes
    ----------
    mu0 : float
        Prior location of the mean difference (same units as the scores).
    k0 : float
        Prior variance of mu in units of sigma^2 (> 0; ``inf`` = flat prior on mu).
    a : float
        Shape of the Gamma prior on the precision (a + n/2 must be > 0).
    b : float
        Rate of the Gamma prior on the precision (>= 0).

    Raises
    ------
    InvalidInputError
        Non-finite mu0, a or b; k0 <= 0; b < 0.

    Examples
    --------
    >>> NormalGammaPrior()
    NormalGammaPrior(mu0=0.0, k0=inf, a=-0.5, b=0.0)
    """

    mu0: float = 0.0
    k0: float = math.inf
    a: float = -0.5
    b: float = 0.0

    def __post_init__(self):
        for name in ("mu0", "k0", "a", "b"):
            object.__setattr__(self, name, float(getattr(self, name)))
        if not (math.isfinite(self.mu0) and math.isfinite(self.a) and math.isfinite(self.b)):
            raise InvalidInputError(f"mu0, a and b must be finite numbers, got {self!r}.")
        if not self.k0 > 0:
            raise InvalidInputError(
                f"k0 (prior variance of mu in units of sigma^2) must be > 0 or inf, got {self.k0}."
            )
        if self.b < 0:
            raise InvalidInputError(f"b (Gamma rate) must be >= 0, got {self.b}.")


#: The default prior (frozen, so one instance serves every call).
_MATCHING = NormalGammaPrior()


def _check_rho(rho):
    """rho as a float (a Python or numpy number) or a float array, each in [0, 1)."""
    if isinstance(rho, (float, int)):
        arr = float(rho)
        valid = 0 <= arr < 1
    else:
        arr = np.asarray(rho, dtype=float)
        valid = np.all((arr >= 0) & (arr < 1))
    if not valid:
        raise InvalidInputError(
            f"rho must lie in [0, 1) (1/k for k-fold cross-validation), got {rho!r}."
        )
    return arr


def _check_prior(prior, n: int) -> NormalGammaPrior:
    """The prior (default: the matching prior), checked to give a proper posterior."""
    prior = _MATCHING if prior is None else prior
    if not isinstance(prior, NormalGammaPrior):
        raise InvalidInputError(f"prior must be a NormalGammaPrior or None, got {prior!r}.")
    if prior.a + n / 2 <= 0:
        raise InvalidInputError(
            f"the posterior needs a + n/2 > 0; got a = {prior.a} with n = {n} folds."
        )
    return prior


def posterior_parameters(d: np.ndarray, rho, prior: NormalGammaPrior):
    """Theorem 2 for a batch: the Student posterior of mu for each row of fold differences.

    The one kernel of the correlated Bayesian t-test, the Poisson test and the simulations:
    reductions run along each row, so a row gives the same bits alone or in a batch.

    Parameters
    ----------
    d : ndarray, shape (..., n)
        Fold differences a - b, n >= 2 (validated by the caller).
    rho : float or ndarray broadcastable to ``d.shape[:-1]``
        Correlation heuristic, in [0, 1) (validated by the caller).
    prior : NormalGammaPrior
        With a + n/2 > 0 (validated by the caller).

    Returns
    -------
    location, df, scale : ndarray, shape ``d.shape[:-1]``
        mu | x ~ Student t(df, location, scale); scale 0 when all differences of a row are
        equal and the prior adds no variance (b = 0): a point mass.
    """
    n = d.shape[-1]
    constant = np.ptp(d, axis=-1) == 0
    # Identical differences: use one of them, not the mean, whose rounding would leave a
    # spurious variance of order 1e-34 and hide the degenerate case.
    mu_hat = np.where(constant, d[..., 0], d.mean(axis=-1))
    resid = np.where(constant, 0.0, np.sum((d - mu_hat[..., None]) ** 2, axis=-1)) / (1 - rho)
    location, df, scale = _theorem2(mu_hat, resid, n, rho, prior)
    return location, np.broadcast_to(df, location.shape), scale


def posterior_parameters_1d(d: np.ndarray, rho: float, prior: NormalGammaPrior):
    """:func:`posterior_parameters` of one row, as three floats (the same bits).

    The same reductions on the 1-D ``d`` and the same arithmetic on Python floats, which
    costs a few microseconds where numpy's per-operation overhead on 1-element arrays cost
    tens (the single-pair tests called in loops).
    """
    if d.max() == d.min():        # np.ptp(d) == 0, as in the batch
        mu_hat, resid = float(d[0]), 0.0
    else:
        mu_hat = float(d.mean())
        resid = float(np.sum((d - mu_hat) ** 2)) / (1 - rho)
    location, df, scale = _theorem2(mu_hat, resid, d.shape[0], rho, prior)
    return location, float(df), float(scale)


def _theorem2(mu_hat, resid, n: int, rho, prior: NormalGammaPrior):
    """Theorem 2 from the mean and the M^-1 residual sum of squares (floats or arrays)."""
    s = n / (1 + (n - 1) * rho)
    inv_k0 = 1 / prior.k0
    # Weights of the data and of the prior (exactly 1 and 0 under a flat prior on mu).
    mu_n = (s / (s + inv_k0)) * mu_hat + (inv_k0 / (s + inv_k0)) * prior.mu0
    k_n = 1 / (s + inv_k0)
    conflict = (s * inv_k0 / (s + inv_k0)) * (mu_hat - prior.mu0) ** 2
    a_n = prior.a + n / 2
    b_n = prior.b + 0.5 * (resid + conflict)
    return mu_n, 2 * a_n, np.sqrt(b_n * k_n / a_n)


def posterior_regions(location, df, scale, rope: tuple[float, float]) -> np.ndarray:
    """P(left), P(rope), P(right) of the posteriors of :func:`posterior_parameters`, (..., 3).

    Where the scale is 0 (a point mass), the limit of the region probabilities as the scale
    tends to 0: a posterior centred exactly on a ROPE bound keeps half its mass on each side
    however narrow it is, so the limit gives 1/2 to each neighbouring region (left and
    right for the point ROPE [0, 0]); elsewhere the region holding the location gets 1.
    """
    location, df, scale = np.broadcast_arrays(*(np.asarray(v, dtype=float)
                                                for v in (location, df, scale)))
    point = scale == 0
    regions = student_regions(df, location, np.where(point, 1.0, scale), rope)
    low, high = rope
    left = np.where(location < low, 1.0, np.where(location == low, 0.5, 0.0))
    right = np.where(location > high, 1.0, np.where(location == high, 0.5, 0.0))
    limit = np.stack([left, 1.0 - left - right, right], axis=-1)
    return np.where(point[..., None], limit, regions)


def credible_interval(df, location, scale, mass: float = 0.95) -> np.ndarray:
    """Central ``mass`` interval of Student t(df, location, scale), batched: shape (..., 2).

    The arithmetic of ``scipy.stats.t(df, location, scale).interval(mass)`` (same bits),
    without building a frozen distribution.
    """
    q = np.array([(1.0 - mass) / 2, (1.0 + mass) / 2])
    if not all(isinstance(v, float) for v in (df, location, scale)):   # floats broadcast
        df, location, scale = (np.asarray(v, dtype=float)[..., None]
                               for v in (df, location, scale))
    return special.stdtrit(df, q) * scale + location


def correlated_bayesian_ttest(a, b, *, rho, rope=0.0, prior: NormalGammaPrior | None = None,
                              threshold: float = 0.95,
                              on_zero_variance: str = "limit") -> BayesianResult:
    """Correlated Bayesian t-test on cross-validation fold scores (Corani & Benavoli 2015).

    Posterior of the mean score difference mu = E[a - b] under the correlated normal model
    of the fold differences with the correlation heuristic ``rho`` (Theorem 2), and the
    probabilities that mu lies left of, inside, or right of the ROPE.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Scores of model A and model B on the same n = r * k folds, same order (higher is
        better; for losses pass ``a=loss_B, b=loss_A``).
    rho : float
        Correlation between fold differences, in [0, 1): n_test / (n_train + n_test), 1/k
        for (repeated) k-fold CV (see ``outperform.stats._correlated_ttest.correlation_heuristic``).
        ``rho=0`` gives the ordinary Bayesian t-test of independent differences.
    rope : float or (float, float)
        Region of practical equivalence for mu, in score units: r means [-r, r].
    prior : NormalGammaPrior, optional
        Normal-Gamma prior (mu0, k0, a, b); default the matching prior of Corollary 1.
    threshold : float
        Decision threshold of Williams (2026) §5.2.
    on_zero_variance : {"limit", "raise"}
        What to do when the posterior scale is 0, which happens when all fold differences
        are equal (common on easy or tiny data sets, e.g. two learners with identical
        predictions) and the prior adds no variance (b = 0, as in the matching prior).
        ``"limit"`` (default) returns the limit of the region probabilities as the sample
        variance tends to 0: the region holding mean(a - b) gets probability 1, except that
        a mean exactly on a ROPE bound splits 1/2 - 1/2 between the two regions it
        separates, because a Student posterior centred there keeps half its mass on each side
        at any scale. So identical scores give P(rope) = 1 for a ROPE [-r, r] with r > 0, and
        P(left) = P(right) = 1/2 for ``rope=0`` (as baycomp). ``posterior`` is then None and
        ``details`` has ``degenerate=True``. ``"raise"`` raises ``DegenerateDataError``.

    Returns
    -------
    BayesianResult
        ``a_better_side="right"``: ``p_right`` = P(mu > high | x) = P(A practically better),
        ``p_left`` = P(B practically better); ``posterior`` the scipy frozen Student t of mu
        (built on first use);
        ``posterior_mean`` its location (the posterior mean when 2 a_n > 1);
        ``credible_interval_95`` central interval; ``decision`` at ``threshold``.

    Raises
    ------
    InvalidInputError
        Unpaired or non-finite scores, rho outside [0, 1), bad ROPE, threshold or prior,
        a_n = a + n/2 <= 0.
    TooFewError
        Fewer than 2 folds.
    DegenerateDataError
        Zero posterior scale with ``on_zero_variance="raise"``.

    Examples
    --------
    >>> a = [0.81, 0.83, 0.79, 0.84, 0.80, 0.82, 0.85, 0.80, 0.83, 0.81]
    >>> b = [0.80, 0.80, 0.78, 0.81, 0.80, 0.79, 0.83, 0.79, 0.80, 0.80]
    >>> res = correlated_bayesian_ttest(a, b, rho=0.1, rope=0.01)
    >>> round(res.p_left, 4), round(res.p_rope, 4), round(res.p_right, 4)
    (0.0002, 0.0795, 0.9203)
    >>> res.decision
    'undecided'
    >>> round(correlated_bayesian_ttest(a, b, rho=0.1).p_right, 4)  # 1 - one-sided p
    0.9964
    """
    x, y = as_paired(a, b)
    n = x.size
    if n < 2:
        raise TooFewError(f"the correlated Bayesian t-test needs at least 2 folds, got {n}.")
    rho = float(_check_rho(rho))
    rope = check_rope(rope)
    check_threshold(threshold)
    check_choice(on_zero_variance, "on_zero_variance", ZERO_VARIANCE)
    prior = _check_prior(prior, n)
    location, df, scale = posterior_parameters_1d(x - y, rho, prior)
    details = {"rho": rho, "n_folds": n, "prior": dict(vars(prior)), "df": df,
               "location": location, "scale": scale, "degenerate": scale == 0}
    if scale == 0:
        if on_zero_variance == "raise":
            raise DegenerateDataError(
                f"all {n} fold differences equal {location:g} and the prior adds no variance "
                "(b = 0), so the posterior of the mean difference is a point mass. Use "
                "on_zero_variance='limit' or a prior with b > 0."
            )
        posterior, ci = None, (location, location)
    else:
        posterior = LazyFrozen("t", df, loc=location, scale=scale)
        ci = tuple(float(v) for v in credible_interval(df, location, scale))
    # posterior_regions (the point-mass limit where scale == 0, else student_regions).
    if scale == 0:
        p_left, p_rope, p_right = (float(p) for p in posterior_regions(location, df, scale, rope))
    else:
        p_left, p_rope, p_right = student_regions_1d(df, location, scale, rope)
    return BayesianResult(
        method=METHOD, parameter=PARAMETER, p_left=p_left, p_rope=p_rope, p_right=p_right,
        rope=rope, a_better_side="right", threshold=threshold,
        decision=decide(p_left, p_rope, p_right, a_better_side="right",
                        threshold=threshold), posterior_mean=location,
        credible_interval_95=ci, details=details, posterior=posterior)


def correlated_bayesian_ttests(a, b, *, rho, ropes, threshold: float = 0.95
                               ) -> list[BayesianResult]:
    """:func:`correlated_bayesian_ttest` of many pairs at once (e.g. all pairs of models).

    One batch of :func:`posterior_parameters` and :func:`posterior_regions` for all rows,
    so each result equals the single-pair call's (same bits) at a fraction of the cost.

    Parameters
    ----------
    a, b : array_like, shape (n_pairs, n)
        Fold scores of model A and model B of each pair (row), n >= 2.
    rho : float
        Correlation heuristic, in [0, 1).
    ropes : sequence of (float or (float, float)), length n_pairs
        The ROPE of each pair, in the forms :func:`correlated_bayesian_ttest` accepts.
    threshold : float

    Returns
    -------
    list of BayesianResult
        As :func:`correlated_bayesian_ttest` with the default matching prior and
        ``on_zero_variance="limit"``, one per row.

    Raises
    ------
    InvalidInputError, TooFewError
        As :func:`correlated_bayesian_ttest`.
    """
    x, y = as_paired_rows(a, b, "correlated Bayesian t-test")
    if len(ropes) != x.shape[0]:
        raise InvalidInputError(f"one ROPE per pair is needed: {x.shape[0]} pairs, "
                                f"{len(ropes)} ROPEs.")
    n = x.shape[1]
    rho = float(_check_rho(rho))
    bounds = [check_rope(r) for r in ropes]
    check_threshold(threshold)
    prior = _check_prior(None, n)
    location, df, scale = posterior_parameters(x - y, rho, prior)
    low, high = (np.array(v, dtype=float) for v in zip(*bounds))
    regions = posterior_regions(location, df, scale, (low, high))
    intervals = credible_interval(df, location, np.where(scale == 0, 1.0, scale))
    decisions = decide(*np.moveaxis(regions, -1, 0), a_better_side="right", threshold=threshold)
    prior_dict = dict(vars(prior))
    out = []
    for i, (loc, nu, sc) in enumerate(zip(location.tolist(), df.tolist(), scale.tolist())):
        point = sc == 0
        p_left, p_rope, p_right = regions[i].tolist()
        out.append(BayesianResult(
            method=METHOD, parameter=PARAMETER, p_left=p_left, p_rope=p_rope, p_right=p_right,
            rope=bounds[i], a_better_side="right", threshold=threshold,
            decision=str(decisions[i]), posterior_mean=loc,
            credible_interval_95=(loc, loc) if point else tuple(intervals[i].tolist()),
            details={"rho": rho, "n_folds": n, "prior": dict(prior_dict), "df": nu,
                     "location": loc, "scale": sc, "degenerate": point},
            posterior=None if point else LazyFrozen("t", nu, loc=loc, scale=sc)))
    return out
