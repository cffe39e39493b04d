"""``outperform gate``: a candidate build against a baseline, for CI — pass, regression or
inconclusive, each with its own exit code (0, 10, 11; :data:`._errors.EXIT_CODES`).

Modes, one branch each: ``--plan`` (items a gate needs), ``--save-baseline DIR`` (store the
baseline, then gate if a candidate is given), the gate itself (``--aa`` adds the A/A check).
"""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.markup import escape

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import (EXIT_INCONCLUSIVE, EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK,
                      EXIT_REGRESSION, EXIT_USAGE, err)

EXIT_HELP = (f"Exit codes: {EXIT_OK} pass, {EXIT_REGRESSION} regression, {EXIT_INCONCLUSIVE} "
             f"inconclusive; {EXIT_INPUT} bad input, {EXIT_USAGE} usage error, {EXIT_INTERNAL} "
             f"internal error, {EXIT_INTERRUPTED} interrupted.")


class GateFormat(str, Enum):
    """``--format`` of ``gate``: the output formats and JUnit XML."""

    text = "text"
    markdown = "markdown"
    json = "json"
    html = "html"
    latex = "latex"
    junit = "junit"


def gate_cmd(
    baseline: Optional[Path] = typer.Argument(None, help="The baseline's per-item results: "
                                              "lm-eval samples, an Inspect log, a HELM run "
                                              "folder, a CSV/Parquet table, or a folder "
                                              "written by --save-baseline."),
    candidate: Optional[Path] = typer.Argument(None, help="The candidate's, in any of those "
                                               "formats."),
    margin: Optional[float] = opt.margin(),
    fmt: GateFormat = typer.Option(GateFormat.text, "--format", case_sensitive=False,
                                   help="Output format: text, markdown (a CI job summary), "
                                        "json, html, latex or junit (JUnit XML, one test case "
                                        "per task)."),
    out: Optional[Path] = opt.out(),
    fragment: bool = opt.fragment(),
    metric: Optional[str] = opt.metric("Metric to gate, e.g. acc, 'exact_match,strict-match' "
                                       "(default: each task's first)."),
    task: Optional[List[str]] = opt.task("Gate only this task (repeat for several)."),
    alpha: float = opt.alpha("One-sided level of each decision, family-wise across tasks "
                             "(Holm); intervals at 1 - 2 alpha."),
    cluster: Optional[str] = opt.cluster(),
    intersect: bool = opt.intersect("Gate on the items and tasks both runs have (with a "
                                    "warning) instead of refusing."),
    log_format: Optional[str] = opt.log_format(),
    lower_is_better: bool = opt.lower_is_better(),
    higher_is_better: bool = opt.higher_is_better(),
    power: float = opt.power("Power of the minimum detectable regression reported, and of "
                             "--plan.", default=0.8),
    samples: str = typer.Option("mean", "--samples", help="Several samples per item (epochs, "
                                "seeds): mean (within-item variance reported), pass@k or "
                                "k-of-k (unbiased, Chen et al. 2021)."),
    k: Optional[int] = typer.Option(None, "--k", help="k of pass@k and k-of-k."),
    aa: bool = typer.Option(False, "--aa", help="The two runs are of one build: report the flip "
                            "rate of the verdict under resampling; above alpha the gate is "
                            "flagged as mis-specified."),
    n_resamples: int = opt.n_resamples("Resamples of --aa."),
    seed: int = opt.seed(),
    y_true: str = opt.y_true("A predictions table: the column of the true labels (the other "
                             "column holds the build's predictions)."),
    save_baseline: Optional[Path] = typer.Option(None, "--save-baseline", metavar="DIR",
                                                 help="Store the baseline's per-item results "
                                                 "(Parquet, with content hashes of the items) "
                                                 "in DIR; later: outperform gate DIR "
                                                 "CANDIDATE."),
    plan: bool = typer.Option(False, "--plan", help="How many items does my gate need? "
                              "With --margin and --discordance (0/1 scores) or --sd (graded)."),
    discordance: Optional[float] = opt.discordance("--plan: share of items exactly one build "
                                                   "gets right."),
    sd: Optional[float] = typer.Option(None, "--sd", help="--plan: standard deviation of the "
                                       "per-item difference (one sample each)."),
    repeats: int = typer.Option(1, "--repeats", help="--plan: samples per item averaged."),
    within_variance: Optional[float] = typer.Option(None, "--within-variance", help="--plan "
                                                    "with --repeats: within-item variance of "
                                                    "one sample's difference."),
    sequential: bool = typer.Option(False, "--sequential", help="Check after every item, "
                                    "valid at every look (betting confidence sequences): the "
                                    "CANDIDATE's log may be partial and growing, its items in "
                                    "the random order they were evaluated; rerun after each "
                                    "batch, stop at pass or regression (exit 11: go on)."),
    shuffle: bool = typer.Option(False, "--shuffle", help="--sequential on a finished log: "
                                 "take the items in a random order (--seed) instead of the "
                                 "log's."),
) -> None:
    """Gate a candidate build against a baseline: pass, regression or inconclusive.

    Per task, the paired difference candidate - baseline (positive favours the candidate)
    with its interval; exact McNemar (0/1 scores) or the paired t-test, and with --margin
    Tango's score test or the non-inferiority t-test; Holm across tasks; the minimum
    detectable regression and the power at the current n. Exit codes: 0 pass, 10
    regression, 11 inconclusive; 1 bad input, 2 usage error, 3 internal error.
    """
    from ._output import check_out

    check_out(out)
    if log_format is None:
        log_format = "auto"
    if fragment and fmt is not GateFormat.latex:
        opt.check_fragment(fragment, fmt)
    if plan:
        return _plan(baseline, candidate, margin, discordance, sd, repeats, within_variance,
                     alpha, power, fmt, out, fragment)
    if baseline is None:
        raise InvalidInputError("give the BASELINE and CANDIDATE per-item results (or --plan "
                                "to plan a gate).")
    if save_baseline is not None:
        from ..compare import save_baseline as save

        written = save(str(baseline), save_baseline, format=log_format, cluster=cluster,
                       y_true=y_true)
        err.print(f"baseline saved in {escape(str(written.parent))}", highlight=False)
        if candidate is None:
            return
        baseline = save_baseline
    if candidate is None:
        raise InvalidInputError("give the CANDIDATE's per-item results after the BASELINE.")
    if sequential or shuffle:
        return _sequential(baseline, candidate, margin, alpha, metric, task, log_format,
                           opt.direction(lower_is_better, higher_is_better), samples, k,
                           shuffle, seed, y_true, fmt, out, fragment,
                           ignored={"--cluster": cluster is not None, "--aa": aa,
                                    "--intersect": intersect})
    from ..compare import gate

    result = gate(str(baseline), str(candidate), margin=margin, alpha=alpha, cluster=cluster,
                  metric=metric, task=task or None, power=power, intersect=intersect,
                  format=log_format, higher_is_better=opt.direction(lower_is_better,
                                                                    higher_is_better),
                  samples=samples, k=k, aa=aa, n_resamples=n_resamples, random_state=seed,
                  y_true=y_true)
    _emit(result, fmt, out, fragment)
    raise typer.Exit(exit_code(result))


