"""Bradley–Terry ratings from pairwise battles, ties by Davidson (1970), by maximum likelihood.

Model (Bradley & Terry 1952; Davidson 1970 for ties). Model i has ability lambda_i (log
strength, pi_i = exp lambda_i); a battle of i and j ends

    i wins:  pi_i / D,   j wins:  pi_j / D,   tie:  nu sqrt(pi_i pi_j) / D,
    D = pi_i + pi_j + nu sqrt(pi_i pi_j),

so without ties (nu = 0) P(i beats j) = 1 / (1 + exp(lambda_j - lambda_i)). Abilities are
identified by a reference constraint: the first model (sorted names, R's factor order) has
lambda = 0.

Fit. The log-likelihood (:mod:`._bt_likelihood`) is concave in (lambda, log nu); it is
maximised by ``scipy.optimize.minimize(method="trust-exact")`` with its exact gradient and
Hessian (no library fits Davidson's model: choix and BradleyTerry2 fit Bradley–Terry only,
statsmodels' Logit/GLM have no tie outcome). Without ties the result is BradleyTerry2's
``BTm`` fit to 1e-6 (tests/stats/test_bradley_terry.py).

Uncertainty. ``covariance``: the inverse Fisher information (observed = expected here).
``robust_covariance``: the sandwich I^-1 (sum_b w_b s_b s_b') I^-1 with battles as the units
(HC0), which stays valid when battles are not independent draws from the model, e.g. when
model strengths drift over time. Bootstrap: :mod:`._bt_bootstrap`.

Elo scale. rating = c + 400 / ln 10 * lambda (a 400-point gap is 10:1 odds of winning), the
constant c chosen so that the ``anchor`` model has ``anchor_rating`` (Chatbot Arena anchors a
named model), or, with no anchor, so that the mean rating is ``anchor_rating`` (default
1000). The interval of a rating is that of the contrast lambda_i - lambda_anchor (0 width for
the anchor) or lambda_i - mean(lambda).
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy import optimize
from scipy.sparse.csgraph import connected_components
from scipy.special import ndtri

from .._deprecation import renamed
from .._validation import (DegenerateDataError, InvalidInputError, OutperformWarning,
                           TooFewError, check_alpha,
                           check_choice)
from ..results._ratings import ELO_PER_LOGIT, BradleyTerryResult
from ._bt_codes import OUTCOMES, factorize_strings, outcome_codes
from ._bt_likelihood import PairTotals, battle_types, pair_totals

__all__ = ["bradley_terry"]

TIES = ("davidson", "half")
#: Fewest bootstrap resamples with a finite estimate, as a share of all, for a bootstrap
#: interval: below it the survivors are a selected minority (resamples in which every model
#: both won and lost), and their spread is not the sampling variation of the ratings.
MIN_SURVIVING = 0.9


def _check_identifiable(pt: PairTotals, models) -> None:
    """Refuse data whose maximum likelihood estimate does not exist (Ford 1957).

    It exists iff the graph "i beat or tied j" is strongly connected: otherwise a group of
    models never lost (nor tied) to the others and its abilities run to infinity.
    """
    m = pt.n_models
    i, j = pt.pairs[:, 0], pt.pairs[:, 1]
    t = pt.totals
    tie = t[:, 2] if t.shape[1] == 3 else 0.0
    beats = np.zeros((m, m), dtype=bool)
    beats[i, j] = (t[:, 0] + tie) > 0
    beats[j, i] = (t[:, 1] + tie) > 0
    n_comp, label = connected_components(beats, directed=True, connection="strong")
    if n_comp == 1:
        return
    # a component that no outsider ever beat: its abilities are +infinity relative to them
    beaten = np.zeros(n_comp, dtype=bool)
    src, dst = np.nonzero(beats)
    beaten[label[dst][label[src] != label[dst]]] = True
    top = np.flatnonzero(~beaten)[0]
    group = [models[k] for k in np.flatnonzero(label == top)][:5]
    played = np.zeros((m, m), dtype=bool)
    played[i, j] = played[j, i] = True
    n_groups = connected_components(played, directed=False)[0]
    why = (f"the models fall into {n_groups} groups that never battled each other"
           if n_groups > 1 else
           f"{', '.join(group)} never lost nor tied against the other models")
    raise DegenerateDataError(
        f"the Bradley-Terry abilities are not finite: {why} (Ford 1957: every split of the "
        "models into two groups needs a win of each group over the other). Add battles "
        "between the groups, or rate them separately.")


def fit_abilities(pt: PairTotals, davidson: bool, start: np.ndarray | None = None):
    """Maximum likelihood (lambda with lambda_0 = 0 [, log nu]): full theta and information."""
    free = np.arange(1, pt.n_params)

    def full(x):
        theta = np.zeros(pt.n_params)
        theta[free] = x
        return theta

    x0 = np.zeros(free.size) if start is None else start[free]
    if davidson and start is None:
        # nu of equal models with the observed tie share t: t = nu / (2 + nu)
        share = pt.totals[:, 2].sum() / pt.totals.sum()
        x0[-1] = np.log(2 * share / (1 - share))
    scale = pt.totals.sum()   # the objective per battle keeps trust-exact's tolerance relative
    res = optimize.minimize(
        lambda x: -pt.log_likelihood(full(x)) / scale, x0,
        jac=lambda x: -pt.gradient(full(x))[free] / scale,
        hess=lambda x: pt.information(full(x))[np.ix_(free, free)] / scale,
        method="trust-exact", options={"gtol": 1e-12, "maxiter": 1000})
    theta = full(res.x)
    if not np.all(np.isfinite(theta)) or np.max(np.abs(pt.gradient(theta)[free])) > 1e-6 * max(
            scale, 1.0):
        raise DegenerateDataError(f"the Bradley-Terry fit did not converge ({res.message}).")
    return theta


def _display_matrix(m: int, anchor: int | None) -> np.ndarray:
    """A with A lambda = lambda - lambda_anchor (or - mean lambda), shape (m, m)."""
    if anchor is None:
        return np.eye(m) - np.full((m, m), 1.0 / m)
    a = np.eye(m)
    a[:, anchor] -= 1.0
    return a


def battle_arrays(model_a, model_b, winner, weights):
    """The battles as 1-D string arrays (model_a, model_b, winner) and float weights (ones
    by default), checked: one length, weights finite and >= 0."""
    a, b, w_raw, weights = _raw_battles(model_a, model_b, winner, weights)
    return a.astype(str), b.astype(str), w_raw.astype(str), weights


def _raw_battles(model_a, model_b, winner, weights):
    """``battle_arrays`` without the conversion to strings (arrays as given)."""
    a, b, w_raw = np.asarray(model_a), np.asarray(model_b), np.asarray(winner)
    if a.ndim != 1 or b.shape != a.shape or w_raw.shape != a.shape:
        raise InvalidInputError(f"model_a, model_b and winner must be 1-D of one length, got "
                                f"shapes {a.shape}, {b.shape}, {w_raw.shape}.")
    weights = np.ones(a.size) if weights is None else np.asarray(weights, dtype=float)
    if weights.shape != a.shape or not np.all(np.isfinite(weights)) or np.any(weights < 0):
        raise InvalidInputError("weights must be finite, >= 0 and one per battle.")
    return a, b, w_raw, weights


def check_outcomes(a, b, w_raw) -> None:
    """Refuse a winner outside {'a', 'b', 'tie'} and a model battling itself."""
    unknown = ~np.isin(w_raw, list(OUTCOMES))
    if unknown.any():
        raise InvalidInputError(f"winner must be 'a', 'b' or 'tie'; got {w_raw[unknown][0]!r}.")
    if np.any(a == b):
        raise InvalidInputError(f"model {a[a == b][0]!r} battles itself; drop such battles.")


@renamed(confidence_level="alpha")
def bradley_terry(model_a, model_b, winner, *, weights=None, counts=None,
                  ties: str = "davidson",
                  anchor: str | None = None, anchor_rating: float = 1000.0,
                  alpha: float = 0.05, interval: str = "sandwich",
                  n_resamples: int = 1000, batch_size: int = 200, random_state=0,
                  progress: bool = False) -> BradleyTerryResult:
    """Bradley–Terry abilities and Elo-scale ratings from pairwise battles, by maximum likelihood.

    Parameters
    ----------
    model_a, model_b : array_like of str, shape (n,)
        The two models of each battle (different).
    winner : array_like of {"a", "b", "tie"}, shape (n,)
        Outcome of each battle.
    weights : array_like, shape (n,), optional
        Frequency weights (battles a row stands for), >= 0; default 1. The bootstrap
        resamples the rows, each with its weight.
    counts : array_like of int, shape (n,), optional
        Number of identical battles each row stands for (battles aggregated into counts,
        :func:`outperform.data.battle_counts`), >= 0; default 1. The fit, its covariances
        and its bootstrap are those of the rows repeated ``counts`` times: the bootstrap
        resamples the battles, a multinomial draw over the rows with probabilities
        counts / sum(counts) (identical in distribution, and for one seed identical, to
        resampling the expanded rows).
    ties : {"davidson", "half"}
        "davidson": a tie is a third outcome with probability nu sqrt(pi_i pi_j) / D
        (Davidson 1970); "half": a tie counts as half a win for each side (Chatbot Arena's
        rule). Data without ties give plain Bradley–Terry either way (``ties = "none"``).
    anchor : str, optional
        Model placed at ``anchor_rating`` on the Elo scale; None: the mean rating is
        ``anchor_rating``.
    anchor_rating : float
        Default 1000.
    alpha : float
        1 − the level of the intervals (default 0.05: 95% intervals). ``confidence_level=`` is
        its deprecated name (``alpha = 1 - confidence_level``).
    interval : {"sandwich", "model", "bootstrap"}
        Normal intervals from the sandwich or the inverse-information covariance, or
        percentile intervals from ``n_resamples`` bootstrap resamples of the battles.
    n_resamples, batch_size : int
        Bootstrap resamples, and how many are fitted at once (lowered automatically so that
        a batch's arrays of resamples x pairs x outcomes stay under 2.5e6 floats).
    random_state : None, int or numpy Generator
        Seed of the bootstrap.
    progress : bool
        Progress bar of the bootstrap batches on stderr.

    Returns
    -------
    BradleyTerryResult
        Abilities with the first sorted model at 0 (BradleyTerry2's convention), both
        covariances, Elo ratings with intervals, tie parameter, win counts.

    Raises
    ------
    InvalidInputError
        Mismatched lengths, unknown winner values, a model battling itself, bad weights or
        options, an anchor that is not a model.
    TooFewError
        Fewer than 2 models or no battle of positive weight.
    DegenerateDataError
        The maximum likelihood estimate does not exist (a group of models never lost to the
        rest, or groups that never met), or Davidson's model on battles that are all ties.

    Warns
    -----
    UserWarning
        Bootstrap: fewer than ``MIN_SURVIVING`` (90%) of the resamples have a finite
        estimate; the intervals and standard errors are then NaN and ``notes`` says why.

    References
    ----------
    Bradley & Terry (1952), Biometrika 39:324-345; Davidson (1970), JASA 65:317-328;
    Ford (1957), Amer. Math. Monthly 64:28-33; Chiang et al. (2024), "Chatbot Arena", §5.

    Examples
    --------
    >>> a = ["x", "x", "x", "y", "y", "z", "x", "y"]
    >>> b = ["y", "y", "z", "z", "z", "x", "y", "x"]
    >>> w = ["a", "a", "a", "a", "tie", "a", "b", "tie"]
    >>> res = bradley_terry(a, b, w)
    >>> res.models, res.reference
    (('x', 'y', 'z'), 'x')
    >>> [round(float(v), 3) for v in res.abilities], round(res.tie_parameter, 3)
    ([0.0, -0.274, -0.828], 0.69)
    """
    unit_weights = weights is None
    a, b, w_raw, weights = _raw_battles(model_a, model_b, winner, weights)
    if counts is not None:
        counts = np.asarray(counts)
        if (counts.shape != a.shape or not np.all(np.isfinite(counts)) or np.any(counts < 0)
                or np.any(counts != np.rint(counts))):
            raise InvalidInputError("counts must be whole numbers >= 0, one per row (the "
                                    "battles each row stands for).")
        counts = counts.astype(np.int64)
    outcome = outcome_codes(w_raw)
    both = (np.concatenate([a, b]) if a.dtype == object and b.dtype == object
            else np.concatenate([a.astype(str), b.astype(str)]))
    models, idx = factorize_strings(both)     # the models in numpy's order of strings
    ia, ib = idx[:a.size], idx[a.size:]
    if np.any(ia == ib):
        raise InvalidInputError(f"model {str(models[ia[ia == ib][0]])!r} battles itself; "
                                "drop such battles.")
    check_choice(ties, "ties", TIES)
    check_choice(interval, "interval", ("sandwich", "model", "bootstrap"))
    confidence_level = 1.0 - check_alpha(alpha)
    keep = weights > 0 if counts is None else (weights > 0) & (counts > 0)
    if not keep.all():
        ia, ib, outcome, weights = ia[keep], ib[keep], outcome[keep], weights[keep]
        if counts is not None:
            counts = counts[keep]
        used = np.zeros(models.size, dtype=bool)
        used[ia] = used[ib] = True
        if not used.all():     # models of zero-weight rows only: not rated
            new = np.cumsum(used) - 1
            models, ia, ib = models[used], new[ia], new[ib]
    m = models.size
    if m < 2:
        raise TooFewError(f"a rating needs battles between at least 2 models, got {m}.")
    if anchor is not None and anchor not in models:
        raise InvalidInputError(f"anchor {anchor!r} is not one of the models "
                                f"({', '.join(models[:5])}{', ...' if m > 5 else ''}).")
    has_ties, decisive = bool(np.any(outcome == 2)), bool(np.any(outcome < 2))
    if not decisive and ties == "davidson":
        raise DegenerateDataError("every battle is a tie: Davidson's tie parameter is "
                                  "infinite and the abilities are not identified.")
    davidson = ties == "davidson" and has_ties
    rows, type_counts = battle_types(ia, ib, outcome, weights, counts)
    pt, contrib = pair_totals(rows, type_counts, m, 3 if davidson else 2)
    _check_identifiable(pt, list(models))
    theta = fit_abilities(pt, davidson)

    free = np.arange(1, pt.n_params)
    info_inv = np.linalg.inv(pt.information(theta)[np.ix_(free, free)])
    bread = np.zeros((pt.n_params, pt.n_params))
    bread[np.ix_(free, free)] = info_inv
    cov_full = bread
    robust_full = bread @ pt.score_outer(theta) @ bread
    lam = theta[:m]
    anchor_i = None if anchor is None else int(np.flatnonzero(models == anchor)[0])
    disp = _display_matrix(m, anchor_i)
    ratings = anchor_rating + ELO_PER_LOGIT * (disp @ lam)
    z = ndtri(0.5 + confidence_level / 2)
    boot, failed, notes = None, 0, []
    if interval == "bootstrap":
        from ._bt_bootstrap import bootstrap_abilities

        lam_boot, failed = bootstrap_abilities(pt, contrib, type_counts, theta,
                                               n_resamples, batch_size, random_state,
                                               progress)
        boot = anchor_rating + ELO_PER_LOGIT * lam_boot @ disp.T
        tail = 50 * (1 - confidence_level)
        if boot.shape[0] >= MIN_SURVIVING * n_resamples:
            low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
            se = boot.std(axis=0, ddof=1)
        else:
            low = high = se = np.full(m, np.nan)
            notes.append(_degenerate_bootstrap(failed, n_resamples))
            warnings.warn(notes[-1], OutperformWarning, stacklevel=2)
    else:
        cov = (robust_full if interval == "sandwich" else cov_full)[:m, :m]
        se = ELO_PER_LOGIT * np.sqrt(np.clip(np.diag(disp @ cov @ disp.T), 0, None))
        low, high = ratings - z * se, ratings + z * se
    if unit_weights:     # whole numbers: the battle types' totals are the same, exactly
        wins, losses, tied = _tallies(rows, type_counts, m)
    else:
        wins, losses, tied = _tallies_of_battles(
            ia, ib, outcome, weights if counts is None else weights * counts, m)
    nu = float(np.exp(theta[m])) if davidson else None
    return BradleyTerryResult(
        models=tuple(str(s) for s in models), abilities=lam, reference=str(models[0]),
        covariance=cov_full[:m, :m], robust_covariance=robust_full[:m, :m],
        ties=("davidson" if davidson else "half" if has_ties else "none"),
        tie_parameter=nu, tie_parameter_se=(nu * float(np.sqrt(cov_full[m, m]))
                                            if davidson else None),
        ratings=ratings, rating_low=low, rating_high=high, rating_standard_error=se,
        confidence_level=float(confidence_level), interval=interval, anchor=anchor,
        anchor_rating=float(anchor_rating), wins=wins, losses=losses, ties_count=tied,
        battles=wins + losses + tied, log_likelihood=float(pt.log_likelihood(theta)),
        bootstrap_ratings=boot, n_failed_resamples=failed, notes=tuple(notes))


def _tallies_of_battles(ia, ib, outcome, weights, m: int):
    """Weighted wins, losses and ties of each model, 3 arrays (m,), from the battles."""
    out = []
    for first, second in ((0, 1), (1, 0), (2, 2)):     # wins, losses, ties: 3, not data
        sel1, sel2 = outcome == first, outcome == second
        out.append(np.bincount(ia[sel1], weights[sel1], m)
                   + np.bincount(ib[sel2], weights[sel2], m))
    return tuple(out)


def _tallies(rows: np.ndarray, type_counts: np.ndarray, m: int):
    """The same from the battle types of :func:`._bt_likelihood.battle_types` (i < j,
    outcome 0 = i won): with whole-number weights the same numbers exactly (sums of
    integers), in time of the types, not the battles."""
    i, j = rows[:, 0].astype(np.intp), rows[:, 1].astype(np.intp)
    return _tallies_of_battles(i, j, rows[:, 2], type_counts * rows[:, 3], m)


def _degenerate_bootstrap(failed: int, n_resamples: int) -> str:
    """Why a bootstrap with too few finite resamples gives no interval, in words."""
    return (f"no bootstrap interval (nan): {failed} of {n_resamples} resamples have no finite "
            "maximum likelihood estimate (in them some group of models never lost, or never "
            "won, against the others: Zermelo 1929, Ford 1957), more than "
            f"{1 - MIN_SURVIVING:.0%}; the {n_resamples - failed} left are not a sample of the "
            "ratings' variation. Add battles (each model needs wins and losses against the "
            "rest), or use the sandwich interval (interval='sandwich', --n-resamples 0).")
