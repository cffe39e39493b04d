"""A validated long results table, and its reduction to one score per (task, model)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import InvalidInputError, TooFewError
from ._schema import FOLD, MODEL, RUN, TASK


#: Significant digits kept of averaged scores (relative to the largest magnitude in the
#: table): a double's sum of folds carries ~1e-16 relative error, which is 10^4 times
#: below this grid, and real differences between scores are far above it.
TIE_DIGITS = 12


def tie_exact_means(values: np.ndarray) -> np.ndarray:
    """``values`` rounded to :data:`TIE_DIGITS` significant digits of their largest
    magnitude (NaN kept): means equal up to the rounding error of their sums become equal.

    Examples
    --------
    >>> a = (0.88 + 0.86 + 0.86 + 0.98) / 4; b = (0.98 + 0.86 + 0.86 + 0.88) / 4
    >>> bool(a == b), bool(np.ptp(tie_exact_means(np.array([a, b]))) == 0)
    (False, True)
    """
    finite = np.abs(values[np.isfinite(values)])
    if not finite.size or finite.max() == 0:
        return values
    digits = TIE_DIGITS - 1 - int(np.floor(np.log10(finite.max())))
    return np.round(values, digits)


def order_free_sums(groups: np.ndarray, x: np.ndarray, size: int) -> np.ndarray:
    """Sums of ``x`` per group (``np.bincount(groups, x, minlength=size)``) that do not
    depend on the order of the values.

    Each value is cut into three parts on the grids 2^(e-20), 2^(e-40), 2^(e-60) (2^e above
    the largest magnitude; the last part rounded to its grid, so bits below 2^(e-61), a
    relative 4e-19 of the largest value, are dropped the same way whatever the order). Each part has at most 21 significant bits, so the sum of up to
    2^32 of them is exact in floating point in any order; the three exact sums are then
    added in a fixed order. Linear time (three ``bincount``), unlike sorting each group.

    Examples
    --------
    >>> x = np.array([0.88, 0.86, 0.86, 0.98]); g = np.zeros(4, dtype=int)
    >>> bool(order_free_sums(g, x, 1)[0] == order_free_sums(g, x[::-1], 1)[0])
    True
    """
    finite = np.abs(x[np.isfinite(x)])
    top = float(finite.max()) if finite.size else 0.0
    if top == 0.0:
        return np.bincount(groups, weights=x, minlength=size)
    e = int(np.frexp(top)[1]) + 1                  # |x| < 2^(e-1)
    if e - 60 < -1000:                              # grids below the normal range
        order = np.lexsort((x, groups))
        return np.bincount(groups[order], weights=x[order], minlength=size)
    total = np.zeros(size)
    rest = x
    for shift, cut in ((20, np.floor), (40, np.floor), (60, np.rint)):
        q = np.ldexp(1.0, e - shift)
        part = cut(rest / q) * q
        rest = rest - part
        total = total + np.bincount(groups, weights=part, minlength=size)
    return total


@dataclass(frozen=True)
class ScoreMatrix:
    """One score per (task, model): the input of the Q3 tests.

    Attributes
    ----------
    values : ndarray, shape (n_tasks, n_models)
        NaN marks a missing cell (only from ``read_results(..., missing="allow")``).
    tasks, models : tuple of str
    metric : str
    higher_is_better : bool
    aggregation : str
        How repeated measurements of a cell were reduced (e.g. ``"mean over 100 folds"``).
    """

    values: np.ndarray
    tasks: tuple[str, ...]
    models: tuple[str, ...]
    metric: str
    higher_is_better: bool
    aggregation: str = "one value per cell"

    def to_frame(self) -> pd.DataFrame:
        """Wide table, tasks as index and models as columns."""
        return pd.DataFrame(self.values, index=list(self.tasks), columns=list(self.models))

    @property
    def missing_cells(self) -> tuple[tuple[str, str], ...]:
        """The (task, model) cells without a score (NaN in ``values``), row by row."""
        return tuple((self.tasks[i], self.models[j])
                     for i, j in np.argwhere(np.isnan(self.values)))

    def column(self, model: str) -> np.ndarray:
        """Scores of one model over the tasks.

        Raises
        ------
        InvalidInputError
            If ``model`` is not one of the models.
        """
        if model not in self.models:
            raise InvalidInputError(f"unknown model {model!r}; the models are {list(self.models)}.")
        return self.values[:, self.models.index(model)]


@dataclass(frozen=True)
class ResultsTable:
    """Validated long table of measurements (see :mod:`outperform.data._schema`).

    Build it with :func:`outperform.data.read_results`; the constructor trusts its input.

    Attributes
    ----------
    frame : DataFrame
        Columns ``task``, ``model``, optional ``run``/``fold``/``example``, the metrics, and
        optional ``n_train``/``n_test``. Task and model are categorical columns of strings
        (compact for millions of rows).
    metrics : dict of str to bool
        Metric column name -> whether higher is better.
    direction_assumed : tuple of str
        Metrics whose direction was not given and not known by name (assumed higher is better).
    warnings : tuple of str
        What reading the table noticed about its values, e.g. an ``accuracy`` whose values
        look like percentages ("UNITS: ..."); ``compare`` lists them among its warnings.
    """

    frame: pd.DataFrame
    metrics: dict[str, bool]
    direction_assumed: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def tasks(self) -> tuple[str, ...]:
        wide = self._read_wide()
        return wide.tasks if wide is not None else tuple(pd.unique(self.frame[TASK]))

    @property
    def models(self) -> tuple[str, ...]:
        wide = self._read_wide()
        return wide.models if wide is not None else tuple(pd.unique(self.frame[MODEL]))

    def _keep_wide(self, scores: ScoreMatrix) -> None:
        """Keep the score matrix a wide table was read from (``read_results``), for this frame.

        ``score_matrix()``, ``tasks`` and ``models`` then need no pass over the long frame.
        It is tied to the frame object: a table made with another frame (e.g. by
        ``dataclasses.replace``) does not have it.
        """
        object.__setattr__(self, "_wide", (self.frame, scores))

    def _read_wide(self) -> ScoreMatrix | None:
        kept = self.__dict__.get("_wide")
        return kept[1] if kept is not None and kept[0] is self.frame else None

    @property
    def replicate_columns(self) -> tuple[str, ...]:
        """Key columns below (task, model) present in the table: run, fold, example."""
        return tuple(c for c in (RUN, FOLD, "example") if c in self.frame.columns)

    def _cells(self) -> tuple[np.ndarray, np.ndarray, int]:
        """Each row's (task, model) category codes and the number of model categories: the
        cells are counted and placed from them in O(rows) (tables of 10^7 rows)."""
        task, model = self.frame[TASK], self.frame[MODEL]
        return (task.cat.codes.to_numpy(np.int64), model.cat.codes.to_numpy(np.int64),
                len(model.cat.categories))

    def _in_order(self, grid: np.ndarray, t: np.ndarray, m: np.ndarray):
        """A flat grid over the category codes as a matrix whose rows and columns are in
        order of first appearance (as ``tasks`` and ``models``), with their labels."""
        n_models = len(self.frame[MODEL].cat.categories)
        rows, cols = pd.unique(t), pd.unique(m)
        return (grid.reshape(-1, n_models)[np.ix_(rows, cols)],
                tuple(self.frame[TASK].cat.categories[rows]),
                tuple(self.frame[MODEL].cat.categories[cols]))

    @property
    def measurements_per_cell(self) -> int:
        """Number of rows per (task, model) cell present (equal for all after validation)."""
        t, m, n_models = self._cells()
        return len(self.frame) // np.count_nonzero(np.bincount(t * n_models + m))

    def missing_cells(self, metric: str | None = None) -> tuple[tuple[str, str], ...]:
        """(task, model) cells with no value of ``metric`` (absent rows or NaN), row by row.

        Counted from the category codes (the cells of :meth:`score_matrix` that are NaN,
        without averaging every cell to find them).
        """
        metric = self.default_metric(metric)
        wide = self._read_wide()
        if wide is not None and wide.metric == metric:
            return wide.missing_cells
        t, m, n_models = self._cells()
        present = np.bincount(t * n_models + m, weights=self.frame[metric].notna().to_numpy(),
                              minlength=len(self.frame[TASK].cat.categories) * n_models) > 0
        grid, tasks, models = self._in_order(present, t, m)
        return tuple((tasks[i], models[j]) for i, j in np.argwhere(~grid))

    def require_complete(self, metric: str | None = None) -> None:
        """Raise ``InvalidInputError`` naming the missing cells, if there are any."""
        cells = [c for m in ([metric] if metric else self.metrics) for c in self.missing_cells(m)]
        if cells:
            raise InvalidInputError(
                f"{len(cells)} (task, model) cell(s) have no result, e.g. {cells[:3]}. This "
                "analysis needs every model evaluated on every task: complete the runs or "
                "drop the task/model (the frequentist tests over data sets accept missing "
                "cells).")

    def default_metric(self, metric: str | None = None) -> str:
        """``metric`` if given and present, else the only metric, else ``"score"``.

        Raises
        ------
        InvalidInputError
            Unknown metric, or several metrics and none chosen.
        """
        if metric is not None:
            if metric not in self.metrics:
                raise InvalidInputError(
                    f"metric {metric!r} is not a column of the results; available: {list(self.metrics)}.")
            return metric
        if len(self.metrics) == 1:
            return next(iter(self.metrics))
        if "score" in self.metrics:
            return "score"
        raise InvalidInputError(
            f"the results have several metrics {list(self.metrics)}: choose one (metric=... or --metric).")

    def score_matrix(self, metric: str | None = None, *, aggregate: str = "mean") -> ScoreMatrix:
        """Reduce to one score per (task, model).

        Parameters
        ----------
        metric : str, optional
            Metric column; see :meth:`default_metric`.
        aggregate : {"mean", "median"}
            Rule applied to the runs/folds of each cell. Demšar (2006) §3.2.3 averages the
            folds of cross-validation into one value per data set; that is the default.
            Ties are decided on exact values: each cell's values are summed exactly in parts
            (:func:`order_free_sums`: the order of the folds in the table does not change
            the sum), and the means
            are rounded to 12 significant digits of the table's largest magnitude
            (:func:`tie_exact_means`), so that two models whose folds average to the same
            number (259/300 from different folds) tie exactly, as they would in a wide
            table of those means, and a rounding error of the sum (~1e-16) neither creates
            nor breaks a tie in the ranks.

        Returns
        -------
        ScoreMatrix
            Rows in order of first appearance of the tasks, columns of the models; NaN for a
            missing cell (absent, or NaN in every run/fold: ``read_results`` refuses a cell
            with some folds NaN).
        """
        if aggregate not in ("mean", "median"):
            raise InvalidInputError(f"aggregate must be 'mean' or 'median', got {aggregate!r}.")
        metric = self.default_metric(metric)
        wide = self._read_wide()
        if wide is not None and wide.metric == metric:   # mean or median of one value
            return wide
        one = self._one_value_per_cell(metric)
        if one is not None:
            return one
        if aggregate == "mean":
            values, tasks, models = self._exact_means(metric)
        else:
            wide = self.frame.pivot_table(index=TASK, columns=MODEL, values=metric,
                                          aggfunc=aggregate, sort=False, observed=True,
                                          dropna=False)
            tasks, models = self.tasks, self.models
            values = wide.reindex(index=list(tasks), columns=list(models)).to_numpy(dtype=float)
        n = self.measurements_per_cell
        rule = "one value per cell" if n == 1 else f"{aggregate} of {n} measurements per cell"
        return ScoreMatrix(values, tasks, models, metric, self.metrics[metric], rule)

    def _exact_means(self, metric: str) -> tuple[np.ndarray, tuple, tuple]:
        """Mean of each (task, model) cell's non-NaN values, independent of the row order
        (:func:`order_free_sums`), rounded by :func:`tie_exact_means`; NaN for a cell
        without a value."""
        t, m, n_models = self._cells()
        cells = t * n_models + m
        x = self.frame[metric].to_numpy(dtype=float)
        keep = ~np.isnan(x)
        size = len(self.frame[TASK].cat.categories) * n_models
        counts = np.bincount(cells[keep], minlength=size)
        with np.errstate(invalid="ignore", divide="ignore"):
            grid = order_free_sums(cells[keep], x[keep], size) / counts
        grid, tasks, models = self._in_order(grid, t, m)
        return tie_exact_means(grid), tasks, models

    def _one_value_per_cell(self, metric: str) -> ScoreMatrix | None:
        """The score matrix of a table with one row per cell, placed by the category codes.

        The mean or median of one value is that value, so this is what the pivot gives, in
        O(rows) (a wide table read in is such a table). None when a cell has several rows.
        """
        t, m, n_models = self._cells()
        cells = t * n_models + m
        size = len(self.frame[TASK].cat.categories) * n_models
        if len(cells) and np.bincount(cells, minlength=size).max() > 1:
            return None
        grid = np.full(size, np.nan)
        grid[cells] = self.frame[metric].to_numpy(dtype=float)
        grid, tasks, models = self._in_order(grid, t, m)
        return ScoreMatrix(grid, tasks, models, metric, self.metrics[metric])

    def paired_replicates(self, task: str, metric: str | None = None) -> dict[str, np.ndarray]:
        """Per-model arrays of one task's measurements, aligned on (run, fold, example).

        Raises
        ------
        InvalidInputError
            If ``task`` is unknown.
        """
        metric = self.default_metric(metric)
        if task not in self.tasks:
            raise InvalidInputError(f"unknown task {task!r}.")
        sub = self.frame[self.frame[TASK] == task]
        keys = list(self.replicate_columns)
        if keys:
            sub = sub.sort_values(keys, kind="stable")
        # Split by the model's category code (one pass, not one selection per model); the
        # stable sort keeps each model's rows in (run, fold, example) order.
        codes = sub[MODEL].cat.codes.to_numpy(np.int64)
        values = sub[metric].to_numpy(dtype=float)
        order = np.argsort(codes, kind="stable")
        categories = sub[MODEL].cat.categories
        bounds = np.searchsorted(codes[order], np.arange(len(categories) + 1))
        return {m: values[order[bounds[c]:bounds[c + 1]]]
                for m, c in zip(self.models, categories.get_indexer(self.models))}

    def require(self, *, min_models: int = 2, min_tasks: int = 1) -> None:
        """Raise ``TooFewError`` if there are too few models or tasks for a procedure."""
        if len(self.models) < min_models:
            raise TooFewError(
                f"the results hold {len(self.models)} model(s) ({list(self.models)}); "
                f"at least {min_models} are needed to compare.")
        if len(self.tasks) < min_tasks:
            raise TooFewError(
                f"the results hold {len(self.tasks)} data set(s); this analysis needs at least "
                f"{min_tasks}.")
