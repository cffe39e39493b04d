"""The hierarchical correlated t model: prior, sufficient statistics, potential, start points.

The model and its sufficient statistics are stated in the docstring of
:mod:`outperform.bayes._hierarchical_ttest`; this module holds the pieces NUTS needs.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .._validation import DegenerateDataError, InvalidInputError, require


@dataclass(frozen=True)
class HierarchicalPrior:
    """Hyper-priors of the hierarchical correlated t-test.

    nu - 1 ~ Gamma(alpha, rate=beta), alpha ~ U(*alpha_bounds), beta ~ U(*beta_bounds);
    sigma_i ~ U(0, sigma_scale * s) with s the mean within-data-set sd of the differences;
    sigma0 ~ U(0, sigma_scale * sd of the data-set means); delta0 ~ U(-D, D) with
    D = ``delta0_bound`` (in the units of the scores) or, if None, the largest absolute
    difference (baycomp).

    The defaults are baycomp's (``HierarchicalPrior.baycomp()``): alpha in [1, 2],
    beta in [0.01, 0.1], so E[nu - 1] = alpha / beta lies in [10, 200]. The R code of the
    paper (``HierarchicalPrior.r_version()``) uses alpha in [0.5, 5], beta in [0.05, 0.15]
    and D = 1 (scores as fractions).

    Examples
    --------
    >>> HierarchicalPrior.r_version().alpha_bounds
    (0.5, 5.0)
    """

    alpha_bounds: tuple[float, float] = (1.0, 2.0)
    beta_bounds: tuple[float, float] = (0.01, 0.1)
    sigma_scale: float = 1000.0
    delta0_bound: float | None = None

    def __post_init__(self):
        for name in ("alpha_bounds", "beta_bounds"):
            lo, hi = (float(v) for v in getattr(self, name))
            if not (np.isfinite(lo) and np.isfinite(hi) and 0 < lo < hi):
                raise InvalidInputError(
                    f"{name} must be (low, high) with 0 < low < high, got "
                    f"{getattr(self, name)!r}.")
            object.__setattr__(self, name, (lo, hi))
        if not (np.isfinite(self.sigma_scale) and self.sigma_scale > 1):
            raise InvalidInputError(
                f"sigma_scale must be a large multiple (> 1), got {self.sigma_scale!r}.")
        if self.delta0_bound is not None and not (np.isfinite(self.delta0_bound)
                                                  and self.delta0_bound > 0):
            raise InvalidInputError(
                f"delta0_bound must be positive (or None), got {self.delta0_bound!r}.")

    @classmethod
    def baycomp(cls) -> "HierarchicalPrior":
        """baycomp's HierarchicalTest defaults (alpha in [1, 2], beta in [0.01, 0.1])."""
        return cls()

    @classmethod
    def r_version(cls, delta0_bound: float | None = 1.0) -> "HierarchicalPrior":
        """The R code of Benavoli et al. (alpha in [0.5, 5], beta in [0.05, 0.15], D = 1)."""
        return cls(alpha_bounds=(0.5, 5.0), beta_bounds=(0.05, 0.15),
                   delta0_bound=delta0_bound)


def _summaries(a, b, rope_width):
    """Per data set mean and within sum of squares of d = a - b, zero variance handled."""
    d = a - b
    n = d.shape[1]
    means = d.mean(axis=1)
    within = np.sum((d - means[:, None]) ** 2, axis=1)
    flat = within <= 1e-12 * max(1.0, float(np.max(np.abs(d))) ** 2) * n
    if np.any(flat):
        if rope_width <= 0:
            bad = np.flatnonzero(flat)
            raise DegenerateDataError(
                f"{bad.size} data set(s) (first: index {bad[0]}) have the same difference in "
                "every fold, which makes the posterior improper (its sigma_i can shrink to 0). "
                "Give a rope > 0 (such a data set then gets the variance of U(-rope, rope) "
                "noise, as in baycomp) or leave it out.")
        within = np.where(flat, n * rope_width**2 / 3.0, within)
    return means, within, float(np.max(np.abs(d)))


