"""Confidence sets for the ranks of k models (Mogstad, Romano, Shaikh & Wilhelm 2024).

Values only: the kernel :func:`outperform.stats.rank_sets` computes them; they pickle.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result

#: What the three kinds of interval promise, in the words the reports print.
KINDS = {
    "simultaneous": "simultaneous: all models' true ranks lie in their sets at once with "
                    "probability >= 1 - alpha (Mogstad et al. 2024)",
    "marginal": "marginal: each model's true rank lies in its own set with probability "
                ">= 1 - alpha (Mogstad et al. 2024)",
    "percentile": "percentile bootstrap of the rank: marginal and without a coverage "
                  "guarantee (ranks are not smooth functions of the means)",
}


@dataclass(frozen=True, eq=False, repr=False)
class RankSets(Result):
    """Rank confidence sets of k models from paired per-item (or per-task) scores.

    Ranks count from 1 = best, in the direction of the metric (``higher_is_better``); the
    rank of model j is 1 + the number of models with a strictly better true mean, so tied
    models share the best rank of their group, and a set is the integer interval
    ``[lower, upper]``.

    Attributes
    ----------
    names : tuple of str
        The k models, in the order of the input columns.
    estimate : ndarray, shape (k,)
        Mean score of each model over the items, in the metric's units.
    standard_error : ndarray, shape (k,)
        Its standard error: cluster-robust (Miller 2024 eq. 4 with the G/(G-1) factor) when
        clusters were given, else sd / sqrt(n).
    design_effect : ndarray, shape (k,)
        (cluster-robust / naive standard error)^2; all 1 without clusters.
    rank : ndarray of int, shape (k,)
        Rank of the estimates (1 + number of models with a strictly better mean).
    simultaneous, marginal, percentile : ndarray of int, shape (k, 2)
        Lower and upper end of each model's rank set: simultaneous and marginal sets of
        Mogstad et al. (2024), and the percentile bootstrap interval of the rank (see
        :data:`KINDS`).
    better : ndarray of bool, shape (k, k)
        ``better[i, j]``: model i is significantly better than model j in the simultaneous
        family (family-wise error rate <= alpha over all k (k - 1) ordered pairs).
    critical_value : float
        Bootstrap (1 - alpha)-quantile of the maximum studentised difference of the last
        step of the simultaneous procedure.
    alpha : float
    n_resamples : int
    n_items : int
        Rows of the score matrix (items, or tasks for a per-task table).
    n_clusters : int or None
        Clusters resampled (None when the items themselves were resampled).
    unit : str
        What was resampled: ``"item"``, ``"cluster"`` or ``"task"``.
    weights : str
        ``"multinomial"`` (the ordinary bootstrap) or ``"poisson"``.
    stepdown : bool
        Whether the stepwise (Romano–Wolf) improvement was applied.
    higher_is_better : bool
    """

    names: tuple[str, ...]
    estimate: np.ndarray
    standard_error: np.ndarray
    design_effect: np.ndarray
    rank: np.ndarray
    simultaneous: np.ndarray
    marginal: np.ndarray
    percentile: np.ndarray
    better: np.ndarray
    critical_value: float
    alpha: float
    n_resamples: int
    n_items: int
    n_clusters: int | None
    unit: str
    weights: str
    stepdown: bool
    higher_is_better: bool

    _repr_fields = ("names", "unit", "n_items", "n_clusters", "alpha", "weights")

    @property
    def confidence_level(self) -> float:
        return 1.0 - self.alpha

    @property
    def order(self) -> np.ndarray:
        """Model indices from best to worst estimate (stable for ties)."""
        key = -self.estimate if self.higher_is_better else self.estimate
        return np.argsort(key, kind="stable")

    def score_interval(self, confidence_level: float | None = None):
        """Normal interval ``estimate ± z · standard_error`` of each model's mean score.

        Returns
        -------
        (low, high) : two ndarrays of shape (k,)
        """
        level = self.confidence_level if confidence_level is None else confidence_level
        if not 0 < level < 1:
            raise ValueError(f"confidence_level must be in (0, 1), got {level!r}.")
        from scipy.special import ndtri     # on use: scipy.special costs ~0.3 s to import

        z = ndtri(0.5 + level / 2)
        return self.estimate - z * self.standard_error, self.estimate + z * self.standard_error

    def score_texts(self, order=None) -> list[str]:
        """"mean ± half-width of its confidence interval" of the models ``order`` (default:
        best estimate first), with one number of decimals for all: two significant digits
        of the typical (median) half-width, so the column lines up and no digit is noise."""
        order = self.order if order is None else np.asarray(order)
        low, high = self.score_interval()
        half = (high - low)[order] / 2
        typical = float(np.median(half[half > 0])) if (half > 0).any() else 1.0
        d = int(np.clip(1 - np.floor(np.log10(typical)), 0, 6))
        return [f"{self.estimate[j]:.{d}f} ± {h:.{d}f}" for j, h in zip(order, half)]

    def top_k(self, k: int, kind: str = "simultaneous") -> tuple[str, ...]:
        """Models whose rank set reaches rank ``k`` (lower end <= k), best estimate first.

        With ``kind="simultaneous"`` this set holds every model truly among the top k with
        probability >= 1 - alpha: the "tau-best" set of Mogstad et al. (2024) read off the
        two-sided sets (csranks' ``cstaubest`` uses one-sided lower bounds, a little tighter).
        """
        sets = self._sets(kind)
        if not 1 <= k <= len(self.names):
            raise ValueError(f"k must be in 1..{len(self.names)}, got {k!r}.")
        return tuple(self.names[j] for j in self.order if sets[j, 0] <= k)

    def tiers(self) -> np.ndarray:
        """Tier of each model (1 = top), read off the simultaneous procedure.

        A model's tier is 1 + the length of the longest chain of models significantly better
        than it (``better[i, j]``, the rejections that give the simultaneous rank sets, whose
        lower end is 1 + the number of models significantly better). So tier 1 holds exactly
        the models no model is significantly better than: the models that may be the best
        (:meth:`top_k` with k = 1); every model of tier t > 1 is significantly worse than a
        model of tier t − 1; and no two models of one tier differ significantly. All with
        family-wise error <= alpha over the pairs.

        Examples
        --------
        A is significantly better than B; C, the worst estimate but uncertain, differs from
        neither, so it may be the best: tier 1, beside A.

        >>> better = np.zeros((3, 3), bool); better[0, 1] = True
        >>> sets = np.array([[1, 2], [2, 3], [1, 3]])
        >>> rs = RankSets(("A", "B", "C"), np.array([3.0, 2.0, 1.0]), np.ones(3), np.ones(3),
        ...               np.array([1, 2, 3]), sets, sets, sets, better, 2.0, 0.05, 100, 10,
        ...               None, "item", "multinomial", True, True)
        >>> rs.tiers().tolist(), rs.top_k(1)
        ([1, 2, 1], ('A', 'C'))
        """
        tier = np.zeros(len(self.names), dtype=int)
        # better[i, j] implies i's estimate is better than j's: every model significantly
        # better than j comes before j in this walk (k vectorised steps).
        for j in self.order:
            above = self.better[:, j]
            tier[j] = 1 + (tier[above].max() if above.any() else 0)
        return tier

    def _sets(self, kind: str) -> np.ndarray:
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {tuple(KINDS)}, got {kind!r}.")
        return getattr(self, kind)

    def to_dict(self) -> dict:
        """JSON-safe dictionary: one entry per model, best first, and the settings."""
        low, high = self.score_interval()
        tiers = self.tiers()
        models = [{"model": self.names[j], "estimate": float(self.estimate[j]),
                   "standard_error": float(self.standard_error[j]),
                   "ci_low": float(low[j]), "ci_high": float(high[j]),
                   "design_effect": float(self.design_effect[j]), "rank": int(self.rank[j]),
                   "tier": int(tiers[j]),
                   **{kind: [int(v) for v in self._sets(kind)[j]] for kind in KINDS}}
                  for j in self.order]
        return {"models": models, "alpha": float(self.alpha),
                "critical_value": float(self.critical_value),
                "n_resamples": int(self.n_resamples), "n_items": int(self.n_items),
                "n_clusters": None if self.n_clusters is None else int(self.n_clusters),
                "unit": self.unit, "weights": self.weights, "stepdown": bool(self.stepdown),
                "higher_is_better": bool(self.higher_is_better)}

    def to_frame(self):
        """One row per model, best estimate first: estimate, its interval, rank, the three
        rank sets (``*_low``, ``*_high``) and the tier."""
        import pandas as pd

        low, high = self.score_interval()
        o = self.order
        cols = {"model": [self.names[j] for j in o], "estimate": self.estimate[o],
                "standard_error": self.standard_error[o], "ci_low": low[o], "ci_high": high[o],
                "rank": self.rank[o]}
        for kind in KINDS:
            sets = self._sets(kind)
            cols[f"{kind}_low"], cols[f"{kind}_high"] = sets[o, 0], sets[o, 1]
        cols["tier"] = self.tiers()[o]
        return pd.DataFrame(cols)

    def __str__(self) -> str:
        level = f"{100 * self.confidence_level:g}%"
        width = max(max(len(n) for n in self.names), 5) + 2
        unit = {"cluster": f"{self.n_clusters} clusters", "item": f"{self.n_items} items",
                "task": f"{self.n_items} tasks"}[self.unit]
        lines = [f"{level} rank confidence sets of {len(self.names)} models, {self.n_resamples} "
                 f"{self.weights} bootstrap resamples of {unit}",
                 "model".ljust(width) + f"{'mean':>10}{'rank':>6}{'simultaneous':>14}"
                 f"{'marginal':>11}{'percentile':>12}{'tier':>6}"]
        tiers = self.tiers()
        for j in self.order:
            sets = [f"[{a}, {b}]" for a, b in (self._sets(k)[j] for k in KINDS)]
            lines.append(self.names[j].ljust(width) + f"{self.estimate[j]:>10.4g}"
                         f"{self.rank[j]:>6}{sets[0]:>14}{sets[1]:>11}{sets[2]:>12}"
                         f"{tiers[j]:>6}")
        return "\n".join(lines)
