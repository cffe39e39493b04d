"""``compare()``: one entry point that picks the question and the tests from the data."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd

from .._validation import InvalidInputError
from ..data._files import read_columns
from ..data.io import read_results
from ..data.results_table import ResultsTable, ScoreMatrix
from ..data.schema import ALIASES, TASK
from ..results import ComparisonReport
from .hierarchical import add_hierarchical_ttest, compare_counts
from .q1 import compare_predictions
from .q2 import compare_one_task
from .q3 import compare_many_tasks
from .q3_bayes import add_bayesian_section

QUESTIONS = ("auto", "Q1", "Q2", "Q3")


def infer_question(table: ResultsTable) -> str:
    """Williams (2026) question answered by a results table.

    ``Q3`` when there are several tasks. (Q1 — per-example results on one test set — and Q2 —
    resampling folds on one task — are recognised by the ``example`` and ``fold`` columns.)
    """
    if len(table.tasks) > 1:
        return "Q3"
    if "example" in table.frame.columns:
        return "Q1"
    return "Q2"


def compare(data, *, question: str = "auto", metric: str | None = None,
            higher_is_better: bool | None = None, alpha: float = 0.05,
            control: str | None = None, posthoc: str = "auto",
            aggregate: str = "mean", rope: float | None = None, rho: float | None = None,
            threshold: float = 0.95, bayesian: bool = False,
            prior_strength: float | None = None, random_state=0, y_true: str = "y_true",
            loss: str = "zero-one", group: str | None = None,
            hierarchical: bool = False) -> ComparisonReport:
    """Compare models or algorithms and report decisions, effect sizes and warnings.

    Parameters
    ----------
    data : str, Path, DataFrame, ResultsTable or ScoreMatrix
        Results in the tidy schema (see :func:`outperform.data.read_results`) or a file of them.
    question : {"auto", "Q1", "Q2", "Q3"}
        Force the question; ``"auto"`` infers it from the columns: a ``y_true`` column means
        per-example predictions on one test set (Q1), folds on one task mean Q2, several tasks
        mean Q3.
    metric, higher_is_better :
        Which metric, and its direction when its name does not tell.
    alpha : float
        Significance level.
    control : str, optional
        A model to compare with every other one (e.g. the baseline).
    posthoc : str
        Post-hoc procedure for k >= 3 (see :func:`outperform.compare.q3.compare_many_tasks`).
    aggregate : {"mean", "median"}
        Rule that reduces the folds/runs of a (task, model) cell to one score for Q3.
    rope : float, optional
        Half-width of the region of practical equivalence in metric units (Bayesian tests).
    rho : float, optional
        Q2: correlation of fold differences (default from n_train/n_test, or 1/k).
    threshold : float
        Decision threshold of the Bayesian tests (Williams 2026 §5.2).
    bayesian : bool
        Q3: add the Bayesian signed-rank and sign tests (Benavoli et al. 2017) and, when folds
        are present, the Poisson test (Corani & Benavoli 2015).
    prior_strength : float, optional
        Q3 Bayesian: weight of the Dirichlet-process prior pseudo-observation.
    random_state : int or numpy Generator
        Seed of the Monte Carlo draws of the Bayesian tests.
    hierarchical : bool
        Q3 with per-fold results of two models: add the hierarchical correlated t-test
        (Benavoli et al. 2017). A table of per-task ``n01``/``n10`` counts is always analysed
        with the hierarchical McNemar model (Williams 2026 §5.5); its optional ``model_a`` and
        ``model_b`` columns name the two models (see
        :func:`outperform.compare.hierarchical.compare_counts`).
    y_true, loss, group :
        Q1 only, see :func:`outperform.compare.q1.compare_predictions` (``control`` is the
        reference model there).

    Returns
    -------
    ComparisonReport

    Raises
    ------
    InvalidInputError, TooFewError
        Bad or insufficient input (see :func:`read_results`).

    Examples
    --------
    >>> from outperform.data import load_demsar_table6
    >>> rep = compare(load_demsar_table6(), alpha=0.10)
    >>> [row["model"] for row in rep.summary]
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
    >>> round(rep.tests["iman_davenport"].statistic, 2)
    3.69
    """
    if question not in QUESTIONS:
        raise InvalidInputError(f"question must be one of {QUESTIONS}, got {question!r}.")
    if question == "auto" and _has_column(data, y_true) and _task_column(data):
        raise InvalidInputError(
            f"the table has a {y_true!r} column, read as the true labels of per-example "
            f"predictions (one task), and a {_task_column(data)!r} column, read as data sets: if "
            f"{y_true!r} names a model, rename that column; for predictions, drop the "
            f"{_task_column(data)!r} column.")
    if question == "Q1" or (question == "auto" and _has_column(data, y_true)):
        return compare_predictions(data, y_true=y_true, loss=loss, reference=control, group=group,
                                   rope=rope, alpha=alpha, threshold=threshold)
    if _has_column(data, "n01") and _has_column(data, "n10"):
        return compare_counts(data, alpha=alpha, threshold=threshold)
    if isinstance(data, ScoreMatrix):
        scores = data
    else:
        table = read_results(data, metric=metric, higher_is_better=higher_is_better)
        q = infer_question(table) if question == "auto" else question
        if q == "Q1":
            raise InvalidInputError(
                "these results hold per-example values of one task (Q1) but no true labels: "
                f"add a {y_true!r} column, or use compare_predictions(..., loss='given').")
        if q == "Q2":
            report = compare_one_task(table, metric=metric, alpha=alpha, rope=rope, rho=rho,
                                      threshold=threshold, control=control)
            return _with_assumed_direction(report, table)
        scores = table.score_matrix(metric, aggregate=aggregate)
    report = compare_many_tasks(scores, alpha=alpha, control=control, posthoc=posthoc)
    if bayesian:
        report = add_bayesian_section(
            report, scores, None if isinstance(data, ScoreMatrix) else table, rope=rope,
            prior_strength=prior_strength, threshold=threshold, random_state=random_state)
    if hierarchical:
        if isinstance(data, ScoreMatrix):
            raise InvalidInputError("the hierarchical t-test needs the per-fold results, not "
                                    "one score per cell.")
        report = add_hierarchical_ttest(report, table, rope=rope, threshold=threshold,
                                        random_state=random_state)
    return report if isinstance(data, ScoreMatrix) else _with_assumed_direction(report, table)


def _columns(data) -> tuple:
    if isinstance(data, pd.DataFrame):
        return tuple(data.columns)
    if isinstance(data, (str, Path)) and Path(data).is_file():
        return read_columns(data)  # the header only: a large file is read once, later
    return ()


def _has_column(data, column: str) -> bool:
    return column in _columns(data)


def _task_column(data) -> str | None:
    """The column naming the data sets (``task`` or an alias such as ``dataset``), if any."""
    return next((c for c in _columns(data) if str(c).strip().lower() in (TASK,) or
                 ALIASES.get(str(c).strip().lower()) == TASK), None)


def _with_assumed_direction(report: ComparisonReport, table: ResultsTable) -> ComparisonReport:
    if not table.direction_assumed:
        return report
    message = (f"the direction of metric(s) {list(table.direction_assumed)} is unknown and was "
               "assumed higher-is-better; pass higher_is_better=False (--lower-is-better) if "
               "lower is better.")
    return replace(report, warnings=report.warnings + (message,))
