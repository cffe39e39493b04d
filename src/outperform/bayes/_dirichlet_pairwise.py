"""Bayesian sign and signed-rank tests for every pair of models (Benavoli et al. 2017)."""
from __future__ import annotations


import numpy as np

from .._validation import (
    as_score_matrix,
    check_probability,
    check_random_state,
    check_rope,
)
from ..results import PairwiseResult
from .._names import model_names
from ._pairwise import bayesian_pairwise_result

from ._bayesian_sign import _sign_counts, _sign_thetas
from ._dirichlet_process import (_check_options, _signed_rank_posterior,
                                 _winner_counts)

__all__ = ["pairwise_bayesian_sign_test", "pairwise_bayesian_signed_rank_test"]


def _pairwise(test: str, scores, names, rope, prior_strength, prior_place, n_samples,
              random_state, threshold, cycle_threshold) -> PairwiseResult:
    x = as_score_matrix(scores, "scores", min_tasks=1)
    rope = check_rope(rope)
    _check_options(prior_strength, n_samples, threshold, prior_place)
    check_probability(cycle_threshold, "cycle_threshold")
    q, k = x.shape
    labels = model_names(names, k)
    rng = check_random_state(random_state)
    iu, ju = np.triu_indices(k, 1)
    zs = [x[:, i] - x[:, j] for i, j in zip(iu, ju)]
    if test == "sign":
        counts = [_sign_counts(z, rope) for z in zs]
        probs = np.array([
            _winner_counts(*_sign_thetas(c, prior_strength, prior_place, int(n_samples), rng).T)
            for c in counts]) / n_samples
        method = "Bayesian sign test (Benavoli et al. 2017), all pairs"
    else:
        probs, _ = _signed_rank_posterior(zs, rope, float(prior_strength), prior_place,
                                          int(n_samples), rng, keep_samples=False)
        method = "Bayesian signed-rank test (Benavoli et al. 2017), all pairs"
    better, p_rope, se = np.zeros((k, k)), np.zeros((k, k)), np.zeros((k, k))
    better[iu, ju], better[ju, iu] = probs[:, 2], probs[:, 0]
    p_rope[iu, ju] = p_rope[ju, iu] = probs[:, 1]
    mc = np.sqrt(probs * (1 - probs) / n_samples).max(axis=1)
    se[iu, ju] = se[ju, iu] = mc
    np.fill_diagonal(se, np.nan)
    details = {"n_data_sets": q, "rope": rope, "prior_strength": float(prior_strength),
               "prior_place": prior_place, "n_samples": int(n_samples),
               "mc_standard_error": se}
    return bayesian_pairwise_result(method, labels, better, p_rope, threshold, cycle_threshold,
                                    details)


def pairwise_bayesian_sign_test(scores, *, names=None, rope=0.0, prior_strength: float = 1.0,
                                prior_place: str = "rope", n_samples: int = 50000,
                                random_state=0, threshold: float = 0.95,
                                cycle_threshold: float = 0.5) -> PairwiseResult:
    """Bayesian sign test with a ROPE for every pair of k models.

    Pair (i, j) is :func:`bayesian_sign_test` with ``a = scores[:, i]``, ``b = scores[:, j]``.

    Parameters
    ----------
    scores : array_like, shape (q, k)
        One score per data set (row) and model (column); higher is better.
    names : sequence of str, optional
        Model names, default "model 0", "model 1", ...
    rope, prior_strength, prior_place, n_samples, random_state, threshold
        As in :func:`bayesian_sign_test`.
    cycle_threshold : float
        "i beats j" in the cycle search when P(i practically better than j) exceeds it.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = P(model i practically better than model j), diagonal NaN;
        ``details``: ``p_rope`` (symmetric), ``decision`` (k x k, "A better" meaning the row
        model), ``mc_standard_error`` (of the largest of the pair's three probabilities),
        ``cycles``. No p-values (NaN), ``adjustment="none"``, ``alpha = 1 - threshold``.

    Raises
    ------
    InvalidInputError
        Bad scores, names or options.
    TooFewError
        Fewer than 2 models or no data set.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.normal(0.8, 0.05, (30, 1))
    >>> scores = base + [0.0, 0.005, 0.02] + rng.normal(0, 0.01, (30, 3))
    >>> res = pairwise_bayesian_sign_test(scores, names=["A", "B", "C"], rope=0.01,
    ...                                   random_state=0)
    >>> res.statistic.round(3)          # P(row practically better than column)
    array([[  nan, 0.001, 0.   ],
           [0.719,   nan, 0.   ],
           [1.   , 0.979,   nan]])
    >>> res.details["decision"][1, 0], res.details["decision"][2, 1]
    ('undecided', 'A better')
    """
    return _pairwise("sign", scores, names, rope, prior_strength, prior_place, n_samples,
                     random_state, threshold, cycle_threshold)


def pairwise_bayesian_signed_rank_test(scores, *, names=None, rope=0.0,
                                       prior_strength: float = 0.5, prior_place: str = "rope",
                                       n_samples: int = 50000, random_state=0,
                                       threshold: float = 0.95, cycle_threshold: float = 0.5
                                       ) -> PairwiseResult:
    """Bayesian signed-rank test with a ROPE for every pair of k models.

    Pair (i, j) is :func:`bayesian_signed_rank_test` with ``a = scores[:, i]``,
    ``b = scores[:, j]``. All pairs share one set of posterior draws (module docstring), so
    the k(k-1)/2 tests cost little more than one: 435 pairs of 30 models on 200 data sets
    with 50,000 draws each take a few seconds (``benchmarks/bench_signed_rank.py``).

    Parameters
    ----------
    scores : array_like, shape (q, k)
        One score per data set (row) and model (column); higher is better.
    names : sequence of str, optional
        Model names, default "model 0", "model 1", ...
    rope, prior_strength, prior_place, n_samples, random_state, threshold
        As in :func:`bayesian_signed_rank_test`.
    cycle_threshold : float
        "i beats j" in the cycle search when P(i practically better than j) exceeds it.

    Returns
    -------
    PairwiseResult
        ``statistic[i, j]`` = P(model i practically better than model j), diagonal NaN;
        ``details``: ``p_rope`` (symmetric), ``decision`` (k x k, "A better" meaning the row
        model), ``mc_standard_error`` (of the largest of the pair's three probabilities),
        ``cycles``. No p-values (NaN), ``adjustment="none"``, ``alpha = 1 - threshold``.

    Raises
    ------
    InvalidInputError
        Bad scores, names or options.
    TooFewError
        Fewer than 2 models or no data set.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.normal(0.8, 0.05, (30, 1))
    >>> scores = base + [0.0, 0.005, 0.02] + rng.normal(0, 0.01, (30, 3))
    >>> res = pairwise_bayesian_signed_rank_test(scores, names=["A", "B", "C"], rope=0.01,
    ...                                          random_state=0)
    >>> res.statistic.round(3)          # P(row practically better than column)
    array([[  nan, 0.   , 0.   ],
           [0.293,   nan, 0.   ],
           [1.   , 1.   ,   nan]])
    >>> res.details["p_rope"][0, 1].round(3), res.details["decision"][2, 1]
    (np.float64(0.707), 'A better')
    """
    return _pairwise("signed-rank", scores, names, rope, prior_strength, prior_place,
                     n_samples, random_state, threshold, cycle_threshold)
