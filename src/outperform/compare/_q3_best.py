"""Q3 with ``posthoc="mcb"``: Hsu's comparisons with the best added to a report (split from
:mod:`._q3`; the sentences come from :func:`._words.best_words`)."""
from __future__ import annotations

from dataclasses import replace

from ..data._results_table import ScoreMatrix
from ..results import ComparisonReport
from ..stats._mcb import mcb
from ._registry import label
from ._words import best_words


def with_best(report: ComparisonReport, scores: ScoreMatrix, *, alpha: float
              ) -> ComparisonReport:
    """``report`` with ``best`` (Hsu's MCB over the data sets as blocks), its sentences among
    the conclusions and, for two models, the procedure named in the rationale."""
    best = mcb(scores.values, higher_is_better=scores.higher_is_better, alpha=alpha,
               names=scores.models, unit="task")
    rationale = report.rationale
    if "Hsu" not in rationale:
        rationale += (" Hsu's multiple comparisons with the best on the means (Hsu 1984) "
                      "says which models could be the best.")
    return replace(report, best=best, rationale=rationale,
                   conclusions=report.conclusions + tuple(
                       best_words(label("mcb"), best, metric=scores.metric)))
