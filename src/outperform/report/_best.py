"""The comparison-with-the-best part of a report (Hsu's MCB): its table and how to read it.

Cells from a :class:`~outperform.results.ComparisonWithBest`; :mod:`._document` puts them in
the report's inferences as a subsection.
"""
from __future__ import annotations

import numpy as np

from ._format import fmt_p
from ._sections import Table


def best_table(best, metric: str) -> Table:
    """One row per model, best mean first: mean, mean minus the best of the others, Hsu's
    constrained simultaneous interval, the p-value of "not the best", could be the best."""
    order = np.argsort(-best.means if best.higher_is_better else best.means, kind="stable")
    level = f"{100 * (1 - best.alpha):g}%"
    rows = [[best.names[i], f"{best.means[i]:.4g}", f"{best.difference[i]:+.4g}",
             f"[{_bound(best.lower[i])}, {_bound(best.upper[i])}]", fmt_p(best.pvalue[i]),
             "yes" if best.could_be_best[i] else "no"] for i in order]
    other = "max" if best.higher_is_better else "min"
    header = ["model", f"mean {metric}", f"minus {other} of others",
              f"simultaneous {level} interval", "p (not the best)", "could be the best"]
    return Table("best", f"Comparison with the best (Hsu's MCB): mean {metric} minus the "
                 f"{'largest' if best.higher_is_better else 'smallest'} mean of the other "
                 f"models, constrained simultaneous {level} intervals", header, rows,
                 "frequentist")


def best_intro(best) -> str:
    """How the intervals were made and what they promise (Hsu 1984; Hsu 1996 ch. 4)."""
    level = f"{100 * (1 - best.alpha):g}%"
    return (f"Hsu's multiple comparisons with the best (Hsu 1984; Hsu 1996 ch. 4): for each "
            f"model, an interval for its mean minus the best mean of the other models, all "
            f"{len(best.names)} holding together with probability at least {level}. The "
            f"{best.n_blocks} {best.unit}s are blocks of a two-way ANOVA (residual mean "
            f"square {best.mse:.4g} on {best.df:g} degrees of freedom); the critical value "
            f"{best.critical_value:.4f} is the one-sided Dunnett quantile of "
            f"{len(best.names) - 1} comparisons. A model could be the best when its interval "
            "reaches past 0 on the side of better; an interval ending at 0 on that side means "
            "the model is worse than the best, by at most the other end.")


def _bound(value: float) -> str:
    """A bound of a constrained interval: 0 as "0", others signed."""
    return "0" if value == 0 else f"{value:+.4g}"
