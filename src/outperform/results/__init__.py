"""Frozen result objects returned by every procedure; they hold values, not computations."""
from ._bayesian import DECISIONS, BayesianResult
from ._clustered import ClusteredMean
from ._evals import EvalComparison
from ._curves import SampleEfficiency
from ._frequentist import FrequentistResult
from ._intervals import BinomialInterval, LocationInterval, PointInterval
from ._leaderboard import Leaderboard
from ._pairwise import PairwiseResult
from ._rank_coverage import RankSetCoverage
from ._rank_sets import RankSets
from ._ratings import BradleyTerryResult, PlackettLuceResult
from ._runs import (IntervalEstimate, PerformanceProfile, RunsComparison,
                    VarianceComponents)
from ._report import SCHEMA_VERSION, ComparisonReport

__all__ = ["BayesianResult", "ClusteredMean", "BinomialInterval", "ComparisonReport", "DECISIONS", "FrequentistResult",
           "LocationInterval", "PointInterval",
           "Leaderboard", "PairwiseResult", "RankSetCoverage", "RankSets", "SCHEMA_VERSION",
           "IntervalEstimate", "PerformanceProfile", "RunsComparison",
           "VarianceComponents", "EvalComparison",
           "BradleyTerryResult", "PlackettLuceResult",
           "SampleEfficiency"]
