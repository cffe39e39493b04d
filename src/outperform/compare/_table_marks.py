"""What a paper's per-data-set results table shows, computed: the cells (mean, sd, n), the
best of each row, the methods significantly worse than it, the ranks and the footer.

Decision logic:
- the best of a row is its largest mean (smallest for a loss), ties all best, on the exact
  means of :meth:`~outperform.data.ResultsTable.score_matrix`;
- the mark: with several measurements per cell (folds, runs of a resampling design) each
  method is compared with the row's best by the corrected resampled t-test (Nadeau & Bengio
  2003; two-sided, rho from n_train/n_test or 1/k as in Q2), the p-values Holm-adjusted over
  the methods of the row (Holm 1979), marked when the adjusted p-value is below alpha. One
  measurement per cell: no test per data set, no marks (the caption says so). McNemar's test
  on per-example predictions is not offered here: a results table holds scores, not
  predictions (``outperform compare-predictions`` compares predictions);
- the footer: average ranks (Demšar 2006 §3.2.2), wins/ties/losses against a control, and
  the test over data sets that :func:`~outperform.compare.compare_many_tasks` runs
  (Friedman/Iman–Davenport, its permutation form on <= 10 data sets, Skillings–Mack with
  missing cells, Wilcoxon for two methods).
"""
from __future__ import annotations

import numpy as np

from .._validation import (InvalidInputError, OutperformError, TooFewError, check_choice,
                           check_probability)
from ..data._columns import MODEL, TASK
from ..data._io import read_results
from ..data._results_table import ResultsTable, tie_exact_means
from ..results._task_table import TaskTable
from ..stats._incomplete import incomplete_ranks
from ..stats._multipletests import adjust_pvalues
from ._q2 import _corrected_t, _few_folds, _rho

TESTS = ("auto", "corrected-t", "none")


