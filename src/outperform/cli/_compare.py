"""``outperform compare``: a results table compared (Q1, Q2 or Q3 by its layout)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ._output import (FIGURE_SUFFIXES, Format, _direction,
                      _emit, _output_file, _plot)


def compare_cmd(
    file: Path = typer.Argument(..., help="Results table (.csv, .tsv or .parquet), long "
                                "(columns task, model, \\[run, fold], score) or wide (one row per "
                                "data set, one column per model)."),
    control: Optional[str] = typer.Option(None, help="Compare every model with this one "
                                          "(e.g. your baseline) instead of all pairs."),
    alpha: float = typer.Option(0.05, help="Significance level."),
    metric: Optional[str] = typer.Option(None, help="Metric column, when there are several."),
    lower_is_better: bool = typer.Option(False, "--lower-is-better",
                                         help="The metric is a loss or error (lower is better)."),
    higher_is_better: bool = typer.Option(False, "--higher-is-better",
                                          help="The metric is a score (higher is better): "
                                          "confirms the direction of a metric name outperform "
                                          "does not know."),
    posthoc: List[str] = typer.Option(["auto"], help="Post-hoc test after Friedman: auto (chosen and "
                                      "explained in the report); nemenyi; holm, hochberg, hommel, "
                                      "shaffer, bergmann (Bergmann–Hommel, up to 10 models) on the "
                                      "Friedman z-tests; conover, quade; wilcoxon-holm; durbin "
                                      "(missing cells); with --control: bonferroni-dunn, li, rom; "
                                      "none. Give it twice to run two on one ranking, e.g. "
                                      "--posthoc nemenyi --posthoc holm --control X."),
    rope: Optional[float] = typer.Option(None, help="Half-width of the region of practical "
                                         "equivalence, in metric units (Bayesian tests)."),
    rho: Optional[float] = typer.Option(None, help="One task with folds: correlation of fold "
                                        "differences (default n_test/n_total, or 1/k)."),
    threshold: float = typer.Option(0.95, help="Posterior probability needed for a Bayesian "
                                    "decision, above 0.5 (Williams 2026 §5.2)."),
    bayesian: bool = typer.Option(False, "--bayesian", help="Several data sets: add the Bayesian "
                                  "signed-rank and sign tests and, with folds, the Poisson test."),
    prior: Optional[float] = typer.Option(None, "--prior", help="Strength s > 0 of the Bayesian "
                                          "sign/signed-rank prior (default 0.5 / 1)."),
    hierarchical: bool = typer.Option(False, "--hierarchical", help="Two models with per-fold "
                                      "results on several data sets: add the hierarchical "
                                      "correlated t-test (MCMC, needs the 'bayes' extra)."),
    fmt: Format = typer.Option(Format.text, "--format", help="Output format."),
    plot: Optional[Path] = typer.Option(None, help="Write the critical-difference diagram here "
                                        "(.png, .svg or .pdf)."),
    encoding: Optional[str] = typer.Option(None, help="Encoding of a text file that is not "
                                           "UTF-8, e.g. cp1252 (spreadsheet exports)."),
) -> None:
    """Compare algorithms from a results table.

    Several data sets (Q3): average ranks, Friedman/Iman–Davenport, post-hoc tests and a
    critical-difference diagram (Demšar 2006). One data set with folds (Q2): the corrected
    resampled t-test and the correlated Bayesian t-test (Corani & Benavoli 2015).
    """
    from ..compare import compare

    direction = _direction(lower_is_better, higher_is_better)
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)
    report = compare(file, metric=metric, higher_is_better=direction, alpha=alpha,
                     control=control, posthoc=posthoc[0] if len(posthoc) == 1 else tuple(posthoc),
                     rope=rope, rho=rho, threshold=threshold,
                     bayesian=bayesian, prior_strength=prior, hierarchical=hierarchical,
                     encoding=encoding, progress=True)
    _emit(report, fmt)
    if plot is not None:
        _plot(report, plot)
