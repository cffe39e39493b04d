"""Style-controlled Bradley–Terry (LMArena's style control): per-battle covariates in the logit.

Model (Chiang et al. 2024, "Chatbot Arena", and LMArena's "Does style matter?" 2024 post;
arena-rank's ``ContextualBradleyTerry``). Battle b between models A and B with standardised
style differences x_b (:mod:`._bt_style_design`):

    P(A beats B) = 1 / (1 + exp(-(lambda_A - lambda_B + x_b' beta))),

a logistic regression on [model indicators (+1 for A, -1 for B), x_b]. A tie counts as half
a win for each side (outcome y = 0.5 in the Bernoulli log-likelihood, as FastChat and
arena-rank do; neither drops ties). The fit minimises

    L(theta) = -(1/N) sum_b c_b v_b [y_b eta_b - log(1 + exp eta_b)] + (l2 / 2) |beta|^2

(c_b frequency weights, N = sum c_b, v_b inverse-propensity weights of the pair when
``reweight``, else 1): arena-rank's loss, with its ``reg`` = ``l2``; abilities are not
penalised. The first model's ability is fixed at 0; ``scipy.optimize.minimize``
(trust-exact) uses the analytic gradient X' r and Hessian X' diag(h) X.

Sandwich. With per-battle estimating functions psi_b = v_b (y_b - p_b) x_b - l2 (0, beta)
(their weighted sum is 0 at the optimum), cov = H^-1 (sum_b c_b psi_b psi_b') H^-1 with H the
Hessian of N L (Huber 1967; White 1980, HC0 with battles as units), for abilities and
coefficients jointly. arena-rank (0.1.1) differs with ``l2 > 0``: its bread leaves out the
penalty's Hessian and its meat subtracts l2^2 beta beta' / N rather than N l2^2 beta beta';
and it adds a ridge (1e-5) to the Hessian's diagonal instead of removing the abilities'
common shift, which biases its variances by about ridge / (smallest nonzero eigenvalue of
the mean Hessian), ~2% when lengths and models are nearly collinear. With ``l2 = 0`` the two
agree up to that ridge (tests/stats/test_bt_style_peer.py).

Elo scale: rating = anchor_rating + 400 / ln 10 * (lambda - mean lambda), or
lambda - lambda_anchor with ``anchor`` (arena-rank: scale 400, base 10, init 1000, the mean).
"""
from __future__ import annotations

import numpy as np
from scipy import optimize
from scipy.sparse.csgraph import connected_components
from scipy.special import expit, log_expit, ndtri
from scipy.stats import rankdata

from .._validation import (DegenerateDataError, InvalidInputError, TooFewError, check_alpha)
from ..results._ratings import ELO_PER_LOGIT
from ..results._style import StyleControlResult
from ._bradley_terry import _display_matrix, battle_arrays, check_outcomes
from ._bt_style_design import StyleDesign, relative_differences, standardize

__all__ = ["bradley_terry_style"]

OUTCOME = {"a": 1.0, "b": 0.0, "tie": 0.5}


def _check_connected(d: StyleDesign, models) -> None:
    """Refuse battles whose abilities have no finite estimate (Ford 1957): the graph "i won
    or tied against j" must be strongly connected."""
    m = d.n_models
    beats = np.zeros((m, m), dtype=bool)
    beats[d.ia[d.y > 0], d.ib[d.y > 0]] = True
    beats[d.ib[d.y < 1], d.ia[d.y < 1]] = True
    n_comp, label = connected_components(beats, directed=True, connection="strong")
    if n_comp > 1:
        src, dst = np.nonzero(beats)
        beaten = np.zeros(n_comp, dtype=bool)
        beaten[label[dst][label[src] != label[dst]]] = True
        group = [str(models[k]) for k in np.flatnonzero(label == np.flatnonzero(~beaten)[0])]
        raise DegenerateDataError(
            f"the Bradley-Terry abilities are not finite: {', '.join(group[:5])} never lost "
            "nor tied against the other models (or the models fall into groups that never "
            "met; Ford 1957). Add battles between the groups, or rate them separately.")


