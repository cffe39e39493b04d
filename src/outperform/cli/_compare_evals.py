"""``outperform compare-evals``: language models compared from their evaluation logs.

Registered on the application by :mod:`outperform.cli`; bad input raises
:class:`InvalidInputError`, which the shared handler of :mod:`._cli` turns into one line and
exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ._errors import err
from .._validation import InvalidInputError

#: Leaderboard rows printed per task: all up to TOP_ALL models, else the TOP_DEFAULT best.
TOP_ALL, TOP_DEFAULT = 20, 10
FORMAT_HELP = "auto, lm-eval, inspect, helm or csv (auto: each file by its name and content)."


def compare_evals_cmd(
    paths: List[Path] = typer.Argument(..., help="Evaluation logs or folders of runs: lm-eval "
                                       "samples_*.jsonl (with results_*.json), Inspect .eval/"
                                       ".json logs, HELM run folders, or a CSV/Parquet table "
                                       "(model, \\[task,] item, score[, cluster][, epoch])."),
    format: str = typer.Option("auto", "--format", help=FORMAT_HELP),
    metric: Optional[str] = typer.Option(None, help="Metric to compare, e.g. acc, "
                                         "'exact_match,strict-match', an Inspect scorer "
                                         "(default: each task's first)."),
    cluster_by: Optional[str] = typer.Option(None, "--cluster-by", help="Field grouping the "
                                             "items (a doc field, Inspect metadata, HELM "
                                             "sub_split, a column): cluster-robust SEs."),
    intersect: bool = typer.Option(False, "--intersect", help="Compare on the items and tasks "
                                   "all models share instead of refusing when some are "
                                   "missing."),
    control: Optional[str] = typer.Option(None, help="Compare every model with this one "
                                          "instead of all pairs."),
    alpha: float = typer.Option(0.05, help="Significance level (CI level 1 − alpha)."),
    lower_is_better: bool = typer.Option(False, "--lower-is-better", help="The metric is a "
                                         "loss (lower is better)."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON instead of tables."),
    top: Optional[int] = typer.Option(None, help="More than two models: print the N best of "
                                      f"each task's leaderboard (default: all up to "
                                      f"{TOP_ALL} models, else {TOP_DEFAULT}; 0: all)."),
) -> None:
    """Compare language models from their per-sample evaluation logs, paired by item.

    Per task: the paired difference of mean scores with its (cluster-robust) CI, McNemar and
    Bayesian McNemar (0/1 scores) or t-tests (graded scores); over tasks: Q3 and the
    hierarchical McNemar (Miller 2024; Williams 2026 §5); more than two models: a leaderboard
    per task (rank confidence sets, tiers, letters).
    """
    import json

    if top is not None and top < 0:
        raise InvalidInputError(f"--top must be 0 (all models) or a positive number, got {top}.")

    from ..compare import compare_evals

    result = compare_evals([str(p) for p in paths], format=format, metric=metric,
                           cluster_by=cluster_by, intersect=intersect, control=control,
                           alpha=alpha, higher_is_better=False if lower_is_better else None)
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=1))
        return
    print_eval_comparison(result, Console(), top=top)


def print_eval_comparison(result, console: Console, top: int | None = None) -> None:
    """Terminal tables of an :class:`~outperform.results.EvalComparison`."""
    from ..compare._words import favoured

    alpha = next(iter(result.per_task.values()))[0].alpha
    level = f"{1 - alpha:.0%}"
    scores = Table(title="Mean score per task", title_justify="left")
    for name, just in (("task", "left"), ("metric", "left"), ("model", "left"),
                       ("mean", "right"), (f"{level} interval (Wilson)", "right"),
                       ("items", "right"), ("epochs", "right")):
        scores.add_column(name, justify=just, overflow="fold")
    diffs = Table(title=f"Paired differences A − B ({level} CI)", title_justify="left")
    for name, just in (("task", "left"), ("A vs B", "left"), ("A − B", "right"),
                       ("CI", "right"), ("SE", "right"), ("SE unpaired", "right"),
                       ("p", "right"), ("better", "left")):
        diffs.add_column(name, justify=just, overflow="fold")
    for task, reports in result.per_task.items():
        info = result.pairing[task]
        items = str(info["n_items"]) + (f" ({info['n_clusters']} clusters)"
                                        if info["n_clusters"] else "")
        rows = {r["model"]: r for rep in reports for r in rep.summary}
        for model, row in rows.items():
            interval = (f"[{row['wilson_low']:.4f}, {row['wilson_high']:.4f}]"
                        if "wilson_low" in row else "")
            epochs = str(row["epochs"]) + (f" (within-item var {row['within_item_variance']:.3g})"
                                           if "within_item_variance" in row else "")
            scores.add_row(escape(task), escape(reports[0].metric), escape(model),
                           f"{row['mean_score']:.4f}", interval, items, epochs)
        for rep in reports:
            d = rep.tests["paired_difference"]
            lo, hi = d.confidence_interval(1 - alpha)
            a, b = rep.models
            side = favoured(d.estimate, higher_is_better=rep.higher_is_better) \
                if d.pvalue < alpha else 0
            diffs.add_row(escape(task), f"{escape(a)} vs {escape(b)}", f"{d.estimate:+.4f}",
                          f"[{lo:+.4f}, {hi:+.4f}]", f"{d.details['standard_error']:.4f}",
                          f"{d.details['unpaired_standard_error']:.4f}",
                          "< 1e-300" if d.pvalue == 0 else f"{d.pvalue:.3g}",
                          escape({1: a, -1: b}.get(side, "neither")))
    console.print(scores)
    console.print(diffs)
    console.print("SE: standard error of the paired difference (cluster-robust with "
                  "--cluster-by); SE unpaired: what ignoring the pairing would give.",
                  style="dim")
    for task, board in result.leaderboards.items():
        k = len(board.names)
        shown = (None if k <= TOP_ALL else TOP_DEFAULT) if top is None else (top or None)
        console.print(f"[bold]{escape(task)}[/bold]: " + escape(board.format(top=shown)),
                      soft_wrap=True, highlight=False)
    for line in result.conclusions:
        console.print(escape(line), soft_wrap=True)
    for line in result.notes:
        console.print(f"[dim]note:[/dim] {escape(line)}", soft_wrap=True)
    for line in result.warnings + tuple(w for reps in result.per_task.values() for r in reps
                                        for w in r.warnings):
        err.print(f"[yellow]warning:[/yellow] {escape(line)}", soft_wrap=True)
    harnesses = sorted({f"{r['harness']} {r['harness_version'] or ''}".strip()
                        for r in result.provenance})
    console.print(f"[dim]read {len(result.provenance)} run(s) ({', '.join(harnesses)}).[/dim]")


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


def write_eval_reports(paths, out: Path, formats, *, metric=None, cluster_by=None,
                       intersect=False, control=None, alpha=0.05,
                       higher_is_better=None) -> None:
    """``outperform report`` on evaluation logs (paths, or a DataFrame of per-item scores):
    one report per task (and pair of models), and one over tasks when there is one, written
    to ``out``; the tables on the terminal."""
    import re

    from ..compare import compare_evals
    from ..report import write_report

    result = compare_evals([str(p) if isinstance(p, (str, Path)) else p for p in paths],
                           metric=metric, cluster_by=cluster_by,
                           intersect=intersect, control=control, alpha=alpha,
                           higher_is_better=higher_is_better)
    reports = [(task if len(reps) == 1 else f"{task}-{r.models[0]}-vs-{r.models[1]}", r)
               for task, reps in result.per_task.items() for r in reps]
    reports += [(name, r) for name, r in (("over-tasks-q3", result.across_tasks),
                                          ("over-tasks-hierarchical", result.hierarchical))
                if r is not None]
    print_eval_comparison(result, Console())
    stems: set[str] = set()
    for name, rep in reports:
        # Letters of any script are kept ("café"); names that still collide get -2, -3, ...
        # rather than one report overwriting another.
        base = stem = re.sub(r"[^\w.-]+", "_", name).strip("_") or "task"
        n = 1
        while stem.casefold() in stems:      # casefold: case-insensitive file systems too
            n += 1
            stem = f"{base}-{n}"
        stems.add(stem.casefold())
        for path in write_report(rep, out, formats=formats, stem=stem).values():
            err.print(f"wrote {path}")
