"""Shared fixtures: the reference data in ../shared/data (skipped when absent)."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

# JAX's persistent compilation cache is on by default in the user's cache folder; the suite
# (and the processes it starts, which inherit the environment) writes into a temporary one.
if "OUTPERFORM_JAX_CACHE" not in os.environ:
    os.environ["OUTPERFORM_JAX_CACHE"] = tempfile.mkdtemp(prefix="outperform-test-jax-")
    atexit.register(shutil.rmtree, os.environ["OUTPERFORM_JAX_CACHE"], ignore_errors=True)

SHARED = Path(os.environ.get("OUTPERFORM_SHARED", Path(__file__).resolve().parents[2] / "shared"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Folder ``../shared/data``; the test is skipped with a message when it is absent."""
    folder = SHARED / "data"
    if not folder.is_dir():
        pytest.skip(f"reference data folder {folder} is absent (set OUTPERFORM_SHARED to it)")
    return folder


#: Doctests of the package that take more than ~2 s (an MCMC sampler compiled, a posterior
#: sampled): in the slow set, like the tests marked ``@pytest.mark.slow``, so that
#: ``pytest -m "not slow"`` is the fast loop. A doctest cannot carry a mark itself.
SLOW_DOCTESTS = {
    "outperform.bayes._hierarchical_mcnemar.hierarchical_mcnemar",
    "outperform.bayes._hierarchical_ttest.hierarchical_correlated_ttest",
    "outperform.bayes._plackett_luce.plackett_luce",
    "outperform.compare._hierarchical.compare_counts",
    "outperform.plot._hierarchical.plot_ab_posterior",
    "outperform.plot._hierarchical.plot_hierarchical_posterior",
    "outperform.plot._hierarchical.plot_phi_next",
    "outperform.plot._hierarchical.plot_shrinkage",
}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)
