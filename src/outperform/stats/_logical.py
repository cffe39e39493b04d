"""Adjusted p-values that use the logical relations among all-pairs hypotheses, and Li's
procedure against a control (García & Herrera 2008; García et al. 2010).

All k(k − 1)/2 pairwise hypotheses "model i equals model j" cannot be true in every
combination: if A = B and B = C then A = C. Shaffer's static procedure and Bergmann &
Hommel's procedure use that to reject more than Holm's at the same family-wise level.

* Shaffer (1986), JASA 81: 826–831: Holm's multipliers m − j + 1 replaced by t_j, the largest
  number of hypotheses that can be true once any j − 1 are false.
* Bergmann & Hommel (1988): the true hypotheses form an *exhaustive set*: the pairs inside
  the groups of a partition of the k models. APV_i = max{|I| · min_{j ∈ I} p_j : I exhaustive,
  i ∈ I}. The partitions are enumerated (Bell(k) of them), so k is limited to
  ``BERGMANN_MAX_K``.
* Li (2008), "A two-step rejection procedure for testing multiple hypotheses", J. Stat.
  Plan. Inference 138: 1521–1527: APV_i = p_i / (p_i + 1 − p_max), and p_max itself.
* Rom (1990), "A sequentially rejective test procedure based on a modified Bonferroni
  inequality", Biometrika 77: 663–665: a step-up procedure (more powerful than Hochberg's)
  whose critical values depend on α.

Adjusted-p-value forms: García & Herrera (2008), JMLR 9: 2677–2694, §3 and Table 5 footnotes;
García, Fernández, Luengo & Herrera (2010), Information Sciences 180: 2044–2064, §4 and
Table 9 (Li).
"""
from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from .._validation import InvalidInputError, as_float_array, check_probability

#: Bergmann–Hommel enumerates the Bell(k) partitions of the models: Bell(10) = 115,975
#: partitions x 45 pairs (about 5 million cells, well under a second); Bell(11) = 678,570
#: x 55 would need about 300 MB. Above this k the Shaffer procedure is used instead.
BERGMANN_MAX_K = 10


def _check(p, k: int) -> np.ndarray:
    p = as_float_array(p, "pvalues", ndim=1)
    if p.size != k * (k - 1) // 2:
        raise InvalidInputError(f"{p.size} p-values for k = {k} models: all pairs are "
                                f"{k * (k - 1) // 2}.")
    if np.any((p < 0) | (p > 1)):
        raise InvalidInputError("pvalues must lie in [0, 1].")
    return p


@lru_cache(maxsize=None)
def _true_counts(k: int) -> frozenset:
    """S(k): the possible numbers of true hypotheses among the pairs of k models (Shaffer
    1986, eq. 2): S(k) = ∪_{j=1..k} {C(j, 2) + x : x ∈ S(k − j)}, S(0) = S(1) = {0}."""
    if k <= 1:
        return frozenset({0})
    return frozenset(j * (j - 1) // 2 + x for j in range(1, k + 1)
                     for x in _true_counts(k - j))


def shaffer_multipliers(k: int) -> np.ndarray:
    """t_1 ... t_m of Shaffer's static procedure: t_j = max{s ∈ S(k) : s <= m − j + 1}."""
    m = k * (k - 1) // 2
    s = np.array(sorted(_true_counts(k)))
    bound = m - np.arange(m)          # m - j + 1 for j = 1..m
    return s[np.searchsorted(s, bound, side="right") - 1]


def shaffer_adjust(pvalues, k: int) -> np.ndarray:
    """Shaffer's static adjusted p-values, APV_(j) = min(1, max_{l<=j} t_l p_(l)).

    Parameters
    ----------
    pvalues : array_like, shape (k(k − 1)/2,)
        Unadjusted p-values of all pairs of k models, in any order.
    k : int
        Number of models.

    Returns
    -------
    ndarray
        Adjusted p-values in the input order; never larger than Holm's.
    """
    p = _check(pvalues, k)
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(np.maximum.accumulate(shaffer_multipliers(k) * p[order]), 1.0)
    out = np.empty_like(p)
    out[order] = stepped
    return out


@lru_cache(maxsize=4)
def _partition_pairs(k: int) -> np.ndarray:
    """Boolean (Bell(k) − 1, k(k − 1)/2): row = an exhaustive set, the pairs (i < j, in
    ``np.triu_indices`` order) inside the groups of one partition of the k models."""
    labels = np.zeros((1, 1), dtype=np.int8)   # restricted growth strings, one per partition
    for n in range(1, k):                      # loop over models (k <= 10), not partitions
        top = labels.max(axis=1) + 1
        reps = top + 1
        grown = np.repeat(labels, reps, axis=0)
        new = np.concatenate([np.arange(r) for r in reps]).astype(np.int8)
        labels = np.column_stack([grown, new])
    rows, cols = np.triu_indices(k, 1)
    inside = labels[:, rows] == labels[:, cols]
    return inside[inside.any(axis=1)]          # all singletons: no true hypothesis


