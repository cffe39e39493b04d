"""Sampler programs shipped with the package, so that a first process neither traces nor
compiles NUTS (issue 31: the hierarchical t-test took ~12-20 s in a fresh process).

Two artefacts per configuration, in ``outperform/bayes/programs/`` (package data), named by
the digest of :func:`outperform.bayes._mcmc.program_digest` (the configuration, the source
of ``_mcmc.py`` and of the potential's module, and the jax, jaxlib and numpyro versions):

- ``<name>-<digest>.jaxexport``: the traced program (``jax.export``, StableHLO), usable on
  any CPU with those versions: tracing NumPyro's sampler is skipped, XLA still compiles it
  (~8-20 s; JAX's cache folder keeps the result for later processes);
- ``<name>-<digest>.xla.xz``: the program compiled by XLA for the CPU it was built on
  (``jax.experimental.serialize_executable``, lzma-compressed), loaded in ~0.3 s. XLA's code
  is specific to the instruction set extensions of that CPU (AVX-512, AMX, ...): it is
  loaded only where XLA targets every extension it was compiled for (those of a tiny program
  compiled here, :func:`host_features`), with the same jax and jaxlib, on the CPU backend.
  Elsewhere the traced program is compiled, with a note in the progress line.

``manifest.json`` lists what was shipped and for which versions and CPU. Shipped: the
defaults of :func:`outperform.bayes.hierarchical_correlated_ttest` (4 chains x (1,000 +
2,500) draws, chains vectorised, no truncation term) for 16, 32, 48 and 64 data sets (the
buckets of ``DATA_SET_BUCKET``); rebuilt by ``python -m outperform.bayes._shipped`` after
any change to those modules or versions (tests/bayes/test_shipped.py fails until then).
``OUTPERFORM_SHIPPED_PROGRAMS=0`` turns the shipped programs off (to measure or to check
them).
"""
from __future__ import annotations

import contextlib
import functools
import json
import lzma
import os
import platform
import re
from pathlib import Path

FOLDER = Path(__file__).with_name("programs")
MANIFEST = "manifest.json"
ENV = "OUTPERFORM_SHIPPED_PROGRAMS"
#: The numbers of data sets shipped (one program per bucket of 16).
BUCKETS = (16, 32, 48, 64)
#: A target feature list of LLVM inside a serialised XLA:CPU executable: "+avx2,+fma,-xop,...".
_FEATURES = re.compile(rb"[+-][a-z0-9_.]+(?:-[a-z0-9_.]+)*(?:,[+-][a-z0-9_.]+(?:-[a-z0-9_.]+)*){8,}")

_recorded: list | None = None


def enabled() -> bool:
    """False when ``$OUTPERFORM_SHIPPED_PROGRAMS`` is 0, off, false or no."""
    return os.environ.get(ENV, "").strip().lower() not in ("0", "off", "false", "no")


@functools.lru_cache(maxsize=1)
def manifest(folder: Path = FOLDER) -> dict[str, dict]:
    """The shipped programs' manifest entries by digest (empty when there is none)."""
    try:
        entries = json.loads((folder / MANIFEST).read_text())["programs"]
    except (OSError, ValueError, KeyError):
        return {}
    return {entry["digest"]: entry for entry in entries}


def exported(name: str, digest: str):
    """The shipped traced program of ``digest`` (``jax.export.Exported``), or None."""
    if not enabled() or digest not in manifest():
        return None
    import jax

    from ._mcmc import _stored

    program = _stored(FOLDER / f"{name}-{digest}.jaxexport")
    if program is None or jax.default_backend() not in program.platforms:
        return None
    return program


def features(blob: bytes) -> frozenset[str] | None:
    """The CPU extensions (``+avx2`` ...) a serialised XLA:CPU executable was compiled for."""
    found = [m.group() for m in _FEATURES.finditer(blob)]
    if not found:
        return None
    return frozenset(f for f in max(found, key=len).decode().split(",") if f.startswith("+"))


@functools.lru_cache(maxsize=1)
def host_features() -> frozenset[str] | None:
    """The extensions XLA compiles for on this CPU (from a tiny program compiled here)."""
    import jax
    import numpy as np
    from jax.experimental.serialize_executable import serialize

    try:
        compiled = jax.jit(lambda x: x + 1).lower(np.float32(0)).compile()
        return features(serialize(compiled)[0])
    except Exception:  # noqa: BLE001  (no serialisation on this backend: nothing is loaded)
        return None


