"""Bootstrap of Bradley–Terry abilities: battles resampled, a batch of resamples fitted at once.

Resampling the n battles with replacement is a multinomial draw of n over the distinct
battle types (:func:`._bt_likelihood.battle_types`), so a batch of B resamples is one
``Generator.multinomial`` call and its outcome totals one sparse product (weights x
contributions), with no loop over battles or resamples.

The B maximum likelihood problems are independent. Up to :data:`._bt_newton.MAX_DENSE`
parameters they are fitted by batched damped Newton steps with the dense information
matrices (:func:`._bt_newton.newton_batch`, a few steps from the full-data estimate);
beyond it, maximising the sum of their log-likelihoods over the stacked parameters (B x P)
solves each one; that sum is maximised by ``scipy.optimize.minimize(method="Newton-CG")``
with the batched gradient and Hessian-vector product (the Hessian is block diagonal),
started at the full-data estimate and preconditioned by the full data's inverse
information (a change of variables).

A resample in which some group of models never loses to the others has no finite estimate
(Ford 1957); such resamples are found by one strongly-connected-components call on the
block-diagonal graph of the whole batch, left out, and counted.
"""
from __future__ import annotations

import numpy as np
from scipy import optimize, sparse
from scipy.sparse.csgraph import connected_components

from .._parallel import progress_bar
from .._cost import check_cost
from .._validation import InvalidInputError, check_random_state
from ._bt_likelihood import PairTotals
from ._bt_newton import MAX_DENSE, newton_batch

#: largest batch x pairs x outcomes array of one batch of resamples (2.5e6 floats, 20 MB);
#: larger batches were slower on 200 models (the stacked Newton-CG takes more steps)
MAX_CELLS = 2_500_000
#: the same bound for dense Newton: a batch's information matrices (B x P x P) and local
#: information terms (B x pairs x 9) together (8e6 floats, 64 MB)
MAX_DENSE_CELLS = 8_000_000


def _identifiable(pt: PairTotals, totals: np.ndarray) -> np.ndarray:
    """Whether each resample's "beat or tied" graph is strongly connected, shape (B,).

    ``pt`` is data whose estimate exists (:func:`._bradley_terry._check_identifiable`), so
    its pairs connect the models: a batch in which every pair has a win or tie each way in
    every resample is all True without the graph (the usual case on large data).
    """
    n_batch, m = totals.shape[0], pt.n_models
    i, j = pt.pairs[:, 0], pt.pairs[:, 1]
    tie = totals[:, :, 2] if totals.shape[2] == 3 else 0.0
    fwd, back = (totals[:, :, 0] + tie) > 0, (totals[:, :, 1] + tie) > 0
    if fwd.all() and back.all():
        return np.ones(n_batch, dtype=bool)
    offset = (np.arange(n_batch) * m)[:, None]
    src = np.concatenate([(offset + i)[fwd], (offset + j)[back]])
    dst = np.concatenate([(offset + j)[fwd], (offset + i)[back]])
    graph = sparse.csr_matrix((np.ones(src.size), (src, dst)), shape=(n_batch * m,) * 2)
    _, label = connected_components(graph, directed=True, connection="strong")
    label = label.reshape(n_batch, m)
    return np.all(label == label[:, :1], axis=1)


def _fit_batch(pt: PairTotals, totals: np.ndarray, theta: np.ndarray,
               whiten: np.ndarray) -> np.ndarray:
    """Maximum likelihood of each resample, started at ``theta``: full parameters (B, P),
    NaN rows where the fit did not converge (score above 1e-6 per battle).

    ``whiten`` is C with C C' = I^-1, the inverse information of the full data (free
    coordinates): the fit runs in y with lambda = theta + C y, where each resample's Hessian
    is close to the identity, so Newton-CG's conjugate gradients need a few steps only (a
    preconditioner by change of variables).
    """
    n_batch = totals.shape[0]
    free = np.arange(1, pt.n_params)
    totals_k = np.ascontiguousarray(np.moveaxis(totals, -1, 0))      # (K, B, n_pairs)
    n = totals_k.sum(axis=0)

    def full(y, shift=True):
        out = np.zeros((n_batch, pt.n_params))
        out[:, free] = y.reshape(n_batch, -1) @ whiten.T + (theta[free] if shift else 0.0)
        return out

    last = {}

    def hessp(y, v):
        # the conjugate-gradient steps of one Newton step share y: keep its probabilities
        if "y" not in last or not np.array_equal(last["y"], y):
            last["y"], last["p"] = y.copy(), pt.batch_probabilities(full(y))
        hv = pt.batch_information_product(last["p"], full(v, shift=False), n)[:, free]
        return (hv @ whiten).ravel()

    res = optimize.minimize(
        lambda y: -np.sum(pt.batch_log_likelihood(full(y), totals_k)),
        np.zeros(n_batch * free.size),
        jac=lambda y: -(pt.batch_gradient(full(y), totals_k)[:, free] @ whiten).ravel(),
        hessp=hessp, method="Newton-CG", options={"xtol": 1e-12, "maxiter": 500})
    out = full(res.x)
    score = np.max(np.abs(pt.batch_gradient(out, totals_k)[:, free]), axis=1)
    out[score > 1e-6 * n.sum(axis=1)] = np.nan
    return out


