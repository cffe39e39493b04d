"""Hierarchical correlated Bayesian t-test over many data sets (Benavoli et al. 2017 §4.3.1).

Model (Corani, Benavoli, Demšar, Mangili & Zaffalon 2017; Benavoli, Corani, Demšar &
Zaffalon 2017 §4.3.1; Williams 2026 §5.5 eqs. 8-9). For data set i = 1..q, the n fold
differences x_i = a_i - b_i (m runs of k-fold cross-validation, n = m k) follow

    x_i ~ MVN(1 delta_i, sigma_i^2 M(rho)),   M = (1 - rho) I + rho 11'
    delta_i ~ t_nu(delta0, sigma0),          sigma_i ~ U(0, sigma_bar)
    delta0 ~ U(-D, D),  sigma0 ~ U(0, sigma0_bar),  nu - 1 ~ Gamma(alpha, rate=beta),
    alpha ~ U(alpha_lo, alpha_hi),  beta ~ U(beta_lo, beta_hi).

Sufficient statistics. With M^-1 = (I - rho / (1 + (n - 1) rho) 11') / (1 - rho) and
det M = (1 + (n - 1) rho)(1 - rho)^(n - 1) (NOTES.md),

    (x - 1 delta)' M^-1 (x - 1 delta) = W / (1 - rho) + n (xbar - delta)^2 / (1 + (n - 1) rho),

W = sum_j (x_j - xbar)^2, so each data set enters only through (xbar_i, W_i) and a draw
costs O(q); nothing of size q x n is stored (the Stan model of baycomp recomputes and stores
the q x n residual matrix at every draw).

sigma_i integrated out exactly. With sigma_i ~ U(0, S) and Q_i the quadratic form above,

    ∫_0^S sigma^-n exp(-Q / (2 sigma^2)) dsigma = 1/2 (Q/2)^(-(n-1)/2) Gamma((n-1)/2)
                                                 * GammaQ((n-1)/2, Q / (2 S^2)),

(GammaQ the regularised upper incomplete gamma function). As a function of delta_i this is
(1 + c_i (xbar_i - delta_i)^2)^(-(n-1)/2), c_i = n (1 - rho) / ((1 + (n - 1) rho) W_i): a
Student kernel, the correlated t-test's posterior (Corani & Benavoli 2015), times the
GammaQ factor, which is 1 to double precision unless S is small (it is then kept). The
sampler only sees delta0, sigma0, nu, alpha, beta and the delta_i: the same posterior in
q + 5 dimensions instead of 2q + 5, without the sigma_i-delta_i funnels. The delta_i are
partially centred (delta_i = delta0 + sigma0^(1-w_i) (z_i - w_i delta0), NumPyro's
LocScaleReparam) with w_i = tau^2 / (tau^2 + se_i^2) (Papaspiliopoulos, Roberts & Sköld
2007): centred for data sets that pin their delta_i down, non-centred for vague ones.

Scale. As baycomp (and the R code of the paper) do, the differences are divided by
s = mean_i sd(x_i) before sampling and the results multiplied back; the prior bounds are set
on the same scale, so the answer does not depend on the units of the scores (percent or
fraction): sigma_bar = ``sigma_scale`` * s (default 1000 s), sigma0_bar = ``sigma_scale`` *
sd_i(xbar_i) (the "large multiples" of §4.3.1), and D = max |x| (baycomp; the paper and its R
code use D = 1 for scores that are fractions). A data set whose differences have zero
variance makes the posterior improper (sigma_i -> 0); baycomp then replaces its values by
mirrored U(-rope, rope) noise, and we give it the sum of squares that noise has in
expectation, W = n rope^2 / 3, deterministically (and raise if rope = 0).

Sampler: NUTS from NumPyro's functional API (``numpyro.infer.hmc.hmc``), in float32, the
chains ``vectorized`` (``jax.vmap``) inside one jitted scan, each chain starting from the
inverse Hessian diagonal of the potential as its mass matrix (``_mcmc._sampler``: the
first warm-up window, with NumPyro's identity, ran trees of up to 1,023 leapfrog steps and
cost three quarters of the run). The data are arguments of the compiled program, padded to
a multiple of 16 data sets (the padding is masked out of the model: ``_hierarchical_model.
padded_args``), so in one process a second call on data of the same number of folds and a
number of data sets in the same bucket (e.g. 49-64) does not compile again, and thanks to the
cache folder (on by default, ``~/.cache/outperform/jax``; ``OUTPERFORM_JAX_CACHE=0`` turns
it off, ``=<folder>`` moves it: :func:`outperform.bayes.compilation_cache_folder`), which
holds the traced program (``jax.export``) and JAX's compiled code, neither does a later
process. With the defaults (4 chains x (1,000 + 2,500) draws, chains vectorised, up to 64
data sets) not even a first process traces or compiles: the package ships both programs
(:mod:`outperform.bayes._shipped`; the compiled one is loaded with the jax and jaxlib, and on
a CPU with the extensions, it was built with). Measured by benchmarks/bench_hierarchical.py on the 54 x 100 UCI data, 4 chains x
(1,000 + 10,000) draws, on a shared 2-core machine before these two changes: 22-33 s end
to end depending on the load (imports 2.6 s, tracing and compiling ~10-15 s, sampling
~10 s; 11 s for a second call), peak memory 0.85-0.91 GB (0.27 GB of it jax itself), ESS
of delta0 60,000, i.e. 1,800-2,700 per second end to end (benchmarks/README.md has the
figures since). Chains one after the other ("sequential") compile faster but sample
slower (17 s for a second call). baycomp's HierarchicalTest (pystan) on the same data: 181 s
and 2.9 GB for 4 x 1,000 draws, 21 ESS/s, with the same probabilities. Why NumPyro:
jax + jaxlib + numpyro are wheels of ~390 MB that need no compiler and compile the model
in seconds; PyMC (not installed, not measured) compiles through pytensor's C backend and
brings arviz/xarray; pystan needs a C++ toolchain and ~600 MB, builds its model for about a
minute and stores the q x n residual matrix of every draw.

Probabilities. For each draw of (delta0, sigma0, nu) the next data set's delta ~
t_nu(delta0, sigma0) gives three region probabilities (left, rope, right). Two summaries:

- "argmax" (the default ``region_rule``, Benavoli et al. 2017 §4.3.2 and baycomp): the
  share of draws in which each region is the most probable one;
- "averaged": their average over the draws, i.e. the posterior predictive probabilities of
  the regions for the next data set (as Williams 2026 footnote 15 does for the McNemar
  model).

Both are always in ``details``.

Sign convention: scores, higher is better; x = a - b, so a positive difference favours A and
``a_better_side = "right"``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError,
                           as_float_array, check_choice, check_threshold, check_rope,
                           random_seed)
from ..results import BayesianResult
from ._hierarchical_model import (HierarchicalPrior, _centredness, _constrained, _initial_values,
                                  _potential_gen, _summaries, _truncation_matters,
                                  padded_args)
from ._mcmc import check_convergence, diagnostics, run_nuts
from ._rope import decide, student_regions

__all__ = ["HierarchicalPrior", "HierarchicalPosterior", "hierarchical_correlated_ttest"]

METHOD = "hierarchical correlated Bayesian t-test (Benavoli et al. 2017 §4.3.1)"
PARAMETER = "delta_next: mean difference A - B on a new data set"


@dataclass(frozen=True, eq=False)
class HierarchicalPosterior:
    """Posterior draws of the hierarchical t-test, in the units of the scores.

    Arrays have shape (n_chains, n_samples) (``delta``: (n_chains, n_samples, q)).
    ``delta_next`` are draws of the next data set's mean difference, ``regions`` the
    per-draw (P(left), P(rope), P(right)) under t_nu(delta0, sigma0), shape (n_draws, 3).
    """

    delta0: np.ndarray = field(repr=False)
    std0: np.ndarray = field(repr=False)
    nu: np.ndarray = field(repr=False)
    delta: np.ndarray = field(repr=False)
    delta_next: np.ndarray = field(repr=False)
    regions: np.ndarray = field(repr=False)
    names: list[str]
    raw_means: np.ndarray = field(repr=False)
    rope: tuple[float, float]




def hierarchical_correlated_ttest(a, b, *, rho: float, rope=0.0,
                                  names: Sequence[str] | None = None,
                                  prior: HierarchicalPrior | None = None,
                                  threshold: float = 0.95, n_chains: int = 4,
                                  n_samples: int = 2500, n_warmup: int = 1000,
                                  random_state: int | None = 0, progress: bool = False,
                                  chain_method: str = "vectorized",
                                  region_rule: str = "argmax") -> BayesianResult:
    """Hierarchical correlated Bayesian t-test of two algorithms over many data sets.

    Benavoli, Corani, Demšar & Zaffalon (2017) §4.3.1 (the model of Corani et al. 2017),
    sampled with NumPyro's NUTS on the sufficient statistics, sigma_i integrated out (see the
    module docstring, which also gives the model and the scaling of the priors).

    Parameters
    ----------
    a, b : array_like, shape (q, n)
        Scores (higher is better) of algorithms A and B on q data sets, n folds each (e.g.
        10 runs of 10-fold cross-validation, n = 100), paired by (data set, fold).
    rho : float
        Correlation of the fold differences, in [0, 1): n_test / (n_train + n_test) by the
        heuristic of Nadeau & Bengio, 1 / k for k-fold cross-validation.
    rope : float or (float, float)
        ROPE on the difference, in the units of the scores (e.g. 1 for accuracies in percent,
        0.01 for fractions; Benavoli et al. use 1%). 0 gives no ROPE.
    names : sequence of str, optional
        Data set names.
    prior : HierarchicalPrior, optional
        Hyper-prior bounds; default ``HierarchicalPrior.baycomp()``.
    threshold : float
        Decision threshold of Williams (2026) §5.2.
    n_chains, n_samples, n_warmup : int
        NUTS chains, kept draws per chain and warm-up draws per chain.
    random_state : None, int, numpy SeedSequence or Generator
        Seed (a ``jax.random.PRNGKey``): an int is used as it is; otherwise one is drawn from
        numpy (:func:`outperform._validation.random_seed`).
    progress : bool
        Show the sampling on stderr: a spinner with the time elapsed on a terminal, a line
        in a log, and the time taken at the end. The sampling loop is one compiled program,
        so there is no per-draw progress bar.
    chain_method : {"vectorized", "sequential"}
        How the chains run on one CPU ("vectorized" was the faster in our benchmark).
    region_rule : {"argmax", "averaged"}
        Which probabilities go into ``p_left``, ``p_rope``, ``p_right`` (both are always in
        ``details``): "argmax" (default, Benavoli et al. 2017 §4.3.2 and baycomp) is the
        share of posterior draws in which each region is the most probable one for the next
        data set; "averaged" is the posterior predictive probability of each region for the
        next data set's delta (the per-draw probabilities averaged, as Williams 2026
        footnote 15 does for the McNemar model). With heavy-tailed t_nu the second is much
        less extreme: on the UCI data, hnb vs nbc gives 0.997 vs 0.58 for "hnb better".

    Returns
    -------
    BayesianResult
        ``p_left``, ``p_rope``, ``p_right``: by ``region_rule``, the regions below, inside
        and above the ROPE of the next data set's mean difference delta_next ~
        t_nu(delta0, sigma0). ``a_better_side = "right"``; ``mc_standard_error`` of the
        largest of the three, from its effective sample size.
        ``posterior_mean``: E[delta0]; ``credible_interval_95``: of delta_next.
        ``samples``: per-draw (P(left), P(rope), P(right)), shape (n_chains * n_samples, 3),
        as baycomp returns them (for the simplex plot). ``posterior``: a
        :class:`HierarchicalPosterior` with the draws. ``details``: ``p_regions_argmax``
        and ``p_regions_averaged`` (the two rules), ``region_rule``, ``p_delta0_regions``
        (posterior of delta0 in the regions), ``delta0_mean``,
        ``delta0_ci95``, ``std0_mean``, ``nu_mean``, ``nu_median``, ``names``,
        ``raw_means`` and ``shrunk_means`` / ``shrunk_ci95`` (per data set delta_i),
        ``rhat_max``, ``ess_min`` (over delta0, sigma0, nu, alpha, beta and the delta_i),
        ``ess_delta0``, ``scale`` (the s the data were divided by), ``prior``, ``rho``.

    Warns
    -----
    ConvergenceWarning
        When the largest split R-hat exceeds 1.01 or the smallest effective sample size is
        below 400: run more samples or chains.

    Raises
    ------
    InvalidInputError
        a and b not 2-D of the same shape, NaN, rho outside [0, 1), bad rope or options.
    TooFewError
        Fewer than 2 data sets or 2 folds.
    DegenerateDataError
        All differences zero, or a data set with constant differences and rope = 0.

    References
    ----------
    Benavoli, Corani, Demšar & Zaffalon (2017), JMLR 18(77), §4.3; Corani et al. (2017),
    Machine Learning 106:1817-1837; Williams (2026) §5.5; baycomp's HierarchicalTest.

    Examples
    --------
    Two algorithms on 54 data sets, 10-fold cross-validation, A better by about one point
    (accuracy in percent), ROPE of half a point:

    >>> rng = np.random.default_rng(0)
    >>> effect = rng.normal(1.0, 0.5, size=(54, 1))
    >>> a = 80 + effect + rng.normal(0, 1, size=(54, 10))
    >>> b = 80 + rng.normal(0, 1, size=(54, 10))
    >>> res = hierarchical_correlated_ttest(a, b, rho=0.1, rope=0.5, n_chains=2,
    ...                                     n_samples=1000, n_warmup=500)
    >>> res.decision, round(res.posterior_mean, 1)
    ('A better', 1.0)
    """
    x = as_float_array(a, "a", ndim=2)
    y = as_float_array(b, "b", ndim=2)
    if x.shape != y.shape:
        raise InvalidInputError(
            f"a and b must be paired (same data sets and folds), got shapes {x.shape} and "
            f"{y.shape}.")
    q, n = x.shape
    if q < 2:
        raise TooFewError(f"the hierarchical test needs at least 2 data sets (rows), got {q}.")
    if n < 2:
        raise TooFewError(f"each data set needs at least 2 folds (columns), got {n}.")
    rho = float(rho)
    if not 0.0 <= rho < 1.0:
        raise InvalidInputError(
            f"rho must lie in [0, 1) (1/k for k-fold cross-validation), got {rho!r}.")
    rope_bounds = check_rope(rope)
    check_threshold(threshold)
    prior = HierarchicalPrior() if prior is None else prior
    if not isinstance(prior, HierarchicalPrior):
        raise InvalidInputError("prior must be a HierarchicalPrior.")
    check_choice(region_rule, "region_rule", ("argmax", "averaged"))
    if chain_method not in ("vectorized", "sequential"):
        raise InvalidInputError(
            f"chain_method must be 'vectorized' or 'sequential', got {chain_method!r}.")
    for value, what in ((n_chains, "n_chains"), (n_samples, "n_samples"),
                        (n_warmup, "n_warmup")):
        if int(value) != value or value < 1:
            raise InvalidInputError(f"{what} must be a positive integer, got {value!r}.")
    if names is not None:
        names = [str(s) for s in names]
        if len(names) != q:
            raise InvalidInputError(f"names has {len(names)} entries for {q} data sets.")
    names = names if names is not None else [str(i) for i in range(q)]
    if np.all(x == y):
        raise DegenerateDataError(
            "a and b are identical on every data set and fold: there is nothing to compare.")

    half_width = 0.5 * (rope_bounds[1] - rope_bounds[0])
    means, within, max_abs = _summaries(x, y, half_width)
    within_sd = np.sqrt(within / n)
    scale = float(np.mean(within_sd))            # mean sd (ddof 0), as baycomp
    xbar, w = means / scale, within / scale**2
    delta_bound = (prior.delta0_bound if prior.delta0_bound is not None else max_abs) / scale
    bounds = (delta_bound, prior.sigma_scale * max(float(np.std(xbar)), 1e-3),
              prior.sigma_scale)
    q_ref = w / (1.0 - rho)
    c = n / (1.0 + (n - 1.0) * rho) / q_ref
    seed = random_seed(random_state)
    truncate = _truncation_matters(q_ref, c, xbar, delta_bound, n, bounds[2])
    centre = _centredness(xbar, c, n)
    init = _initial_values(xbar, within_sd / scale, centre, bounds, prior, int(n_chains),
                           np.random.default_rng(seed))
    # Padded to a bucket of data-set counts: one compiled sampler for every q in it.
    *per_set, mask = padded_args(xbar, c, q_ref, centre)
    args = (*per_set, float(n), np.array(bounds),
            np.array(prior.alpha_bounds + prior.beta_bounds), mask)
    init["z"] = np.pad(init["z"], ((0, 0), (0, mask.size - q)))
    stage = (f"hierarchical t-test: NUTS, {n_chains} chains x ({n_warmup} warm-up + "
             f"{n_samples}) draws on {q} data sets")
    from .._cost import check_mcmc_cost

    check_mcmc_cost(int(mask.size), n_chains=int(n_chains), n_samples=int(n_samples),
                    n_warmup=int(n_warmup))        # the padded data sets are sampled too
    raw, divergent = run_nuts(_potential_gen(truncate), args, init,
                              name="hierarchical_ttest" + ("_truncated" if truncate else ""),
                              n_chains=int(n_chains), n_samples=int(n_samples),
                              n_warmup=int(n_warmup), seed=seed, chain_method=chain_method,
                              status=stage if progress else None)
    raw["z"] = raw["z"][..., :q]                       # the padding's draws are dropped
    draws = _constrained(raw, bounds, prior, centre)
    delta0, std0, nu = draws["delta0"] * scale, draws["std0"] * scale, draws["nu"]
    delta = draws["delta"] * scale
    diag = diagnostics({k: draws[k] for k in ("delta0", "std0", "nu", "alpha", "beta",
                                               "delta")})
    rhat_max, ess_min, _ = check_convergence("hierarchical t-test", diag, divergent=divergent)

    flat0, flats, flatnu = delta0.ravel(), std0.ravel(), nu.ravel()
    regions = student_regions(flatnu, flat0, flats, rope_bounds)
    averaged = regions.mean(axis=0)
    winner = np.argmax(regions, axis=1)
    argmax = np.bincount(winner, minlength=3) / winner.size
    chosen = argmax if region_rule == "argmax" else averaged
    p_left, p_rope, p_right = (float(v) for v in chosen)
    top = int(np.argmax(chosen))
    per_draw = (winner == top).astype(float) if region_rule == "argmax" else regions[:, top]
    mcse = 0.0
    if np.std(per_draw) > 0:
        ess_top = float(diagnostics({"p": per_draw.reshape(delta0.shape)})["p"][1][0])
        mcse = float(np.std(per_draw) / np.sqrt(max(ess_top, 1.0)))
    delta_next = flat0 + flats * np.random.default_rng(seed).standard_t(flatnu)
    flat_delta = delta.reshape(-1, q)
    posterior = HierarchicalPosterior(
        delta0=delta0, std0=std0, nu=nu, delta=delta, delta_next=delta_next, regions=regions,
        names=names, raw_means=means, rope=rope_bounds)
    details = {
        "p_regions_argmax": tuple(float(v) for v in argmax),
        "p_regions_averaged": tuple(float(v) for v in averaged), "region_rule": region_rule,
        "p_delta0_regions": (float(np.mean(flat0 < rope_bounds[0])),
                             float(np.mean((flat0 >= rope_bounds[0]) & (flat0 <= rope_bounds[1]))),
                             float(np.mean(flat0 > rope_bounds[1]))),
        "delta0_mean": float(flat0.mean()),
        "delta0_ci95": tuple(float(v) for v in np.quantile(flat0, [0.025, 0.975])),
        "std0_mean": float(flats.mean()), "nu_mean": float(flatnu.mean()),
        "nu_median": float(np.median(flatnu)),
        "names": names, "raw_means": means, "shrunk_means": flat_delta.mean(axis=0),
        "shrunk_ci95": np.quantile(flat_delta, [0.025, 0.975], axis=0).T,
        "rhat_max": rhat_max, "ess_min": ess_min, "divergent": divergent,
        "ess_delta0": float(diag["delta0"][1][0]),
        "n_chains": int(n_chains), "n_samples": int(n_samples), "n_warmup": int(n_warmup),
        "seed": seed, "scale": scale, "rho": rho, "prior": prior,
        "centredness": centre,
    }
    return BayesianResult(
        method=METHOD, parameter=PARAMETER, p_left=p_left, p_rope=p_rope, p_right=p_right,
        rope=rope_bounds, a_better_side="right", threshold=threshold,
        decision=decide(p_left, p_rope, p_right, a_better_side="right",
                        threshold=threshold),
        posterior_mean=float(flat0.mean()),
        credible_interval_95=tuple(float(v) for v in np.quantile(delta_next, [0.025, 0.975])),
        mc_standard_error=mcse, details=details, posterior=posterior, samples=regions)
