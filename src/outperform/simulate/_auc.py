"""AUC of a test on synthetic contexts (Lacoste, Laviolette & Marchand 2012, §6.1-6.3).

A test given the counts of one experiment answers "A better" or "B better" with a confidence
level gamma. Over M experiments drawn from a context whose true answer is known, the ROC
curve plots, as the threshold tau decreases, the share of correct answers with gamma > tau
(s_tau / s_0) against the share of wrong ones (e_tau / e_0); its area (trapezoidal, over every
threshold) is the probability that a correct answer is more confident than a wrong one, ties
counting one half (the Mann-Whitney form of the AUC). 0.5 is a confidence that tells nothing;
below 0.5 a test is most sure when it is wrong.

Confidence levels of §6.3, computed here for whole batches of experiments at once:

* sign test (§6.1): ties k_h = k_g dropped; gamma = 1 - rho_s with
  rho_s = 2 sum_{i <= min(kappa+, kappa-)} C(kappa+ + kappa-, i) / 2^(kappa+ + kappa-)
  (capped at 1, like :func:`outperform.stats.sign_test` with ``ties="drop"``);
  answer A when kappa+ > kappa- (A's classifier made fewer errors on more data sets).
* Wilcoxon signed-rank (§6.2): d_i = (k_g - k_h) / n_i, zeros dropped, midranks r_i of
  |d_i|, c+ and c- the rank sums of positive and negative d_i, gamma = 1 - rho_w with
  rho_w = 2 sum_{c <= min(c+, c-)} w_|J|(c), w_n the null distribution of the signed-rank
  statistic without ties (the recursion of §6.2, as a probability: the paper's w_1 = 1 on
  {0, 1} would make it sum to 2); answer A when c+ > c-.
* Poisson-binomial test (§5): gamma = max(P(A better in W), P(B better in W)), from
  :func:`outperform.bayes._poisson_binomial_test.task_probability_a_better` (Theorem 4.1) and
  :func:`outperform.bayes._poisson_binomial_test.context_posterior` (eq. 5), the kernels of
  the test itself.

A test that cannot tell (kappa+ = kappa-, c+ = c-, P(A) = P(B), or no information at all)
gets a random answer, as a user flipping a coin would; its confidence is then its lowest.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import (DegenerateDataError, InvalidInputError, as_counts, check_choice,
                           check_random_state)
from ..bayes._poisson_binomial_test import context_posterior, task_probability_a_better
from ..results import BayesianResult, FrequentistResult
from ._common import check_int, check_int_grid
from ._contexts import SyntheticContext, sample_experiments
from ._study import parallel_map, seed_sequence

__all__ = [
    "LACOSTE_TESTS",
    "answer_auc",
    "auc_of_test",
    "direction_and_confidence",
    "lacoste_auc",
    "poisson_binomial_confidence",
    "roc_auc",
    "roc_curve",
    "sign_confidence",
    "wilcoxon_confidence",
]

LACOSTE_TESTS = ("sign", "wilcoxon", "poisson_binomial")
# Experiments simulated at once: bounds memory at a few hundred MB for (M, N) int arrays.
_CELLS_PER_CHUNK = 2_000_000


def _counts(errors_a_only, errors_b_only):
    k_a = as_counts(errors_a_only, "errors_a_only")
    k_b = as_counts(errors_b_only, "errors_b_only")
    if k_a.shape != k_b.shape or k_a.ndim not in (1, 2):
        raise InvalidInputError(
            "errors_a_only and errors_b_only must have the same shape, (N,) for one experiment "
            f"or (M, N) for M experiments, got {k_a.shape} and {k_b.shape}."
        )
    return np.atleast_2d(k_a), np.atleast_2d(k_b), k_a.ndim == 1


def _out(direction, confidence, single):
    direction = direction.astype(np.int64)
    return (direction[0], confidence[0]) if single else (direction, confidence)


def sign_confidence(errors_a_only, errors_b_only):
    """Answer and confidence 1 - rho_s of the sign test (Lacoste §6.1, §6.3), batched.

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
        k_h and k_g of each data set (of each of M experiments).

    Returns
    -------
    direction : int or ndarray of int
        +1 A better (kappa+ > kappa-), -1 B better, 0 no answer.
    confidence : float or ndarray
        1 - rho_s, in [0, 1].

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, shapes that differ.

    Examples
    --------
    A has fewer exclusive errors on 9 of 10 data sets:

    >>> d, c = sign_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8])
    >>> int(d), round(float(c), 4)
    (1, 0.9785)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    plus, minus = np.sum(k_a < k_b, axis=-1), np.sum(k_a > k_b, axis=-1)
    rho = 2 * stats.binom.cdf(np.minimum(plus, minus), plus + minus, 0.5)
    return _out(np.sign(plus - minus), 1 - np.minimum(rho, 1.0), single)