def _centredness(xbar, c, n):
    """Per data set weight w_i in [0, 1] of the centred parameterisation of delta_i.

    NUTS struggles with a centred hierarchy (delta_i sampled directly) when the data say
    little about each delta_i compared with their spread sigma0 (a funnel), and with a
    non-centred one (delta_i = delta0 + sigma0 z_i) in the opposite case. The optimal
    partial centring of a normal hierarchy (Papaspiliopoulos, Roberts & Sköld 2007) is
    w_i = tau^2 / (tau^2 + se_i^2); se_i^2 is the variance of delta_i's likelihood, tau^2 a
    moment estimate of the spread of the delta_i.
    """
    se2 = 1.0 / (c * max(n - 2.0, 1.0))
    tau2 = max(float(np.var(xbar) - np.mean(se2)), 0.01 * float(np.mean(se2)))
    return tau2 / (tau2 + se2)


def _delta_from(z, delta0, std0, centre):
    """delta from its partially centred coordinate (NumPyro's LocScaleReparam)."""
    return delta0 + std0 ** (1.0 - centre) * (z - centre * delta0)


# Cached: the compiled NUTS runners are keyed by this generator object.
@functools.lru_cache(maxsize=2)
def _potential_gen(truncate):
    """Factory of the negative log posterior in unconstrained coordinates (jax).

    Parameters (a dict): ``alpha``, ``beta``, ``delta0``, ``std0`` map to their uniform
    priors' intervals by an affine logistic transform, ``log_nu_minus_one`` is log(nu - 1),
    ``z`` the q partially centred data-set means: delta_i = delta0 + std0^(1 - w_i)
    (z_i - w_i delta0), so that z_i ~ t_nu(w_i delta0, std0^w_i) (:func:`_centredness`).
    Uniform priors are constant, so the density is the Gamma prior of nu - 1, the Student
    prior of the z_i, the likelihood with sigma_i integrated out,
    -(n - 1)/2 sum_i log(1 + c_i (xbar_i - delta_i)^2), the truncation term when it matters
    (module docstring) and the log-Jacobians.

    ``mask`` (optional, 1 for a data set, 0 for padding; default all 1): padded entries
    leave every sum and become independent standard normal coordinates, apart from the rest
    of the model, so the posterior of the real ones is unchanged. Padding the data sets to
    :func:`padded_size` lets one compiled sampler serve every q of a bucket.
    """
    require("jax", "the MCMC sampler of hierarchical_ttest")   # MissingDependencyError
    import jax.numpy as jnp
    from jax.nn import log_sigmoid, sigmoid
    from jax.scipy.special import gammaincc, gammaln

    def bounded(raw, low, high):
        return low + (high - low) * sigmoid(raw), log_sigmoid(raw) + log_sigmoid(-raw)

    def potential_gen(xbar, c, q_ref, centre, n, bounds, prior_bounds, mask=None):
        half = 0.5 * (n - 1.0)
        mask = jnp.ones_like(xbar) if mask is None else mask

        def potential(p):
            alpha, log_ja = bounded(p["alpha"], prior_bounds[0], prior_bounds[1])
            beta, log_jb = bounded(p["beta"], prior_bounds[2], prior_bounds[3])
            delta0, log_jd = bounded(p["delta0"], -bounds[0], bounds[0])
            std0, log_js = bounded(p["std0"], 0.0, bounds[1])
            log_g, z = p["log_nu_minus_one"], p["z"]
            g = jnp.exp(log_g)
            nu = g + 1.0
            lp = log_ja + log_jb + log_jd + log_js
            # nu - 1 ~ Gamma(alpha, rate beta), as a density of log(nu - 1).
            lp += alpha * jnp.log(beta) - gammaln(alpha) + alpha * log_g - beta * g
            # z_i ~ t_nu(w_i delta0, std0^w_i), i.e. delta_i ~ t_nu(delta0, std0).
            log_scale = centre * jnp.log(std0)
            real = mask > 0
            # Padded entries enter the terms below as 0 (not masked after the fact: a far
            # padded z could make a term infinite, and 0 * inf is NaN, in the gradient too).
            t = jnp.where(real, (z - centre * delta0) * jnp.exp(-log_scale), 0.0)
            lp += jnp.sum(mask) * (gammaln(0.5 * (nu + 1.0)) - gammaln(0.5 * nu)
                                   - 0.5 * jnp.log(nu))
            lp -= (jnp.sum(mask * log_scale)
                   + 0.5 * (nu + 1.0) * jnp.sum(mask * jnp.log1p(t * t / nu)))
            ratio = jnp.where(real, c * (xbar - _delta_from(z, delta0, std0, centre)) ** 2, 0.0)
            lp -= half * jnp.sum(mask * jnp.log1p(ratio))
            if truncate:
                lp += jnp.sum(mask * jnp.log(gammaincc(half, q_ref * (1.0 + ratio)
                                                       / (2.0 * bounds[2] ** 2))))
            lp -= 0.5 * jnp.sum((1.0 - mask) * z * z)     # padding: standard normals
            return -lp

        return potential

    return potential_gen


