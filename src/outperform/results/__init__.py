"""Frozen result objects returned by every procedure; they hold values, not computations."""
from ._bayesian import DECISIONS, BayesianResult
from ._clustered import ClusteredMean
from ._curves import SampleEfficiency
from ._frequentist import FrequentistResult
from ._intervals import BinomialInterval, LocationInterval, PointInterval
from ._pairwise import PairwiseResult
from ._runs import (IntervalEstimate, PerformanceProfile, RunsComparison,
                    VarianceComponents)
from ._report import SCHEMA_VERSION, ComparisonReport

__all__ = ["BayesianResult", "ClusteredMean", "BinomialInterval", "ComparisonReport", "DECISIONS", "FrequentistResult",
           "LocationInterval", "PointInterval",
           "PairwiseResult", "SCHEMA_VERSION",
           "IntervalEstimate", "PerformanceProfile", "RunsComparison",
           "VarianceComponents", "SampleEfficiency"]
