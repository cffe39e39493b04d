"""Almost stochastic order (del Barrio, Cuesta-Albertos & Matrán 2018; Dror, Shlomov &
Reichart 2019, "Deep Dominance", ACL).

For the scores of two algorithms over random seeds, F (A) and G (B), the violation ratio

    ε_W2(F, G) = ∫_{A_X} (F⁻¹(t) − G⁻¹(t))² dt / ∫_0^1 (F⁻¹(t) − G⁻¹(t))² dt,
    A_X = {t ∈ (0, 1): F⁻¹(t) < G⁻¹(t)}

is the share of the squared Wasserstein-2 distance where A's quantile function lies below
B's (Dror et al. 2019 eq. 4-5): 0 when A is stochastically larger (A's every quantile at
least B's), 1 when B is. ε_min, the upper confidence bound of ε_W2 at 1 − α (del Barrio et
al. 2018 Theorem 2.4; Dror et al. 2019 eq. 7), is

    ε_min = ε_W2(F_n, G_m) + sqrt((n + m) / (n m)) · σ̂ · Φ⁻¹(1 − α),

with σ̂ the bootstrap standard deviation of sqrt(n m / (n + m)) (ε*_W2 − ε_W2(F_n, G_m)),
each resample of the same sizes n and m as the data: the correction of Ulmer, Hardmeier &
Frellsen (2022, deep-significance), whose earlier versions (and Dror et al.'s code) drew a
fixed 1,000 scores per resample, which shrinks σ̂ for few seeds. "A is almost
stochastically larger than B" when ε_min < τ (τ = 0.5 in Dror et al.; 0.2 recommended by
Ulmer et al.).

Written from the papers; deep-significance (GPL-3) was read to check conventions: it
approximates the integrals by a Riemann sum with dt = 0.005 (and leaves out the first point
of the numerator's), where the empirical quantile functions are step functions whose
integrals are computed here exactly; and its Bonferroni step raises the confidence level to
c + (1 − c)/M, which is α (1 − 1/M), not α / M, for M comparisons: here it is α / M.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtri

from .._cost import check_cost
from .._validation import (InvalidInputError, TooFewError, as_float_array, check_alpha,
                           check_random_state)
from ..results._aso import AlmostStochasticOrder

__all__ = ["aso", "multi_aso", "violation_ratio", "violation_ratios",
           "aso_uncertainty_reduction", "aso_next_seed"]

#: The decision threshold on ε_min by default: Ulmer et al. (2022)'s recommendation.
TAU = 0.2


def _grid(n: int, m: int):
    """The steps of two empirical quantile functions of n and m points on (0, 1].

    Returns the widths of the intervals between consecutive breakpoints {i/n} ∪ {j/m} and,
    on each, the order statistic (0-based) that each quantile function takes there:
    F_n⁻¹(t) = x_(ceil(n t)) on (i/n, (i+1)/n] is index i. Exact integer arithmetic on the
    grid of multiples of 1/(n m)."""
    points = np.union1d(np.arange(n + 1) * m, np.arange(m + 1) * n)
    start = points[:-1]
    return np.diff(points) / (n * m), start // m, start // n


def violation_ratios(a_sorted, b_sorted) -> np.ndarray:
    """ε_W2 of the empirical distributions of rows of sorted samples (the row kernel).

    Parameters
    ----------
    a_sorted : ndarray, shape (..., n)
        Scores of A, sorted ascending along the last axis (higher is better).
    b_sorted : ndarray, shape (..., m)
        Scores of B, sorted likewise; leading shapes broadcast with ``a_sorted``'s.

    Returns
    -------
    ndarray, shape (...)
        The exact integral ratio of the step quantile functions; 0.5 where the two
        distributions are equal (ε undefined: neither dominates).
    """
    a = np.asarray(a_sorted, dtype=float)
    b = np.asarray(b_sorted, dtype=float)
    width, ia, ib = _grid(a.shape[-1], b.shape[-1])
    diff = b[..., ib] - a[..., ia]                      # G⁻¹ − F⁻¹ on each step
    sq = width * diff ** 2
    total = sq.sum(axis=-1)
    violated = np.where(diff > 0, sq, 0.0).sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = violated / total
    return np.where(total > 0, out, 0.5)


def violation_ratio(a, b) -> float:
    """ε_W2(F_n, G_m): the violation ratio of A's scores over B's (Dror et al. 2019 eq. 5).

    Parameters
    ----------
    a, b : array_like, shapes (n,), (m,)
        Scores of A and B over seeds (higher is better); n and m may differ.

    Returns
    -------
    float in [0, 1]
        0: A stochastically larger than B; 1: B than A; ε(A, B) = 1 − ε(B, A).

    Examples
    --------
    >>> violation_ratio([1.0, 2.0, 3.0], [0.0, 1.0, 2.0])
    0.0
    >>> round(violation_ratio([0.0, 3.0], [1.0, 2.0]), 6)   # crossing: (1² on half) / (1 + 1)
    0.5
    """
    x = _sample(a, "a", 1)
    y = _sample(b, "b", 1)
    return float(violation_ratios(np.sort(x), np.sort(y)))


def _sample(x, name: str, least: int) -> np.ndarray:
    arr = as_float_array(x, name, ndim=1)
    if arr.size < least:
        raise TooFewError(f"{name} has {arr.size} score(s); almost stochastic order needs at "
                          f"least {least} run(s) (seeds) per model.")
    return arr


def _bootstrap_sorted(x: np.ndarray, n_resamples: int, rng) -> np.ndarray:
    """(B, n) resamples of ``x`` of its own size, each sorted (the quantile functions)."""
    return np.sort(x[rng.integers(0, x.size, size=(n_resamples, x.size))], axis=1)


def _eps_min(eps, boot, n, m, alpha):
    const = np.sqrt(n * m / (n + m))
    sigma = const * np.std(boot - eps[..., None], axis=-1)
    return np.clip(eps + sigma / const * ndtri(1 - alpha), 0.0, 1.0), sigma


def _check_resamples(n_resamples) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) \
            or n_resamples < 2:
        raise InvalidInputError(f"n_resamples must be an int >= 2, got {n_resamples!r}.")
    return int(n_resamples)


def aso(a, b, *, alpha: float = 0.05, n_comparisons: int = 1, n_resamples: int = 1000,
        tau: float = TAU, names=("A", "B"), higher_is_better: bool = True,
        random_state=0) -> AlmostStochasticOrder:
    """Is A almost stochastically larger than B? ε_min of Dror et al. (2019).

    Parameters
    ----------
    a, b : array_like, shapes (n,), (m,)
        Scores of A and B over runs (seeds); not paired, n and m may differ (at least 2
        each: one run has no spread to bootstrap).
    alpha : float
        ε_min is the upper bound of the violation ratio at 1 − alpha/``n_comparisons``.
    n_comparisons : int
        Comparisons made (Bonferroni).
    n_resamples : int
        Bootstrap resamples for σ̂.
    tau : float
        A is declared almost stochastically larger when ε_min < tau.
    names : (str, str)
    higher_is_better : bool
        False for losses (they are negated: "larger" then means a smaller loss).
    random_state : int, Generator or None

    Returns
    -------
    AlmostStochasticOrder
        With two models: ``epsilon_min`` (= ``eps_min[0, 1]``, A over B), the violation
        ratio, σ̂, and the decision.

    Raises
    ------
    InvalidInputError
        NaN scores, alpha or tau outside (0, 1), n_comparisons < 1.
    TooFewError
        Fewer than 2 runs of a model.

    Examples
    --------
    The README example of deep-significance (N = 5 seeds, numpy's legacy seed 1234), for
    which it prints ε_min = 0.225:

    >>> rs = np.random.RandomState(1234)
    >>> a, b = rs.normal(0.9, 0.8, 5), rs.normal(0, 1, 5)
    >>> res = aso(a, b, n_resamples=1000)
    >>> float(res.violation_ratio[0, 1]), round(res.epsilon_min, 2)
    (0.0, 0.22)
    """
    return multi_aso({names[0]: a, names[1]: b}, alpha=alpha, n_resamples=n_resamples,
                     tau=tau, bonferroni=False, n_comparisons=n_comparisons,
                     higher_is_better=higher_is_better, random_state=random_state)


def multi_aso(scores, *, alpha: float = 0.05, bonferroni: bool = True,
              n_comparisons: int | None = None, n_resamples: int = 1000, tau: float = TAU,
              higher_is_better: bool = True, task: str | None = None,
              random_state=0) -> AlmostStochasticOrder:
    """ε_min of every ordered pair of k models (Dror et al. 2019 §5; Ulmer et al. 2022).

    Parameters
    ----------
    scores : dict of name -> array_like, or sequence of array_like
        Each model's scores over runs (seeds), at least 2 each; sizes may differ.
    alpha : float
    bonferroni : bool
        Divide alpha by the k (k − 1) / 2 pairs (each pair's two directions share one
        bound, ε(A, B) = 1 − ε(B, A)).
    n_comparisons : int, optional
        Divide alpha by this instead (e.g. pairs x tasks).
    n_resamples, tau, higher_is_better, random_state :
        As :func:`aso`. Each model is resampled once per bootstrap round, shared by its pairs.
    task : str, optional
        Label of the task the scores are from (reports).

    Returns
    -------
    AlmostStochasticOrder
        ``eps_min[i, j]``: ε_min of model i over model j (small: i almost stochastically
        larger); the diagonal is NaN.

    Raises
    ------
    InvalidInputError, TooFewError
        As :func:`aso`; fewer than 2 models.
    """
    alpha = check_alpha(alpha)
    tau = check_alpha(tau, "tau")
    n_resamples = _check_resamples(n_resamples)
    if isinstance(scores, dict):
        names = tuple(map(str, scores))
        values = list(scores.values())
    else:
        values = list(scores)
        names = tuple(f"model {j}" for j in range(len(values)))
    if len(values) < 2:
        raise TooFewError(f"almost stochastic order compares at least 2 models, got {len(values)}.")
    sign = 1.0 if higher_is_better else -1.0
    samples = [sign * _sample(v, f"scores of {n!r}", 2) for n, v in zip(names, values)]
    k = len(samples)
    pairs = k * (k - 1) // 2
    if n_comparisons is None:
        n_comparisons = pairs if bonferroni else 1
    if isinstance(n_comparisons, bool) or not isinstance(n_comparisons, (int, np.integer)) \
            or n_comparisons < 1:
        raise InvalidInputError(f"n_comparisons must be an int >= 1, got {n_comparisons!r}.")
    level = alpha / int(n_comparisons)
    sizes = np.array([s.size for s in samples])
    check_cost("n_resamples (--n-resamples)", n_resamples,
               work=f"{k} models, {int(sizes.max())} runs each at most",
               bytes_per_unit=8.0 * (sizes.sum() + 4 * pairs * (2 * sizes.max())),
               seconds_per_unit=2e-8 * (sizes.sum() + pairs * 2 * sizes.max()))
    rng = check_random_state(random_state)
    boots = [_bootstrap_sorted(s, n_resamples, rng) for s in samples]   # k draws, not pairs
    eps = np.full((k, k), np.nan)
    eps_min = np.full((k, k), np.nan)
    sigma = np.full((k, k), np.nan)
    i_all, j_all = np.triu_indices(k, 1)
    size_pairs = sizes[i_all] * 10_000 + sizes[j_all]
    for key in np.unique(size_pairs):      # one batched call per distinct (n, m)
        sel = size_pairs == key
        ii, jj = i_all[sel], j_all[sel]
        a_sorted = np.stack([np.sort(samples[i]) for i in ii])
        b_sorted = np.stack([np.sort(samples[j]) for j in jj])
        e = violation_ratios(a_sorted, b_sorted)
        boot = violation_ratios(np.stack([boots[i] for i in ii]),
                                np.stack([boots[j] for j in jj]))
        n, m = sizes[ii], sizes[jj]
        lo, sd = _eps_min(e, boot, n, m, level)
        hi, _ = _eps_min(1.0 - e, 1.0 - boot, n, m, level)
        eps[ii, jj], eps[jj, ii] = e, 1.0 - e
        eps_min[ii, jj], eps_min[jj, ii] = lo, hi
        sigma[ii, jj] = sigma[jj, ii] = sd
    return AlmostStochasticOrder(names=names, eps_min=eps_min, violation_ratio=eps,
                                 sigma=sigma, n_runs=sizes, alpha=alpha,
                                 n_comparisons=int(n_comparisons), tau=tau,
                                 n_resamples=n_resamples,
                                 higher_is_better=bool(higher_is_better), task=task)


def aso_uncertainty_reduction(m_old: int, n_old: int, m_new: int, n_new: int) -> float:
    """How much tighter ε_min's bound gets with m_new, n_new runs instead of m_old, n_old.

    The bootstrap term of ε_min scales as sqrt((m + n) / (m n)) (del Barrio et al. 2018,
    Theorem 2.4), so the ratio of the old to the new half-width is
    sqrt((m_old + n_old) m_new n_new / (m_old n_old (m_new + n_new))).

    Raises
    ------
    InvalidInputError
        A size that is not a whole number >= 1.

    Examples
    --------
    deep-significance's README: 5 and 3 runs, then 5 and 5, or 7 and 3.

    >>> aso_uncertainty_reduction(5, 3, 5, 5)
    1.1547005383792515
    >>> aso_uncertainty_reduction(5, 3, 7, 3)
    1.0583005244258363
    """
    for v, name in ((m_old, "m_old"), (n_old, "n_old"), (m_new, "m_new"), (n_new, "n_new")):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise InvalidInputError(f"{name} must be a whole number of runs >= 1, got {v!r}.")
    return math.sqrt((m_old + n_old) * m_new * n_new / (m_old * n_old * (m_new + n_new)))


def aso_next_seed(n_runs, names=None) -> str:
    """The model whose next run (seed) tightens the ε_min bounds most.

    One more run of model i multiplies the precision of each of its pairs' bounds by
    :func:`aso_uncertainty_reduction` (n_i, n_j, n_i + 1, n_j); the model with the largest
    product over its pairs (the first of ties) gets the next seed.

    Parameters
    ----------
    n_runs : sequence of int, or dict of name -> int
        Runs each model has.
    names : sequence of str, optional

    Examples
    --------
    >>> aso_next_seed({"A": 5, "B": 3})
    'B'
    >>> aso_next_seed([4, 4, 2], names=["x", "y", "z"])
    'z'
    """
    if isinstance(n_runs, dict):
        names, counts = tuple(map(str, n_runs)), list(n_runs.values())
    else:
        counts = list(n_runs)
        names = tuple(f"model {j}" for j in range(len(counts))) if names is None \
            else tuple(map(str, names))
    if len(counts) < 2 or len(names) != len(counts):
        raise InvalidInputError("aso_next_seed needs the run counts of at least 2 models "
                                "(and one name each).")
    for c in counts:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 1:
            raise InvalidInputError(f"run counts must be whole numbers >= 1, got {c!r}.")
    n = np.asarray(counts, dtype=float)
    ni, nj = n[:, None], n[None, :]
    gain = 0.5 * np.log((ni + nj) * (ni + 1) * nj / (ni * nj * (ni + 1 + nj)))
    np.fill_diagonal(gain, 0.0)
    return names[int(np.argmax(gain.sum(axis=1)))]
