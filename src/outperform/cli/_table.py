"""``outperform table``: a paper's per-data-set results table (LaTeX, Markdown, HTML, JSON).

Bad input raises :class:`InvalidInputError`, which the shared handler of :mod:`._errors`
turns into one line and exit code 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.markup import escape

from . import _options as opt
from ._errors import err
from ._options import Format
from ._output import check_out, write_output


def table_cmd(
    file: Path = typer.Argument(..., help="Results (.csv, .tsv or .parquet): long (task, model, "
                                "optional run/fold, n_train/n_test, a metric) or wide (one row "
                                "per data set, one column per method)."),
    metric: Optional[str] = opt.metric(),
    higher_is_better: bool = opt.higher_is_better(),
    lower_is_better: bool = opt.lower_is_better(),
    control: Optional[str] = opt.control("Count the wins/ties/losses of every method against "
                                         "this one (e.g. the proposed method)."),
    alpha: float = opt.alpha("Level of the marks (Holm-adjusted within each row) and of the "
                             "test over data sets."),
    test: str = typer.Option("auto", "--test", help="The test of each method against the best "
                             "of its row: auto (the corrected resampled t-test when a cell "
                             "holds several folds or runs, none with one value per cell), "
                             "corrected-t, or none."),
    rho: Optional[float] = opt.rho("Correlation of the fold differences of the corrected t-test "
                                   "(default from n_train/n_test, else 1/k of k-fold CV)."),
    decimals: Optional[int] = typer.Option(None, "--decimals", help="Decimals of the means and "
                                           "standard deviations (default 3)."),
    sd_digits: Optional[int] = typer.Option(None, "--sd-digits", help="Instead of --decimals: "
                                            "significant digits of each standard deviation, "
                                            "its mean rounded to the same place."),
    ranks: bool = typer.Option(False, "--ranks", help="Also print each cell's rank within its "
                               "row (1 = best, ties averaged), as Demšar's Table 6."),
    transpose: bool = typer.Option(False, "--transpose", help="One row per method, one column "
                                   "per data set."),
    columns: Optional[str] = typer.Option(None, "--columns", help="The methods to show, in this "
                                          "order, separated by commas (e.g. 'ours,svm,knn')."),
    caption: Optional[str] = typer.Option(None, "--caption", help="The caption's first "
                                          "sentences; what bold, the mark and the footer mean "
                                          "follows."),
    label: Optional[str] = typer.Option(None, "--label", help="LaTeX \\label (default "
                                        "tab:results)."),
    siunitx: bool = typer.Option(False, "--siunitx", help="LaTeX: siunitx S columns aligned "
                                 "on the decimal point (\\usepackage{siunitx})."),
    fmt: Format = opt.format_("Output format: text, markdown, json, html or latex (a booktabs "
                              "table float to paste into a paper)."),
    fragment: bool = opt.fragment("With --format latex: accepted for every command; the "
                                  "table's LaTeX is a table environment to \\input (the "
                                  "packages it needs in a comment), never a whole document."),
    out: Optional[Path] = opt.out(),
    encoding: Optional[str] = opt.encoding(),
) -> None:
    """The per-data-set results table of a paper: mean ± sd of each method on each data set,
    the best of each row in bold, a dagger on the methods significantly worse than it
    (corrected resampled t-test, Holm within the row; none with one value per cell, as the
    caption says), and footer rows of average ranks, wins/ties/losses against --control and
    the Friedman/Iman–Davenport (or Wilcoxon) test over data sets.
    """
    from ..compare import task_table
    from ..data import read_table
    from ..report import render_output, results_table_output

    check_out(out)
    opt.check_fragment(fragment, fmt)     # before the tests run
    direction = opt.direction(lower_is_better, higher_is_better)
    chosen = None if columns is None else [c.strip() for c in columns.split(",") if c.strip()]
    frame = read_table(file, encoding=encoding)
    table = task_table(frame, metric=metric, higher_is_better=direction, control=control,
                       alpha=alpha, test=test, rho=rho, columns=chosen)
    output = results_table_output(table, decimals=decimals, sd_digits=sd_digits, ranks=ranks,
                                  transpose=transpose, caption=caption, label=label,
                                  siunitx=siunitx)
    fmt = Format(fmt)
    if fmt is not Format.text:     # the text shows them; the other formats say them here too
        from ..report._outputs import output_dict

        for note in output_dict(output)["notes"]:
            err.print(f"[yellow]note:[/yellow] {escape(note)}", soft_wrap=True, highlight=False)
    write_output(render_output(output, fmt.value), out)
