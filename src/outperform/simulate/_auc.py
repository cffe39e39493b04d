"""AUC of a test on synthetic contexts (Lacoste, Laviolette & Marchand 2012, §6.1-6.4).

All tests answer the same simulated experiments (with A and B swapped at random, §6.3):
the sign, Wilcoxon and Poisson-binomial tests through their batched confidences
(:mod:`._confidence`), any other test one experiment at a time
(:func:`auc_of_test`); their answers are scored by :func:`._roc.answer_auc`. A test that
cannot tell gets a random answer, as a user flipping a coin would; its confidence is then
its lowest.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

from .._validation import DegenerateDataError, InvalidInputError, check_choice
from ..results import BayesianResult, FrequentistResult
from ._common import check_int, check_int_grid
from ._confidence import (LACOSTE_TESTS, poisson_binomial_confidence, sign_confidence,
                          wilcoxon_confidence)
from ._contexts import SyntheticContext, sample_experiments
from ._roc import answer_auc
from ._study import parallel_map, seed_sequence

__all__ = ["auc_of_test", "direction_and_confidence", "lacoste_auc"]

# Experiments simulated at once: bounds memory at a few hundred MB for (M, N) int arrays.
_CELLS_PER_CHUNK = 2_000_000


def _confidences(test: str, k_a, k_b, n_test, options):
    if test == "sign":
        return sign_confidence(k_a, k_b)
    if test == "wilcoxon":
        return wilcoxon_confidence(k_a, k_b, n_test)
    return poisson_binomial_confidence(k_a, k_b, **options)


def _chunks(context, n_data_sets, n_repetitions, random_state):
    """Experiments in blocks with their own seeds, and the seed of the coin flips."""
    block = max(1, _CELLS_PER_CHUNK // n_data_sets)
    starts = list(range(0, n_repetitions, block))
    root = seed_sequence(random_state)
    *seeds, coin = root.spawn(len(starts) + 1)
    return [(context, n_data_sets, min(block, n_repetitions - lo), seed)
            for lo, seed in zip(starts, seeds)], coin


def _check_answer(context: SyntheticContext) -> None:
    if abs(context.prob_a_better - 0.5) <= 1e-12:
        raise DegenerateDataError(
            "in this context neither algorithm is better (q = 1/2): there is no true answer."
        )


def _size_label(context: SyntheticContext):
    return context.n_test[0] if len(context.n_test) == 1 else "|".join(map(str, context.n_test))


def _lacoste_chunk(context, n_data_sets, size, seed, tests, options):
    exp = sample_experiments(context, n_data_sets, size, random_state=seed)
    answers = {t: _confidences(t, exp.errors_a_only, exp.errors_b_only, exp.n_test, options)
               for t in tests}
    return answers, exp.a_better


def lacoste_auc(context: SyntheticContext, n_data_sets, *, tests=LACOSTE_TESTS,
                n_repetitions: int = 10_000, random_state=0, prior: float = 1.0,
                beta_prior: float = 1.0, n_jobs: int = 1, backend=None,
                progress: bool = False) -> pd.DataFrame:
    """AUC of the sign, Wilcoxon and Poisson-binomial tests on a context (Lacoste §6.3-6.4).

    All tests answer the same simulated experiments (with A and B swapped at random, §6.3),
    so their AUCs are compared on common random numbers.

    Parameters
    ----------
    context : SyntheticContext
        E.g. :func:`outperform.simulate._contexts.single_dirichlet_context`.
    n_data_sets : int or sequence of int
        N, data sets per experiment (a sequence gives one row per N).
    tests : sequence of {"sign", "wilcoxon", "poisson_binomial"}
    n_repetitions : int
        M experiments per N (the paper: 10^5).
    random_state : None, int, SeedSequence or Generator
    prior, beta_prior : float
        Priors of the Poisson-binomial test (Lacoste §4.1 and §5; 1 = uniform).
    n_jobs, backend
        Parallel execution, as :func:`outperform.simulate._study.calibration`; the table is
        the same for any value.
    progress : bool
        rich progress bar over the values of N.

    Returns
    -------
    pandas.DataFrame
        One row per (N, test): ``context``, ``n_test``, ``n_data_sets``, ``test``,
        ``n_repetitions``, ``auc``, ``mc_se`` (DeLong), ``accuracy``, ``no_answer``.

    Raises
    ------
    InvalidInputError
        Unknown test, non-positive sizes.
    DegenerateDataError
        A context where neither algorithm is better (no true answer).

    Examples
    --------
    >>> from outperform.simulate._contexts import bimodal_context

    Lacoste §6.4: on the bimodal context with n = 100001 and N = 14 the Wilcoxon test is
    worse than random (the paper: 0.334), the other two above 0.8:

    >>> t = lacoste_auc(bimodal_context(), 14, n_repetitions=5000, random_state=4)
    >>> t[["test", "auc", "mc_se"]].round(3).to_dict("records")  # doctest: +NORMALIZE_WHITESPACE
    [{'test': 'sign', 'auc': 0.853, 'mc_se': 0.007},
     {'test': 'wilcoxon', 'auc': 0.336, 'mc_se': 0.008},
     {'test': 'poisson_binomial', 'auc': 0.883, 'mc_se': 0.007}]
    """
    tests = tuple(check_choice(t, "test", LACOSTE_TESTS) for t in (
        (tests,) if isinstance(tests, str) else tests))
    if not isinstance(context, SyntheticContext):
        raise InvalidInputError("context must be a SyntheticContext.")
    grid = check_int_grid(n_data_sets, "n_data_sets")
    m = check_int(n_repetitions, "n_repetitions")
    _check_answer(context)
    options = {"prior": prior, "beta_prior": beta_prior}
    seeds = seed_sequence(random_state).spawn(len(grid))
    tasks, weights, coins, counts = [], [], [], []
    for n, seed in zip(grid, seeds):
        chunks, coin = _chunks(context, n, m, seed)
        coins.append(coin)
        counts.append(len(chunks))
        tasks += [(*c, tests, options) for c in chunks]
        weights += [c[2] for c in chunks]
    results = parallel_map(_lacoste_chunk, tasks, weights, n_jobs=n_jobs, backend=backend,
                           progress=progress, description="AUC of tests")
    rows, at = [], 0
    for n, coin, count in zip(grid, coins, counts):
        parts = results[at:at + count]
        at += count
        truth = np.concatenate([p[1] for p in parts])
        coin_seeds = coin.spawn(len(tests))
        for test, coin_seed in zip(tests, coin_seeds):
            direction = np.concatenate([p[0][test][0] for p in parts])
            confidence = np.concatenate([p[0][test][1] for p in parts])
            score = answer_auc(direction, confidence, truth, random_state=coin_seed)
            rows.append({"context": context.name, "n_test": _size_label(context),
                         "n_data_sets": n, "test": test, "n_repetitions": m, **score})
    return pd.DataFrame(rows)


def direction_and_confidence(result) -> tuple[int, float]:
    """The answer (+1 A better, -1 B better, 0 none) and confidence of a test result.

    Parameters
    ----------
    result : BayesianResult, FrequentistResult or (direction, confidence)
        A :class:`BayesianResult` answers its more probable side with confidence
        max(P(A better), P(B better)) (Lacoste §6.3 for the Poisson-binomial test). A
        two-sided :class:`FrequentistResult` answers the side its effect size favours
        (positive: A) with confidence 1 - p-value (Lacoste §6.1-6.2). A pair is used as is.

    Returns
    -------
    (int, float)

    Raises
    ------
    InvalidInputError
        A one-sided frequentist result, a result without an effect size, or anything else.

    Examples
    --------
    >>> from outperform.stats import sign_test
    >>> direction_and_confidence(sign_test([3, 4, 5, 6], [1, 2, 3, 7], ties="drop"))
    (1, 0.375)
    """
    if isinstance(result, BayesianResult):
        a, b = ((result.p_right, result.p_left) if result.a_better_side == "right"
                else (result.p_left, result.p_right))
        return int(np.sign(a - b)), float(max(a, b))
    if isinstance(result, FrequentistResult):
        if result.alternative != "two-sided" or result.effect_size is None:
            raise InvalidInputError(
                "a frequentist test gives a direction and a confidence only when two-sided "
                "and with a signed effect size; return (direction, confidence) instead."
            )
        return int(np.sign(result.effect_size)), 1.0 - float(result.pvalue)
    if isinstance(result, tuple) and len(result) == 2:
        direction, confidence = result
        if direction not in (-1, 0, 1) or not 0 <= confidence <= 1:
            raise InvalidInputError(
                "a (direction, confidence) answer needs direction in {-1, 0, 1} and a "
                f"confidence in [0, 1], got {result!r}."
            )
        return int(direction), float(confidence)
    raise InvalidInputError(
        "a test must return a BayesianResult, a two-sided FrequentistResult or a pair "
        f"(direction, confidence), got {type(result).__name__}."
    )


def _generic_chunk(context, n_data_sets, size, seed, test):
    exp = sample_experiments(context, n_data_sets, size, random_state=seed)
    direction = np.empty(size, dtype=np.int64)
    confidence = np.empty(size)
    for i in range(size):
        try:
            answer = test(exp.errors_a_only[i], exp.errors_b_only[i], exp.n_test[i])
            direction[i], confidence[i] = direction_and_confidence(answer)
        except DegenerateDataError:
            # No information (e.g. every data set tied): no answer, lowest confidence.
            direction[i], confidence[i] = 0, 0.0
    return direction, confidence, exp.a_better


def auc_of_test(test: Callable, context: SyntheticContext, n_data_sets: int, *,
                n_repetitions: int = 1000, random_state=0, n_jobs: int = 1, backend=None,
                progress: bool = False, name: str | None = None) -> pd.DataFrame:
    """AUC (Lacoste §6.3) of any test that yields a direction and a confidence.

    Parameters
    ----------
    test : callable
        ``test(errors_a_only, errors_b_only, n_test)`` for one experiment (three int arrays
        of length N: k_h, k_g and the test-set sizes), returning a :class:`BayesianResult`,
        a two-sided :class:`FrequentistResult` or ``(direction, confidence)`` (see
        :func:`direction_and_confidence`). A test that raises ``DegenerateDataError`` (no
        information) counts as no answer with confidence 0. Tests on scores can use the
        error rates: A's score ``-errors_a_only / n_test`` and B's ``-errors_b_only /
        n_test`` differ exactly by the risk difference (the shared errors cancel).
    context : SyntheticContext
    n_data_sets : int
    n_repetitions : int
    random_state : None, int, SeedSequence or Generator
        The same seed as :func:`lacoste_auc` simulates the same experiments.
    n_jobs, backend, progress
        Parallel execution and progress bar, as :func:`outperform.simulate._study.calibration`.
    name : str, optional
        Label of the test in the table (default: the function's name).

    Returns
    -------
    pandas.DataFrame
        One row, the columns of :func:`lacoste_auc`.

    Raises
    ------
    InvalidInputError
        Bad sizes, a test result without a direction and confidence.
    DegenerateDataError
        A context where neither algorithm is better.

    Examples
    --------
    The sign test kernel as Lacoste uses it (ties dropped), on the single-Dirichlet context:

    >>> from outperform.stats import sign_test
    >>> from outperform.simulate._contexts import single_dirichlet_context
    >>> def sign(k_a, k_b, n):
    ...     return sign_test(-k_a / n, -k_b / n, ties="drop")
    >>> t = auc_of_test(sign, single_dirichlet_context(), 10, n_repetitions=300, random_state=0)
    >>> t.loc[0, "test"], round(float(t.loc[0, "auc"]), 2)
    ('sign', 0.86)
    """
    if not callable(test):
        raise InvalidInputError(
            "test must be a function test(errors_a_only, errors_b_only, n_test).")
    if not isinstance(context, SyntheticContext):
        raise InvalidInputError("context must be a SyntheticContext.")
    n = check_int(n_data_sets, "n_data_sets")
    m = check_int(n_repetitions, "n_repetitions")
    _check_answer(context)
    # The same streams as one value of N in lacoste_auc: the first spawned child.
    chunks, coin = _chunks(context, n, m, seed_sequence(random_state).spawn(1)[0])
    parts = parallel_map(_generic_chunk, [(*c, test) for c in chunks], [c[2] for c in chunks],
                         n_jobs=n_jobs, backend=backend, progress=progress,
                         description="AUC of a test")
    direction, confidence, truth = (np.concatenate([p[k] for p in parts]) for k in range(3))
    score = answer_auc(direction, confidence, truth, random_state=coin.spawn(1)[0])
    label = name or getattr(test, "__name__", "test")
    return pd.DataFrame([{"context": context.name, "n_test": _size_label(context),
                          "n_data_sets": n, "test": label, "n_repetitions": m, **score}])