def _fit(pt: PairTotals, totals: np.ndarray, theta: np.ndarray, whiten: dict,
         dense: bool) -> np.ndarray:
    """A batch's fits: dense batched Newton, or Newton-CG when the parameters are many or a
    resample's information matrix is singular (``whiten``: its preconditioner, computed on
    first use and kept in the dict)."""
    if dense:
        try:
            return newton_batch(pt, totals, theta)
        except np.linalg.LinAlgError:
            pass
    if "c" not in whiten:
        free = np.arange(1, pt.n_params)
        whiten["c"] = np.linalg.cholesky(
            np.linalg.inv(pt.information(theta)[np.ix_(free, free)]))
    return _fit_batch(pt, totals, theta, whiten["c"])


def bootstrap_abilities(pt: PairTotals, contrib, counts: np.ndarray, theta: np.ndarray,
                        n_resamples: int, batch_size: int, random_state,
                        progress: bool) -> tuple[np.ndarray, int]:
    """Abilities lambda (reference 0) on each resample with a finite estimate, shape
    (n_ok, m) (n_ok may be 0), and the number of resamples left out (no finite estimate, or
    no convergence)."""
    if int(n_resamples) != n_resamples or n_resamples < 2:
        raise InvalidInputError(f"n_resamples must be an integer >= 2, got {n_resamples!r}.")
    if int(batch_size) != batch_size or batch_size < 1:
        raise InvalidInputError(f"batch_size must be a positive integer, got {batch_size!r}.")
    # measured: ~3.4 us per resample and pair x outcome cell (10 models, 2,000 battles,
    # Newton-CG); with dense Newton ~0.45 us (CPU; 250 models, 10 million battles, 62,000
    # cells), the rate given (the faster end); a resample's abilities are held three
    # times (fits, their concatenation, the ratings)
    check_cost("n_resamples (--n-resamples)", n_resamples,
               work=f"{pt.n_models} models and {pt.totals.shape[0]} pairs of models",
               bytes_per_unit=3 * 8 * pt.n_models, seconds_per_unit=4e-7 * pt.totals.size)
    rng = check_random_state(random_state)
    n_total = int(counts.sum())
    share = counts / n_total
    k = pt.totals.shape[1]
    # memory and speed: keep a batch's arrays of resamples x pairs x outcomes small
    dense = pt.n_params <= MAX_DENSE
    per_resample = (pt.n_params ** 2 + pt.slots.size * pt.slots.shape[1] if dense
                    else pt.totals.size)
    batch_size = int(min(batch_size, max(1, (MAX_DENSE_CELLS if dense else MAX_CELLS)
                                         // per_resample)))
    whiten = {}     # Newton-CG's preconditioner, when it runs
    out, failed = [], 0
    sizes = [min(batch_size, n_resamples - s) for s in range(0, n_resamples, batch_size)]
    with progress_bar(n_resamples, progress, "Bradley-Terry bootstrap") as advance:
        for size in sizes:     # batches bound the memory; each is one vectorised fit
            draws = rng.multinomial(n_total, share, size=size).astype(float)
            totals = np.asarray((contrib.T @ draws.T).T).reshape(size, -1, k)
            ok = _identifiable(pt, totals)
            failed += int(size - ok.sum())
            if ok.any():
                fits = _fit(pt, totals[ok], theta, whiten, dense)[:, :pt.n_models]
                finite = np.all(np.isfinite(fits), axis=1)
                failed += int(np.sum(~finite))
                out.append(fits[finite])
            advance(size)
    out = [o for o in out if o.size]
    return (np.concatenate(out) if out else np.empty((0, pt.n_models))), failed
