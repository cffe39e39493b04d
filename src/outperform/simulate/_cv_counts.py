"""Simulated cross-validation of Corani & Benavoli (2015, §4.1), from cell counts.

Data (§4.1): a binary class C with P(c0) = 1/2 and a binary feature F with P(f0 | c0) =
theta, P(f0 | c1) = 1 - theta, theta = 0.5 + delta_acc. Two classifiers are assessed by m
runs of 10-fold cross-validation on each of q = 50 data sets whose sizes are drawn uniformly
from {25, 50, 100, 250, 500, 1000}: zeroR (the training fold's majority class, a coin flip
on ties), whose expected accuracy is 1/2, and the Bayesian network C -> F learned on the
training fold, whose accuracy is about theta. Their true difference of accuracy is thus about
delta_acc, fixed on all data sets (§4.2) or drawn for each data set from a Cauchy with median
and scale delta_bar, capped to [-0.5, 0.5] (§4.3).

Simulated from counts: a data set is its four cell counts (c, f), a multinomial draw; a fold
partition draws the test fold's counts from what is left (a multivariate hypergeometric, as
a chain of univariate ones; with stratified folds, the default, separately within each class
so that every fold holds the class counts scikit-learn's ``StratifiedKFold`` gives it), and
both classifiers are fitted from the training counts alone
(the learned network with maximum-likelihood parameters predicts, for each value of F, the
class with the larger joint count, a coin flip on ties). No example is materialised and every
step is vectorised over repetitions, data sets and runs.
"""
from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._validation import InvalidInputError, check_choice, check_random_state
from ._common import check_int, check_int_grid

__all__ = ["DATA_SET_SIZES", "CVSimulation", "simulate_cv"]

#: Data-set sizes of Corani & Benavoli (2015), §4.2.
DATA_SET_SIZES = (25, 50, 100, 250, 500, 1000)
DISTRIBUTIONS = ("fixed", "cauchy")


@dataclasses.dataclass(frozen=True)
class CVSimulation:
    """Fold accuracies of the learned network and of zeroR in simulated experiments.

    Attributes
    ----------
    accuracy_bn, accuracy_zeror : ndarray, shape (R, q, n_runs, n_folds)
        Test-fold accuracy of each classifier (same folds for both).
    sizes : ndarray of int, shape (R, q)
        Number of examples of each data set.
    delta_acc : ndarray, shape (R, q)
        The delta_acc (theta - 1/2) each data set was generated with.
    """

    accuracy_bn: np.ndarray
    accuracy_zeror: np.ndarray
    sizes: np.ndarray
    delta_acc: np.ndarray

    @property
    def differences(self) -> np.ndarray:
        """Fold differences BN - zeroR, shape (R, q, n_runs * n_folds), run by run."""
        d = self.accuracy_bn - self.accuracy_zeror
        return d.reshape(d.shape[0], d.shape[1], -1)


def _multinomial(rng, n, probs):
    """Multinomial counts (..., K) as a chain of binomials (probs broadcast to n.shape + (K,))."""
    out = np.empty(probs.shape, dtype=np.int64)
    left, mass = n.copy(), np.ones(n.shape)
    for c in range(probs.shape[-1] - 1):
        share = np.clip(np.divide(probs[..., c], mass, out=np.zeros(n.shape), where=mass > 0),
                        0.0, 1.0)
        out[..., c] = rng.binomial(left, share)
        left = left - out[..., c]
        mass = mass - probs[..., c]
    out[..., -1] = left
    return out


def _hypergeometric(rng, colours, draws):
    """Multivariate hypergeometric draw (..., K) from the urns ``colours`` (..., K)."""
    out = np.empty(colours.shape, dtype=np.int64)
    rest = colours.sum(axis=-1)
    for c in range(colours.shape[-1] - 1):
        rest = rest - colours[..., c]
        out[..., c] = rng.hypergeometric(colours[..., c], rest, draws)
        draws = draws - out[..., c]
    out[..., -1] = draws
    return out


def _coin_choice(rng, left, right):
    """True where ``left > right``, a fair coin where they are equal."""
    return np.where(left == right, rng.random(left.shape) < 0.5, left > right)


