"""Orchestration by question (Williams 2026 Q1/Q2/Q3): picks the tests, returns one report."""
from .api import compare, infer_question
from .q3 import compare_many_tasks

__all__ = ["compare", "compare_many_tasks", "infer_question"]
