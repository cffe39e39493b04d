"""Ratings of models from pairwise battles (Bradley–Terry): values only, they pickle."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ._base import Result
from ._serialize import jsonable

#: Elo points per logit of ability: 400 / ln 10 (a 400-point gap is 10:1 odds)
ELO_PER_LOGIT = 400.0 / math.log(10.0)

INTERVALS = {
    "sandwich": "normal approximation with the sandwich (robust, battles as units) covariance",
    "model": "normal approximation with the inverse Fisher information",
    "bootstrap": "percentile bootstrap, battles resampled",
}



def anchor_rule(anchor: str | None, rating: float) -> str:
    """How an Elo scale is placed, in words: ``"mean rating 1000"`` or ``"llama at 1000"``."""
    return f"mean rating {rating:g}" if anchor is None else f"{anchor} at {rating:g}"

@dataclass(frozen=True, eq=False, repr=False)
class BradleyTerryResult(Result):
    """Bradley–Terry abilities of m models, their covariances and Elo-scale ratings.

    Attributes
    ----------
    models : tuple of str
        Model names, in the order of every array (sorted names).
    abilities : ndarray, shape (m,)
        Log-strengths lambda (logits), ``reference`` fixed at 0: P(i beats j) =
        1 / (1 + exp(lambda_j - lambda_i)) without ties. As R's BradleyTerry2 reports them.
    reference : str
        The model whose ability is 0 (the identifiability constraint; the first name).
    covariance, robust_covariance : ndarray, shape (m, m)
        Covariance of ``abilities`` from the inverse Fisher information and from the sandwich
        (HC0, battles as units); the reference row and column are 0.
    ties : str
        ``"davidson"`` (ties an outcome, Davidson 1970), ``"half"`` (a tie is half a win for
        each side) or ``"none"`` (the data had no tie).
    tie_parameter : float or None
        Davidson's nu (P(tie) = nu / (2 + nu) between equal models); None without it.
    tie_parameter_se : float or None
        Standard error of nu (delta method on log nu, inverse information).
    ratings : ndarray, shape (m,)
        Elo-scale ratings, ``ELO_PER_LOGIT`` points per logit, placed by ``anchor_rule``.
    rating_low, rating_high : ndarray, shape (m,)
        Confidence interval of each rating at ``confidence_level`` by ``interval``.
    rating_standard_error : ndarray, shape (m,)
        Standard error of each rating by the covariance ``interval`` uses (sandwich, or model;
        for the bootstrap the standard deviation of the resamples).
    anchor : str or None
        The model placed at ``anchor_rating``; None: the mean rating is ``anchor_rating``.
    wins, losses, ties_count, battles : ndarray, shape (m,)
        Weighted counts of each model's battles.
    log_likelihood : float
    bootstrap_ratings : ndarray, shape (n_resamples, m) or None
        Ratings on each bootstrap resample (only with ``interval="bootstrap"``).
    n_failed_resamples : int
        Resamples left out because their maximum likelihood estimate does not exist (a model
        never beaten or never beating the others in that resample).
    """

    models: tuple
    abilities: np.ndarray
    reference: str
    covariance: np.ndarray = field(repr=False)
    robust_covariance: np.ndarray = field(repr=False)
    ties: str
    tie_parameter: float | None
    tie_parameter_se: float | None
    ratings: np.ndarray
    rating_low: np.ndarray
    rating_high: np.ndarray
    rating_standard_error: np.ndarray
    confidence_level: float
    interval: str
    anchor: str | None
    anchor_rating: float
    wins: np.ndarray
    losses: np.ndarray
    ties_count: np.ndarray
    battles: np.ndarray
    log_likelihood: float
    bootstrap_ratings: np.ndarray | None = field(default=None, repr=False)
    n_failed_resamples: int = 0
    notes: tuple = ()

    _repr_fields = ("models", "ties", "interval", "confidence_level", "anchor")

    @property
    def standard_error(self) -> np.ndarray:
        """Standard errors of ``abilities`` (inverse information; 0 for the reference)."""
        return np.sqrt(np.diag(self.covariance))

    @property
    def robust_standard_error(self) -> np.ndarray:
        """Sandwich standard errors of ``abilities`` (0 for the reference)."""
        return np.sqrt(np.diag(self.robust_covariance))

    @property
    def anchor_rule(self) -> str:
        """How the Elo scale is placed, in words."""
        return anchor_rule(self.anchor, self.anchor_rating)

    @property
    def order(self) -> np.ndarray:
        """Indices of the models by rating, best first."""
        return np.argsort(-self.ratings, kind="stable")

    def win_probability(self, model: str, other: str) -> float:
        """P(model beats other) in a battle that is not a tie (ties excluded)."""
        i, j = self.models.index(model), self.models.index(other)
        return float(1.0 / (1.0 + np.exp(self.abilities[j] - self.abilities[i])))

    def to_frame(self):
        """One row per model, best first: rank, rating, interval, ability, SEs, counts."""
        import pandas as pd

        o = self.order
        return pd.DataFrame({
            "rank": np.arange(1, len(o) + 1), "model": [self.models[i] for i in o],
            "rating": self.ratings[o], "low": self.rating_low[o], "high": self.rating_high[o],
            "ability": self.abilities[o], "standard_error": self.standard_error[o],
            "robust_standard_error": self.robust_standard_error[o],
            "wins": self.wins[o], "losses": self.losses[o], "ties": self.ties_count[o],
            "battles": self.battles[o]})

    def to_dict(self) -> dict:
        return jsonable({
            "method": "Bradley-Terry" + (" with Davidson ties" if self.ties == "davidson"
                                         else ""),
            "ties": self.ties, "tie_parameter": self.tie_parameter,
            "tie_parameter_se": self.tie_parameter_se, "reference": self.reference,
            "anchor": self.anchor_rule, "elo_per_logit": ELO_PER_LOGIT,
            "confidence_level": self.confidence_level, "interval": INTERVALS[self.interval],
            "log_likelihood": self.log_likelihood,
            "n_failed_resamples": self.n_failed_resamples, "notes": list(self.notes),
            "models": self.to_frame().to_dict(orient="records")})

    def __str__(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        width = max(5, max(len(m) for m in self.models)) + 2
        tie = {"davidson": f"Davidson ties, nu = {self.tie_parameter:.3f}"
               if self.tie_parameter is not None else "",
               "half": "a tie counts as half a win for each side",
               "none": "no ties in the data"}[self.ties]
        lines = [f"Bradley-Terry ratings of {len(self.models)} models from "
                 f"{self.battles.sum() / 2:g} battles ({tie})",
                 f"Elo scale: {ELO_PER_LOGIT:.1f} points per logit, {self.anchor_rule}; "
                 f"{level} intervals: {INTERVALS[self.interval]}", ""]
        lines.append(f"{'rank':>4}  " + "model".ljust(width) + f"{'rating':>8}  "
                     f"{level + ' interval':>20}{'wins':>9}{'losses':>9}{'ties':>9}")
        for rank, i in enumerate(self.order, 1):
            lines.append(f"{rank:>4}  " + self.models[i].ljust(width)
                         + f"{self.ratings[i]:>8.1f}  "
                         + f"{f'[{self.rating_low[i]:.1f}, {self.rating_high[i]:.1f}]':>20}"
                         + f"{self.wins[i]:>9g}{self.losses[i]:>9g}{self.ties_count[i]:>9g}")
        if self.n_failed_resamples:
            lines.append(f"note: {self.n_failed_resamples} bootstrap resamples had no finite "
                         "estimate and were left out.")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)


@dataclass(frozen=True, eq=False, repr=False)
class PlackettLuceResult(Result):
    """Posterior of the Plackett–Luce weights of m algorithms ranked on n tasks.

    Attributes
    ----------
    models : tuple of str
    weights : ndarray, shape (n_draws, m)
        Posterior draws of the weights w (a point of the simplex): w_k is the probability
        that algorithm k ranks first on a new task.
    p_best : ndarray, shape (m,)
        E[w_k]: the posterior predictive probability that k is the best on a new task
        (scmamp's ``expected.win.prob``).
    p_highest_weight : ndarray, shape (m,)
        P(w_k is the largest weight): the posterior probability that k is the model most
        likely to win.
    expected_rank : ndarray, shape (m,)
        Posterior mean of k's rank in the most probable ranking (weights sorted; scmamp's
        ``expected.mode.rank``), 1 = best.
    expected_task_rank : ndarray, shape (m,)
        Posterior predictive expected rank of k on a new task, 1 + sum_j w_j / (w_j + w_k).
    weight_low, weight_high : ndarray, shape (m,)
        Central 95% credible interval of each weight.
    prior : ndarray, shape (m,)
        Dirichlet concentration of the prior of w.
    n_tasks, n_tied_tasks : int
        Tasks ranked, and those whose ties were broken at random (as scmamp does).
    rhat_max, ess_min : float
        Convergence diagnostics of the weights; ``divergent`` transitions.
    """

    models: tuple
    weights: np.ndarray = field(repr=False)
    p_best: np.ndarray
    p_highest_weight: np.ndarray
    expected_rank: np.ndarray
    expected_task_rank: np.ndarray
    weight_low: np.ndarray
    weight_high: np.ndarray
    prior: np.ndarray
    n_tasks: int
    n_tied_tasks: int
    higher_is_better: bool
    rhat_max: float
    ess_min: float
    divergent: int

    _repr_fields = ("models", "n_tasks", "higher_is_better", "rhat_max", "divergent")

    @property
    def order(self) -> np.ndarray:
        """Indices of the models by p_best, best first."""
        return np.argsort(-self.p_best, kind="stable")

    def to_frame(self):
        """One row per model, best first."""
        import pandas as pd

        o = self.order
        return pd.DataFrame({
            "model": [self.models[i] for i in o], "p_best": self.p_best[o],
            "p_highest_weight": self.p_highest_weight[o],
            "expected_rank": self.expected_rank[o],
            "expected_task_rank": self.expected_task_rank[o],
            "weight_low": self.weight_low[o], "weight_high": self.weight_high[o]})

    def to_dict(self) -> dict:
        return jsonable({
            "method": "Bayesian Plackett-Luce (Calvo et al. 2018)", "n_tasks": self.n_tasks,
            "n_tied_tasks": self.n_tied_tasks, "higher_is_better": self.higher_is_better,
            "prior": self.prior, "rhat_max": self.rhat_max, "ess_min": self.ess_min,
            "divergent": self.divergent,
            "models": self.to_frame().to_dict(orient="records")})

    def __str__(self) -> str:
        width = max(5, max(len(m) for m in self.models)) + 2
        lines = [f"Bayesian Plackett-Luce over {self.n_tasks} task rankings of "
                 f"{len(self.models)} models (Calvo et al. 2018); "
                 f"{'higher' if self.higher_is_better else 'lower'} scores rank first", "",
                 "model".ljust(width) + f"{'P(best)':>9}{'P(top weight)':>15}"
                 f"{'E[rank]':>9}{'E[task rank]':>14}{'95% interval of w':>22}"]
        for i in self.order:
            lines.append(self.models[i].ljust(width) + f"{self.p_best[i]:>9.3f}"
                         f"{self.p_highest_weight[i]:>15.3f}{self.expected_rank[i]:>9.2f}"
                         f"{self.expected_task_rank[i]:>14.2f}"
                         f"{f'[{self.weight_low[i]:.3f}, {self.weight_high[i]:.3f}]':>22}")
        if self.n_tied_tasks:
            lines.append(f"note: ties on {self.n_tied_tasks} tasks were broken at random.")
        return "\n".join(lines)
