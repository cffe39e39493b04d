"""Log-likelihood of Bradley–Terry with Davidson ties over per-pair outcome totals (numpy).

Battles are aggregated per unordered pair {i, j} into weighted totals of the K outcomes
(i wins, j wins[, tie]). With abilities lambda (log-strengths) and, for Davidson (1970),
log nu, each outcome's log-probability is a linear predictor minus a log-sum-exp:

    eta = (lambda_i, lambda_j, log nu + (lambda_i + lambda_j) / 2),   p = softmax(eta),

i.e. P(i wins) = pi_i / (pi_i + pi_j + nu sqrt(pi_i pi_j)) and P(tie) = nu sqrt(pi_i pi_j) /
(...) (Davidson 1970, eq. 2.2). Without ties (K = 2) this is Bradley–Terry. Each pair is a
multinomial logit with the local design ``LOCAL[K]`` (rows: outcomes; columns: lambda_i,
lambda_j, log nu), so the log-likelihood is concave in (lambda, log nu), the gradient is
X'(w - n p) and the negative Hessian X' n (diag p - p p') X, which does not depend on the
outcomes: observed and expected information coincide, as in a GLM with canonical link.

Parameters are stacked as the full vector (lambda_0, ..., lambda_{m-1}[, log nu]); the
caller removes the reference model's coordinate (its lambda is fixed at 0).
"""
from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.special import logsumexp, softmax

#: local design of one pair: rows = outcomes (i wins, j wins[, tie]); columns = (lambda_i,
#: lambda_j[, log nu])
LOCAL = {2: np.eye(2), 3: np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])}


