"""The per-data-set results table of a paper: values only (computed by
:func:`outperform.compare.task_table`, rendered by :func:`outperform.report.results_table`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._base import Result


@dataclass(frozen=True, eq=False, repr=False)
class TaskTable(Result):
    """One row per data set, one column per method: the cells, the best of each row, the
    methods significantly worse than it, and the footer over data sets.

    Arrays are (n_tasks, n_models), rows in ``tasks`` order, columns in ``models`` order;
    NaN marks a missing cell.

    Attributes
    ----------
    tasks, models : tuple of str
    metric : str
    higher_is_better : bool
        Direction of ``metric``: the best of a row is its maximum (True) or minimum (False).
    mean, sd : ndarray
        Mean and standard deviation (ddof = 1) of each cell's measurements (folds x runs),
        in metric units; ``sd`` is NaN for a cell of one measurement.
    n : ndarray of int
        Measurements per cell (0 for a missing cell).
    best : ndarray of bool
        The cells whose mean is the row's best (ties: all of them); the means compared are
        those of :meth:`outperform.data.ResultsTable.score_matrix` (exact ties).
    ranks : ndarray
        Rank of each cell within its row, 1 = best, ties averaged (Demšar 2006 §3.2.2);
        among the methods present on the row when cells are missing.
    test : str
        ``"corrected_t_holm"`` (the corrected resampled t-test of Nadeau & Bengio 2003, each
        method against the row's best, Holm-adjusted over the row) or ``"none"``.
    pvalue, pvalue_adjusted : ndarray
        Two-sided p-value of each method against its row's best and its Holm adjustment
        over the row; NaN for the best itself, for a missing cell, a pair whose fold
        differences are all equal (no variance), or ``test == "none"``.
    worse : ndarray of bool
        The marked cells: ``pvalue_adjusted < alpha`` (significantly worse than the best).
    rho : tuple of float
        Correlation of the fold differences of each row (NaN without a test).
    alpha : float
    average_ranks : ndarray, shape (n_models,)
        Mean of ``ranks`` over the rows where the method has a result.
    control : str or None
    wins, ties, losses : ndarray of int, shape (n_models,)
        Data sets on which each method's mean beats, ties or loses to ``control``'s (0 for
        the control itself, and all 0 without a control).
    omnibus : dict or None
        The test over data sets run by :func:`outperform.compare.compare_many_tasks`
        (``posthoc="none"``): ``key`` (its registry key), ``method``, ``statistic``,
        ``df``, ``pvalue`` and ``details``; None when it could not run (``omnibus_note``
        says why).
    omnibus_note : str or None
    aggregation : str
        How the measurements of a cell were counted, e.g. "10 folds".
    notes : tuple of str
        What the reader must know (few folds, pairs not tested, missing cells, ...).
    """

    tasks: tuple
    models: tuple
    metric: str
    higher_is_better: bool
    mean: np.ndarray
    sd: np.ndarray
    n: np.ndarray
    best: np.ndarray
    ranks: np.ndarray
    test: str
    pvalue: np.ndarray
    pvalue_adjusted: np.ndarray
    worse: np.ndarray
    rho: tuple
    alpha: float
    average_ranks: np.ndarray
    control: str | None
    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray
    omnibus: dict | None
    omnibus_note: str | None
    aggregation: str
    notes: tuple = ()

    _repr_fields = ("models", "tasks", "metric", "test", "alpha")

    def to_frame(self):
        """One row per (task, model): mean, sd, n, rank, best, p-values, worse."""
        import pandas as pd

        k = len(self.models)
        return pd.DataFrame({
            "task": np.repeat(self.tasks, k), "model": np.tile(self.models, len(self.tasks)),
            "mean": self.mean.ravel(), "sd": self.sd.ravel(), "n": self.n.ravel(),
            "rank": self.ranks.ravel(), "best": self.best.ravel(),
            "pvalue": self.pvalue.ravel(), "pvalue_adjusted": self.pvalue_adjusted.ravel(),
            "worse": self.worse.ravel()})

    def to_dict(self) -> dict:
        from ._serialize import jsonable

        return jsonable({
            "tasks": list(self.tasks), "models": list(self.models), "metric": self.metric,
            "higher_is_better": bool(self.higher_is_better), "test": self.test,
            "alpha": float(self.alpha), "aggregation": self.aggregation,
            "cells": [[{"mean": self.mean[i, j], "sd": self.sd[i, j], "n": int(self.n[i, j]),
                        "rank": self.ranks[i, j], "best": bool(self.best[i, j]),
                        "pvalue": self.pvalue[i, j],
                        "pvalue_adjusted": self.pvalue_adjusted[i, j],
                        "worse": bool(self.worse[i, j])}
                       for j in range(len(self.models))] for i in range(len(self.tasks))],
            "rho": list(self.rho), "average_ranks": self.average_ranks,
            "control": self.control,
            "wins_ties_losses": ({m: [int(w), int(t), int(lo)] for m, w, t, lo in zip(
                self.models, self.wins, self.ties, self.losses) if m != self.control}
                if self.control is not None else None),
            "omnibus": self.omnibus, "omnibus_note": self.omnibus_note,
            "notes": list(self.notes)})
