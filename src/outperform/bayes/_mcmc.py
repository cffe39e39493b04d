"""What the MCMC-based tests share: the compiled NUTS runner, its cache, convergence checks.

NumPyro/JAX are imported inside the functions, so importing ``outperform.bayes`` stays light.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import numpy as np


# Convergence limits of Vehtari et al. (2021, "Rank-normalization, folding, and localization"):
# split R-hat below 1.01 and a bulk effective sample size of at least 400.
RHAT_LIMIT = 1.01
ESS_LIMIT = 400


CACHE_ENV = "OUTPERFORM_JAX_CACHE"
#: Values of $OUTPERFORM_JAX_CACHE that turn the persistent compilation cache off.
CACHE_OFF = ("0", "off", "false", "no")


def compilation_cache_folder() -> Path | None:
    """Folder of JAX's persistent compilation cache for the MCMC tests, or None when off.

    ``$OUTPERFORM_JAX_CACHE`` decides: ``0`` (or ``off``, ``false``, ``no``) turns the cache
    off, any other value is the folder; unset or empty, the per-user cache folder of the XDG
    convention, ``$XDG_CACHE_HOME/outperform/jax`` (``~/.cache/outperform/jax`` when
    ``XDG_CACHE_HOME`` is unset).

    Examples
    --------
    >>> import os
    >>> os.environ["OUTPERFORM_JAX_CACHE"] = "0"
    >>> compilation_cache_folder() is None
    True
    >>> del os.environ["OUTPERFORM_JAX_CACHE"]
    """
    value = os.environ.get(CACHE_ENV, "").strip()
    if value.lower() in CACHE_OFF:
        return None
    if value:
        return Path(value).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip() or Path.home() / ".cache"
    return Path(base).expanduser() / "outperform" / "jax"


def enable_compilation_cache() -> Path | None:
    """Turn on JAX's persistent compilation cache in :func:`compilation_cache_folder`.

    Compiling the NUTS samplers takes ~10 s; with the cache a later process (the next CLI
    run, the next notebook session) loads the compiled programs from disk instead (a few
    MB). On by default; ``OUTPERFORM_JAX_CACHE=0`` turns it off, ``OUTPERFORM_JAX_CACHE=
    <folder>`` moves it. Left alone if JAX already has a cache folder (set by the user).

    Returns
    -------
    Path or None
        The cache folder JAX uses, or None when the cache is off.
    """
    import jax

    current = jax.config.jax_compilation_cache_dir
    if current:
        return Path(current)
    folder = compilation_cache_folder()
    if folder is None:
        return None
    jax.config.update("jax_compilation_cache_dir", str(folder))
    # Cache every program, not only slow ones: the many small ones add up at start-up.
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    return folder


@functools.lru_cache(maxsize=4)
def _runners(potential_gen, chain_method: str):
    """Compiled (jitted) warm-up initialisation and sampling loop, reused across calls.

    The data are arguments, not constants, so one compilation serves every comparison
    with the same number of data sets, chains and draws (e.g. all pairs of algorithms).
    """
    import jax
    from numpyro.infer.hmc import hmc

    enable_compilation_cache()

    init_kernel, sample_kernel = hmc(potential_fn_gen=potential_gen, algo="NUTS")
    over_chains = jax.vmap if chain_method == "vectorized" else \
        (lambda f: lambda *xs: jax.lax.map(lambda x: f(*x), xs))

    @functools.partial(jax.jit, static_argnums=(3,))
    def initialise(keys, init, args, num_warmup):
        return over_chains(lambda key, z: init_kernel(z, num_warmup, model_args=args,
                                                      rng_key=key))(keys, init)

    @functools.partial(jax.jit, static_argnums=(2, 3))
    def sample(states, args, num_warmup, num_samples):
        def chain(state):
            def step(state, _):
                state = sample_kernel(state, model_args=args)
                return state, (state.z, state.diverging)

            _, (z, diverging) = jax.lax.scan(step, state, None,
                                             length=num_warmup + num_samples)
            return ({k: v[num_warmup:] for k, v in z.items()},
                    diverging[num_warmup:])

        return over_chains(chain)(states)

    return initialise, sample


def run_nuts(potential_gen, args, init, *, n_chains, n_samples, n_warmup, seed, chain_method):
    """NUTS draws (unconstrained, shape (n_chains, n_samples, ...)) and the divergence count.

    ``potential_gen(*args)`` returns the potential (negative log density) of a dict of
    unconstrained parameters; ``init`` holds one starting point per chain. Compiled runners
    are cached per (potential_gen, chain_method), so pass the same generator object to reuse
    them.
    """
    import jax
    import jax.numpy as jnp

    initialise, sample = _runners(potential_gen, chain_method)
    args = tuple(jnp.asarray(a, dtype=jnp.float32) for a in args)
    keys = jax.random.split(jax.random.PRNGKey(seed), n_chains)
    init = {k: jnp.asarray(v, dtype=jnp.float32) for k, v in init.items()}
    draws, diverging = sample(initialise(keys, init, args, n_warmup), args, n_warmup,
                              n_samples)
    return ({k: np.asarray(v, dtype=float) for k, v in draws.items()},
            int(np.sum(np.asarray(diverging))))


def diagnostics(chains: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Split R-hat and effective sample size of each parameter (NumPyro's estimators).

    ``chains[name]`` has shape (n_chains, n_draws, ...); R-hat is NaN with one chain.
    """
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin

    out = {}
    for name, arr in chains.items():
        if arr.shape[0] > 1:
            rhat = np.atleast_1d(split_gelman_rubin(arr))
        else:
            rhat = np.full(arr.shape[2:] or (1,), np.nan)
        ess = np.atleast_1d(effective_sample_size(arr))
        out[name] = (rhat, ess)
    return out