def simulate_cv(delta_acc, *, n_data_sets: int = 50, n_runs: int = 10, n_folds: int = 10,
                n_repetitions: int = 1, sizes=DATA_SET_SIZES, distribution: str = "fixed",
                stratified: bool = True, random_state=0) -> CVSimulation:
    """Simulate m runs of k-fold CV of zeroR and the learned C -> F network (Corani §4.1).

    Parameters
    ----------
    delta_acc : float
        theta - 1/2 of every data set (``distribution="fixed"``, §4.2), or the median and
        scale of the Cauchy each data set draws it from (``"cauchy"``, §4.3; capped to
        [-0.5, 0.5]; a scale of 0 gives delta_acc on every data set).
    n_data_sets : int
        q.
    n_runs, n_folds : int
        m runs of k-fold cross-validation (a new random partition per run).
    n_repetitions : int
        R independent experiments.
    sizes : int or sequence of int
        Data-set sizes, drawn uniformly for each data set (each >= n_folds).
    distribution : {"fixed", "cauchy"}
    stratified : bool
        Stratified folds (each fold holds the data set's class proportions, as WEKA's and
        scikit-learn's classifier cross-validation) instead of plain random partitions. The
        paper does not say which it used.
    random_state : None, int, SeedSequence or Generator

    Returns
    -------
    CVSimulation

    Raises
    ------
    InvalidInputError
        |delta_acc| > 0.5 with "fixed", a negative Cauchy scale, sizes below n_folds,
        non-positive counts.

    Examples
    --------
    >>> sim = simulate_cv(0.1, n_data_sets=3, n_runs=2, random_state=0)
    >>> sim.accuracy_bn.shape, sim.differences.shape
    ((1, 3, 2, 10), (1, 3, 20))
    >>> bool(np.all((sim.accuracy_bn >= 0) & (sim.accuracy_bn <= 1)))
    True
    """
    check_choice(distribution, "distribution", DISTRIBUTIONS)
    q = check_int(n_data_sets, "n_data_sets")
    m = check_int(n_runs, "n_runs")
    k = check_int(n_folds, "n_folds", minimum=2)
    r = check_int(n_repetitions, "n_repetitions")
    size_grid = np.asarray(check_int_grid(sizes, "sizes", minimum=k))
    delta = float(delta_acc)
    if not math.isfinite(delta) or (distribution == "fixed" and abs(delta) > 0.5):
        raise InvalidInputError(
            f"delta_acc must be a number in [-0.5, 0.5] (theta = 0.5 + delta_acc is a "
            f"probability), got {delta_acc!r}."
        )
    if distribution == "cauchy" and delta < 0:
        raise InvalidInputError(
            f"with distribution='cauchy', delta_acc is the median and the scale of the Cauchy "
            f"and must be >= 0, got {delta}."
        )
    rng = check_random_state(random_state)

    n = rng.choice(size_grid, size=(r, q))
    if distribution == "cauchy":
        deltas = np.clip(delta + delta * rng.standard_cauchy((r, q)), -0.5, 0.5)
    else:
        deltas = np.full((r, q), delta)
    theta = 0.5 + deltas
    # Cells (c0 f0, c0 f1, c1 f0, c1 f1).
    probs = 0.5 * np.stack([theta, 1 - theta, 1 - theta, theta], axis=-1)
    totals = _multinomial(rng, n, probs)

    left = np.broadcast_to(totals[:, :, None, :], (r, q, m, 4)).copy()
    n_c0 = totals[..., 0] + totals[..., 1]
    acc_bn = np.empty((r, q, m, k))
    acc_zero = np.empty((r, q, m, k))
    for f in range(k):
        fold_size = np.broadcast_to((n // k + (f < n % k))[:, :, None], (r, q, m))
        if f == k - 1:
            test = left
        elif stratified:
            # scikit-learn's StratifiedKFold allocation: examples sorted by class and dealt
            # to the folds in turn, so fold f holds this many examples of class c0.
            fold_c0 = np.broadcast_to((n_c0 // k + (f < n_c0 % k))[:, :, None], (r, q, m))
            test = np.concatenate([_hypergeometric(rng, left[..., :2], fold_c0),
                                   _hypergeometric(rng, left[..., 2:], fold_size - fold_c0)],
                                  axis=-1)
        else:
            test = _hypergeometric(rng, left, fold_size)
        left = left - test
        train = totals[:, :, None, :] - test
        # zeroR: the majority class of the training fold.
        says_c0 = _coin_choice(rng, train[..., 0] + train[..., 1], train[..., 2] + train[..., 3])
        right_zero = np.where(says_c0, test[..., 0] + test[..., 1], test[..., 2] + test[..., 3])
        # Learned network: argmax_c n(c, f) for each value f of the feature.
        c0_if_f0 = _coin_choice(rng, train[..., 0], train[..., 2])
        c0_if_f1 = _coin_choice(rng, train[..., 1], train[..., 3])
        right_bn = (np.where(c0_if_f0, test[..., 0], test[..., 2])
                    + np.where(c0_if_f1, test[..., 1], test[..., 3]))
        acc_bn[..., f] = right_bn / fold_size
        acc_zero[..., f] = right_zero / fold_size
    return CVSimulation(accuracy_bn=acc_bn, accuracy_zeror=acc_zero, sizes=n, delta_acc=deltas)
