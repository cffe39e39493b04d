"""Almost stochastic order of k models over runs (Dror et al. 2019): values only.

The kernels :func:`outperform.stats.aso` and :func:`outperform.stats.multi_aso` compute it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result


@dataclass(frozen=True, eq=False, repr=False)
class AlmostStochasticOrder(Result):
    """ε_min of every ordered pair of models, and the almost-stochastic-dominance decisions.

    Attributes
    ----------
    names : tuple of str
    eps_min : ndarray, shape (k, k)
        ``eps_min[i, j]``: upper confidence bound (1 − alpha / n_comparisons) of the
        violation ratio of model i over model j; below ``tau``, i is almost stochastically
        larger (better) than j. Diagonal NaN.
    violation_ratio : ndarray, shape (k, k)
        The estimate ε_W2 of the empirical distributions; ``v[i, j] + v[j, i] = 1``.
    sigma : ndarray, shape (k, k)
        Bootstrap σ̂ of each pair (symmetric).
    n_runs : ndarray of int, shape (k,)
        Runs (seeds) of each model.
    alpha : float
        Level before the Bonferroni division.
    n_comparisons : int
        Divisor of alpha (1: none).
    tau : float
        Decision threshold on ε_min.
    n_resamples : int
    higher_is_better : bool
        Whether the scores were taken as they are (True) or negated (losses).
    task : str or None
        The task the runs are from (None: one sample or runs pooled over tasks).
    """

    names: tuple[str, ...]
    eps_min: np.ndarray
    violation_ratio: np.ndarray
    sigma: np.ndarray
    n_runs: np.ndarray
    alpha: float
    n_comparisons: int
    tau: float
    n_resamples: int
    higher_is_better: bool
    task: str | None = None

    _repr_fields = ("names", "task", "tau", "alpha")

    @property
    def epsilon_min(self) -> float:
        """ε_min of the first model over the second (the two-model form)."""
        return float(self.eps_min[0, 1])

    @property
    def dominates(self) -> np.ndarray:
        """``dominates[i, j]``: ε_min(i, j) < tau, i almost stochastically larger than j."""
        with np.errstate(invalid="ignore"):
            return np.nan_to_num(self.eps_min, nan=1.0) < self.tau

    @property
    def level(self) -> float:
        """The confidence level of each bound: 1 − alpha / n_comparisons."""
        return 1.0 - self.alpha / self.n_comparisons

    def pairs(self) -> list[tuple[int, int]]:
        """(i, j) of every unordered pair, i < j."""
        i, j = np.triu_indices(len(self.names), 1)
        return list(zip(i.tolist(), j.tolist()))

    def to_dict(self) -> dict:
        def num(x):
            return None if not np.isfinite(x) else float(x)
        return {"method": "almost stochastic order", "task": self.task, "alpha": self.alpha,
                "n_comparisons": self.n_comparisons, "tau": self.tau,
                "n_resamples": self.n_resamples, "higher_is_better": self.higher_is_better,
                "models": [{"model": m, "n_runs": int(n)}
                           for m, n in zip(self.names, self.n_runs)],
                "pairs": [{"a": self.names[i], "b": self.names[j],
                           "eps_min_ab": num(self.eps_min[i, j]),
                           "eps_min_ba": num(self.eps_min[j, i]),
                           "violation_ratio_ab": num(self.violation_ratio[i, j]),
                           "sigma": num(self.sigma[i, j])} for i, j in self.pairs()]}

    def to_frame(self):
        """One row per ordered pair (a, b): ε_min, violation ratio, a dominates b."""
        import pandas as pd

        rows = [{"task": self.task, "a": self.names[i], "b": self.names[j],
                 "eps_min": self.eps_min[i, j], "violation_ratio": self.violation_ratio[i, j],
                 "dominates": bool(self.dominates[i, j])}
                for i in range(len(self.names)) for j in range(len(self.names)) if i != j]
        return pd.DataFrame(rows)
