"""The sampler programs shipped with the package (issue 31: a first process must neither
trace nor compile NUTS): current for the code, loaded only where they can run, the same
draws as a program traced and compiled here, and a fallback to compiling otherwise."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from outperform.bayes import _mcmc, _shipped


def _entries():
    return list(_shipped.manifest().values())


def test_the_defaults_of_the_hierarchical_t_test_are_shipped_for_every_bucket():
    entries = _entries()
    assert sorted(e["data_sets"] for e in entries) == list(_shipped.BUCKETS)
    for entry in entries:
        assert (entry["name"], entry["chain_method"], entry["n_warmup"], entry["n_samples"]) \
            == ("hierarchical_ttest", "vectorized", 1000, 2500)
        for suffix in (".jaxexport", ".xla.xz"):
            assert (_shipped.FOLDER / f"{entry['name']}-{entry['digest']}{suffix}").is_file()


def test_the_shipped_programs_were_built_from_the_code_as_it_is():
    # Editing _mcmc.py or _hierarchical_model.py changes the digest a process looks for, so
    # the shipped programs would silently go unused: rebuild them
    # (python -m outperform.bayes._shipped) and commit the folder.
    for entry in _entries():
        avals = tuple((tuple(shape), dtype) for shape, dtype in entry["avals"])
        digest = _mcmc.program_digest(
            entry["name"], entry["chain_method"], entry["n_warmup"], entry["n_samples"],
            entry["treedef"], avals, _shipped.FOLDER.parent / entry["source"],
            tuple(entry["versions"]))
        assert digest == entry["digest"], (
            f"{entry['name']} for {entry['data_sets']} data sets is stale: run "
            "`python -m outperform.bayes._shipped`")


def test_features_are_read_from_the_target_list_of_an_executable():
    blob = (b"\x00\x12junk+64bit,+avx2,+fma,-xop,+sse4.1,-avx512f,+bmi2,+cx16,+popcnt,"
            b"+sse2,-amx-tile\x00e-m:e-p270:32:32")
    assert _shipped.features(blob) == frozenset(
        {"+64bit", "+avx2", "+fma", "+sse4.1", "+bmi2", "+cx16", "+popcnt", "+sse2"})
    assert _shipped.features(b"no feature list here, +avx2 alone") is None


@pytest.mark.slow
@pytest.mark.parametrize("change", ["machine", "features", "name", "off"])
def test_a_compiled_program_is_only_loaded_where_it_can_run(monkeypatch, change):
    jax = pytest.importorskip("jax")
    entry = _entries()[0]
    host = frozenset(entry["features"])
    monkeypatch.setattr(_shipped, "host_features", lambda: host)
    if jax.default_backend() != "cpu" or entry["machine"] != _shipped.platform.machine():
        pytest.skip("the shipped programs were compiled for another machine")
    assert _shipped.has_executable(entry["name"], entry["digest"])
    name = entry["name"]
    if change == "machine":
        monkeypatch.setattr(_shipped.platform, "machine", lambda: "riscv64")
    elif change == "features":        # a CPU without one of the extensions it was built for
        monkeypatch.setattr(_shipped, "host_features", lambda: host - {sorted(host)[-1]})
    elif change == "name":
        name = "plackett_luce"
    else:
        monkeypatch.setenv(_shipped.ENV, "0")
    assert not _shipped.has_executable(name, entry["digest"])


# --- the same draws, shipped or traced here ---------------------------------------------------


@pytest.fixture(scope="module")
def uci_pair(shared_data):
    from outperform.data import load_uci54_arrays

    uci = load_uci54_arrays(shared_data / "uci54_10x10cv_accuracies.txt", keep_duplicates=True)
    return uci["hnb"][1], uci["nbc"][1]


def _run_recording_origin(monkeypatch, a, b):
    from outperform.bayes import hierarchical_correlated_ttest

    origins = []
    program = _mcmc._program

    def spy(*config):
        found = program(*config)
        origins.append((found.origin, found.digest))
        return found

    monkeypatch.setattr(_mcmc, "_program", spy)
    res = hierarchical_correlated_ttest(a, b, rho=0.1, rope=1.0, random_state=7)
    monkeypatch.setattr(_mcmc, "_program", program)
    return res, origins[0]


def origin_of(digest):
    return _shipped.manifest()[digest]["name"], digest


@pytest.mark.slow
def test_the_shipped_program_gives_the_draws_of_one_traced_here(uci_pair, monkeypatch):
    # The defaults (4 chains x (1,000 + 2,500) draws) on the 54 UCI data sets (bucket 64):
    # first the shipped program (precompiled where it was built for this CPU and these
    # versions, else compiled here), then, with other versions reported (as after a jax
    # upgrade), no shipped program matches: traced and compiled here, the same draws.
    pytest.importorskip("flatbuffers")
    _mcmc._program.cache_clear()
    shipped, (origin, digest) = _run_recording_origin(monkeypatch, *uci_pair)
    assert origin == ("shipped, precompiled" if _shipped.has_executable(*origin_of(digest))
                      else "shipped, compiled here")
    real = _mcmc.versions()
    monkeypatch.setattr(_mcmc, "versions", lambda: tuple(v + ".post0" for v in real))
    _mcmc._program.cache_clear()
    traced, (origin, _) = _run_recording_origin(monkeypatch, *uci_pair)
    assert origin == "traced and compiled here"
    for name in ("delta0", "std0", "nu", "delta"):
        np.testing.assert_array_equal(getattr(traced.posterior, name),
                                      getattr(shipped.posterior, name))
    _mcmc._program.cache_clear()


# --- a whole first process ---------------------------------------------------------------------


def _cli_json(table: Path, cache: Path, **env) -> dict:
    run = subprocess.run(
        [sys.executable, "-m", "outperform.cli", "compare", str(table), "--hierarchical",
         "--format", "json"],
        capture_output=True, text=True, timeout=900,
        env=dict(os.environ, OUTPERFORM_JAX_CACHE=str(cache), **env))
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)["tests"]["hierarchical"], run.stderr


@pytest.mark.slow
def test_a_first_process_with_an_empty_cache_gives_the_posterior_of_one_traced_here(
        shared_data, tmp_path):
    # `outperform compare cv_many_tasks.csv --hierarchical` (hnb and nbc on the UCI data,
    # 53 distinct data sets) in a fresh process with an empty cache folder, then in one
    # with the shipped programs off (traced and compiled, as before they were shipped): the
    # same posterior (the same seed: to float32 rounding; within Monte Carlo error in any
    # case: 4 x 2,500 draws, ESS > 3,000, MC standard errors ~0.01 on the probabilities).
    pytest.importorskip("numpyro")
    from outperform.data import load_uci54

    with pytest.warns(UserWarning, match="credit"):
        table = load_uci54(shared_data / "uci54_10x10cv_accuracies.txt")
    path = tmp_path / "cv_many_tasks.csv"
    table[table["model"].isin(["hnb", "nbc"])].to_csv(path, index=False)
    cold, note = _cli_json(path, tmp_path / "empty-cache")
    entry = next(e for e in _entries() if e["data_sets"] == 64)
    # The progress line says whether the sampler was precompiled or is compiled first.
    loadable = _shipped.has_executable(entry["name"], entry["digest"])
    assert ("(a precompiled sampler)" in note) is loadable
    assert ("the first call compiles the sampler" in note) is not loadable
    before, note = _cli_json(path, tmp_path / "other-cache", **{_shipped.ENV: "0"})
    assert "the first call compiles the sampler" in note
    assert cold["decision"] == before["decision"]
    np.testing.assert_allclose(cold["details"]["p_regions_averaged"],
                               before["details"]["p_regions_averaged"], atol=0.03)
    assert cold["posterior_mean"] == pytest.approx(before["posterior_mean"], abs=0.1)
    assert cold["details"]["rhat_max"] < 1.01
