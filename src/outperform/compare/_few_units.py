"""Too few resampled units for the rank sets to be trusted: a note (and a warning), measured.

The coverage of rank confidence sets (Mogstad, Romano, Shaikh & Wilhelm 2024) is
asymptotic in the number of resampled units: items, clusters, or the tasks of a per-task
table. ``benchmarks/study_rank_set_units.py`` measured how far below 95 % the joint coverage
of 95 % simultaneous sets falls with few units, when every model is tied (the configuration
the max-t critical value is calibrated for, where too few units show first): each cell is
``outperform.simulate.rank_set_coverage(means, n_items=..., cluster_size=..., scores=...,
n_replications=2000, n_resamples=1000, random_state=2026)`` (Monte Carlo standard error
0.005 to 0.011), tabulated in docs/tutorial-leaderboards.md, "How many items are enough".
"""
from __future__ import annotations

import warnings

from .._validation import OutperformWarning

from ..results._rank_sets import RankSets

#: Below this many resampled units a leaderboard gets a note. Source: the study above; at
#: 100 units every design (items, clusters of 4, tasks; 4 or 10 tied models) was covered in
#: 0.934 to 0.956 of the benchmarks, as at 200 units (0.936 to 0.949), while at 50 units 10
#: tied models were covered in 0.913 to 0.923 of them.
FEW_UNITS = 100
#: Below this many units the Python API also warns (UserWarning): the study's coverage at 5
#: units was 0.21 to 0.86, at 10 units 0.65 to 0.93.
WARN_BELOW = 10
#: The study's joint coverage: (unit, tied models) -> ((units, coverage), ...). The units of
#: "cluster" are clusters of 4 items sharing their difficulty (0/1 scores); "item" 0/1
#: scores; "task" continuous (normal) scores.
COVERAGE = {
    ("item", 4): ((5, 0.856), (10, 0.924), (14, 0.905), (20, 0.905), (30, 0.935),
                  (50, 0.934), (100, 0.956)),
    ("item", 10): ((5, 0.810), (10, 0.929), (14, 0.860), (20, 0.879), (30, 0.881),
                   (50, 0.923), (100, 0.938)),
    ("cluster", 4): ((5, 0.734), (10, 0.862), (14, 0.894), (20, 0.913), (30, 0.929),
                     (50, 0.936), (100, 0.941)),
    ("cluster", 10): ((5, 0.487), (10, 0.703), (14, 0.802), (20, 0.853), (30, 0.889),
                      (50, 0.921), (100, 0.935)),
    ("task", 4): ((5, 0.678), (10, 0.858), (14, 0.874), (20, 0.897), (30, 0.916),
                  (50, 0.929), (100, 0.945)),
    ("task", 10): ((5, 0.210), (10, 0.648), (14, 0.764), (20, 0.817), (30, 0.877),
                   (50, 0.913), (100, 0.934)),
}


def measured(unit: str, n_units: int, n_models: int) -> tuple[int, int, float]:
    """The study's cell nearest below this leaderboard: (tied models, units, coverage).

    The nearer of 4 and 10 models; the largest simulated count of units not above
    ``n_units`` (the smallest, 5, below it).
    """
    models = 4 if n_models <= 7 else 10
    cells = COVERAGE[(unit, models)]
    units, coverage = next((c for c in reversed(cells) if c[0] <= n_units), cells[0])
    return models, units, coverage


def few_units_note(rs: RankSets) -> str | None:
    """The note for a leaderboard with fewer than :data:`FEW_UNITS` resampled units, else
    None; a UserWarning too below :data:`WARN_BELOW` units."""
    n = rs.n_clusters if rs.n_clusters is not None else rs.n_items
    if n >= FEW_UNITS:
        return None
    models, units, coverage = measured(rs.unit, n, len(rs.names))
    what = "clusters (of 4 items)" if rs.unit == "cluster" else f"{rs.unit}s"
    note = (f"only {n} {rs.unit}s resampled: in simulation, 95% simultaneous rank sets of "
            f"{models} tied models held every true rank in {coverage:.0%} of benchmarks of "
            f"{units} {what} (tutorial-leaderboards, 'How many items are enough'); below "
            f"{FEW_UNITS} {rs.unit}s, treat the rank sets as optimistic.")
    if n < WARN_BELOW:
        warnings.warn(note, OutperformWarning, stacklevel=3)
    return note
