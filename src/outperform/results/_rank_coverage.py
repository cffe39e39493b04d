"""Coverage of rank confidence sets in simulation (values only; they pickle)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result
from ._rank_sets import KINDS


@dataclass(frozen=True, eq=False, repr=False)
class RankSetCoverage(Result):
    """How often rank sets held the true ranks over simulated benchmarks with known means.

    Attributes
    ----------
    means : ndarray, shape (k,)
        True mean score of each model (higher is better); equal means tie.
    true_ranks : ndarray of int, shape (k, 2)
        The ranks each model truly may take: from 1 + #{strictly better} to
        k - #{strictly worse} (one rank without ties, the whole range of a tied group).
    covered : dict of str -> ndarray of bool, shape (n_replications, k)
        Per kind of set (simultaneous, marginal, percentile), whether the set of each model
        contained its true ranks in each replication.
    sizes : dict of str -> ndarray of int, shape (n_replications, k)
        Number of ranks in each set (upper - lower + 1).
    n_items, n_resamples : int
    alpha : float
    design : str
        The data-generating process, in words.
    """

    means: np.ndarray
    true_ranks: np.ndarray
    covered: dict
    sizes: dict
    n_items: int
    n_resamples: int
    alpha: float
    design: str

    _repr_fields = ("design", "n_items", "n_resamples", "alpha")

    @property
    def n_replications(self) -> int:
        return int(next(iter(self.covered.values())).shape[0])

    def coverage(self, kind: str = "simultaneous") -> float:
        """Fraction of replications where every model's set held its true ranks (joint)."""
        return float(self.covered[kind].all(axis=1).mean())

    def marginal_coverage(self, kind: str = "marginal") -> np.ndarray:
        """Per model, the fraction of replications where its set held its true ranks."""
        return self.covered[kind].mean(axis=0)

    def monte_carlo_error(self, kind: str = "simultaneous") -> float:
        """Standard error of :meth:`coverage`, sqrt(p (1 - p) / n_replications)."""
        p = self.coverage(kind)
        return float(np.sqrt(p * (1 - p) / self.n_replications))

    def to_frame(self):
        """One row per kind of set: joint coverage, its Monte Carlo error, the lowest
        per-model coverage and the mean number of ranks in a set."""
        import pandas as pd

        return pd.DataFrame([{"kind": kind, "joint_coverage": self.coverage(kind),
                              "monte_carlo_error": self.monte_carlo_error(kind),
                              "lowest_model_coverage": float(self.marginal_coverage(kind).min()),
                              "mean_set_size": float(self.sizes[kind].mean())}
                             for kind in KINDS if kind in self.covered])

    def to_dict(self) -> dict:
        return {"means": self.means.tolist(), "true_ranks": self.true_ranks.tolist(),
                "n_items": int(self.n_items), "n_resamples": int(self.n_resamples),
                "n_replications": self.n_replications, "alpha": float(self.alpha),
                "design": self.design, "kinds": self.to_frame().to_dict(orient="records")}

    def __str__(self) -> str:
        level = f"{100 * (1 - self.alpha):g}%"
        lines = [f"coverage of {level} rank sets, {self.n_replications} replications of "
                 f"{len(self.means)} models x {self.n_items} items ({self.design}), "
                 f"{self.n_resamples} resamples each",
                 f"{'kind':<14}{'joint coverage':>22}{'worst model':>13}{'mean size':>11}"]
        for kind in KINDS:
            if kind in self.covered:
                lines.append(f"{kind:<14}{self.coverage(kind):>13.3f} ± "
                             f"{self.monte_carlo_error(kind):.3f}   "
                             f"{self.marginal_coverage(kind).min():>10.3f}"
                             f"{self.sizes[kind].mean():>11.2f}")
        lines.append("(± one Monte Carlo standard error; a set covers when it holds every "
                     "rank its model truly may take)")
        return "\n".join(lines)
