"""Orchestration by question (Williams 2026 Q1/Q2/Q3): picks the tests, returns one report.

The package is itself callable: ``outperform.compare(data, ...)`` is
:func:`outperform.compare.compare`, and ``import outperform.compare as oc`` still gives the
package with every function below (a function no longer shadows its package).
"""
import sys
import types

from ._api import compare, infer_question
from ._evals import compare_evals
from ._guards import FALSE_DECISION_BOUND, MIN_DATA_SETS_TABLE, min_data_sets
from ._hierarchical import compare_counts
from ._leaderboard import leaderboard
from ._q1 import compare_predictions
from ._q2 import compare_one_task
from ._q3 import compare_many_tasks
from ._ratings import bradley_terry, plackett_luce
from ._curves import sample_efficiency
from ._runs import compare_runs
from ._variance import variance_components

__all__ = ["FALSE_DECISION_BOUND", "MIN_DATA_SETS_TABLE", "compare", "compare_counts",
           "compare_many_tasks", "compare_one_task", "compare_runs", "compare_predictions",
           "infer_question", "leaderboard",
           "min_data_sets", "variance_components",
           "compare_evals",
           "bradley_terry", "plackett_luce",
           "sample_efficiency"]


class _CallablePackage(types.ModuleType):
    """Module type whose call is :func:`compare` (PEP 549-style module ``__class__``)."""

    def __call__(self, *args, **kwargs):
        return compare(*args, **kwargs)


sys.modules[__name__].__class__ = _CallablePackage
