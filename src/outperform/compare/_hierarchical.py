"""Hierarchical Bayesian analyses over many tasks (Williams 2026 §5.5).

- Per-fold results of two algorithms on q data sets: the hierarchical correlated t-test
  (Benavoli et al. 2017 §4.3.1), added to a Q3 report as ``tests["hierarchical"]``.
- Per-task discordance counts (columns ``n01`` and ``n10``, Williams Table 1 layout): the
  hierarchical beta-binomial McNemar test, with the per-task Bayesian McNemar tests and the
  Friedman test on the counts beside it (Williams 2026 §6.2), in :func:`compare_counts`.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError, as_counts
from ..bayes._hierarchical_mcnemar import hierarchical_mcnemar
from ..bayes._mcnemar import bayesian_mcnemar
from ..data._io import read_table
from ..data._results_table import ResultsTable
from ..results import ComparisonReport
from .._names import model_names
from ..stats._friedman import friedman
from ._words import claim, conclusion
from ._q3_bayes import default_rope, fold_scores


def add_hierarchical_ttest(report: ComparisonReport, table: ResultsTable, *,
                           rope: float | None = None, threshold: float = 0.95,
                           random_state=0, progress: bool = False) -> ComparisonReport:
    """Return ``report`` with the hierarchical correlated t-test of its two models.

    ``progress`` shows the MCMC run on stderr (see
    :func:`outperform.bayes.hierarchical_correlated_ttest`).

    Raises
    ------
    InvalidInputError
        Not two models, or no per-fold results, or folds that differ in number across tasks.
    """
    from .. import bayes  # NumPyro is imported by the call, not here

    if len(table.models) != 2:
        raise InvalidInputError(
            f"the hierarchical t-test compares two algorithms; the table has {len(table.models)}: "
            "select two models (or run it for each pair).")
    metric = table.default_metric(None) if report.metric not in table.metrics else report.metric
    folds = fold_scores(table, metric)
    if folds is None:
        raise InvalidInputError("the hierarchical t-test needs per-fold results (run/fold "
                                "columns) on every data set.")
    sizes = {f.shape[0] for f in folds[0]}
    if len(sizes) != 1:
        raise InvalidInputError(f"the data sets have different numbers of folds {sorted(sizes)}; "
                                "the hierarchical t-test needs the same design on all of them.")
    if np.ptp(folds[1]) > 1e-9:
        raise InvalidInputError("the data sets have different fold correlations rho; the "
                                "hierarchical t-test assumes one design for all.")
    sign = 1.0 if table.metrics[metric] else -1.0
    x = sign * np.stack([f[:, 0] for f in folds[0]])
    y = sign * np.stack([f[:, 1] for f in folds[0]])
    if rope is None:
        rope = report.rope
    if rope is None:
        from ..data._results_table import ScoreMatrix

        rope = default_rope(ScoreMatrix(np.column_stack([x.mean(1), y.mean(1)]), table.tasks,
                                        table.models, metric, True))[0]
    res = bayes.hierarchical_correlated_ttest(x, y, rho=float(folds[1][0]), rope=rope,
                                              names=list(table.tasks), threshold=threshold,
                                              random_state=random_state, progress=progress)
    a, b = table.models
    left, rope_p, right = res.p_regions_averaged
    words = conclusion(
        res.method, a, b, decision=res.decision,
        evidence=f"share of posterior draws in which each is the most probable outcome for the "
                 f"next data set (Benavoli et al. 2017): P({a} better) = {res.p_a_better:.3f}, "
                 f"P(equivalent) = {res.p_rope:.3f}, P({b} better) = {res.p_b_better:.3f}; "
                 f"predictive probabilities for the next data set (Williams 2026 fn. 15): "
                 f"P({a} better) = {right:.3f}, P(equivalent) = {rope_p:.3f}, P({b} better) = "
                 f"{left:.3f}")
    tests = dict(report.tests, hierarchical=res)
    return replace(report, tests=tests, conclusions=report.conclusions + (words,))


def compare_counts(data, *, names: tuple[str, str] | None = None, alpha: float = 0.05,
                   threshold: float = 0.95, encoding: str | None = None) -> ComparisonReport:
    """Compare two classifiers over tasks from per-task discordance counts (Williams §6.2).

    Parameters
    ----------
    data : str, Path or DataFrame
        One row per task with columns ``task`` (optional), ``n01`` (A wrong, B right) and
        ``n10`` (A right, B wrong), and optionally ``model_a`` and ``model_b``: the names of
        models A and B, the same on every row. Other columns are ignored. The columns are the
        way to name the models from the command line (``outperform compare counts.csv``) and
        through :func:`outperform.compare.compare`.
    names : (str, str), optional
        Names of model A and model B; they take precedence over the ``model_a``/``model_b``
        columns. Default: those columns, else ``"A"`` and ``"B"``.
    alpha, threshold : float
    encoding : str, optional
        Encoding of a text file that is not UTF-8 (e.g. ``"cp1252"``).

    Returns
    -------
    ComparisonReport
        ``question="Q3"``; ``tests``: ``hierarchical_mcnemar`` (predictive φ_next, the
        decision), ``friedman`` on the counts (who wins each task); ``details["per_task"]``
        holds each task's Bayesian McNemar probabilities.

    Raises
    ------
    InvalidInputError
        Missing columns, negative or non-integer counts; ``model_a`` or ``model_b`` not the
        same on every row (one table holds one pair of models); ``names`` not two distinct
        names.
    TooFewError
        Fewer than 2 tasks.

    Examples
    --------
    >>> from outperform.data import load_williams_table1
    >>> rep = compare_counts(load_williams_table1(), names=("GNN", "LLM"))
    >>> round(rep.tests["friedman"].statistic, 3), round(rep.tests["friedman"].pvalue, 3)
    (0.818, 0.366)

    The same names from the table itself:

    >>> compare_counts(load_williams_table1().assign(model_a="GNN", model_b="LLM")).models
    ('GNN', 'LLM')
    """
    df = read_table(data, encoding=encoding) if not isinstance(data, pd.DataFrame) else data
    missing = [c for c in ("n01", "n10") if c not in df.columns]
    if missing:
        raise InvalidInputError(f"per-task counts need columns n01 and n10; missing {missing}.")
    n01, n10 = as_counts(df["n01"], "n01"), as_counts(df["n10"], "n10")
    if n01.size < 2:
        raise TooFewError(f"{n01.size} task: the hierarchical model needs at least 2.")
    tasks = [str(t) for t in (df["task"] if "task" in df.columns else range(n01.size))]
    a, b = _pair_names(df, names)
    hier = hierarchical_mcnemar(n01, n10, names=tasks, threshold=threshold)
    # Friedman on who wins each task: A's score is minus its unshared errors (Williams §6.2).
    fr = friedman(np.column_stack([-n01, -n10]).astype(float), tie_correction=True)
    per_task = []
    for t, u, v in zip(tasks, n01, n10):
        r = bayesian_mcnemar(int(u), int(v), threshold=threshold)
        per_task.append({"task": t, "n01": int(u), "n10": int(v), "p_a_better": r.p_a_better,
                         "p_equivalent": r.p_rope, "p_b_better": r.p_b_better,
                         "decision": claim(a, b, decision=r.decision)})
    wins = int(np.sum(n01 < n10))
    conclusions = (
        conclusion(hier.method, a, b, decision=hier.decision, lead="for the next task, ",
                   evidence=f"P({a} better) = {hier.p_a_better:.3f}, P(equivalent) = "
                            f"{hier.p_rope:.3f}, P({b} better) = {hier.p_b_better:.3f}; "
                            f"φ̄ = {hier.posterior_mean:.3f}"),
        conclusion("Friedman test on the counts", a, b, decision=bool(fr.pvalue < alpha),
                   values=(wins, int(np.sum(n10 < n01))),
                   quantity="tasks with fewer unshared errors", higher_is_better=True,
                   evidence=f"χ² = {fr.statistic:.3f}, p = {fr.pvalue:.3g}, {n01.size} tasks",
                   spec="d"),
    )
    # Reports print the summary as "best first": fewer unshared errors, then more tasks won.
    summary = tuple(sorted(
        ({"model": a, "unshared_errors": int(n01.sum()), "tasks_won": wins},
         {"model": b, "unshared_errors": int(n10.sum()), "tasks_won": int(np.sum(n10 < n01))}),
        key=lambda row: (row["unshared_errors"], -row["tasks_won"])))
    return ComparisonReport(
        question="Q3", metric="0/1 loss (discordant counts)", higher_is_better=False,
        models=(a, b), n_tasks=int(n01.size), alpha=alpha, summary=summary,
        tests={"hierarchical_mcnemar": hier, "friedman": fr}, recommended="hierarchical_mcnemar",
        rationale="per-task discordance counts of two classifiers: the hierarchical "
                  "beta-binomial McNemar model pools the tasks and predicts the next one "
                  "(Williams 2026 §5.5); the Friedman test only counts wins (§6.2).",
        conclusions=conclusions, details={"per_task": per_task})


def _pair_names(df: pd.DataFrame, names) -> tuple[str, str]:
    """Names of models A and B: ``names``, else the ``model_a``/``model_b`` columns, else A/B."""
    if names is not None:
        return model_names(names, 2)
    found = []
    for column, default in (("model_a", "A"), ("model_b", "B")):
        if column not in df.columns:
            found.append(default)
            continue
        values = df[column]
        if values.isna().any():
            raise InvalidInputError(f"column {column!r} has missing values: give the model's "
                                    "name on every row.")
        distinct = sorted({str(v) for v in values})
        if len(distinct) != 1:
            raise InvalidInputError(
                f"column {column!r} must hold one model name on every row, got {distinct}: a "
                "counts table compares one pair of models; split it by pair.")
        found.append(distinct[0])
    if found[0] == found[1]:
        raise InvalidInputError(f"models A and B are both named {found[0]!r} (columns model_a "
                                "and model_b): give the two models different names.")
    return found[0], found[1]
