"""Result of a mean (or mean paired difference) with a cluster-robust standard error."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result


@dataclass(frozen=True, repr=False)
class ClusteredMean(Result):
    """Means of m columns over n items, with naive and cluster-robust standard errors.

    Attributes
    ----------
    mean, standard_error, naive_standard_error, design_effect : ndarray, shape (m,)
        Column means, their cluster-robust standard errors, the standard errors that
        treat items as independent (sd / sqrt(n), ddof = 1), and the design effect
        ``(standard_error / naive_standard_error) ** 2`` (1 = clustering costs nothing).
    n_items, n_clusters : int
    small_sample : bool
        Whether the G / (G − 1) factor was applied (see
        :func:`outperform.stats.clustered_mean`).
    """

    mean: np.ndarray
    standard_error: np.ndarray
    naive_standard_error: np.ndarray
    design_effect: np.ndarray
    n_items: int
    n_clusters: int
    small_sample: bool

    _repr_fields = ("mean", "standard_error", "n_items", "n_clusters", "small_sample")

    def confidence_interval(self, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
        """Normal-approximation interval ``mean ± z · standard_error``, arrays of shape (m,).

        The normal quantile is statsmodels' choice for cluster-robust OLS (``use_t=False``)
        and Miller's (2024, eq. 4).
        """
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level!r}.")
        from scipy.special import ndtri     # on use: scipy.special costs ~0.3 s to import

        z = ndtri(0.5 + level / 2)
        return self.mean - z * self.standard_error, self.mean + z * self.standard_error
