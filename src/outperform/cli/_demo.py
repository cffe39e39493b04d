"""``outperform demo``: Demšar (2006) Table 6 end to end."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import _options as opt
from ._options import Format
from ._output import _plot, emit_reports

#: The level of Demšar's worked example (§3.2.4): the demo reproduces the paper, so its
#: ``--alpha`` is the paper's, the one shared option whose default differs on purpose.
DEMSAR_ALPHA = 0.10


def demo(out: Optional[Path] = opt.out("Folder for the diagrams (default outperform-demo)."),
         alpha: float = typer.Option(DEMSAR_ALPHA, "--alpha", help="Significance level "
                                     "(Demšar uses 0.05 and 0.10; the demo reproduces his "
                                     "example at 0.10)."),
         fmt: Format = opt.format_("Format of the two reports printed (text, markdown, json, "
                                   "html, latex); the diagrams are written either way."),
         fragment: bool = opt.fragment(),
         ) -> None:
    """Demšar (2006) Table 6: four C4.5 variants on 14 data sets, end to end.

    Prints the Friedman/Iman–Davenport test and the Nemenyi post-hoc test, and writes the
    critical-difference diagrams of Demšar's Figure 1 (a) all pairs and (b) against C4.5.
    """
    from ..compare import compare
    from ..data import load_demsar_table6

    opt.check_fragment(fragment, fmt)
    out = Path("outperform-demo") if out is None else out
    table = load_demsar_table6(version="paper")
    report = compare(table, alpha=alpha)
    control = compare(table, alpha=0.05, control="C4.5", posthoc="holm")
    emit_reports("Demšar (2006) Table 6 — AUC of C4.5 variants",
                 {"Demšar (2006) Table 6 — AUC of C4.5 variants": report,
                  "Against the control C4.5 (Holm, Bonferroni–Dunn), α = 0.05": control}, fmt,
                 fragment)
    _plot(report, out / "cd_nemenyi.png")
    _plot(control, out / "cd_bonferroni_dunn.png")
