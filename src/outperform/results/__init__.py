"""Frozen result objects returned by every procedure; they hold values, not computations."""
from .bayesian import DECISIONS, BayesianResult
from .frequentist import FrequentistResult
from .pairwise import PairwiseResult

__all__ = ["BayesianResult", "DECISIONS", "FrequentistResult", "PairwiseResult"]
