"""JAX's persistent compilation cache for the MCMC tests: on by default in the per-user
cache folder of the XDG convention, moved or turned off by $OUTPERFORM_JAX_CACHE (issue 14:
a second process paid 5 s of compilation again because the cache was opt-in)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from outperform.bayes import compilation_cache_folder


def test_the_suite_never_writes_into_the_users_cache():
    folder = compilation_cache_folder()
    assert folder is not None
    assert Path.home() / ".cache" not in folder.parents


def test_default_is_the_xdg_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("OUTPERFORM_JAX_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compilation_cache_folder() == tmp_path / "outperform" / "jax"


def test_default_without_xdg_is_dot_cache_in_home(monkeypatch, tmp_path):
    monkeypatch.delenv("OUTPERFORM_JAX_CACHE")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert compilation_cache_folder() == tmp_path / ".cache" / "outperform" / "jax"


@pytest.mark.parametrize("off", ["0", "off", "False", " no "])
def test_the_environment_variable_turns_it_off(monkeypatch, off):
    monkeypatch.setenv("OUTPERFORM_JAX_CACHE", off)
    assert compilation_cache_folder() is None


def test_the_environment_variable_moves_it(monkeypatch, tmp_path):
    monkeypatch.setenv("OUTPERFORM_JAX_CACHE", str(tmp_path / "jit"))
    assert compilation_cache_folder() == tmp_path / "jit"


# The MCMC tests hand the folder to JAX (in a fresh process: JAX's setting is global).
PROBE = ("import jax, numpyro; from outperform.bayes import robust_bayesian_ttest as t; "
         "import numpy as np; r = np.random.default_rng(0); "
         "t(r.normal(1, 1, 12), r.normal(0, 1, 12), n_samples=50, n_warmup=50); "
         "print(repr(jax.config.jax_compilation_cache_dir))")


@pytest.mark.parametrize("setting", ["folder", "0"])
@pytest.mark.slow
def test_jax_uses_the_folder_or_no_cache(tmp_path, setting):
    pytest.importorskip("numpyro")
    folder = tmp_path / "jit"
    env = dict(os.environ, OUTPERFORM_JAX_CACHE=str(folder) if setting == "folder" else "0")
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         env=env, timeout=600)
    assert run.returncode == 0, run.stderr
    if setting == "folder":
        assert run.stdout.strip().splitlines()[-1] == repr(str(folder))
        assert any(folder.iterdir()), "no compiled program was written to the cache"
    else:
        assert run.stdout.strip().splitlines()[-1] in ("None", "''")
        assert not folder.exists()
