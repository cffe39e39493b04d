"""Item diagnostics of a model x item score matrix, and a benchmark's signal and noise.

Classical test theory, with the language models as the test-takers (Lord & Novick 1968;
Crocker & Algina 1986, ch. 14):

- difficulty of item j: its mean score over the models that answered it (the proportion of
  models right for 0/1 scores: higher is easier, the "p-value" of test theory);
- discrimination of item j: the corrected item-total (point-biserial for 0/1 scores)
  correlation, Pearson's r over the models that answered j between the model's score on j
  and its mean score on the other items it answered (the item excluded from the total, so
  that the item does not correlate with itself);
- items no model gets right, items every model gets right, and items on which the k best
  models all score the same (they do not separate the top k).

Heineman et al. (2025), "Signal and Noise: A Framework for Reducing Uncertainty in Language
Model Evaluation" (arXiv:2508.13144), §2, as their code computes it
(github.com/allenai/signal-and-noise, ``snr/metrics.py``):

- signal-to-noise ratio = [max_{j,k} |m_j - m_k| / mean(m)] / [std(n) / mean(n)], the
  relative dispersion of the models' scores m over the relative standard deviation
  (ddof 0) of repeated measurements n of a score;
- decision accuracy = the share of pairs of models (i < j) whose order by one set of scores
  (``small``: ``s_i > s_j``) is the order by another (``target``: ``t_i > t_j``); a tie on
  both sides counts as agreement, as in their ``decision_acc_fast``.
"""
from __future__ import annotations

import numpy as np

from .._validation import InvalidInputError

__all__ = ["item_statistics", "signal_to_noise_ratio", "decision_accuracy", "top_k_agree"]


def item_statistics(scores) -> dict:
    """Difficulty, discrimination and extremes of every item of a model x item matrix.

    Parameters
    ----------
    scores : array_like, shape (m, n)
        Model i's score on item j, NaN where the model did not answer the item. Scores in
        [0, 1] (0/1 or graded), higher is better.

    Returns
    -------
    dict of ndarray, each shape (n,)
        ``n_models`` (models that answered the item), ``difficulty`` (mean score; NaN when no
        model answered), ``discrimination`` (corrected item-total correlation; NaN when fewer
        than 3 models answered, or the item's scores or the rest scores are constant),
        ``none_right`` (every answer is 0), ``all_right`` (every answer is 1); both False for
        an item no model answered.

    Examples
    --------
    >>> x = np.array([[1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, 1], [1, 0, 0, 0.]])
    >>> s = item_statistics(x)
    >>> s["difficulty"].tolist(), s["all_right"].tolist()
    ([1.0, 0.5, 0.25, 0.25], [True, False, False, False])
    >>> np.round(s["discrimination"], 3).tolist()    # item 0 is constant: no correlation
    [nan, 0.0, 0.333, -0.522]
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise InvalidInputError(f"scores must be a 2-D model x item matrix, got shape {x.shape}.")
    w = ~np.isnan(x)
    y = np.where(w, x, 0.0)
    n_models = w.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        difficulty = y.sum(axis=0) / n_models
        # rest score: the model's mean over its other answered items, per answered cell
        rest = np.where(w, (y.sum(axis=1, keepdims=True) - y)
                        / (w.sum(axis=1, keepdims=True) - 1), 0.0)
        rest_ok = w & (w.sum(axis=1, keepdims=True) > 1)
        r = _masked_correlation(y, rest, rest_ok)
    r[rest_ok.sum(axis=0) < 3] = np.nan
    low = np.where(w, x, np.inf).min(axis=0)
    high = np.where(w, x, -np.inf).max(axis=0)
    answered = n_models > 0
    return {"n_models": n_models, "difficulty": difficulty, "discrimination": r,
            "none_right": answered & (high == 0), "all_right": answered & (low == 1)}


def _masked_correlation(a, b, mask):
    """Pearson's r of the columns of ``a`` and ``b`` over the rows where ``mask`` holds."""
    k = mask.sum(axis=0)
    ma = np.where(mask, a, 0).sum(axis=0) / k
    mb = np.where(mask, b, 0).sum(axis=0) / k
    da = np.where(mask, a - ma, 0.0)
    db = np.where(mask, b - mb, 0.0)
    saa, sbb = (da * da).sum(axis=0), (db * db).sum(axis=0)
    # constant item or rest scores (up to rounding): no correlation
    tiny = 1e-12 * np.maximum(k, 1)
    out = (da * db).sum(axis=0) / np.sqrt(saa * sbb)
    out[(saa <= tiny) | (sbb <= tiny)] = np.nan
    out[np.abs(out) < 1e-12] = 0.0      # rounding: no item "negatively discriminating" by -1e-17
    return np.clip(out, -1.0, 1.0)


