"""``compare()``: one entry point that picks the question and the tests from the data."""
from __future__ import annotations

from .._validation import InvalidInputError
from ..data.io import read_results
from ..data.results_table import ResultsTable, ScoreMatrix
from ..results import ComparisonReport
from .q3 import compare_many_tasks

QUESTIONS = ("auto", "Q3")


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
            aggregate: str = "mean") -> ComparisonReport:
    """Compare models or algorithms and report decisions, effect sizes and warnings.

    Parameters
    ----------
    data : str, Path, DataFrame, ResultsTable or ScoreMatrix
        Results in the tidy schema (see :func:`outperform.data.read_results`) or a file of them.
    question : {"auto", "Q3"}
        Force the question; ``"auto"`` infers it from the columns.
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
    if isinstance(data, ScoreMatrix):
        scores = data
    else:
        table = read_results(data, metric=metric, higher_is_better=higher_is_better)
        q = infer_question(table) if question == "auto" else question
        if q != "Q3":
            raise InvalidInputError(
                f"these results look like a {q} comparison (one task); only Q3 (several tasks) "
                "is available in compare() so far.")
        scores = table.score_matrix(metric, aggregate=aggregate)
    report = compare_many_tasks(scores, alpha=alpha, control=control, posthoc=posthoc)
    if not isinstance(data, ScoreMatrix) and table.direction_assumed:
        report = _with_warning(report, f"the direction of metric(s) {list(table.direction_assumed)} "
                               "is unknown and was assumed higher-is-better; pass "
                               "higher_is_better=False (--lower-is-better) if lower is better.")
    return report


def _with_warning(report: ComparisonReport, message: str) -> ComparisonReport:
    from dataclasses import replace

    return replace(report, warnings=report.warnings + (message,))
