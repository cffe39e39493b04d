"""What ``compare()`` does with its options around the analysis: their types checked before
any work, a warning for each option the analysis run did not use, and the warning when the
metric's direction was assumed (split from :mod:`._api`)."""
from __future__ import annotations

import inspect
from dataclasses import replace

from .._validation import check_alpha, check_flag, check_number, check_text
from ..data._results_table import ResultsTable
from ..results import ComparisonReport


def check_option_types(**options) -> None:
    """Raise InvalidInputError for an option of the wrong type (``alpha="0.05"``,
    ``higher_is_better="no"``), before any work: Python would read "no" as true."""
    check_alpha(options.pop("alpha"))
    for name in ("higher_is_better",):
        check_flag(options.pop(name), name, optional=True)
    for name in ("bayesian", "hierarchical", "progress"):
        check_flag(options.pop(name), name)
    for name in ("rope", "rho"):
        check_number(options.pop(name), name, optional=True)
    for name in ("aggregate", "y_true", "loss"):
        check_text(options.pop(name), name)
    for name, value in options.items():
        check_text(value, name, optional=True)


def with_assumed_direction(report: ComparisonReport, table: ResultsTable) -> ComparisonReport:
    """Warn first, as the ranking depends on it, when the metric's direction was assumed."""
    if table.warnings:
        report = replace(report, warnings=tuple(w for w in table.warnings
                                                if w not in report.warnings) + report.warnings)
    if not table.direction_assumed:
        return report
    what = (f"metric(s) {list(table.direction_assumed)} (not a name of the known metrics, "
            "such as accuracy or error_rate)")
    if table.direction_assumed == ("score",):  # "score" is known, unless a wide table's
        what = "the values of this wide table (they have no metric name)"
    message = (f"DIRECTION: the direction of {what} is unknown and was assumed "
               "higher-is-better; if these are errors or losses the ranking is reversed: pass "
               "higher_is_better=False (--lower-is-better), or higher_is_better=True "
               "(--higher-is-better) to confirm.")
    return replace(report, warnings=(message,) + report.warnings)


# Options of compare() that only some questions use, with the routes that use them ("Q3
# bayesian" / "Q3 hierarchical": Q3 with those flags). alpha and threshold apply everywhere
# (threshold in Q3 only with the Bayesian or hierarchical tests).
_USED_BY = {
    "metric": ("Q2", "Q3"), "higher_is_better": ("Q2", "Q3"), "control": ("Q1", "Q2", "Q3"),
    "posthoc": ("Q3",), "aggregate": ("Q3",), "rope": ("Q1", "Q2", "bayesian", "hierarchical"),
    "threshold": ("Q1", "Q2", "counts", "bayesian", "hierarchical"), "rho": ("Q2",),
    "prior_strength": ("bayesian",), "random_state": ("Q1", "Q3", "bayesian", "hierarchical"),
    "y_true": ("Q1",), "loss": ("Q1",), "cluster": ("Q1",), "hierarchical": ("Q3", "counts"),
    "omnibus": ("Q3",), "n_train": ("Q2",), "n_test": ("Q2",), "pairs": ("Q1", "Q3"),
}
_ROUTES = {"Q1": "Q1 (predictors on one test set, per-example predictions)",
           "counts": "per-task discordance counts (the hierarchical McNemar test)",
           "Q2": "Q2 (algorithms on one task, resampling folds)",
           "Q3": "Q3 (algorithms over many data sets)"}
_HINTS = {"bayesian": "it is used by the Bayesian tests over data sets, which bayesian=True "
                      "(--bayesian) adds",
          "hierarchical": "it is used by the hierarchical t-test, which hierarchical=True "
                          "(--hierarchical) adds"}


def given_options(function, **options) -> dict:
    """The options of ``function`` (compare) set to something other than their default."""
    defaults = {name: p.default for name, p in inspect.signature(function).parameters.items()}
    return {k: v for k, v in options.items()
            if not (v is defaults[k] or (type(v) is type(defaults[k]) and v == defaults[k]))}


def with_ignored_options(report: ComparisonReport, route: str, given: dict
                          ) -> ComparisonReport:
    """Warn about each option given that the analysis run (``route``) did not use."""
    kind, *flags = route.split()
    messages = []
    for name, value in given.items():
        users = _USED_BY[name]
        if kind in users or any(f in users for f in flags):
            continue
        hint = next((_HINTS[u] for u in users if kind == "Q3" and u in _HINTS), None)
        messages.append(f"option {name}={value!r} does not apply to {_ROUTES[kind]} and was "
                        "ignored" + (f": {hint}." if hint else "."))
    if not messages:
        return report
    return replace(report, warnings=report.warnings + tuple(messages))
