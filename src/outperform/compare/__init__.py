"""Orchestration by question (Williams 2026 Q1/Q2/Q3): picks the tests, returns one report.

The package is itself callable: ``outperform.compare(data, ...)`` is
:func:`outperform.compare.compare`, and ``import outperform.compare as oc`` still gives the
package with every function below (a function no longer shadows its package).
"""
import sys
import types

from .._lazy import lazy_exports

#: public name -> private module that defines it; imported on first use (PEP 562), so that
#: importing the package (and ``outperform --help``) does not load every kernel's
#: dependencies (scipy.stats, pandas) before a command needs them.
_WHERE = {
    "compare": "._api",
    "infer_question": "._api",
    "compare_evals": "._evals",
    "gate": "._gate",
    "save_baseline": "._gate_inputs",
    "load_baseline": "._gate_inputs",
    "FALSE_DECISION_BOUND": "._guards",
    "MIN_DATA_SETS_TABLE": "._guards",
    "min_data_sets": "._guards",
    "compare_counts": "._hierarchical",
    "item_diagnostics": "._items",
    "leaderboard": "._leaderboard",
    "compare_predictions": "._q1",
    "compare_one_task": "._q2",
    "compare_many_tasks": "._q3",
    "compare_runs": "._runs",
    "compare_aso": "._aso",
    "variance_components": "._variance",
    "bradley_terry": "._ratings",
    "bradley_terry_style": "._style_control",
    "plackett_luce": "._ratings",
    "sample_efficiency": "._curves",
    "task_table": "._table_marks",
    "Procedure": "._registry",
    "procedure": "._registry",
    "procedures": "._registry",
    "posthoc_help": "._registry",
    "SequentialGate": "._sequential",
    "race": "._sequential",
    "sequential_compare": "._sequential",
    "sequential_gate": "._gate_sequential",
}


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())

__all__ = ["FALSE_DECISION_BOUND", "MIN_DATA_SETS_TABLE", "compare", "compare_counts",
           "compare_many_tasks", "compare_one_task", "compare_runs", "compare_aso", "compare_predictions",
           "infer_question", "item_diagnostics", "leaderboard",
           "min_data_sets", "variance_components",
           "compare_evals", "gate", "save_baseline", "load_baseline",
    "bradley_terry", "bradley_terry_style", "plackett_luce", "sample_efficiency", "task_table",
    "Procedure", "procedure", "procedures", "posthoc_help",
    "SequentialGate", "race", "sequential_compare", "sequential_gate",
]


_PACKAGE_DOC = __doc__


class _CallablePackage(types.ModuleType):
    """Module type whose call is :func:`compare` (PEP 549-style module ``__class__``).

    ``inspect.signature(outperform.compare)`` is the signature of :func:`compare` and
    ``help(outperform.compare)`` starts with its signature and docstring, then lists the
    package; both import the implementation on first use only (``import outperform`` stays
    light).
    """

    def __call__(self, *args, **kwargs):
        return __getattr__("compare")(*args, **kwargs)

    @property
    def __signature__(self):
        import inspect

        return inspect.signature(__getattr__("compare"))

    @property
    def __doc__(self):
        import inspect

        function = __getattr__("compare")
        return (f"compare{inspect.signature(function)}\n\n{inspect.getdoc(function)}\n\n"
                f"Package outperform.compare\n{'-' * 26}\n{inspect.cleandoc(_PACKAGE_DOC)}")


sys.modules[__name__].__class__ = _CallablePackage
