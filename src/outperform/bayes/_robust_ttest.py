"""Robust Bayesian t-test: Student-t likelihood for paired differences (Kruschke's BEST).

Model (Kruschke 2013, "Bayesian estimation supersedes the t test", one-group version on the
paired differences d = a - b; Williams 2026 §5.3 suggests it when the differences are skewed
or heavy-tailed, as in his §6.1 example). On the standardised differences z = (d - m) / s
(m, s the sample mean and sd), so that the priors are as vague as Kruschke's whatever the
units of the scores:

    z_j ~ Student-t(nu, mu, sigma)
    mu ~ Normal(0, 1000^2),  sigma ~ Uniform(1/1000, 1000),  nu - 1 ~ Exponential(rate 1/29)

and Delta = m + s mu. Kruschke's priors are these, written in the data's units
(mu ~ N(mean(y), (1000 sd(y))^2), sigma ~ U(sd(y)/1000, 1000 sd(y))). nu - 1 has prior
mean 29: the prior balances nearly normal and heavy-tailed data; a small posterior nu
(``details["nu_median"]``) says the tails are heavy.

Sampler: NumPyro's NUTS, imported only when the function runs. Why NumPyro rather than
PyMC, measured on this 2-core machine (shared, loaded) for this model with N = 176:
NumPyro 0.22 / JAX 0.10 install as binary wheels (jaxlib ~350 MB, no compiler needed) and
take ~5-20 s from call to samples, almost all of it JIT compilation, which NumPyro repeats
at each call (we compile the whole run once per process and padded data size instead, so
later calls take ~0.2 s);
PyMC 5.28 pulls pytensor, numba, arviz, xarray and h5py (~260 MB), imports in ~5 s and took
~22 s to the first sample with a cold compilation cache (~6 s warm; the cache lives in the
user's home directory). Neither is fast for a single small model; NumPyro needs no C
compiler or on-disk cache, and the package already uses it for the hierarchical t-test, so
one MCMC backend serves both.
"""
from __future__ import annotations

import functools

import numpy as np

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, as_paired, require,
                           check_threshold, check_rope, random_seed)
from ..results import BayesianResult
from ._mcmc import check_convergence, diagnostics, enable_compilation_cache
from ._rope import decide, region_probabilities_from_samples

__all__ = ["robust_bayesian_ttest"]

METHOD = "robust Bayesian t-test (Student-t likelihood, Kruschke 2013)"


def _model(z, observed):
    import numpyro
    import numpyro.distributions as dist

    mu = numpyro.sample("mu", dist.Normal(0.0, 1000.0))
    sigma = numpyro.sample("sigma", dist.Uniform(1e-3, 1e3))
    nu_minus_one = numpyro.sample("nu_minus_one", dist.Exponential(1.0 / 29.0))
    # Padding entries (observed = False) contribute nothing to the likelihood.
    numpyro.sample("z", dist.StudentT(nu_minus_one + 1.0, mu, sigma).mask(observed), obs=z)


@functools.lru_cache(maxsize=16)
def _compiled_sampler(n_chains: int, n_samples: int, n_warmup: int):
    """The whole NUTS run as one jitted function, compiled once per settings and data size.

    NumPyro would otherwise recompile the sampler at every call (5-20 s here); under
    ``jax.jit`` the compiled program is reused for every call with the same settings and the
    same padded data length.
    """
    import jax
    from numpyro.infer import MCMC, NUTS

    enable_compilation_cache()

    def run(key, z, observed):
        mcmc = MCMC(NUTS(_model), num_warmup=n_warmup, num_samples=n_samples,
                    num_chains=n_chains, chain_method="vectorized", progress_bar=False)
        mcmc.run(key, z, observed)
        return mcmc.get_samples(group_by_chain=True)

    return jax.jit(run)


def _sample(z, n_chains, n_samples, n_warmup, seed, progress):
    jax = require("jax", "robust_bayesian_ttest")   # MissingDependencyError naming the extra
    require("numpyro", "robust_bayesian_ttest")
    from numpyro.infer import MCMC, NUTS

    # Pad to a power of two (at least 128) so that data sizes share compiled samplers.
    size = max(128, 1 << (z.size - 1).bit_length())
    padded = np.zeros(size)
    padded[:z.size] = z
    observed = np.arange(size) < z.size
    with jax.enable_x64(True):
        key = jax.random.PRNGKey(seed)
        if progress:  # the progress bar needs NumPyro's own (uncached) Python loop
            mcmc = MCMC(NUTS(_model), num_warmup=n_warmup, num_samples=n_samples,
                        num_chains=n_chains, chain_method="vectorized", progress_bar=True)
            mcmc.run(key, padded, observed)
            draws = mcmc.get_samples(group_by_chain=True)
        else:
            draws = _compiled_sampler(n_chains, n_samples, n_warmup)(key, padded, observed)
        return {k: np.asarray(v, dtype=float) for k, v in draws.items()}


