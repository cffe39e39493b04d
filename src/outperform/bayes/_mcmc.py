"""What the MCMC-based tests share: the compiled NUTS runner, its cache, convergence checks.

NumPyro/JAX are imported inside the functions, so importing ``outperform.bayes`` stays light.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import inspect
import os
import warnings
from .._validation import ConvergenceWarning, require
from pathlib import Path

import numpy as np

from .._atomic import write_bytes


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

    Raises
    ------
    MissingDependencyError
        JAX is not installed: ``pip install 'outperform[bayes]'``.
    """
    jax = require("jax", "the MCMC samplers")

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


def _sampler(potential_gen, chain_method: str, n_warmup: int, n_samples: int):
    """The whole NUTS run as one function of (keys, init, args), to be jitted or exported.

    The data are arguments, not constants, so one program serves every comparison with the
    same number of data sets, chains and draws (e.g. all pairs of algorithms). Each chain
    starts with the inverse of the diagonal of the potential's Hessian at its starting point
    as the inverse mass matrix (a Laplace-style guess of each coordinate's posterior
    variance; NumPyro's default is the identity). The adaptation replaces it by the draws'
    variances at warm-up step 100; before that, with the identity, NUTS ran trees of up to
    1,023 leapfrog steps on the hierarchical t-test (three quarters of its work).
    """
    import jax
    import jax.numpy as jnp
    from jax.flatten_util import ravel_pytree
    from numpyro.infer.hmc import hmc

    init_kernel, sample_kernel = hmc(potential_fn_gen=potential_gen, algo="NUTS")

    def chain(key, z, args):
        flat, unravel = ravel_pytree(z)
        curvature = jnp.abs(jnp.diag(jax.hessian(
            lambda v: potential_gen(*args)(unravel(v)))(flat)))
        curvature = jnp.where(jnp.isfinite(curvature), curvature, 1.0)
        state = init_kernel(z, n_warmup, inverse_mass_matrix=1.0 / jnp.clip(curvature, 1e-2,
                                                                            1e6),
                            model_args=args, rng_key=key)

        def step(state, _):
            state = sample_kernel(state, model_args=args)
            return state, (state.z, state.diverging)

        _, (draws, diverging) = jax.lax.scan(step, state, None, length=n_warmup + n_samples)
        return {k: v[n_warmup:] for k, v in draws.items()}, diverging[n_warmup:]

    def run(keys, init, args):
        if chain_method == "vectorized":
            return jax.vmap(chain, in_axes=(0, 0, None))(keys, init, args)
        return jax.lax.map(lambda kz: chain(*kz, args), (keys, init))

    return run


def _fingerprint(potential_gen) -> str:
    """Hash of the code a stored program was traced from: these modules and the versions."""
    from importlib.metadata import version

    digest = hashlib.sha256()
    for source in (__file__, inspect.getsourcefile(potential_gen)):
        digest.update(Path(source).read_bytes())
    digest.update(" ".join(version(p) for p in ("jax", "jaxlib", "numpyro")).encode())
    return digest.hexdigest()


@functools.lru_cache(maxsize=8)
def _program(potential_gen, name, chain_method, n_warmup, n_samples, treedef, avals):
    """The jitted sampler of one configuration, reused across calls and processes.

    With the cache folder on, the traced program is serialised there (``jax.export``,
    ``exported/<name>-<hash>.jaxexport``) and a later process loads it instead of tracing
    NumPyro's sampler again (~3 s on an idle machine, 10 s on a loaded one, before JAX's
    own cache can supply the compiled code); without flatbuffers, only JAX's cache is used.
    The hash covers the shapes, the options and the
    source of this module and of the potential's, so editing either retraces.
    """
    import jax

    sampler = jax.jit(_sampler(potential_gen, chain_method, n_warmup, n_samples))
    folder = enable_compilation_cache()
    # jax.export's serialisation needs flatbuffers (a dependency of the ``bayes`` extra).
    if folder is None or importlib.util.find_spec("flatbuffers") is None:
        return sampler
    key = repr((name, chain_method, n_warmup, n_samples, str(treedef), avals,
                _fingerprint(potential_gen)))
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]
    path = folder / "exported" / f"{name}-{digest}.jaxexport"
    exported = None
    if path.is_file():
        try:
            exported = jax.export.deserialize(bytearray(path.read_bytes()))
        except Exception:  # noqa: BLE001  (unreadable or from another jax: trace again)
            exported = None
    if exported is None:
        example = jax.tree_util.tree_unflatten(
            treedef, [jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in avals])
        exported = jax.export.export(sampler)(*example)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_bytes(path, exported.serialize())  # atomic: never half a file for another process
        except OSError:
            pass                         # a read-only cache only costs the next process time
    # The first process calls the exported program too, so that the compiled code JAX
    # caches is the one a later process asks for.
    return jax.jit(exported.call)


