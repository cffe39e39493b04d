"""``outperform compare-evals``: language models compared from their evaluation logs.

Bad input raises :class:`InvalidInputError`, which the shared handler of :mod:`._errors`
turns into one line and exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

from enum import Enum

import typer
from rich.markup import escape

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import err
from ._options import Format

LOG_FORMATS = ("auto", "lm-eval", "inspect", "helm", "hf-details", "csv")


class _OutputOrLogFormat(str, Enum):
    """``--format``: an output format, or (old spelling of ``--log-format``) a log format."""

    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"
    latex = "latex"
    auto = "auto"
    lm_eval = "lm-eval"
    inspect = "inspect"
    helm = "helm"
    csv = "csv"


def _formats(fmt, log_format: Optional[str]) -> tuple[Format, str]:
    """(output format, log format): a log format's name given to ``--format`` is the old
    spelling of ``--log-format``."""
    value = getattr(fmt, "value", fmt).lower()
    if value in LOG_FORMATS:
        opt.deprecated(f"--format {value} (the format of the logs)", f"--log-format {value}")
        if log_format is not None and log_format != value:
            raise InvalidInputError(f"--format {value} and --log-format {log_format} disagree; "
                                    "give --log-format only.")
        return Format.text, value
    if log_format is not None and log_format.lower() not in LOG_FORMATS:
        raise InvalidInputError(f"--log-format {log_format!r}: choose one of "
                                f"{', '.join(LOG_FORMATS)}.")
    return Format(value), (log_format or "auto").lower()


def compare_evals_cmd(
    paths: List[Path] = typer.Argument(..., help="Evaluation logs or folders of runs: lm-eval "
                                       "samples_*.jsonl (with results_*.json), Inspect .eval/"
                                       ".json logs, HELM run folders, Hugging Face details_"
                                       "*.parquet files (streamed), or a CSV/Parquet table "
                                       "(model, \\[task,] item, score[, cluster][, epoch])."),
    fmt: _OutputOrLogFormat = typer.Option(_OutputOrLogFormat.text, "--format",
                                           help=opt.FORMAT_HELP, case_sensitive=False),
    log_format: Optional[str] = opt.log_format(),
    metric: Optional[str] = opt.metric("Metric to compare, e.g. acc, 'exact_match,strict-match', "
                                       "an Inspect scorer (default: each task's first)."),
    cluster: Optional[str] = opt.cluster("Field grouping the items (a doc field, Inspect "
                                         "metadata, HELM sub_split, a column): cluster-robust "
                                         "SEs."),
    cluster_by: Optional[str] = opt.old("--cluster-by", "--cluster"),
    intersect: bool = opt.intersect(),
    control: Optional[str] = opt.control(),
    pairs: Optional[str] = opt.pairs(),
    alpha: float = opt.alpha(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    json_out: bool = opt.old("--json", "--format json", default=False),
    out: Optional[Path] = opt.out(),
    fragment: bool = opt.fragment(),
    top: Optional[int] = opt.top("More than two models: print the N best of each task's "
                                 "leaderboard (default: all up to 20 models, else 10; 0: all)."),
    gold: Optional[Path] = typer.Option(None, "--gold", help="Human labels of some items when "
                                        "the scores are a judge's: a CSV/Parquet table (model, "
                                        "item, label or human or score[, task]). Adds the "
                                        "judge-only vs PPI++ corrected means and differences, "
                                        "Rogan–Gladen rates (0/1) and judge–human agreement."),
    scheduler: Optional[str] = opt.scheduler(
        "Run the bootstrap of the per-task leaderboards (more than two models) on the Dask "
        "cluster of this scheduler (tcp://HOST:PORT, as `dask scheduler` prints it): the same "
        "result, to the bit, as a local run. Needs outperform\\[dask] here and the same "
        "outperform on the workers."),
) -> None:
    """Compare language models from their per-sample evaluation logs, paired by item.

    Per task: the paired difference of mean scores with its (cluster-robust) CI, McNemar and
    Bayesian McNemar (0/1 scores) or t-tests (graded scores); over tasks: Q3 and the
    hierarchical McNemar (Miller 2024; Williams 2026 §5); more than two models: a leaderboard
    per task (rank confidence sets, tiers, letters). With --gold (human labels of some items
    of a judged evaluation): PPI++ corrected means and differences beside the judge's alone,
    and the judge's agreement with people.
    """
    from ._output import check_out

    output_format, log = _formats(fmt, log_format)
    output_format = opt.json_format(json_out, output_format)
    opt.check_fragment(fragment, output_format)
    cluster = opt.merge("--cluster", cluster, "--cluster-by", cluster_by)
    direction = opt.direction(lower_is_better, higher_is_better)
    if top is not None and top < 0:
        raise InvalidInputError(f"--top must be 0 (all models) or a positive number, got {top}.")
    check_out(out)
    if gold is not None and not gold.is_file():
        raise InvalidInputError(f"--gold {gold}: no such file (a CSV or Parquet table of human "
                                "labels: model, item, label).")

    from ..compare import compare_evals
    from ..compare._pair_choice import choose_pairs
    from ._output import _backend

    choose_pairs([], control=control, pairs=pairs)   # a bad --pairs refused before the work

    with _backend(scheduler, 1) as client:
        result = compare_evals([str(p) for p in paths], format=log, metric=metric,
                               cluster=cluster, intersect=intersect, control=control,
                               alpha=alpha, higher_is_better=direction,
                               gold=None if gold is None else str(gold), scheduler=client,
                               pairs=pairs)
    print_eval_comparison(result, output_format, top=top, out=out, fragment=fragment)


def print_eval_comparison(result, fmt: Format = Format.text, top: int | None = None,
                          fragment: bool = False,
                          out: Optional[Path] = None) -> None:
    """Print (or write to ``out``) an :class:`~outperform.results.EvalComparison` as
    ``fmt``; its warnings go to stderr."""
    from rich.console import Console

    from ..report import eval_warnings, evals_output
    from ._output import emit_output

    emit_output(evals_output(result, top=top, width=Console().width), fmt, out, fragment)
    if fmt is Format.text:
        for line in eval_warnings(result):
            err.print(f"[yellow]warning:[/yellow] {escape(line)}", soft_wrap=True)


def refuse_table_options(given: dict[str, bool]) -> None:
    """Raise for the options of ``outperform report`` given (True) that only results tables
    and predictions use: on evaluation logs they would do nothing, and the user expects them
    to act."""
    flags = [flag for flag, on in given.items() if on]
    if flags:
        one = len(flags) == 1
        raise InvalidInputError(
            f"{', '.join(flags)} appl{'ies' if one else 'y'} to results tables and "
            "predictions, not to evaluation logs or per-item scores (compared paired by item, "
            f"as compare-evals does): leave {'it' if one else 'them'} out.")


def write_eval_reports(paths, out: Path, formats, *, metric=None, cluster=None,
                       intersect=False, control=None, alpha=0.05,
                       higher_is_better=None, fragment=False) -> None:
    """``outperform report`` on evaluation logs (paths, or a DataFrame of per-item scores):
    one report per task (and pair of models), and one over tasks when there is one, written
    to ``out``; the tables on the terminal."""
    from ..compare import compare_evals
    from ..compare._report_inputs import eval_reports
    from ..report import write_report

    result = compare_evals([str(p) if isinstance(p, (str, Path)) else p for p in paths],
                           metric=metric, cluster=cluster,
                           intersect=intersect, control=control, alpha=alpha,
                           higher_is_better=higher_is_better)
    print_eval_comparison(result)
    from ._output import writing

    for stem, rep in eval_reports(result):
        with writing(out):
            paths = write_report(rep, out, formats=formats, stem=stem,
                                 fragment=fragment).values()
        for path in paths:
            err.print(f"wrote {path}")
