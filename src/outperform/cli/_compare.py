"""``outperform compare``: a results table compared (Q1, Q2 or Q3 by its layout)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..compare._registry import posthoc_help

from . import _options as opt
from ._options import Format, results_source
from ._output import FIGURE_SUFFIXES, _emit, _output_file, _plot, check_out


def compare_cmd(
    file: str = typer.Argument(..., metavar="FILE", help="Results table (.csv, .tsv or .parquet), "
                               "long (columns task, model, \\[run, fold], score) or wide (one "
                               "row per data set, one column per model), or per-example "
                               "predictions (a y_true column and one column per model: Q1); or "
                               "MLflow runs: mlflow://HOST:PORT/EXPERIMENT (params name the "
                               "model, task, fold, seed; ?model=PARAM&task=PARAM when their "
                               "names do not tell; needs the 'mlflow' extra)."),
    control: Optional[str] = opt.control(),
    pairs: Optional[str] = opt.pairs(),
    alpha: float = opt.alpha(),
    metric: Optional[str] = opt.metric(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    posthoc: List[str] = typer.Option(["auto"], help=posthoc_help()),
    omnibus: str = typer.Option("friedman", help="Several data sets: the omnibus test, "
                                "friedman (ranks; Demšar 2006 §3.2.2) or anova (the "
                                "repeated-measures ANOVA with paired t-tests, Holm; it assumes "
                                "normal scores and sphericity, §3.2.1)."),
    rope: Optional[float] = opt.rope(),
    rho: Optional[float] = opt.rho("One task with folds: correlation of fold differences "
                                   "(default n_test/n_total, or 1/k)."),
    n_train: Optional[float] = typer.Option(None, "--n-train", help="One task with folds: "
                                            "size of a training set (with --n-test; rho = "
                                            "n_test / (n_train + n_test), Nadeau & Bengio)."),
    n_test: Optional[float] = typer.Option(None, "--n-test", help="One task with folds: size "
                                           "of a test set (with --n-train)."),
    threshold: float = opt.threshold("Posterior probability needed for a Bayesian "
                                    "decision, above 0.5 (Williams 2026 §5.2)."),
    bayesian: bool = typer.Option(False, "--bayesian", help="Several data sets: add the Bayesian "
                                  "signed-rank and sign tests and, with folds, the Poisson test."),
    prior: Optional[float] = typer.Option(None, "--prior", help="Strength s > 0 of the Bayesian "
                                          "sign/signed-rank prior (default 0.5 / 1)."),
    hierarchical: bool = typer.Option(False, "--hierarchical", help="Two models with per-fold "
                                      "results on several data sets: add the hierarchical "
                                      "correlated t-test (MCMC, needs the 'bayes' extra)."),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    out: Optional[Path] = opt.out(),
    plot: Optional[Path] = opt.plot("Write the critical-difference diagram here (.png, .svg "
                                    "or .pdf)."),
    encoding: Optional[str] = opt.encoding(),
    y_true: str = opt.y_true("Per-example predictions (Q1): the column of the true labels; "
                             "a table with it is compared as compare-predictions does."),
    loss: str = opt.loss("Q1 loss: zero-one, log, squared, absolute, "
                             "given."),
    cluster: Optional[str] = opt.cluster("Q1: column of cluster ids (documents, speakers): "
                                         "losses are averaged per cluster first."),
    seed: int = opt.seed("Seed of the Monte Carlo draws of the Bayesian tests."),
) -> None:
    """Compare algorithms from a results table.

    Several data sets (Q3): average ranks, Friedman/Iman–Davenport, post-hoc tests and a
    critical-difference diagram (Demšar 2006). One data set with folds (Q2): the corrected
    resampled t-test and the correlated Bayesian t-test (Corani & Benavoli 2015).
    Per-example predictions with a y_true column (Q1): McNemar and its Bayesian version, as
    compare-predictions.
    """
    opt.check_fragment(fragment, fmt)
    from ..compare import compare

    direction = opt.direction(lower_is_better, higher_is_better)
    check_out(out)
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)
    report = compare(results_source(file), metric=metric, higher_is_better=direction, alpha=alpha,
                     control=control, posthoc=posthoc[0] if len(posthoc) == 1 else tuple(posthoc),
                     rope=rope, rho=rho, threshold=threshold,
                     bayesian=bayesian, prior_strength=prior, hierarchical=hierarchical,
                     encoding=encoding, progress=True, y_true=y_true, loss=loss, cluster=cluster,
                     random_state=seed, omnibus=omnibus, n_train=n_train, n_test=n_test,
                     pairs=pairs)
    _emit(report, fmt, out, fragment)
    if plot is not None:
        _plot(report, plot)
