"""``outperform report``: a publishable report with its figures."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .._validation import InvalidInputError
from ._errors import err
from ._output import (Format, _direction,
                      _emit)


def _with_runs(result, file, encoding, control):
    """A Q3 report of a table with several runs (seeds) per model and task gets rliable's
    aggregates (min-max normalised per task, which reads either direction) as
    ``details["runs"]``; its report section shows them."""
    import dataclasses

    from ..compare import compare_runs
    from ..data import read_results

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
    from ..compare import compare
    from ..data._evals._long import is_item_table
    from ..data._evals._read import is_eval_log
    from ..data._files import read_columns, read_table
    from ..report import FORMATS, write_report

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
        from ._compare_evals import refuse_table_options, write_eval_reports

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