class PairTotals:
    """Weighted outcome totals per pair and the index maps of the pair terms.

    Attributes
    ----------
    pairs : ndarray of int, shape (n_pairs, 2)
        Model indices (i, j), i < j.
    totals : ndarray, shape (n_pairs, K)
        Weighted counts of (i wins, j wins[, tie]).
    slots : ndarray of int, shape (n_pairs, K)
        Index of each local coordinate in the full parameter vector (m for log nu).
    n_params : int
        m (+1 with a tie parameter).
    """

    def __init__(self, pairs: np.ndarray, totals: np.ndarray, n_models: int,
                 half_ties: np.ndarray | None = None):
        self.pairs, self.totals, self.n_models = pairs, totals, n_models
        #: K = 2 with ties split into half a win each: the tie total of each pair (its
        #: battles' scores are those of the tie, not of two half wins; see score_outer)
        self.half_ties = half_ties
        k = totals.shape[1]
        self.local = LOCAL[k]
        self.n_params = n_models + (k == 3)
        cols = [pairs[:, 0], pairs[:, 1]] + ([np.full(len(pairs), n_models)] if k == 3 else [])
        self.slots = np.stack(cols, axis=1)
        # scatter: local coordinates (flattened, pair-major) -> full parameter vector
        flat = self.slots.ravel()
        self.scatter = sparse.csr_matrix((np.ones(flat.size), (np.arange(flat.size), flat)),
                                         shape=(flat.size, self.n_params))
        # the same per local coordinate c: pairs -> parameter slots[:, c] (batched paths)
        rows = np.arange(len(pairs))
        self.scatter_cols = [sparse.csr_matrix((np.ones(len(pairs)), (rows, self.slots[:, c])),
                                               shape=(len(pairs), self.n_params)).T.tocsr()
                             for c in range(k)]

    def probabilities(self, theta: np.ndarray) -> np.ndarray:
        """Outcome probabilities, shape (..., n_pairs, K), for full parameters (..., P)."""
        eta = theta[..., self.slots] @ self.local.T
        return softmax(eta, axis=-1)

    def log_likelihood(self, theta: np.ndarray, totals: np.ndarray | None = None) -> np.ndarray:
        """Log-likelihood at full parameters ``theta`` (..., P); ``totals`` (..., n_pairs, K)."""
        totals = self.totals if totals is None else totals
        eta = theta[..., self.slots] @ self.local.T
        return np.sum(totals * (eta - logsumexp(eta, axis=-1, keepdims=True)), axis=(-2, -1))

    def gradient(self, theta: np.ndarray, totals: np.ndarray | None = None) -> np.ndarray:
        """Gradient of the log-likelihood, shape (..., P)."""
        totals = self.totals if totals is None else totals
        p = self.probabilities(theta)
        resid = totals - totals.sum(axis=-1, keepdims=True) * p
        local = resid @ self.local                      # (..., n_pairs, K) in local coordinates
        flat = local.reshape(local.shape[:-2] + (-1,))
        return np.asarray((self.scatter.T @ flat.reshape(-1, flat.shape[-1]).T).T).reshape(
            theta.shape)

    def information(self, theta: np.ndarray) -> np.ndarray:
        """Negative Hessian (Fisher information) at one full parameter vector, shape (P, P)."""
        p = self.probabilities(theta)
        n = self.totals.sum(axis=1)
        v = n[:, None, None] * (np.einsum("pk,kl->pkl", p, np.eye(p.shape[1]))
                                - p[:, :, None] * p[:, None, :])
        local = np.einsum("ka,pkl,lb->pab", self.local, v, self.local)
        info = np.zeros((self.n_params, self.n_params))
        np.add.at(info, (self.slots[:, :, None], self.slots[:, None, :]), local)
        return info

    # Batched paths of the bootstrap, outcome-major: arrays (K, B, n_pairs), so that every
    # operation runs on contiguous (B, n_pairs) blocks (K <= 3 columns, not data).
    def _eta_columns(self, theta: np.ndarray) -> list[np.ndarray]:
        coords = [theta[:, self.slots[:, c]] for c in range(self.local.shape[1])]
        return [sum(self.local[k, c] * coords[c] for c in range(len(coords))
                    if self.local[k, c]) for k in range(self.local.shape[0])]

    def batch_probabilities(self, theta: np.ndarray) -> np.ndarray:
        """Outcome probabilities (K, B, n_pairs) at full parameters theta (B, P)."""
        eta = self._eta_columns(theta)
        top = np.maximum.reduce(eta)
        e = np.exp(np.stack(eta) - top)
        return e / e.sum(axis=0)

    def batch_log_likelihood(self, theta: np.ndarray, totals_k: np.ndarray) -> np.ndarray:
        """Log-likelihood (B,) for totals (K, B, n_pairs)."""
        eta = np.stack(self._eta_columns(theta))
        top = eta.max(axis=0)
        lse = top + np.log(np.exp(eta - top).sum(axis=0))
        return np.sum(totals_k * (eta - lse), axis=(0, 2))

    def _scatter_local(self, resid: np.ndarray) -> np.ndarray:
        """Per-outcome pair terms (K, B, n_pairs) -> parameter space (B, P) through X'."""
        out = 0.0
        for c, s in enumerate(self.scatter_cols):
            g = sum(self.local[k, c] * resid[k] for k in range(len(resid)) if self.local[k, c])
            out = out + (s @ g.T).T
        return np.asarray(out)

    def batch_gradient(self, theta: np.ndarray, totals_k: np.ndarray) -> np.ndarray:
        """Gradient (B, P) for totals (K, B, n_pairs)."""
        p = self.batch_probabilities(theta)
        return self._scatter_local(totals_k - totals_k.sum(axis=0) * p)

    def batch_information_product(self, p: np.ndarray, vector: np.ndarray,
                                  n: np.ndarray) -> np.ndarray:
        """Information times vector (B, P), at probabilities p (K, B, n_pairs) and battles
        per pair n (B, n_pairs)."""
        u = np.stack(self._eta_columns(vector))
        vu = n * p * (u - np.sum(p * u, axis=0))
        return self._scatter_local(vu)

    def score_outer(self, theta: np.ndarray) -> np.ndarray:
        """Meat of the sandwich: sum over battles of w s s', s the battle's score, (P, P).

        A battle's score depends only on its pair and outcome, so the sum runs over the
        (pair, outcome) cells weighted by their totals (the HC0 sandwich of battle-level
        data with frequency weights). A tie split into half a win for each side
        (``half_ties``) is one battle with log-likelihood (log p_i + log p_j) / 2 and score
        the mean of the two wins' scores, not two half battles: its (tie total) x s s' is
        taken out of the win cells and added with that score.
        """
        p = self.probabilities(theta)
        k = p.shape[1]
        meat = np.zeros((self.n_params, self.n_params))
        totals = self.totals
        scores = [(np.eye(k)[outcome] - p) @ self.local for outcome in range(k)]
        if self.half_ties is not None:
            totals = totals - 0.5 * self.half_ties[:, None]
            totals = np.column_stack([totals, self.half_ties])
            scores.append(0.5 * (scores[0] + scores[1]))
        for outcome, s in enumerate(scores):   # K <= 3 outcomes, not a loop over data
            outer = totals[:, outcome, None, None] * s[:, :, None] * s[:, None, :]
            np.add.at(meat, (self.slots[:, :, None], self.slots[:, None, :]), outer)
        return meat


#: most (pair, outcome) keys counted by one ``np.bincount`` (linear time) rather than sorted
MAX_BINCOUNT_KEYS = 50_000_000


