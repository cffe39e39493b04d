"""Style-controlled Bradley–Terry (stats/_bt_style.py) against arena-rank's contextual model.

The peer is arena-rank 0.1.1 (github.com/lmarena/arena-rank, the code of LMArena's leaderboard):
``ContextualBradleyTerry(...).compute_ratings_and_cis(ContextualPairDataset.from_pandas(df,
feature_cols, reweighted=...), significance_level=0.05)`` on style features built as its
LMArena notebook builds them. Its outputs for three fixed data sets are stored in
tests/fixtures/peers/arena_style.json by make_arena_style.py beside it (the exact calls are
recorded in each case's ``call``); the live comparison runs that script with the venv's
python when /work/peers/arena-rank exists (arena-rank needs jax 0.8, so it lives apart).

Tolerances. The fit (ratings, coefficients) agrees to 1e-6. The sandwich variances agree to
5e-4 relative: arena-rank adds a ridge (``hessian_reg`` = 1e-7 here) to the singular Hessian
of its unanchored abilities, which biases them by about ridge / (smallest nonzero eigenvalue
of the mean Hessian) = 1e-7 / 1.1e-3 ~ 1e-4 in the verbose-models case; ours projects it out
exactly. With ``reg`` > 0 arena-rank's bread leaves out the penalty's Hessian, so its
variances are not the penalised estimator's sandwich: only the fit is compared there.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from _paths import FIXTURES

from outperform.stats import bradley_terry_style

PEER_PYTHON = Path("/work/peers/arena-rank/bin/python")
SCRIPT = FIXTURES / "peers" / "make_arena_style.py"
STORED = json.loads((FIXTURES / "peers" / "arena_style.json").read_text())


def _ours(case: dict, features: list):
    b = case["battles"]
    w = np.array(b["winner"])
    w = np.where(w == "model_a", "a", np.where(w == "model_b", "b", "tie"))
    fa = np.column_stack([b[f + "_a"] for f in features])
    fb = np.column_stack([b[f + "_b"] for f in features])
    return bradley_terry_style(b["model_a"], b["model_b"], w, fa, fb, features=features,
                               l2=case["reg"], reweight=case["reweighted"], rank_sets=False)


def _check(data: dict) -> None:
    for case in data["cases"]:
        peer = case["arena"]
        res = _ours(case, data["features"])
        assert res.models == tuple(peer["competitors"])
        np.testing.assert_allclose(res.ratings, peer["ratings"], rtol=0, atol=1e-6)
        np.testing.assert_allclose(res.coefficients, peer["coeffs"], rtol=0, atol=1e-6)
        if case["reg"] == 0:
            np.testing.assert_allclose(res.rating_standard_error ** 2, peer["variances"],
                                       rtol=5e-4)


def test_equals_arena_rank_stored():
    assert len(STORED["cases"]) == 3
    _check(STORED)


def test_tie_is_half_a_win_as_arena():
    # the stored data have ties (arena-rank maps "tie" to outcome 0.5, never drops it)
    winners = STORED["cases"][0]["battles"]["winner"]
    assert winners.count("tie") > 300


@pytest.mark.slow
@pytest.mark.skipif(not PEER_PYTHON.exists(), reason="arena-rank's venv is absent")
def test_equals_arena_rank_live():
    text = subprocess.run([str(PEER_PYTHON), str(SCRIPT), "--stdout"], check=True,
                          capture_output=True, text=True, timeout=600).stdout
    _check(json.loads(text))