def robust_bayesian_ttest(a, b, *, rope=None, threshold: float = 0.95, n_samples: int = 2000,
                          n_warmup: int = 1000, n_chains: int = 2, random_state: int | None = 0,
                          progress: bool = False) -> BayesianResult:
    """Robust Bayesian estimate of the mean paired difference Delta (Student-t likelihood).

    Parameters
    ----------
    a, b : array_like, shape (N,)
        Paired per-example (or per-group) **scores, higher is better**, of A and B. For
        losses pass them swapped, so that a positive difference favours A.
    rope : float or (float, float), optional
        ROPE on Delta in the units of the scores; default [-0.1 s, 0.1 s], s = sd(d), as
        :func:`outperform.bayes._ttest.bayesian_ttest` (Williams 2026 §5.2).
    threshold : float
        Decision threshold of Williams (2026) §5.2.
    n_samples, n_warmup, n_chains : int
        Draws kept per chain, warm-up draws per chain, and chains (run vectorised).
    random_state : None, int, numpy SeedSequence or Generator
        Seed of the sampler (a ``jax.random.PRNGKey``): an int is used as it is; otherwise
        one is drawn from numpy.
    progress : bool
        Show NumPyro's progress bar.

    Returns
    -------
    BayesianResult
        Region probabilities are the shares of posterior draws of Delta below, inside and
        above the ROPE; ``a_better_side = "right"``; ``samples`` = the draws of Delta
        (n_chains x n_samples, flattened); ``mc_standard_error`` of the largest region
        probability (from its chain's effective sample size). ``details``: ``nu_median``,
        ``sigma_mean`` (scale of d in its units), ``rhat`` and ``ess`` of mu, sigma and nu,
        ``converged``, the seed and the sampler settings.

    Raises
    ------
    InvalidInputError
        Unpaired lengths, NaN values, bad ROPE, threshold or sampler settings.
    TooFewError
        Fewer than 3 pairs.
    DegenerateDataError
        All differences equal.
    MissingDependencyError
        NumPyro is not installed (``pip install 'outperform[bayes]'``), an ``ImportError``.

    Warns
    -----
    ConvergenceWarning
        When R-hat exceeds 1.01 or an effective sample size is below 400.

    References
    ----------
    Kruschke (2013), J. Exp. Psychol.: General 142(2), 573-603; Kruschke (2015) ch. 16;
    Williams (2026) §5.3 and §6.1.

    Examples
    --------
    Skipped as a doctest: the first call compiles the sampler (5-20 s); the tests run it.

    >>> rng = np.random.default_rng(0)
    >>> a = rng.normal(0.3, 1.0, 200) + rng.standard_t(1.5, 200)
    >>> res = robust_bayesian_ttest(a, np.zeros(200))  # doctest: +SKIP
    >>> res.decision, round(res.posterior_mean, 1), round(res.p_a_better, 2)  # doctest: +SKIP
    ('undecided', 0.4, 0.68)
    """
    x, y = as_paired(a, b)
    d = x - y
    n = d.size
    if n < 3:
        raise TooFewError(f"the robust Bayesian t-test needs at least 3 paired values, got {n}.")
    for name, v in (("n_samples", n_samples), ("n_warmup", n_warmup), ("n_chains", n_chains)):
        if int(v) != v or v < 1:
            raise InvalidInputError(f"{name} must be a positive integer, got {v!r}.")
    check_threshold(threshold)
    m, s = float(np.mean(d)), float(np.std(d, ddof=1))
    if s <= 1e-12 * max(np.max(np.abs(x)), np.max(np.abs(y))):
        raise DegenerateDataError(
            f"all {n} differences a - b are equal ({m:g}): there is nothing to estimate.")
    bounds = (-0.1 * s, 0.1 * s) if rope is None else check_rope(rope)
    seed = random_seed(random_state)
    draws = _sample((d - m) / s, int(n_chains), int(n_samples), int(n_warmup), seed, progress)

    delta = m + s * draws["mu"]                      # (chains, draws)
    diag = {k: (float(rhat[0]), float(ess[0])) for k, (rhat, ess) in diagnostics(
        {k: draws[k] for k in ("mu", "sigma", "nu_minus_one")}).items()}
    _, _, converged = check_convergence("robust Bayesian t-test", diag)
    flat = delta.ravel()
    p_left, p_rope, p_right = region_probabilities_from_samples(flat, bounds)
    top = int(np.argmax([p_left, p_rope, p_right]))
    low, high = bounds
    region = [delta < low, (delta >= low) & (delta <= high), delta > high][top].astype(float)
    if np.ptp(region) == 0:
        mcse = 0.0
    else:
        ess_top = float(diagnostics({"p": region})["p"][1][0])
        mcse = float(np.std(region) / np.sqrt(max(ess_top, 1.0)))
    details = {
        "n": n, "mean": m, "sd": s, "nu_median": float(np.median(draws["nu_minus_one"]) + 1.0),
        "sigma_mean": float(s * np.mean(draws["sigma"])),
        "rhat": {"mu": diag["mu"][0], "sigma": diag["sigma"][0], "nu": diag["nu_minus_one"][0]},
        "ess": {"mu": diag["mu"][1], "sigma": diag["sigma"][1], "nu": diag["nu_minus_one"][1]},
        "converged": converged, "seed": seed, "n_chains": int(n_chains),
        "n_samples": int(n_samples), "n_warmup": int(n_warmup),
        "rope_rule": "-+0.1 sd(d)" if rope is None else "user",
    }
    return BayesianResult(
        method=METHOD, parameter="mean difference A - B (scores, higher is better)",
        p_left=p_left, p_rope=p_rope, p_right=p_right, rope=bounds, a_better_side="right",
        threshold=threshold, decision=decide(p_left, p_rope, p_right, a_better_side="right",
                                             threshold=threshold),
        posterior_mean=float(flat.mean()),
        credible_interval_95=tuple(float(v) for v in np.quantile(flat, [0.025, 0.975])),
        mc_standard_error=mcse, details=details, samples=flat)
