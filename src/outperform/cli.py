"""The ``outperform`` command line.

Exit codes: 0 success; 1 bad input, a file that cannot be read or written, or a missing
optional dependency (one line says what was wrong and what to do, e.g.
``pip install 'outperform[bayes]'``); 2 usage error; 3 internal error (one line, the
traceback in a file of the temporary folder; ``outperform --debug COMMAND ...`` prints it).
The exceptions are turned into messages once, for every command, by :class:`._cli.Group`.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console

from . import __version__
from ._cli import Group, err
from ._runs_cli import aggregate_cmd
from ._evals_cli import compare_evals_cmd
from ._cli_support import (FIGURE_SUFFIXES, SCHEDULER_HELP, Format, _backend, _direction,
                           _emit, _exit_on_bad_input, _output_file, _plot)
from ._validation import InvalidInputError, OutperformError


app = typer.Typer(
    cls=Group, add_completion=False, no_args_is_help=True, rich_markup_mode="rich",
    help="Is model A really better than model B, how sure is that, and by how much?\n\n"
         "Statistical comparison of machine-learning models after Demšar (2006), Lacoste et al. "
         "(2012), Corani & Benavoli (2015) and Williams (2026). Start with "
         "[bold]outperform demo[/bold].",
    epilog="Exit codes: 0 success, 1 bad input (the message says what to fix), 2 usage error, "
           "3 internal error (the message names the file that holds the traceback; "
           "[bold]outperform --debug ...[/bold] prints it).")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"outperform {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         debug: bool = typer.Option(False, "--debug", help="Print the traceback of an error "
                                    "(for a bug report) instead of writing it to a file.")
         ) -> None:
    """Compare models and algorithms soundly."""


@app.command("compare")
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
    from .compare import compare

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


@app.command("compare-predictions")
def compare_predictions_cmd(
    file: Path = typer.Argument(..., help="One row per test example: the true label column and "
                                "one prediction column per model (labels, or probabilities of "
                                "the positive class)."),
    y_true: str = typer.Option("y_true", "--y-true", help="Column of the true labels."),
    control: Optional[str] = typer.Option(None, help="Compare every model with this one "
                                          "(e.g. your baseline) instead of all pairs."),
    reference: Optional[str] = typer.Option(None, hidden=True,
                                            help="Deprecated name of --control."),
    loss: str = typer.Option("zero-one", help="zero-one, log, squared, absolute, or given "
                             "(the model columns already hold per-example losses)."),
    group: Optional[str] = typer.Option(None, help="Column of cluster ids (documents, speakers): "
                                        "losses are averaged per group first."),
    rope: Optional[float] = typer.Option(None, help="ROPE half-width (around φ = 0.5 for 0/1 "
                                         "loss, in loss units otherwise)."),
    alpha: float = typer.Option(0.05, help="Significance level."),
    threshold: float = typer.Option(0.95, help="Posterior probability needed for a decision."),
    noninferiority_margin: Optional[float] = typer.Option(
        None, "--noninferiority-margin", help="Two models, 0/1 loss: test that the new model "
        "loses at most this much accuracy (0.01 = one point) against the reference (--control, "
        "else the second model); Tango's score test."),
    fmt: Format = typer.Option(Format.text, "--format", help="Output format."),
    encoding: Optional[str] = typer.Option(None, help="Encoding of a text file that is not "
                                           "UTF-8, e.g. cp1252 (spreadsheet exports)."),
) -> None:
    """Compare predictors on one test set (Q1): McNemar, Bayesian McNemar, t-tests, DeLong."""
    from .compare import compare_predictions

    if reference is not None:
        err.print("[yellow]warning:[/yellow] --reference is deprecated; use --control.")
        if control is not None and control != reference:
            raise InvalidInputError(f"--control {control!r} and --reference {reference!r} name "
                                    "different models; give --control only.")
        control = reference
    report = compare_predictions(file, y_true=y_true, loss=loss, control=control,
                                 group=group, rope=rope, alpha=alpha, threshold=threshold,
                                 encoding=encoding, noninferiority_margin=noninferiority_margin)
    _emit(report, fmt)


@app.command()
def benchmark(
    models: str = typer.Option("logreg,rf,nb,knn,svm", help="Comma-separated model names: "
                               "logreg, rf, nb, knn, svm, tree, dummy, lda, bagging, et, "
                               "linear_svm, mlp, adaboost."),
    datasets: str = typer.Option("sklearn", help="'sklearn' (iris, wine, breast_cancer, digits) "
                                 "or a comma-separated subset."),
    cv: str = typer.Option("10x10", help="Design: RxK (R repeats of stratified K-fold), 5x2, or "
                           "holdout:RxFRACTION (R >= 2)."),
    metric: str = typer.Option("accuracy", help="A scikit-learn scorer name."),
    out: Optional[Path] = typer.Option(None, help="Results file (.parquet or .csv), written "
                                       "before the analysis; default "
                                       "outperform-benchmark-<cv>-<metric>-seed<seed>.parquet in "
                                       "the working directory. A rerun with the same file "
                                       "resumes where it stopped."),
    n_jobs: int = typer.Option(1, help="Parallel fits (joblib; -1: all cores)."),
    scheduler: Optional[str] = typer.Option(None, metavar="<address>", help=SCHEDULER_HELP),
    seed: int = typer.Option(0, help="random_state of the splits (recorded in the output)."),
    rope: Optional[float] = typer.Option(None, help="ROPE half-width for the Bayesian tests."),
    alpha: float = typer.Option(0.05, help="Significance level."),
    predictions: bool = typer.Option(False, "--predictions", help="Also write every test "
                                     "example's prediction to <out>.predictions.<suffix> "
                                     "(columns task, model, run, fold, example, y_true, "
                                     "y_pred, correct): with one run (--cv 1xK) `outperform "
                                     "leaderboard` ranks the models on it."),
) -> None:
    """Run a paired cross-validation experiment on bundled data, then compare (Q2 and Q3).

    Every model sees the same splits. The per-fold table is written to --out as the fits
    finish (a progress bar on a terminal); the command then prints the Q2 comparison
    (correlated t-tests) on each data set and the Q3 comparison (Friedman and post-hoc tests)
    across them.
    """
    import re
    import time

    from ._validation import TooFewError
    from .compare import compare
    from .experiments import get_models, load_datasets, parse_design, run_experiment

    # OSError: the results file cannot be written (permissions, a full disk).
    with _exit_on_bad_input((OutperformError, ValueError, OSError)):
        design = parse_design(cv, random_state=seed)
        n_splits = design.n_runs * design.n_folds
        if n_splits < 2:
            raise TooFewError(
                f"--cv {cv} gives one train/test split per data set, and the Q2 tests "
                "(corrected resampled t-test, correlated Bayesian t-test) need at least 2: use "
                "holdout:RxF with R >= 2 (e.g. holdout:30x0.2) or k-fold CV (e.g. 10x10). On "
                "one test set, compare per-example predictions with `outperform "
                "compare-predictions` (McNemar).")
        estimators, data = get_models(models), load_datasets(datasets)
        if out is None:
            name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{design.name}-{metric}-seed{seed}")
            out = Path(f"outperform-benchmark-{name}.parquet")
        with _backend(scheduler, n_jobs) as backend:
            err.print(f"{len(estimators)} models x {len(data)} data sets x {n_splits} splits "
                      f"({design.name}) = {len(estimators) * len(data) * n_splits} fits; "
                      f"results go to {out} as they finish.")
            started = time.perf_counter()
            try:
                table = run_experiment(estimators, data, design, metrics=(metric,),
                                       n_jobs=n_jobs, out=out, backend=backend,
                                       store_predictions=predictions)
            except KeyboardInterrupt:
                err.print(f"interrupted: the finished fits are kept in {out}; the same "
                          "command resumes from there.")
                raise typer.Exit(130)
    err.print(f"per-fold results written to {out} ({time.perf_counter() - started:.0f} s).")
    if predictions:
        from .experiments import predictions_path

        table = table[0]
        err.print(f"per-example predictions written to {predictions_path(out)}.")
    for task in table["task"].unique():
        Console().rule(f"Q2 on {task}")
        try:
            _emit(compare(table[table["task"] == task], metric=metric, rope=rope, alpha=alpha),
                  Format.text)
        except OutperformError as exc:
            err.print(f"[yellow]Q2 on {task} not run:[/yellow] {exc}")
    if table["task"].nunique() > 1:
        Console().rule("Q3 across data sets")
        try:
            _emit(compare(table, metric=metric, alpha=alpha), Format.text)
        except OutperformError as exc:
            err.print(f"[yellow]Q3 not run:[/yellow] {exc}")


def _with_runs(result, file, encoding, control):
    """A Q3 report of a table with several runs (seeds) per model and task gets rliable's
    aggregates (min-max normalised per task, which reads either direction) as
    ``details["runs"]``; its report section shows them."""
    import dataclasses

    from .compare import compare_runs
    from .data import read_results

    table = read_results(file, metric=result.metric, higher_is_better=result.higher_is_better,
                         encoding=encoding, paired=False)
    frame = table.frame
    if "run" not in frame.columns or frame.groupby(["task", "model"], observed=True)[
            "run"].nunique().max() < 2:
        return result
    runs = compare_runs(frame, metric=result.metric, higher_is_better=result.higher_is_better,
                        normalize="min-max", control=control, random_state=0).to_dict()
    del runs["profiles"]   # the curves are for figures; the report shows the tables
    return dataclasses.replace(result, details={**result.details, "runs": runs})


@app.command()
def report(
    files: List[Path] = typer.Argument(..., metavar="FILE...", help="Results table (any layout "
                                       "`compare` reads: per-example predictions with y_true, "
                                       "folds on one task, or many data sets), or evaluation "
                                       "logs / folders of runs / a long table of per-item "
                                       "scores (model, item, score) as `compare-evals` reads "
                                       "them (one report per task)."),
    out: Path = typer.Option(Path("outperform-report"), help="Folder for the report files."),
    formats: str = typer.Option("html,md,tex,json", help="Comma-separated: html, md, tex, "
                                "json, txt (the diagrams are written as PDF and SVG)."),
    control: Optional[str] = typer.Option(None, help="Compare every model with this one "
                                          "(e.g. your baseline) instead of all pairs."),
    alpha: float = typer.Option(0.05, help="Significance level."),
    metric: Optional[str] = typer.Option(None, help="Metric column, when there are several."),
    lower_is_better: bool = typer.Option(False, "--lower-is-better",
                                         help="The metric is a loss or error."),
    higher_is_better: bool = typer.Option(False, "--higher-is-better",
                                          help="The metric is a score (higher is better): "
                                          "confirms the direction of a metric name outperform "
                                          "does not know."),
    rope: Optional[float] = typer.Option(None, help="ROPE half-width in metric units."),
    bayesian: bool = typer.Option(True, "--bayesian/--no-bayesian",
                                  help="Include the Bayesian tests over data sets."),
    y_true: str = typer.Option("y_true", "--y-true", help="Per-example predictions (Q1): the "
                               "column of true labels."),
    loss: str = typer.Option("zero-one", help="Q1 loss: zero-one, log, squared, absolute, given."),
    encoding: Optional[str] = typer.Option(None, help="Encoding of a text file that is not "
                                           "UTF-8, e.g. cp1252 (spreadsheet exports)."),
    cluster_by: Optional[str] = typer.Option(None, "--cluster-by", help="Evaluation logs: "
                                             "field grouping the items (cluster-robust SEs)."),
    intersect: bool = typer.Option(False, "--intersect", help="Evaluation logs: compare on the "
                                   "items all models share."),
) -> None:
    """Write a publishable report (HTML, Markdown, LaTeX, JSON) with its figures."""
    from .compare import compare
    from .data._evals._long import is_item_table
    from .data._evals._read import is_eval_log
    from .data._files import read_columns, read_table
    from .report import FORMATS, write_report

    direction = _direction(lower_is_better, higher_is_better)
    chosen = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown or not chosen:
        what = f"unknown format(s) {', '.join(unknown)}" if unknown else "no format given"
        raise InvalidInputError(f"--formats {formats!r}: {what}; choose among "
                                f"{', '.join(FORMATS)}, comma-separated (the critical-difference "
                                "diagrams are always written as PDF and SVG).")
    if out.exists() and not out.is_dir():
        raise InvalidInputError(f"--out {str(out)!r} is an existing file; give a folder for the "
                                "report files (it is created if missing).")
    # A long table of per-item scores (model, item id, score; no run/fold) is an evaluation
    # log too: the header decides, before read_results would refuse its repeated cells.
    items = (len(files) == 1 and files[0].is_file()
             and is_item_table(read_columns(files[0], encoding=encoding)))
    if len(files) > 1 or is_eval_log(files[0]) or items:
        from ._evals_cli import refuse_table_options, write_eval_reports

        refuse_table_options({"--rope": rope is not None, "--no-bayesian": not bayesian,
                              "--y-true": y_true != "y_true", "--loss": loss != "zero-one"})

        # the evaluation-log reader has no encoding: a table in another one is read here
        sources = [read_table(files[0], encoding=encoding)] if items and encoding else files
        write_eval_reports(sources, out, chosen, metric=metric, cluster_by=cluster_by,
                           intersect=intersect, control=control, alpha=alpha,
                           higher_is_better=direction)
        return
    file = files[0]
    result = compare(file, metric=metric, higher_is_better=direction, alpha=alpha,
                     control=control, rope=rope, bayesian=bayesian, y_true=y_true, loss=loss,
                     encoding=encoding, progress=True)
    if result.question == "Q3":
        result = _with_runs(result, file, encoding, control)
    paths = write_report(result, out, formats=chosen)
    _emit(result, Format.text)
    for path in (paths.values() if isinstance(paths, dict) else paths):
        err.print(f"wrote {path}")


@app.command()
def simulate(
    name: str = typer.Argument(..., help="lacoste-fig3, lacoste-fig4, lacoste-fig5, "
                               "lacoste-bimodal, corani-fig2a, corani-fig2b or "
                               "demsar-replicability."),
    full: bool = typer.Option(False, "--full", help="The papers' sizes (minutes) instead of a "
                              "quick run (seconds)."),
    out: Optional[Path] = typer.Option(None, help="Write the figure here (.png, .svg, .pdf)."),
    table: Optional[Path] = typer.Option(None, help="Write the results table here (.csv)."),
    seed: int = typer.Option(0, help="random_state."),
    n_jobs: int = typer.Option(1, help="Parallel workers (joblib; -1: all cores); the table "
                               "does not depend on it."),
    scheduler: Optional[str] = typer.Option(None, metavar="<address>", help=SCHEDULER_HELP),
) -> None:
    """Reproduce a simulation study of the papers (AUC of tests, power, replicability)."""
    from .simulate import FIGURES, plot_figure, run_figure

    if name not in FIGURES:
        raise InvalidInputError(f"unknown study {name!r}; choose one of {', '.join(FIGURES)}.")
    if out is not None:
        _output_file(out, "--out", FIGURE_SUFFIXES)
    if table is not None:
        _output_file(table, "--table", (".csv",))
    with _backend(scheduler, n_jobs) as backend:
        frame = run_figure(name, full=full, random_state=seed, n_jobs=n_jobs, backend=backend,
                           progress=True)
    typer.echo(frame.to_string(index=False))
    if table is not None:
        frame.to_csv(table, index=False)
        err.print(f"table written to {table}")
    if out is not None:
        import matplotlib

        matplotlib.use("Agg")
        ax = plot_figure(name, frame)
        out.parent.mkdir(parents=True, exist_ok=True)
        ax.figure.savefig(out, bbox_inches="tight")
        err.print(f"figure written to {out}")


@app.command()
def demo(out: Path = typer.Option(Path("outperform-demo"), help="Folder for the diagrams."),
         alpha: float = typer.Option(0.10, help="Significance level (Demšar uses 0.05 and 0.10).")
         ) -> None:
    """Demšar (2006) Table 6: four C4.5 variants on 14 data sets, end to end.

    Prints the Friedman/Iman–Davenport test and the Nemenyi post-hoc test, and writes the
    critical-difference diagrams of Demšar's Figure 1 (a) all pairs and (b) against C4.5.
    """
    from .compare import compare
    from .data import load_demsar_table6

    table = load_demsar_table6(version="paper")
    Console().rule("Demšar (2006) Table 6 — AUC of C4.5 variants")
    report = compare(table, alpha=alpha)
    _emit(report, Format.text)
    _plot(report, out / "cd_nemenyi.png")
    control = compare(table, alpha=0.05, control="C4.5", posthoc="holm")
    Console().rule("Against the control C4.5 (Holm, Bonferroni–Dunn), α = 0.05")
    _emit(control, Format.text)
    _plot(control, out / "cd_bonferroni_dunn.png")


from ._plan_cli import plan_app  # noqa: E402  (the command group needs ``app`` defined)

app.command("aggregate")(aggregate_cmd)
app.command("compare-evals")(compare_evals_cmd)
from ._leaderboard_cli import leaderboard_cmd  # noqa: E402

app.command("leaderboard")(leaderboard_cmd)
app.add_typer(plan_app, name="plan")


if __name__ == "__main__":  # pragma: no cover
    app()

