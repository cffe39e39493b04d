"""``outperform report``: a publishable report with its figures, written to a folder."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import err
from ..data._mlflow_uri import is_mlflow_uri
from ._options import Format
from ._output import _emit, writing

#: ``--format`` names -> the file formats of :func:`outperform.report.write_report`.
FILE_FORMATS = {"html": "html", "markdown": "md", "md": "md", "latex": "tex", "tex": "tex",
                "json": "json", "text": "txt", "txt": "txt"}
DEFAULT_OUT = Path("outperform-report")


def _file_formats(given: List[str], old: Optional[str]) -> tuple[str, ...]:
    """The report's file formats from ``--format`` (repeated or comma-separated) or the
    deprecated ``--formats``; html, md, tex and json by default."""
    from ..report import FORMATS

    if old is not None:
        opt.deprecated("--formats", "--format")
    texts = list(given) + ([old] if old is not None else [])
    if not texts:
        return ("html", "md", "tex", "json")
    names = [f.strip().lower() for t in texts for f in t.split(",") if f.strip()]
    unknown = [f for f in names if f not in FILE_FORMATS]
    if unknown or not names:
        what = f"unknown format(s) {', '.join(unknown)}" if unknown else "no format given"
        raise InvalidInputError(f"--format {','.join(texts)!r}: {what}; choose among "
                                f"{', '.join(FORMATS)} (or markdown, latex, text), "
                                "comma-separated or repeated (the critical-difference diagrams "
                                "are always written as PDF and SVG).")
    return tuple(dict.fromkeys(FILE_FORMATS[f] for f in names))


def report(
    given: List[str] = typer.Argument(..., metavar="FILE...", help="Results table (any layout "
                                      "`compare` reads: per-example predictions with y_true, "
                                      "folds on one task, or many data sets; or MLflow runs, "
                                      "mlflow://HOST:PORT/EXPERIMENT), or evaluation "
                                      "logs / folders of runs / a long table of per-item "
                                      "scores (model, item, score) as `compare-evals` reads "
                                      "them (one report per task)."),
    out: Optional[Path] = opt.out(f"Folder for the report files (default {DEFAULT_OUT})."),
    fmt: List[str] = typer.Option([], "--format", help="Files to write, repeated or "
                                  "comma-separated: html, markdown, latex, json, text (default "
                                  "html, markdown, latex and json; the diagrams are written "
                                  "as PDF and SVG)."),
    formats: Optional[str] = opt.old("--formats", "--format"),
    fragment: bool = opt.fragment("With latex among the formats: the .tex file holds only the "
                                  "tables and figure environments, to \\input into a paper "
                                  "(the \\usepackage lines they need in a comment at the top), "
                                  "not a whole document."),
    control: Optional[str] = opt.control(),
    pairs: Optional[str] = opt.pairs(),
    alpha: float = opt.alpha(),
    metric: Optional[str] = opt.metric(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    rope: Optional[float] = opt.rope(),
    bayesian: bool = typer.Option(True, "--bayesian/--no-bayesian",
                                  help="Include the Bayesian tests over data sets."),
    y_true: str = opt.y_true(),
    loss: str = opt.loss("Q1 loss: zero-one, log, squared, absolute, given."),
    encoding: Optional[str] = opt.encoding(),
    cluster: Optional[str] = opt.cluster(),
    cluster_by: Optional[str] = opt.old("--cluster-by", "--cluster"),
    intersect: bool = opt.intersect("Evaluation logs: compare on the items all models share."),
    seed: int = opt.seed("Seed of the Monte Carlo draws and the bootstrap of the runs."),
    log_to: Optional[str] = typer.Option(None, "--log-to", metavar="URI", help="Also log the "
                                         "report to an MLflow run: its files as artifacts, "
                                         "the p-value and effect size as metrics "
                                         "(mlflow://HOST:PORT/RUN_ID; needs the 'mlflow' "
                                         "extra)."),
) -> None:
    """Write a publishable report (HTML, Markdown, LaTeX, JSON) with its figures."""
    from ..compare import compare
    from ..compare._report_inputs import with_runs
    from ..data._evals._long import is_item_table
    from ..data._evals._read import is_eval_log
    from ..data._files import read_columns, read_table
    from ..report import write_report

    direction = opt.direction(lower_is_better, higher_is_better)
    chosen = _file_formats(fmt, formats)
    files = [opt.results_source(f) for f in given]
    if log_to is not None and not is_mlflow_uri(log_to):
        raise InvalidInputError(f"--log-to {log_to!r}: name an MLflow run, "
                                "mlflow://HOST:PORT/RUN_ID (or mlflow:///path/mlflow.db/RUN_ID).")
    if isinstance(files[0], str):   # MLflow runs: read once, for the report and its runs
        if len(files) > 1:
            raise InvalidInputError("give one mlflow:// URI (one experiment) per report.")
        from ..data._mlflow import read_mlflow_uri

        files = [read_mlflow_uri(files[0], metric=metric)]
    if fragment and "tex" not in chosen:
        raise InvalidInputError("--fragment writes LaTeX tables and figures; add latex to "
                                f"--format (given: {', '.join(chosen)}).")
    cluster = opt.merge("--cluster", cluster, "--cluster-by", cluster_by)
    out = DEFAULT_OUT if out is None else out
    if out.exists() and not out.is_dir():
        raise InvalidInputError(f"--out {str(out)!r} is an existing file; give a folder for the "
                                "report files (it is created if missing).")
    # A long table of per-item scores (model, item id, score; no run/fold) is an evaluation
    # log too: the header decides, before read_results would refuse its repeated cells.
    table = not isinstance(files[0], Path)   # MLflow runs, read
    items = (not table and len(files) == 1 and files[0].is_file()
             and is_item_table(read_columns(files[0], encoding=encoding)))
    if len(files) > 1 or (not table and is_eval_log(files[0])) or items:
        if log_to is not None:
            raise InvalidInputError("--log-to logs the report of one results table; "
                                    "evaluation logs write one report per task.")
        from ._compare_evals import refuse_table_options, write_eval_reports

        refuse_table_options({"--rope": rope is not None, "--no-bayesian": not bayesian,
                              "--y-true": y_true != "y_true", "--loss": loss != "zero-one",
                              "--pairs": pairs is not None})

        # the evaluation-log reader has no encoding: a table in another one is read here
        sources = [read_table(files[0], encoding=encoding)] if items and encoding else files
        write_eval_reports(sources, out, chosen, metric=metric, cluster=cluster,
                           intersect=intersect, control=control, alpha=alpha,
                           higher_is_better=direction, fragment=fragment)
        return
    file = files[0]
    result = compare(file, metric=metric, higher_is_better=direction, alpha=alpha,
                     control=control, rope=rope, bayesian=bayesian, y_true=y_true, loss=loss,
                     cluster=cluster, encoding=encoding, progress=True, random_state=seed,
                     pairs=pairs)
    result = with_runs(result, file, encoding=encoding, control=control, pairs=pairs)
    with writing(out):
        paths = write_report(result, out, formats=chosen, seed=seed, fragment=fragment,
                             methods=True)
    _emit(result, Format.text)
    for path in (paths.values() if isinstance(paths, dict) else paths):
        err.print(f"wrote {path}")
    if log_to is not None:
        from ..report import log_mlflow

        logged = log_mlflow(result, log_to, written=list(paths.values()))
        err.print(f"logged {len(logged['artifacts'])} artifact(s) and "
                  f"{len(logged['metrics'])} metric(s) to MLflow run {logged['run']}")