def fit_style(d: StyleDesign, l2: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Penalised maximum likelihood: full theta (m + p), its sandwich and model covariances.

    Returns theta (first ability 0), the sandwich covariance and the inverse penalised
    Hessian (both (m + p, m + p), zero row/column for the first model) and the
    log-likelihood sum_b c_b v_b l_b.
    """
    m, p = d.n_models, d.n_features
    free = np.arange(1, m + p)
    X = d.design[:, free]
    cw = d.counts * d.v
    n = d.n_battles
    pen = np.zeros(free.size)
    pen[m - 1:] = l2

    def fun(x):
        eta = X @ x
        ll = cw @ (d.y * eta + log_expit(-eta))
        return -ll / n + 0.5 * (pen @ x ** 2)

    def jac(x):
        r = cw * (d.y - expit(X @ x))
        return -(X.T @ r) / n + pen * x

    def hess(x):
        p_ = expit(X @ x)
        h = cw * p_ * (1 - p_)
        return np.asarray((X.T @ X.multiply(h[:, None])).todense()) / n + np.diag(pen)

    res = optimize.minimize(fun, np.zeros(free.size), jac=jac, hess=hess,
                            method="trust-exact", options={"gtol": 1e-12, "maxiter": 1000})
    x = res.x
    if not np.all(np.isfinite(x)) or np.max(np.abs(jac(x))) > 1e-7:
        raise DegenerateDataError(f"the style-controlled Bradley-Terry fit did not converge "
                                  f"({res.message}): some model never lost or never won, or a "
                                  "style feature separates the outcomes; add battles or set "
                                  "l2 > 0.")
    bread = np.linalg.inv(hess(x) * n)
    # meat sum_b c_b psi_b psi_b', psi_b = g_b x_b - q (g_b = v_b (y_b - p_b), q = l2 (0, beta)
    # the per-battle share of the penalty), expanded so that X stays sparse
    g = d.v * (d.y - expit(X @ x))
    q = pen * x
    sx = X.T @ (d.counts * g)
    meat = (np.asarray((X.T @ X.multiply((d.counts * g * g)[:, None])).todense())
            - np.outer(sx, q) - np.outer(q, sx) + n * np.outer(q, q))
    theta = np.concatenate([[0.0], x])
    full = np.zeros((m + p, m + p))
    sandwich, model = full.copy(), full.copy()
    sandwich[1:, 1:] = bread @ meat @ bread
    model[1:, 1:] = bread
    ll = float(cw @ (d.y * (X @ x) + log_expit(-(X @ x))))
    return theta, sandwich, model, ll


def _influence(d: StyleDesign, theta, l2, disp) -> np.ndarray:
    """Per-battle influence of the Elo ratings (n_battles, m): their mean is 0, their
    covariance / n is the sandwich's (battles with integer frequency weights repeated)."""
    m, p = d.n_models, d.n_features
    free = np.arange(1, m + p)
    X = d.design[:, free]
    p_ = expit(X @ theta[1:])
    h = d.counts * d.v * p_ * (1 - p_)
    pen = np.zeros(free.size)
    pen[m - 1:] = l2
    hess = np.asarray((X.T @ X.multiply(h[:, None])).todense()) + d.n_battles * np.diag(pen)
    s = np.asarray(X.multiply((d.v * (d.y - p_))[:, None]).todense()) - pen * theta[1:]
    inf = np.linalg.solve(hess, s.T).T[:, :m - 1] * d.n_battles   # (u, m - 1)
    full = np.column_stack([np.zeros(len(inf)), inf]) @ disp.T * ELO_PER_LOGIT
    return np.repeat(full, d.counts.astype(int), axis=0)


def bradley_terry_style(model_a, model_b, winner, features_a, features_b=None, *,
                        features=None, weights=None, l2: float = 0.0,
                        standardize_features: bool = True, reweight: bool = False,
                        min_pair_count: float = 50.0, anchor: str | None = None,
                        anchor_rating: float = 1000.0, alpha: float = 0.05,
                        rank_sets: bool = True, n_resamples: int = 1000,
                        random_state=0) -> StyleControlResult:
    """Bradley–Terry with per-battle style covariates (LMArena's style control).

    Parameters
    ----------
    model_a, model_b : array_like of str, shape (n,)
        The two models of each battle (different).
    winner : array_like of {"a", "b", "tie"}, shape (n,)
        A tie is half a win for each side.
    features_a : array_like, shape (n, p) or (n,)
        With ``features_b``: the style values of A's answers (token counts, markdown header,
        list, bold counts, >= 0), turned into (f_A - f_B) / (f_A + f_B) (0/0 = 0). Without
        it: per-battle covariates used as they are (signed, A minus B by the caller).
    features_b : array_like, shape (n, p), optional
        The same values of B's answers.
    features : sequence of str, optional
        Names of the p covariates (default ``feature 0``, ...).
    weights : array_like, shape (n,), optional
        Frequency weights (battles a row stands for), >= 0.
    l2 : float
        Penalty (l2 / 2) |beta|^2 on the style coefficients, added to the mean negative
        log-likelihood (arena-rank's ``reg``, default 1.0 there); 0: maximum likelihood.
    standardize_features : bool
        Standardise each covariate over the battles (mean 0, population sd 1), as LMArena.
    reweight : bool
        arena-rank's inverse-propensity weights, 1 / max(battles of the pair,
        ``min_pair_count``), scaled to mean 1 over the battles.
    anchor, anchor_rating
        Model placed at ``anchor_rating`` on the Elo scale; None: the mean rating is.
    alpha : float
        1 - level of the intervals and rank sets.
    rank_sets : bool
        Also the rank confidence sets of the controlled ratings
        (:func:`outperform.stats.rank_sets` on the per-battle influence values of the
        ratings, a bootstrap of the linearised estimator; needs integer weights).
    n_resamples, random_state
        Bootstrap of the rank sets.

    Returns
    -------
    StyleControlResult
        Controlled and uncontrolled ratings, style coefficients, their joint sandwich
        covariance, ranks and rank sets.

    Raises
    ------
    InvalidInputError
        Mismatched shapes, unknown winners, a model battling itself, negative or missing
        style values, bad weights, ``l2 < 0``, an unknown anchor.
    TooFewError
        Fewer than 2 models, or no covariate.
    DegenerateDataError
        A covariate constant over the battles with ``l2 = 0`` (its coefficient is not
        identified), or no finite maximum likelihood estimate.

    References
    ----------
    Bradley & Terry (1952); Chiang et al. (2024), "Chatbot Arena", ICML; Li et al. (2024),
    "Does style matter? Disentangling style and substance in Chatbot Arena" (LMArena
    blog); arena-rank (LMArena 2025), ``ContextualBradleyTerry``; White (1980).

    Examples
    --------
    >>> a = ["x", "x", "y", "y", "z", "z", "x", "y"]
    >>> b = ["y", "z", "z", "x", "x", "y", "z", "x"]
    >>> w = ["a", "a", "b", "tie", "b", "a", "b", "a"]
    >>> length_a = [300, 200, 100, 400, 250, 120, 80, 90]
    >>> length_b = [100, 250, 300, 100, 200, 300, 90, 300]
    >>> res = bradley_terry_style(a, b, w, length_a, length_b, features=["length"],
    ...                           rank_sets=False)
    >>> [round(float(r), 1) for r in res.ratings], round(float(res.coefficients[0]), 3)
    ([1043.2, 893.6, 1063.3], -0.206)
    """
    a, b, w_raw, weights = battle_arrays(model_a, model_b, winner, weights)
    check_outcomes(a, b, w_raw)
    n = a.size
    if not np.isfinite(l2) or l2 < 0:
        raise InvalidInputError(f"l2 must be a finite number >= 0, got {l2!r}.")
    confidence_level = 1.0 - check_alpha(alpha)
    if features_b is None:
        x = np.asarray(features_a, dtype=float)
        x = x[:, None] if x.ndim == 1 else x
        if x.shape[0] != n or x.ndim != 2 or not np.all(np.isfinite(x)):
            raise InvalidInputError(f"the covariates must be finite, shape (n, p) with n = "
                                    f"{n} battles; got shape {x.shape}.")
    else:
        x = relative_differences(features_a, features_b)
        if x.shape[0] != n:
            raise InvalidInputError(f"the style features have {x.shape[0]} rows for {n} "
                                    "battles.")
    p = x.shape[1]
    if p == 0:
        raise TooFewError("style control needs at least one covariate.")
    names = tuple(f"feature {k}" for k in range(p)) if features is None else tuple(
        str(f) for f in features)
    if len(names) != p:
        raise InvalidInputError(f"{len(names)} feature names for {p} covariates.")
    keep = weights > 0
    a, b, w_raw, weights, x = a[keep], b[keep], w_raw[keep], weights[keep], x[keep]
    models, idx = np.unique(np.concatenate([a, b]), return_inverse=True)
    m = models.size
    if m < 2:
        raise TooFewError(f"a rating needs battles between at least 2 models, got {m}.")
    if anchor is not None and anchor not in models:
        raise InvalidInputError(f"anchor {anchor!r} is not one of the models.")
    if standardize_features:
        x, mean, sd = standardize(x, weights)
    else:
        mean, sd = np.zeros(p), np.ones(p)
    const = np.ptp(x, axis=0) == 0
    if const.any() and l2 == 0:
        raise DegenerateDataError(
            f"the style covariate {names[int(np.flatnonzero(const)[0])]!r} has one value in "
            "every battle: its coefficient is not identified. Drop it, or set l2 > 0.")
    y = np.array([OUTCOME[s] for s in ("a", "b", "tie")])[
        np.searchsorted(np.array(["a", "b", "tie"]), w_raw)]
    ia, ib = idx[:a.size], idx[a.size:]
    design = StyleDesign(ia, ib, y, x, weights, m, reweight, min_pair_count)
    _check_connected(design, models)
    theta, cov, _, ll = fit_style(design, l2)
    plain = StyleDesign(ia, ib, y, np.zeros((a.size, 0)), weights, m, reweight, min_pair_count)
    theta0, cov0, _, _ = fit_style(plain, 0.0)

    anchor_i = None if anchor is None else int(np.flatnonzero(models == anchor)[0])
    disp = _display_matrix(m, anchor_i)
    z = ndtri(0.5 + confidence_level / 2)

    def elo(th, cv):
        r = anchor_rating + ELO_PER_LOGIT * (disp @ th[:m])
        se = ELO_PER_LOGIT * np.sqrt(np.clip(np.diag(disp @ cv[:m, :m] @ disp.T), 0, None))
        return r, se

    ratings, se = elo(theta, cov)
    ratings0, se0 = elo(theta0, cov0)
    beta = theta[m:]
    beta_se = np.sqrt(np.clip(np.diag(cov)[m:], 0, None))
    sets, notes = None, []
    if rank_sets:
        if np.all(weights == np.round(weights)):
            from .._cost import check_cost
            from ._rank_sets import rank_sets as _rank_sets

            # the per-battle influence values (float64) and rank_sets' float32 copies
            check_cost("battles (rank_sets=False, --n-resamples 0: no rank sets)",
                       weights.sum(), work=f"rank sets of {m} models from the battles' "
                       "influence values", bytes_per_unit=20.0 * m)
            # the resamples of the rank sets, at compare/_leaderboard.py's measured rates
            check_cost("n_resamples (--n-resamples)", n_resamples,
                       work=f"rank sets of {m} models over {int(weights.sum()):,} battles",
                       bytes_per_unit=64.0 * m,
                       seconds_per_unit=2e-8 * float(weights.sum()) + 3e-9 * m * m)

            scores = ratings + _influence(design, theta, l2, disp)
            sets = _rank_sets(scores, names=[str(s) for s in models], alpha=alpha,
                              n_resamples=n_resamples, random_state=random_state, unit="item")
        else:
            notes.append("no rank sets: the weights are not whole numbers of battles.")
    counts = [np.bincount(ia[w_raw == o], weights[w_raw == o], m)
              + np.bincount(ib[w_raw == q], weights[w_raw == q], m)
              for o, q in (("a", "b"), ("b", "a"), ("tie", "tie"))]
    return StyleControlResult(
        models=tuple(str(s) for s in models), features=names, abilities=theta[:m],
        coefficients=beta, covariance=cov, ratings=ratings, rating_low=ratings - z * se,
        rating_high=ratings + z * se, rating_standard_error=se,
        coefficient_standard_error=beta_se, coefficient_low=beta - z * beta_se,
        coefficient_high=beta + z * beta_se, uncontrolled_ratings=ratings0,
        uncontrolled_low=ratings0 - z * se0, uncontrolled_high=ratings0 + z * se0,
        rank=rankdata(-ratings, method="min").astype(int),
        uncontrolled_rank=rankdata(-ratings0, method="min").astype(int), rank_sets=sets,
        feature_mean=mean, feature_sd=sd, confidence_level=float(confidence_level),
        anchor=anchor, anchor_rating=float(anchor_rating), l2=float(l2),
        reweight=bool(reweight),
        n_battles=float(weights.sum()), n_rows=design.n_rows, log_likelihood=ll,
        wins=counts[0], losses=counts[1], ties_count=counts[2], notes=tuple(notes))
