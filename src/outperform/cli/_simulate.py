"""``outperform simulate``: the simulation studies of the papers."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import _options as opt
from .._validation import InvalidInputError
from ._errors import err
from ._options import Format
from ._output import (FIGURE_SUFFIXES, _backend, _output_file, check_out,
                      emit_output, save_figure)

#: Names of images: an ``--out`` ending so is the old spelling of ``--plot`` (which then
#: refuses what matplotlib is not asked to write, naming the suffixes it takes).
IMAGE_SUFFIXES = FIGURE_SUFFIXES + (".gif", ".jpg", ".jpeg", ".tif", ".tiff", ".eps", ".ps",
                                    ".webp", ".bmp")


def simulate(
    name: str = typer.Argument(..., help="lacoste-fig3, lacoste-fig4, lacoste-fig5, "
                               "lacoste-bimodal, corani-fig2a, corani-fig2b or "
                               "demsar-replicability."),
    full: bool = typer.Option(False, "--full", help="The papers' sizes (minutes) instead of a "
                              "quick run (seconds)."),
    plot: Optional[Path] = opt.plot(),
    out: Optional[Path] = opt.out("Write the results (in --format) to this file instead of "
                                  "the terminal; a name ending in .png, .svg or .pdf is the "
                                  "old spelling of --plot."),
    fmt: Format = opt.format_(),
    fragment: bool = opt.fragment(),
    table: Optional[Path] = typer.Option(None, help="Write the results table here (.csv)."),
    seed: int = opt.seed("random_state."),
    n_jobs: int = opt.n_jobs("Parallel workers (joblib; -1: all cores); the table does not "
                             "depend on it."),
    scheduler: Optional[str] = opt.scheduler(),
) -> None:
    """Reproduce a simulation study of the papers (AUC of tests, power, replicability)."""
    opt.check_fragment(fragment, fmt)
    from ..report import simulation_output
    from ..simulate import FIGURES, plot_figure, run_figure

    if name not in FIGURES:
        raise InvalidInputError(f"unknown study {name!r}; choose one of {', '.join(FIGURES)}.")
    if out is not None and out.suffix.lower() in IMAGE_SUFFIXES:
        opt.deprecated(f"--out {out.suffix} (a figure)", "--plot")
        if plot is not None and plot != out:
            raise InvalidInputError("--plot and --out both name a figure; give --plot only.")
        plot, out = out, None
    check_out(out)
    if plot is not None:
        _output_file(plot, "--plot", FIGURE_SUFFIXES)
    if table is not None:
        _output_file(table, "--table", (".csv",))
    with _backend(scheduler, n_jobs) as backend:
        frame = run_figure(name, full=full, random_state=seed, n_jobs=n_jobs, backend=backend,
                           progress=True)
    emit_output(simulation_output(frame, name), fmt, out, fragment)
    if table is not None:
        frame.to_csv(table, index=False)
        err.print(f"table written to {table}")
    if plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        ax = plot_figure(name, frame)
        save_figure(ax.figure, plot)
        err.print(f"figure written to {plot}")
