"""``outperform compare-predictions``: predictors compared on one test set (Q1)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .._validation import InvalidInputError
from ._errors import err
from ._output import (Format, _emit)


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
    from ..compare import compare_predictions

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
