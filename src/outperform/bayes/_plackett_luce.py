"""Bayesian Plackett–Luce model over per-task rankings (Calvo et al. 2018; scmamp).

Model (Calvo, Ceberio & Lozano 2018, "Bayesian inference for algorithm ranking analysis",
GECCO; the Stan model ``pl_model.stan`` of R's scmamp, ``bPlackettLuceModel``). On task s the
m algorithms are ranked, o_s = (o_s1, ..., o_sm) best first, and

    P(o_s | w) = prod_{i=1}^{m-1} w_{o_si} / sum_{j >= i} w_{o_sj},    w ~ Dirichlet(alpha),

w a point of the simplex: w_k is the probability that k ranks first on a new task (Luce's
choice axiom), the quantity scmamp reports as the expected win probability. Ties within a
task are broken at random, as scmamp does (``rank(ties.method = "random")``), with the seed
given.

Sampler: NUTS (NumPyro's functional API through :func:`._mcmc.run_nuts`, the compiled
runner, its persistent compilation cache and the convergence checks shared with the
hierarchical t-test) on z in R^(m-1), w = softmax(z, 0) (the additive log-ratio transform,
whose log-Jacobian is sum_k log w_k, so the log posterior is sum_k alpha_k log w_k plus the
log-likelihood). The likelihood only needs, per task and position i, the set of algorithms
ranked i or worse: a 0/1 mask (n, m - 1, m), so the compiled program does not depend on the
rankings' values and is reused for every table of the same shape.
"""
from __future__ import annotations

import numpy as np

from .._parallel import progress_status
from .._validation import (InvalidInputError, as_score_matrix, check_random_state,
                           random_seed)
from ..results._ratings import PlackettLuceResult
from ._mcmc import check_convergence, diagnostics, run_nuts

__all__ = ["plackett_luce"]


def _potential_gen(mask, last_counts, alpha, n_tasks):
    """Negative log posterior of z (jax): Dirichlet prior on w = softmax(z, 0), PL likelihood."""
    import jax.numpy as jnp
    from jax.scipy.special import logsumexp

    def potential(p):
        u = jnp.concatenate([p["z"], jnp.zeros(1)])
        log_w = u - logsumexp(u)
        top = jnp.max(u)
        # sum_s sum_{i < m} [u_{o_si} - log sum_{j ranked i or worse} exp(u_j)]
        chosen = n_tasks * jnp.sum(u) - jnp.dot(last_counts, u)
        denominators = jnp.sum(jnp.log(mask @ jnp.exp(u - top))) + mask.shape[0] * \
            mask.shape[1] * top
        return -(jnp.dot(alpha, log_w) + chosen - denominators)

    return potential


def _rankings(scores: np.ndarray, higher_is_better: bool, rng) -> tuple[np.ndarray, int]:
    """Rank of each algorithm on each task (0 = best), ties broken at random; tied tasks."""
    key = -scores if higher_is_better else scores
    order = np.lexsort((rng.random(scores.shape), key), axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(scores.shape[1])[None, :], axis=1)
    tied = int(np.sum([np.unique(row).size < row.size for row in key]))
    return ranks, tied


