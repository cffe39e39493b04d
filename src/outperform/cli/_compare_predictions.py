"""``outperform compare-predictions``: predictors compared on one test set (Q1)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import err
from ._options import Format
from ._output import _emit, check_out


def compare_predictions_cmd(
    file: Path = typer.Argument(..., help="One row per test example: the true label column and "
                                "one prediction column per model (labels, or probabilities of "
                                "the positive class)."),
    y_true: str = opt.y_true("Column of the true labels."),
    control: Optional[str] = opt.control(),
    reference: Optional[str] = typer.Option(None, hidden=True,
                                            help="Deprecated name of --control."),
    loss: str = opt.loss("zero-one, log, squared, absolute, or given "
                             "(the model columns already hold per-example losses)."),
    cluster: Optional[str] = opt.cluster("Column of cluster ids (documents, speakers): "
                                         "losses are averaged per cluster first."),
    group: Optional[str] = opt.old("--group", "--cluster"),
    rope: Optional[float] = opt.rope("ROPE half-width (around φ = 0.5 for 0/1 loss, in loss "
                                     "units otherwise)."),
    alpha: float = opt.alpha(),
    threshold: float = opt.threshold("Posterior probability needed for a decision."),
    noninferiority_margin: Optional[float] = typer.Option(
        None, "--noninferiority-margin", help="Two models, 0/1 loss: test that the new model "
        "loses at most this much accuracy (0.01 = one point) against the reference (--control, "
        "else the second model); Tango's score test."),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    out: Optional[Path] = opt.out(),
    encoding: Optional[str] = opt.encoding(),
) -> None:
    """Compare predictors on one test set (Q1): McNemar, Bayesian McNemar, t-tests, DeLong."""
    opt.check_fragment(fragment, fmt)
    from ..compare import compare_predictions

    if reference is not None:
        err.print("[yellow]warning:[/yellow] --reference is deprecated; use --control.")
        if control is not None and control != reference:
            raise InvalidInputError(f"--control {control!r} and --reference {reference!r} name "
                                    "different models; give --control only.")
        control = reference
    cluster = opt.merge("--cluster", cluster, "--group", group)
    check_out(out)
    report = compare_predictions(file, y_true=y_true, loss=loss, control=control,
                                 cluster=cluster, rope=rope, alpha=alpha, threshold=threshold,
                                 encoding=encoding, noninferiority_margin=noninferiority_margin)
    _emit(report, fmt, out, fragment)
