"""``outperform demo``: Demšar (2006) Table 6 end to end."""
from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from ._output import (Format, _emit, _plot)


def demo(out: Path = typer.Option(Path("outperform-demo"), help="Folder for the diagrams."),
         alpha: float = typer.Option(0.10, help="Significance level (Demšar uses 0.05 and 0.10).")
         ) -> None:
    """Demšar (2006) Table 6: four C4.5 variants on 14 data sets, end to end.

    Prints the Friedman/Iman–Davenport test and the Nemenyi post-hoc test, and writes the
    critical-difference diagrams of Demšar's Figure 1 (a) all pairs and (b) against C4.5.
    """
    from ..compare import compare
    from ..data import load_demsar_table6

    table = load_demsar_table6(version="paper")
    Console().rule("Demšar (2006) Table 6 — AUC of C4.5 variants")
    report = compare(table, alpha=alpha)
    _emit(report, Format.text)
    _plot(report, out / "cd_nemenyi.png")
    control = compare(table, alpha=0.05, control="C4.5", posthoc="holm")
    Console().rule("Against the control C4.5 (Holm, Bonferroni–Dunn), α = 0.05")
    _emit(control, Format.text)
    _plot(control, out / "cd_bonferroni_dunn.png")