def _signed_rank_null_cdf(n: np.ndarray, c: np.ndarray) -> np.ndarray:
    """P(W_n <= c) for the signed-rank statistic W_n of n untied ranks (Lacoste §6.2)."""
    out = np.empty(n.shape)
    needed = set(np.unique(n).tolist())
    pmf = np.ones(1)
    for size in range(max(needed) + 1):
        if size:
            # w_n(c) = (w_{n-1}(c) + w_{n-1}(c - n)) / 2: rank n has a + sign or not.
            pmf = 0.5 * (np.pad(pmf, (0, size)) + np.pad(pmf, (size, 0)))
        if size in needed:
            rows = n == size
            out[rows] = np.cumsum(pmf)[c[rows]]
    return out


def wilcoxon_confidence(errors_a_only, errors_b_only, n_test):
    """Answer and confidence 1 - rho_w of the Wilcoxon signed-rank test (Lacoste §6.2), batched.

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
        k_h and k_g of each data set.
    n_test : int or array_like of int, broadcastable to the counts
        Test-set sizes m_i (the differences are d_i = (k_g - k_h) / m_i).

    Returns
    -------
    direction : int or ndarray of int
        +1 A better (c+ > c-), -1 B better, 0 no answer.
    confidence : float or ndarray
        1 - rho_w in [0, 1]. Without tied |d_i| this is 1 minus the exact two-sided p-value
        of :func:`outperform.stats._wilcoxon` (``zero_method="wilcox"``); with ties, rho_w
        evaluates the untied null distribution at floor(min(c+, c-)) as the paper defines
        it, where the kernel's exact test conditions on the ties.

    Raises
    ------
    InvalidInputError
        Negative or non-integer counts, shapes that differ, test-set sizes below 1.

    Examples
    --------
    >>> d, c = wilcoxon_confidence([1, 2, 3, 1, 0, 2, 1, 4, 2, 9], [3, 4, 5, 2, 1, 3, 2, 6, 5, 8],
    ...                            100)
    >>> int(d), round(float(c), 4)
    (1, 0.9902)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    sizes = np.broadcast_to(as_counts(n_test, "n_test"), k_a.shape)
    if np.any(sizes < 1):
        raise InvalidInputError("n_test must hold test-set sizes >= 1.")
    d = (k_b - k_a) / sizes
    nonzero = d != 0
    ranks = stats.rankdata(np.where(nonzero, np.abs(d), np.nan), axis=-1, nan_policy="omit")
    c_plus = np.where(d > 0, ranks, 0.0).sum(axis=-1)
    c_minus = np.where(d < 0, ranks, 0.0).sum(axis=-1)
    low = np.floor(np.minimum(c_plus, c_minus)).astype(np.int64)
    rho = 2 * _signed_rank_null_cdf(nonzero.sum(axis=-1), low)
    return _out(np.sign(c_plus - c_minus), 1 - np.minimum(rho, 1.0), single)


def poisson_binomial_confidence(errors_a_only, errors_b_only, *, prior: float = 1.0,
                                beta_prior: float = 1.0):
    """Answer and confidence max(P(A better), P(B better)) of the Poisson-binomial test, batched.

    Same numbers as :func:`outperform.bayes._poisson_binomial_test.poisson_binomial_test`
    row by row (Lacoste §5: Theorem 4.1 per data set, eq. 5 over data sets, Beta(beta,
    beta) prior on r).

    Parameters
    ----------
    errors_a_only, errors_b_only : array_like of int, shape (N,) or (M, N)
    prior : float
        alpha~ of Theorem 4.1 (1 = uniform).
    beta_prior : float
        beta of the prior on r (1 = uniform).

    Returns
    -------
    direction : int or ndarray of int
        +1 when P(A better in W) > P(B better in W), -1 when smaller, 0 when equal.
    confidence : float or ndarray
        max(P(A better in W), P(B better in W)).

    Raises
    ------
    InvalidInputError
        Bad counts, non-positive priors.

    Examples
    --------
    >>> d, c = poisson_binomial_confidence([3, 10, 4, 0, 12], [9, 14, 4, 0, 30])
    >>> int(d), round(float(c), 4)
    (1, 0.7978)
    """
    k_a, k_b, single = _counts(errors_a_only, errors_b_only)
    if not (np.isfinite(beta_prior) and beta_prior > 0):
        raise InvalidInputError(f"beta_prior must be a positive number, got {beta_prior!r}.")
    p = task_probability_a_better(k_a, k_b, prior=prior)
    p_a, p_b, _ = context_posterior(p, beta_prior=beta_prior)
    return _out(np.sign(p_a - p_b), np.maximum(p_a, p_b), single)


def _confidences(test: str, k_a, k_b, n_test, options):
    if test == "sign":
        return sign_confidence(k_a, k_b)
    if test == "wilcoxon":
        return wilcoxon_confidence(k_a, k_b, n_test)
    return poisson_binomial_confidence(k_a, k_b, **options)


def roc_auc(correct, confidence) -> float:
    """Area under the ROC curve of confidences that separate correct from wrong answers.

    Equal to the trapezoidal area under :func:`roc_curve` (every threshold, Lacoste §6.3)
    and to P(gamma_correct > gamma_wrong) + P(tie) / 2 (Mann-Whitney), computed from
    midranks in O(M log M).

    Parameters
    ----------
    correct : array_like of bool, shape (M,)
    confidence : array_like, shape (M,)

    Returns
    -------
    float
        The AUC, or NaN when all answers are correct or all wrong (no ROC curve).

    Raises
    ------
    InvalidInputError
        Shapes that differ, NaN confidences.

    Examples
    --------
    >>> roc_auc([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.2])
    0.8333333333333334
    """
    correct, confidence = _answers(correct, confidence)
    n_pos = int(correct.sum())
    n_neg = correct.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return math.nan
    ranks = stats.rankdata(confidence)
    return float((ranks[correct].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def roc_curve(correct, confidence) -> tuple[np.ndarray, np.ndarray]:
    """Lacoste's ROC points (e_tau / e_0, s_tau / s_0) over every threshold tau.

    Parameters
    ----------
    correct : array_like of bool, shape (M,)
    confidence : array_like, shape (M,)

    Returns
    -------
    error_rate, success_rate : ndarray
        From (0, 0) (threshold above every confidence) to (1, 1), one point per distinct
        confidence level.

    Raises
    ------
    InvalidInputError
        Shapes that differ, NaN confidences, answers all correct or all wrong.

    Examples
    --------
    >>> e, s = roc_curve([True, True, False, True, False], [0.9, 0.8, 0.7, 0.6, 0.2])
    >>> e.tolist(), s.round(3).tolist()
    ([0.0, 0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.333, 0.667, 0.667, 1.0, 1.0])
    """
    correct, confidence = _answers(correct, confidence)
    n_pos = int(correct.sum())
    if n_pos in (0, correct.size):
        raise InvalidInputError("the ROC curve needs both correct and wrong answers.")
    order = np.argsort(-confidence, kind="stable")
    gamma, hit = confidence[order], correct[order]
    last = np.r_[np.flatnonzero(np.diff(gamma)), gamma.size - 1]   # end of each level
    s = np.r_[0, np.cumsum(hit)[last]] / n_pos
    e = np.r_[0, np.cumsum(~hit)[last]] / (correct.size - n_pos)
    return e, s


def _answers(correct, confidence):
    correct = np.asarray(correct)
    confidence = np.asarray(confidence, dtype=float)
    if correct.ndim != 1 or correct.shape != confidence.shape:
        raise InvalidInputError(
            f"correct and confidence must be 1-D of the same length, got {correct.shape} and "
            f"{confidence.shape}."
        )
    if np.isnan(confidence).any():
        raise InvalidInputError("confidence contains NaN: every answer needs a confidence.")
    return correct.astype(bool), confidence


def _delong_se(correct: np.ndarray, confidence: np.ndarray) -> float:
    """Standard error of the AUC from DeLong's placement values (DeLong et al. 1988).

    V10_i (correct answer i) = share of wrong answers less confident, V01_j (wrong answer
    j) = share of correct answers more confident, ties 1/2, from midranks (Sun & Xu 2014);
    var(AUC) = var(V10) / n_correct + var(V01) / n_wrong. Unlike Hanley & McNeil's formula
    it assumes no shape for the confidences, which here are discrete and heavily tied.
    """
    pos, neg = confidence[correct], confidence[~correct]
    n_pos, n_neg = pos.size, neg.size
    if n_pos < 2 or n_neg < 2:
        return math.nan
    all_ranks = stats.rankdata(np.concatenate([pos, neg]))
    v10 = (all_ranks[:n_pos] - stats.rankdata(pos)) / n_neg
    v01 = 1.0 - (all_ranks[n_pos:] - stats.rankdata(neg)) / n_pos
    return math.sqrt(v10.var(ddof=1) / n_pos + v01.var(ddof=1) / n_neg)


def answer_auc(direction, confidence, a_better, *, random_state=None) -> dict:
    """Score the answers of a test against the truth: AUC, its standard error, accuracy.

    Parameters
    ----------
    direction : array_like of int, shape (M,)
        +1 (A better), -1 (B better), 0 (no answer: replaced by a fair coin flip).
    confidence : array_like, shape (M,)
    a_better : array_like of bool, shape (M,)
        The true answers.
    random_state : seed of the coin flips.

    Returns
    -------
    dict
        ``auc``; ``mc_se`` (DeLong standard error; NaN with fewer than 2 correct or wrong);
        ``accuracy`` (share of correct answers); ``no_answer`` (share of coin flips).

    Raises
    ------
    InvalidInputError
        Shapes that differ, directions outside {-1, 0, 1}, NaN confidences.

    Examples
    --------
    >>> res = answer_auc([1, 1, -1, 1], [0.9, 0.8, 0.7, 0.3], [True, True, True, False])
    >>> res["auc"], res["accuracy"]
    (1.0, 0.5)
    """
    direction = np.asarray(direction)
    truth = np.asarray(a_better, dtype=bool)
    if direction.shape != truth.shape or not np.isin(direction, (-1, 0, 1)).all():
        raise InvalidInputError(
            "direction must hold -1, 0 or 1 for each experiment, with one truth value each."
        )
    undecided = direction == 0
    coin = check_random_state(random_state).random(direction.size) < 0.5
    says_a = np.where(undecided, coin, direction > 0)
    correct = says_a == truth
    auc = roc_auc(correct, confidence)
    se = _delong_se(correct, np.asarray(confidence, dtype=float))
    return {"auc": auc, "mc_se": se,
            "accuracy": float(correct.mean()), "no_answer": float(undecided.mean())}


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
                n_repetitions: int = 10_000, random_state=None, prior: float = 1.0,
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
                n_repetitions: int = 1000, random_state=None, n_jobs: int = 1, backend=None,
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