def has_executable(name: str, digest: str) -> bool:
    """Whether a shipped compiled program of ``digest`` can run here (same jax, jaxlib,
    machine, CPU backend, and every CPU extension it uses available)."""
    entry = manifest().get(digest) if enabled() else None
    if entry is None or not entry.get("executable") or entry["name"] != name:
        return False
    if entry["machine"] != platform.machine():
        return False
    import jax

    if jax.default_backend() != "cpu":
        return False
    host = host_features()
    return host is not None and set(entry["features"]) <= host


def executable(name: str, digest: str, program, example: tuple):
    """The shipped compiled program of ``digest`` loaded (a ``jax.stages.Compiled``, called
    as the sampler with the arguments of ``example``), or None when it cannot run here."""
    if program is None or not has_executable(name, digest):
        return None
    import jax
    from jax.experimental.serialize_executable import deserialize_and_load

    try:
        blob = lzma.decompress((FOLDER / manifest()[digest]["executable"]).read_bytes())
        in_tree = jax.tree_util.tree_structure((example, {}))
        return deserialize_and_load(blob, in_tree, program.out_tree)
    except Exception:  # noqa: BLE001  (unreadable or refused: compile instead)
        return None


def record(config: dict, program, compiled) -> None:
    """Keep a freshly compiled program (and ``config``: its name, digest, options, shapes)
    while :func:`recording`, to ship it."""
    if _recorded is not None:
        _recorded.append((config, program, compiled))


@contextlib.contextmanager
def recording():
    """Collect the (config, exported, compiled) of every program compiled inside."""
    global _recorded
    _recorded, previous = [], _recorded
    try:
        yield _recorded
    finally:
        _recorded = previous


def build(folder: Path = FOLDER, buckets=BUCKETS) -> list[dict]:
    """Trace, compile and write the shipped programs into ``folder``, with the manifest.

    Runs :func:`outperform.bayes.hierarchical_correlated_ttest` with its defaults on
    simulated data of each number of data sets in ``buckets`` with the shipped programs off,
    so every program is traced here (and compiled here, or taken from JAX's cache folder of
    this machine). ``python -m outperform.bayes._shipped`` rebuilds the package's folder
    (~1 min of CPU per bucket); run it with ``OUTPERFORM_JAX_CACHE=0`` on the machine the
    executables are meant for.
    """
    import numpy as np
    from jax.experimental.serialize_executable import serialize

    from . import _hierarchical_model, _mcmc
    from ._hierarchical_ttest import hierarchical_correlated_ttest

    from .._atomic import write_bytes, write_text

    entries = []
    rng = np.random.default_rng(0)
    shipped = os.environ.get(ENV)
    os.environ[ENV] = "0"
    try:
        for q in buckets:
            a, b = rng.normal(1.0, 1.0, (q, 10)), rng.normal(0.0, 1.0, (q, 10))
            _mcmc._program.cache_clear()
            with recording() as programs:
                hierarchical_correlated_ttest(a, b, rho=0.1, rope=0.5)
            (config, program, compiled), = programs
            entries.append((q, config, program, compiled))
    finally:
        _mcmc._program.cache_clear()
        if shipped is None:
            del os.environ[ENV]
        else:
            os.environ[ENV] = shipped
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*-*.*"):     # the programs of an earlier build
        old.unlink()
    rows = []
    for q, config, program, compiled in entries:
        stem = f"{config['name']}-{config['digest']}"
        blob = serialize(compiled)[0]
        write_bytes(folder / f"{stem}.jaxexport", program.serialize())
        write_bytes(folder / f"{stem}.xla.xz", lzma.compress(blob))
        rows.append({**config, "data_sets": q,
                     "source": Path(_hierarchical_model.__file__).name,
                     "versions": list(_mcmc.versions()), "machine": platform.machine(),
                     "features": sorted(features(blob) or ()),
                     "executable": f"{stem}.xla.xz"})
    write_text(folder / MANIFEST, json.dumps({"programs": rows}, indent=1) + "\n")
    manifest.cache_clear()
    return rows


if __name__ == "__main__":       # python -m outperform.bayes._shipped
    # The package's module, not this __main__ copy, is the one the sampler records into.
    from outperform.bayes._shipped import build as _build

    for row in _build():
        print(row["name"], row["data_sets"], row["digest"])
