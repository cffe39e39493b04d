"""Frozen result objects returned by every procedure; they hold values, not computations."""
from .bayesian import DECISIONS, BayesianResult
from .frequentist import FrequentistResult
from .pairwise import PairwiseResult
from .report import SCHEMA_VERSION, ComparisonReport

__all__ = ["BayesianResult", "ComparisonReport", "DECISIONS", "FrequentistResult",
           "PairwiseResult", "SCHEMA_VERSION"]
