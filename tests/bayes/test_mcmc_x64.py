"""JAX_ENABLE_X64=1 (issue 25): Plackett–Luce and the hierarchical t-test crashed with "cond
branches must have equal output types" (float32 data meeting NumPyro's float64 constants).
The NUTS sampler now runs in float32 whatever the variable says, so the draws are the same
with and without it. Each run is a fresh process, since JAX reads the variable at import."""
import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("numpyro")

from _paths import ROOT  # noqa: E402

SRC = str(ROOT / "src")

SCRIPT = """
import json, warnings
import numpy as np
warnings.simplefilter("ignore")
from outperform.bayes import plackett_luce, hierarchical_correlated_ttest
rng = np.random.default_rng(0)
pl = plackett_luce(rng.normal(size=(8, 3)), n_samples=300, n_warmup=200, n_chains=2)
a = rng.normal(0.8, 0.02, size=(4, 10)); b = a + rng.normal(0.01, 0.01, size=(4, 10))
ht = hierarchical_correlated_ttest(a, b, rho=0.1, n_samples=300, n_warmup=200, n_chains=2)
import jax
print(json.dumps({"x64": bool(jax.config.jax_enable_x64), "p_best": pl.p_best.tolist(),
                  "regions": [ht.p_left, ht.p_rope, ht.p_right]}))
"""


def _start(x64: bool) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
               OUTPERFORM_JAX_CACHE="0")
    env.pop("JAX_ENABLE_X64", None)
    if x64:
        env["JAX_ENABLE_X64"] = "1"
    return subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _result(process: subprocess.Popen) -> dict:
    out, err = process.communicate(timeout=600)
    assert process.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


@pytest.mark.slow
def test_x64_runs_and_gives_the_float32_draws():
    started = _start(True), _start(False)      # the two processes side by side
    wide, narrow = (_result(p) for p in started)
    assert wide["x64"] and not narrow["x64"]
    assert sum(wide["p_best"]) == pytest.approx(1.0, abs=1e-6)
    assert sum(wide["regions"]) == pytest.approx(1.0, abs=1e-9)
    # the same float32 program and seed: the same numbers (a property, no tolerance)
    assert wide["p_best"] == narrow["p_best"] and wide["regions"] == narrow["regions"]
