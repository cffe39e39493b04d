"""Frozen result objects returned by every procedure; they hold values, not computations."""
from .._lazy import lazy_exports

#: public name -> private module that defines it; imported on first use (PEP 562), so that
#: importing the package (and ``outperform --help``) does not load every kernel's
#: dependencies (scipy.stats, pandas) before a command needs them.
_WHERE = {
    "DECISIONS": "._bayesian",
    "BayesianResult": "._bayesian",
    "ClusteredMean": "._clustered",
    "ComparisonWithBest": "._best",
    "EvalComparison": "._evals",
    "GateResult": "._gate",
    "GateTask": "._gate",
    "Agreement": "._judges",
    "JudgeCorrection": "._judges",
    "FrequentistResult": "._frequentist",
    "BinomialInterval": "._intervals",
    "LocationInterval": "._intervals",
    "PointInterval": "._intervals",
    "ItemDiagnostics": "._items",
    "Leaderboard": "._leaderboard",
    "PairwiseResult": "._pairwise",
    "RankSetCoverage": "._rank_coverage",
    "RankSets": "._rank_sets",
    "IntervalEstimate": "._runs",
    "PerformanceProfile": "._runs",
    "RunsComparison": "._runs",
    "VarianceComponents": "._runs",
    "SCHEMA_VERSION": "._report",
    "ComparisonReport": "._report",
    "SampleEfficiency": "._curves",
    "TaskTable": "._task_table",
    "BradleyTerryResult": "._ratings",
    "StyleControlResult": "._style",
    "PlackettLuceResult": "._ratings",
    "ConfidenceSequence": "._sequential",
    "Race": "._sequential",
    "SequentialComparison": "._sequential",
    "SequentialGateResult": "._gate_sequential",
    "SequentialGateTask": "._gate_sequential",
    "ModelConfidenceSet": "._mcs",
    "AlmostStochasticOrder": "._aso",
    "Replicability": "._replicability",
}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())

__all__ = ["BayesianResult", "ClusteredMean", "ComparisonWithBest", "BinomialInterval", "ComparisonReport", "DECISIONS", "FrequentistResult",
           "ItemDiagnostics", "LocationInterval", "PointInterval",
           "Leaderboard", "PairwiseResult", "RankSetCoverage", "RankSets", "SCHEMA_VERSION",
           "IntervalEstimate", "PerformanceProfile", "RunsComparison",
           "VarianceComponents", "EvalComparison", "GateResult", "GateTask", "Agreement",
           "JudgeCorrection",
    "BradleyTerryResult", "StyleControlResult", "PlackettLuceResult", "SampleEfficiency", "TaskTable",
    "ConfidenceSequence", "Race", "SequentialComparison",
    "SequentialGateResult", "SequentialGateTask",
    "ModelConfidenceSet", "AlmostStochasticOrder", "Replicability",
]