def plackett_luce(scores, *, names=None, higher_is_better: bool = True, prior=1.0,
                  n_chains: int = 4, n_samples: int = 2000, n_warmup: int = 1000,
                  random_state=0, progress: bool = False,
                  chain_method: str = "vectorized") -> PlackettLuceResult:
    """Bayesian Plackett–Luce analysis of algorithms ranked on many tasks (Calvo et al. 2018).

    Parameters
    ----------
    scores : array_like or DataFrame, shape (n_tasks, m)
        The Q3 table: one row per task (data set), one column per algorithm. A DataFrame's
        columns name the algorithms.
    names : sequence of str, optional
        Algorithm names (default: the DataFrame's columns, else "0", "1", ...).
    higher_is_better : bool
        Whether the highest score ranks first (accuracy) or the lowest (error).
    prior : float or array_like of shape (m,)
        Dirichlet concentration alpha of the prior of w (scmamp's default: 1, uniform).
    n_chains, n_samples, n_warmup : int
        NUTS chains, kept draws per chain and warm-up draws per chain.
    random_state : int, Generator or None
        Seed of the tie-breaking and of the sampler.
    progress : bool
        A spinner and the time taken on stderr.
    chain_method : {"vectorized", "sequential"}

    Returns
    -------
    PlackettLuceResult
        ``p_best`` (E[w_k]: P(k ranks first on a new task)), ``p_highest_weight``,
        ``expected_rank`` (scmamp's expected rank in the most probable ranking),
        ``expected_task_rank``, credible intervals of w and the draws.

    Warns
    -----
    ConvergenceWarning
        Largest split R-hat above 1.01, smallest effective sample size below 400 or
        divergent transitions.

    Raises
    ------
    InvalidInputError
        NaN or non-numeric scores, a prior that is not positive or of the wrong length, bad
        sampler settings or names.
    TooFewError
        Fewer than 2 algorithms or fewer than 1 task.

    References
    ----------
    Calvo, Ceberio & Lozano (2018), GECCO '18, 201-208; Plackett (1975), Luce (1959);
    scmamp's ``bPlackettLuceModel`` and ``inst/stan/pl_model.stan``.

    Examples
    --------
    Algorithm "a" first on 9 of 10 tasks:

    >>> scores = np.array([[3, 2, 1]] * 9 + [[1, 3, 2]])
    >>> res = plackett_luce(scores, names=["a", "b", "c"], n_chains=2, n_samples=1000)
    >>> res.models[int(np.argmax(res.p_best))], bool(res.p_highest_weight[0] > 0.9)
    ('a', True)
    """
    if names is None and hasattr(scores, "columns"):
        names = [str(c) for c in scores.columns]
    x = as_score_matrix(scores, min_tasks=1)
    n, m = x.shape
    names = [str(i) for i in range(m)] if names is None else [str(s) for s in names]
    if len(names) != m:
        raise InvalidInputError(f"names has {len(names)} entries for {m} algorithms.")
    alpha = np.broadcast_to(np.asarray(prior, dtype=float), (m,)).copy() \
        if np.ndim(prior) == 0 else np.asarray(prior, dtype=float)
    if alpha.shape != (m,) or not np.all(np.isfinite(alpha)) or np.any(alpha <= 0):
        raise InvalidInputError(f"prior must be a positive number or {m} positive numbers, "
                                f"got {prior!r}.")
    for value, what in ((n_chains, "n_chains"), (n_samples, "n_samples"),
                        (n_warmup, "n_warmup")):
        if int(value) != value or value < 1:
            raise InvalidInputError(f"{what} must be a positive integer, got {value!r}.")
    if chain_method not in ("vectorized", "sequential"):
        raise InvalidInputError(
            f"chain_method must be 'vectorized' or 'sequential', got {chain_method!r}.")
    rng = check_random_state(random_state)
    seed = random_seed(random_state)
    ranks, tied = _rankings(x, higher_is_better, rng)
    mask = (ranks[:, None, :] >= np.arange(m - 1)[None, :, None]).astype(float)
    last_counts = np.bincount(np.argmax(ranks, axis=1), minlength=m).astype(float)
    init = {"z": 0.1 * np.random.default_rng(seed).standard_normal((int(n_chains), m - 1))}
    stage = (f"Plackett-Luce: NUTS, {n_chains} chains x ({n_warmup} warm-up + {n_samples}) "
             f"draws, {m} models on {n} tasks (the first call compiles)")
    with progress_status(stage, progress):
        raw, divergent = run_nuts(_potential_gen, (mask, last_counts, alpha, float(n)), init,
                                  name="plackett_luce",
                                  n_chains=int(n_chains), n_samples=int(n_samples),
                                  n_warmup=int(n_warmup), seed=seed, chain_method=chain_method)
    u = np.concatenate([raw["z"], np.zeros(raw["z"].shape[:2] + (1,))], axis=-1)
    w = np.exp(u - u.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    rhat_max, ess_min, _ = check_convergence("Plackett-Luce", diagnostics({"w": w}),
                                             divergent=divergent,
                                             advice="Increase n_samples or n_chains.")
    flat = w.reshape(-1, m)
    mode_rank = np.argsort(np.argsort(-flat, axis=1), axis=1) + 1
    task_rank = 1 + np.sum(flat[:, None, :] / (flat[:, None, :] + flat[:, :, None]), axis=2) \
        - 0.5      # the j = k term of the sum is 1/2
    low, high = np.quantile(flat, [0.025, 0.975], axis=0)
    return PlackettLuceResult(
        models=tuple(names), weights=flat, p_best=flat.mean(axis=0),
        p_highest_weight=np.bincount(np.argmax(flat, axis=1), minlength=m) / flat.shape[0],
        expected_rank=mode_rank.mean(axis=0), expected_task_rank=task_rank.mean(axis=0),
        weight_low=low, weight_high=high, prior=alpha, n_tasks=n, n_tied_tasks=tied,
        higher_is_better=bool(higher_is_better), rhat_max=rhat_max, ess_min=ess_min,
        divergent=divergent)
