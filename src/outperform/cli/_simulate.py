"""``outperform simulate``: the simulation studies of the papers."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .._validation import InvalidInputError
from ._errors import err
from ._output import (FIGURE_SUFFIXES, SCHEDULER_HELP, _backend, _output_file)


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
    from ..simulate import FIGURES, plot_figure, run_figure

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