def task_table(results, *, metric: str | None = None, higher_is_better: bool | None = None,
               control: str | None = None, alpha: float = 0.05, test: str = "auto",
               rho: float | None = None, columns=None) -> TaskTable:
    """The numbers of a per-data-set results table (one row per data set, one column per
    method), with the best of each row and the methods significantly worse than it.

    Parameters
    ----------
    results : ResultsTable, DataFrame or path
        Long results (task, model, optional run/fold, n_train/n_test, a metric) or a wide
        table (tasks x models), as :func:`outperform.data.read_results` reads them; missing
        cells are allowed (shown empty, left out of the tests).
    metric : str, optional
        The metric column, when there are several.
    higher_is_better : bool, optional
        Direction of the metric; by default from its name
        (:func:`outperform.data.metric_direction`). A metric whose direction is unknown is
        refused: the bold cells would be the worst ones for a loss.
    control : str, optional
        The method (e.g. the proposed one) whose wins/ties/losses against every other are
        counted.
    alpha : float
        Level of the marks (Holm-adjusted, per row) and of the test over data sets.
    test : {"auto", "corrected-t", "none"}
        The test of each method against its row's best. ``"auto"``: the corrected resampled
        t-test when a cell holds several measurements, none when it holds one.
    rho : float, optional
        Correlation of the fold differences (default: n_test / (n_train + n_test) from the
        table, else 1/k of k-fold cross-validation, as :func:`compare_one_task`).
    columns : sequence of str, optional
        The methods to show, in this order (default: all, in order of appearance). The
        best, ranks, tests and footer are those of the methods shown.

    Returns
    -------
    TaskTable
        Cells, best, marks (``worse``), p-values, ranks, footer, notes.

    Raises
    ------
    InvalidInputError
        Unknown metric direction, unknown or repeated column, unknown control, unknown test,
        ``test="corrected-t"`` without a known rho, alpha outside (0, 1).
    TooFewError
        Fewer than 2 methods; ``test="corrected-t"`` with one measurement per cell.

    Examples
    --------
    Demšar (2006) Table 6, one AUC per cell: no marks, average ranks as printed there.

    >>> from outperform.data import load_demsar_table6
    >>> t = task_table(load_demsar_table6())
    >>> t.test, t.average_ranks.round(3).tolist()
    ('none', [3.143, 2.0, 2.893, 1.964])
    """
    check_probability(alpha, "alpha")
    check_choice(test, "test", TESTS)
    table = _read(results, metric, higher_is_better)
    metric = table.default_metric(metric)
    if higher_is_better is None and metric in table.direction_assumed:
        raise InvalidInputError(
            f"cannot tell whether a higher or a lower {metric!r} is better, and the table "
            "puts the best of each row in bold: pass higher_is_better=True or False "
            "(--higher-is-better / --lower-is-better).")
    hib = table.metrics[metric]
    table = _select(table, columns)
    table.require(min_models=2)
    models, tasks = table.models, table.tasks
    if control is not None and control not in models:
        raise InvalidInputError(f"control {control!r} is not one of the methods {list(models)}"
                                + (" shown (columns=)" if columns is not None else "") + ".")
    mean, sd, n = _cells(table, metric)
    notes = [w for w in table.warnings if repr(metric) in w]
    scores = table.score_matrix(metric)
    exact = tie_exact_means(scores.values)          # ties decided as the ranks decide them
    ranks = incomplete_ranks(exact, higher_is_better=hib)
    best = ranks == np.nanmin(np.where(np.isnan(ranks), np.inf, ranks), axis=1,
                              keepdims=True)
    per_cell = int(n.max())
    if test == "auto":
        test = "corrected-t" if per_cell > 1 else "none"
    if test == "corrected-t" and per_cell < 2:
        raise TooFewError("one measurement per cell: a t-test needs the scores of 2 folds or "
                          "more per method and data set; use test='none' (--test none), or "
                          "give the per-fold scores.")
    shape = mean.shape
    p, adj = np.full(shape, np.nan), np.full(shape, np.nan)
    rhos = [float("nan")] * len(tasks)
    if test == "corrected-t":
        for i, task in enumerate(tasks):     # one batch of k - 1 pairs per data set
            rhos[i], row_notes = _row_tests(table, task, metric, hib, exact[i], rho,
                                            p[i], adj[i])
            notes += row_notes
        few = sorted({int(v) for v in n[n > 0].ravel()})
        notes += _few_folds(few[0], alpha) if few else []
    worse = np.nan_to_num(adj, nan=1.0) < alpha
    if np.isnan(mean).any():
        notes.append(f"{int(np.isnan(mean).sum())} cell(s) without a result are left empty; "
                     "each row is ranked among the methods it holds.")
    average = np.array([np.nanmean(c) if np.isfinite(c).any() else np.nan for c in ranks.T])
    wins, ties, losses = _against(exact, models, control, hib)
    omnibus, omnibus_note = _omnibus(scores, alpha)
    what = ("one value per cell" if per_cell == 1 else
            f"{per_cell} {_unit(table)} per cell" if (n[n > 0] == per_cell).all() else
            f"up to {per_cell} {_unit(table)} per cell")
    return TaskTable(
        tasks=tasks, models=models, metric=metric, higher_is_better=hib, mean=mean, sd=sd,
        n=n, best=best, ranks=ranks, test="corrected_t_holm" if test == "corrected-t" else
        "none", pvalue=p, pvalue_adjusted=adj, worse=worse, rho=tuple(rhos), alpha=alpha,
        average_ranks=average, control=control, wins=wins, ties=ties, losses=losses,
        omnibus=omnibus, omnibus_note=omnibus_note, aggregation=what,
        notes=tuple(dict.fromkeys(notes)))


def _read(results, metric, higher_is_better) -> ResultsTable:
    if isinstance(results, ResultsTable):
        if higher_is_better is None:
            return results
        metric = results.default_metric(metric)
        return ResultsTable(results.frame, {**results.metrics, metric: bool(higher_is_better)},
                            tuple(m for m in results.direction_assumed if m != metric),
                            results.warnings)
    return read_results(results, metric=metric, higher_is_better=higher_is_better,
                        missing="allow")


def _select(table: ResultsTable, columns) -> ResultsTable:
    """The table restricted to ``columns``, in that order (model categories reordered)."""
    if columns is None:
        return table
    columns = [str(c) for c in ([columns] if isinstance(columns, str) else columns)]
    unknown = [c for c in columns if c not in table.models]
    if unknown:
        raise InvalidInputError(f"columns {unknown} are not methods of the results; the "
                                f"methods are {list(table.models)}.")
    if len(set(columns)) < len(columns):
        twice = sorted({c for c in columns if columns.count(c) > 1})
        raise InvalidInputError(f"columns names {twice} more than once: list each method once.")
    frame = table.frame[table.frame[MODEL].isin(columns)].copy()
    frame[MODEL] = frame[MODEL].cat.set_categories(columns)
    # methods in the order asked for; within each, the data sets in their order
    where = {t: i for i, t in enumerate(table.tasks)}
    order = np.lexsort((frame[TASK].astype(str).map(where).to_numpy(int),
                       frame[MODEL].cat.codes.to_numpy()))
    return ResultsTable(frame.iloc[order].reset_index(drop=True), table.metrics,
                        table.direction_assumed, table.warnings)


