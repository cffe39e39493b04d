"""Rasch (1PL) and 2PL item response models of a sparse model x item matrix of 0/1 scores.

The models are the test-takers: model i has ability theta_i, item j difficulty b_j (and in
the 2PL model discrimination a_j > 0), and

    P(x_ij = 1) = sigmoid(a_j (theta_i - b_j)),      a_j = 1 in the Rasch model

(Rasch 1960; Birnbaum 1968; Baker & Kim 2004, "Item Response Theory", ch. 7 on joint
maximum likelihood). Missing cells (NaN) drop out of the likelihood. The fit is joint
maximum likelihood with L-BFGS (scipy) on the analytic gradient:

- ``prior_sd=None`` (Rasch only): exact joint ML under the constraint mean(b) = 0; models or
  items whose every answered score is 0 or every one is 1 have no finite estimate and are
  refused by name.
- ``prior_sd=s`` (default 3): penalised JML, independent N(0, s^2) priors on theta and b
  (and on log a, sd 1, for the 2PL): the posterior mode, finite for every model and item
  (all right or all wrong included) and identified without a constraint.

The abilities' standard errors come from the Fisher information of all parameters jointly
(equal to the observed information in the Rasch model), the items' block eliminated by the
Schur complement, so they include the uncertainty of the item parameters; with
``prior_sd=None`` the constraint enters as the limit of a penalty on sum(b).
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy import optimize, special, stats
from threadpoolctl import threadpool_limits

from .._validation import (ConvergenceWarning, DegenerateDataError, InvalidInputError,
                           TooFewError)

__all__ = ["fit_irt"]

#: Standard deviation of the normal prior on log a_j (2PL).
LOG_A_SD = 1.0


def fit_irt(scores, *, model: str = "rasch", prior_sd: float | None = 3.0,
            alpha: float = 0.05, max_iter: int = 2000) -> dict:
    """Fit a Rasch or 2PL model to a model x item matrix of 0/1 scores (NaN: not answered).

    Parameters
    ----------
    scores : array_like, shape (m, n)
        Row i is model i, column j item j; 1 right, 0 wrong, NaN not answered.
    model : {"rasch", "2pl"}
    prior_sd : float or None
        Standard deviation of the normal priors on abilities and difficulties (penalised
        joint ML); None for exact joint ML with mean difficulty 0 (Rasch only).
    alpha : float
        Intervals of the abilities at level 1 - alpha (normal, theta +- z se).

    Returns
    -------
    dict
        ``ability``, ``se``, ``low``, ``high`` (shape (m,), logits, higher is better);
        ``difficulty`` (n,), ``discrimination`` (n,; ones for Rasch); ``loglik`` (the
        log-likelihood of the answered cells at the estimate); ``converged``; ``iterations``.

    Raises
    ------
    InvalidInputError
        Scores other than 0, 1 and NaN (graded scores are refused, not rounded), an unknown
        model, ``prior_sd=None`` with the 2PL model.
    TooFewError
        Fewer than 2 models or 2 items, or a model or item with no answered cell.
    DegenerateDataError
        ``prior_sd=None`` and a model or item with all answers right or all wrong (no finite
        maximum likelihood estimate).

    Examples
    --------
    >>> x = np.array([[1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 0, np.nan], [0, 1, 0, 0]])
    >>> fit = fit_irt(x)
    >>> np.round(fit["ability"], 2).tolist()
    [1.67, 0.09, -1.33, -1.36]
    """
    x = np.asarray(scores, dtype=float)
    if x.ndim != 2:
        raise InvalidInputError(f"scores must be a 2-D model x item matrix, got shape {x.shape}.")
    if model not in ("rasch", "2pl"):
        raise InvalidInputError(f"model must be 'rasch' or '2pl', got {model!r}.")
    answered = ~np.isnan(x)
    if not np.isin(x[answered], (0.0, 1.0)).all():
        bad = x[answered][~np.isin(x[answered], (0.0, 1.0))][0]
        raise InvalidInputError(
            f"the {model} model needs 0/1 scores (wrong/right); got {bad!r}: graded scores are "
            "refused, not rounded. Binarise them (e.g. score >= 0.5) or skip the item response "
            "model (irt='none', --irt none).")
    m, n = x.shape
    if m < 2 or n < 2:
        raise TooFewError(f"an item response model needs at least 2 models and 2 items, got "
                          f"{m} model(s) and {n} item(s).")
    for axis, what in ((1, "model"), (0, "item")):
        empty = ~answered.any(axis=axis)
        if empty.any():
            raise TooFewError(f"{what} {int(np.flatnonzero(empty)[0])} has no answered cell: "
                              f"leave it out.")
    if prior_sd is None:
        if model != "rasch":
            raise InvalidInputError("the 2PL model needs prior_sd (its scale is not identified "
                                    "by joint ML alone).")
        _refuse_extremes(x, answered)
    elif not prior_sd > 0:
        raise InvalidInputError(f"prior_sd must be positive or None, got {prior_sd!r}.")
    w = answered.astype(float)
    y = np.where(answered, x, 0.0)
    two = model == "2pl"
    start = np.concatenate([_start_theta(y, w), -_start_theta(y.T, w.T),
                            np.zeros(n if two else 0)])
    fun = _objective(y, w, prior_sd, two)
    # L-BFGS-B's small vector operations run ~6x slower with a multi-threaded BLAS on a
    # busy machine (measured: 1.3 s against 0.2 s for 40 x 400): one thread for the fit.
    with threadpool_limits(limits=1):
        res = optimize.minimize(fun, start, jac=True, method="L-BFGS-B",
                                options={"maxiter": max_iter, "gtol": 1e-9, "ftol": 1e-15})
    if not res.success:
        warnings.warn(f"the {model} fit did not converge in {res.nit} iterations "
                      f"({res.message}); its abilities are approximate.", ConvergenceWarning,
                      stacklevel=2)
    theta, b, a = _unpack(res.x, m, n, two)
    if prior_sd is None:           # the likelihood is invariant to a shift: mean(b) = 0
        shift = b.mean()
        theta, b = theta - shift, b - shift
    se = np.sqrt(np.diag(_ability_covariance(theta, b, a, w, prior_sd, two)))
    z = stats.norm.ppf(1 - alpha / 2)
    p = special.expit(a * (theta[:, None] - b))
    loglik = float(np.sum(w * (y * np.log(p) + (1 - y) * np.log1p(-p))))
    return {"ability": theta, "se": se, "low": theta - z * se, "high": theta + z * se,
            "difficulty": b, "discrimination": a, "loglik": loglik,
            "converged": bool(res.success), "iterations": int(res.nit)}


def _refuse_extremes(x, answered) -> None:
    for axis, what in ((1, "model"), (0, "item")):
        right = np.nansum(x, axis=axis)
        count = answered.sum(axis=axis)
        extreme = (right == 0) | (right == count)
        if extreme.any():
            k = int(np.flatnonzero(extreme)[0])
            raise DegenerateDataError(
                f"{what} {k} has every answer {'right' if right[k] else 'wrong'}: its joint "
                "maximum likelihood estimate is infinite; give prior_sd (penalised joint ML) "
                f"or leave {int(extreme.sum())} such {what}(s) out.")


def _start_theta(y, w):
    """Logit of the smoothed proportion right per row (a starting value)."""
    return special.logit((y.sum(axis=1) + 0.5) / (w.sum(axis=1) + 1.0))


def _unpack(v, m, n, two):
    theta, b = v[:m], v[m:m + n]
    a = np.exp(v[m + n:]) if two else np.ones(n)
    return theta, b, a


def _objective(y, w, prior_sd, two):
    """Negative log-posterior and its gradient, on the answered cells only (index form:
    the work grows with the answered cells, not with models x items)."""
    m, n = y.shape
    rows, cols = np.nonzero(w)
    obs = y[rows, cols]
    prec = 0.0 if prior_sd is None else 1.0 / prior_sd ** 2

    def fun(v):
        theta, b, a = _unpack(v, m, n, two)
        diff = theta[rows] - b[cols]
        a_c = a[cols] if two else 1.0
        eta = a_c * diff
        # -log-likelihood of a Bernoulli in logit form: log(1 + e^eta) - y eta
        nll = np.sum(np.logaddexp(0.0, eta) - obs * eta)
        r = special.expit(eta) - obs                  # d nll / d eta
        ra = r * a_c
        g_theta = np.bincount(rows, weights=ra, minlength=m) + prec * theta
        g_b = -np.bincount(cols, weights=ra, minlength=n) + prec * b
        nll += 0.5 * prec * (theta @ theta + b @ b)
        grad = [g_theta, g_b]
        if two:
            log_a = v[m + n:]
            g_log_a = np.bincount(cols, weights=r * diff, minlength=n) * a \
                + log_a / LOG_A_SD ** 2
            nll += 0.5 * (log_a @ log_a) / LOG_A_SD ** 2
            grad.append(g_log_a)
        return nll, np.concatenate(grad)

    return fun


def _ability_covariance(theta, b, a, w, prior_sd, two):
    """Covariance of the abilities: the inverse of the Schur complement of the item block of
    the Fisher information (per item a 1x1 block for b, 2x2 for (b, log a))."""
    prec = 0.0 if prior_sd is None else 1.0 / prior_sd ** 2
    p = special.expit(a * (theta[:, None] - b))
    q = w * p * (1 - p)                                   # (m, n)
    info_tt = np.diag((q * a ** 2).sum(axis=1) + prec)
    # cross blocks: d2/dtheta_i db_j = -a_j^2 q_ij ; d2/dtheta_i dlog a_j = a_j^2 (theta_i-b_j) q_ij
    d = theta[:, None] - b
    cross_b = -(a ** 2) * q
    if not two:
        d_bb = (q * a ** 2).sum(axis=0) + prec            # (n,)
        if prior_sd is None:
            # constraint sum(b) = 0 as the limit of a penalty lam (sum b)^2, lam -> inf:
            # (D + lam 11')^-1 -> D^-1 - D^-1 1 1' D^-1 / (1' D^-1 1)
            inv = 1.0 / d_bb
            c = cross_b * inv                               # B D^-1, (m, n)
            s = c.sum(axis=1)
            schur = info_tt - c @ cross_b.T + np.outer(s, s) / inv.sum()
        else:
            schur = info_tt - (cross_b / d_bb) @ cross_b.T
        return np.linalg.inv(schur)
    cross_a = (a ** 2) * d * q
    d_bb = (q * a ** 2).sum(axis=0) + prec
    d_aa = (q * (a * d) ** 2).sum(axis=0) + 1.0 / LOG_A_SD ** 2
    d_ba = -(q * a ** 2 * d).sum(axis=0)
    det = d_bb * d_aa - d_ba ** 2
    # per item, [B_b B_a] [[d_aa, -d_ba], [-d_ba, d_bb]] / det [B_b B_a]'
    c_b = (cross_b * d_aa - cross_a * d_ba) / det
    c_a = (cross_a * d_bb - cross_b * d_ba) / det
    schur = info_tt - c_b @ cross_b.T - c_a @ cross_a.T
    return np.linalg.inv(schur)
