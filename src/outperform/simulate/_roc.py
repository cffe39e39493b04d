"""ROC curve and AUC of a test's answers (Lacoste, Laviolette & Marchand 2012, §6.3).

Over M experiments whose true answer is known, the ROC curve plots, as the threshold tau
decreases, the share of correct answers with confidence gamma > tau (s_tau / s_0) against
the share of wrong ones (e_tau / e_0); its area (trapezoidal, over every threshold) is the
probability that a correct answer is more confident than a wrong one, ties counting one half
(the Mann-Whitney form of the AUC). 0.5 is a confidence that tells nothing; below 0.5 a
test is most sure when it is wrong.
"""
from __future__ import annotations

import math

import numpy as np

from .._validation import InvalidInputError, check_random_state
from ..stats._delong import auc_covariance

__all__ = ["answer_auc", "roc_auc", "roc_curve"]


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
    return _auc_and_se(*_answers(correct, confidence))[0]


def _auc_and_se(correct: np.ndarray, confidence: np.ndarray) -> tuple[float, float]:
    """The AUC and its DeLong standard error (NaN with fewer than 2 correct or 2 wrong).

    The kernel of :func:`outperform.stats.delong_test`: placement values from midranks
    (Sun & Xu 2014), var(AUC) = var(V10) / n_correct + var(V01) / n_wrong. Unlike Hanley &
    McNeil's formula it assumes no shape for the confidences, which here are discrete and
    heavily tied.
    """
    n_pos = int(correct.sum())
    n_neg = correct.size - n_pos
    if n_pos == 0 or n_neg == 0:
        return math.nan, math.nan
    with np.errstate(invalid="ignore", divide="ignore"):   # one of a kind: no variance
        auc, cov = auc_covariance(confidence[None, :], correct)
    se = math.sqrt(cov[0, 0]) if min(n_pos, n_neg) >= 2 else math.nan
    return float(auc[0]), se


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


def answer_auc(direction, confidence, a_better, *, random_state=0) -> dict:
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
    auc, se = _auc_and_se(*_answers(says_a == truth, confidence))
    correct = says_a == truth
    return {"auc": auc, "mc_se": se,
            "accuracy": float(correct.mean()), "no_answer": float(undecided.mean())}
