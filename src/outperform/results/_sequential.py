"""Results of sequential (anytime-valid) evaluation: confidence sequences and their decisions."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result


@dataclass(frozen=True, repr=False)
class ConfidenceSequence(Result):
    """An anytime-valid confidence sequence: one interval after every observation.

    Attributes
    ----------
    lower, upper : ndarray, shape (n,)
        The interval for the mean after observations 1..t (index t − 1), on the scale of
        ``bounds``; all n intervals cover the mean at once with probability ≥ 1 − alpha.
    alpha : float
    bounds : (float, float)
        The known bounds of one observation.
    grid : int
        Candidate means searched; the bounds are conservative by at most one grid step.
    population : int or None
        N for sampling without replacement from N items (the target is their mean).
    running_intersection : bool
    method : str
    """

    lower: np.ndarray
    upper: np.ndarray
    alpha: float
    bounds: tuple[float, float]
    grid: int
    population: int | None
    running_intersection: bool
    method: str = "betting confidence sequence (Waudby-Smith & Ramdas 2024)"

    _repr_fields = ("n", "interval", "alpha", "population")

    @property
    def n(self) -> int:
        """Number of observations (looks)."""
        return int(self.lower.size)

    @property
    def interval(self) -> tuple[float, float] | None:
        """The latest interval, or None before the first observation."""
        if not self.n:
            return None
        return float(self.lower[-1]), float(self.upper[-1])

    def first_excluding(self, value: float) -> int:
        """First look (1-based) whose interval excludes ``value``; 0 if none does."""
        out = (self.lower > value) | (self.upper < value)
        return int(np.argmax(out)) + 1 if out.any() else 0


@dataclass(frozen=True, repr=False)
class SequentialComparison(Result):
    """A paired comparison monitored after every item, with a decision valid at every look.

    Attributes
    ----------
    baseline, candidate : str
        Names of the two runs; the difference is ``candidate − baseline`` in the direction of
        the metric (positive = the candidate is better).
    sequence : ConfidenceSequence
        The confidence sequence of the mean paired difference.
    margin : float
        The non-inferiority margin (≥ 0, units of the score); 0 for superiority only.
    decisions : ndarray of str, shape (n,)
        The decision after each look: "superior" (lower bound > 0), "non-inferior" (lower
        bound > −margin, margin > 0), "regression" (upper bound < −margin, or < 0 with no
        margin), else "continue".
    decision : str
        The first decision other than "continue", or "continue" if none was reached.
    stopped_at : int
        The look at which the decision was reached (1-based); 0 when it was not.
    n_items : int
    """

    baseline: str
    candidate: str
    sequence: ConfidenceSequence
    margin: float
    decisions: np.ndarray
    decision: str
    stopped_at: int
    n_items: int

    _repr_fields = ("candidate", "baseline", "decision", "stopped_at", "n_items", "margin")

    @property
    def interval(self) -> tuple[float, float] | None:
        """The interval at the stopping look (or the last look when no decision was reached)."""
        if not self.n_items:
            return None
        at = (self.stopped_at or self.n_items) - 1
        return float(self.sequence.lower[at]), float(self.sequence.upper[at])


@dataclass(frozen=True, repr=False)
class Race(Result):
    """Several candidates on the same items, each dropped once it cannot be the best.

    Attributes
    ----------
    models : tuple of str
    dropped_at : ndarray of int, shape (k,)
        The look at which each model was dropped (0 = never): the first look at which the
        confidence sequence of some other model's mean paired difference over it lies above 0.
    dropped_by : tuple of (str or None)
        The model whose sequence dropped it.
    survivors : tuple of str
        The models not dropped: together they contain the best with probability ≥ 1 − alpha.
    alpha : float
        Family-wise over all pairs and all looks (Bonferroni over the k(k − 1)/2 pairs).
    n_items : int
    """

    models: tuple[str, ...]
    dropped_at: np.ndarray
    dropped_by: tuple
    survivors: tuple[str, ...]
    alpha: float
    n_items: int

    _repr_fields = ("survivors", "n_items", "alpha")