def _cells(table: ResultsTable, metric: str):
    """Mean, sd (ddof = 1) and count of each (task, model) cell, NaN/0 where missing."""
    g = table.frame.groupby([TASK, MODEL], observed=False)[metric]
    stats = g.agg(["mean", "std", "count"])
    index = [(t, m) for t in table.tasks for m in table.models]
    stats = stats.reindex(index)
    shape = (len(table.tasks), len(table.models))
    return (stats["mean"].to_numpy(float).reshape(shape),
            stats["std"].to_numpy(float).reshape(shape),
            np.nan_to_num(stats["count"].to_numpy(float)).astype(int).reshape(shape))


def _row_tests(table, task, metric, hib, means, rho, p_row, adj_row):
    """Corrected t-tests of each method of one row against the row's best (filling
    ``p_row`` and ``adj_row`` in place); returns rho and the row's notes."""
    scores = table.paired_replicates(task, metric)
    models = table.models
    present = [j for j, m in enumerate(models) if scores[m].size >= 2 and np.isfinite(means[j])]
    if len(present) < 2:
        return float("nan"), []
    sign = 1.0 if hib else -1.0
    b = present[int(np.argmax(sign * means[present]))]
    others = [j for j in present if j != b]
    try:
        r, _ = _rho(table, task, rho)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{exc} Or leave the marks out: test='none' (--test none)."
                                ) from None
    best = np.tile(sign * scores[models[b]], (len(others), 1))
    rest = sign * np.stack([scores[models[j]] for j in others])
    results = _corrected_t(best, rest, r)
    notes = [f"{task}: {models[j]} against {models[b]} is not tested ({res.details['undefined']})."
             for j, res in zip(others, results) if "undefined" in res.details]
    pv = np.array([res.pvalue for res in results])
    p_row[others] = pv
    tested = np.isfinite(pv)
    if tested.any():
        adj = np.full(pv.shape, np.nan)
        adj[tested] = adjust_pvalues(pv[tested], "holm")
        adj_row[others] = adj
    return r, notes


def _against(exact, models, control, hib):
    k = len(models)
    zeros = np.zeros(k, dtype=int)
    if control is None:
        return zeros, zeros.copy(), zeros.copy()
    c = exact[:, models.index(control)][:, None]
    d = (exact - c) if hib else (c - exact)          # > 0: the method beats the control
    both = np.isfinite(d)
    wins = np.sum(both & (d > 0), axis=0)
    ties = np.sum(both & (d == 0), axis=0)
    losses = np.sum(both & (d < 0), axis=0)
    j = models.index(control)
    wins[j] = ties[j] = losses[j] = 0
    return wins, ties, losses


def _omnibus(scores, alpha):
    """The recommended test over data sets of ``compare_many_tasks``, or why it did not run."""
    from ._q3 import compare_many_tasks

    n_tasks = len(scores.tasks)
    if n_tasks < 2:
        return None, (f"{n_tasks} data set: a test over data sets needs at least 2 (Demšar "
                      "2006 recommends 10 or more).")
    try:
        report = compare_many_tasks(scores, alpha=alpha, posthoc="none")
    except OutperformError as exc:
        return None, str(exc)
    key = report.recommended
    res = report.tests[key]
    keep = ("friedman_statistic", "R_plus", "R_minus", "n", "exact", "n_resamples")
    return ({"key": key, "method": res.method, "statistic": res.statistic, "df": res.df,
             "pvalue": res.pvalue, "n_tasks": int(report.n_tasks),
             "details": {k: res.details[k] for k in keep if k in res.details}}, None)


def _unit(table: ResultsTable) -> str:
    cols = table.replicate_columns
    return ("folds" if cols == ("fold",) else "runs" if cols == ("run",) else
            "runs x folds" if cols == ("run", "fold") else "measurements")


__all__ = ["task_table"]
