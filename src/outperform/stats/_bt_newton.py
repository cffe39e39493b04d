"""Batched Newton fits of Bradley–Terry resamples with the dense information matrix.

Each bootstrap resample is a Bradley–Terry (Davidson) problem on the same pairs with other
outcome totals; its log-likelihood is concave (:mod:`._bt_likelihood`), so Newton's method
started at the full-data estimate converges quadratically, in a few steps. A batch of B
resamples is fitted at once: the B information matrices (B, P, P) are assembled by one
sparse product from the pair terms, and the B Newton steps are one batched
``numpy.linalg.solve``. A step that lowers a resample's log-likelihood is halved (the
damped Newton method of Boyd & Vandenberghe 2004, §9.5), so every step climbs.

Each pair's information term is X' n (diag p - p p') X (X the local design of
``PairTotals.local``, rows outcomes, columns local coordinates), whose entry (a, c) is
n sum_k p_k X_ka (X_kc - u_c) with u_c = sum_l p_l X_lc: a few array operations per entry
of the upper triangle (3 entries without ties, 6 with), no K x K temporaries per pair.

Used by :mod:`._bt_bootstrap` when the parameters are few enough for dense B x P x P
matrices (:data:`MAX_DENSE`).
"""
from __future__ import annotations

import numpy as np
from scipy import sparse

from ._bt_likelihood import PairTotals

#: most parameters (models + tie parameter) fitted by dense batched Newton; beyond it the
#: bootstrap keeps the matrix-free Newton-CG of :mod:`._bt_bootstrap`
MAX_DENSE = 1000
#: relative score at which a resample counts as fitted: max |score| <= GTOL x its battles
GTOL = 1e-11
MAX_ITER = 50
MAX_HALVINGS = 40


def _upper(n_loc: int) -> list[tuple[int, int]]:
    """Local entries (a, c) with a <= c: the information term is symmetric."""
    return [(a, c) for a in range(n_loc) for c in range(a, n_loc)]


def _assembly(pt: PairTotals) -> sparse.csr_matrix:
    """Sparse map of the upper local information entries (entry-major: entry e of pair p at
    e * n_pairs + p) to the full P x P matrix, both triangles, shape (P * P, n_pairs * E);
    cached on ``pt``."""
    cached = getattr(pt, "_dense_assembly", None)
    if cached is not None:
        return cached
    p, n_pairs = pt.n_params, pt.slots.shape[0]
    rows, cols = [], []
    for e, (a, c) in enumerate(_upper(pt.slots.shape[1])):
        src = e * n_pairs + np.arange(n_pairs)
        rows.append(pt.slots[:, a] * p + pt.slots[:, c])
        cols.append(src)
        if a != c:
            rows.append(pt.slots[:, c] * p + pt.slots[:, a])
            cols.append(src)
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    s = sparse.csr_matrix((np.ones(rows.size), (rows, cols)),
                          shape=(p * p, n_pairs * len(_upper(pt.slots.shape[1]))))
    s.sum_duplicates()
    pt._dense_assembly = s
    return s


def batch_information(pt: PairTotals, prob: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Information matrices (B, P, P) at outcome probabilities ``prob`` (K, B, n_pairs) with
    battles per pair ``n`` (B, n_pairs)."""
    x = pt.local
    n_out, n_loc = x.shape
    batch, n_pairs = n.shape
    u = [sum(prob[k] * x[k, c] for k in range(n_out) if x[k, c]) for c in range(n_loc)]
    upper = _upper(n_loc)
    local = np.empty((len(upper), n_pairs, batch))     # entry-major, resamples last
    for e, (a, c) in enumerate(upper):
        entry = sum(prob[k] * x[k, a] * (x[k, c] - u[c]) for k in range(n_out) if x[k, a])
        local[e] = (entry * n).T
    flat = local.reshape(-1, batch)
    return np.asarray(_assembly(pt) @ flat).T.reshape(batch, pt.n_params, pt.n_params)


def _evaluate(pt: PairTotals, theta: np.ndarray, totals_k: np.ndarray):
    """Log-likelihoods (B,) and outcome probabilities (K, B, n_pairs) at ``theta`` (B, P),
    from one exponential of the linear predictors."""
    eta = np.stack(pt._eta_columns(theta))
    eta -= eta.max(axis=0)
    prob = np.exp(eta)
    total = prob.sum(axis=0)
    prob /= total
    eta -= np.log(total)
    return np.einsum("kbp,kbp->b", totals_k, eta), prob


def newton_batch(pt: PairTotals, totals: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Maximum likelihood of each resample: full parameters (B, P) with the reference
    coordinate 0, NaN rows where Newton did not reach the score tolerance.

    Parameters
    ----------
    pt : PairTotals
        The full data's pairs (their totals are not used).
    totals : ndarray, shape (B, n_pairs, K)
        Outcome totals of each resample; every resample identifiable (Ford 1957).
    theta : ndarray, shape (P,)
        Start: the full-data estimate.

    Raises
    ------
    numpy.linalg.LinAlgError
        A singular information matrix (a resample whose pairs do not connect the models).
    """
    batch = totals.shape[0]
    free = np.arange(1, pt.n_params)
    totals_k = np.ascontiguousarray(np.moveaxis(totals, -1, 0))       # (K, B, n_pairs)
    n = totals_k.sum(axis=0)
    tol = GTOL * n.sum(axis=1)
    out = np.tile(theta, (batch, 1))
    ll, prob = _evaluate(pt, out, totals_k)
    active = np.arange(batch)
    for _ in range(MAX_ITER):
        tk = totals_k[:, active]
        score = pt._scatter_local(tk - n[active] * prob)[:, free]
        done = np.max(np.abs(score), axis=1) <= tol[active]
        active, tk, prob, score = active[~done], tk[:, ~done], prob[:, ~done], score[~done]
        if active.size == 0:
            break
        info = batch_information(pt, prob, n[active])[:, free[:, None], free]
        step = np.linalg.solve(info, score[:, :, None])[:, :, 0]
        th, shrink = out[active], np.ones(active.size)
        for _ in range(MAX_HALVINGS):      # damped steps: halve where the climb fails
            trial = th.copy()
            trial[:, free] += shrink[:, None] * step
            new, prob = _evaluate(pt, trial, tk)
            worse = ~(new >= ll[active] - 1e-12 * np.abs(ll[active]))
            if not worse.any():
                break
            shrink[worse] *= 0.5
        out[active], ll[active] = trial, new
    if active.size:
        out[active] = np.nan
    return out