def battle_types(model_a, model_b, outcome, weights, counts=None):
    """Distinct battles: (i, j, outcome in the i < j orientation, weight) and their counts.

    Battles of one type are exchangeable, so resampling n battles with replacement is a
    multinomial draw over the types with probabilities count / n.

    Parameters
    ----------
    model_a, model_b : ndarray of int, shape (n,)
        Model indices (0 .. m - 1) of each row.
    outcome : ndarray of int, shape (n,)
        0 = model_a won, 1 = model_b won, 2 = tie.
    weights : ndarray, shape (n,)
        Frequency weight of a battle.
    counts : ndarray of int, shape (n,), optional
        Battles each row stands for (rows already aggregated into counts, e.g. by
        :func:`outperform.data.battle_counts`); default 1. Rows with counts are the same
        types as the battles expanded, so the result is the same.

    Returns
    -------
    rows : ndarray, shape (n_types, 4)
        (i, j, oriented outcome, weight) with i < j; outcome 0 = i won, 1 = j won, 2 = tie;
        sorted by (i, j, outcome[, weight]).
    counts : ndarray of int, shape (n_types,)
    """
    lo, hi = np.minimum(model_a, model_b), np.maximum(model_a, model_b)
    oriented = np.where((outcome < 2) & (model_a > model_b), 1 - outcome, outcome)
    m = int(max(model_a.max(), model_b.max())) + 1
    key = (lo.astype(np.int64) * m + hi) * 3 + oriented
    if np.all(weights == weights[0]):
        # one weight (the usual case): the integer key alone; when the keys are few enough,
        # counted in linear time (np.bincount) instead of sorted; the same keys, in order
        if m * m * 3 <= MAX_BINCOUNT_KEYS:
            tally = np.bincount(key, weights=counts, minlength=m * m * 3)
            keys = np.flatnonzero(tally)
            n_of = tally[keys]
        elif counts is None:
            keys, n_of = np.unique(key, return_counts=True)
        else:
            keys, inverse = np.unique(key, return_inverse=True)
            n_of = np.bincount(inverse, weights=counts)
        weight = np.full(keys.size, float(weights[0]))
    else:
        both, inverse = np.unique(np.column_stack([key, weights]), axis=0,
                                  return_inverse=True)
        n_of = np.bincount(inverse.ravel(), weights=counts, minlength=len(both))
        keys, weight = both[:, 0].astype(np.int64), both[:, 1]
    pair, out = np.divmod(keys, 3)
    rows = np.column_stack([pair // m, pair % m, out, weight]).astype(float)
    return rows, np.rint(n_of).astype(np.int64)


def pair_totals(rows: np.ndarray, counts: np.ndarray, n_models: int, n_outcomes: int) -> tuple[PairTotals,
                                                                          sparse.csr_matrix]:
    """Cells (pair, outcome) of the battle types, and each type's contribution to them.

    Parameters
    ----------
    rows, counts : ndarray, shapes (n_types, 4) and (n_types,)
        From :func:`battle_types`.
    n_outcomes : {2, 3}
        3 keeps ties as an outcome (Davidson); 2 splits a tie into half a win for each side.

    Returns
    -------
    PairTotals
        The weighted outcome totals of the data.
    sparse matrix, shape (n_types, n_pairs * n_outcomes)
        Weight each type puts on each cell; ``counts @ C`` gives the totals.
    """
    i, j = rows[:, 0].astype(int), rows[:, 1].astype(int)
    outcome, weight = rows[:, 2].astype(int), rows[:, 3]
    keys, pair_of = np.unique(i * n_models + j, return_inverse=True)
    ty = np.arange(len(rows))
    if n_outcomes == 3:
        r, c, w = ty, pair_of * 3 + outcome, weight
    else:
        tie = outcome == 2
        r = np.concatenate([ty[~tie], ty[tie], ty[tie]])
        c = np.concatenate([pair_of[~tie] * 2 + outcome[~tie], pair_of[tie] * 2,
                            pair_of[tie] * 2 + 1])
        w = np.concatenate([weight[~tie], 0.5 * weight[tie], 0.5 * weight[tie]])
    contrib = sparse.csr_matrix((w, (r, c)), shape=(len(rows), keys.size * n_outcomes))
    pairs = np.stack([keys // n_models, keys % n_models], axis=1)
    totals = (contrib.T @ counts.astype(float)).reshape(-1, n_outcomes)
    half = None
    if n_outcomes == 2 and np.any(outcome == 2):
        tie = outcome == 2
        half = np.bincount(pair_of[tie], weight[tie] * counts[tie], minlength=keys.size)
    return PairTotals(pairs, totals, n_models, half), contrib
