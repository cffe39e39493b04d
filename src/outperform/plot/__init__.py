"""Figures of the comparisons, drawn with matplotlib.

Every function draws on ``ax=`` (a new figure when omitted) and returns the Axes. The names are
resolved on first use (PEP 562 module ``__getattr__``), so ``import outperform`` and
``import outperform.plot`` do not import matplotlib; ``from outperform.plot import cd_diagram``
does.
"""
from __future__ import annotations

import importlib

#: public name -> private module that defines it
_WHERE = {
    "plot_bradley_terry": "_bradley_terry",
    "plot_rank_changes": "_style_control",
    "cd_diagram": "_cd_diagram",
    "cd_diagram_from_result": "_cd_diagram",
    "save_figure": "_cd_diagram",
    "plot_cv_differences": "_cv_differences",
    "plot_hierarchical_posterior": "_hierarchical",
    "plot_shrinkage": "_hierarchical",
    "plot_ab_posterior": "_hierarchical",
    "plot_phi_next": "_hierarchical",
    "plot_pairwise_heatmap": "_pairwise_heatmap",
    "plot_poisson_binomial": "_poisson_binomial",
    "plot_posterior": "_posterior",
    "plot_differences": "_posterior",
    "qq_plot": "_qq",
    "plot_rank_set_coverage": "_rank_coverage",
    "plot_interval_estimates": "_runs",
    "plot_performance_profiles": "_runs",
    "plot_probability_of_improvement": "_runs",
    "plot_run_aggregates": "_runs",
    "plot_variance_components": "_runs",
    "plot_sample_efficiency": "_runs",
    "plot_simplex": "_simplex",
    "plot_auc_curves": "_simulation",
    "plot_power_curves": "_simulation",
    "plot_replicability": "_simulation",
    "plot_student_posterior": "_student_posterior",
    "plot_rank_sets": "_rank_sets",
    "plot_comparison_matrix": "_comparison_matrix",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
        globals()[name] = value   # later lookups skip this hook
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