def top_k_agree(scores, top) -> tuple[np.ndarray, np.ndarray]:
    """Whether the models ``top`` (indices of the k best) all score an item the same.

    Parameters
    ----------
    scores : array_like, shape (m, n)
        NaN where not answered.
    top : sequence of int
        Row indices of the top models.

    Returns
    -------
    agree : ndarray of bool, shape (n,)
        True where at least 2 of the top models answered the item and all of those gave it
        the same score: the item does not separate them.
    n_top : ndarray of int, shape (n,)
        How many of the top models answered the item.
    """
    sub = np.asarray(scores, dtype=float)[np.asarray(top, dtype=int)]
    w = ~np.isnan(sub)
    n_top = w.sum(axis=0)
    low = np.where(w, sub, np.inf).min(axis=0)
    high = np.where(w, sub, -np.inf).max(axis=0)
    return (n_top >= 2) & (low == high), n_top


def signal_to_noise_ratio(signal_scores, noise_scores) -> np.ndarray | float:
    """Heineman et al.'s (2025, §2) signal-to-noise ratio, along the last axis.

    signal = max_{j,k} |m_j - m_k| / mean(m) (the relative dispersion of the models' scores
    ``signal_scores``); noise = std(n) / mean(n) (ddof 0, the relative standard deviation of
    repeated measurements ``noise_scores``); SNR = signal / noise.

    Parameters
    ----------
    signal_scores : array_like, shape (..., k)
        One score per model (k >= 2).
    noise_scores : array_like, shape (..., r)
        Repeated measurements of one score (checkpoints, seeds, resamples of the items).

    Returns
    -------
    float or ndarray, shape (...)
        ``inf`` when the noise is 0 and the signal is not; NaN when both are 0.

    Examples
    --------
    >>> round(signal_to_noise_ratio([0.5, 0.6, 0.7], [0.59, 0.6, 0.61]), 3)
    24.495
    """
    m = np.asarray(signal_scores, dtype=float)
    n = np.asarray(noise_scores, dtype=float)
    if m.shape[-1] < 2 or n.shape[-1] < 2:
        raise InvalidInputError("signal-to-noise needs at least 2 models' scores and 2 "
                                "repeated measurements.")
    signal = (m.max(axis=-1) - m.min(axis=-1)) / m.mean(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = signal / (n.std(axis=-1) / n.mean(axis=-1))
    return float(out) if np.ndim(out) == 0 else out


def decision_accuracy(small, target) -> np.ndarray | float:
    """Heineman et al.'s (2025, §2) decision accuracy, along the last axis.

    The share of pairs i < j of the k models on which ``small_i > small_j`` equals
    ``target_i > target_j`` (so a pair tied on both counts as agreeing, and a pair tied on
    one side only as agreeing when the other side has ``s_i <= s_j``), as their
    ``decision_acc_fast``.

    Parameters
    ----------
    small, target : array_like, shape (..., k)
        Two scorings of the same k models (in the same order), e.g. a subtask and the whole
        benchmark, or two halves of the items.

    Returns
    -------
    float or ndarray, shape (...)

    Examples
    --------
    >>> decision_accuracy([0.1, 0.5, 0.3], [0.2, 0.6, 0.7])     # 2 of 3 pairs agree
    0.6666666666666666
    """
    s = np.asarray(small, dtype=float)
    t = np.asarray(target, dtype=float)
    if s.shape != t.shape or s.shape[-1] < 2:
        raise InvalidInputError(f"decision accuracy needs two scorings of the same k >= 2 "
                                f"models, got shapes {s.shape} and {t.shape}.")
    k = s.shape[-1]
    i, j = np.triu_indices(k, 1)
    agree = (s[..., i] > s[..., j]) == (t[..., i] > t[..., j])
    out = agree.mean(axis=-1)
    return float(out) if np.ndim(out) == 0 else out
