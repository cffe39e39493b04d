"""Style-controlled Bradley–Terry ratings (LMArena's style control): values only, they pickle."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._base import Result
from ._ratings import ELO_PER_LOGIT, anchor_rule
from ._serialize import jsonable


@dataclass(frozen=True, eq=False, repr=False)
class StyleControlResult(Result):
    """Bradley–Terry abilities with per-battle style covariates, and the same fit without them.

    Attributes
    ----------
    models : tuple of str
        The m models (sorted names), the order of every per-model array.
    features : tuple of str
        The p style covariates, the order of ``coefficients``.
    abilities : ndarray, shape (m,)
        Controlled log-strengths (logits), the first model at 0.
    coefficients : ndarray, shape (p,)
        Style coefficients: logits of A winning per standard deviation of the (normalised)
        feature difference; positive: more of the feature than the opponent wins votes.
    covariance : ndarray, shape (m + p, m + p)
        Sandwich covariance of (abilities, coefficients) jointly; the first model's row and
        column are 0.
    ratings, rating_low, rating_high, rating_standard_error : ndarray, shape (m,)
        Controlled Elo-scale ratings (``ELO_PER_LOGIT`` points per logit, placed by
        ``anchor``), normal intervals at ``confidence_level`` and standard errors.
    coefficient_standard_error, coefficient_low, coefficient_high : ndarray, shape (p,)
    uncontrolled_ratings, uncontrolled_low, uncontrolled_high : ndarray, shape (m,)
        The same Bradley–Terry fit without covariates (same ties, weights and scale).
    rank, uncontrolled_rank : ndarray of int, shape (m,)
        1 + the number of models with a strictly higher rating, with and without control.
    rank_sets : RankSets or None
        Simultaneous and marginal rank confidence sets of the controlled ratings.
    feature_mean, feature_sd : ndarray, shape (p,)
        Mean and population sd of each normalised difference over the battles (the
        standardisation undone by ``coefficients / feature_sd``).
    l2 : float
        Penalty 0.5 * l2 * |coefficients|^2 added to the mean negative log-likelihood.
    wins, losses, ties_count : ndarray, shape (m,)
        Weighted counts of each model's battles.
    """

    models: tuple
    features: tuple
    abilities: np.ndarray
    coefficients: np.ndarray
    covariance: np.ndarray = field(repr=False)
    ratings: np.ndarray
    rating_low: np.ndarray
    rating_high: np.ndarray
    rating_standard_error: np.ndarray
    coefficient_standard_error: np.ndarray
    coefficient_low: np.ndarray
    coefficient_high: np.ndarray
    uncontrolled_ratings: np.ndarray
    uncontrolled_low: np.ndarray
    uncontrolled_high: np.ndarray
    rank: np.ndarray
    uncontrolled_rank: np.ndarray
    rank_sets: object
    feature_mean: np.ndarray
    feature_sd: np.ndarray
    confidence_level: float
    anchor: str | None
    anchor_rating: float
    l2: float
    reweight: bool
    n_battles: float
    n_rows: int
    log_likelihood: float
    wins: np.ndarray = field(default=None, repr=False)
    losses: np.ndarray = field(default=None, repr=False)
    ties_count: np.ndarray = field(default=None, repr=False)
    notes: tuple = ()

    _repr_fields = ("models", "features", "confidence_level", "l2")

    @property
    def anchor_rule(self) -> str:
        """How the Elo scale is placed, in words."""
        return anchor_rule(self.anchor, self.anchor_rating)

    @property
    def rank_change(self) -> np.ndarray:
        """uncontrolled_rank - rank: positive when a model moves up under style control."""
        return self.uncontrolled_rank - self.rank

    @property
    def order(self) -> np.ndarray:
        """Indices of the models by controlled rating, best first."""
        return np.argsort(-self.ratings, kind="stable")

    def to_frame(self):
        """One row per model, best controlled rating first."""
        import pandas as pd

        o = self.order
        frame = {"model": [self.models[i] for i in o], "rank": self.rank[o],
                 "rating": self.ratings[o], "low": self.rating_low[o],
                 "high": self.rating_high[o], "standard_error": self.rating_standard_error[o],
                 "uncontrolled_rank": self.uncontrolled_rank[o],
                 "uncontrolled_rating": self.uncontrolled_ratings[o],
                 "uncontrolled_low": self.uncontrolled_low[o],
                 "uncontrolled_high": self.uncontrolled_high[o],
                 "rank_change": self.rank_change[o], "wins": self.wins[o],
                 "losses": self.losses[o], "ties": self.ties_count[o]}
        if self.rank_sets is not None:
            frame["rank_set_low"] = self.rank_sets.simultaneous[o, 0]
            frame["rank_set_high"] = self.rank_sets.simultaneous[o, 1]
        return pd.DataFrame(frame)

    def coefficients_frame(self):
        """One row per style feature: coefficient, standard error, interval."""
        import pandas as pd

        return pd.DataFrame({"feature": list(self.features), "coefficient": self.coefficients,
                             "standard_error": self.coefficient_standard_error,
                             "low": self.coefficient_low, "high": self.coefficient_high})

    def to_dict(self) -> dict:
        return jsonable({
            "method": "style-controlled Bradley-Terry",
            "ties": "half" if np.any(self.ties_count > 0) else "none",
            "control_for": list(self.features),
            "anchor": self.anchor_rule, "elo_per_logit": ELO_PER_LOGIT,
            "confidence_level": self.confidence_level,
            "interval": "normal approximation with the sandwich covariance (battles as units)",
            "l2": self.l2, "reweight": self.reweight,
            "n_battles": self.n_battles, "log_likelihood": self.log_likelihood,
            "notes": list(self.notes),
            "coefficients": self.coefficients_frame().to_dict(orient="records"),
            "models": self.to_frame().to_dict(orient="records")})

    def __str__(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        width = max(5, max(len(m) for m in self.models)) + 2
        lines = [f"Style-controlled Bradley-Terry ratings of {len(self.models)} models from "
                 f"{self.n_battles:g} battles, controlling for {', '.join(self.features)}",
                 f"Elo scale: {ELO_PER_LOGIT:.1f} points per logit, {self.anchor_rule}; "
                 f"{level} sandwich intervals", ""]
        lines.append(f"{'rank':>4}  " + "model".ljust(width) + f"{'rating':>8}  "
                     f"{level + ' interval':>20}{'without':>9}{'rank':>6}{'change':>8}")
        for i in self.order:
            lines.append(f"{self.rank[i]:>4}  " + self.models[i].ljust(width)
                         + f"{self.ratings[i]:>8.1f}  "
                         + f"{f'[{self.rating_low[i]:.1f}, {self.rating_high[i]:.1f}]':>20}"
                         + f"{self.uncontrolled_ratings[i]:>9.1f}{self.uncontrolled_rank[i]:>6}"
                         + f"{self.rank_change[i]:>+8d}")
        lines += ["", "style coefficients (logits per sd of the normalised difference):"]
        for k, name in enumerate(self.features):
            lines.append(f"  {name}: {self.coefficients[k]:+.4f} "
                         f"[{self.coefficient_low[k]:+.4f}, {self.coefficient_high[k]:+.4f}]")
        lines += [f"note: {n}" for n in self.notes]
        return "\n".join(lines)
