"""Confidence intervals stored as the numbers they need, so results pickle.

A result keeps what its interval needs (as scipy's ``TtestResult`` keeps ``_standard_error``
and ``_dof``) instead of a closure; ``FrequentistResult.confidence_interval(level)`` calls it.
"""
from __future__ import annotations

from dataclasses import dataclass


from ._base import Result


def _one_sided(low_or_high: str, centre: float, half: float, bound: float):
    return (centre - half, bound) if low_or_high == "greater" else (-bound, centre + half)


@dataclass(frozen=True)
class LocationInterval(Result):
    """centre ± quantile × scale, from a Student t (``df``) or, with ``df=None``, a normal.

    One-sided alternatives give one-sided bounds (scipy.stats.ttest_rel's convention);
    ``bound`` is the open end (inf, or 1 for a difference of AUCs).
    """

    centre: float
    scale: float
    alternative: str = "two-sided"
    df: float | None = None
    bound: float = float("inf")

    def _quantile(self, q: float) -> float:
        from scipy import special     # on use: scipy.special costs ~0.3 s to import

        return float(special.stdtrit(self.df, q) if self.df is not None else special.ndtri(q))

    def __call__(self, level: float) -> tuple[float, float]:
        if self.alternative == "two-sided":
            half = self._quantile(0.5 + level / 2) * self.scale
            return (float(self.centre - half), float(self.centre + half))
        half = self._quantile(level) * self.scale
        return tuple(float(v) for v in _one_sided(self.alternative, self.centre, half, self.bound))


@dataclass(frozen=True)
class BinomialInterval(Result):
    """Clopper–Pearson interval of a proportion k / n (scipy's ``binomtest(...).proportion_ci``).

    ``alternative`` is binomtest's, about the proportion.
    """

    k: int
    n: int
    alternative: str = "two-sided"

    def __call__(self, level: float) -> tuple[float, float]:
        from scipy import stats   # on use: importing scipy.stats costs about a second

        ci = stats.binomtest(self.k, self.n, 0.5, alternative=self.alternative).proportion_ci(
            level, "exact")
        return (float(ci.low), float(ci.high))


@dataclass(frozen=True)
class PointInterval(Result):
    """A degenerate interval [value, value] at every level (e.g. identical predictions)."""

    value: float

    def __call__(self, level: float) -> tuple[float, float]:
        return (self.value, self.value)
