"""``outperform items``: item diagnostics of evaluation logs or a per-item table.

Bad input raises :class:`InvalidInputError` (or another ``OutperformError``), which the
shared handler of :mod:`._errors` turns into one line and exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from . import _options as opt
from .._validation import InvalidInputError
from ._options import Format


def items_cmd(
    paths: List[Path] = typer.Argument(..., help="Per-item scores of many models: a CSV/Parquet "
                                       "table (model, task optional, item or example, score) "
                                       "or evaluation logs (lm-eval samples, Inspect logs, HELM "
                                       "runs). A model need not answer every item."),
    metric: Optional[str] = opt.metric("Metric to use (default: each task's first one)."),
    top_k: int = typer.Option(5, "--top-k", help="Flag the items on which the K best models "
                              "all score the same (they do not separate them)."),
    irt: str = typer.Option("auto", "--irt", metavar="auto|rasch|2pl|none",
                            help="Item response model of the abilities: auto (Rasch for 0/1 "
                                 "scores, none for graded ones), rasch, 2pl or none."),
    prior_sd: float = typer.Option(3.0, "--prior-sd", help="Standard deviation of the normal "
                                   "priors of the item response model (penalised joint ML); "
                                   "0: exact joint ML (Rasch, mean item difficulty 0)."),
    alpha: float = opt.alpha("1 - confidence level of the abilities' intervals."),
    n_resamples: int = opt.n_resamples("Bootstrap resamples of the items for the noise of the "
                                       "signal-to-noise ratio."),
    n_splits: int = typer.Option(100, "--n-splits", help="Random halvings of the items for "
                                 "the split-half decision accuracy."),
    top: int = opt.top("Items to look at printed (0: all).", default=20),
    seed: int = opt.seed("Seed of the bootstrap and of the halvings (reproducible)."),
    log_format: Optional[str] = opt.log_format(),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    out: Optional[Path] = opt.out(),
) -> None:
    """Item diagnostics: per item its difficulty and discrimination (corrected item-total
    correlation), the items no model or every model gets right or that do not separate the
    top models; per benchmark and subtask the signal-to-noise ratio and decision accuracy
    (Heineman et al. 2025); the models' abilities under a Rasch or 2PL model.
    """
    from ._output import check_out, emit_output

    check_out(out)

    opt.check_fragment(fragment, fmt)
    if top < 0:
        raise InvalidInputError(f"--top must be 0 (all items) or positive, got {top}.")
    if prior_sd < 0:
        raise InvalidInputError(f"--prior-sd must be positive, or 0 for exact joint ML; got "
                                f"{prior_sd}.")
    from ..compare import item_diagnostics
    from ..report import items_output

    result = item_diagnostics([str(p) for p in paths] if len(paths) > 1 else str(paths[0]),
                              metric=metric, top_k=top_k, irt=irt.lower(),
                              prior_sd=prior_sd or None, alpha=alpha,
                              n_resamples=n_resamples, n_splits=n_splits, random_state=seed,
                              format=(log_format or "auto").lower())
    emit_output(items_output(result, shown=top or None), fmt, out, fragment)