#: Data-set counts are padded up to a multiple of this, so one compiled sampler serves
#: e.g. every q from 49 to 64 (each new q otherwise compiles for ~10 s).
DATA_SET_BUCKET = 16


def padded_size(q: int) -> int:
    """The number of data sets the sampler is compiled for: q rounded up to the bucket."""
    return -(-q // DATA_SET_BUCKET) * DATA_SET_BUCKET


def padded_args(xbar, c, q_ref, centre):
    """The per-data-set arguments of the potential padded to :func:`padded_size`, and the
    mask. Padded entries get values that keep every masked term finite (centre 0: the
    padded z is delta's non-centred coordinate; x-bar 0, c and q_ref 1)."""
    q = xbar.size
    extra = padded_size(q) - q
    pad = [np.concatenate([v, np.full(extra, fill)])
           for v, fill in ((xbar, 0.0), (c, 1.0), (q_ref, 1.0), (centre, 0.0))]
    return (*pad, np.concatenate([np.ones(q), np.zeros(extra)]))


def _initial_values(xbar, within_sd, centre, bounds, prior, n_chains, rng):
    """Dispersed starting points around the data (unconstrained), one per chain."""
    from scipy.special import logit

    delta_bound, std0_hi, _ = bounds
    spread = max(float(np.std(xbar)), 1e-3)
    lo_a, hi_a = prior.alpha_bounds
    lo_b, hi_b = prior.beta_bounds
    d0 = np.clip(np.mean(xbar) + rng.uniform(-0.5, 0.5, n_chains) * spread,
                 -0.9 * delta_bound, 0.9 * delta_bound)
    s0 = np.minimum(spread * np.exp(rng.uniform(-0.5, 0.5, n_chains)), 0.5 * std0_hi)
    delta = xbar[None, :] + 0.3 * within_sd[None, :] * rng.uniform(-1, 1, (n_chains, xbar.size))
    z = centre * d0[:, None] + (delta - d0[:, None]) / s0[:, None] ** (1.0 - centre)
    return {
        "alpha": rng.uniform(-2, 2, n_chains),
        "beta": rng.uniform(-2, 2, n_chains),
        "log_nu_minus_one": np.log((lo_a + hi_a) / (lo_b + hi_b)) + rng.uniform(-1, 1, n_chains),
        "delta0": logit((d0 + delta_bound) / (2 * delta_bound)),
        "std0": logit(s0 / std0_hi),
        "z": z,
    }


def _constrained(draws, bounds, prior, centre):
    """The draws on their natural scale, still standardised (numpy)."""
    from scipy.special import expit

    (lo_a, hi_a), (lo_b, hi_b) = prior.alpha_bounds, prior.beta_bounds
    delta0 = bounds[0] * (2.0 * expit(draws["delta0"]) - 1.0)
    std0 = bounds[1] * expit(draws["std0"])
    return {
        "delta0": delta0, "std0": std0,
        "nu": np.exp(draws["log_nu_minus_one"]) + 1.0,
        "alpha": lo_a + (hi_a - lo_a) * expit(draws["alpha"]),
        "beta": lo_b + (hi_b - lo_b) * expit(draws["beta"]),
        "delta": _delta_from(draws["z"], delta0[..., None], std0[..., None], centre),
    }


def _truncation_matters(q_ref, c, xbar, delta_bound, n, std_hi) -> bool:
    """Whether sigma_i <= sigma_bar changes the log-likelihood by more than 1e-12.

    The term is log GammaQ((n-1)/2, Q_i / (2 sigma_bar^2)); it is evaluated at a Q_i far
    beyond the posterior (|xbar_i - delta_i| = 3 D). With sigma_bar = 1000 s it is ~1e-200
    and is left out of the compiled potential.
    """
    from scipy.special import gammainc

    q_far = q_ref * (1.0 + c * (np.abs(xbar) + 3.0 * delta_bound) ** 2)
    return bool(np.max(gammainc(0.5 * (n - 1.0), q_far / (2.0 * std_hi**2))) > 1e-12)