def run_nuts(potential_gen, args, init, *, name, n_chains, n_samples, n_warmup, seed,
             chain_method):
    """NUTS draws (unconstrained, shape (n_chains, n_samples, ...)) and the divergence count.

    ``potential_gen(*args)`` returns the potential (negative log density) of a dict of
    unconstrained parameters; ``init`` holds one starting point per chain. ``name``
    identifies the model (and its variant) among the stored programs. Compiled programs
    are cached per (potential_gen, shapes, options), so pass the same generator object to
    reuse them.

    Raises
    ------
    MissingDependencyError
        NumPyro (or JAX) is not installed: ``pip install 'outperform[bayes]'``.
    """
    purpose = f"the MCMC sampler of {name.removesuffix('_truncated')}"
    jax = require("jax", purpose)
    require("numpyro", purpose)
    import jax.numpy as jnp

    enable_compilation_cache()   # before the small programs below (key splitting) compile
    # The sampler runs in float32 whatever JAX_ENABLE_X64 says: with 64-bit types enabled
    # the float32 data meet NumPyro's float64 constants and its tree-building branches no
    # longer type-check (issue 25); float32 also keeps the draws, and so every reported
    # probability, the same with and without the variable.
    with jax.enable_x64(False):
        args = tuple(jnp.asarray(a, dtype=jnp.float32) for a in args)
        keys = jax.random.split(jax.random.PRNGKey(seed), n_chains)
        init = {k: jnp.asarray(v, dtype=jnp.float32) for k, v in init.items()}
        leaves, treedef = jax.tree_util.tree_flatten((keys, init, args))
        avals = tuple((tuple(leaf.shape), str(leaf.dtype)) for leaf in leaves)
        program = _program(potential_gen, name, chain_method, int(n_warmup), int(n_samples),
                           treedef, avals)
        draws, diverging = program(keys, init, args)
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




def check_convergence(model: str, diag: dict[str, tuple[np.ndarray, np.ndarray]], *,
                      divergent: int = 0,
                      advice: str = "Increase n_samples / n_warmup or n_chains."
                      ) -> tuple[float, float, bool]:
    """Largest R-hat and smallest ESS in ``diag`` (from :func:`diagnostics`), warning once.

    Returns ``(rhat_max, ess_min, converged)``; ``converged`` is False, with a ConvergenceWarning
    naming ``model``, when R-hat exceeds RHAT_LIMIT, the ESS is below ESS_LIMIT or any
    transition diverged.
    """
    rhat_max = float(np.nanmax(np.concatenate([np.atleast_1d(r) for r, _ in diag.values()])))
    ess_min = float(np.min(np.concatenate([np.atleast_1d(e) for _, e in diag.values()])))
    converged = not (rhat_max > RHAT_LIMIT or ess_min < ESS_LIMIT or divergent)
    if not converged:
        warnings.warn(
            f"{model}: the sampler may not have converged (largest R-hat {rhat_max:.3f}, "
            f"limit {RHAT_LIMIT}; smallest effective sample size {ess_min:.0f}, limit "
            f"{ESS_LIMIT}; {divergent} divergent transitions). {advice}",
            ConvergenceWarning, stacklevel=3)
    return rhat_max, ess_min, converged
