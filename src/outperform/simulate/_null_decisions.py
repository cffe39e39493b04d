"""False decisions of the Bayesian signed-rank test when two models do not differ.

The study behind the minimum number of data sets below which :func:`outperform.compare.compare`
withholds the decisions of its Bayesian tests over data sets (see
:data:`outperform.compare.MIN_DATA_SETS_TABLE`). Each experiment draws the score differences
of N data sets independently from N(0, 1) — the two models are equally good on every data
set, up to noise — and runs the Bayesian signed-rank test of Benavoli et al. (2017) with a
ROPE; any decision "A better" or "B better" is false. The test only compares the differences
with the ROPE, so only the ratio ROPE / sd of the differences matters (the unit sd loses
nothing).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, check_probability, check_random_state
from ..bayes import signed_rank_probabilities
from ._common import check_int, check_int_grid, proportion_se

__all__ = ["signed_rank_null_decisions"]

#: ``rope="sd"``: ROPE = this fraction of each experiment's sample sd of the differences, the
#: default of compare() for scores outside [0, 1] (Williams 2026 §5.2).
ROPE_SD_FRACTION = 0.1


def signed_rank_null_decisions(n_data_sets=range(2, 11), *, rope=0.0, threshold: float = 0.95,
                               prior_strength: float = 0.5, n_repetitions: int = 2000,
                               n_samples: int = 50000, random_state=0) -> pd.DataFrame:
    """Share of false decisions of the Bayesian signed-rank test under no difference.

    Parameters
    ----------
    n_data_sets : int or sequence of int >= 2
        Numbers N of data sets.
    rope : float >= 0 or "sd"
        Half-width of the ROPE in units of the sd of the differences: 0 is the limit of a
        ROPE much narrower than the spread of the differences (e.g. the 0.01 of accuracy
        against differences of sd 0.05), the worst case; ``"sd"`` is 0.1 x each
        experiment's sample sd, compare()'s default for scores outside [0, 1].
    threshold : float
        Decision threshold (Williams 2026 §5.2).
    prior_strength : float
        Weight of the Dirichlet-process pseudo-observation (0.5: compare()'s default).
    n_repetitions : int
        Experiments per N.
    n_samples : int
        Posterior draws per test (50,000: compare()'s default).
    random_state : None, int, SeedSequence or Generator

    Returns
    -------
    pandas.DataFrame
        One row per N: ``n_data_sets``, ``rope``, ``false_decision_rate`` (share of
        experiments deciding "A better" or "B better"), ``mc_se`` (its Monte Carlo standard
        error), ``n_repetitions``.

    Raises
    ------
    InvalidInputError
        Bad N, ROPE, threshold or counts.

    Notes
    -----
    The experiments of one N share the posterior draws of one call of
    :func:`outperform.bayes._dirichlet_process.signed_rank_probabilities`; each experiment's
    decision is that of the scalar test with some seed.

    Examples
    --------
    >>> signed_rank_null_decisions(2, n_repetitions=200, n_samples=2000)[
    ...     ["n_data_sets", "false_decision_rate"]]
       n_data_sets  false_decision_rate
    0            2                  0.5
    """
    sizes = check_int_grid(n_data_sets, "n_data_sets", minimum=2)
    check_probability(threshold, "threshold")
    r = check_int(n_repetitions, "n_repetitions")
    if not (rope == "sd" or (isinstance(rope, (int, float)) and np.isfinite(rope) and rope >= 0)):
        raise InvalidInputError(f"rope must be a number >= 0 or 'sd', got {rope!r}.")
    rng = check_random_state(random_state)
    rows = []
    for n in sizes:
        z = rng.standard_normal((r, n))
        half_width = (ROPE_SD_FRACTION * z.std(axis=1, ddof=1) if rope == "sd"
                      else np.full(r, float(rope)))
        if np.all(half_width > 0):
            # Scale each experiment to a unit ROPE: the test depends on z / ROPE only.
            z, bounds = z / half_width[:, None], 1.0
        else:
            bounds = 0.0
        probs = signed_rank_probabilities(z, rope=bounds, prior_strength=prior_strength,
                                          n_samples=n_samples, random_state=rng)
        rate = float(np.mean(np.maximum(probs[:, 0], probs[:, 2]) >= threshold))
        rows.append({"n_data_sets": n, "rope": rope, "false_decision_rate": rate,
                     "mc_se": float(proportion_se(rate, r)), "n_repetitions": r})
    return pd.DataFrame(rows)
