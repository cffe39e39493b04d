"""plan.gold_labels: the closed form against the PPI++ standard errors of simulated judged
evaluations (the kernel equal to ppi_py, tests/stats/test_ppi.py) at the planned n."""
import numpy as np
import pytest

from outperform import InvalidInputError
from outperform.plan import gold_labels
from outperform.stats import ppi_mean_estimates


def test_unlimited_items_is_the_classical_n_times_one_minus_rho2():
    plan = gold_labels(0.1, correlation=0.8)
    z = 1.959963984540054
    assert plan.n_classical == int(np.ceil(0.25 * (2 * z / 0.1) ** 2))          # 385
    assert plan.details["n_gold_unrounded"] == pytest.approx(
        0.25 * (1 - 0.64) * (2 * z / 0.1) ** 2)
    assert plan.n_gold == 139


@pytest.mark.parametrize("rho, n_items", [(0.8, 2000), (0.5, 4000), (0.9, None)])
def test_planned_n_reaches_the_width_in_simulation(rho, n_items):
    width, sd = 0.1, 1.0
    plan = gold_labels(width, correlation=rho, sd=sd, n_items=n_items)
    total = n_items or 100_000      # "unlimited": the judge's share 0.6% of the width
    rng = np.random.default_rng(3)
    reps = 40 if n_items else 10
    # human score and judge score jointly normal, correlation rho, judge biased by +0.3
    y = rng.normal(0, sd, (reps, total))
    f = rho * y + np.sqrt(1 - rho ** 2) * rng.normal(0, sd, (reps, total)) + 0.3
    gold = np.where(np.arange(total) < plan.n_gold, y, np.nan)
    out = ppi_mean_estimates(gold, f, alpha=0.05)
    achieved = 2 * 1.959963984540054 * np.sqrt(np.mean(out["standard_error"] ** 2))
    assert achieved == pytest.approx(width, rel=0.05)


def test_out_of_reach_and_bad_inputs():
    with pytest.raises(InvalidInputError, match="out of reach with 100 items"):
        gold_labels(0.05, correlation=0.9, n_items=100)
    with pytest.raises(InvalidInputError, match="correlation"):
        gold_labels(0.1, correlation=-2)
