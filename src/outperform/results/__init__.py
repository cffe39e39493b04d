"""Frozen result objects returned by every procedure; they hold values, not computations."""
from ._bayesian import DECISIONS, BayesianResult
from ._frequentist import FrequentistResult
from ._pairwise import PairwiseResult
from ._report import SCHEMA_VERSION, ComparisonReport

__all__ = ["BayesianResult", "ComparisonReport", "DECISIONS", "FrequentistResult",
           "PairwiseResult", "SCHEMA_VERSION"]
