"""The permutation Friedman test over few data sets is costed (compare/_q3_small.py): its
Monte Carlo resamples shrink with the table, and beyond the budget the Iman–Davenport F
decides. Properties of the budget rule, not numbers of the code under test."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import outperform.compare._q3_small as small
from outperform import compare


def _wide(n_tasks: int, n_models: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.uniform(size=(n_tasks, n_models)),
                         columns=[f"m{i}" for i in range(n_models)])
    frame.insert(0, "task", [f"t{i}" for i in range(n_tasks)])
    return frame


def test_monte_carlo_resamples_shrink_to_the_budget(monkeypatch):
    # 5 data sets x 20 models (beyond exact enumeration): budget / (N k) resamples.
    monkeypatch.setattr(small, "PERMUTATION_BUDGET", 10 ** 6)
    rep = compare(_wide(5, 20), posthoc="none")
    perm = rep.tests["friedman_permutation"]
    assert rep.recommended == "friedman_permutation" and not perm.details["exact"]
    assert perm.details["n_resamples"] == 10 ** 6 // (5 * 20)


def test_beyond_the_budget_iman_davenport_decides_and_says_nothing_of_a_permutation(
        monkeypatch):
    # Fewer than MIN_RESAMPLES resamples fit: no permutation test, the F approximation.
    monkeypatch.setattr(small, "PERMUTATION_BUDGET", 10 ** 5)
    rep = compare(_wide(5, 20), posthoc="none")
    assert 10 ** 5 // (5 * 20) < small.MIN_RESAMPLES
    assert "friedman_permutation" not in rep.tests
    assert rep.recommended == "iman_davenport"
    assert not any("permutation distribution" in w for w in rep.warnings)


@pytest.mark.parametrize("k", [3, 5])
def test_small_tables_stay_exact_whatever_the_budget(monkeypatch, k):
    # Exact enumeration does not depend on the Monte Carlo budget.
    monkeypatch.setattr(small, "PERMUTATION_BUDGET", 1)
    rep = compare(_wide(4, k), posthoc="none")
    assert rep.tests["friedman_permutation"].details["exact"]
