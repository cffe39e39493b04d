"""Orchestration by question (Williams 2026 Q1/Q2/Q3): picks the tests, returns one report."""
from ._guards import FALSE_DECISION_BOUND, MIN_DATA_SETS_TABLE, min_data_sets
from .api import compare, infer_question
from .hierarchical import compare_counts
from .q1 import compare_predictions
from .q2 import compare_one_task
from .q3 import compare_many_tasks

__all__ = ["FALSE_DECISION_BOUND", "MIN_DATA_SETS_TABLE", "compare", "compare_counts", "compare_many_tasks",
           "compare_one_task", "compare_predictions", "infer_question", "min_data_sets"]