def bergmann_hommel_adjust(pvalues, k: int) -> np.ndarray:
    """Bergmann–Hommel adjusted p-values over the exhaustive sets of hypotheses.

    Parameters
    ----------
    pvalues : array_like, shape (k(k − 1)/2,)
        Unadjusted p-values of all pairs, in ``np.triu_indices(k, 1)`` order (row model
        i < column model j): the order defines which pairs share a model.
    k : int
        Number of models, 2 <= k <= ``BERGMANN_MAX_K``.

    Returns
    -------
    ndarray
        APV_i = min(1, max{|I| min_{j ∈ I} p_j : I exhaustive, i ∈ I}), García & Herrera's
        (2008) §3 formula; never larger than Shaffer's. H_i is rejected at α exactly when
        APV_i <= α, which is Bergmann & Hommel's rule as García & Herrera state it (§2.1):
        reject H_i unless i is in the acceptance set A = ∪{I exhaustive : min_{j ∈ I} p_j >
        α/|I|}. These APVs need not increase with the raw p-values, and must not be forced
        to: R's scmamp (``adjustBergmannHommel``) takes their cumulative maximum in the
        order of the raw p-values, which is not in the paper's definition and breaks the
        equivalence with the rule. On García & Herrera's example (§2.2) k-NN vs NaiveBayes
        (raw p = 0.0101) has APV 0.0303 here and 0.0319 in scmamp: at any α in
        [0.0303, 0.0319) every exhaustive set holding that pair has |I| min p <= α, so the
        rule rejects it, and scmamp's value would not. The step-down Holm and Shaffer APVs
        do take the cumulative maximum, because their rules are sequential in the raw
        order; Bergmann–Hommel's is not (tests/stats/test_logical.py checks the rule for
        a grid of α, the paper's "rejects the hypotheses [1–8]" at α = 0.05, the same
        decision from the p-values printed in its Table 3 (as the C++ implementation
        hyp-test), and scmamp's numbers once the cumulative maximum is taken).

    Raises
    ------
    InvalidInputError
        k above ``BERGMANN_MAX_K`` (use :func:`shaffer_adjust`), wrong number of p-values.
    """
    if k > BERGMANN_MAX_K:
        raise InvalidInputError(
            f"Bergmann–Hommel enumerates the partitions of the models: k = {k} is above the "
            f"{BERGMANN_MAX_K} handled; use Shaffer's procedure.")
    p = _check(pvalues, k)
    sets = _partition_pairs(k)
    value = sets.sum(axis=1) * np.where(sets, p, np.inf).min(axis=1)
    return np.minimum(np.where(sets, value[:, None], 0.0).max(axis=0), 1.0)


def li_adjust(pvalues) -> np.ndarray:
    """Li's two-step adjusted p-values against a control, APV_i = p_i / (p_i + 1 − p_max)
    for all but the largest p-value, which is its own APV (Li 2008; García et al. 2010)."""
    p = as_float_array(pvalues, "pvalues", ndim=1)
    if np.any((p < 0) | (p > 1)):
        raise InvalidInputError("pvalues must lie in [0, 1].")
    if p.size == 0:
        return p.copy()
    last = int(np.argmax(p))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(p > 0, p / (p + 1 - p[last]), 0.0)
    out[last] = p[last]
    return np.minimum(out, 1.0)


def rom_adjust(pvalues, alpha: float = 0.05) -> np.ndarray:
    """Rom's step-up adjusted p-values against a control, at level ``alpha``.

    Rom's critical values for the j-th largest of m p-values: α_m = α, α_{m−1} = α/2, and
    α_{m−i+1} = [Σ_{j=1}^{i−1} α^j − Σ_{j=1}^{i−2} C(i, j) α_{m−j}^{i−j}] / i (Rom 1990,
    eq. 2; García et al. 2010 §4). Each sorted p-value is multiplied by α / α_j, made
    non-decreasing (cumulative maximum) and then step-up (minimum over the larger ones),
    as R's scmamp ``adjustRom``; so H_i is rejected exactly when its value is <= ``alpha``.
    The values depend on ``alpha``: they are not adjusted p-values for any other level.

    Raises
    ------
    InvalidInputError
        p-values outside [0, 1], ``alpha`` outside (0, 1).
    """
    alpha = check_probability(alpha, "alpha")
    p = as_float_array(pvalues, "pvalues", ndim=1)
    if np.any((p < 0) | (p > 1)):
        raise InvalidInputError("pvalues must lie in [0, 1].")
    m = p.size
    if m == 0:
        return p.copy()
    crit = np.empty(m)                     # crit[j - 1] = α_j, j = 1..m
    crit[m - 1] = alpha
    if m > 1:
        crit[m - 2] = alpha / 2
    for i in range(3, m + 1):              # a recursion over the number of hypotheses
        first = sum(alpha ** j for j in range(1, i))
        second = sum(comb(i, j) * crit[m - 1 - j] ** (i - j) for j in range(1, i - 1))
        crit[m - i] = (first - second) / i
    order = np.argsort(p, kind="stable")
    stepped = np.maximum.accumulate(np.minimum(alpha / crit * p[order], 1.0))
    stepped = np.minimum.accumulate(stepped[::-1])[::-1]
    out = np.empty(m)
    out[order] = stepped
    return out
