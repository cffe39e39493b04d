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
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .._atomic import write_bytes
from .._parallel import progress_status
from .._validation import ConvergenceWarning, require


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


def seed_word(seed: int) -> np.ndarray:
    """The uint32 a sampler program takes as its seed: ``seed`` modulo 2**32, the word
    ``jax.random.PRNGKey(seed)`` keeps of a Python int with 64-bit types off."""
    return np.uint32(int(seed) % 2**32)


def chain_keys(seed, n_chains: int):
    """One PRNG key per chain, ``jax.random.split(jax.random.PRNGKey(seed), n_chains)``,
    computed inside the sampler program (outside, seeding and splitting compile two small
    programs of their own, ~0.3 s of a first process)."""
    import jax

    return jax.random.split(jax.random.PRNGKey(seed), n_chains)


def _sampler(potential_gen, chain_method: str, n_warmup: int, n_samples: int):
    """The whole NUTS run as one function of (seed, init, args), to be jitted or exported.

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

    def run(seed, init, args):
        keys = chain_keys(seed, jax.tree_util.tree_leaves(init)[0].shape[0])
        if chain_method == "vectorized":
            return jax.vmap(chain, in_axes=(0, 0, None))(keys, init, args)
        return jax.lax.map(lambda kz: chain(*kz, args), (keys, init))

    return run


def versions() -> tuple[str, str, str]:
    """The installed jax, jaxlib and numpyro versions: a stored program is only reused with
    the versions it was traced and compiled with."""
    from importlib.metadata import version

    return tuple(version(p) for p in ("jax", "jaxlib", "numpyro"))


def program_digest(name, chain_method, n_warmup, n_samples, treedef: str, avals, source,
                   versions: tuple[str, str, str]) -> str:
    """Name of a stored sampler program: a hash of its configuration, of the code it was
    traced from (this module and the potential's module ``source``) and of the versions.

    Editing either module, or another jax, jaxlib or numpyro, gives another digest, so a
    stored program is never reused for code or versions it was not made from.
    """
    code = hashlib.sha256()
    for path in (__file__, source):
        code.update(Path(path).read_bytes())
    code.update(" ".join(versions).encode())
    key = repr((name, chain_method, n_warmup, n_samples, treedef, avals, code.hexdigest()))
    return hashlib.sha256(key.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Program:
    """A compiled sampler: ``call(seed, init, args)``, where it came from and its digest.

    ``origin`` is one of "shipped, precompiled" (package data, loaded), "shipped, compiled
    here" (the shipped traced program compiled, or found in JAX's cache), "stored, compiled
    here" (traced by an earlier process, in the cache folder) and "traced and compiled
    here"; ``exported`` is the ``jax.export.Exported`` program (None without flatbuffers).
    """

    call: Callable
    origin: str
    digest: str
    exported: object = None


def _stored(path: Path):
    """The traced program in ``path`` (``jax.export``), or None when absent or unreadable."""
    import jax

    if not path.is_file():
        return None
    try:
        return jax.export.deserialize(bytearray(path.read_bytes()))
    except Exception:  # noqa: BLE001  (unreadable or from another jax: trace again)
        return None


@functools.lru_cache(maxsize=8)
def _program(potential_gen, name, chain_method, n_warmup, n_samples, treedef, avals) -> Program:
    """The compiled sampler of one configuration, reused across calls and processes.

    Looked for in this order: the programs shipped with the package (traced and compiled
    for the defaults of the hierarchical t-test: :mod:`outperform.bayes._shipped`), the
    traced program stored in the cache folder by an earlier process (``jax.export``,
    ``exported/<name>-<digest>.jaxexport``), else NumPyro's sampler is traced (~3 s on an
    idle machine, 10 s on a loaded one) and stored there. A traced program is then compiled,
    or its compiled code is loaded from JAX's cache; a shipped compiled one is loaded when it
    was compiled for this jax, jaxlib and CPU. Without flatbuffers, only JAX's cache is used.
    The digest (:func:`program_digest`) covers the shapes, the options, the versions and the
    source of this module and of the potential's, so editing either retraces.
    """
    import jax

    from . import _shipped

    example = jax.tree_util.tree_unflatten(
        treedef, [jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in avals])
    digest = program_digest(name, chain_method, n_warmup, n_samples, str(treedef), avals,
                            inspect.getsourcefile(potential_gen), versions())
    def sampler():               # NumPyro is imported only here, when a sampler is traced
        return jax.jit(_sampler(potential_gen, chain_method, n_warmup, n_samples))

    folder = enable_compilation_cache()
    # jax.export's serialisation needs flatbuffers (a dependency of the ``bayes`` extra).
    if importlib.util.find_spec("flatbuffers") is None:
        return Program(sampler(), "traced and compiled here", digest)
    exported, origin = _shipped.exported(name, digest), "shipped, compiled here"
    if exported is None and folder is not None:
        path = folder / "exported" / f"{name}-{digest}.jaxexport"
        exported, origin = _stored(path), "stored, compiled here"
    if exported is None:
        exported, origin = jax.export.export(sampler())(*example), "traced and compiled here"
        if folder is not None:
            try:
                (folder / "exported").mkdir(parents=True, exist_ok=True)
                # atomic: never half a file for another process
                write_bytes(folder / "exported" / f"{name}-{digest}.jaxexport",
                            exported.serialize())
            except OSError:
                pass                     # a read-only cache only costs the next process time
    compiled = _shipped.executable(name, digest, exported, tuple(example))
    if compiled is not None:
        return Program(compiled, "shipped, precompiled", digest, exported)
    # Every process calls the exported program, so that the compiled code JAX caches is the
    # one a later process asks for.
    compiled = jax.jit(exported.call).lower(*example).compile()
    _shipped.record({"name": name, "digest": digest, "chain_method": chain_method,
                     "n_warmup": n_warmup, "n_samples": n_samples, "treedef": str(treedef),
                     "avals": [[list(shape), dtype] for shape, dtype in avals]},
                    exported, compiled)
    return Program(compiled, origin, digest, exported)


def run_nuts(potential_gen, args, init, *, name, n_chains, n_samples, n_warmup, seed,
             chain_method, status: str | None = None):
    """NUTS draws (unconstrained, shape (n_chains, n_samples, ...)) and the divergence count.

    ``potential_gen(*args)`` returns the potential (negative log density) of a dict of
    unconstrained parameters; ``init`` holds one starting point per chain. ``name``
    identifies the model (and its variant) among the stored programs. Compiled programs
    are cached per (potential_gen, shapes, options), so pass the same generator object to
    reuse them. ``status``: a description of the run shown on stderr while it lasts
    (:func:`outperform._parallel.progress_status`), with where its sampler comes from.

    Raises
    ------
    MissingDependencyError
        NumPyro (or JAX) is not installed: ``pip install 'outperform[bayes]'``.
    """
    purpose = f"the MCMC sampler of {name.removesuffix('_truncated')}"
    jax = require("jax", purpose)
    if importlib.util.find_spec("numpyro") is None:   # imported only to trace a sampler
        require("numpyro", purpose)                   # MissingDependencyError
    import jax.numpy as jnp

    from . import _shipped

    enable_compilation_cache()   # before the small programs below (key splitting) compile
    # The sampler runs in float32 whatever JAX_ENABLE_X64 says: with 64-bit types enabled
    # the float32 data meet NumPyro's float64 constants and its tree-building branches no
    # longer type-check (issue 25); float32 also keeps the draws, and so every reported
    # probability, the same with and without the variable.
    with jax.enable_x64(False):
        # Converted by numpy: converting on the device compiles a small program per shape.
        args = tuple(jnp.asarray(np.asarray(a, dtype=np.float32)) for a in args)
        init = {k: jnp.asarray(np.asarray(v, dtype=np.float32)) for k, v in init.items()}
        word = jnp.asarray(seed_word(seed))
        leaves, treedef = jax.tree_util.tree_flatten((word, init, args))
        avals = tuple((tuple(leaf.shape), str(leaf.dtype)) for leaf in leaves)
        config = (potential_gen, name, chain_method, int(n_warmup), int(n_samples), treedef,
                  avals)
        if status is not None:
            digest = program_digest(*config[1:5], str(treedef), avals,
                                    inspect.getsourcefile(potential_gen), versions())
            status += (" (a precompiled sampler)" if _shipped.has_executable(name, digest)
                       else " (the first call compiles the sampler, or loads it from the "
                            "cache folder)")
        with progress_status(status or "", status is not None):
            program = _program(*config)
            draws, diverging = program.call(word, init, args)
            draws = {k: np.asarray(v, dtype=float) for k, v in draws.items()}
    return draws, int(np.sum(np.asarray(diverging)))


def diagnostics(chains: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Split R-hat and effective sample size of each parameter (NumPyro's estimators,
    :mod:`outperform.bayes._diagnostics`).

    ``chains[name]`` has shape (n_chains, n_draws, ...); R-hat is NaN with one chain.
    """
    from ._diagnostics import effective_sample_size, split_rhat

    out = {}
    for name, arr in chains.items():
        if arr.shape[0] > 1:
            rhat = np.atleast_1d(split_rhat(arr))
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