def _sequential(baseline, candidate, margin, alpha, metric, task, log_format, direction,
                samples, k, shuffle, seed, y_true, fmt, out, fragment, ignored) -> None:
    """``--sequential``: the gate after every item (:func:`outperform.compare.sequential_gate`)."""
    given = [flag for flag, on in ignored.items() if on]
    if given:
        raise InvalidInputError(f"{', '.join(given)} do not apply to --sequential (its items "
                                "are independent draws, intersected with the baseline's).")
    from ..compare import sequential_gate
    from ..report import render_output, sequential_gate_junit, sequential_gate_output
    from ._output import write_output

    result = sequential_gate(str(baseline), str(candidate), margin=margin, alpha=alpha,
                             metric=metric, task=task or None, format=log_format,
                             higher_is_better=direction, samples=samples, k=k,
                             order="shuffle" if shuffle else "file", random_state=seed,
                             y_true=y_true)
    if fmt is GateFormat.junit:
        write_output(sequential_gate_junit(result), out)
    else:
        write_output(render_output(sequential_gate_output(result), fmt.value,
                                   fragment=fragment), out)
    if fmt is GateFormat.text:
        for line in result.warnings:
            err.print(f"[yellow]warning:[/yellow] {escape(line)}", soft_wrap=True)
    raise typer.Exit(exit_code(result))


def exit_code(result) -> int:
    """0 pass, 10 regression, 11 inconclusive."""
    return {"pass": EXIT_OK, "regression": EXIT_REGRESSION,
            "inconclusive": EXIT_INCONCLUSIVE}[result.verdict]


def _emit(result, fmt: GateFormat, out: Optional[Path], fragment: bool = False) -> None:
    from ..report import gate_junit, gate_output, render_output
    from ._output import write_output

    if fmt is GateFormat.junit:
        write_output(gate_junit(result), out)
    else:
        write_output(render_output(gate_output(result), fmt.value, fragment=fragment), out)
    if fmt is GateFormat.text:
        for line in result.warnings:
            err.print(f"[yellow]warning:[/yellow] {escape(line)}", soft_wrap=True)


def _plan(baseline, candidate, margin, discordance, sd, repeats, within_variance, alpha,
          power, fmt, out, fragment=False) -> None:
    if baseline is not None or candidate is not None:
        raise InvalidInputError("--plan plans a gate before it runs: give no files, only "
                                "--margin and --discordance or --sd (the gate itself reports "
                                "its power at its n).")
    if margin is None:
        raise InvalidInputError("--plan needs --margin: the regression the gate must catch.")
    if fmt is GateFormat.junit:
        raise InvalidInputError("--format junit is for a gate's tasks; --plan prints text, "
                                "markdown, json, html or latex.")
    from ..plan import gate_sample_size
    from ..report import gate_plan_output, render_output
    from ._output import write_output

    res = gate_sample_size(margin=margin, discordance=discordance, sd=sd, repeats=repeats,
                           within_variance=within_variance, alpha=alpha, power=power)
    write_output(render_output(gate_plan_output(res, margin=margin, alpha=alpha, power=power),
                               fmt.value, fragment=fragment), out)
